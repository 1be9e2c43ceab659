"""The same card and the same ruling from two sources: a document's card block ↔ the MTGJSON card, and
a document's (mostly Russian) ruling ↔ the official English ruling that says the same thing.

Cards match by English name. A ruling is compared only with the official rulings of the cards it is
about (the cards it names, and the card its section shows), and across languages only by what survives
translation: numbers (digits and number words), mana symbols, counters (``-1/-1``), rule numbers, card
names, and game terms and keywords recognised through the RU↔EN glossary (``data/glossary/terms.csv``,
``mechanics.csv``). Each feature is weighted by its rarity over all official rulings (a word every
ruling has says nothing), and the best-scoring official ruling is linked when the score clears
``THRESHOLD`` and beats the runner-up by ``MARGIN``. The link is stored on both entries (``same_as``).
"""

from __future__ import annotations

import csv
import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from ingest.entries import Card, Entry, Ruling
from ingest.glossary import fold_name
from ingest.morphology import lemmas, words

THRESHOLD = 0.6
MIN_SHARED = 3  # distinct things both say (a keyword named twice, as term and as mechanic, is one)
MARGIN = 0.05
SOLE_RIVAL = 0.65  # a ruling with no other candidate must beat this imaginary runner-up: nothing vouches for it
_MANA_RE = re.compile(r"\{[^}]+\}")
_RULE_RE = re.compile(r"\b\d{3}\.\d+[a-z]?\b")
_COUNTER_RE = re.compile(r"[+-−]\d+/[+-−]\d+")
_NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "один": 1, "два": 2, "три": 3, "четыре": 4, "пять": 5, "шесть": 6, "семь": 7, "восемь": 8,
    "девять": 9, "десять": 10, "twice": 2, "дважды": 2, "first": 1, "первый": 1, "second": 2, "второй": 2,
}
_EN_SUFFIXES = ("ing", "ed", "es", "s")


def _en_stem(word: str) -> str:
    word = word.lower().replace("’", "'").removesuffix("'s")
    for suffix in _EN_SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def _keys(word: str) -> frozenset[str]:
    """What a word can match: its Russian lemmas, or its crude English stem."""
    if re.search(r"[А-Яа-яЁё]", word):
        return frozenset(lemmas(word))
    return frozenset({_en_stem(word)})


@dataclass
class Terms:
    """Glossary terms by first-word key: ``(concept, keys per word)``, longest first."""

    by_first: dict[str, list[tuple[str, tuple[frozenset[str], ...]]]] = field(default_factory=dict)

    def add(self, concept: str, text: str) -> None:
        tokens = [w for _, _, w in words(text)]
        if not tokens:
            return
        keys = tuple(_keys(t) for t in tokens)
        for first in keys[0]:
            bucket = self.by_first.setdefault(first, [])
            bucket.append((concept, keys))
            bucket.sort(key=lambda item: -len(item[1]))

    def find(self, positions: Sequence[frozenset[str]]) -> set[str]:
        found: set[str] = set()
        for index, here in enumerate(positions):
            for first in here:
                for concept, keys in self.by_first.get(first, ()):
                    n = len(keys)
                    if index + n <= len(positions) and all(keys[k] & positions[index + k] for k in range(n)):
                        found.add(concept)
        return found


def load_terms(directory: Path) -> Terms:
    terms = Terms()
    path = directory / "terms.csv"
    if path.exists():
        with path.open(encoding="utf-8", newline="") as handle:
            rows = csv.DictReader(line for line in handle if line.strip() and not line.startswith("#"))
            for row in rows:
                if (row.get("concept") or "").strip():
                    terms.add(row["concept"].strip(), row.get("term") or "")
    path = directory / "mechanics.csv"
    if path.exists():
        with path.open(encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle):
                concept = "mechanic:" + (row.get("slug") or row.get("en") or "")
                terms.add(concept, row.get("ru") or "")
                terms.add(concept, row.get("en") or "")
    return terms


def features(text: str, names: Iterable[str], terms: Terms) -> set[str]:
    """What of a ruling survives translation (see the module docstring)."""
    found = {"mana:" + m.upper() for m in _MANA_RE.findall(text)}
    found |= {"rule:" + m for m in _RULE_RE.findall(text)}
    found |= {"counter:" + m.replace("−", "-") for m in _COUNTER_RE.findall(text)}
    found |= {"card:" + fold_name(n) for n in names}
    stripped = _COUNTER_RE.sub(" ", _RULE_RE.sub(" ", _MANA_RE.sub(" ", text)))
    positions = []
    for _, _, word in words(stripped):
        keys = _keys(word)
        positions.append(keys)
        if word.isdigit():
            found.add(f"number:{int(word)}")
        for key in keys:
            if key in _NUMBER_WORDS:
                found.add(f"number:{_NUMBER_WORDS[key]}")
    found |= {"term:" + c for c in terms.find(positions)}
    return found


@dataclass(frozen=True)
class Match:
    """A document's ruling and the official ruling found to say the same thing, with the evidence."""

    ruling: str
    official: str
    score: float
    runner_up: float
    shared: tuple[str, ...]  # the features both have


def card_links(entries: Sequence[Entry]) -> dict[str, set[str]]:
    """Document card ↔ official card, by English name (both directions)."""
    official = {fold_name(e.name): e.id for e in entries if isinstance(e, Card) and _official(e)}
    links: dict[str, set[str]] = defaultdict(set)
    for card in entries:
        if isinstance(card, Card) and not _official(card):
            target = official.get(fold_name(card.name_en or card.name))
            if target is not None:
                links[card.id].add(target)
                links[target].add(card.id)
    return links


def ruling_matches(
    entries: Sequence[Entry], terms: Terms, links: dict[str, set[str]] | None = None
) -> list[Match]:
    """Every document ruling's closest official ruling among its cards', whatever the score (best first)."""
    links = card_links(entries) if links is None else links
    official_cards = {fold_name(e.name): e for e in entries if isinstance(e, Card) and _official(e)}
    official_rulings: dict[str, list[Ruling]] = defaultdict(list)
    for entry in entries:
        if isinstance(entry, Ruling) and _official(entry) and entry.card_ids:
            official_rulings[entry.card_ids[0]].append(entry)
    all_official = [r for group in official_rulings.values() for r in group]
    texts = {r.id: r.text for r in all_official}
    official_features = {r.id: features(r.text, _named(r), terms) for r in all_official}
    df: dict[str, int] = defaultdict(int)
    for found in official_features.values():
        for f in found:
            df[f] += 1
    total = max(1, len(all_official))

    def weight(feature: str) -> float:
        return math.log((total + 1) / (df.get(feature, 0) + 0.5))

    section_cards: dict[str, list[Card]] = defaultdict(list)
    for card in entries:
        if isinstance(card, Card) and not _official(card):
            section_cards[card.section_id].append(card)
    matches: list[Match] = []
    for ruling in (e for e in entries if isinstance(e, Ruling) and not _official(e) and e.kind == "ruling"):
        candidates = _candidate_cards(ruling, official_cards, links, section_cards)
        pool = [r for cid in candidates for r in official_rulings.get(cid, ())]
        if not pool:
            continue
        mine = features(ruling.text, ruling.cards, terms)
        scored = sorted(
            ((_similarity(mine, official_features[r.id], weight), r.id) for r in pool), key=lambda s: (-s[0], s[1])
        )
        best_score, best_id = scored[0]
        # the same text under two cards (a keyword's general ruling) is one answer, not a rival
        runner_up = next((s for s, rid in scored[1:] if texts[rid] != texts[best_id]), SOLE_RIVAL)
        shared = tuple(sorted(mine & official_features[best_id]))
        matches.append(Match(ruling.id, best_id, best_score, runner_up, shared))
    return sorted(matches, key=lambda m: (-m.score, m.ruling))


def accepted(matches: Iterable[Match], languages: Mapping[str, str]) -> list[Match]:
    """Matches that clear ``THRESHOLD`` and ``MARGIN``; an official ruling is the same as at most one ruling
    per document and language (the closest), since a document states each ruling once."""
    taken: set[tuple[str, str, str]] = set()
    result: list[Match] = []
    for match in matches:
        if match.score < THRESHOLD or match.score - match.runner_up < MARGIN or _distinct(match.shared) < MIN_SHARED:
            continue
        owner = (match.ruling.split("/", 1)[0], languages.get(match.ruling, ""), match.official)
        if owner in taken:
            continue
        taken.add(owner)
        result.append(match)
    return result


def link(entries: Sequence[Entry], terms: Terms) -> list[Entry]:
    """``entries`` with ``same_as`` filled on cards and rulings (official entries: IDs ``mtgjson/…``)."""
    if not any(isinstance(e, Card) and _official(e) for e in entries):
        return list(entries)
    links = card_links(entries)
    languages = {e.id: e.lang for e in entries if isinstance(e, Ruling)}
    for match in accepted(ruling_matches(entries, terms, links), languages):
        links[match.ruling].add(match.official)
        links[match.official].add(match.ruling)
    return [
        replace(e, same_as=tuple(sorted(links[e.id]))) if isinstance(e, Card | Ruling) and e.id in links else e
        for e in entries
    ]


def _distinct(shared: Iterable[str]) -> int:
    return len({f.replace("term:mechanic:", "term:") for f in shared})


def _named(ruling: Ruling) -> tuple[str, ...]:
    """Card names an official ruling's text uses (its own card is listed on every ruling, named or not)."""
    own, *others = ruling.cards or ("",)
    folded = fold_name(ruling.text.replace("’", "'"))
    return tuple(others) + ((own,) if own and fold_name(own) in folded else ())


def _official(entry: Entry) -> bool:
    return entry.id.startswith("mtgjson/")


def _candidate_cards(
    ruling: Ruling,
    official_cards: dict[str, Card],
    links: dict[str, set[str]],
    section_cards: dict[str, list[Card]],
) -> list[str]:
    """Official card IDs the ruling is about: cards it names, and the card (or two) its section shows."""
    found: list[str] = []
    for name in ruling.cards:
        if (card := official_cards.get(fold_name(name))) is not None:
            found.append(card.id)
    for cid in ruling.card_ids:
        found.extend(sorted(links.get(cid, ())))
    own = section_cards.get(ruling.section_id, [])
    if len(own) <= 2:
        for card in own:
            found.extend(sorted(links.get(card.id, ())))
    return list(dict.fromkeys(found))


def _similarity(a: set[str], b: set[str], weight: Callable[[str], float]) -> float:
    """Weighted cosine of two feature sets."""
    shared = sum(weight(f) for f in a & b)
    norm = math.sqrt(sum(weight(f) for f in a) * sum(weight(f) for f in b))
    return shared / norm if norm else 0.0
