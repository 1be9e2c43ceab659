"""Paying any amount of life as an effect resolves, and revealing cards from a hand: Vizkopa Confessor's "pay any
amount of life. Target opponent reveals that many cards from their hand. You choose one of them and exile it."

``pay_any_life: {then}``: the amount is a ``number`` decision of the effect's controller as it resolves (608.2d),
at most their life total (119.4: 0 is always possible); ``then`` runs with X bound to the life paid ("that
many"). ``reveal_from_hand: {player, n, exile_chosen}``: that player reveals N cards of their choice from their
hand (all of them if they hold N or fewer; a ``choose_card`` decision of theirs, a list), and with
``exile_chosen`` the effect's controller chooses one of them (``choose_card``) and exiles it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rules_engine import life as lifetotal
from rules_engine import log as narr
from rules_engine.effects import amount, players
from rules_engine.errors import IllegalAction
from rules_engine.game import pick
from rules_engine.interpreter import Context, effect, run
from rules_engine.layers import matches

if TYPE_CHECKING:
    from rules_engine.objects import GameObject


@effect("pay_any_life")
def _pay_any_life(ctx: Context, v: dict[str, Any]) -> None:
    """Rules 608.2d, 119.4: the player picks the amount now; they can't pay more life than they have."""
    game, who = ctx.game, ctx.controller
    answer = _life_to_pay(ctx, who)
    game.log(f"{narr.player(who)} платит {answer} жизни")
    lifetotal.pay(game, who, answer)
    run(replace(ctx, x=answer), v["then"])


def _life_to_pay(ctx: Context, who: str) -> int:
    """Rule 119.4: the amount ``who`` chooses now (a ``number`` decision): 0 or more, not more than their life now."""
    game = ctx.game
    have = max(0, game.players[who].life)
    answer = game.decide("number", who, f"сколько жизни заплатить (0–{have})?", ctx.source)
    if isinstance(answer, bool) or not isinstance(answer, int) or answer < 0:
        raise IllegalAction(f"{answer!r}: заплатить можно целое число жизни, от 0", "119.4")
    if answer > have:
        raise IllegalAction(f"нельзя заплатить {answer} жизни: у игрока их {have}", "119.4")
    return answer


@effect("pay_life_rounds")
def _pay_life_rounds(ctx: Context, v: dict[str, Any]) -> None:
    """"Starting with you, each player may pay any amount of life. Repeat this process until no one pays life"
    (Plague of Vermin): rounds in turn order from the effect's controller (101.4), each player's answer a ``number``
    decision, never more than the life they have now (119.4: each payment is its own loss of life, at once); the
    process stops after a whole round in which nobody paid. Then ``then`` is done for each player in that order, by
    that player (``you``), with X the total they paid ("for each 1 life they paid this way")."""
    game = ctx.game
    order = list(game.apnap())
    start = order.index(ctx.controller) if ctx.controller in order else 0
    order = order[start:] + order[:start]
    paid = dict.fromkeys(order, 0)
    while True:
        anyone = False
        for who in order:
            answer = _life_to_pay(ctx, who)  # their life now: earlier payments of this process count (119.4)
            if answer == 0:
                game.log(f"{narr.player(who)} не платит жизнь")
                continue
            anyone = True
            game.log(f"{narr.player(who)} платит {answer} жизни")
            lifetotal.pay(game, who, answer)
            paid[who] += answer
        if not anyone:
            break
        game.log("Кто-то заплатил жизнь: процесс повторяется")
    for who in order:
        game.log(f"{narr.player(who)} заплатил(а) всего {paid[who]} жизни")
        run(replace(ctx, controller=who, x=paid[who]), v["then"])


@effect("reveal_from_hand")
def _reveal_from_hand(ctx: Context, v: dict[str, Any]) -> None:
    """Rule 701.20a: the revealing player picks which N cards of their hand to show; 0 reveals nothing."""
    game = ctx.game
    n = amount(ctx, v.get("n", 1))
    for who in players(ctx, v.get("player", "target")):
        hand = list(game.players[who].hand)
        if n <= 0 or not hand:
            game.log(f"{narr.player(who)} не показывает ни одной карты")
            continue
        shown = hand if len(hand) <= n else _chosen(ctx, who, hand, n)
        game.log(f"{narr.player(who)} показывает: {', '.join(narr.obj(game, o) for o in shown)}")
        if v.get("exile_chosen"):
            _exile_one(ctx, shown)


@effect("discard_chosen")
def _discard_chosen(ctx: Context, v: dict[str, Any]) -> None:
    """"Target player reveals their hand. You choose a nonland card from it. That player discards that card"
    (701.9b: a card chosen by another player; 701.20a): the effect's controller answers a ``choose_card`` decision
    among the matching cards; with none there, nothing is discarded and the effect goes on (Thoughtseize's life
    loss still happens)."""
    game = ctx.game
    filt = dict(v.get("filter") or {})
    for who in players(ctx, v.get("player", "target")):
        hand = list(game.players[who].hand)
        shown = ", ".join(narr.obj(game, o) for o in hand) or "ничего"
        game.log(f"{narr.player(who)} показывает руку: {shown}")
        pool = [o for o in hand if matches(game, o, game.chars(o), filt, ctx.controller, None)]
        if not pool:
            game.log("Подходящей карты в руке нет: сбрасывать нечего")
            continue
        answer = game.decide("choose_card", ctx.controller, "какую карту игрок сбросит?", ctx.source)
        card = pick(game, pool, str(answer), "подходящая карта из показанной руки", "701.9b")
        game.log(f"{narr.player(who)} сбрасывает {narr.obj(game, card)}")
        game.move(card, "graveyard")


def _chosen(ctx: Context, who: str, hand: list[GameObject], n: int) -> list[GameObject]:
    answer = ctx.game.decide("choose_card", who, f"какие {n} карт(ы) показать?", ctx.source)
    refs = answer if isinstance(answer, list) else [answer]
    if len(refs) != n:
        raise IllegalAction(f"нужно показать ровно {n} карт(ы), не {len(refs)}", "701.20a")
    picked = [pick(ctx.game, hand, str(r), "карта руки этого игрока", "701.20a") for r in refs]
    if len({o.oid for o in picked}) != n:
        raise IllegalAction("одна и та же карта показана дважды", "701.20a")
    return picked


def _exile_one(ctx: Context, shown: list[GameObject]) -> None:
    """ "You choose one of them and exile it" (608.2d): asked only when more than one was revealed."""
    game = ctx.game
    if len(shown) == 1:
        card = shown[0]
    else:
        answer = game.decide("choose_card", ctx.controller, "какую из показанных карт изгнать?", ctx.source)
        card = pick(game, shown, str(answer), "одна из показанных карт", "608.2d")
    game.log(f"{narr.player(ctx.controller)} изгоняет {narr.obj(game, card)}")
    game.move(card, "exile")
