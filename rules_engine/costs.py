"""Costs of activated abilities and additional costs of spells: {T}, {Q}, sacrifice, life, discard, loyalty, and
costs paid with other objects (rule 118.3): sacrifice, tap, untap or return permanents you control, exile cards from
your graveyard or hand, discard cards of a kind, remove counters from this or from a permanent you control.

A cost string lists its parts separated by commas: ``"{1}{U}, {Q}"``, ``"{T}"``, ``"{B}, sacrifice"``,
``"pay 2 life"``, ``"discard 1"``, ``"+1"`` / ``"-3"`` (loyalty). Paying {T} or {Q} needs the permanent to
have been under its controller's control since the start of their most recent turn, unless it has haste
(rules 302.6, 212.3f, 502.5b of the time).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rules_engine import life as lifetotal
from rules_engine import log as narr
from rules_engine import tapping
from rules_engine.errors import EngineError, IllegalAction, ScriptError
from rules_engine.mana import ManaCost, parse_cost
from rules_engine.objectcosts import ObjectCost, object_cost
from rules_engine.objects import GameObject

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game

_SELF_COUNTERS = ("remove_counters", "put_counters")  # costs paid with the object itself, not chosen objects


@dataclass(frozen=True)
class Cost:
    mana: ManaCost = field(default_factory=ManaCost)
    tap: bool = False
    untap: bool = False
    sacrifice_self: bool = False
    pay_life: int = 0
    discard: int = 0
    loyalty: int | None = None
    discard_self: bool = False
    objects: tuple[ObjectCost, ...] = ()
    loyalty_x: bool = False  # rule 107.3a: a [−X] loyalty cost, X announced as the ability is activated



_LOYALTY = re.compile(r"^[+-]?\d+$|^[+-]X$")


def parse(text: str) -> Cost:
    mana = ""
    tap = untap = sacrifice = False
    life = discard = 0
    loyalty: int | None = None
    discard_self = loyalty_x = False
    objects: list[ObjectCost] = []
    for raw in str(text).split(","):
        part = raw.strip()
        if not part:
            continue
        if part == "{T}":
            tap = True
        elif part == "{Q}":
            untap = True
        elif part.lower() == "sacrifice":
            sacrifice = True
        elif part.lower().startswith("pay ") and part.lower().endswith(" life"):
            life = int(part.split()[1])
        elif part.lower() == "discard this":
            discard_self = True
        elif (found := object_cost(part)) is not None:
            objects.append(found)
        elif part.lower().startswith("discard"):
            discard = int(part.split()[1]) if len(part.split()) > 1 else 1
        elif part in ("-X", "−X"):  # rule 107.3a: "[−X]", the number announced as it is activated
            loyalty_x = True
        elif _LOYALTY.match(part) and (part.startswith(("+", "-")) or part == "0"):
            loyalty = int(part)
        elif part.startswith("{"):
            mana += part
        else:
            raise EngineError(f"unknown cost part {part!r}")
    return Cost(
        parse_cost(mana), tap, untap, sacrifice, life, discard, loyalty, discard_self, tuple(objects), loyalty_x
    )


def _filter(cost: ObjectCost) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in cost.filter}


def candidates(game: Game, cost: ObjectCost, obj: GameObject, player: str) -> list[GameObject]:
    """What the player could pay an object cost with, right now."""
    from rules_engine.layers import matches

    if cost.action == "remove_counters" and cost.from_self:
        return [obj] if obj.counters.get(cost.counter, 0) >= cost.n else []
    if cost.action == "put_counters":  # rule 118.3: not on a permanent that can't have them (614.17, 122.6)
        from rules_engine.replacement import cant_have_counters

        pool = [obj] if cost.from_self else [o for o in game.battlefield if game.controller(o) == player]
        return [
            o for o in pool
            if not cant_have_counters(game, o, cost.counter)
            and (cost.from_self or matches(game, o, game.chars(o), _filter(cost), player, obj))
        ]  # fmt: skip
    if cost.zone == "battlefield":
        pool = [o for o in game.battlefield if game.controller(o) == player]
    else:  # a spell being cast is no card of the hand that pays its own cost
        pool = [o for o in getattr(game.players[player], cost.zone) if o.oid != obj.oid]
    if cost.action == "remove_counters":  # "remove a +1/+1 counter from a creature you control"
        pool = [o for o in pool if o.counters.get(cost.counter, 0) >= (1 if cost.among else cost.n)]
    filt = _filter(cost)
    return [
        o for o in pool
        if not (cost.other and o.oid == obj.oid) and matches(game, o, game.chars(o), filt, player, obj)
    ]  # fmt: skip


def summoning_sick(game: Game, obj: GameObject) -> bool:
    """Rule 302.6: a creature's {T}/{Q} abilities need continuous control since its controller's turn began."""
    chars = game.chars(obj)
    if not chars.is_("Creature") or "haste" in chars.keywords:
        return False
    return obj.steady_controller != game.controller(obj)


def check(game: Game, cost: Cost, obj: GameObject, player: str) -> None:
    """Raise ``IllegalAction`` if the non-mana parts cannot be paid (mana is checked when paid)."""
    if cost.tap or cost.untap:
        if cost.tap and obj.tapped:
            raise IllegalAction(f"{narr.obj(game, obj)} уже повернут: нельзя оплатить {{T}}", "107.5")
        if cost.untap and not obj.tapped:
            raise IllegalAction(f"{narr.obj(game, obj)} уже развернут: нельзя оплатить {{Q}}", "107.6")
        if summoning_sick(game, obj):
            raise IllegalAction(f"{narr.obj(game, obj)}: «болезнь вызова» не дает оплатить {{T}}/{{Q}}", "302.6")
    if cost.pay_life > game.players[player].life:
        raise IllegalAction("недостаточно жизни", "119.4")
    if cost.discard > len([c for c in game.players[player].hand if c.oid != obj.oid]):
        raise IllegalAction("недостаточно карт в руке", "118.3")
    for part in cost.objects:  # rule 118.3: a cost can't be paid without the resources to pay it
        have = candidates(game, part, obj, player)
        if (cost.tap and part.action == "tap") or (cost.untap and part.action == "untap"):
            # its own {T} / {Q} turns it first: "Crackleburr plus two other creatures" (EVE ruling 2008-08-01)
            have = [o for o in have if o.oid != obj.oid]
        if part.among and sum(o.counters.get(part.counter, 0) for o in have) < part.n:
            raise IllegalAction(f"у ваших перманентов не хватает жетонов: «{part.text_ru}»", "118.3")
        if part.action == "remove_counters" and not have:
            whose = f"у {narr.obj(game, obj)}" if part.from_self else "у ваших перманентов"
            raise IllegalAction(f"{whose} нет нужных жетонов: «{part.text_ru}»", "118.3")
        if part.action == "put_counters" and not have:
            raise IllegalAction(f"жетоны положить не на что: «{part.text_ru}»", "118.3")
        if part.action not in _SELF_COUNTERS and len(have) < part.n:
            raise IllegalAction(f"нечем оплатить стоимость «{part.text_ru}»", "118.3")
    if cost.loyalty is not None and cost.loyalty < 0 and obj.counters.get("loyalty", 0) < -cost.loyalty:
        raise IllegalAction(f"у {narr.obj(game, obj)} недостаточно верности", "606.6")


def pay_nonmana(game: Game, cost: Cost, obj: GameObject, player: str) -> None:
    if cost.tap:
        tapping.tap(game, obj)
    if cost.untap:
        tapping.untap(game, obj)
    if cost.pay_life:
        lifetotal.pay(game, player, cost.pay_life)  # rule 119.4: paying life is losing it
    if cost.loyalty is not None:
        if cost.loyalty >= 0:
            obj.counters["loyalty"] += cost.loyalty
        else:
            game.remove_counters(obj, "loyalty", -cost.loyalty)
    for part in cost.objects:
        _pay_with_objects(game, part, obj, player)
    if cost.discard:
        refs = game.decide("discard", player, f"какие {cost.discard} карт(ы) сбросить?", obj)
        for ref in refs if isinstance(refs, list) else [refs]:
            hand = [c for c in game.players[player].hand if ref in (c.card.ref, c.card.definition.name)]
            if not hand:
                raise ScriptError(f"нет карты {ref!r} в руке")
            game.move(hand[0], "graveyard")
    game.touch()


_PAID = {"sacrifice": "приносит в жертву", "tap": "поворачивает", "untap": "разворачивает", "exile": "изгоняет",
         "return": "возвращает в руку владельца", "discard": "сбрасывает"}
_TO_ZONE = {"sacrifice": "graveyard", "exile": "exile", "return": "hand", "discard": "graveyard"}


def _pay_with_objects(game: Game, cost: ObjectCost, obj: GameObject, player: str) -> None:
    """The player chooses what pays the cost (a scripted ``cost`` decision) unless only one way exists."""
    if cost.action == "remove_counters" and cost.from_self:
        game.remove_counters(obj, cost.counter, cost.n)
        game.log(f"{narr.player(player)} оплачивает стоимость: {cost.text_ru} ({narr.obj(game, obj)})")
        return
    if cost.action == "put_counters":  # all on one permanent: this one, or the one the player picks
        have = [obj] if cost.from_self else candidates(game, cost, obj, player)
        target = have[0] if len(have) == 1 else _chosen(game, cost, obj, player, have, 1)[0]
        game.log(f"{narr.player(player)} оплачивает стоимость: {cost.text_ru} ({narr.obj(game, target)})")
        game.put_counters(target, cost.counter, cost.n)
        return
    have = candidates(game, cost, obj, player)
    if cost.among:  # each counter from a permanent the player names (a name twice: two counters from it)
        _remove_among(game, cost, obj, player, have)
        return
    if cost.action == "remove_counters":  # the counters all come from one permanent the player picks
        chosen = have if len(have) == 1 else _chosen(game, cost, obj, player, have, 1)
        game.remove_counters(chosen[0], cost.counter, cost.n)
        game.log(f"{narr.player(player)} оплачивает стоимость: {cost.text_ru} ({narr.obj(game, chosen[0])})")
        return
    chosen = have if len(have) == cost.n else _chosen(game, cost, obj, player, have, cost.n)
    with game.simultaneously():
        for o in chosen:
            game.log(f"{narr.player(player)} {_PAID[cost.action]} {narr.obj(game, o)} (стоимость)")
            if cost.action == "tap":
                tapping.tap(game, o)
            elif cost.action == "untap":
                tapping.untap(game, o)
                game.touch()
            else:
                game.move(o, _TO_ZONE[cost.action])


def _remove_among(game: Game, cost: ObjectCost, obj: GameObject, player: str, have: list[GameObject]) -> None:
    """"Remove two +1/+1 counters from among creatures you control": a ``cost`` answer lists a permanent per
    counter (one permanent alone is no choice)."""
    from rules_engine.glossary import COUNTER_NAMES

    if len(have) == 1:
        picks = [have[0]] * cost.n
    else:
        answer = game.decide("cost", player, f"с каких перманентов убрать жетоны: «{cost.text_ru}»?", obj)
        refs = answer if isinstance(answer, list) else [answer]
        picks = []
        for ref in refs:
            hits = [o for o in have if ref in (o.card.ref, o.card.definition.name)]
            if not hits:
                raise IllegalAction(f"{ref!r} не годится для оплаты «{cost.text_ru}»", "601.2h")
            picks.append(hits[0])
    if len(picks) != cost.n:
        raise IllegalAction(f"для «{cost.text_ru}» нужно назвать ровно {cost.n}", "601.2h")
    counts: dict[int, int] = {}
    for o in picks:
        counts[o.oid] = counts.get(o.oid, 0) + 1
    by_oid = {o.oid: o for o in picks}
    for oid, n in counts.items():
        if n > by_oid[oid].counters.get(cost.counter, 0):
            raise IllegalAction(f"на {narr.obj(game, by_oid[oid])} нет столько жетонов", "118.3")
    what = COUNTER_NAMES.get(cost.counter, cost.counter)
    for oid, n in counts.items():
        game.remove_counters(by_oid[oid], cost.counter, n)
        game.log(f"{narr.player(player)} убирает с {narr.obj(game, by_oid[oid])} {what}: {n} (стоимость)")


def _chosen(
    game: Game, cost: ObjectCost, obj: GameObject, player: str, have: list[GameObject], n: int
) -> list[GameObject]:
    """The scripted answer to "what pays this cost?" (``kind: cost``), exactly ``n`` of the candidates."""
    kind = "discard" if cost.action == "discard" else "cost"  # a discard is answered as every discard is
    answer = game.decide(kind, player, f"чем оплатить «{cost.text_ru}»?", obj)
    refs = answer if isinstance(answer, list) else [answer]
    chosen: list[GameObject] = []
    for ref in refs:
        hits = [o for o in have if ref in (o.card.ref, o.card.definition.name) and o not in chosen]
        if not hits:
            raise IllegalAction(f"{ref!r} не годится для оплаты «{cost.text_ru}»", "601.2h")
        chosen.append(hits[0])
    if len(chosen) != n:
        raise IllegalAction(f"для «{cost.text_ru}» нужно ровно {n}", "601.2h")
    return chosen
