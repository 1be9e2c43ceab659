"""Exile "until [this permanent] leaves the battlefield" (rule 610.3): a one-shot effect that exiles the object, and a
second one that returns it to the battlefield under its owner's control (610.3c) immediately after the source leaves
the battlefield — nothing happens in between, not even state-based actions (DTK Silkwrap): the return is part of the
very event that moved the source, so it happens even in the middle of a resolving spell (LRW Austere Command 3).

If the source has already left the battlefield when the exile would happen, the object doesn't move (610.3a). A token
exiled this way ceases to exist (704.5d) and never returns; a card that left exile is a new object (400.7) and stays
where it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine import log as narr

if TYPE_CHECKING:
    from rules_engine.objects import GameObject
    from rules_engine.state import GameState as Game

LINK = "until_leaves"


def exile(game: Game, source_oid: int, obj: GameObject) -> GameObject | None:
    """Exile ``obj`` until the source leaves the battlefield; nothing when the source is gone already (610.3a)."""
    source = game.find(source_oid)
    if source is None or source.zone != "battlefield":
        game.log(f"{narr.obj(game, obj)} не изгоняется: источник уже покинул поле битвы (правило 610.3a)")
        return None
    exiled = game.move(obj, "exile")
    game.linked.setdefault((source_oid, LINK), []).append(exiled.oid)
    return exiled


def source_left(game: Game, source_oid: int) -> None:
    """Rule 610.3: return what the source exiled "until it leaves", right after it left (610.3c: to its owner)."""
    oids = game.linked.pop((source_oid, LINK), [])
    for oid in oids:
        card = game.find(oid)
        if card is None or card.zone != "exile" or card.card.is_token:
            continue
        game.log(f"{narr.obj(game, card)} возвращается на поле битвы под контролем владельца (правило 610.3c)")
        game.move(card, "battlefield", controller=card.owner)
