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

    action: str  # sacrifice | tap | exile | remove_counters | put_counters
    n: int
    filter: tuple[tuple[str, Any], ...] = ()  # a card filter, as in card definitions (frozen as pairs)
    other: bool = False  # "another": not the object whose cost it is
    counter: str = ""  # remove_counters / put_counters: the kind, from / on the object itself
    text: str = ""  # the words of the card

    @property
    def text_ru(self) -> str:
        """«принести в жертву другое существо (1)», as the proof tells it."""
        from rules_engine.glossary import COUNTER_NAMES, SUBTYPE_NAMES, TYPE_NAMES

        if self.action == "remove_counters":
            return f"убрать с этого перманента {COUNTER_NAMES.get(self.counter, self.counter)}: {self.n}"
        if self.action == "put_counters":
            return f"положить на этот перманент {COUNTER_NAMES.get(self.counter, self.counter)}: {self.n}"
        filt = dict(self.filter)
        what = ", ".join(TYPE_NAMES.get(t, t) for t in filt.get("types", ())) or ", ".join(
            SUBTYPE_NAMES.get(t, t) for t in filt.get("subtypes", ())
        ) or "перманент"
        if self.action == "exile":
            what = f"карту ({what.lower()})" if filt else "карту"
        verb = {"sacrifice": "принести в жертву", "tap": "повернуть неповернутое", "exile": "изгнать с кладбища"}
        other = "другое " if self.other else ""
        return f"{verb[self.action]} {other}{what.lower()}: {self.n}"


_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_CARD_TYPES = {"artifact", "creature", "enchantment", "land", "planeswalker", "instant", "sorcery"}
_OBJECT_COST = re.compile(
    r"^(?P<verb>sacrifice|tap|exile) (?:(?P<n>a|an|one|two|three|four|five|\d+) )?(?P<other>another |other )?"
    r"(?P<untapped>untapped )?(?P<what>[A-Za-z]+?)s?(?: cards?)?(?P<yours> you control)?(?P<gy> from your graveyard)?$"
)
_REMOVE_COUNTERS = re.compile(r"^remove (?P<n>a|an|one|two|three|four|five|\d+) (?P<kind>\S+) counters? from this$")
_PUT_COUNTERS = re.compile(r"^put (?P<n>a|an|one|two|three|four|five|\d+) (?P<kind>\S+) counters? on this$")


def object_cost(part: str) -> ObjectCost | None:
    """The object costs of activated abilities, in the words of the cards."""
    m = _REMOVE_COUNTERS.match(part)
    if m:
        n = _NUMBERS.get(m["n"]) or int(m["n"])
        return ObjectCost("remove_counters", n, counter=m["kind"], text=part)
    m = _PUT_COUNTERS.match(part)
    if m:
        n = _NUMBERS.get(m["n"]) or int(m["n"])
        return ObjectCost("put_counters", n, counter=m["kind"], text=part)
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
