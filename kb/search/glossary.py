"""The RU↔EN glossary: game terms, old/new wording, slang and card names, for expanding queries.

Sources (all in ``data/glossary/``): ``terms.csv`` (hand-written; see its header), ``mechanics.csv``
(the set mechanics, written by ingest's maintainer), ``card-names-en-ru.csv`` and ``extra-cards.csv``
(card names in both languages). Every term is analysed with the same analyzer as the index, so a
glossary entry matches a query in any inflected form.

Why matching keeps stop words: old wording such as «в игру» (→ поле битвы) would otherwise reduce to
the bare «игра» and fire on every query that mentions the game.

Compiling the glossary (about 3 000 terms through pymorphy3) costs tens of milliseconds, so the
compiled form is saved beside the index (``to_json`` / ``from_json``) and reused while the glossary
files are unchanged — they are part of the index fingerprint.
"""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kb.search.analysis import tokenize

Positions = tuple[tuple[str, ...], ...]

GLOSSARY_FILES = ("terms.csv", "mechanics.csv", "card-names-en-ru.csv", "extra-cards.csv")
CARD_PREFIX = "card:"  # a card name's concept: ``card:<english name>``
TOPICS_KEY = "#topics"  # in the stored glossary: the concepts that are seeded mechanics


@dataclass(frozen=True)
class Term:
    """One wording of a concept: how to recognise it in a query and what to search for."""

    text: str
    lang: str
    status: str  # official | old | slang | name
    match: Positions  # every token, stop words included (for recognising it in a query)
    search: Positions  # without stop words (what the index holds)


@dataclass(frozen=True)
class Expansion:
    """A glossary hit in a query: the token span it covers and the other wordings to search too."""

    start: int  # index into the query's tokens (stop words included)
    end: int  # exclusive
    concept: str
    alternatives: tuple[Term, ...]


def term_positions(text: str) -> tuple[Positions, Positions]:
    tokens = tokenize(text)
    match = tuple(tok.terms("query") for tok in tokens)
    search = tuple(tok.terms("query") for tok in tokens if not tok.stop)
    return match, search


@dataclass
class Glossary:
    """Concepts, each a set of equivalent terms, with an index on each term's first token."""

    _concepts: dict[str, list[Term]] = field(default_factory=dict)
    _raw: dict[str, list[list[object]]] = field(default_factory=dict, repr=False)  # from_json, not yet built
    _by_text: dict[str, str] = field(default_factory=dict, repr=False)
    _by_first: dict[str, list[tuple[str, int]]] = field(default_factory=dict, repr=False)
    _vocabulary: set[str] = field(default_factory=set, repr=False)
    _initials: dict[str, list[str]] | None = field(default=None, repr=False)
    topics: set[str] = field(default_factory=set, repr=False)  # the seeded mechanics' concepts (``is_topic``)

    @property
    def concepts(self) -> dict[str, list[Term]]:
        """Concept → its wordings (every one built: for exporting and indexing, not for one query)."""
        for concept in list(self._raw):
            self.terms_of(concept)
        return self._concepts

    def terms_of(self, concept: str) -> list[Term]:
        """One concept's wordings; a stored glossary builds them on first use (a query needs a few)."""
        terms = self._concepts.get(concept)
        if terms is None:
            rows = self._raw.pop(concept, [])
            terms = self._concepts[concept] = [
                Term(str(r[0]), str(r[1]), str(r[2]), _positions(r[3]), _positions(r[4]))  # type: ignore[arg-type]
                for r in rows
            ]
        return terms

    def add(self, concept: str, text: str, lang: str, status: str) -> None:
        text = text.strip()
        if not text:
            return
        terms = self.concepts.setdefault(concept, [])
        if any(t.text.lower() == text.lower() and t.lang == lang for t in terms):
            return
        match, search = term_positions(text)
        if not match or not search:
            return
        terms.append(Term(text, lang, status, match, search))
        self._by_text.setdefault(text.lower(), concept)
        self._register(concept, len(terms) - 1)

    def concept_of(self, *texts: str) -> str | None:
        """The concept already holding one of these wordings (so mechanics merge into terms.csv)."""
        for text in texts:
            concept = self._by_text.get(text.strip().lower())
            if concept:
                return concept
        return None

    def _register(self, concept: str, index: int) -> None:
        term = self.concepts[concept][index]
        for alt in term.match[0]:
            self._by_first.setdefault(alt, []).append((concept, index))
        for position in term.search:
            self._vocabulary.update(position)
        self._initials = None

    @property
    def vocabulary(self) -> set[str]:
        """Every term the glossary knows: a query word found here is not a typo."""
        return self._vocabulary

    def starting_with(self, initial: str) -> list[str]:
        """The vocabulary's terms with this first letter (typo candidates keep the first letter)."""
        if self._initials is None:
            initials: dict[str, list[str]] = {}
            for term in sorted(self._vocabulary):
                initials.setdefault(term[:1], []).append(term)
            self._initials = initials
        return self._initials.get(initial, [])

    def find(self, tokens: Sequence[tuple[str, ...]]) -> list[Expansion]:
        """Glossary hits in a query, longest first, not overlapping; ``tokens`` include stop words."""
        hits: list[Expansion] = []
        i = 0
        while i < len(tokens):
            best: tuple[int, str] | None = None
            for alt in tokens[i]:
                for concept, index in self._by_first.get(alt, ()):
                    term = self.terms_of(concept)[index]
                    n = len(term.match)
                    if best is not None and n <= best[0]:
                        continue
                    if i + n <= len(tokens) and all(
                        set(term.match[k]) & set(tokens[i + k]) for k in range(n)
                    ):
                        best = (n, concept)
            if best is None:
                i += 1
                continue
            n, concept = best
            hits.append(Expansion(i, i + n, concept, tuple(self.terms_of(concept))))
            i += n
        return hits

    def is_topic(self, concept: str) -> bool:
        """A card or a seeded mechanic (``mechanics.csv``): what a question the corpus can answer is about."""
        return concept.startswith(CARD_PREFIX) or concept in self.topics

    def to_json(self) -> str:
        payload: dict[str, Any] = {
            concept: [[t.text, t.lang, t.status, t.match, t.search] for t in terms]
            for concept, terms in self.concepts.items()
        }
        payload[TOPICS_KEY] = sorted(self.topics)
        return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Glossary:
        """The stored glossary, with its lookup tables built now and its ``Term``s only when a query meets them."""
        glossary = cls()
        raw = json.loads(text)
        glossary.topics = set(raw.pop(TOPICS_KEY, []))
        glossary._raw = raw
        by_text, by_first, vocabulary = glossary._by_text, glossary._by_first, glossary._vocabulary
        for concept, rows in raw.items():
            for index, row in enumerate(rows):
                by_text.setdefault(row[0].lower(), concept)
                for alt in row[3][0]:
                    by_first.setdefault(alt, []).append((concept, index))
                for position in row[4]:
                    vocabulary.update(position)
        return glossary


def _positions(raw: Iterable[Iterable[str]]) -> Positions:
    return tuple(tuple(p) for p in raw)


def _rows(path: Path) -> list[dict[str, str]]:
    if not path.exists():
        return []
    with path.open(encoding="utf-8", newline="") as handle:
        lines = [line for line in handle if line.strip() and not line.lstrip().startswith("#")]
    return list(csv.DictReader(lines))


def load(directory: Path) -> Glossary:
    """Read every glossary file present in ``directory`` (missing files are simply skipped)."""
    glossary = Glossary()
    for row in _rows(directory / "terms.csv"):
        concept = (row.get("concept") or "").strip()
        if concept:
            glossary.add(concept, row.get("term") or "", (row.get("lang") or "ru").strip(),
                         (row.get("status") or "official").strip())
    for row in _rows(directory / "mechanics.csv"):
        ru, en = row.get("ru") or "", row.get("en") or ""
        concept = glossary.concept_of(ru, en) or "mechanic:" + (row.get("slug") or en).strip().lower()
        glossary.topics.add(concept)
        glossary.add(concept, ru, "ru", "official")
        glossary.add(concept, en, "en", "official")
    names: dict[str, set[str]] = defaultdict(set)
    for name_file in ("card-names-en-ru.csv", "extra-cards.csv"):
        for row in _rows(directory / name_file):
            en = (row.get("name_en") or "").strip()
            if en:
                names[en].add((row.get("name_ru") or "").strip())
    for en, ru_names in names.items():
        concept = CARD_PREFIX + en.lower()
        glossary.add(concept, en, "en", "name")
        for ru in sorted(ru_names):
            glossary.add(concept, ru, "ru", "name")
    return glossary


def card_name_pairs(directory: Path) -> dict[str, str]:
    """English name → Russian name and Russian → English (folded keys), for indexing card fields."""
    pairs: dict[str, str] = {}
    for name_file in ("card-names-en-ru.csv", "extra-cards.csv"):
        for row in _rows(directory / name_file):
            en = (row.get("name_en") or "").strip()
            ru = (row.get("name_ru") or "").strip()
            if en and ru:
                pairs.setdefault(en.lower().replace("ё", "е"), ru)
                pairs.setdefault(ru.lower().replace("ё", "е"), en)
    return pairs
