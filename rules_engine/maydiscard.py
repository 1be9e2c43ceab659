"""An optional discard with a consequence: Wandering Champion's "you may discard a card. If you do, draw a card."

``may_discard: {n, then}``: the effect's controller decides as it resolves (a ``may`` decision, 608.2d), then chooses
the card(s) (a ``discard`` decision when there is a choice); ``then`` happens only if they did discard (608.2c:
"if you do" refers to that action really done). With no card in hand nothing is asked and nothing follows.
"""

from __future__ import annotations

from typing import Any

from rules_engine import log as narr
from rules_engine.interpreter import Context, effect, run


@effect("may_discard")
def _may_discard(ctx: Context, v: dict[str, Any]) -> None:
    """Rules 608.2c-d: the choice as it resolves; "if you do" only after a real discard."""
    game, who = ctx.game, ctx.controller
    if not any(not c.card.is_token for c in game.players[who].hand):
        game.log(f"{narr.player(who)} нечего сбросить: ничего не происходит")
        return
    answer = game.decide("may", who, "сбросить карту?", ctx.source)
    if answer not in (True, "yes"):
        game.log(f"{narr.player(who)} решает не сбрасывать карту")
        return
    before = ctx.discarded.get(who, 0)
    run(ctx, {"discard": {"n": v.get("n", 1), "player": "you"}})
    if ctx.discarded.get(who, 0) > before:
        run(ctx, v["then"])
