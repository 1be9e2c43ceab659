"""Exceptions: an illegal action is a normal answer, an unscripted decision fails a scenario."""

from __future__ import annotations


class EngineError(Exception):
    """Base class of everything the engine raises on purpose."""


class IllegalAction(EngineError):
    """The action breaks a rule (wrong timing, unpayable cost, illegal target...); state is unchanged."""


class DecisionMissing(EngineError):
    """The game needs a decision the scenario did not script (strict mode)."""


class CardDefinitionError(EngineError):
    """A card definition is malformed; the message names file:line."""


class ScenarioFormatError(EngineError):
    """A scenario file is malformed; the message names file:line."""


class EngineLoop(EngineError):
    """A rules procedure that must end did not (an engine bug): the scenario fails instead of the run crashing."""
