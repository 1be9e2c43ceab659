"""A Russian document and its English original, linked entry by entry (one-to-one), with what stays apart.

The Russian documents are translations (often excerpts) of the English release notes and FAQs; both
are parsed into entries on their own. This module pairs them across the two documents of one set, from
structure and checkable facts only (never a table of IDs):

- cards by English name (a Russian card block's ``name_en`` comes from the card-name glossary);
- sections: card notes by their card; the others in document order (a dynamic-programming alignment)
  scored by shared mechanic, cards, rule numbers and the facts of their texts;
- rule excerpts by rule number;
- rulings and notes, kind by kind, within paired sections, in order (the same alignment), scored by the
  facts they state: numbers, P/T and counters, mana symbols, rule numbers, card names — and length.

Whatever stays unpaired gets a reason (``UNMATCHED_REASONS``). An aligned pair that disagrees on a
checkable fact (a number, a mana symbol, a rule number, a card name) is a translation discrepancy
(``discrepancies``), flagged on both entries.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

from ingest.entries import Card, Document, Entry, Rule, Ruling, Section
from ingest.glossary import fold_name
from ingest.same_as import Terms, features

# Why an entry of a twinned document has no twin (stable codes; kb/i18n.py words them).
SECTION_ABSENT = "section_absent"  # its section has no counterpart in the other document
NOT_IN_OTHER = "not_in_other"  # its section is paired, the other document's section says nothing like it
CARD_ABSENT = "card_absent"  # no card block of that name in the other document
RULE_ABSENT = "rule_absent"  # the other document does not quote that rule
UNMATCHED_REASONS = (SECTION_ABSENT, NOT_IN_OTHER, CARD_ABSENT, RULE_ABSENT)

_RULE_NUMBER_RE = re.compile(r"\b\d{3}\.\d+[a-z]?\b")
_MANA_RE = re.compile(r"\{[^}]{1,5}\}")
_NUMBER_RE = re.compile(r"(?<![\w.])[+\-−–]?\d+(?:/[+\-−–]?\d+)?(?![\w.]*\d)")
_RUSSIAN_LENGTH_RATIO = 1.15  # a Russian translation runs this much longer than its English original
MIN_SCORE = 0.2
KIND_CHANGE = 0.1  # a ruling paired with a note costs this much: it happens, rarely
_DATE_RE = re.compile(
    r"\b\d{1,2}(?:[–-]\d{1,2})?\s+(?:январ|феврал|март|апрел|ма[йя]|июн|июл|август|сентябр|октябр|ноябр|декабр)\w*\s+\d{4}"
    r"|\b(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{1,2}"
    r"(?:[–-]\d{1,2})?,?\s+\d{4}", re.IGNORECASE)


@dataclass(frozen=True)
class Facts:
    """What a text states that a translation must keep: checked for discrepancies."""

    numbers: Counter[str]  # digits, P/T and counters ("+1/+1"), generic mana ({3} is 3: "paying 3")
    mana: Counter[str]  # the other mana symbols: {W}, {U/B}, {X}, {T}
    rules: frozenset[str]
    cards: frozenset[str]


def facts_of(text: str, cards: Iterable[str] = ()) -> Facts:
    rules = frozenset(_RULE_NUMBER_RE.findall(text))
    rest = _RULE_NUMBER_RE.sub(" ", text)
    symbols = [symbol.upper() for symbol in _MANA_RE.findall(rest)]
    mana = Counter(symbol for symbol in symbols if not symbol[1:-1].isdigit())
    rest = _MANA_RE.sub(lambda m: f" {m.group(0)[1:-1]} " if m.group(0)[1:-1].isdigit() else " ", rest)
    numbers = Counter(re.sub(r"[−–]", "-", n) for n in _NUMBER_RE.findall(rest))
    return Facts(numbers, mana, rules, frozenset(fold_name(c) for c in cards))


@dataclass(frozen=True)
class Item:
    """What the pairing compares: the language-free features of a text (``same_as.features``) and its length."""

    features: frozenset[str]
    length: int


def item_of(text: str, cards: Iterable[str], terms: Terms) -> Item:
    found = features(text, cards, terms)
    if _DATE_RE.search(text):
        found.add("shape:date")  # a date in either language: «10 декабря 2012 г.», "January 11, 2013"
    return Item(frozenset(found), len(text))


def _length_similarity(ru: int, en: int) -> float:
    if not ru or not en:
        return 0.0
    return math.exp(-2.0 * abs(math.log(ru / (en * _RUSSIAN_LENGTH_RATIO))))


def similarity(ru: Item, en: Item) -> float:
    """0..1: overlap of the features (numbers, mana, rules, cards, glossary terms) and fit of the lengths."""
    length = _length_similarity(ru.length, en.length)
    union = ru.features | en.features
    if not union:
        return 0.5 * length
    return 0.7 * len(ru.features & en.features) / len(union) + 0.3 * length


T = TypeVar("T")
U = TypeVar("U")


def align_in_order(ours: Sequence[T], theirs: Sequence[U], score: Callable[[T, U], float],
                   minimum: float = MIN_SCORE) -> list[tuple[int, int]]:
    """The order-keeping one-to-one pairing with the greatest total score (Needleman–Wunsch, free gaps)."""
    n, m = len(ours), len(theirs)
    scores = [[score(a, b) for b in theirs] for a in ours]
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            gain = scores[i][j] - minimum
            best[i][j] = max(best[i + 1][j], best[i][j + 1], best[i + 1][j + 1] + gain if gain > 0 else -1.0)
    pairs: list[tuple[int, int]] = []
    i = j = 0
    while i < n and j < m:
        gain = scores[i][j] - minimum
        if gain > 0 and best[i][j] == best[i + 1][j + 1] + gain:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif best[i][j] == best[i + 1][j]:
            i += 1
        else:
            j += 1
    return pairs


@dataclass
class Alignment:
    """The links between one Russian document and its English original."""

    russian: str
    english: str
    pairs: dict[str, str] = field(default_factory=dict)  # Russian entry ID → English entry ID
    unmatched: dict[str, str] = field(default_factory=dict)  # entry ID (either side) → reason
    discrepancies: dict[str, tuple[str, ...]] = field(default_factory=dict)  # entry ID (both sides) → facts

    def link(self, ru: str, en: str) -> None:
        self.pairs[ru] = en

    def counts(self, entries: Sequence[Entry]) -> dict[str, int]:
        """Per document kind of entry: aligned, unmatched on each side."""
        by_id = {e.id: e for e in entries}
        result: Counter[str] = Counter()
        for ru in self.pairs:
            result[f"aligned_{_kind(by_id[ru])}"] += 1
        for entry_id in self.unmatched:
            side = "ru" if by_id[entry_id].document_id == self.russian else "en"
            result[f"unmatched_{side}"] += 1
        result["discrepancies"] = sum(1 for ru in self.pairs if ru in self.discrepancies)
        result["aligned"] = len(self.pairs)
        return dict(result)


def english_name_finder(names: Iterable[str]) -> Callable[[str], tuple[str, ...]]:
    """English card names a text names (longest first; curly apostrophes as straight ones)."""
    ordered = sorted({n for n in names if len(n) >= 3}, key=len, reverse=True)
    if not ordered:
        return lambda _text: ()
    pattern = re.compile(r"(?<![\w'])(?:" + "|".join(re.escape(n).replace("'", "['’]") for n in ordered) + r")(?!\w)")
    canonical = {fold_name(n): n for n in ordered}

    def find(text: str) -> tuple[str, ...]:
        return tuple(dict.fromkeys(canonical[fold_name(m.group(0))] for m in pattern.finditer(text)))

    return find


def _position(entry: Ruling) -> int:
    return entry.source.start


def _kind(entry: Entry) -> str:
    if isinstance(entry, Ruling):
        return entry.kind
    return entry.entry_type


def _first_card(section: Section, cards: Sequence[Card]) -> str | None:
    return next((fold_name(c.name_en or c.name) for c in cards if c.section_id == section.id), None)


class _Pairing:
    """The entries of both documents, indexed for the pairing steps."""

    def __init__(self, entries: Sequence[Entry], ru_doc: str, en_doc: str, terms: Terms) -> None:
        self.result = Alignment(ru_doc, en_doc)
        self.terms = terms
        self.ru = [e for e in entries if e.document_id == ru_doc]
        self.en = [e for e in entries if e.document_id == en_doc]
        names = {c.name_en or c.name for c in entries if isinstance(c, Card) and (c.name_en or c.lang == "en")}
        names |= {name for r in self.ru if isinstance(r, Ruling) for name in r.cards}
        self.names = english_name_finder(names)

    def cards_of(self, ruling: Ruling) -> tuple[str, ...]:
        """The cards a ruling names: found at ingest (Russian), or by their English names here (English)."""
        return ruling.cards or (self.names(ruling.text) if ruling.lang == "en" else ())

    def of(self, side: list[Entry], cls: type[T]) -> list[T]:
        return [e for e in side if isinstance(e, cls)]

    def run(self) -> Alignment:
        cards = self._cards()
        sections = self._sections(cards)
        self._rules()
        for ru_section, en_section in sections:
            self._rulings(ru_section, en_section)
        paired_sections = {s for pair in sections for s in pair}
        for side in (self.ru, self.en):
            for entry in side:
                if entry.id in self.result.pairs or entry.id in self.result.pairs.values():
                    continue
                if isinstance(entry, Section):
                    self.result.unmatched[entry.id] = SECTION_ABSENT
                elif isinstance(entry, Card):
                    self.result.unmatched[entry.id] = CARD_ABSENT
                elif isinstance(entry, Rule):
                    self.result.unmatched[entry.id] = RULE_ABSENT
                elif isinstance(entry, Ruling):
                    paired = entry.section_id in paired_sections
                    self.result.unmatched[entry.id] = NOT_IN_OTHER if paired else SECTION_ABSENT
        return self.result

    def _cards(self) -> dict[str, str]:
        english: dict[str, list[Card]] = {}
        for card in self.of(self.en, Card):
            english.setdefault(fold_name(card.name_en or card.name), []).append(card)
        for card in self.of(self.ru, Card):
            candidates = english.get(fold_name(card.name_en or ""), [])
            if candidates:
                self.result.link(card.id, candidates.pop(0).id)
        return dict(self.result.pairs)

    def _section_item(self, side: list[Entry], section: Section) -> Item:
        texts = [e.text for e in side if isinstance(e, Ruling | Rule) and e.section_id == section.id]
        cards = [c for e in side if isinstance(e, Ruling) and e.section_id == section.id for c in self.cards_of(e)]
        cards += [c.name_en or c.name for c in self.of(side, Card) if c.section_id == section.id]
        return item_of("\n".join([section.heading, *texts]), cards, self.terms)

    def _sections(self, card_pairs: dict[str, str]) -> list[tuple[str, str]]:
        ru_sections, en_sections = self.of(self.ru, Section), self.of(self.en, Section)
        ru_cards, en_cards = self.of(self.ru, Card), self.of(self.en, Card)
        card_of_section = {c.id: c.section_id for c in [*ru_cards, *en_cards]}
        card_led_pairs: dict[str, str] = {}
        for ru_card, en_card in card_pairs.items():
            ru_section, en_section = card_of_section[ru_card], card_of_section[en_card]
            ru_s = next(s for s in ru_sections if s.id == ru_section)
            en_s = next(s for s in en_sections if s.id == en_section)
            if ru_s.kind == "card notes" and en_s.kind == "card notes" and ru_section not in card_led_pairs:
                card_led_pairs[ru_section] = en_section
        rest_ru = [s for s in ru_sections if s.id not in card_led_pairs]
        rest_en = [s for s in en_sections if s.id not in card_led_pairs.values()]
        ru_items = {s.id: self._section_item(self.ru, s) for s in rest_ru}
        en_items = {s.id: self._section_item(self.en, s) for s in rest_en}
        shared_card = {(card_of_section[r], card_of_section[e]) for r, e in card_pairs.items()}

        def score(ru: Section, en: Section) -> float:
            if (ru.kind == "card notes") != (en.kind == "card notes"):
                return 0.0
            value = similarity(ru_items[ru.id], en_items[en.id])
            if ru.mechanic_en and en.mechanic_en and fold_name(ru.mechanic_en) == fold_name(en.mechanic_en):
                value += 1.0
            if (ru.id, en.id) in shared_card:
                value += 1.0
            if ru.kind == en.kind:
                value += 0.2
            return value

        pairs = [(rest_ru[i].id, rest_en[j].id) for i, j in align_in_order(rest_ru, rest_en, score, 0.45)]
        pairs += list(card_led_pairs.items())
        for ru_id, en_id in pairs:
            self.result.link(ru_id, en_id)
        return pairs

    def _rules(self) -> None:
        english: dict[str, list[Rule]] = {}
        for rule in self.of(self.en, Rule):
            english.setdefault(rule.number, []).append(rule)
        for rule in self.of(self.ru, Rule):
            if english.get(rule.number):
                self.result.link(rule.id, english[rule.number].pop(0).id)

    def _rulings(self, ru_section: str, en_section: str) -> None:
        """Rulings and notes in document order: a translation may make a bullet of a paragraph, or back."""
        ours = sorted((r for r in self.of(self.ru, Ruling) if r.section_id == ru_section), key=_position)
        theirs = sorted((r for r in self.of(self.en, Ruling) if r.section_id == en_section), key=_position)
        ru_items = [item_of(r.text, r.cards, self.terms) for r in ours]
        en_items = [item_of(r.text, self.cards_of(r), self.terms) for r in theirs]

        def score(i: int, j: int) -> float:
            return similarity(ru_items[i], en_items[j]) - (KIND_CHANGE if ours[i].kind != theirs[j].kind else 0.0)

        for i, j in align_in_order(range(len(ours)), range(len(theirs)), score):
            self.result.link(ours[i].id, theirs[j].id)


def twins(documents: Sequence[Document]) -> list[tuple[str, str]]:
    """(Russian document, English original) of the same set: one each, the first of each language."""
    result: list[tuple[str, str]] = []
    used: set[str] = set()
    for ru in documents:
        if ru.languages[:1] != ("ru",) or not ru.set_code or ru.kind == "MTGJSON":
            continue
        en = next((d for d in documents if d.set_code == ru.set_code and d.languages == ("en",)
                   and d.kind != "MTGJSON" and d.id not in used), None)
        if en is not None:
            used.add(en.id)
            result.append((ru.id, en.id))
    return result


def align_documents(entries: Sequence[Entry], ru_doc: str, en_doc: str, terms: Terms) -> Alignment:
    pairing = _Pairing(entries, ru_doc, en_doc, terms)
    alignment = pairing.run()
    by_id = {e.id: e for e in entries}
    for ru_id, en_id in alignment.pairs.items():
        en = by_id[en_id]
        if isinstance(en, Ruling):
            en = replace(en, cards=pairing.cards_of(en))
        found = discrepancies(by_id[ru_id], en)
        if found:
            alignment.discrepancies[ru_id] = alignment.discrepancies[en_id] = found
    return alignment


# -- translation discrepancies -----------------------------------------------------------------------------------
def _checkable(entry: Entry) -> Facts | None:
    if isinstance(entry, Ruling):
        return facts_of(entry.text, entry.cards)
    if isinstance(entry, Rule):
        return facts_of(f"{entry.number} {entry.text}")
    if isinstance(entry, Card):
        pt = [f"{entry.power}/{entry.toughness}"] if entry.power is not None else []
        return facts_of(" ".join([entry.mana_cost or "", *pt, *entry.rules_text]))
    return None


def discrepancies(ru: Entry, en: Entry) -> tuple[str, ...]:
    """The checkable facts an aligned pair disagrees on: ``number: 3 ≠ 4``, ``mana: {W} ≠ {U}``, …"""
    a, b = _checkable(ru), _checkable(en)
    if a is None or b is None:
        return ()
    found: list[str] = []
    for label, ours, theirs in (("number", a.numbers, b.numbers), ("mana", a.mana, b.mana)):
        if ours != theirs and ours and theirs:  # one side silent is a way of saying, not a disagreement
            missing, extra = theirs - ours, ours - theirs
            found.append(f"{label}: {' '.join(sorted(extra.elements())) or '—'} ≠ "
                         f"{' '.join(sorted(missing.elements())) or '—'}")
    if a.rules != b.rules and a.rules and b.rules:
        found.append(f"rule: {_differ(a.rules, b.rules)}")
    if isinstance(ru, Card) and isinstance(en, Card) and fold_name(ru.name_en or "") != fold_name(en.name):
        found.append(f"card: {ru.name_en} ≠ {en.name}")
    elif a.cards and b.cards and a.cards != b.cards:
        found.append(f"card: {_differ(a.cards, b.cards)}")
    return tuple(found)


def _differ(ours: frozenset[str], theirs: frozenset[str]) -> str:
    return f"{' '.join(sorted(ours - theirs)) or '—'} ≠ {' '.join(sorted(theirs - ours)) or '—'}"


def link(entries: list[Entry], terms: Terms) -> tuple[list[Entry], list[Alignment]]:
    """Every twinned pair of documents aligned; entries get ``aligned``, ``unaligned`` and ``discrepancies``."""
    documents = [e for e in entries if isinstance(e, Document)]
    alignments = [align_documents(entries, ru, en, terms) for ru, en in twins(documents)]
    twinned = {doc for a in alignments for doc in (a.russian, a.english)}
    aligned: dict[str, str] = {}
    unaligned: dict[str, str] = {}
    flagged: dict[str, tuple[str, ...]] = {}
    for alignment in alignments:
        for ru, en in alignment.pairs.items():
            aligned[ru], aligned[en] = en, ru
        unaligned.update(alignment.unmatched)
        flagged.update(alignment.discrepancies)
    result: list[Entry] = []
    for entry in entries:
        if entry.document_id in twinned and isinstance(entry, Section | Card | Rule | Ruling):
            current = getattr(entry, "aligned", None)
            keep_inner = current if current and current.split("/")[0] == entry.document_id else None
            entry = replace(entry, aligned=aligned.get(entry.id, keep_inner), unaligned=unaligned.get(entry.id)
                            if entry.id not in aligned and keep_inner is None else None)
            if not isinstance(entry, Section):
                entry = replace(entry, discrepancies=flagged.get(entry.id, ()))
        result.append(entry)
    return result, alignments
