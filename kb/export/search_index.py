"""The in-browser search index: the CLI's own ranking data, split into small script shards loaded on demand.

Why the CLI's data: the site must answer a query as ``kb search`` does, so it indexes the very documents
``kb search`` indexes (``kb.search.documents.index_documents``), analysed by the same analyzer
(``kb.search.analysis``), and ships what whoosh's BM25F needs per posting (term frequency and whoosh's
one-byte field length), the per-field averages and whoosh's length table; ``static/search.js`` computes the
same formula, the same DisMax trees and the same reranking (coordination, kind prior, card first, the
confidence floor, obsolete penalty, one result per RU/EN pair, one per text). Everything that needs
morphology or positions is query-independent and precomputed here: every word form's lemmas (pymorphy3),
and on which documents each multi-word glossary wording stands as a phrase.

Why shards: at 100,000 entries the whole index is a hundred megabytes; a query needs a few terms. Each file
is a script that registers itself (``KBShard(name, data)``), because ``file://`` forbids ``fetch``:

    search/meta.js        format, token regex, stop words, constants, field averages, shard counts
    search/f/N.js         word form → its terms (by hash of the form)
    search/t/N.js         term → per field [df, postings] and flags (by hash of the term); a glossary
                          phrase is a term ``"\\u0001" + its positions``; long posting lists live in
    search/p/N.js         one file per long list
    search/g/N.js         glossary wordings by their first term (by hash), with their concepts' wordings
    search/l/N.js         the lexicon by first character (typo correction only)
    search/d/N.js         document metadata, ``PAGE_SIZE`` documents a page, loaded for the hits shown

Postings are strings of base-46 varints (``_varint``). A scored field's posting is the doc delta and the term
frequency in one number, ``3 × delta + min(tf, 3) − 1`` (followed by ``tf − 3`` when tf ≥ 3), then whoosh's length
byte: most postings of a long list (delta under 15, tf 1 or 2, a length byte under 46) take two characters,
not three, and the long lists of common words are most of what a query downloads. A context posting is the doc
delta alone.

Why it streams: at 100,000 entries the postings held as Python lists of ints were most of the export's
peak memory. Each posting list is encoded as it grows (``_Postings``: a byte string and the last document
number, which is all delta coding needs), the document rows wait in a temporary file until their twins are
known, and each shard is written from its terms' encoded records, so what stays in memory is about the size
of the term shards, not of every posting as an object.
"""

from __future__ import annotations

import hashlib
import json
import math
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kb.search import analysis
from kb.search.documents import IndexDoc

if TYPE_CHECKING:
    from kb.export.pages import SiteModel
    from kb.search.glossary import Glossary
    from kb.store import KnowledgeBase

FORMAT_VERSION = 4
PAGE_SIZE = 8
SCORED_FIELDS = ("text", "topic", "cards", "rules")  # whoosh_engine.FIELD_BOOSTS, in this order
CTX = len(SCORED_FIELDS)  # the "context" presence list (``kb.search.confidence.hit_terms``): field index 4
LONG_LIST = 2000  # characters: a longer posting list gets its own file
SHARD_TARGET = 3000  # bytes a term / form / glossary shard aims at (a query loads one per word or term)
DISPLAY_CHARS = 1200  # a hit's text in the page data (the search shows at most 600 around the match)
PHRASE_MARK = "\u0001"
_MEMO_LIMIT = 200_000  # word forms an index build keeps with their terms
_FIELD_MEMO = 2_000  # short fields and contexts kept analysed: a section's rulings come one after another
_TOKEN_RE = analysis._TOKEN_RE  # the analyzer's own expression (``IndexBuilder._positions`` reads it directly)
# Postings digits: printable ASCII but the two characters JSON escapes; the first half ends a number.
ALPHABET = "".join(chr(c) for c in range(0x21, 0x7F) if chr(c) not in '"\\')
BASE = len(ALPHABET) // 2

# The analyzer's token expression (kb.search.analysis._TOKEN_RE) in the syntax both Python and JavaScript
# read alike: \w spelled out, groups in the same order (symbol, pt, rule, signed, word).
_W = "0-9A-Za-zА-Яа-яЁё_"
TOKEN_SOURCE = (
    r"(\{[0-9A-Za-zА-Яа-я/]{1,5}\})"
    rf"|((?<![{_W}/.])[+-]?(?:\d+|[XxХх*])/[+-]?(?:\d+|[XxХх*])(?![{_W}/]))"
    rf"|((?<![{_W}.])\d{{3}}\.\d+[a-z]?(?![0-9]))"
    rf"|((?<![{_W}/])[+-]\d+(?![{_W}/]))"
    r"|([0-9A-Za-zА-Яа-яЁё]+(?:['’][A-Za-z]+)?)"
)
TOKEN_KINDS = ("symbol", "pt", "rule", "signed", "word")


def shard_hash(text: str) -> int:
    """FNV-1a over UTF-16 code units: the same number in ``search.js`` (``hash``)."""
    h = 0x811C9DC5
    data = text.encode("utf-16-le")
    for i in range(0, len(data), 2):
        h ^= data[i] | (data[i + 1] << 8)
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h


def _varint(values: Iterable[int]) -> str:
    """Non-negative integers in base ``BASE``, low digit first; a digit from the upper half says "more follows"."""
    out = []
    for v in values:
        while v >= BASE:
            out.append(ALPHABET[BASE + v % BASE])
            v //= BASE
        out.append(ALPHABET[v])
    return "".join(out)


_SMALL = [_varint([v]).encode("ascii") for v in range(BASE * BASE)]  # one or two digits, precomputed
_SMALL_COUNT = len(_SMALL)


class _Postings:
    """One field's posting list of one term, encoded as it grows: ``_varint`` of the doc deltas (and, for the
    scored fields, each posting's term frequency and length byte), the last document and the count."""

    __slots__ = ("count", "data", "last")

    def __init__(self) -> None:
        self.data = bytearray()
        self.last = 0
        self.count = 0

    def add(self, number: int) -> None:
        """A context posting: the document number (ascending), delta-coded."""
        delta = number - self.last
        self.last = number
        self.count += 1
        self.data += _SMALL[delta] if delta < _SMALL_COUNT else _varint([delta]).encode("ascii")

    def add_scored(self, number: int, tf: int, lbyte: int) -> None:
        """A scored field's posting (the module's docstring says how it is coded): the index's hot path."""
        delta = number - self.last
        self.last = number
        self.count += 1
        small = _SMALL
        first = 3 * delta + (tf if tf < 3 else 3) - 1
        self.data += small[first] if first < _SMALL_COUNT else _varint([first]).encode("ascii")
        if tf >= 3:
            self.data += small[tf - 3] if tf - 3 < _SMALL_COUNT else _varint([tf - 3]).encode("ascii")
        self.data += small[lbyte]  # a length byte is below 256: one or two digits

    def text(self) -> str:
        return self.data.decode("ascii")


def _row_halves(row: list[Any]) -> str:
    """A document row's JSON around its twin slot (index 7, known only at the end), one line:
    ``[f0,…,f6`` TAB ``f8,…]``. JSON escapes tabs and newlines inside strings, so the line splits back."""
    before = json.dumps(row[:7], ensure_ascii=False, separators=(",", ":"))[:-1]
    after = json.dumps(row[8:], ensure_ascii=False, separators=(",", ":"))[1:]
    return f"{before}\t{after}\n"


def decode_postings(text: str, scored: bool = True) -> list[tuple[int, ...]]:
    """A posting list's (doc, tf, length byte) triples, or (doc,) for a context list: what ``search.js`` reads
    (tests; the browser has its own)."""
    values, doc, i = decode_varint(text), 0, 0
    out: list[tuple[int, ...]] = []
    while i < len(values):
        if not scored:
            doc += values[i]
            out.append((doc,))
            i += 1
            continue
        first, i = values[i], i + 1
        code = first % 3
        tf = code + 1
        if code == 2:
            tf, i = values[i] + 3, i + 1
        doc += first // 3
        out.append((doc, tf, values[i]))
        i += 1
    return out


def decode_varint(text: str) -> list[int]:
    """The inverse of ``_varint`` (tests; the browser has its own)."""
    out, value, scale = [], 0, 1
    for ch in text:
        digit = ALPHABET.index(ch)
        if digit >= BASE:
            value += (digit - BASE) * scale
            scale *= BASE
        else:
            out.append(value + digit * scale)
            value, scale = 0, 1
    return out


@dataclass
class Place:
    """Where a document is shown in the site and what its hit says besides the text."""

    url: str
    where: str
    status: str = ""  # verification badge («verified», ...; "" for none)
    currency: str = ""  # current | obsolete | terms | unjudged | ""


@lru_cache(maxsize=200_000)
def _lexeme_forms(key: str) -> tuple[str, ...]:
    """Every inflected form of every reading of a folded Russian word (pymorphy3 lexemes)."""
    from ingest.morphology import analyzer, fold

    forms = {key}
    for parse in analyzer().parse(key):
        stack = parse.methods_stack
        paradigm = (fold(parse.normal_form), str(stack[0][2]) if len(stack[0]) > 2 else "",
                    *(type(m[0]).__name__ for m in stack))
        if paradigm not in _PARADIGMS:
            _PARADIGMS[paradigm] = frozenset(fold(form.word) for form in parse.lexeme)
        forms.update(_PARADIGMS[paradigm])
    return tuple(sorted(forms))


_PARADIGMS: dict[tuple[str, ...], frozenset[str]] = {}


def _length_table() -> list[int]:
    from whoosh.util.numeric import byte_to_length

    return [int(byte_to_length(b)) for b in range(256)]


def _length_byte(length: int) -> int:
    from whoosh.util.numeric import length_to_byte

    return int(length_to_byte(length))


def _phrase_key(positions: Sequence[Sequence[str]]) -> str:
    return PHRASE_MARK + " ".join("|".join(p) for p in positions)


@dataclass
class _Phrases:
    """The glossary's multi-word wordings, found in documents by position (whoosh's Sequence, slop 1)."""

    by_first: dict[str, list[tuple[tuple[str, ...], ...]]] = field(default_factory=lambda: defaultdict(list))

    # each phrase's positions as sets, by its first terms (what ``found`` compares a document's positions with)
    sets: dict[tuple[tuple[str, ...], ...], tuple[frozenset[str], ...]] = field(default_factory=dict)

    def add(self, positions: tuple[tuple[str, ...], ...]) -> None:
        self.sets.setdefault(positions, tuple(frozenset(p) for p in positions))
        for term in positions[0]:
            if positions not in self.by_first[term]:
                self.by_first[term].append(positions)

    def found(self, analysed: list[tuple[str, ...]]) -> set[tuple[tuple[str, ...], ...]]:
        """The phrases standing in ``analysed`` (a field's positions): each of a phrase's positions shares a
        term with the document's position at that offset."""
        out = set()
        size = len(analysed)
        by_first, sets = self.by_first, self.sets
        for i, position in enumerate(analysed):
            for term in position:
                for phrase in by_first.get(term, ()):
                    n = len(phrase)
                    if phrase not in out and i + n <= size and all(
                            not wanted.isdisjoint(analysed[i + k]) for k, wanted in enumerate(sets[phrase])):
                        out.add(phrase)
        return out


class IndexBuilder:
    """Accumulates postings, forms and document rows; ``files()`` yields the shard scripts."""

    def __init__(self, glossary: Glossary) -> None:
        self.glossary = glossary
        self.postings: dict[str, list[_Postings | None]] = defaultdict(lambda: [None] * (CTX + 1))
        self.field_totals = [0] * len(SCORED_FIELDS)
        self.words: set[str] = set()
        self.surfaces: dict[str, set[str]] = defaultdict(set)  # term → the corpus word forms it stands for
        self.seen: set[str] = set()
        self.count = 0  # documents added
        # ``_row_halves`` lines, read back by ``_pages`` (which closes it): it outlives any ``with`` block here
        self.rows = tempfile.TemporaryFile("w+", encoding="utf-8", newline="\n")  # noqa: SIM115
        self.official = bytearray()  # per document: an MTGJSON entry (``_card_docs`` puts them first)
        self.ids: dict[str, int] = {}
        self.twins: list[str] = []
        self.groups: dict[bytes, int] = {}  # digest of (kind, text) → the first document saying it
        self.phrases = _Phrases()
        self.card_names: set[str] = set()
        for concept, terms in glossary.concepts.items():
            if concept.startswith("card:"):
                self.card_names.add(concept[5:])
            for term in terms:
                if len(term.search) > 1:
                    self.phrases.add(term.search)
                for tok in analysis.tokenize(term.text):
                    if tok.kind == "word":
                        self.words.add(analysis.fold(tok.surface))
        self.cards_by_name: dict[str, list[int]] = defaultdict(list)
        self.word_memo: dict[str, tuple[str, ...]] = {}  # word form → its index terms (``()``: a stop word)
        self.fields: dict[str, tuple[Counter[str], list[str]]] = {}  # short field text → ``_analysed``
        self.contexts: dict[str, list[tuple[str, ...]]] = {}  # context text → its positions

    def add(self, doc: IndexDoc, place: Place) -> None:
        number = self.count
        self.count += 1
        present: set[str] = set()
        postings = self.postings
        for index, name in enumerate(SCORED_FIELDS):
            value = getattr(doc, name)
            if not value:
                continue
            counts, phrases = self._analysed(value, index)
            if not counts:
                continue
            length = sum(counts.values())
            self.field_totals[index] += length
            lbyte = _length_byte(length)
            for term, tf in counts.items():
                lists = postings[term]
                found = lists[index]
                if found is None:
                    found = lists[index] = _Postings()
                found.add_scored(number, tf, lbyte)
            if index == 0:
                present = set(counts)
            for phrase in phrases:
                self._list(phrase, index).add_scored(number, 1, 0)
        context = [str(doc.extra.get("section_title") or ""), str(doc.extra.get("name") or ""),
                   str(doc.extra.get("name_en") or ""), *(str(c) for c in doc.extra.get("cards") or [])]
        for position in self._context_terms(" ".join(context)):
            for term in position:
                if term not in present:
                    present.add(term)
                    self._list(term, CTX).add(number)
        said = f"{doc.kind}\n{' '.join(doc.text.split())}".encode()
        group = self.groups.setdefault(hashlib.blake2b(said, digest_size=16).digest(), number)
        names = {str(n).lower() for n in doc.extra.get("cards", []) or []}
        names |= {str(doc.extra.get(k) or "").lower() for k in ("name", "name_en")}
        about = sorted(names & self.card_names)
        if doc.kind == "card":
            for name in {str(doc.extra.get(k) or "").lower() for k in ("name", "name_en")} - {""}:
                self.cards_by_name[name].append(number)
        self.ids[doc.id] = number
        self.twins.append(str((doc.extra.get("twin") or {}).get("id", "")))
        text = doc.text if len(doc.text) <= DISPLAY_CHARS else doc.text[:DISPLAY_CHARS]
        official = doc.id.startswith("mtgjson/")
        self.official.append(official)
        self.rows.write(_row_halves([place.url, doc.kind, place.where, text, doc.lang, place.status,
                                     1 if place.currency == "obsolete" else 0, -1, group, about, official]))

    def _analysed(self, value: str, index: int) -> tuple[Counter[str], list[str]]:
        """A field's terms with their frequencies (first occurrence first) and the glossary phrases standing in it.

        The short fields (topic, cards, rules) repeat for every ruling of a section: their analysis is kept
        (a bounded table); the text is analysed each time."""
        if index:
            known = self.fields.get(value)
            if known is not None:
                return known
        positions = self._positions(value)
        counts = Counter(term for terms in positions for term in terms)
        phrases = [] if SCORED_FIELDS[index] == "rules" else [_phrase_key(p) for p in self.phrases.found(positions)]
        if index:
            if len(self.fields) >= _FIELD_MEMO:
                self.fields.clear()
            self.fields[value] = counts, phrases
        return counts, phrases

    def _positions(self, value: str) -> list[tuple[str, ...]]:
        """``analysis.tokenize`` without stop words, each token's index terms: the same positions, read off the
        analyzer's expression with each word form's terms looked up once (``_word``), no ``Token`` per word."""
        words = self.word_memo
        positions = []
        for match in _TOKEN_RE.finditer(value):
            kind = match.lastgroup or "word"
            surface = match.group(0)
            if kind == "word":
                terms = words.get(surface)
                if terms is None:
                    if len(words) >= _MEMO_LIMIT:
                        words.clear()
                    terms = words[surface] = self._word(surface)
                if terms:
                    positions.append(terms)
            else:
                positions.append(analysis.token_terms(kind, surface, "index"))
        return positions

    def _word(self, surface: str) -> tuple[str, ...]:
        """A word form's index terms (``()`` for a stop word); the first time its folded form is seen, it is
        noted among the corpus' words, and each of its terms remembers it as one of its surfaces."""
        key = analysis.fold(surface)
        if key in analysis.STOPS:
            return ()
        terms = analysis.word_terms(surface)
        if key not in self.seen:
            self.seen.add(key)
            self.words.add(key)
            for term in terms:
                if term != key:
                    self.surfaces[term].add(key)
        return terms

    def _context_terms(self, text: str) -> list[tuple[str, ...]]:
        """``analysis.analyze`` of a document's context (section title, names, cards): the same for a whole
        section, so kept (a bounded table)."""
        found = self.contexts.get(text)
        if found is None:
            if len(self.contexts) >= _FIELD_MEMO:
                self.contexts.clear()
            found = self.contexts[text] = analysis.analyze(text)
        return found

    def _list(self, term: str, index: int) -> _Postings:
        lists = self.postings[term]
        found = lists[index]
        if found is None:
            found = lists[index] = _Postings()
        return found

    # --- output --------------------------------------------------------------------------------------

    def _forms(self) -> dict[str, list[str]]:
        """Word form → the terms ``kb search`` analyses it into: every corpus word and every form of its lexeme."""
        forms: set[str] = set()
        for word in self.words:
            forms.add(word)
            if analysis._CYRILLIC_RE.search(word):
                forms.update(_lexeme_forms(word))
        return {form: list(analysis.word_terms(form)) for form in sorted(forms)}

    def _card_docs(self, name: str) -> list[int]:
        """A named card's entries as ``card_first._card_hits`` finds them: the MTGJSON card first, three at most."""
        found = sorted(self.cards_by_name.get(name, []), key=lambda n: (not self.official[n], n))
        return found[:3]

    def files(self, has_twins: bool) -> Iterator[tuple[str, str]]:
        """The shard scripts; each posting list's memory is let go once its term's record is encoded."""
        n = self.count
        vocabulary = self.glossary.vocabulary
        terms = sorted(set(self.postings) | vocabulary)

        term_records: dict[str, str] = {}  # term → its record's JSON (what the shard holds under it)
        long_lists = 0
        size = 0
        lexicon: dict[str, list[list[Any]]] = defaultdict(list)
        for term in terms:
            lists = self.postings.pop(term, None)
            record: list[Any] = [1 if term in vocabulary else 0, " ".join(sorted(self.surfaces.get(term, ())))]
            dfs = [0] * (CTX + 1)
            if lists is not None:
                for index, found in enumerate(lists):
                    if found is None:
                        continue
                    encoded = found.text()
                    dfs[index] = found.count
                    ref: str | int = encoded
                    if len(encoded) > LONG_LIST:
                        ref = long_lists
                        yield f"p/{long_lists}.js", _script(f"p/{long_lists}", encoded)
                        long_lists += 1
                    record.append([index, found.count, ref])
            text = _json(record)
            term_records[term] = text
            size += len(text.encode("utf-8")) + _size(term)
            if not term.startswith(PHRASE_MARK) and term:
                lexicon[term[0]].append([term, max(dfs[:3]) or -1, 1 if term in vocabulary else 0])

        term_shards = _shard_count(size)
        grouped_terms: dict[int, list[str]] = defaultdict(list)
        for term in term_records:
            grouped_terms[shard_hash(term) % term_shards].append(term)
        for number in range(term_shards):
            names = grouped_terms.pop(number, [])  # in sorted order already, as ``sort_keys`` orders them
            body = ",".join(f"{_json(term)}:{term_records.pop(term)}" for term in names)
            yield f"t/{number}.js", _script_text(f"t/{number}", "{" + body + "}")
        del term_records

        forms = self._forms()
        form_shards = _shard_count(sum(_size(f) + _size(t) for f, t in forms.items()))
        grouped: dict[int, dict[str, list[str]]] = defaultdict(dict)
        for form, form_terms in forms.items():
            grouped[shard_hash(form) % form_shards][form] = form_terms
        for number in range(form_shards):
            yield f"f/{number}.js", _script(f"f/{number}", grouped.get(number, {}))

        gloss_shards, gloss = self._glossary_shards()
        for number in range(gloss_shards):
            yield f"g/{number}.js", _script(f"g/{number}", gloss.get(number, {"first": {}, "concepts": {}}))

        initials = sorted(lexicon)
        for number, initial in enumerate(initials):
            yield f"l/{number}.js", _script(f"l/{number}", lexicon[initial])

        yield from self._pages()

        meta = {
            "v": FORMAT_VERSION,
            "tokens": TOKEN_SOURCE,
            "kinds": TOKEN_KINDS,
            "stops": sorted(analysis.STOPS),
            "n": n,
            "avg": [total / (n or 1) or 1 for total in self.field_totals],
            "lengths": _length_table(),
            "shards": {"t": term_shards, "f": form_shards, "g": gloss_shards, "page": PAGE_SIZE},
            "initials": initials,
            "twins": has_twins,
            "constants": _constants(),
            "topics": sorted(self.glossary.topics),  # Glossary.is_topic (with the card: concepts)
        }
        yield "meta.js", _script("meta", meta)

    def _pages(self) -> Iterator[tuple[str, str]]:
        """``d/N.js``: the rows read back from their file, ``PAGE_SIZE`` a page, each with its twin's number."""
        self.rows.seek(0)
        page: list[str] = []
        for number, line in enumerate(self.rows, start=1):
            before, _, after = line.rstrip("\n").partition("\t")
            twin = self.twins[number - 1]
            page.append(f"{before},{self.ids.get(twin, -1) if twin else -1},{after}")
            if len(page) == PAGE_SIZE or number == self.count:
                name = f"d/{(number - 1) // PAGE_SIZE}"
                yield f"{name}.js", _script_text(name, "[" + ",".join(page) + "]")
                page = []
        self.rows.close()

    def _glossary_shards(self) -> tuple[int, dict[int, dict[str, Any]]]:
        """Each wording under its first token's terms, with its concept's wordings and named cards beside it."""
        concepts = self.glossary.concepts
        order = {concept: i for i, concept in enumerate(concepts)}
        first: dict[str, list[list[Any]]] = defaultdict(list)
        for concept, terms in concepts.items():
            for index, term in enumerate(terms):
                for alt in term.match[0]:
                    first[alt].append([concept, index])
        payloads = {concept: {
            "o": order[concept],
            "w": [[t.text, t.lang, [list(p) for p in t.match], [list(p) for p in t.search]] for t in concepts[concept]],
            "c": self._card_docs(concept[5:]) if concept.startswith("card:") else [],
        } for concept in concepts}
        sizes = {concept: _size(payload) for concept, payload in payloads.items()}
        count = _shard_count(sum(_size(hits) + sum(sizes[c] for c, _ in hits) for hits in first.values()))
        shards: dict[int, dict[str, Any]] = defaultdict(lambda: {"first": {}, "concepts": {}})
        for alt, hits in first.items():
            shard = shards[shard_hash(alt) % count]
            shard["first"][alt] = hits
            for concept, _ in hits:
                shard["concepts"].setdefault(concept, payloads[concept])
        return count, shards


def _constants() -> dict[str, Any]:
    """The CLI's ranking constants, read from its modules so the two cannot drift."""
    from kb.search import card_first, confidence, plan, query, service, whoosh_engine

    return {
        "fieldBoosts": [whoosh_engine.FIELD_BOOSTS[f] for f in SCORED_FIELDS],
        "wordFields": [SCORED_FIELDS.index(f) for f in plan.WORD_FIELDS],
        "cardFields": [SCORED_FIELDS.index(f) for f in plan.CARD_NAME_FIELDS],
        "kindPrior": whoosh_engine.KIND_PRIOR,
        "rerankDepth": whoosh_engine.RERANK_DEPTH,
        "exactLimit": whoosh_engine.EXACT_TOTAL_LIMIT,
        "commonFraction": whoosh_engine.COMMON_FRACTION,
        "expansionBoost": query.EXPANSION_BOOST,
        "phraseBoost": query.PHRASE_BOOST,
        "minTypo": query.MIN_TYPO_LENGTH,
        "maxQuery": query.MAX_QUERY_CHARS,
        "unknownWordFloor": confidence.UNKNOWN_WORD_FLOOR,
        "coordBoost": service.COORD_BOOST,
        "coordDepth": service.COORD_DEPTH,
        "obsoletePenalty": service.OBSOLETE_PENALTY,
        "coverageFloor": confidence.COVERAGE_FLOOR,
        "coverageDepth": confidence.DEPTH,
        "maxCards": card_first.MAX_CARDS,
        "k1": 1.2,
        "b": 0.75,
    }


def _size(data: Any) -> int:
    return len(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def _shard_count(size: int) -> int:
    return max(1, math.ceil(size / SHARD_TARGET))


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _script(name: str, data: Any) -> str:
    return _script_text(name, _json(data))


def _script_text(name: str, body: str) -> str:
    """A shard script around its data's JSON (``_json``, or pieces of it joined the way it joins them)."""
    return f'KBShard("{name}",{body});\n'


# --- from the knowledge base and the site model -------------------------------------------------------


def site_places(site: SiteModel) -> Callable[[IndexDoc], Place | None]:
    """Each CLI document's page, label and badge in the exported site (None: the site does not show it)."""
    rulings = site.rulings
    rules = {}
    for pair in site.rule_pairs:
        topic = (pair.section.mechanic_ru or pair.section.heading) if pair.section else ""
        for rule in pair.rules:
            where = " · ".join(filter(None, [pair.document.set_code, topic, f"правило {rule.number}"]))
            verdict = pair.verdicts.get(rule.id)
            rules[rule.id] = Place(pair.page, where, "", verdict.currency if verdict else "")
    cards = {view.card.id: view for view in site.cards}

    def place(doc: IndexDoc) -> Place | None:
        view = rulings.get(doc.id)
        if view is not None:
            section = view.section
            where = f"{view.document.set_code} · {section.mechanic_ru or section.heading}"
            status = view.verdict.status if view.show_badge else ""
            return Place(view.permalink, where, status, view.verdict.currency)
        if doc.id in rules:
            return rules[doc.id]
        card = cards.get(doc.id)
        if card is not None:
            return Place(card.page, f"{card.card.document_id.upper()} · карта {card.card.name}")
        return None

    return place


def build_files(docs: Iterable[IndexDoc], place: Callable[[IndexDoc], Place | None], glossary: Glossary,
                has_twins: bool) -> Iterator[tuple[str, str]]:
    """The index's files (path under ``search/`` → script text) for these documents in this order."""
    builder = IndexBuilder(glossary)
    for doc in docs:
        where = place(doc) or Place("", doc.document.upper())
        builder.add(doc, where)
    yield from builder.files(has_twins)


def cli_documents(kb: KnowledgeBase) -> tuple[Iterator[IndexDoc], Glossary]:
    """The documents and glossary ``kb search`` indexes (``kb.search.index._build``), in its order: the
    documents one at a time, as the index takes them (a list of all of them was 130 MB at 100,000)."""
    from kb import paths
    from kb.search import glossary as glossary_mod
    from kb.search.documents import index_documents
    from kb.search.index import _mechanic_names

    directory = paths.glossary_dir()
    docs = index_documents(kb, glossary_mod.card_name_pairs(directory), _mechanic_names(directory))
    return docs, glossary_mod.load(directory)


def has_twins(kb: KnowledgeBase) -> bool:
    """``SearchSession.has_twins``: some set has two documents (a Russian one and its English original)."""
    codes = [d.set_code for d in kb.documents if not d.id.startswith("mtgjson-") and d.set_code]
    return len(codes) != len(set(codes))


def site_index(kb: KnowledgeBase, site: SiteModel) -> Iterator[tuple[str, str]]:
    """The site's search files (paths under ``static/search/``)."""
    docs, glossary = cli_documents(kb)
    yield from build_files(docs, site_places(site), glossary, has_twins(kb))


def read_shard(directory: Path, name: str) -> Any:
    """One written shard's data (tests and benchmarks): ``directory`` is the index's ``search/`` folder."""
    text = (directory / f"{name}.js").read_text(encoding="utf-8")
    prefix = f'KBShard("{name}",'
    if not (text.startswith(prefix) and text.endswith(");\n")):
        raise ValueError(f"{directory / name}.js: not a search shard")
    return json.loads(text[len(prefix):-3])


__all__ = ["Place", "build_files", "cli_documents", "read_shard", "shard_hash", "site_index", "site_places"]
