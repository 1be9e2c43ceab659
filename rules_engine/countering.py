"""Countering a spell (rule 701.6a) when something stands in the way: "counter target spell unless its controller
pays {1}" (118.12a: the player may pay as the effect resolves; if they don't, the spell is countered) and "this
spell can't be countered" (101.2: the "can't" wins over the counter effect; the spell stays on the stack).

A spell's own ``cant_be_countered`` static ability works on the stack, where the spell is (113.6), and may carry a
condition on how the spell was cast (``revealed_or_controlled``, reveal.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_engine import log as narr
from rules_engine import reveal, triggers
from rules_engine.errors import DecisionMissing
from rules_engine.events import Event
from rules_engine.interpreter import Context, effect
from rules_engine.mana import choose_payment, parse_cost, parse_units
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


@effect("counter_unless_pays")
def _counter_unless_pays(ctx: Context, v: dict[str, Any]) -> None:
    """``{what, cost}``: the spell's controller chooses on resolution (a ``may`` decision) whether to pay the cost
    from their mana pool (118.12a); a cost they can't pay is not paid."""
    from rules_engine.effects import objects

    game = ctx.game
    cost = parse_cost(str(v["cost"]))
    for obj in objects(ctx, v.get("what", "target")):
        if obj.zone != "stack":
            continue
        payer = game.controller(obj)
        question = f"заплатить {cost}, чтобы {narr.obj(game, obj)} не было отменено?"
        answer = game.decide("may", payer, question, ctx.source)
        if answer in (True, "yes"):
            pool = game.players[payer].mana_pool
            try:
                units = choose_payment(cost, pool, None)
            except DecisionMissing:
                spend = game.decide("pay", payer, f"какой маной заплатить {cost}?", ctx.source)
                units = choose_payment(cost, pool, parse_units(str(spend)))
            pool.subtract(units)
            for unit in list(pool):
                if pool[unit] <= 0:
                    del pool[unit]
            game.log(narr.payment(payer, "стоимость", cost, units))
            continue
        game.log(f"{narr.player(payer)} не платит {cost}")
        counter(game, obj)
