""""The next spell you cast this turn costs {1} less to cast" (DTK Hardened Berserker; rules 601.2f, 611.2a).

A one-shot effect that creates a cost reduction for one player's next spell of this turn: it is part of that
spell's total cost as any reduction is (601.2f: after the mana cost or an alternative cost such as dash, the
additional costs and the increases; it reduces only generic mana), and casting that spell uses it up whether or not
it reduced anything (a {G} spell still costs {G}). Unused, it ends with the turn (514.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.mana import ManaCost, parse_cost

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game

KIND = "next_spell_costs_less"


def add(game: Game, player: str, value: str) -> None:
    """Create the reduction for ``player``'s next spell this turn."""
    game.delayed.append({"kind": KIND, "player": player, "value": value, "duration": "end_of_turn"})


def reductions(game: Game, player: str) -> list[ManaCost]:
    """The reductions waiting for ``player``'s next spell."""
    return [parse_cost(str(d["value"])) for d in game.delayed if d.get("kind") == KIND and d.get("player") == player]


def used_up(game: Game, player: str) -> None:
    """``player`` has cast a spell: the reductions of "the next spell you cast" are spent on it."""
    game.delayed = [d for d in game.delayed if not (d.get("kind") == KIND and d.get("player") == player)]
