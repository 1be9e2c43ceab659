"""'You may sacrifice it. If you do, ...' (rules 608.2c, 701.21a): the "if you do" reads what the first instruction did.

The controller decides as the ability resolves (a ``may`` decision). Only a permanent its controller still controls on
the battlefield can be sacrificed: if it has already left (dealt lethal damage at the same time it dealt its own), there
is nothing to sacrifice, and the rest doesn't happen (DTK Living Lore).
"""

from __future__ import annotations

from typing import Any

from rules_engine import log as narr
from rules_engine.interpreter import Context, effect, run


@effect("may_sacrifice")
def _may_sacrifice(ctx: Context, v: dict[str, Any]) -> None:
    game = ctx.game
    answer = game.decide("may", ctx.controller, f"пожертвовать {narr.obj(game, ctx.source)}?", ctx.source)
    if answer not in (True, "yes"):
        game.log(f"{narr.player(ctx.controller)} решает не жертвовать {narr.obj(game, ctx.source)}")
        return
    live = ctx.source_live()
    if live is None or live.zone != "battlefield" or game.controller(live) != ctx.controller:
        game.log(f"{narr.obj(game, ctx.source)} уже не на поле битвы: пожертвовать ее нельзя, остальное не происходит")
        return
    game.log(f"{narr.player(ctx.controller)} приносит в жертву {narr.obj(game, live)}")
    game.move(live, "graveyard")
    run(ctx, v["then"])
