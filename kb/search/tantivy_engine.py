"""The tantivy implementation of the engine interface (``engine.py``): the optional fast backend.

tantivy (``pip install -e '.[tantivy]'``) indexes the terms *our* analyzer produced (pre-tokenized text:
every reading of an ambiguous word at its position, as in the whoosh index) and runs the same plan with
the same ranking choices as ``whoosh_engine``: BM25 (k1 1.2, b 0.75, as whoosh's BM25F) per field with
the same field weights, DisMax over a word's readings and glossary equivalents, phrases that filter and
score by their words, prefixes at a constant score, and the same kind prior applied to the top hits.
tantivy-py collects through a multi-collector, which scores every matching document (no block-max pruning,
count or not): a query costs the postings of all its words, readings and glossary equivalents, about 10 ns each.
Flattening the plan (boosts folded into the terms, sums and maxima spliced), not counting, phrases as
intersections, and a MaxScore split proven exact by BM25 bounds (and by rescoring the candidates) were tried and
measured (issue 13): none shortened the p95 at 100 000 entries (the split proved its top hits for under a third of
the questions: scores are too flat). What does: above ``EXACT_TOTAL_LIMIT`` entries, a natural question leaves out
of its scoring the words found in more than ``COMMON_TERM_FRACTION`` of them (``TantivySearcher._common_cap``),
and its total becomes a lower bound.
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
from kb.search.plan import Alt, AnyOf, Bool, Node, Phrase, Prefix, question_units
from kb.search.whoosh_dismax import DISMAX_TIEBREAK
from kb.search.whoosh_engine import COMMON_FRACTION, EXACT_TOTAL_LIMIT, FIELD_BOOSTS, KIND_PRIOR, RERANK_DEPTH, _is_rule

TEXT = ("text", "topic", "cards", "rules")
KEYWORDS = ("id", "kind", "document", "section", "lang")
MAX_PHRASE_VARIANTS = 16  # readings of ambiguous words in one phrase, combined (each a phrase query)
WRITER_HEAP = 128_000_000
TERM_QUERIES = 20_000  # term queries kept for reuse (``TantivySearcher._term``)
SUBDIR = "tantivy"  # tantivy's own meta.json must not meet the generation's meta.json
ROWS = "tantivy-rows.bin"  # what a hit returns, beside tantivy's files (``Rows``)
ALIASES = "tantivy-readings.bin"  # per field, the terms identical to another (``Readings``), marshalled
# 2: hits read from ``ROWS``, nothing stored in tantivy; 3: with their context's terms; 4: with ``ALIASES``
FORMAT = "4"  # (``kb.search.engine.ENGINE_FORMATS``)
# A word in more than this share of a large index's entries ('creatur' is in 62 % of a 100 000-entry corpus
# generated from the real ones, 'существо' in 20 %) weighs a BM25 idf under 2.4 there, against 4–9 for the words
# that tell rulings apart, yet its postings are most of a question's cost. Left out of a natural question's
# scoring above EXACT_TOTAL_LIMIT entries: at 100 000 entries, with a fifth as the share, the p95 of the engine's
# search halved; with a tenth, the whole path's p95 fell by another 0.25 ms (1.50 → 1.25 ms CPU, least of two
# runs), and the whole plan's first hit is kept for 97.5 % of the benchmark's 650 queries, its top ten for 97.8 %
# (a fifth: 99.5 %, 99.7 %), the changes read being swaps of near-equal scores (``scripts/bench_search.py --scale``
# prints that agreement). Under the limit (every real knowledge base so far) nothing is left out.
COMMON_TERM_FRACTION = 0.1


def _schema() -> Any:
    import tantivy

    builder = tantivy.SchemaBuilder()
    for name in KEYWORDS:
        builder.add_text_field(name, tokenizer_name="raw", index_option="basic")
    for name in TEXT:
        builder.add_text_field(name, tokenizer_name="raw", index_option="position")
        builder.add_text_field(_pairs(name), tokenizer_name="raw", index_option="position")
    builder.add_unsigned_field("order", fast=True)  # the row in ``ROWS``, read per hit as a fast field
    return builder.build()


def _pairs(field_name: str) -> str:
    """The field of ``field_name``'s adjacent pairs of terms (``_tokens``)."""
    return f"{field_name}_pairs"


def _tokens(value: str, readings: Readings) -> tuple[Any, Any]:
    """The field's tokens, and its pairs: each two adjacent positions' terms joined by a space (terms hold
    none), every reading with every reading, at the first one's position. A phrase of common words then
    matches by the pairs' far shorter postings (``TantivySearcher._phrase_match``) instead of checking the
    positions of every document that holds all its words: the index_phrases of Elasticsearch."""
    import tantivy

    tokens: list[Any] = []
    pairs: list[Any] = []
    before: tuple[str, ...] = ()
    before_start = 0
    for position, (start, end, terms) in enumerate(analyze_spans(value or "")):
        readings.seen(terms)
        tokens.extend(tantivy.Token(term, position, start, end) for term in terms)
        pairs.extend(tantivy.Token(f"{a} {b}", position - 1, before_start, end) for a in before for b in terms)
        before, before_start = terms, start
    return tantivy.PreTokenizedString(value or "", tokens), tantivy.PreTokenizedString(value or "", pairs)


class Readings:
    """Which terms of a field always stand at the same positions: the readings of an ambiguous word that
    never occurs without each other («поля»: поле, поля, поль). Their postings are identical, so their BM25
    scores are too, and a query needs one of each such set: the others would only be scored again (a phrase
    of three such words was 5 × 5 × 5 phrase queries, one is enough).

    ``seen`` is called with the terms of every position of the field; a term's set narrows to the terms it
    has stood with everywhere. Two terms are one when each is in the other's set.
    """

    ALONE: frozenset[str] = frozenset()  # a term seen on its own at some position: identical to no other

    def __init__(self) -> None:
        self.together: dict[str, frozenset[str]] = {}

    def seen(self, terms: list[str] | tuple[str, ...]) -> None:
        together = self.together
        if len(terms) == 1:
            together[terms[0]] = self.ALONE
            return
        group = frozenset(terms)
        for term in terms:
            known = together.get(term)
            if known is None:
                together[term] = group
            elif known:  # not ALONE yet
                narrowed = known & group
                together[term] = narrowed if len(narrowed) > 1 else self.ALONE

    def aliases(self) -> dict[str, str]:
        """Each term that has an identical one mapped to the first of them (the others map to it)."""
        together = self.together
        out: dict[str, str] = {}
        for term, group in together.items():
            if group:
                same = [other for other in group if term in together.get(other, self.ALONE)]
                first = min(same)
                if first != term:
                    out[term] = first
        return out


class TantivyEngine:
    name = "tantivy"

    def build(self, docs: Iterable[IndexDoc], directory: Path) -> int:
        import tantivy

        index_dir = directory / SUBDIR
        index_dir.mkdir(parents=True, exist_ok=True)
        index = tantivy.Index(_schema(), path=str(index_dir))
        writer = index.writer(heap_size=WRITER_HEAP, num_threads=1)
        count = 0
        readings = {name: Readings() for name in TEXT}
        with RowsWriter(directory / ROWS) as rows:
            for doc in docs:
                document = tantivy.Document()
                for name in KEYWORDS:
                    document.add_text(name, getattr(doc, name))
                for name in TEXT:
                    terms, pairs = _tokens(getattr(doc, name), readings[name])
                    document.add_pre_tokenized_text(name, terms)
                    document.add_pre_tokenized_text(_pairs(name), pairs)
                document.add_unsigned("order", count)
                writer.add_document(document)
                extra = json.loads(json.dumps(doc.extra, ensure_ascii=False))  # as whoosh returns it: lists
                rows.add((doc.id, doc.kind, doc.document, doc.section, doc.lang, doc.text, extra,
                          highlight.encode(doc.text), " ".join(sorted(context_terms(context_of(extra))))))
                count += 1
        writer.commit()
        writer.wait_merging_threads()
        (directory / ALIASES).write_bytes(marshal.dumps({name: r.aliases() for name, r in readings.items()}))
        return count

    def open(self, directory: Path) -> TantivySearcher:
        import tantivy

        try:
            index = tantivy.Index.open(str(directory / SUBDIR))
        except ValueError as exc:  # tantivy reports a missing or damaged index as a ValueError
            raise OSError(f"{directory / SUBDIR}: {exc}") from exc
        try:
            aliases = marshal.loads((directory / ALIASES).read_bytes())
        except (OSError, EOFError, ValueError, TypeError) as exc:
            raise OSError(f"{directory / ALIASES}: {exc}") from exc
        return TantivySearcher(index, Rows(directory / ROWS), aliases)


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

    def __init__(self, index: Any, rows: Rows, aliases: dict[str, dict[str, str]] | None = None) -> None:
        import tantivy

        self.tantivy = tantivy
        self.index = index
        self.rows = rows
        self.aliases = aliases or {}
        self.schema = index.schema
        self.searcher = index.searcher()
        self._df: dict[tuple[str, str], int] = {}
        self._terms: dict[tuple[str, str, float], Any] = {}
        self._phrases: dict[Phrase, Any] = {}  # ``_phrase``'s queries, by phrase (the plan's nodes are values)
        # ``_alt``'s queries with the largest frequency each left out, by (terms, fields, boost, cap)
        self._alts: dict[tuple[tuple[str, ...], tuple[str, ...], float, int | None], tuple[Any, int]] = {}
        self.left_out = 0  # the largest frequency of a word the last search left out (``compile``'s ``cap``)
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

    def _phrase(self, node: Phrase) -> Any:
        """A phrase's query (``compile``), built once per phrase: a glossary wording comes back with every
        question that names its idea, and its pairs and variants cost more to build than to run."""
        Q, Occur = self.tantivy.Query, self.tantivy.Occur
        if not node.exact and self.large and self._rarest(node) > COMMON_FRACTION * self.doc_count():
            return None  # a glossary wording of common words only: whoosh's large-index plan drops it too
        per_field = []
        for f in node.fields:
            present = [self._distinct(f, [t for t in position if self.has(f, t)]) for position in node.positions]
            if not all(present):
                continue
            variants = list(itertools.islice(itertools.product(*present), MAX_PHRASE_VARIANTS))
            matched = self._phrase_match(f, variants)
            if matched is None:
                continue
            boost = FIELD_BOOSTS.get(f, 1.0)
            # a document holding the phrase holds a reading of every word: all required, the words are
            # scored by seeking to the phrase's documents instead of decoding their whole postings
            words = [self._dismax([self._term(f, t, boost) for t in terms]) for terms in present]
            per_field.append(Q.boolean_query([(Occur.Must, matched), *((Occur.Must, w) for w in words)]))
        if not per_field:
            return None
        # the best field counts, as whoosh scores its DisMax (whoosh_dismax.DISMAX_TIEBREAK)
        return self._boosted(self._dismax(per_field), node.boost / max(1, len(node.positions)))

    def _phrase_match(self, field_name: str, variants: list[tuple[str, ...]]) -> Any:
        """An unscored query matching the documents that hold one of the variants as a phrase, or None when
        none can: each variant by its adjacent pairs (``_tokens``), one pair's postings for two words, a
        phrase of pairs for more (words a b c stand together where the pairs «a b» and «b c» follow each other)."""
        Q = self.tantivy.Query
        pairs_field = _pairs(field_name)
        queries = []
        for words in variants:
            if len(words) == 1:
                queries.append(self._term(field_name, words[0]))
                continue
            pairs: list[Any] = [f"{a} {b}" for a, b in itertools.pairwise(words)]
            if all(self.has(pairs_field, pair) for pair in pairs):
                if len(pairs) == 1:
                    queries.append(self._term(pairs_field, pairs[0]))
                else:
                    queries.append(Q.phrase_query(self.schema, pairs_field, pairs))
        return Q.const_score_query(self._should(queries), 0.0) if queries else None

    def _distinct(self, field_name: str, terms: list[str]) -> list[str]:
        """``terms`` without those identical to one before them in the field (``Readings``)."""
        aliases = self.aliases.get(field_name)
        if not aliases or len(terms) < 2:
            return terms
        seen: set[str] = set()
        out = []
        for term in terms:
            one = aliases.get(term, term)
            if one not in seen:
                seen.add(one)
                out.append(term)
        return out

    def _common_cap(self, plan: Node | None) -> int | None:
        """The document frequency above which a natural question's words are left out of its scoring
        (``COMMON_TERM_FRACTION``), or None: a small index, or a plan whose every word may decide what matches
        (a required word, a filter, an operator query)."""
        if not self.large or plan is None or question_units(plan) is None:
            return None
        return int(COMMON_TERM_FRACTION * self.doc_count())

    def compile(self, node: Node, cap: int | None = None) -> Any:
        """The tantivy query of a plan node. With ``cap``, an alternative's terms found in more than ``cap``
        documents are left out (``_common_cap``) and the largest such frequency is kept in ``self.left_out``."""
        Q, Occur = self.tantivy.Query, self.tantivy.Occur
        if isinstance(node, Alt):
            key = (node.terms, node.fields, node.boost, cap)
            found = self._alts.get(key)
            if found is None:
                if len(self._alts) >= TERM_QUERIES:
                    self._alts.clear()
                found = self._alts[key] = self._alt(node, cap)
            self.left_out = max(self.left_out, found[1])
            return found[0]
        if isinstance(node, Phrase):
            if node in self._phrases:
                return self._phrases[node]
            if len(self._phrases) >= TERM_QUERIES:
                self._phrases.clear()
            compiled = self._phrases[node] = self._phrase(node)
            return compiled
        if isinstance(node, Prefix):  # a constant score per field, as whoosh's Prefix
            parts = []
            for f in node.fields:
                terms = [t for t, _ in self.searcher.terms_with_prefix(f, node.prefix)]
                if terms:
                    parts.append(Q.const_score_query(Q.term_set_query(self.schema, f, terms), FIELD_BOOSTS.get(f, 1.0)))
            return self._boosted(self._should(parts), node.boost) if parts else None
        if isinstance(node, AnyOf):
            children = [c for c in (self.compile(c, cap) for c in node.children) if c is not None]
            return self._boosted(self._dismax(children), node.boost)
        if isinstance(node, Bool):
            must = [self.compile(c) for c in node.must]
            should = [c for c in (self.compile(c, cap) for c in node.should) if c is not None]
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

    def _alt(self, node: Alt, cap: int | None) -> tuple[Any, int]:
        """A word's query (``compile``), and the largest frequency of its terms left out by ``cap``: built
        once per word, fields, boost and cap (a question's common words come back in most questions)."""
        per_term = []
        left_out = 0
        scored: set[tuple[str, str]] = set()  # (field, term) already in: an identical reading adds nothing
        for term in node.terms:
            fields_ = []
            for f in node.fields:
                one = (f, self.aliases.get(f, {}).get(term, term))
                if one in scored:
                    continue
                scored.add(one)
                frequency = self.df(f, term)
                if cap is not None and frequency > cap:
                    left_out = max(left_out, frequency)
                elif frequency:
                    fields_.append(self._term(f, term, FIELD_BOOSTS.get(f, 1.0)))
            if _is_rule(term) and self.has("rules", term) and "rules" not in node.fields:
                fields_.append(self._term("rules", term, FIELD_BOOSTS["rules"]))
            if fields_:
                per_term.append(self._should(fields_))
        return self._boosted(self._dismax(per_term), node.boost), left_out

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
        self.left_out = 0
        cap = self._common_cap(plan)
        query = self.compile(plan, cap) if cap is not None and plan is not None else None
        if query is None:  # no cap, or every word of the question is a common one: then they all count
            self.left_out = 0
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
        if self.left_out:  # every document holding a word left out matches the question too
            return Page(max(int(result.count), self.left_out), hits, False)
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
