"""The defending player as a reference ("defending player loses 2 life", "target creature defending player
controls"): rules 506.2 and 508.5.

During the combat phase of a two-player game the nonactive player is the defending player (506.2; in a
shared-turns game the defending team, 506.2b, is two players). An ability of an attacking creature, or one that
refers to an attacking creature, means the player that creature attacks or the controller of the planeswalker it
attacks — and, once it is removed from combat, the one it was attacking before (508.5). Outside the combat phase
there is no defending player, and the reference names nobody.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_engine import teams

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game

COMBAT_STEPS = frozenset(
    {"beginning_of_combat", "declare_attackers", "declare_blockers", "first_strike_damage", "combat_damage",
     "end_of_combat"}
)


def player_attacked(game: Game, target: Any) -> str | None:
    """The player an attack target is: that player, or the controller of the planeswalker (802.2a; LKI if it
    left the battlefield)."""
    if isinstance(target, str):
        return target
    if not isinstance(target, int):
        return None
    walker = game.find(target)
    if walker is not None:
        return game.controller(walker)
    snap = game.lki.get(target)
    return snap.controller if snap is not None else None


def defending_player(game: Game, *attackers: int | None) -> str | None:
    """The defending player an ability means: the one the first of ``attackers`` (the ability's source, then the
    event's creature) attacks or attacked this combat (508.5), else the only defending player (506.2)."""
    if game.step not in COMBAT_STEPS:
        return None
    for oid in attackers:
        if oid is not None and oid in game.history.attack_targets:
            return player_attacked(game, game.history.attack_targets[oid])
    found = teams.defending_players(game, game.active)
    return found[0] if len(found) == 1 else None
