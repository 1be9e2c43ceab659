"""Explicit rules options: a scenario states which (possibly historical) rules it assumes."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from rules_engine.errors import EngineError

# Decisions that only an old rule asks for: the option that models that rule, and what the decision is.
ERA_DECISIONS = {"redirect": ("planeswalker_redirection", "перенаправить ли повреждения на мироходца")}


@dataclass(frozen=True)
class RulesOptions:
    """Rules that changed since 2007; defaults are the modern Comprehensive Rules.

    ``planeswalker_redirection``: noncombat damage to an opponent may be redirected to a planeswalker
    (rule 306.7, removed in 2018). ``planeswalker_uniqueness``: the 2007 rule — planeswalkers sharing a subtype,
    whoever controls them, are all put into the graveyard (per player from Magic 2014, gone in 2017).
    ``mana_burn``: unused mana causes life loss (removed in 2010).
    ``legend_rule_all_players``: the 2007 legend rule (same-name legends anywhere on the battlefield).
    ``lifelink_triggered``: lifelink as the triggered ability it was until 2009 (rule 502.68a of 2008: "whenever
    it deals damage, its controller gains that much life", on the stack). ``split_card_two_sets_of_characteristics``:
    a split card outside the stack has each half's characteristics, not the two combined (until 2017; rule 709.4).
    ``hideaway_former_controllers_may_look``: every player who has controlled the hideaway permanent may look at
    the card it exiled (702.74a of 2015), not only its controller (702.75a today).
    ``two_headed_giant_individual_poison``: in Two-Headed Giant each player has their own poison counters and
    loses at ten (420.5h of 2007, 806 of 2009), not the team's shared fifteen (810.10, 704.6b since 2010).
    ``negative_amounts_modify_pt``: a calculation's negative result is kept by an effect that changes power or
    toughness ("gets +X/+X, where X is its power" at -2 power gives -2/-2), as rule 107.1b said until Hour of
    Devastation (2017: "or otherwise modifies a creature's power or toughness"); today only setting keeps it.
    """

    planeswalker_redirection: bool = False
    planeswalker_uniqueness: bool = False
    mana_burn: bool = False
    legend_rule_all_players: bool = False
    lifelink_triggered: bool = False
    split_card_two_sets_of_characteristics: bool = False
    hideaway_former_controllers_may_look: bool = False
    two_headed_giant_individual_poison: bool = False
    negative_amounts_modify_pt: bool = False

    def has_decision(self, kind: str) -> bool:
        """Whether a decision exists at all under these rules: a script played under two eras may answer a
        decision that only one of them asks (redirecting damage to a planeswalker, until 2018)."""
        if kind not in ERA_DECISIONS:
            return True
        return bool(getattr(self, ERA_DECISIONS[kind][0]))

    @classmethod
    def from_mapping(cls, data: dict[str, Any]) -> RulesOptions:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise EngineError(
                f"unknown rules option(s): {', '.join(unknown)}; known: {', '.join(sorted(known))}"
            )
        for key, value in data.items():
            if not isinstance(value, bool):
                raise EngineError(f"rules option {key} must be true or false")
        return cls(**data)
