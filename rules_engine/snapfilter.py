"""Filters on an object as it last existed (last known information, rule 608.2h): what a "dies" or "is put into a
graveyard" trigger, a countered spell and a damage source of this turn's history are matched against.

``whose`` reads ``you`` / ``opponent`` relative to the controller of the ability that asks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_engine.layers import has_subtype
from rules_engine.teams import is_opponent

if TYPE_CHECKING:
    from rules_engine.objects import GameObject, Snapshot
    from rules_engine.state import GameState as Game


def whose(game: Game, which: str, player: str, controller: str) -> bool:
    """``you`` / ``opponent`` (rule 102.3: any player not on the controller's team)."""
    return player == controller if which == "you" else is_opponent(game, controller, player)


def snap_matches(
    game: Game, snap: Snapshot, filt: dict[str, Any] | None, controller: str, source: GameObject | Snapshot | None
) -> bool:
    """Whether the object as ``snap`` shows it matches ``filt`` (``self``/``other``: the asking ability's source)."""
    if not filt:
        return True
    if filt.get("other") and source is not None and snap.oid == source.oid:
        return False
    if "self" in filt and (source is not None and snap.oid == source.oid) != bool(filt["self"]):
        return False
    # "when enchanted creature dies": the Aura still names it until state-based actions (704.5m, 603.10a)
    if filt.get("attached") and (source is None or getattr(source, "attached_to", None) != snap.oid):
        return False
    if "controller" in filt and not whose(game, filt["controller"], snap.controller, controller):
        return False
    if "types" in filt and not any(t in snap.chars.types for t in filt["types"]):
        return False
    if "subtypes" in filt and not any(has_subtype(snap.chars, s) for s in filt["subtypes"]):
        return False
    if "owner" in filt and not whose(game, filt["owner"], snap.card.owner, controller):
        return False
    if "colors" in filt and not any(c in snap.chars.colors for c in filt["colors"]):
        return False
    if "multicolored" in filt and (len(snap.chars.colors) > 1) != bool(filt["multicolored"]):
        return False
    return not ("token" in filt and snap.card.is_token != bool(filt["token"]))
