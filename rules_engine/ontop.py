"""Cards put on top of a library at the same time (rule 401.4: their owner arranges them in any order).

"Put any number of target creature cards from your graveyard on top of your library" (Footbottom Feast): the cards
move together; where two or more go to one library, their owner announces the order with a ``top_order``
decision (the cards listed top first). The order is the owner's choice, not the controller's (401.4).
"""

from __future__ import annotations

from typing import Any

from rules_engine import log as narr
from rules_engine.effects import objects
from rules_engine.game import arrange
from rules_engine.interpreter import Context, effect


@effect("put_on_library")
def _put_on_library(ctx: Context, v: Any) -> None:
    """Each card named goes on top of its owner's library; several of one owner in the order the owner chooses.
    ``{what: REF, bottom: true}`` puts it on the bottom instead ("on the top or bottom of its owner's library",
    DTK Arashin Sovereign; several: a ``bottom_order`` answer of the owner, the last listed lowest, 401.4)."""
    game = ctx.game
    if isinstance(v, dict):
        if v.get("bottom"):
            _put_on_bottom(ctx, objects(ctx, v["what"]))
            return
        v = v["what"]
    moving = objects(ctx, v)
    if not moving:
        game.log("Нечего класть на верх библиотеки")
        return
    for owner in dict.fromkeys(o.owner for o in moving):
        mine = [o for o in moving if o.owner == owner]
        if len(mine) > 1:
            answer = game.decide("top_order", owner, "порядок карт наверху библиотеки (сверху вниз)", ctx.source)
            mine = arrange(game, mine, answer, "одна из кладущихся на верх библиотеки карт", "401.4")
        for card in reversed(mine):  # the bottom one first: the last moved is the top card
            game.move(card, "library")
        names = ", ".join(narr.obj(game, o) for o in mine)
        game.log(f"На верх библиотеки игрока {narr.player(owner)} кладутся (сверху вниз): {names}")


def _put_on_bottom(ctx: Context, moving: list[Any]) -> None:
    """The cards go to the bottom of their owners' libraries, in the order each owner chooses (401.4)."""
    game = ctx.game
    if not moving:
        game.log("Нечего класть в низ библиотеки")
        return
    for owner in dict.fromkeys(o.owner for o in moving):
        mine = [o for o in moving if o.owner == owner]
        if len(mine) > 1:
            answer = game.decide("bottom_order", owner, "порядок карт внизу библиотеки (сверху вниз)", ctx.source)
            mine = arrange(game, mine, answer, "одна из кладущихся в низ библиотеки карт", "401.4")
        for card in mine:  # the top one of them first: the last moved is the bottom card
            game.move(card, "library", top=False)
        names = ", ".join(narr.obj(game, o) for o in mine)
        game.log(f"В низ библиотеки игрока {narr.player(owner)} кладутся (сверху вниз): {names}")
