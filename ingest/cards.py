"""Card blocks: name, mana cost, type line, P/T or loyalty, rules text, as FAQs print them.

Recognising a block needs no list of the set's cards: a short name line followed by a mana-cost line
and/or a type line (a line that starts with a card type, in Russian or English) is a card block.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

MANA_COST_RE = re.compile(r"^(?:\{[0-9A-Za-z/]+\})+$")
MANA_SYMBOL_RE = re.compile(r"\{([^}]+)\}")
PT_RE = re.compile(r"^(?P<power>[-+]?(?:\d+|\*|X)(?:[+-]\*)?)/(?P<toughness>[-+]?(?:\d+|\*|X)(?:[+-]\*)?)$")
LOYALTY_LINE_RE = re.compile(r"^(?:Верность|Loyalty)\s*[:：]?\s*(?P<value>\d+|X)$", re.IGNORECASE)
LOYALTY_ABILITY_RE = re.compile(r"^\[?(?P<cost>[+−–-]?(?:\d+|X))\]?\s*:\s*(?P<text>.+)$")
REMINDER_RE = re.compile(r"\s*\((?P<reminder>[^()]*(?:\([^()]*\)[^()]*)*)\)")

COLOR_ORDER = "WUBRG"

# Canonical English names of supertypes and card types, keyed by the folded printed word (stem).
SUPERTYPES: dict[str, str] = {
    "легендарн": "Legendary",
    "базов": "Basic",
    "снежн": "Snow",
    "миров": "World",
    "legendary": "Legendary",
    "basic": "Basic",
    "snow": "Snow",
    "world": "World",
}
CARD_TYPES: dict[str, str] = {
    "существо": "Creature",
    "существа": "Creature",
    "земля": "Land",
    "артефакт": "Artifact",
    "артефактное": "Artifact",
    "артефактный": "Artifact",
    "чары": "Enchantment",
    "мгновенное": "Instant",
    "волшебство": "Sorcery",
    "мироходец": "Planeswalker",
    "племенной": "Tribal",
    "племенные": "Tribal",
    "племенное": "Tribal",
    "племенная": "Tribal",
    "битва": "Battle",
    "creature": "Creature",
    "land": "Land",
    "artifact": "Artifact",
    "enchantment": "Enchantment",
    "instant": "Instant",
    "sorcery": "Sorcery",
    "planeswalker": "Planeswalker",
    "tribal": "Tribal",
    "kindred": "Tribal",
    "battle": "Battle",
}
# Words that belong to a type's printed name but are not types themselves («Мгновенное заклинание»).
TYPE_FILLERS = {"заклинание"}
TYPE_DASHES = ("—", "–", "--", " - ")  # "--": the em dash of old plain-text FAQs


def _word_key(word: str) -> str:
    return word.lower().replace("ё", "е").strip(",")


def _supertype(word: str) -> str | None:
    key = _word_key(word)
    return next((name for stem, name in SUPERTYPES.items() if key.startswith(stem)), None)


# A mana cost printed as bare letters, as web release notes do: "5W", "2BG", "XRR", "B/G", "2/W", "W/BW/B".
_BARE_SYMBOL = r"(?:[WUBRG]/[WUBRGP]|2/[WUBRG]|1?\d|[XYZ]|[WUBRGCS])"
_BARE_COST_RE = re.compile(rf"^{_BARE_SYMBOL}+$")
_BARE_TOKEN_RE = re.compile(_BARE_SYMBOL)
# An activation cost at the start of an ability: "4BR: …", "T: …", "2, T, Sacrifice …: …", "1W, T: …".
_BARE_ACTIVATION_RE = re.compile(rf"^(?P<cost>(?:{_BARE_SYMBOL}+|T|Q)(?:, ?(?:{_BARE_SYMBOL}+|T|Q))*)(?=[:,] ?)")
# A keyword with a cost: "Dash 3B", "Megamorph 5WW (…)".
_BARE_KEYWORD_RE = re.compile(
    rf"^(?P<keyword>[A-Z][a-z]+) (?P<cost>{_BARE_SYMBOL}*[WUBRGXC]{_BARE_SYMBOL}*|\d+(?= \*?\())(?=$| \(| \*\(| —)"
)
# "Add B or R", "Add 2", "add GG": the mana an ability adds.
_BARE_ADD_RE = re.compile(rf"\b(?P<verb>[Aa]dd) (?P<mana>{_BARE_SYMBOL}+(?: or {_BARE_SYMBOL}+)*)(?= to\b|[.,]|$)")
_BARE_PAY_RE = re.compile(rf"\b(?P<verb>[Pp]ay) (?P<cost>{_BARE_SYMBOL}*[WUBRGX/]{_BARE_SYMBOL}*)(?=[.,;]| or\b| to\b)")


def braced_cost(bare: str) -> str | None:
    """``{5}{W}`` for the bare ``5W``; None when the text is not a bare mana cost."""
    compact = bare.replace(" ", "")
    if not _BARE_COST_RE.match(compact) or (compact.isdigit() and len(compact) > 2):
        return None
    return "".join("{" + token + "}" for token in _BARE_TOKEN_RE.findall(compact))


def normalise_cost(line: str) -> str | None:
    """A cost line in either form, as ``{…}`` symbols; None when the line is no mana cost."""
    compact = line.replace(" ", "")
    if MANA_COST_RE.match(compact):
        return compact
    return braced_cost(compact)


def is_mana_cost(line: str) -> bool:
    return normalise_cost(line) is not None


def brace_rules_line(line: str) -> str:
    """Costs in one ability line of a card printed with bare letters: ``4BR: …`` → ``{4}{B}{R}: …``.

    Only where a cost must stand (an activation cost, a keyword's cost, what "pay" asks), so "Bolster 1"
    or a "2/2" in the text stay as written.
    """
    def activation(match: re.Match[str]) -> str:
        parts = [part.strip() for part in match.group("cost").split(",")]
        return ", ".join("{" + p + "}" if p in ("T", "Q") else (braced_cost(p) or p) for p in parts)

    line = _BARE_ACTIVATION_RE.sub(activation, line, count=1)
    line = _BARE_KEYWORD_RE.sub(lambda m: f"{m.group('keyword')} {braced_cost(m.group('cost')) or m.group('cost')}",
                                line, count=1)
    line = _BARE_PAY_RE.sub(lambda m: f"{m.group('verb')} {braced_cost(m.group('cost')) or m.group('cost')}", line)
    return _BARE_ADD_RE.sub(lambda m: f"{m.group('verb')} " + " or ".join(
        braced_cost(part) or part for part in m.group("mana").split(" or ")), line)


def split_type_line(line: str) -> tuple[list[str], list[str], list[str]] | None:
    """``(supertypes, types, subtypes)`` in canonical English / printed subtypes; None if not a type line."""
    head, subtypes_text = line, ""
    for dash in TYPE_DASHES:
        if dash in line:
            head, subtypes_text = line.split(dash, 1)
            break
    supertypes: list[str] = []
    types: list[str] = []
    for word in head.split():
        if (canonical := CARD_TYPES.get(_word_key(word))) is not None:
            if canonical not in types:
                types.append(canonical)
        elif (super_name := _supertype(word)) is not None and not types:
            supertypes.append(super_name)
        elif _word_key(word) in TYPE_FILLERS and types:
            continue
        else:
            return None
    if not types:
        return None
    return supertypes, types, subtypes_text.split()


def is_type_line(line: str) -> bool:
    return len(line) <= 90 and not line.endswith(".") and split_type_line(line) is not None


def colors_of(cost: str | None) -> tuple[str, ...]:
    if not cost:
        return ()
    found = {letter for symbol in MANA_SYMBOL_RE.findall(cost) for letter in symbol.upper() if letter in COLOR_ORDER}
    return tuple(color for color in COLOR_ORDER if color in found)


def mana_value(cost: str | None) -> int:
    """Hybrid {U/B} counts 1, monocolored hybrid {2/B} counts its generic half (2), X counts 0."""
    if not cost:
        return 0
    total = 0
    for symbol in MANA_SYMBOL_RE.findall(cost):
        halves = symbol.upper().split("/")
        values = [int(h) if h.isdigit() else (0 if h in ("X", "Y", "Z") else 1) for h in halves if h != "P"]
        total += max(values) if values else 1
    return total


@dataclass
class CardBlock:
    """A card as printed in the document, before it becomes an entry."""

    name: str
    first_line: int
    last_line: int
    mana_cost: str | None = None
    type_line: str = ""
    supertypes: list[str] = field(default_factory=list)
    types: list[str] = field(default_factory=list)
    subtypes: list[str] = field(default_factory=list)
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None
    rules_text: list[str] = field(default_factory=list)
    reminder_text: list[str] = field(default_factory=list)
    loyalty_abilities: list[tuple[str, str]] = field(default_factory=list)

    def add_text_line(self, line: str) -> None:
        """One printed ability line: reminders in parentheses go apart from the rules text."""
        if "Planeswalker" in self.types and (match := LOYALTY_ABILITY_RE.match(line)):
            cost = match.group("cost").replace("−", "-").replace("–", "-")
            self.loyalty_abilities.append((cost, match.group("text").strip()))
            self.rules_text.append(line)
            return
        reminders = [m.group("reminder").strip() for m in REMINDER_RE.finditer(line)]
        rules = REMINDER_RE.sub("", line).strip()
        self.reminder_text.extend(r for r in reminders if r)
        if rules:
            self.rules_text.append(rules)
