"""Object costs (rule 118.3) in the words of the cards: "sacrifice another creature", "tap two untapped
creatures you control", "exile a card from your graveyard", "remove a +1/+1 counter from this".

Only the words: parsing them into an ``ObjectCost`` and telling them in Russian. Paying them is ``costs``; the
narration (``log``) reads costs through this module, so it stays below both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ObjectCost:
    """A cost paid with other objects (rule 118.3: only with what the player has): "sacrifice another creature",
    "tap two untapped creatures you control", "exile a card from your graveyard", "remove a +1/+1 counter",
    "put a -1/-1 counter on this" (rule 602.2b: paid as the ability is activated, before it is on the stack)."""

    action: str  # sacrifice | tap | untap | exile | return | discard | remove_counters | put_counters
    n: int
    filter: tuple[tuple[str, Any], ...] = ()  # a card filter, as in card definitions (frozen as pairs)
    other: bool = False  # "another": not the object whose cost it is
    counter: str = ""  # remove_counters / put_counters: the kind
    text: str = ""  # the words of the card
    zone: str = "battlefield"  # where the objects that pay are: battlefield (yours), graveyard or hand (yours)
    from_self: bool = True  # remove / put_counters: this object, else a permanent you control matching filter
    among: bool = False  # remove_counters "from among creatures you control": split as the player likes
    variable: bool = False  # "remove one or more counters" (written X): n is the X announced (601.2b, 602.2b)

    @property
    def text_ru(self) -> str:
        """«принести в жертву другое существо (1)», as the proof tells it."""
        from rules_engine.glossary import COLOR_NAMES, COUNTER_NAMES, SUBTYPE_NAMES, TYPE_NAMES

        filt = dict(self.filter)
        what = ", ".join(TYPE_NAMES.get(t, t) for t in filt.get("types", ())) or ", ".join(
            SUBTYPE_NAMES.get(t, t) for t in filt.get("subtypes", ())
        ) or "перманент"
        if self.action == "put_counters":
            where = "этот перманент" if self.from_self else f"перманент ({what.lower()}) под вашим контролем"
            return f"положить на {where} {COUNTER_NAMES.get(self.counter, self.counter)}: {self.n}"
        if self.action == "remove_counters":
            where = "с этого перманента" if self.from_self else f"с перманента ({what.lower()}) под вашим контролем"
            if self.among:
                where = f"с перманентов ({what.lower()}) под вашим контролем, в любом сочетании,"
            return f"убрать {where} {COUNTER_NAMES.get(self.counter, self.counter)}: {self.n}"
        what = _ACCUSATIVE.get(what.lower(), what)
        if self.zone != "battlefield":
            kinds = {k: v for k, v in filt.items() if k in ("types", "subtypes")}
            what = f"карту ({what.lower()})" if kinds else "карту"
            if "colors" in filt:
                what += f", {COLOR_NAMES.get(filt['colors'][0], filt['colors'][0])}"
        verb = {
            "sacrifice": "принести в жертву",
            "tap": "повернуть неповернутое",
            "untap": "развернуть повернутое",
            "exile": "изгнать с кладбища" if self.zone == "graveyard" else "изгнать из руки",
            "return": "вернуть в руку владельца",
            "discard": "сбросить",
        }
        other = "другое " if self.other else ""
        return f"{verb[self.action]} {other}{what.lower()}: {self.n}"



_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_CARD_TYPES = {"artifact", "creature", "enchantment", "land", "planeswalker", "instant", "sorcery"}
_OBJECT_COST = re.compile(
    r"^(?P<verb>sacrifice|tap|untap|exile|return|discard) (?:(?P<n>a|an|one|two|three|four|five|\d+) )?"
    r"(?P<other>another |other )?(?P<status>untapped |tapped )?(?P<color>white |blue |black |red |green )?"
    r"(?P<what>[A-Za-z]+?)s?(?: cards?)?"
    r"(?P<yours> you control)?(?: from your (?P<zone>graveyard|hand))?(?P<to_hand> to (?:its|their) owners?'s? hand)?$"
)
_REMOVE_COUNTERS = re.compile(
    r"^remove (?P<n>a|an|one|two|three|four|five|\d+|X) (?P<kind>\S+) counters? from "
    r"(?:this|an? (?P<what>[A-Za-z]+) you control|among (?P<among>[A-Za-z]+?)s you control)$"
)
_PUT_COUNTERS = re.compile(
    r"^put (?P<n>a|an|one|two|three|four|five|\d+) (?P<kind>\S+) counters? on "
    r"(?:this|an? (?P<what>[A-Za-z]+) you control)$"
)
# Rule 118.3 / 602.2b: the zone each action takes its objects from, and the words each one needs.
_ZONES = {"sacrifice": "battlefield", "tap": "battlefield", "untap": "battlefield", "return": "battlefield",
          "discard": "hand"}


_COLOR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
_ACCUSATIVE = {"земля": "землю"}  # «вернуть в руку владельца землю»


def _kind_filter(what: str) -> dict[str, Any] | None:
    """"creature" -> {types: [Creature]}, "Goblin" -> {subtypes: [Goblin]}, "permanent"/"card" -> {}."""
    if what.lower() in _CARD_TYPES:
        return {"types": [what.capitalize()]}
    if what[0].isupper():  # a subtype: "sacrifice a Goblin"
        return {"subtypes": [what]}
    if what.lower() in ("permanent", "card"):
        return {}
    return None


def _frozen(filt: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in filt.items()))


def object_cost(part: str) -> ObjectCost | None:
    """The object costs of activated abilities, in the words of the cards (None: not one of them)."""
    m = _REMOVE_COUNTERS.match(part)
    if m:
        if m["n"] == "X":  # "remove one or more +1/+1 counters from this": as many as the X announced (≥ 1)
            if m["what"] is not None or m["among"] is not None:
                return None
            return ObjectCost("remove_counters", 1, counter=m["kind"], text=part, variable=True)
        n = _NUMBERS.get(m["n"]) or int(m["n"])
        if m["what"] is None and m["among"] is None:
            return ObjectCost("remove_counters", n, counter=m["kind"], text=part)
        kinds = _kind_filter(m["what"] or m["among"])
        if kinds is None:
            return None
        return ObjectCost("remove_counters", n, _frozen(kinds), counter=m["kind"], text=part, from_self=False,
                          among=m["among"] is not None)
    m = _PUT_COUNTERS.match(part)
    if m:
        n = _NUMBERS.get(m["n"]) or int(m["n"])
        if m["what"] is None:
            return ObjectCost("put_counters", n, counter=m["kind"], text=part)
        kinds = _kind_filter(m["what"])  # "put a -1/-1 counter on a creature you control" (all on one of them)
        if kinds is None:
            return None
        return ObjectCost("put_counters", n, _frozen(kinds), counter=m["kind"], text=part, from_self=False)
    m = _OBJECT_COST.match(part)
    if m is None:
        return None
    verb = m["verb"]
    n = _NUMBERS.get(m["n"] or "a") or int(m["n"])
    filt = _kind_filter(m["what"])
    if filt is None:
        return None
    if verb == "exile":  # "exile a card from your graveyard / hand"
        if not m["zone"]:
            return None
        zone = m["zone"]
    else:
        zone = _ZONES[verb]
        if m["zone"]:
            return None
    if bool(m["to_hand"]) != (verb == "return"):  # "return a land you control to its owner's hand"
        return None
    if verb in ("tap", "untap"):  # "tap an untapped creature", "untap a tapped creature"
        wanted = "untapped " if verb == "tap" else "tapped "
        if m["status"] not in (None, wanted):
            return None
        filt["tapped"] = verb == "untap"
    elif m["status"]:
        filt["tapped"] = m["status"] == "tapped "
    if m["color"]:  # "exile a blue card from your hand"
        filt["colors"] = [_COLOR_WORDS[m["color"].strip()]]
    return ObjectCost(verb, n, _frozen(filt), bool(m["other"]), text=part, zone=zone)
