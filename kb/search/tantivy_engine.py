"""The tantivy implementation of the engine interface (``engine.py``): the optional fast backend.

tantivy (``pip install -e '.[tantivy]'``) indexes the terms *our* analyzer produced (pre-tokenized text:
every reading of an ambiguous word at its position, as in the whoosh index) and runs the same plan with
the same ranking choices as ``whoosh_engine``: BM25 (k1 1.2, b 0.75, as whoosh's BM25F) per field with
the same field weights, DisMax over a word's readings and glossary equivalents, phrases that filter and
score by their words, prefixes at a constant score, and the same kind prior applied to the top hits.
Unlike whoosh it needs no cheaper plan on large indexes: it is compiled Rust. tantivy-py collects through a
multi-collector, though, which scores every matching document (no block-max pruning, count or not): a query
costs the postings of all its words, readings and glossary equivalents. Flattening the plan (boosts folded into
the terms, sums and maxima spliced), not counting, and a MaxScore split proven exact by BM25 bounds were tried
and measured (issue 13): none shortened the p95 at 100 000 entries beyond the noise, so the plan stays as is.
"""

from __future__ import annotations

import itertools
import json
import marshal
import mmap
import struct
from array import array
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from kb.search import highlight
from kb.search.analysis import analyze_spans
from kb.search.confidence import context_of, context_terms
from kb.search.documents import IndexDoc
from kb.search.engine import Filters, Hit, Page
from kb.search.plan import Alt, AnyOf, Bool, Node, Phrase, Prefix
from kb.search.whoosh_dismax import DISMAX_TIEBREAK
from kb.search.whoosh_engine import COMMON_FRACTION, EXACT_TOTAL_LIMIT, FIELD_BOOSTS, KIND_PRIOR, RERANK_DEPTH, _is_rule

TEXT = ("text", "topic", "cards", "rules")
KEYWORDS = ("id", "kind", "document", "section", "lang")
MAX_PHRASE_VARIANTS = 16  # readings of ambiguous words in one phrase, combined (each a phrase query)
WRITER_HEAP = 128_000_000
TERM_QUERIES = 20_000  # term queries kept for reuse (``TantivySearcher._term``)
SUBDIR = "tantivy"  # tantivy's own meta.json must not meet the generation's meta.json
ROWS = "tantivy-rows.bin"  # what a hit returns, beside tantivy's files (``Rows``)
# 2: hits read from ``ROWS``, nothing stored in tantivy; 3: with their context's terms
FORMAT = "3"  # (``kb.search.engine.ENGINE_FORMATS``)


def _schema() -> Any:
    import tantivy

    builder = tantivy.SchemaBuilder()
    for name in KEYWORDS:
        builder.add_text_field(name, tokenizer_name="raw", index_option="basic")
    for name in TEXT:
        builder.add_text_field(name, tokenizer_name="raw", index_option="position")
    builder.add_unsigned_field("order", fast=True)  # the row in ``ROWS``, read per hit as a fast field
    return builder.build()


def _tokens(value: str) -> Any:
    import tantivy

    tokens = [
        tantivy.Token(term, position, start, end)
        for position, (start, end, terms) in enumerate(analyze_spans(value or ""))
        for term in terms
    ]
    return tantivy.PreTokenizedString(value or "", tokens)


class TantivyEngine:
    name = "tantivy"

    def build(self, docs: Iterable[IndexDoc], directory: Path) -> int:
        import tantivy

        index_dir = directory / SUBDIR
        index_dir.mkdir(parents=True, exist_ok=True)
        index = tantivy.Index(_schema(), path=str(index_dir))
        writer = index.writer(heap_size=WRITER_HEAP, num_threads=1)
        count = 0
        with RowsWriter(directory / ROWS) as rows:
            for doc in docs:
                document = tantivy.Document()
                for name in KEYWORDS:
                    document.add_text(name, getattr(doc, name))
                for name in TEXT:
                    document.add_pre_tokenized_text(name, _tokens(getattr(doc, name)))
                document.add_unsigned("order", count)
                writer.add_document(document)
                extra = json.loads(json.dumps(doc.extra, ensure_ascii=False))  # as whoosh returns it: lists
                rows.add((doc.id, doc.kind, doc.document, doc.section, doc.lang, doc.text, extra,
                          highlight.encode(doc.text), " ".join(sorted(context_terms(context_of(extra))))))
                count += 1
        writer.commit()
        writer.wait_merging_threads()
        return count

    def open(self, directory: Path) -> TantivySearcher:
        import tantivy

        try:
            index = tantivy.Index.open(str(directory / SUBDIR))
        except ValueError as exc:  # tantivy reports a missing or damaged index as a ValueError
            raise OSError(f"{directory / SUBDIR}: {exc}") from exc
        return TantivySearcher(index, Rows(directory / ROWS))


class RowsWriter:
    """Writes ``Rows``: each document's record (``marshal``) in index order, then their offsets."""

    def __init__(self, path: Path) -> None:
        self.handle = open(path, "wb")  # noqa: SIM115  (closed by __exit__)
        self.handle.write(Rows.MAGIC)
        self.offsets = array("Q", [len(Rows.MAGIC)])

    def add(self, record: tuple[Any, ...]) -> None:
        self.offsets.append(self.offsets[-1] + self.handle.write(marshal.dumps(record)))

    def __enter__(self) -> RowsWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        start = self.offsets[-1]
        self.handle.write(self.offsets.tobytes())
        self.handle.write(struct.pack("=QQ", start, len(self.offsets) - 1))
        self.handle.close()


class Rows:
    """What a hit returns (id, kind, document, section, lang, text, extra, stored analysis of the text and the
    terms of its context, ``confidence.context_of``), by its ``order``.

    tantivy's document store decompresses a block and builds a dictionary of every field per fetched
    document (15–80 µs each, about a third of a query at 100 000 entries for the twenty hits reranked);
    here a hit is one slice of a memory-mapped file and one ``marshal.loads`` (a few µs). Offsets are
    native 64-bit integers: the file is rebuilt with the index, never moved to another machine.
    """

    MAGIC = b"kb-rows 1\n"

    def __init__(self, path: Path) -> None:
        try:
            with open(path, "rb") as handle:
                self.map = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError) as exc:  # missing, or empty (mmap refuses)
            raise OSError(f"{path}: {exc}") from exc
        start, self.count = struct.unpack("=QQ", self.map[-16:])
        if self.map[: len(self.MAGIC)] != self.MAGIC or start + 8 * (self.count + 1) + 16 != len(self.map):
            raise OSError(f"{path}: not a search rows file")
        self.offsets = memoryview(self.map)[start : start + 8 * (self.count + 1)].cast("Q")

    def get(self, order: int) -> tuple[Any, ...]:
        offsets = self.offsets
        return marshal.loads(self.map[offsets[order] : offsets[order + 1]])

    def close(self) -> None:
        self.offsets.release()
        self.map.close()


class TantivySearcher:
    fast = False  # one plan at every size (``whoosh_engine``'s large-index plan is whoosh's own)

    def __init__(self, index: Any, rows: Rows) -> None:
        import tantivy

        self.tantivy = tantivy
        self.index = index
        self.rows = rows
        self.schema = index.schema
        self.searcher = index.searcher()
        self._df: dict[tuple[str, str], int] = {}
        self._terms: dict[tuple[str, str, float], Any] = {}
        self.large = self.doc_count() > EXACT_TOTAL_LIMIT

    def _rarest(self, node: Phrase) -> int:
        """Documents holding the phrase's rarest word (in its most frequent field)."""
        return min(max(self.df(f, t) for f in node.fields for t in position) for position in node.positions)

    def close(self) -> None:
        self.searcher = None
        self.rows.close()

    def df(self, field_name: str, term: str) -> int:
        key = (field_name, term)
        found = self._df.get(key)
        if found is None:
            found = self._df[key] = int(self.searcher.doc_freq(field_name, term))
        return found

    def has(self, field_name: str, term: str) -> bool:
        return self.df(field_name, term) > 0

    # Lexicon
    def known(self, term: str) -> bool:
        return any(self.has(f, term) for f in FIELD_BOOSTS)

    def near(self, term: str) -> list[tuple[str, int]]:
        """Known terms one edit away that keep the first letter (whoosh's ``terms_within(..., prefix=1)``).

        Of the term's ~1 500 one-edit variants, those that keep its first two letters are matched against
        the terms the dictionary holds under that prefix (one walk, a few hundred terms even at 100 000
        entries); the rest (an edit of the second letter, ~150) are looked up one by one. Walking every
        term under the first letter alone would cost far more on a large index.
        """
        head = term[:2]
        # the variants are only spelt out where they must be looked up (``_is_variant`` tests the rest)
        outside = _second_letter_variants(term) if len(head) == 2 else _one_edit_variants(term)
        found: dict[str, int] = {}
        for f in ("text", "topic", "cards"):
            for cand, freq in self.searcher.terms_with_prefix(f, head) if len(head) == 2 else ():
                if freq and _is_variant(term, cand):
                    found[cand] = max(found.get(cand, 0), int(freq))
            for cand in outside:
                freq = self.df(f, cand)
                if freq:
                    found[cand] = max(found.get(cand, 0), freq)
        return sorted(found.items(), key=lambda kv: (-kv[1], kv[0]))

    def doc_count(self) -> int:
        return int(self.searcher.num_docs)

    def frequency(self, term: str) -> int:
        """Documents holding ``term`` in the field where it is most frequent."""
        return max(self.df(f, term) for f in FIELD_BOOSTS)

    # Compilation
    def _term(self, field_name: str, term: str, boost: float = 1.0) -> Any:
        """A term query, built once per (field, term, boost): a long question compiles dozens of them, and
        tantivy's query objects are immutable (a boolean query clones its clauses), so they can be shared."""
        key = (field_name, term, boost)
        q = self._terms.get(key)
        if q is None:
            q = self.tantivy.Query.term_query(self.schema, field_name, term)
            q = q if boost == 1.0 else self.tantivy.Query.boost_query(q, boost)
            if len(self._terms) >= TERM_QUERIES:
                self._terms.clear()
            self._terms[key] = q
        return q

    def _should(self, queries: list[Any]) -> Any:
        if len(queries) == 1:
            return queries[0]
        occur = self.tantivy.Occur.Should
        return self.tantivy.Query.boolean_query([(occur, q) for q in queries])

    def _dismax(self, queries: list[Any], tiebreak: float = DISMAX_TIEBREAK) -> Any:
        if not queries:
            return None
        if len(queries) == 1:
            return queries[0]
        return self.tantivy.Query.disjunction_max_query(queries, tiebreak)

    def _boosted(self, query: Any, boost: float) -> Any:
        if query is None or boost == 1.0:
            return query
        return self.tantivy.Query.boost_query(query, boost)

    def compile(self, node: Node) -> Any:
        Q, Occur = self.tantivy.Query, self.tantivy.Occur
        if isinstance(node, Alt):
            per_term = []
            for term in node.terms:
                fields_ = [self._term(f, term, FIELD_BOOSTS.get(f, 1.0)) for f in node.fields if self.has(f, term)]
                if _is_rule(term) and self.has("rules", term) and "rules" not in node.fields:
                    fields_.append(self._term("rules", term, FIELD_BOOSTS["rules"]))
                if fields_:
                    per_term.append(self._should(fields_))
            return self._boosted(self._dismax(per_term), node.boost)
        if isinstance(node, Phrase):
            if not node.exact and self.large and self._rarest(node) > COMMON_FRACTION * self.doc_count():
                return None  # a glossary wording of common words only: whoosh's large-index plan drops it too
            per_field = []
            for f in node.fields:
                present = [[t for t in position if self.has(f, t)] for position in node.positions]
                if not all(present):
                    continue
                variants = list(itertools.islice(itertools.product(*present), MAX_PHRASE_VARIANTS))
                phrases = [Q.phrase_query(self.schema, f, list(words)) for words in variants]
                best = [self._dismax([self._term(f, t) for t in terms]) for terms in present]
                scoring = self._boosted(self._should(best), FIELD_BOOSTS.get(f, 1.0))
                matched = Q.const_score_query(self._should(phrases), 0.0)
                per_field.append(Q.boolean_query([(Occur.Must, matched), (Occur.Should, scoring)]))
            if not per_field:
                return None
            # the best field counts, as whoosh scores its DisMax (whoosh_dismax.DISMAX_TIEBREAK)
            return self._boosted(self._dismax(per_field), node.boost / max(1, len(node.positions)))
        if isinstance(node, Prefix):  # a constant score per field, as whoosh's Prefix
            parts = []
            for f in node.fields:
                terms = [t for t, _ in self.searcher.terms_with_prefix(f, node.prefix)]
                if terms:
                    parts.append(Q.const_score_query(Q.term_set_query(self.schema, f, terms), FIELD_BOOSTS.get(f, 1.0)))
            return self._boosted(self._should(parts), node.boost) if parts else None
        if isinstance(node, AnyOf):
            children = [c for c in (self.compile(c) for c in node.children) if c is not None]
            return self._boosted(self._dismax(children), node.boost)
        if isinstance(node, Bool):
            must = [self.compile(c) for c in node.must]
            should = [c for c in (self.compile(c) for c in node.should) if c is not None]
            must_not = [c for c in (self.compile(c) for c in node.must_not) if c is not None]
            if any(m is None for m in must):
                return None
            clauses = [(Occur.Must, m) for m in must]
            if must:
                clauses += [(Occur.Should, s) for s in should]
            elif should:
                clauses.append((Occur.Must, self._should(should)))
            elif must_not:
                clauses.append((Occur.Must, Q.all_query()))
            else:
                return None
            clauses += [(Occur.MustNot, n) for n in must_not]
            base = clauses[0][1] if len(clauses) == 1 else Q.boolean_query(clauses)
            return self._boosted(base, node.boost)
        raise TypeError(f"unknown plan node {node!r}")

    def filter_clauses(self, filters: Filters) -> list[Any] | None:
        """The filters as required, unscored clauses; ``None`` when one of them can match nothing."""
        Q = self.tantivy.Query
        parts: list[Any] = []
        for name, values in (("document", filters.documents), ("kind", filters.kinds), ("lang", filters.langs)):
            if values:
                parts.append(self._should([Q.term_query(self.schema, name, v) for v in values]))
        for node in filters.nodes:
            compiled = self.compile(node)
            if compiled is None:
                return None
            parts.append(compiled)
        return [Q.const_score_query(p, 0.0) for p in parts]

    def search(self, plan: Node | None, filters: Filters, limit: int) -> Page:
        Q, Occur = self.tantivy.Query, self.tantivy.Occur
        required = self.filter_clauses(filters)
        if required is None:
            return Page(0, [])
        query = self.compile(plan) if plan is not None else Q.all_query()
        if query is None:
            return Page(0, [])
        if required:
            query = Q.boolean_query([(Occur.Must, query), *((Occur.Must, r) for r in required)])
        depth = max(limit, RERANK_DEPTH)
        result = self.searcher.search(query, depth, count=True)
        scored = result.hits
        orders = self.searcher.fast_field_values("order", [address for _, address in scored])
        found = []
        for (score, _), order in zip(scored, orders, strict=True):
            row = self.rows.get(order)
            found.append((float(score) * KIND_PRIOR.get(row[1], 1.0), order, row))
        found.sort(key=lambda s: (-s[0], s[1]))
        hits = []
        for score, _, (id_, kind, document, section, lang, text, extra, analysis, context) in found[:limit]:
            highlight.remember(text, analysis)
            hits.append(Hit(id_, kind, document, section, lang, text, score, extra, context))
        return Page(int(result.count), hits, True)


_LETTERS = "абвгдежзийклмнопрстуфхцчшщъыьэюяabcdefghijklmnopqrstuvwxyz0123456789"


def _one_edit_variants(term: str) -> set[str]:
    """Every string one deletion, substitution, insertion or transposition away, first letter kept."""
    head, tail = term[:1], term[1:]
    out: set[str] = set()
    for i in range(len(tail) + 1):
        left, right = tail[:i], tail[i:]
        if right:
            out.add(head + left + right[1:])
            if len(right) > 1:
                out.add(head + left + right[1] + right[0] + right[2:])
        for letter in _LETTERS:
            out.add(head + left + letter + right)
            if right:
                out.add(head + left + letter + right[1:])
    out.discard(term)
    return out


def _second_letter_variants(term: str) -> set[str]:
    """The variants of ``_one_edit_variants`` whose second letter differs from ``term``'s: an edit of the
    second letter itself (an edit further on keeps it)."""
    head, tail = term[:1], term[1:]
    out = {head + tail[1:], head + tail[1:2] + tail[:1] + tail[2:]} if tail else set()
    for letter in _LETTERS:
        out.add(head + letter + tail)
        if tail:
            out.add(head + letter + tail[1:])
    return {v for v in out if v[1:2] != tail[:1] and v != term}


def _is_variant(term: str, cand: str) -> bool:
    """``cand in _one_edit_variants(term)``, without spelling the variants out: one deletion, transposition,
    or insertion or substitution of one of ``_LETTERS`` after the first letter."""
    if cand == term or cand[:1] != term[:1] or not term:
        return False
    a, b = term[1:], cand[1:]
    p = 0
    while p < len(a) and p < len(b) and a[p] == b[p]:
        p += 1
    if len(b) == len(a) - 1:
        return a[p + 1 :] == b[p:]
    if len(b) == len(a) + 1:
        return b[p] in _LETTERS and b[p + 1 :] == a[p:]
    if len(b) == len(a):
        if b[p] in _LETTERS and a[p + 1 :] == b[p + 1 :]:
            return True
        return p + 1 < len(a) and a[p] == b[p + 1] and a[p + 1] == b[p] and a[p + 2 :] == b[p + 2 :]
    return False
