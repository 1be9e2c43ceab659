"""Cards from the top of a library: "look at the top N cards ... put one into your hand and the rest on the bottom
in any order" and "reveal cards from the top of your library until you reveal N [quality] cards".

Looking at cards (rule 701.20e: a reveal to one player only; 701.20b: revealing moves nothing) moves nothing by
itself: the cards stay in the library until the effect puts them somewhere, which it does in its written order
(608.2c). The player chooses which of the looked-at cards go where (a ``look_take`` decision per clause, "none"
for an "up to" or a "you may"); only matching cards may be taken (the filter is checked on the card as it is in
the library). The cards put back "in any order" are ordered by their owner (401.4: ``bottom_order`` or
``top_order``, top to bottom; one card needs no answer).

Revealing until (701.20a): cards are revealed one at a time from the top until the Nth matching card is revealed,
or the whole library when it holds fewer than N (the rulings of Fathom Trawl, Balustrade Spy, Mind Grind); then
the matching cards and the others go where the effect says, all at once (608.2c, 101.4).
"""

from __future__ import annotations

from typing import Any

from rules_engine import log as narr
from rules_engine.effects import amount, play_without_paying, players
from rules_engine.errors import IllegalAction, ScriptError
from rules_engine.game import arrange, pick, shuffle_library
from rules_engine.interpreter import Context, effect
from rules_engine.layers import matches
from rules_engine.objects import GameObject

REST_ZONES = ("bottom", "top", "graveyard", "hand", "exile", "battlefield")
CAST = "cast"  # "you may cast it without paying its mana cost": a play answer, not a look_take one (608.2g)
SHUFFLE = "shuffle"  # "then shuffles the rest into their library": the cards never left it, the library is shuffled


def top_cards(ctx: Context, player: str, n: int) -> list[GameObject]:
    """The top N cards of a library, top first (all of them if fewer; the list is stored bottom first)."""
    lib = ctx.game.players[player].library
    return list(reversed(lib[-n:])) if n > 0 else []


@effect("look_at_top")
def _look_at_top(ctx: Context, v: dict[str, Any]) -> None:
    """``{n, player, reveal, take: [{n, filter, to, up_to, reveal}], rest}``: the controller looks at (``reveal``:
    the player reveals) the top N cards of the player's library, puts the chosen ones where each clause says, and the
    rest ``rest`` (default: back on top in any order). The cards put into a zone are ``made`` for what follows."""
    game = ctx.game
    who = ctx.controller
    for owner in players(ctx, v.get("player", "you")):
        looked = top_cards(ctx, owner, amount(ctx, v.get("n", 1)))
        if not looked:
            game.log(f"Библиотека игрока {narr.player(owner)} пуста: смотреть нечего")
            continue
        if v.get("reveal"):  # "reveal the top card of your library": shown to every player (701.20a)
            names = ", ".join(narr.obj(game, o) for o in looked)
            game.log(f"{narr.player(owner)} показывает карты сверху библиотеки: {names}")
        else:
            game.log(f"{narr.player(who)} смотрит {len(looked)} верхних карт(ы) библиотеки игрока {narr.player(owner)}")
        left = list(looked)
        for clause in v.get("take", []):
            taken = _take(ctx, left, dict(clause))
            for card in taken:
                left.remove(card)
            _put(ctx, taken, str(clause.get("to", "hand")), owner, revealed=bool(clause.get("reveal")))
        _put(ctx, left, str(v.get("rest", "top")), owner, revealed=False)


def _take(ctx: Context, pool: list[GameObject], clause: dict[str, Any]) -> list[GameObject]:
    """The cards a clause takes among those still looked at: the player's ``look_take`` answer (REF, a list, or
    none). Without ``up_to`` exactly N must be taken if that many match (fewer only when fewer match)."""
    game = ctx.game
    n = amount(ctx, clause.get("n", 1))
    filt = clause.get("filter")
    fits = [o for o in pool if matches(game, o, game.chars(o), filt, ctx.controller, None)]
    up_to = bool(clause.get("up_to"))
    if clause.get("to") == CAST:  # whether to cast it is the play answer; a card not cast stays where it is
        return fits[:n]
    if not fits:
        if filt:
            game.log("Среди просмотренных карт нет подходящей")
        return []
    if not up_to and len(fits) <= n and len(fits) == len(pool):  # nothing to choose: every card must be taken
        return fits
    answer = game.decide("look_take", ctx.controller, f"какие из просмотренных карт взять ({n})?", ctx.source)
    names = [] if answer in (None, False, "no", "none") else answer if isinstance(answer, list) else [answer]
    if len(names) > n or (not up_to and len(names) != min(n, len(fits))):
        raise IllegalAction(f"нужно выбрать {'не больше ' if up_to else ''}{n} карт(ы) из просмотренных", "608.2c")
    chosen: list[GameObject] = []
    for name in names:
        card = pick(game, [o for o in pool if o not in chosen], name, "одна из просмотренных карт", "608.2c")
        if card not in fits:
            raise IllegalAction(f"{name!r} не подходит под условие", "608.2c")
        chosen.append(card)
    return chosen


def _put(ctx: Context, cards: list[GameObject], where: str, owner: str, *, revealed: bool) -> None:
    """Put the cards ``where``: a zone (all at once, 101.4), or back on the top or bottom of their library in the
    order their owner chooses (401.4)."""
    game = ctx.game
    if where == CAST:
        for card in cards:
            play_without_paying(ctx, card)  # not cast: it stays in the library, where it was (Unexpected Results 2)
        return
    if where == SHUFFLE:  # even with nothing left over: "reveals ... then shuffles" (701.24a)
        shuffle_library(game, owner, ctx.source)
        return
    if not cards:
        return
    if where in ("top", "bottom"):
        ordered = _ordered(ctx, cards, where, owner)
        lib = game.players[owner].library
        for card in ordered:
            lib.remove(card)
        if where == "bottom":
            lib[0:0] = list(reversed(ordered))  # stored bottom first: the last listed is the very bottom
        else:
            lib.extend(reversed(ordered))  # the first listed ends on top
        game.touch()
        place = "вниз" if where == "bottom" else "наверх"
        game.log(f"{len(cards)} карт(ы) кладутся {place} библиотеки игрока {narr.player(owner)}")
        return
    if where not in REST_ZONES:
        raise ScriptError(f"куда положить карты: {where!r}")
    with game.simultaneously():
        for card in cards:
            if revealed:
                game.log(f"{narr.player(ctx.controller)} показывает {narr.obj(game, card)}")
            ctx.made.append(game.move(card, where))  # "that creature gains haste": the new object (400.7)


def _ordered(ctx: Context, cards: list[GameObject], where: str, owner: str) -> list[GameObject]:
    """Rule 401.4: the owner orders cards put on top or bottom at once (``bottom_order`` / ``top_order``, top to
    bottom)."""
    if len(cards) < 2:
        return list(cards)
    game = ctx.game
    kind = "bottom_order" if where == "bottom" else "top_order"
    answer = game.decide(kind, owner, "порядок карт в библиотеке (сверху вниз)", ctx.source)
    return arrange(game, list(cards), answer, "одна из этих карт", "401.4")


@effect("reveal_until")
def _reveal_until(ctx: Context, v: dict[str, Any]) -> None:
    """``{player, filter, n, found, rest}``: each player reveals from the top until N matching cards are revealed
    (the whole library if it holds fewer, 701.20a); ``found`` is where the matching ones go, ``rest`` the others."""
    game = ctx.game
    for who in players(ctx, v.get("player", "you")):
        n = amount(ctx, v.get("n", 1))
        lib = game.players[who].library
        if n <= 0:  # "until you reveal 0 land cards": nothing is revealed
            continue
        revealed: list[GameObject] = []
        found: list[GameObject] = []
        for card in reversed(list(lib)):
            if len(found) >= n:
                break
            revealed.append(card)
            if matches(game, card, game.chars(card), v.get("filter"), who, None):
                found.append(card)
        if not revealed:
            game.log(f"Библиотека игрока {narr.player(who)} пуста: показывать нечего")
            continue
        names = ", ".join(narr.obj(game, o) for o in revealed)
        game.log(f"{narr.player(who)} показывает карты сверху библиотеки: {names}")
        if len(found) < n:
            game.log(f"Подходящих карт меньше {n}: показана вся библиотека")
        others = [o for o in revealed if o not in found]
        _put(ctx, found, str(v.get("found", "hand")), who, revealed=False)
        _put(ctx, others, str(v.get("rest", "bottom")), who, revealed=False)


@effect("shuffle_library")
def _shuffle_library(ctx: Context, v: Any) -> None:
    """``shuffle_library: REF``: those players shuffle their libraries (701.24a) — every card in it, the ones just
    looked at and put back on top included (Ponder)."""
    for who in players(ctx, v):
        shuffle_library(ctx.game, who, ctx.source)
