"""'[Player] sacrifices a [quality] permanent' (rule 701.21a): an edict, not a target of the permanents.

The player chooses, as the effect resolves, which of the permanents they control matching the filter to sacrifice
(a ``sacrifice`` decision; none is asked when they control no more than they must sacrifice). When several players
sacrifice ("each player sacrifices a creature"), each chooses in APNAP order and then all the chosen permanents are
sacrificed at the same time (rule 101.4). A player who controls none sacrifices nothing (609.3).
"""

from __future__ import annotations

from typing import Any

from rules_engine import log as narr
from rules_engine.effects import amount, players
from rules_engine.errors import IllegalAction
from rules_engine.game import pick
from rules_engine.interpreter import Context, effect
from rules_engine.layers import matches
from rules_engine.objects import GameObject


@effect("sacrifice_chosen")
def _sacrifice_chosen(ctx: Context, v: dict[str, Any]) -> None:
    game = ctx.game
    n = amount(ctx, v.get("n", 1))
    filt = v.get("filter") or {}
    chosen: list[tuple[str, GameObject]] = []
    for player in players(ctx, v.get("player", "target")):  # APNAP order for each_player (101.4)
        pool = [
            o
            for o in game.battlefield
            if game.controller(o) == player and matches(game, o, game.chars(o), filt, player, ctx.source)
        ]
        if len(pool) <= n:
            picks = pool
        else:
            answer = game.decide("sacrifice", player, f"что принести в жертву ({n})?", ctx.source)
            refs = answer if isinstance(answer, list) else [answer]
            if len(refs) != n:
                raise IllegalAction(f"нужно выбрать ровно {n} перманент(а) для жертвы", "701.21a")
            picks = []
            for ref in refs:
                left = [o for o in pool if o not in picks]
                picks.append(pick(game, left, ref, "подходящий перманент под контролем этого игрока", "701.21a"))
        if not picks:
            game.log(f"{narr.player(player)}: нечего принести в жертву")
        chosen.extend((player, o) for o in picks)
    for player, obj in chosen:  # all at once, after every choice (101.4)
        game.log(f"{narr.player(player)} приносит в жертву {narr.obj(game, obj)}")
    for _, obj in chosen:
        if obj.zone == "battlefield":
            ctx.sacrificed.append(game.snapshot(obj))  # "its toughness": as it last existed there (608.2h)
            game.move(obj, "graveyard")


@effect("return_chosen")
def _return_chosen(ctx: Context, v: dict[str, Any]) -> None:
    """ "Return a nonland permanent you control to its owner's hand" (DTK Ancestral Statue; 608.2d): not a target —
    the player chooses as the effect resolves among the permanents they control matching the filter (a
    ``choose_card`` decision, none when there is one; mandatory: the source itself when it is the only one)."""
    game = ctx.game
    filt = v.get("filter") or {}
    for player in players(ctx, v.get("player", "you")):
        mine = [o for o in game.battlefield if game.controller(o) == player]
        pool = [o for o in mine if matches(game, o, game.chars(o), filt, player, ctx.source)]
        if not pool:
            game.log(f"{narr.player(player)}: нечего вернуть в руку")
            continue
        if len(pool) == 1:
            chosen = pool[0]
        else:
            answer = game.decide("choose_card", player, "какой перманент вернуть в руку?", ctx.source)
            chosen = pick(game, pool, answer, "подходящий перманент под контролем этого игрока", "608.2d")
        game.log(f"{narr.player(player)} возвращает {narr.obj(game, chosen)} в руку владельца")
        game.move(chosen, "hand")
