"""Countering a spell (rule 701.6a) when something stands in the way: "counter target spell unless its controller
pays {1}" (118.12a: the player may pay as the effect resolves; if they don't, the spell is countered) and "this
spell can't be countered" (101.2: the "can't" wins over the counter effect; the spell stays on the stack).

A spell's own ``cant_be_countered`` static ability works on the stack, where the spell is (113.6), and may carry a
condition on how the spell was cast (``revealed_or_controlled``, reveal.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine import log as narr
from rules_engine import reveal, triggers
from rules_engine.events import Event
from rules_engine.objects import GameObject

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game


def cant_be_countered(game: Game, spell: GameObject) -> bool:
    """The spell has "this spell can't be countered" and its condition, if any, holds."""
    for ability in game.chars(spell).abilities:
        if ability.kind != "static" or ability.spec.get("static") != "cant_be_countered":
            continue
        cond = ability.spec.get("condition")
        if not cond or reveal.holds(spell) == bool(cond["revealed_or_controlled"]):
            return True
    return False


def counter(game: Game, obj: GameObject) -> None:
    """Counter a spell: to its owner's graveyard (a copy ceases to exist), unless it can't be countered."""
    if obj.zone != "stack":
        return
    if cant_be_countered(game, obj):
        game.log(f"Заклинание {narr.obj(game, obj)} не может быть отменено")
        return
    game.log(f"Заклинание {narr.obj(game, obj)} отменено")
    snap = game.snapshot(obj)
    if obj.is_copy:
        game.stack.remove(obj)
        game.touch()
    else:
        game.move(obj, "graveyard")
    triggers.collect(game, Event("countered", lki=snap, player=snap.controller))  # rule 701.6a

