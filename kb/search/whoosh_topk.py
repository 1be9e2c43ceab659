"""Exact top k on a large whoosh index: the threshold algorithm over impact-ordered postings.

whoosh walks postings one Python call per posting and per matcher node (on 100 000 entries a question
with glossary phrases touched millions of postings, p95 ≈ 200–400 ms). Above ``EXACT_TOTAL_LIMIT``
documents the index therefore also carries, written after whoosh's commit from whoosh's own postings and
its BM25F scorer (so the figures are whoosh's):

- ``topk.lists``: per (field, term), its documents sorted by *impact* (the term's BM25F score in the
  document at boost 1), highest first, as two packed arrays;
- ``topk.fwd``: per document, its kind, document and language codes and the ids and impacts of all its
  terms (a forward record);
- ``topk.lex``: the (field, term) → term id lexicon and the arrays' offsets.

A query reads the lists of its terms from the top, a chunk at a time (Fagin's threshold algorithm):
every document met is scored completely from its forward record by the plan (``plan.py``), with the same
choices as the small-index plan (field weights, DisMax over readings and equivalents, phrases that filter
and score by their words, prefixes at a constant score); the walk stops when the k-th best score is above
the best score a document not met yet could reach (the plan evaluated at the lists' current impacts).
The result is the plan's exact top k, whatever the index size. A phrase is checked by whoosh's own
``Sequence`` matcher, only for the documents that reach the top k on the assumption that it matches.
"""

from __future__ import annotations

import bisect
import heapq
import marshal
import mmap
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kb.search.plan import Alt, AnyOf, Bool, Node, Phrase, Prefix

LISTS, FORWARD, LEXICON = "topk.lists", "topk.fwd", "topk.lex"
FIELDS = ("text", "topic", "cards", "rules")
LABELS = ("kind", "document", "lang")  # the stored fields the filters and the kind prior read
FIRST_CHUNK = 64
MAX_CHUNK = 1024
MAX_CHECK = 2048
# The walk stops reading after meeting this many documents (scoring each from its forward record costs
# ~15 µs): on 100 000 entries, 648 queries kept their first hit and 99.7 % of their top 10 against the
# unbounded walk (scripts/bench_search.py --scale; the whole path stays under 20 ms).
SEEN_BUDGET = 1500
_SEP = "\x1f"

Record = tuple[str, str, str, "array[int]", "array[float]"]  # kind, document, lang, term ids, impacts


# --- writing ---------------------------------------------------------------------------------------


def write(directory: Path, ix: Any, weighting: Any) -> None:
    """The impact lists and forward records of a committed whoosh index (``ix``), scored by ``weighting``."""
    with ix.searcher(weighting=weighting) as searcher:
        reader = searcher.reader()
        n = reader.doc_count_all()
        present = [f for f in FIELDS if f in reader.schema]
        keys = sorted(f + _SEP + _text(t) for f in present for t in reader.lexicon(f))
        tids = {key: i for i, key in enumerate(keys)}
        fwd_ids: list[array[int]] = [array("I") for _ in range(n)]
        fwd_imp: list[array[float]] = [array("f") for _ in range(n)]
        offsets, counts = array("Q", bytes(8 * len(keys))), array("I", bytes(4 * len(keys)))
        with (directory / LISTS).open("wb") as out:
            for field_name in present:
                lengths = [reader.doc_field_length(d, field_name, 1) for d in range(n)]
                for term in reader.lexicon(field_name):
                    text = _text(term)
                    scorer = searcher.weighting.scorer(searcher, field_name, text)
                    ids, weights = _postings(reader.postings(field_name, text))
                    impacts = [scorer._score(w, lengths[d]) for d, w in zip(ids, weights, strict=True)]
                    tid = tids[field_name + _SEP + text]
                    order = sorted(range(len(ids)), key=lambda i: (-impacts[i], ids[i]))
                    offsets[tid], counts[tid] = out.tell(), len(ids)
                    out.write(array("I", (ids[i] for i in order)).tobytes())
                    out.write(array("f", (impacts[i] for i in order)).tobytes())
                    for d, impact in zip(ids, impacts, strict=True):
                        fwd_ids[d].append(tid)
                        fwd_imp[d].append(impact)
        codes: dict[str, int] = {}
        doc_offsets = array("Q")
        with (directory / FORWARD).open("wb") as out:
            for d in range(n):
                stored = reader.stored_fields(d)
                labels = tuple(codes.setdefault(str(stored.get(k, "")), len(codes)) for k in LABELS)
                doc_offsets.append(out.tell())
                out.write(marshal.dumps((labels, fwd_ids[d].tobytes(), fwd_imp[d].tobytes())))
            doc_offsets.append(out.tell())
        strings = sorted(codes, key=codes.__getitem__)
        (directory / LEXICON).write_bytes(
            marshal.dumps((keys, offsets.tobytes(), counts.tobytes(), doc_offsets.tobytes(), strings))
        )


def _text(term: str | bytes) -> str:
    return term.decode("utf-8") if isinstance(term, bytes) else term


def _postings(matcher: Any) -> tuple[list[int], list[float]]:
    ids: list[int] = []
    weights: list[float] = []
    while matcher.is_active():
        ids.append(matcher.id())
        weights.append(matcher.weight())
        matcher.next()
    return ids, weights


# --- reading ---------------------------------------------------------------------------------------


class TopK:
    """The impact lists and forward records of one index generation (``write``), memory-mapped."""

    def __init__(self, directory: Path) -> None:
        keys, offsets, counts, doc_offsets, strings = marshal.loads((directory / LEXICON).read_bytes())
        self.keys: list[str] = keys  # sorted: a term's id is its place here
        self.offsets = array("Q")
        self.offsets.frombytes(offsets)
        self.counts = array("I")
        self.counts.frombytes(counts)
        self.doc_offsets = array("Q")
        self.doc_offsets.frombytes(doc_offsets)
        self.strings: list[str] = strings
        self._files = [(directory / name).open("rb") for name in (LISTS, FORWARD)]
        self.lists, self.forward = (mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if _size(f) else b""
                                    for f in self._files)
        self.doc_count = len(self.doc_offsets) - 1

    def close(self) -> None:
        for m in (self.lists, self.forward):
            if isinstance(m, mmap.mmap):
                m.close()
        for f in self._files:
            f.close()

    def tid(self, field_name: str, term: str) -> int | None:
        key = field_name + _SEP + term
        i = bisect.bisect_left(self.keys, key)
        return i if i < len(self.keys) and self.keys[i] == key else None

    def prefixed(self, field_name: str, prefix: str) -> range:
        """Term ids of the field's terms starting with ``prefix`` (adjacent in the sorted lexicon)."""
        head = field_name + _SEP + prefix
        return range(bisect.bisect_left(self.keys, head), bisect.bisect_left(self.keys, head + "\U0010ffff"))

    def chunk(self, tid: int, start: int, stop: int) -> tuple[array[int], array[float]]:
        """Entries ``start:stop`` of a term's impact-ordered list: document numbers and impacts."""
        base, n = self.offsets[tid], self.counts[tid]
        stop = min(stop, n)
        ids, impacts = array("I"), array("f")
        ids.frombytes(self.lists[base + 4 * start : base + 4 * stop])
        impacts.frombytes(self.lists[base + 4 * n + 4 * start : base + 4 * n + 4 * stop])
        return ids, impacts

    def ids(self, tid: int) -> array[int]:
        return self.chunk(tid, 0, self.counts[tid])[0]

    def top_impact(self, tid: int) -> float:
        return self.chunk(tid, 0, 1)[1][0] if self.counts[tid] else 0.0

    def record(self, doc: int) -> Record:
        labels, ids_b, imp_b = marshal.loads(self.forward[self.doc_offsets[doc] : self.doc_offsets[doc + 1]])
        ids, impacts = array("I"), array("f")
        ids.frombytes(ids_b)
        impacts.frombytes(imp_b)
        s = self.strings
        return s[labels[0]], s[labels[1]], s[labels[2]], ids, impacts


def impacts_of(record: Record, tids: frozenset[int]) -> dict[int, float]:
    """The record's impacts for the query's term ids only (a document holds a handful of them)."""
    ids, impacts = record[3], record[4]
    return {t: impacts[ids.index(t)] for t in tids.intersection(ids)}


def _size(handle: Any) -> int:
    handle.seek(0, 2)
    size = int(handle.tell())
    handle.seek(0)
    return size


# --- the plan as a scoring function over a document's term impacts -----------------------------------


@dataclass
class Context:
    """A query's evaluation state: phrase checks done and pending (``None``: not checked yet)."""

    checked: dict[tuple[int, int], bool] = field(default_factory=dict)
    pending: set[tuple[int, int]] = field(default_factory=set)
    optimistic: bool = True  # an unchecked phrase counts as matching (an upper bound)


Scorer = Callable[[int, dict[int, float], Context], float]
# ``(doc, impacts, context) -> score``; 0.0 means "does not match". ``doc`` is -1 for the bound.


@dataclass
class PhraseCheck:
    """One phrase in one field: per position, the terms (readings) that may stand there.

    ``query`` is the equivalent whoosh ``Sequence`` (tests compare against it); the walk reads the words'
    positions from their postings instead, because a ``Sequence`` matcher asked to skip to a document
    checks the positions of every document on the way."""

    key: int
    field_name: str
    positions: list[list[str]]
    query: Any

    def holds(self, reader: Any, docs: list[int]) -> dict[int, bool]:
        """Which of ``docs`` (ascending) have the words at consecutive positions."""
        matchers: dict[str, Any] = {}
        out: dict[int, bool] = {}
        for doc in docs:
            previous: set[int] | None = None
            for readings in self.positions:
                here: set[int] = set()
                for term in readings:
                    m = matchers.get(term)
                    if m is None:
                        m = matchers[term] = reader.postings(self.field_name, term)
                    if m.is_active() and m.id() < doc:
                        m.skip_to(doc)
                    if m.is_active() and m.id() == doc:
                        here.update(m.value_as("positions"))
                previous = here if previous is None else {p for p in here if p - 1 in previous}
                if not previous:
                    break
            out[doc] = bool(previous)
        return out


class Compiler:
    """Plan nodes → scoring closures, recording the term ids the walk must read and their weights."""

    def __init__(self, topk: TopK, field_boosts: dict[str, float], tiebreak: float, is_rule: Callable[[str], bool]):
        self.topk = topk
        self.boosts = field_boosts
        self.tiebreak = tiebreak
        self.is_rule = is_rule
        self.weights: dict[int, float] = {}  # term id → largest weight it carries (reading order)
        self.phrases: list[PhraseCheck] = []

    def _leaf(self, field_name: str, term: str, weight: float, sink: list[tuple[int, float]]) -> None:
        tid = self.topk.tid(field_name, term)
        if tid is not None:
            sink.append((tid, self.boosts.get(field_name, 1.0)))
            self.weights[tid] = max(self.weights.get(tid, 0.0), weight * self.boosts.get(field_name, 1.0))

    def compile(self, node: Node, weight: float = 1.0, read: bool = True) -> Scorer | None:
        """``read``: the node's terms may bring a document into the walk (False below ``must_not``)."""
        if isinstance(node, Alt):
            per_term: list[list[tuple[int, float]]] = []
            for term in node.terms:
                sink: list[tuple[int, float]] = []
                fields_ = list(node.fields) + (["rules"] if self.is_rule(term) and "rules" not in node.fields else [])
                for f in fields_:
                    self._leaf(f, term, weight * node.boost if read else 0.0, sink)
                if sink:
                    per_term.append(sink)
            if not per_term:
                return None
            return _alt(per_term, self.tiebreak, node.boost)
        if isinstance(node, Phrase):
            from whoosh import query as q

            per_field: list[tuple[int, list[list[int]]]] = []
            scale = node.boost / max(1, len(node.positions))
            for f in node.fields:
                positions: list[list[int]] = []
                seq = []
                for position in node.positions:
                    present = [(t, tid) for t in position if (tid := self.topk.tid(f, t)) is not None]
                    if not present:
                        break
                    positions.append([tid for _, tid in present])
                    terms = [q.Term(f, t) for t, _ in present]
                    seq.append(terms[0] if len(terms) == 1 else q.Or(terms))
                else:
                    key = len(self.phrases)
                    words = [[t for t in position if self.topk.tid(f, t) is not None] for position in node.positions]
                    self.phrases.append(PhraseCheck(key, f, words, q.Sequence(seq)))
                    boost = self.boosts.get(f, 1.0)
                    for tids in positions:
                        for tid in tids:
                            self.weights[tid] = max(self.weights.get(tid, 0.0), weight * scale * boost if read else 0.0)
                    per_field.append((key, positions))
            if not per_field:
                return None
            if len(per_field) == 1:  # whoosh's Require (one field) ignores the boost it is given
                scale = 1.0
            return _phrase(per_field, [self.boosts.get(p.field_name, 1.0) for p in self.phrases[-len(per_field):]],
                           self.tiebreak, scale)
        if isinstance(node, Prefix):
            # as whoosh runs it: the sum of the expanded terms' scores, at the field's boost when the prefix
            # expands to several terms (one term is searched as a plain Term, at boost 1)
            groups: list[tuple[range, float]] = []
            for f in node.fields:
                expanded = self.topk.prefixed(f, node.prefix)
                if expanded:
                    boost = self.boosts.get(f, 1.0) if len(expanded) > 1 else 1.0
                    groups.append((expanded, boost))
                    carried = weight * node.boost * boost if read else 0.0
                    for tid in expanded:
                        self.weights[tid] = max(self.weights.get(tid, 0.0), carried)
            if not groups:
                return None
            return _prefix(groups, node.boost)
        if isinstance(node, AnyOf):
            children = [c for c in (self.compile(c, weight * node.boost, read) for c in node.children) if c]
            if not children:
                return None
            return _dismax(children, self.tiebreak, node.boost)
        if isinstance(node, Bool):
            must = [self.compile(c, weight * node.boost, read) for c in node.must]
            should = [c for c in (self.compile(c, weight * node.boost, read) for c in node.should) if c]
            must_not = [c for c in (self.compile(c, 0.0, False) for c in node.must_not) if c]
            if any(m is None for m in must):
                return None
            if not must and not should:
                return None  # only exclusions: the caller walks every document (``every``)
            return _bool([m for m in must if m], should, must_not, node.boost)
        raise TypeError(f"unknown plan node {node!r}")


def _alt(per_term: list[list[tuple[int, float]]], tiebreak: float, boost: float) -> Scorer:
    mine = frozenset(t for sink in per_term for t, _ in sink)

    def score(doc: int, impacts: dict[int, float], ctx: Context) -> float:
        if mine.isdisjoint(impacts):
            return 0.0
        values = []
        for sink in per_term:
            total = 0.0
            for tid, b in sink:
                v = impacts.get(tid)
                if v is not None:
                    total += v * b
            if total:
                values.append(total)
        return _max_plus(values, tiebreak) * boost

    return score


def _phrase(per_field: list[tuple[int, list[list[int]]]], boosts: list[float], tiebreak: float,
            scale: float) -> Scorer:
    mine = frozenset(t for _, positions in per_field for tids in positions for t in tids)

    def score(doc: int, impacts: dict[int, float], ctx: Context) -> float:
        if mine.isdisjoint(impacts):
            return 0.0
        fields_: list[float] = []
        for (key, positions), boost in zip(per_field, boosts, strict=True):
            words = 0.0
            for tids in positions:
                values = [v for t in tids if (v := impacts.get(t)) is not None]
                if not values:
                    break
                words += _max_plus(values, tiebreak)
            else:
                if doc >= 0:
                    state = ctx.checked.get((key, doc))
                    if state is None:
                        ctx.pending.add((key, doc))
                        if not ctx.optimistic:
                            continue
                    elif not state:
                        continue
                fields_.append(words * boost)
        return _max_plus(fields_, tiebreak) * scale

    return score


def _prefix(groups: list[tuple[range, float]], boost: float) -> Scorer:
    def score(doc: int, impacts: dict[int, float], ctx: Context) -> float:
        total = 0.0
        for tids, b in groups:
            if len(tids) < len(impacts):
                found = sum(v for t in tids if (v := impacts.get(t)) is not None)
            else:
                found = sum(v for t, v in impacts.items() if t in tids)
            total += found * b
        return total * boost

    return score


def _dismax(children: list[Scorer], tiebreak: float, boost: float) -> Scorer:
    def score(doc: int, impacts: dict[int, float], ctx: Context) -> float:
        return _max_plus([v for c in children if (v := c(doc, impacts, ctx))], tiebreak) * boost

    return score


def _bool(must: list[Scorer], should: list[Scorer], must_not: list[Scorer], boost: float) -> Scorer:
    def score(doc: int, impacts: dict[int, float], ctx: Context) -> float:
        total = 0.0
        for m in must:
            v = m(doc, impacts, ctx)
            if not v:
                return 0.0
            total += v
        matched = bool(must)
        for s in should:
            v = s(doc, impacts, ctx)
            if v:
                total += v
                matched = True
        if not matched:
            return 0.0
        if doc >= 0 and must_not:
            saved, ctx.optimistic = ctx.optimistic, False  # excluded only by a phrase checked to match
            try:
                if any(n(doc, impacts, ctx) for n in must_not):
                    return 0.0
            finally:
                ctx.optimistic = saved
        return total * boost

    return score


def _max_plus(values: list[float], tiebreak: float) -> float:
    """DisMax: the best value plus ``tiebreak`` times the others (Lucene's and tantivy's definition)."""
    if not values:
        return 0.0
    if len(values) == 1:
        return values[0]
    best = max(values)
    return best + tiebreak * (sum(values) - best)


# --- the walk ----------------------------------------------------------------------------------------


@dataclass
class Found:
    docs: list[tuple[float, int]]  # (score, document number), best first, ties by document number
    estimate: int  # documents matching, a lower bound (the longest list read)


class Walk:
    """Fagin's threshold algorithm over the impact lists of one compiled query."""

    def __init__(self, topk: TopK, scorer: Scorer, weights: dict[int, float], phrases: list[PhraseCheck],
                 accept: Callable[[int, Record, Context], bool], searcher: Any) -> None:
        self.topk, self.scorer, self.accept, self.searcher = topk, scorer, accept, searcher
        self.phrases = {p.key: p for p in phrases}
        self.weights = weights
        self.pos = {tid: 0 for tid in weights}
        self.chunk = {tid: FIRST_CHUNK for tid in weights}
        self.frontier: dict[int, float] = {tid: topk.top_impact(tid) for tid in weights}
        self.frontier = {tid: v for tid, v in self.frontier.items() if topk.counts[tid]}
        self.ctx = Context()
        self.tids = frozenset(weights)
        self.scores: dict[int, float] = {}
        self.seen: set[int] = set()
        self.k = 1
        self.heap: list[tuple[float, int]] = []  # the k best (score, -document), worst first

    def bound(self) -> float:
        return self.scorer(-1, self.frontier, self.ctx)

    def step(self) -> bool:
        """Read one chunk from the list that could add the most; False when every list is read."""
        live = [tid for tid in self.frontier if self.weights[tid] > 0]
        if not live:
            return False
        tid = max(live, key=lambda t: (self.frontier[t] * self.weights[t], -t))
        start = self.pos[tid]
        ids, _ = self.topk.chunk(tid, start, start + self.chunk[tid])
        self.pos[tid] = start + len(ids)
        self.chunk[tid] = min(MAX_CHUNK, self.chunk[tid] * 2)
        if self.pos[tid] >= self.topk.counts[tid]:
            del self.frontier[tid]
        else:
            self.frontier[tid] = self.topk.chunk(tid, self.pos[tid], self.pos[tid] + 1)[1][0]
        for doc in ids:
            if doc not in self.seen:
                self.seen.add(doc)
                self._score(doc)
        return True

    def _score(self, doc: int) -> None:
        record = self.topk.record(doc)
        if not self.accept(doc, record, self.ctx):
            self.scores.pop(doc, None)
            return
        value = self.scorer(doc, impacts_of(record, self.tids), self.ctx)
        if value:
            self.scores[doc] = value
            entry = (value, -doc)
            if len(self.heap) < self.k:
                heapq.heappush(self.heap, entry)
            elif entry > self.heap[0]:
                heapq.heapreplace(self.heap, entry)
        else:
            self.scores.pop(doc, None)

    def best(self, k: int) -> list[tuple[float, int]]:
        """The k best as (−score, document), best first."""
        return sorted((-s, -d) for s, d in self.heap)[:k]

    def check(self, count: int) -> bool:
        """False when the k best documents' scores are final (no phrase of theirs was assumed); else check the
        phrases assumed for the ``count`` best (a failed check lets the next ones up, so more than k at once)."""
        pending = {doc for _, doc in self.ctx.pending}
        if not any(-d in pending for _, d in self.heap):
            return False
        top = {d for _, d in heapq.nsmallest(count, ((-v, d) for d, v in self.scores.items()))}
        todo: dict[int, list[int]] = {}
        for key, doc in self.ctx.pending:
            if doc in top:
                todo.setdefault(key, []).append(doc)
        if not todo:
            return False
        reader = self.searcher.reader()
        for key, group in todo.items():
            for doc, found in self.phrases[key].holds(reader, sorted(group)).items():
                self.ctx.checked[(key, doc)] = found
                self.ctx.pending.discard((key, doc))
        for doc in {d for group in todo.values() for d in group}:
            self._score(doc)
        self.heap = heapq.nlargest(self.k, ((v, -d) for d, v in self.scores.items()))
        heapq.heapify(self.heap)
        return True

    def run(self, k: int) -> Found:
        self.k = k
        batch = k  # documents whose phrases are checked at once, doubled while checks keep failing
        while True:
            while True:
                if len(self.heap) >= k and self.heap[0][0] > self.bound():
                    break
                if (SEEN_BUDGET and len(self.seen) >= SEEN_BUDGET) or not self.step():
                    break
            if not self.check(batch):
                break  # else phrase checks changed scores: the k best and the bound test again
            batch = min(2 * batch, MAX_CHECK)
        longest = max((self.topk.counts[t] for t in self.weights if self.weights[t] > 0), default=0)
        return Found([(-s, d) for s, d in self.best(k)], max(longest, len(self.scores)))


def every(topk: TopK, k: int, accept: Callable[[int, Record, Context], bool]) -> Found:
    """Filters alone (kind, set, language): a constant score, the first ``k`` accepted documents by number."""
    found: list[tuple[float, int]] = []
    ctx = Context(optimistic=False)
    count = 0
    for doc in range(topk.doc_count):
        if accept(doc, topk.record(doc), ctx):
            count += 1
            if len(found) < k:
                found.append((1.0, doc))
    return Found(found, count)


def search(topk: TopK, searcher: Any, plan: Node | None, filters: Any, k: int, compiler: Compiler) -> Found | None:
    """The ``k`` best documents for ``plan`` under ``filters`` (``engine.Filters``); ``None`` for a query made of
    exclusions only, which whoosh answers itself (every document but those)."""
    main = compiler.compile(plan) if plan is not None else None
    if plan is not None and main is None:
        if isinstance(plan, Bool) and plan.must_not and not plan.must and not plan.should:
            return None
        return Found([], 0)
    required: list[Scorer] = []
    for node in filters.nodes:
        scorer = compiler.compile(node, 1.0 if main is None else 0.0, read=main is None)
        if scorer is None:
            return Found([], 0)
        required.append(scorer)
    documents, kinds, langs = set(filters.documents), set(filters.kinds), set(filters.langs)

    def accept(doc: int, record: Record, ctx: Context) -> bool:
        kind, document, lang = record[:3]
        return not ((kinds and kind not in kinds) or (documents and document not in documents)
                    or (langs and lang not in langs))

    if main is None and not required:
        return every(topk, k, accept)

    def score(doc: int, impacts: dict[int, float], ctx: Context) -> float:
        for r in required:
            if not r(doc, impacts, ctx):
                return 0.0
        return main(doc, impacts, ctx) if main is not None else 1.0

    return Walk(topk, score if required else main, compiler.weights, compiler.phrases, accept,  # type: ignore[arg-type]
                searcher).run(k)
