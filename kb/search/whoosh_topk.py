"""Exact top k on a large whoosh index: the threshold algorithm over impact-ordered postings.

whoosh walks postings one Python call per posting and per matcher node (on 100 000 entries a question
with glossary phrases touched millions of postings, p95 ≈ 200–400 ms). Above ``whoosh_engine.TOPK_LIMIT``
documents the index therefore also carries, written after whoosh's commit from whoosh's own postings and
its BM25F scorer (so the figures are whoosh's):

- ``topk.lists``: per (field, term), its documents sorted by *impact* (the term's BM25F score in the
  document at boost 1), highest first, as two packed arrays;
- ``topk.fwd``: per document, its kind, document and language codes, the ids and impacts of all its terms
  sorted by id, and each term's positions in phrase fields (a forward record, flat arrays, memory-mapped);
- ``topk.lex``: the (field, term) → term id lexicon and where each array starts.

A query reads the lists of its terms from the top, a chunk at a time (Fagin's threshold algorithm):
every document met is scored completely from its forward record by the plan (``plan.py``), with the same
choices as the small-index plan (field weights, DisMax over readings and equivalents, phrases that filter
and score by their words, prefixes at their terms' summed scores); the walk stops when the k-th best score
is above the best score a document not met yet could reach (the plan evaluated at the lists' current
impacts). The result is the plan's exact top k, whatever the index size. A phrase is checked on the
document's stored positions, the way whoosh's ``Sequence`` checks them.

Per document that costs a few microseconds, not a few dozen, because nothing is decoded: the forward
arrays are memory views, the plan is compiled once per query into one Python function of the document's
impacts (``Compiler``), and a phrase is checked only when all its words are there.
"""

from __future__ import annotations

import bisect
import heapq
import marshal
import mmap
from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from kb.search.plan import Alt, AnyOf, Bool, Node, Phrase, Prefix

FORMAT = 2  # the files' layout; an index written by another version is not read (whoosh's own plan answers)
LISTS, FORWARD, LEXICON = "topk.lists", "topk.fwd", "topk.lex"
FIELDS = ("text", "topic", "cards", "rules")
LABELS = ("kind", "document", "lang")  # the stored fields the filters and the kind prior read
FIRST_CHUNK = 64
MAX_CHUNK = 1024
# The walk stops reading after meeting this many documents: on 100 000 entries, the development, holdout
# and generated queries keep their first hit and nearly all their top 10 against the unbounded walk
# (``scripts/bench_search.py --scale``), and the worst queries stay within the latency target.
SEEN_BUDGET = 1500
# The documents a query can match (a phrase: those holding a word of each position; a filter: its cheapest
# words' documents) are found by reading lists whole when the cheapest of them hold at most this many postings
# (~30 ns each, at C speed); up to ``EXHAUSTIVE_LIMIT`` candidates are then all scored (the exact top k), more
# are walked in impact order, skipping the others. Filters alone (a constant score) count their matches
# among the first ``CONSTANT_SCAN`` candidates once a page is found.
CANDIDATE_POSTINGS = 40_000
EXHAUSTIVE_LIMIT = SEEN_BUDGET
CONSTANT_SCAN = 5_000
MAX_DEPTH = 24  # parentheses per generated function (Python's parser allows 200)
_SEP = "\x1f"
_COMPILED: dict[str, Any] = {}  # generated source → code object
_SECTIONS = ("doc_off", "labels", "ent_tid", "ent_imp", "ent_pos", "positions")

# ``(impacts, doc, phrase) -> score``: ``impacts`` maps the query's term ids found in the document to their
# impacts, ``phrase(key, doc)`` says whether phrase ``key`` holds there; 0 means "does not match". ``doc`` is
# -1 for the bound, where phrases count as matching and exclusions are not applied.
Scorer = Callable[[dict[int, float], int, Callable[[int, int], bool]], float]


# --- writing ---------------------------------------------------------------------------------------


def write(directory: Path, ix: Any, weighting: Any) -> None:
    """The impact lists and forward records of a committed whoosh index (``ix``), scored by ``weighting``."""
    with ix.searcher(weighting=weighting) as searcher:
        reader = searcher.reader()
        n = reader.doc_count_all()
        present = sorted(f for f in FIELDS if f in reader.schema)
        positional = {f for f in present if reader.schema[f].format.supports("positions")}
        # the keys in sorted order (fields sorted, each field's lexicon sorted): a term's id is its place,
        # and every document receives its terms in increasing id order
        keys = [f + _SEP + _text(t) for f in present for t in reader.lexicon(f)]
        if any(a >= b for a, b in pairwise(keys)):
            raise ValueError("whoosh lexicon out of order")
        fwd_tid = [array("I") for _ in range(n)]
        fwd_imp = [array("f") for _ in range(n)]
        fwd_npos = [array("I") for _ in range(n)]
        fwd_pos = [array("I") for _ in range(n)]
        offsets, counts = array("Q", bytes(8 * len(keys))), array("I", bytes(4 * len(keys)))
        with (directory / LISTS).open("wb") as out:
            for tid, key in enumerate(keys):
                field_name, text = key.split(_SEP, 1)
                if tid == 0 or not keys[tid - 1].startswith(field_name + _SEP):
                    lengths = [reader.doc_field_length(d, field_name, 1) for d in range(n)]
                scorer = searcher.weighting.scorer(searcher, field_name, text)
                ids, weights, places = _postings(reader.postings(field_name, text), field_name in positional)
                impacts = [scorer._score(w, lengths[d]) for d, w in zip(ids, weights, strict=True)]
                order = sorted(range(len(ids)), key=lambda i: (-impacts[i], ids[i]))
                offsets[tid], counts[tid] = out.tell() // 4, len(ids)
                out.write(array("I", (ids[i] for i in order)).tobytes())
                out.write(array("f", (impacts[i] for i in order)).tobytes())
                for j, (d, impact) in enumerate(zip(ids, impacts, strict=True)):
                    fwd_tid[d].append(tid)
                    fwd_imp[d].append(impact)
                    fwd_npos[d].append(len(places[j]) if places else 0)
                    if places:
                        fwd_pos[d].extend(places[j])
        codes: dict[str, int] = {}
        labels = array("H")
        for d in range(n):
            stored = reader.stored_fields(d)
            labels.extend(codes.setdefault(str(stored.get(k, "")), len(codes)) for k in LABELS)
        doc_off, ent_pos = array("I", [0]), array("I", [0])
        for d in range(n):
            doc_off.append(doc_off[-1] + len(fwd_tid[d]))
            for c in fwd_npos[d]:
                ent_pos.append(ent_pos[-1] + c)
        widest = max((max(p) for p in fwd_pos if p), default=0)
        sections: dict[str, tuple[int, str, int]] = {}
        with (directory / FORWARD).open("wb") as out:

            def section(name: str, typecode: str, parts: Any) -> None:
                out.write(bytes(-out.tell() % 8))  # aligned
                start, count = out.tell(), 0
                for part in parts:
                    data = part if isinstance(part, array) and part.typecode == typecode else array(typecode, part)
                    out.write(data.tobytes())
                    count += len(data)
                sections[name] = (start, typecode, count)

            section("doc_off", "I", [doc_off])
            section("labels", "H", [labels])
            section("ent_tid", "I", fwd_tid)
            section("ent_imp", "f", fwd_imp)
            section("ent_pos", "I", [ent_pos])
            section("positions", "H" if widest < 2**16 else "I", fwd_pos)
        strings = sorted(codes, key=codes.__getitem__)
        (directory / LEXICON).write_bytes(
            marshal.dumps((FORMAT, keys, offsets.tobytes(), counts.tobytes(), strings, sections))
        )


def _text(term: str | bytes) -> str:
    return term.decode("utf-8") if isinstance(term, bytes) else term


def _postings(matcher: Any, positions: bool) -> tuple[list[int], list[float], list[list[int]]]:
    ids: list[int] = []
    weights: list[float] = []
    places: list[list[int]] = []
    while matcher.is_active():
        ids.append(matcher.id())
        weights.append(matcher.weight())
        if positions:
            places.append(matcher.value_as("positions"))
        matcher.next()
    return ids, weights, places


# --- reading ---------------------------------------------------------------------------------------


class StaleFormat(ValueError):
    """The files were written by another version of this module."""


class TopK:
    """The impact lists and forward records of one index generation (``write``), memory-mapped."""

    def __init__(self, directory: Path) -> None:
        data = marshal.loads((directory / LEXICON).read_bytes())
        if not (isinstance(data, tuple) and len(data) == 6 and data[0] == FORMAT):
            raise StaleFormat(str(directory / LEXICON))
        _, keys, offsets, counts, strings, sections = data
        self.keys: list[str] = keys  # sorted: a term's id is its place here
        self.offsets = array("Q")
        self.offsets.frombytes(offsets)
        self.counts = array("I")
        self.counts.frombytes(counts)
        self.strings: list[str] = strings
        self.codes = {s: i for i, s in enumerate(strings)}  # a label's code
        self._files = [(directory / name).open("rb") for name in (LISTS, FORWARD)]
        self._maps = [mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if _size(f) else None for f in self._files]
        lists, forward = (memoryview(m) if m is not None else memoryview(b"") for m in self._maps)
        self._views: list[memoryview[Any]] = [lists, forward]
        self.list_ids, self.list_imp = lists.cast("I"), lists.cast("f")
        views = {}
        for name in _SECTIONS:
            start, typecode, count = sections[name]
            views[name] = forward[start : start + count * array(typecode).itemsize].cast(typecode)
        self._views += [self.list_ids, self.list_imp, *views.values()]
        self.doc_off, self.labels = views["doc_off"], views["labels"]
        self.ent_tid, self.ent_imp = views["ent_tid"], views["ent_imp"]
        self.ent_pos, self.positions_ = views["ent_pos"], views["positions"]
        self.doc_count = len(self.doc_off) - 1

    def close(self) -> None:
        for view in reversed(self._views):
            view.release()
        for m in self._maps:
            if m is not None:
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

    def within_one_edit(self, field_name: str, term: str) -> list[tuple[str, int]]:
        """The field's other terms with the same first letter at Levenshtein distance 1 from ``term``, with their
        document frequencies: what whoosh's ``terms_within(field, term, 1, prefix=1)`` finds."""
        if not term:
            return []
        out = []
        skip = len(field_name) + 1
        for tid in self.prefixed(field_name, term[0]):
            cand = self.keys[tid][skip:]
            if abs(len(cand) - len(term)) <= 1 and cand != term and _one_edit(term[1:], cand[1:]):
                out.append((cand, int(self.counts[tid])))
        return out

    def chunk(self, tid: int, start: int, stop: int) -> tuple[Any, Any]:
        """Entries ``start:stop`` of a term's impact-ordered list: document numbers and impacts (views)."""
        base, n = self.offsets[tid], self.counts[tid]
        stop = min(stop, n)
        return self.list_ids[base + start : base + stop], self.list_imp[base + n + start : base + n + stop]

    def doc_at(self, tid: int, i: int) -> int:
        """The document of the ``i``-th highest impact of a term (its list is ordered by impact, then number)."""
        return int(self.list_ids[self.offsets[tid] + i])

    def impact_at(self, tid: int, i: int) -> float:
        """The ``i``-th highest impact of a term (0 past its list's end)."""
        return float(self.list_imp[self.offsets[tid] + self.counts[tid] + i]) if i < self.counts[tid] else 0.0

    def label(self, doc: int, which: int) -> str:
        """``LABELS[which]`` of a document."""
        return self.strings[self.labels[3 * doc + which]]

    def positions(self, doc: int, tid: int) -> Any:
        """Where term ``tid`` stands in the document (a phrase field's positions; empty elsewhere)."""
        a, b = self.doc_off[doc], self.doc_off[doc + 1]
        j = bisect.bisect_left(self.ent_tid, tid, a, b)
        if j == b or self.ent_tid[j] != tid:
            return ()
        return self.positions_[self.ent_pos[j] : self.ent_pos[j + 1]]

    def terms(self, doc: int) -> dict[int, float]:
        """Every term id of a document with its impact (tests)."""
        a, b = self.doc_off[doc], self.doc_off[doc + 1]
        return dict(zip(self.ent_tid[a:b], self.ent_imp[a:b], strict=True))


def _one_edit(a: str, b: str) -> bool:
    """Levenshtein distance at most 1 (a substitution, an insertion or a deletion; no transposition)."""
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) <= 1
    if len(a) > len(b):
        a, b = b, a
    if len(b) - len(a) != 1:
        return False
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    return a[i:] == b[i + 1 :]


def _size(handle: Any) -> int:
    handle.seek(0, 2)
    size = int(handle.tell())
    handle.seek(0)
    return size


# --- phrases ---------------------------------------------------------------------------------------------


@dataclass
class PhraseCheck:
    """One phrase in one field: per position, the term ids (readings) that may stand there.

    ``words`` are the same as terms; ``query`` builds the equivalent whoosh ``Sequence`` (tests compare the
    stored positions against it)."""

    key: int
    field_name: str
    tids: list[list[int]]
    words: list[list[str]]

    def query(self) -> Any:
        from whoosh import query as q

        seq = [q.Term(self.field_name, ws[0]) if len(ws) == 1 else q.Or([q.Term(self.field_name, w) for w in ws])
               for ws in self.words]
        return q.Sequence(seq)

    def holds(self, topk: TopK, doc: int) -> bool:
        """Do the words stand at consecutive positions of the document (any reading at each)?"""
        previous: set[int] | None = None
        for readings in self.tids:
            here: set[int] = set()
            for tid in readings:
                here.update(topk.positions(doc, tid))
            previous = here if previous is None else {p for p in here if p - 1 in previous}
            if not previous:
                return False
        return True


class Phrases:
    """The phrase oracle a scorer calls: checked on the stored positions, each (phrase, document) once."""

    def __init__(self, topk: TopK, checks: list[PhraseCheck]) -> None:
        self.topk, self.checks = topk, checks
        self.known: dict[tuple[int, int], bool] = {}
        self.asked = 0  # calls for the bound: did a score depend on a phrase?

    def __call__(self, key: int, doc: int) -> bool:
        if doc < 0:
            self.asked += 1
            return True  # the bound: an unseen document may hold it
        state = self.known.get((key, doc))
        if state is None:
            state = self.known[(key, doc)] = self.checks[key].holds(self.topk, doc)
        return state


# --- the plan as one generated Python function of a document's term impacts ---------------------------


class Compiler:
    """Plan nodes → the source of a scoring function, recording the term ids the walk must read.

    Each node becomes an expression over ``g(tid, 0.0)`` (the document's impact for a term, 0 when absent):
    a sum for a term's fields, ``max`` for DisMax (the tiebreak is applied when it is not 0), ``and`` chains
    for required parts and phrases (a phrase's words must all be there before its positions are checked).
    Deep plans are split into helper functions so that the generated source stays within Python's limits.
    """

    def __init__(self, topk: TopK, field_boosts: dict[str, float], tiebreak: float, is_rule: Callable[[str], bool]):
        self.topk = topk
        self.boosts = field_boosts
        self.tiebreak = tiebreak
        self.is_rule = is_rule
        self.weights: dict[int, float] = {}  # term id → largest weight it carries (reading order)
        self.phrases: list[PhraseCheck] = []
        self._defs: list[str] = []
        self._names = 0
        self.excludes = False  # a ``must_not`` was compiled
        self._trail: list[int] = []  # term ids in compilation order
        self.parts: dict[int, list[frozenset[int]]] = {}  # a Bool's (by id) ``should`` parts' term ids
        self._sets: list[frozenset[int]] = []  # the guards' term ids (``_guarded``)

    # generated code helpers
    def _name(self) -> str:
        self._names += 1
        return f"v{self._names}"

    def _expr(self, code: str, depth: int) -> tuple[str, int]:
        if depth <= MAX_DEPTH:
            return code, depth
        name = f"f{len(self._defs)}"
        self._defs.append(f"def {name}(i, g, k, d, ph):\n    return {code}\n")
        return f"{name}(i, g, k, d, ph)", 1

    def _max(self, parts: list[tuple[str, int]]) -> tuple[str, int]:
        depth = max(p[1] for p in parts) + 1
        if len(parts) == 1:
            return parts[0]
        codes = ", ".join(p[0] for p in parts)
        return self._expr(f"max({codes})" if not self.tiebreak else f"mp({self.tiebreak!r}, {codes})", depth)

    def _boosted(self, part: tuple[str, int], boost: float) -> tuple[str, int]:
        return part if boost == 1.0 else self._expr(f"({part[0]}) * {boost!r}", part[1] + 1)

    def _note(self, tid: int, weight: float) -> None:
        self.weights[tid] = max(self.weights.get(tid, 0.0), weight)
        self._trail.append(tid)

    def _guarded(self, part: tuple[str, int], since: int) -> tuple[str, int]:
        """``part`` evaluated only when the document holds one of its terms (noted since ``since``): a
        question's other words and their glossary equivalents cost one set test, not a dozen lookups."""
        name = f"s{len(self._sets)}"
        self._sets.append(frozenset(self._trail[since:]))
        return self._expr(f"({part[0]} if not k.isdisjoint({name}) else 0.0)", part[1] + 1)

    def function(self, expr: str) -> Scorer:
        """The scoring function of a compiled expression (``compile``'s result)."""
        source = "".join(self._defs) + f"def score(i, d, ph):\n    g, k = i.get, i.keys()\n    return {expr}\n"
        code = _COMPILED.get(source)
        if code is None:  # (a card's name filter, a repeated query: compiled once)
            code = compile(source, "<plan>", "exec")  # our own generated code: numbers only, no user text
            if len(_COMPILED) >= 256:
                _COMPILED.clear()
            _COMPILED[source] = code
        namespace: dict[str, Any] = {"mp": _max_plus_of, "pre": _prefix_sum}
        namespace.update((f"s{n}", tids) for n, tids in enumerate(self._sets))
        exec(code, namespace)
        scorer: Scorer = namespace["score"]
        return scorer

    def compile(self, node: Node, weight: float = 1.0, read: bool = True) -> tuple[str, int] | None:
        """An expression for ``node``; ``read``: its terms may bring a document into the walk (False below
        ``must_not`` and for filters of a query that has its own words)."""
        if isinstance(node, Alt):
            per_term: list[tuple[str, int]] = []
            for term in node.terms:
                leaves = []
                fields_ = list(node.fields) + (["rules"] if self.is_rule(term) and "rules" not in node.fields else [])
                for f in fields_:
                    tid = self.topk.tid(f, term)
                    if tid is not None:
                        boost = self.boosts.get(f, 1.0)
                        self._note(tid, weight * node.boost * boost if read else 0.0)
                        leaves.append(f"g({tid}, 0.0)" + (f" * {boost!r}" if boost != 1.0 else ""))
                if leaves:
                    per_term.append((" + ".join(leaves), 1))
            if not per_term:
                return None
            return self._boosted(self._max(per_term), node.boost)
        if isinstance(node, Phrase):
            per_field: list[tuple[str, int]] = []
            scale = node.boost / max(1, len(node.positions))
            for f in node.fields:
                tids: list[list[int]] = []
                words: list[list[str]] = []
                for position in node.positions:
                    present = [(t, tid) for t in position if (tid := self.topk.tid(f, t)) is not None]
                    if not present:
                        break
                    tids.append([tid for _, tid in present])
                    words.append([t for t, _ in present])
                else:
                    key = len(self.phrases)
                    self.phrases.append(PhraseCheck(key, f, tids, words))
                    boost = self.boosts.get(f, 1.0)
                    names, checks = [], []
                    for readings in tids:
                        for tid in readings:
                            self._note(tid, weight * scale * boost if read else 0.0)
                        name = self._name()
                        names.append(name)
                        values = ", ".join(f"g({tid}, 0.0)" for tid in readings)
                        if len(readings) == 1:
                            checks.append(f"({name} := {values})")
                        else:
                            checks.append(f"({name} := {'max' if not self.tiebreak else 'mp'}("
                                          f"{'' if not self.tiebreak else repr(self.tiebreak) + ', '}{values}))")
                    total = "(" + " + ".join(names) + ")" + (f" * {boost!r}" if boost != 1.0 else "")
                    per_field.append(("(" + " and ".join([*checks, f"ph({key}, d)", total]) + ")", 2))
            if not per_field:
                return None
            if len(per_field) == 1:  # whoosh's Require (one field) ignores the boost it is given
                scale = 1.0
            return self._boosted(self._max(per_field), scale)
        if isinstance(node, Prefix):
            # as whoosh runs it: the sum of the expanded terms' scores, at the field's boost when the prefix
            # expands to several terms (one term is searched as a plain Term, at boost 1)
            groups: list[str] = []
            for f in node.fields:
                expanded = self.topk.prefixed(f, node.prefix)
                if expanded:
                    boost = self.boosts.get(f, 1.0) if len(expanded) > 1 else 1.0
                    carried = weight * node.boost * boost if read else 0.0
                    for tid in expanded:
                        self._note(tid, carried)
                    scaled = f" * {boost!r}" if boost != 1.0 else ""
                    groups.append(f"pre(i, {expanded.start}, {expanded.stop}){scaled}")
            if not groups:
                return None
            return self._boosted(("(" + " + ".join(groups) + ")", 1), node.boost)
        if isinstance(node, AnyOf):
            since = len(self._trail)
            children = [c for c in (self.compile(c, weight * node.boost, read) for c in node.children) if c]
            if not children:
                return None
            return self._guarded(self._boosted(self._max(children), node.boost), since)
        if isinstance(node, Bool):
            must = [self.compile(c, weight * node.boost, read) for c in node.must]
            should, parts = [], []
            for child in node.should:
                since = len(self._trail)
                compiled = self.compile(child, weight * node.boost, read)
                if compiled:
                    should.append(compiled)
                    parts.append(frozenset(self._trail[since:]))
            self.parts[id(node)] = parts
            must_not = [c for c in (self.compile(c, 0.0, False) for c in node.must_not) if c]
            if any(m is None for m in must):
                return None
            if not must and not should:
                return None  # only exclusions: the caller walks every document (``every``)
            names = [self._name() for _ in must]
            depth = max(p[1] for p in [*must, *should, *must_not] if p is not None) + 1
            total = "(" + " + ".join([*names, *(f"({s[0]})" for s in should)]) + ")"
            chain = [f"({name} := {m[0]})" for name, m in zip(names, must, strict=True) if m is not None]
            code = "(" + " and ".join([*chain, total]) + ")" if chain else total
            if must_not:
                self.excludes = True
                kept = self._name()
                excluded = " or ".join(f"({n[0]})" for n in must_not)
                code = f"(({kept} := {code}) and (d < 0 or not ({excluded})) and {kept})"
            return self._boosted(self._expr(code, depth + 1), node.boost)
        raise TypeError(f"unknown plan node {node!r}")


    def groups(self, node: Node) -> list[set[int]] | None:
        """Sets of term ids such that every document matching ``node`` holds a term of each (``None``: nothing
        matches). A phrase needs a word of each position, a ``must`` each of its parts; alternatives need one
        of their cheapest sets. The documents worth scoring are then the intersection of a few lists' unions
        (``candidates``)."""
        if isinstance(node, Alt):
            found: set[int] = set()
            for term in node.terms:
                fields_ = list(node.fields) + (["rules"] if self.is_rule(term) and "rules" not in node.fields else [])
                found.update(t for f in fields_ if (t := self.topk.tid(f, term)) is not None)
            return [found] if found else None
        if isinstance(node, Phrase):
            positions: list[set[int]] = [set() for _ in node.positions]
            for f in node.fields:
                here = [{t for w in position if (t := self.topk.tid(f, w)) is not None} for position in node.positions]
                if all(here):
                    for mine, tids in zip(positions, here, strict=True):
                        mine.update(tids)
            return positions if all(positions) else None
        if isinstance(node, Prefix):
            found = {t for f in node.fields for t in self.topk.prefixed(f, node.prefix)}
            return [found] if found else None
        if isinstance(node, AnyOf | Bool) and not (isinstance(node, Bool) and node.must):
            children = node.children if isinstance(node, AnyOf) else node.should
            parts = [g for g in (self.groups(child) for child in children) if g]
            return [set().union(*(min(g, key=self.cost) for g in parts))] if parts else None
        if isinstance(node, Bool):
            musts = [self.groups(child) for child in node.must]
            if any(m is None for m in musts):
                return None
            return [g for m in musts if m is not None for g in m]
        raise TypeError(f"unknown plan node {node!r}")

    def cost(self, tids: Iterable[int]) -> int:
        """Postings in the lists of ``tids``."""
        return sum(self.topk.counts[t] for t in tids)


def _max_plus_of(tiebreak: float, *values: float) -> float:
    return _max_plus(list(values), tiebreak)


def _prefix_sum(impacts: dict[int, float], start: int, stop: int) -> float:
    return sum(v for t, v in impacts.items() if start <= t < stop)


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


Accept = Callable[[int], bool] | None  # the filters on a document's labels (None: every document)


class Walk:
    """Fagin's threshold algorithm over the impact lists of one compiled query."""

    def __init__(self, topk: TopK, scorer: Scorer, weights: dict[int, float], phrases: Phrases,
                 accept: Accept, excludes: bool = True, only: set[int] | None = None) -> None:
        self.topk, self.scorer, self.accept, self.phrases = topk, scorer, accept, phrases
        self.only = only  # the documents worth scoring (``candidates``), or None for any
        self.units: list[tuple[float, frozenset[int]]] = []  # see ``park``
        self.parked: frozenset[int] = frozenset()
        self.excludes = excludes  # the plan has exclusions (``must_not``), which the bound leaves out
        self.weights = weights
        self.pos = dict.fromkeys(weights, 0)
        self.chunk = dict.fromkeys(weights, FIRST_CHUNK)
        self.frontier: dict[int, float] = {tid: topk.impact_at(tid, 0) for tid in weights if topk.counts[tid]}
        self.next_doc = {tid: topk.doc_at(tid, 0) for tid in self.frontier}  # each list's next document
        self.tids = frozenset(weights)
        self.seen: set[int] = set()
        self.matched = 0
        self.heap: list[tuple[float, int]] = []  # the k best (score, -document), worst first

    def bound(self) -> float:
        """The best score a document not met yet could have: the plan at every list's next impact."""
        return self.scorer(self.frontier, -1, self.phrases)

    def lowest_unseen(self) -> int:
        """The lowest number a document not met yet could have if it scores exactly the bound: it then stands at
        the next impact of one of the lists, where equal impacts are ordered by number (ties among documents of
        one card or section are common, and the lower number ranks first)."""
        return min((self.next_doc[t] for t in self.frontier), default=self.topk.doc_count)

    def sums(self, units: list[tuple[float, frozenset[int]]]) -> None:
        """The plan is a sum of these parts (a natural question's words), each with its best possible score and
        its term ids: ``park`` may then stop reading the lists of the weakest (MaxScore)."""
        self.units = sorted(units, key=lambda u: u[0])
        self._cumulative = [0.0]
        for best, _ in self.units:
            self._cumulative.append(self._cumulative[-1] + best)
        self._parked_at: dict[int, frozenset[int]] = {0: frozenset()}

    def park(self) -> None:
        """MaxScore: once the k-th best score is above what the weakest parts could add up to, a document holding
        none of the other parts' terms cannot reach the k best, so their own lists need not be read any more (the
        documents holding a stronger part's term are found through its lists). The bound stays valid: no list is
        read past an unscored document."""
        theta = self.heap[0][0] * (1 - 1e-9)  # (the parts' sum is rounded otherwise than a document's score)
        m = bisect.bisect_left(self._cumulative, theta) - 1  # the weakest m parts add up to less than theta
        m = max(0, min(m, len(self.units) - 1))  # (the strongest part is always read)
        parked = self._parked_at.get(m)
        if parked is None:
            weak = frozenset().union(*(tids for _, tids in self.units[:m]))
            parked = self._parked_at[m] = weak.difference(*(tids for _, tids in self.units[m:]))
        self.parked = parked

    def step(self, k: int) -> bool:
        """Read one chunk from the list that could add the most; False when every list is read."""
        weights, frontier = self.weights, self.frontier
        if self.units and len(self.heap) >= k:
            self.park()
        parked = self.parked
        live = [tid for tid in frontier if weights[tid] > 0 and tid not in parked]
        if not live:
            return False
        tid = max(live, key=lambda t: (frontier[t] * weights[t], -t))
        start = self.pos[tid]
        size = self.chunk[tid]
        if SEEN_BUDGET:  # no chunk overshoots the budget by much
            size = max(FIRST_CHUNK, min(size, SEEN_BUDGET - len(self.seen)))
        ids, _ = self.topk.chunk(tid, start, start + size)
        self.pos[tid] = start + len(ids)
        self.chunk[tid] = min(MAX_CHUNK, self.chunk[tid] * 2)
        if self.pos[tid] >= self.topk.counts[tid]:
            del frontier[tid]
        else:
            frontier[tid] = self.topk.impact_at(tid, self.pos[tid])
            self.next_doc[tid] = self.topk.doc_at(tid, self.pos[tid])
        fresh = set(ids)
        if self.only is not None:
            fresh.intersection_update(self.only)
        fresh.difference_update(self.seen)
        self.seen.update(fresh)
        self.consider(fresh, k)
        return True

    def consider(self, docs: Iterable[int], k: int) -> None:
        """Score ``docs`` into the k best (in any order: ties are broken by document number, in the entries)."""
        scorer, tids, phrases, accept, heap = self.scorer, self.tids, self.phrases, self.accept, self.heap
        doc_off, ent_tid, ent_imp, left = self.topk.doc_off, self.topk.ent_tid, self.topk.ent_imp, bisect.bisect_left
        exact = not self.excludes
        for doc in docs:
            if accept is not None and not accept(doc):
                continue
            a, b = doc_off[doc], doc_off[doc + 1]
            # the query's terms among the document's (sorted: found by bisection), with their impacts
            found = {t: ent_imp[left(ent_tid, t, a, b)] for t in tids.intersection(ent_tid[a:b])}
            asked = phrases.asked
            value = scorer(found, doc, phrases) if exact and not phrases.checks else scorer(found, -1, phrases)
            if not value:
                continue
            self.matched += 1
            if not exact or phrases.asked != asked:
                # ``value`` assumed its phrases hold and left its exclusions out: an upper bound; the positions
                # are checked only for a document it would let into the k best
                if len(heap) >= k and (value, -doc) <= heap[0]:
                    continue
                value = scorer(found, doc, phrases)
                if not value:
                    continue
            entry = (value, -doc)
            if len(heap) < k:
                heapq.heappush(heap, entry)
            elif entry > heap[0]:
                heapq.heapreplace(heap, entry)

    def run(self, k: int) -> Found:
        """The threshold algorithm, until the bound or ``SEEN_BUDGET``."""
        while True:
            if len(self.heap) >= k and self.heap[0] > (self.bound(), -self.lowest_unseen()):
                break
            if (SEEN_BUDGET and len(self.seen) >= SEEN_BUDGET) or not self.step(k):
                break
        return self.found(k)

    def found(self, k: int) -> Found:
        longest = max((self.topk.counts[t] for t in self.weights if self.weights[t] > 0), default=0)
        best = [(s, -nd) for s, nd in sorted(self.heap, reverse=True)][:k]  # ties: the lower number first
        return Found(best, max(longest if self.only is None else 0, self.matched))

    def first(self, k: int) -> Found:
        """Filters alone (a constant score): the first ``k`` matching candidates by number, and a count of the
        matches among the first ``CONSTANT_SCAN`` (the total is then a lower bound)."""
        docs = sorted(self.only or ())
        for start in range(0, len(docs), k):
            self.consider(docs[start : start + k], k)
            if len(self.heap) >= k and start + k >= CONSTANT_SCAN:
                break
        return self.found(k)


def candidates(topk: TopK, groups: list[set[int]], cost: Callable[[Iterable[int]], int]) -> set[int] | None:
    """The documents holding a term of each group, when the groups' lists are short enough to read whole
    (``CANDIDATE_POSTINGS``); ``None`` otherwise."""
    ordered = sorted(groups, key=cost)
    if not ordered or cost(ordered[0]) > CANDIDATE_POSTINGS:
        return None
    work = 0
    found: set[int] | None = None
    for group in ordered:
        work += cost(group)
        if found is not None and (work > 2 * CANDIDATE_POSTINGS or not found):
            break
        union: set[int] = set()
        for tid in group:
            union.update(topk.chunk(tid, 0, topk.counts[tid])[0])
        if found is None:
            found = union
        else:
            found &= union
    return found


def every(topk: TopK, k: int, accept: Accept) -> Found:
    """Filters alone (kind, set, language): a constant score, the first ``k`` accepted documents by number, and a
    count of those among the first ``CONSTANT_SCAN`` documents once the page is full (a lower bound)."""
    found: list[tuple[float, int]] = []
    count = 0
    for doc in range(topk.doc_count):
        if len(found) >= k and doc >= CONSTANT_SCAN:
            break
        if accept is None or accept(doc):
            count += 1
            if len(found) < k:
                found.append((1.0, doc))
    return Found(found, count)


def acceptor(topk: TopK, filters: Any) -> Accept:
    """The label filters of ``engine.Filters`` as one test on a document number."""
    index = topk.codes
    wanted = []
    for which, values in ((0, filters.kinds), (1, filters.documents), (2, filters.langs)):
        if values:
            wanted.append((which, {index.get(v, -1) for v in values}))
    if not wanted:
        return None
    labels = topk.labels

    def accept(doc: int) -> bool:
        base = 3 * doc
        return all(labels[base + which] in codes for which, codes in wanted)

    return accept


def search(topk: TopK, plan: Node | None, filters: Any, k: int, compiler: Compiler) -> Found | None:
    """The ``k`` best documents for ``plan`` under ``filters`` (``engine.Filters``); ``None`` for a query made of
    exclusions only, which whoosh answers itself (every document but those)."""
    main = compiler.compile(plan) if plan is not None else None
    if plan is not None and main is None:
        if isinstance(plan, Bool) and plan.must_not and not plan.must and not plan.should:
            return None
        return Found([], 0)
    required: list[tuple[str, int]] = []
    for node in filters.nodes:
        expr = compiler.compile(node, 1.0 if main is None else 0.0, read=main is None)
        if expr is None:
            return Found([], 0)
        required.append(expr)
    accept = acceptor(topk, filters)
    if main is None and not required:
        return every(topk, k, accept)
    parts = [f"({r[0]})" for r in required] + [f"({main[0]})" if main is not None else "1.0"]
    scorer = compiler.function(parts[0] if len(parts) == 1 else "(" + " and ".join(parts) + ")")
    groups: list[set[int]] = []
    for node in ([plan] if plan is not None else []) + list(filters.nodes):
        found = compiler.groups(node)
        if found is None:
            return Found([], 0)
        groups += found
    # one group is what the walk reads anyway (and may stop early on): candidates only narrow an intersection
    only = candidates(topk, groups, compiler.cost) if len(groups) > 1 or main is None else None
    walk = Walk(topk, scorer, compiler.weights, Phrases(topk, compiler.phrases), accept, compiler.excludes, only)
    if only is not None and main is None:
        return walk.first(k)
    if only is not None and len(only) <= EXHAUSTIVE_LIMIT:
        walk.consider(only, k)  # every candidate scored: the exact top k
        return walk.found(k)
    if (isinstance(plan, Bool) and not plan.must and not plan.must_not and len(plan.should) > 1
            and not filters.nodes):  # a natural question: the sum of its words' scores
        # the whole plan at a part's best impacts: the part's best score (or more, when parts share a term)
        walk.sums([(scorer({t: topk.impact_at(t, 0) for t in tids}, -1, walk.phrases), tids)
                   for tids in compiler.parts[id(plan)]])
    return walk.run(k)
