"""What happened this turn, for conditions that look back ("if you attacked with three or more creatures this
turn", "if you gained life this turn", "if a creature died this turn").

Every event passes through ``note`` (called by ``triggers.collect``); the record is reset as each turn begins
(rule 500.1: a turn is the unit these conditions count in). The record itself, ``events.TurnHistory``, is game
state on the ground floor.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_engine.events import Event

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game


def note(game: Game, event: Event) -> None:
    """Record the event in this turn's history."""
    h = game.history
    if event.kind == "attacks" and event.obj is not None:
        h.attacked_with[game.controller(event.obj)] += 1
    elif event.kind == "life_gained" and event.player is not None:
        h.life_gained[event.player] += event.amount
    elif event.kind == "cast" and event.player is not None:
        h.spells_cast[event.player] += 1
    elif (
        event.kind == "zone_change"
        and event.from_zone == "battlefield"
        and event.to_zone == "graveyard"
        and event.lki is not None
        and "Creature" in event.lki.chars.types
    ):
        h.creatures_died += 1


# Conditions on this turn's history: key -> (shape for the schema, test on the history for a player)
HISTORY_CONDITIONS: dict[str, str] = {
    "attacked_with_at_least": "int",  # "if you attacked with N or more creatures this turn"
    "gained_life_this_turn": "bool",  # "if you gained life this turn" (false: "if you haven't")
    "creature_died_this_turn": "bool",  # "if a creature died this turn" (morbid)
    "cast_spells_at_least": "int",  # "if you've cast N or more spells this turn"
}


def holds(game: Game, cond: dict[str, Any], player: str) -> bool | None:
    """The value of a history condition for ``player`` ("you"), or None if ``cond`` is not one."""
    h = game.history
    if "attacked_with_at_least" in cond:
        return h.attacked_with[player] >= int(cond["attacked_with_at_least"])
    if "gained_life_this_turn" in cond:
        return (h.life_gained[player] > 0) == bool(cond["gained_life_this_turn"])
    if "creature_died_this_turn" in cond:
        return (h.creatures_died > 0) == bool(cond["creature_died_this_turn"])
    if "cast_spells_at_least" in cond:
        return h.spells_cast[player] >= int(cond["cast_spells_at_least"])
    return None
