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
    if isinstance(v, dict):
        _put(ctx, objects(ctx, v["what"]), bool(v.get("bottom")))
        return
    _put(ctx, objects(ctx, v), False)


# per end of the library: the owner's decision, its question, what a listed card must be, the log's two lines
_WORDS = {
    False: ("top_order", "порядок карт наверху библиотеки (сверху вниз)", "одна из кладущихся на верх библиотеки карт",
            "Нечего класть на верх библиотеки", "На верх библиотеки игрока {} кладутся (сверху вниз): {}"),
    True: ("bottom_order", "порядок карт внизу библиотеки (сверху вниз)", "одна из кладущихся в низ библиотеки карт",
           "Нечего класть в низ библиотеки", "В низ библиотеки игрока {} кладутся (сверху вниз): {}"),
}


def _put(ctx: Context, moving: list[Any], bottom: bool) -> None:
    """The cards go to the top (or bottom) of their owners' libraries, in the order each owner chooses (401.4)."""
    game = ctx.game
    decision, question, what, nothing, said = _WORDS[bottom]
    if not moving:
        game.log(nothing)
        return
    for owner in dict.fromkeys(o.owner for o in moving):
        mine = [o for o in moving if o.owner == owner]
        if len(mine) > 1:
            answer = game.decide(decision, owner, question, ctx.source)
            mine = arrange(game, mine, answer, what, "401.4")
        # listed top first: to the top the lowest moves first, to the bottom the highest (the last moved is outermost)
        for card in (mine if bottom else reversed(mine)):
            game.move(card, "library", top=not bottom)
        game.log(said.format(narr.player(owner), ", ".join(narr.obj(game, o) for o in mine)))
