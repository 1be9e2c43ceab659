"""Exceptions: an illegal action is a normal answer, an unscripted decision fails a scenario."""

from __future__ import annotations


class EngineError(Exception):
    """Base class of everything the engine raises on purpose."""


class IllegalAction(EngineError):
    """The action breaks a rule (wrong timing, unpayable cost, illegal target...); state is unchanged.

    ``rule`` is the Comprehensive Rules number that forbids it (today's numbering), so a scenario that expects
    a rejection can say which rule must reject it: a rejection for any other reason is not a proof.
    """

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message)
        self.rule = rule

    def __str__(self) -> str:
        return f"{self.args[0]} (правило {self.rule})"


class ScriptError(EngineError):
    """The scenario's script names what isn't there (no such card, an ambiguous name, an empty stack to resolve):
    a fault of the script, never a rules rejection, so it can't satisfy ``illegal:``."""


class DecisionMissing(EngineError):
    """The game needs a decision the scenario did not script (strict mode)."""


class CardDefinitionError(EngineError):
    """A card definition is malformed; the message names file:line."""


class ScenarioFormatError(EngineError):
    """A scenario file is malformed; the message names file:line."""


class EngineLoop(EngineError):
    """A rules procedure that must end did not (an engine bug): the scenario fails instead of the run crashing."""
