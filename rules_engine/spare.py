"""Choosing what to keep and sacrificing the rest: Archfiend of Depravity's "that player chooses up to two creatures
they control, then sacrifices the rest."

``sacrifice_rest: {player, keep, filter}``: each such player, as the effect resolves (608.2d; not a target, so
hexproof or protection doesn't matter), chooses up to ``keep`` of their permanents matching ``filter`` (a ``spare``
decision: a list, ``[]`` for none), then sacrifices every other one at once (701.21a). Choosing more than
``keep``, or a permanent that isn't theirs or doesn't match, is forbidden (608.2d).
"""

from __future__ import annotations

from typing import Any

from rules_engine import log as narr
from rules_engine.effects import amount, players
from rules_engine.errors import IllegalAction
from rules_engine.game import pick
from rules_engine.interpreter import Context, effect
from rules_engine.layers import matches


@effect("sacrifice_rest")
def _sacrifice_rest(ctx: Context, v: dict[str, Any]) -> None:
    """Rules 608.2d, 701.21a: the choice as it resolves, then one sacrifice of all the others."""
    game = ctx.game
    keep = amount(ctx, v.get("keep", 1))
    filt = v.get("filter") or {}
    for player in players(ctx, v.get("player", "event_player")):
        pool = [
            o for o in game.battlefield
            if game.controller(o) == player and matches(game, o, game.chars(o), filt, player, ctx.source)
        ]
        if not pool:
            continue
        answer = game.decide("spare", player, f"какие (не больше {keep}) оставить?", ctx.source)
        refs = [] if answer in (None, "none") else answer if isinstance(answer, list) else [answer]
        if len(refs) > keep:
            raise IllegalAction(f"оставить можно не больше {keep}, не {len(refs)}", "608.2d")
        spared = []
        for ref in refs:
            spared.append(pick(game, [o for o in pool if o not in spared], ref, "свой подходящий перманент", "608.2d"))
        names = ", ".join(narr.obj(game, o) for o in spared) or "ничего"
        game.log(f"{narr.player(player)} оставляет: {names}")
        for obj in [o for o in pool if o not in spared]:
            game.log(f"{narr.player(player)} приносит в жертву {narr.obj(game, obj)}")
            game.move(obj, "graveyard")
