"""Costs of activated abilities and additional costs of spells: {T}, {Q}, sacrifice, life, discard, loyalty.

A cost string lists its parts separated by commas: ``"{1}{U}, {Q}"``, ``"{T}"``, ``"{B}, sacrifice"``,
``"pay 2 life"``, ``"discard 1"``, ``"+1"`` / ``"-3"`` (loyalty). Paying {T} or {Q} needs the permanent to
have been under its controller's control since the start of their most recent turn, unless it has haste
(rules 302.6, 212.3f, 502.5b of the time).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rules_engine import log as narr
from rules_engine import tapping
from rules_engine.errors import EngineError, IllegalAction, ScriptError
from rules_engine.mana import ManaCost, parse_cost
from rules_engine.objects import GameObject

if TYPE_CHECKING:
    from rules_engine.game import Game


@dataclass(frozen=True)
class ObjectCost:
    """A cost paid with other objects (rule 118.3: only with what the player has): "sacrifice another creature",
    "tap two untapped creatures you control", "exile a card from your graveyard", "remove a +1/+1 counter"."""

    action: str  # sacrifice | tap | exile | remove_counters
    n: int
    filter: tuple[tuple[str, Any], ...] = ()  # a card filter, as in card definitions (frozen as pairs)
    other: bool = False  # "another": not the object whose cost it is
    counter: str = ""  # remove_counters: the kind, from the object itself
    text: str = ""  # the words of the card

    @property
    def text_ru(self) -> str:
        """«принести в жертву другое существо (1)», as the proof tells it."""
        from rules_engine.glossary import COUNTER_NAMES, SUBTYPE_NAMES, TYPE_NAMES

        if self.action == "remove_counters":
            return f"убрать с этого перманента {COUNTER_NAMES.get(self.counter, self.counter)}: {self.n}"
        filt = dict(self.filter)
        what = ", ".join(TYPE_NAMES.get(t, t) for t in filt.get("types", ())) or ", ".join(
            SUBTYPE_NAMES.get(t, t) for t in filt.get("subtypes", ())
        ) or "перманент"
        if self.action == "exile":
            what = f"карту ({what.lower()})" if filt else "карту"
        verb = {"sacrifice": "принести в жертву", "tap": "повернуть неповернутое", "exile": "изгнать с кладбища"}
        other = "другое " if self.other else ""
        return f"{verb[self.action]} {other}{what.lower()}: {self.n}"


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


_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_CARD_TYPES = {"artifact", "creature", "enchantment", "land", "planeswalker", "instant", "sorcery"}
_OBJECT_COST = re.compile(
    r"^(?P<verb>sacrifice|tap|exile) (?:(?P<n>a|an|one|two|three|four|five|\d+) )?(?P<other>another |other )?"
    r"(?P<untapped>untapped )?(?P<what>[A-Za-z]+?)s?(?: cards?)?(?P<yours> you control)?(?P<gy> from your graveyard)?$"
)
_REMOVE_COUNTERS = re.compile(r"^remove (?P<n>a|an|one|two|three|four|five|\d+) (?P<kind>\S+) counters? from this$")


def object_cost(part: str) -> ObjectCost | None:
    """The object costs of activated abilities, in the words of the cards."""
    m = _REMOVE_COUNTERS.match(part)
    if m:
        n = _NUMBERS.get(m["n"]) or int(m["n"])
        return ObjectCost("remove_counters", n, counter=m["kind"], text=part)
    m = _OBJECT_COST.match(part)
    if m is None:
        return None
    n = _NUMBERS.get(m["n"] or "a") or int(m["n"])
    what = m["what"]
    filt: dict[str, Any] = {}
    if what.lower() in _CARD_TYPES:
        filt["types"] = [what.capitalize()]
    elif what[0].isupper():  # a subtype: "sacrifice a Goblin"
        filt["subtypes"] = [what]
    elif what.lower() not in ("permanent", "card"):
        return None
    if m["verb"] == "tap":
        filt["tapped"] = False
    if m["verb"] == "exile" and not m["gy"]:
        return None
    return ObjectCost(m["verb"], n, tuple(sorted((k, tuple(v) if isinstance(v, list) else v)
                                                  for k, v in filt.items())), bool(m["other"]), text=part)


_LOYALTY = re.compile(r"^[+-]?\d+$|^[+-]X$")


def parse(text: str) -> Cost:
    mana = ""
    tap = untap = sacrifice = False
    life = discard = 0
    loyalty: int | None = None
    discard_self = False
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
        elif part.lower().startswith("discard"):
            discard = int(part.split()[1]) if len(part.split()) > 1 else 1
        elif _LOYALTY.match(part) and (part.startswith(("+", "-")) or part == "0"):
            loyalty = int(part)
        elif part.startswith("{"):
            mana += part
        elif (found := object_cost(part)) is not None:
            objects.append(found)
        else:
            raise EngineError(f"unknown cost part {part!r}")
    return Cost(parse_cost(mana), tap, untap, sacrifice, life, discard, loyalty, discard_self, tuple(objects))


def _filter(cost: ObjectCost) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in cost.filter}


def candidates(game: Game, cost: ObjectCost, obj: GameObject, player: str) -> list[GameObject]:
    """What the player could pay an object cost with, right now."""
    from rules_engine.layers import matches

    if cost.action == "remove_counters":
        return [obj] if obj.counters.get(cost.counter, 0) >= cost.n else []
    pool = game.players[player].graveyard if cost.action == "exile" else [
        o for o in game.battlefield if game.controller(o) == player
    ]
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
    if cost.discard > len(game.players[player].hand):
        raise IllegalAction("недостаточно карт в руке", "118.3")
    for part in cost.objects:  # rule 118.3: a cost can't be paid without the resources to pay it
        have = candidates(game, part, obj, player)
        if part.action == "remove_counters" and not have:
            raise IllegalAction(f"у {narr.obj(game, obj)} нет нужных жетонов: «{part.text_ru}»", "118.3")
        if part.action != "remove_counters" and len(have) < part.n:
            raise IllegalAction(f"нечем оплатить стоимость «{part.text_ru}»", "118.3")
    if cost.loyalty is not None and cost.loyalty < 0 and obj.counters.get("loyalty", 0) < -cost.loyalty:
        raise IllegalAction(f"у {narr.obj(game, obj)} недостаточно верности", "606.6")


def pay_nonmana(game: Game, cost: Cost, obj: GameObject, player: str) -> None:
    if cost.tap:
        tapping.tap(game, obj)
    if cost.untap:
        obj.tapped = False
    if cost.pay_life:
        game.players[player].life -= cost.pay_life
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


_PAID = {"sacrifice": "приносит в жертву", "tap": "поворачивает", "exile": "изгоняет"}


def _pay_with_objects(game: Game, cost: ObjectCost, obj: GameObject, player: str) -> None:
    """The player chooses what pays the cost (a scripted ``cost`` decision) unless only one way exists."""
    if cost.action == "remove_counters":
        game.remove_counters(obj, cost.counter, cost.n)
        game.log(f"{narr.player(player)} оплачивает стоимость: {cost.text_ru} ({narr.obj(game, obj)})")
        return
    have = candidates(game, cost, obj, player)
    if len(have) == cost.n:
        chosen = have
    else:
        answer = game.decide("cost", player, f"чем оплатить «{cost.text_ru}»?", obj)
        refs = answer if isinstance(answer, list) else [answer]
        chosen = []
        for ref in refs:
            hits = [o for o in have if ref in (o.card.ref, o.card.definition.name) and o not in chosen]
            if not hits:
                raise IllegalAction(f"{ref!r} не годится для оплаты «{cost.text_ru}»", "601.2h")
            chosen.append(hits[0])
        if len(chosen) != cost.n:
            raise IllegalAction(f"для «{cost.text_ru}» нужно ровно {cost.n}", "601.2h")
    with game.simultaneously():
        for o in chosen:
            game.log(f"{narr.player(player)} {_PAID[cost.action]} {narr.obj(game, o)} (стоимость)")
            if cost.action == "tap":
                tapping.tap(game, o)
            else:
                game.move(o, "graveyard" if cost.action == "sacrifice" else "exile")
