"""The fast post-processing of a search answers exactly as the obvious one: same ids, order, scores,
highlights, snippets, totals and notices.

``kb search`` reads each hit's stored analysis instead of analysing its text, looks a term's spans up in
it by string search, reads the stored context terms, stops the confidence check at the first hit that
clears the floor and stops collecting distinct texts once the page is full. Each shortcut is replaced
here by its reference: the definition it must agree with (analyse the text again, take the union of
its terms, examine every hit, dedupe every text), written the slow, plain way below, and the whole
response of both is compared for the development and holdout questions and for phrases, prefixes,
operators, filters and typos, on both backends, over the bundled knowledge base.

Why not a golden file: the rankings change with every new document, glossary line or verdict, and a
golden file regenerated with them proves nothing; an oracle in the test keeps proving the shortcuts.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Set
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kb import store
from kb.search import card_first, confidence, relevance, service
from kb.search import index as index_mod
from kb.search.analysis import analyze_spans, tokenize
from kb.search.engine import Hit
from kb.search.highlight import snippet
from kb.search.plan import Bool, Node, positive_terms
from kb.search.service import SearchRequest, SearchSession
from kb.store import KnowledgeBase

HOLDOUT = relevance.DEV_SET.with_name("holdout_queries.json")
OTHER = relevance.DEV_SET.with_name("out_of_corpus_queries.json")
EXTRA: list[tuple[str, dict[str, Any]]] = [
    ('"жетон -1/-1"', {}), ('"возвращается на поле битвы"', {}), ("упорст*", {"kind": "ruling"}),
    ("эффе*", {}), ("мироходец", {"set": "LRW"}), ("мироходец -атаковать", {}), ("упорство AND кладбище", {}),
    ("{Q}", {}), ("702.36", {}), ("702.36d", {}), ("conspire copy", {"lang": "en"}), ("", {"card": "Murderous Redcap"}),
    ("", {"mechanic": "упорство"}), ("мироходиц атакует", {}), ("перевертышь", {}), ("Murderous Redcap", {}),
    ("Кровожадный Красный Колпак вернуть", {}), ("жетон", {"limit": 30}), ("существо", {"limit": 3}),
    ("как работает мутация на токене", {}), ("упорство", {"current": True}),
]


def _reference_terms(text: str) -> frozenset[str]:
    return frozenset(t for _, _, alternatives in analyze_spans(text, "index") for t in alternatives)


def _reference_spans(text: str, terms: Set[str], prefixes: Set[str] = frozenset()) -> list[tuple[int, int]]:
    starts = tuple(prefixes)
    return [(s, e) for s, e, alternatives in analyze_spans(text, "index")
            if not terms.isdisjoint(alternatives) or (starts and any(t.startswith(starts) for t in alternatives))]


def _reference_answered(plan: Node | None, hits: list[Hit], index: Any, off_topic: bool = False) -> bool:
    if not isinstance(plan, Bool) or plan.must or plan.must_not or len(plan.should) < 2 or not hits:
        return True
    total = max(1, index.doc_count())
    units = [positive_terms(unit)[0] for unit in plan.should]
    weights = [math.log(1 + total / (1 + max((index.frequency(t) for t in terms), default=0))) for terms in units]
    best = 0.0
    for hit in hits[: confidence.DEPTH]:
        present = _reference_terms(hit.text) | confidence.context_terms(confidence.context_of(hit.extra))
        best = max(best, sum(w for terms, w in zip(units, weights, strict=True) if terms & present) / sum(weights))
    return best >= (confidence.UNKNOWN_WORD_FLOOR if off_topic else confidence.COVERAGE_FLOOR)


def _reference_distinct(hits: list[Hit], limit: int | None = None) -> list[Hit]:
    seen: set[tuple[str, str]] = set()
    kept = []
    for hit in hits:
        key = (hit.kind, " ".join(hit.text.split()))
        if key not in seen:
            seen.add(key)
            kept.append(hit)
    return kept[:limit]


def _reference_snippet(text: str, spans: list[tuple[int, int]], width: int = 320) -> tuple[str, list[tuple[int, int]]]:
    """The window with the most spans, each candidate's spans counted one by one; the rest is ``snippet``'s."""
    if len(text) <= width:
        return text, spans
    best_start, best_count = 0, -1
    for start, _ in spans or [(0, 0)]:
        window_start = max(0, start - width // 4)
        count = sum(1 for s, e in spans if s >= window_start and e <= window_start + width)
        if count > best_count:
            best_start, best_count = window_start, count
    if best_start > 0:
        space = text.rfind(" ", 0, best_start)
        best_start = space + 1 if space != -1 and best_start - space < 30 else best_start
    end = min(len(text), best_start + width)
    if end < len(text):
        space = text.rfind(" ", best_start, end)
        end = space if space > best_start + width // 2 else end
    prefix, suffix = "…" if best_start > 0 else "", "…" if end < len(text) else ""
    shift = len(prefix) - best_start
    return prefix + text[best_start:end] + suffix, [(s + shift, e + shift) for s, e in spans
                                                   if s >= best_start and e <= end]


def _reference_rule_numbers(query: str) -> list[str]:
    tokens = [tok for tok in tokenize(query) if not tok.stop]
    return [] if not tokens or any(tok.kind != "rule" for tok in tokens) else [tok.surface.lower() for tok in tokens]


def _answers(session: SearchSession, queries: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    out = []
    for query, options in queries:
        response = session.search(SearchRequest(query, **options))
        data = response.to_json()
        data["results"] = [(r.id, r.score, r.highlights, r.snippet, r.snippet_highlights, r.to_json())
                           for r in response.results]  # the exact scores, not only the rounded ones
        out.append(data)
    return out


@pytest.fixture(params=["whoosh", "tantivy"])
def bundled(request: pytest.FixtureRequest, build_dir: Path, seed_kb: KnowledgeBase) -> Iterator[SearchSession]:
    if request.param == "tantivy":
        pytest.importorskip("tantivy")
    build_dir.mkdir(parents=True, exist_ok=True)
    store.save(seed_kb, build_dir / "kb.json")
    session = SearchSession(index_mod.ensure_index(backend=request.param))
    session._verdicts = {}  # verdicts are not what is compared (and would play every scenario)
    yield session
    session.close()


def test_the_fast_path_answers_as_the_reference(bundled: SearchSession, monkeypatch: pytest.MonkeyPatch) -> None:
    queries = [(q.query, {}) for q in relevance.load_dev_set() + relevance.load_dev_set(HOLDOUT)]
    queries += [(q, {}) for q in _out_of_corpus()] + EXTRA
    fast = _answers(bundled, queries)
    for module, name, reference in (
        (service, "match_spans", _reference_spans), (service, "text_terms", _reference_terms),
        (service, "answered", _reference_answered), (service, "distinct_texts", _reference_distinct),
        (service, "rule_numbers", _reference_rule_numbers), (card_first, "rule_numbers", _reference_rule_numbers),
        (service, "snippet", _reference_snippet),
    ):
        monkeypatch.setattr(module, name, reference)
    slow = _answers(bundled, queries)
    assert len(fast) == len(queries)
    for (query, options), mine, theirs in zip(queries, fast, slow, strict=True):
        assert mine == theirs, (query, options)
    shown = sum(len(a["results"]) for a in fast)
    assert shown > 5 * len(queries)  # the comparison is over real pages, not empty answers
    assert any(not a["relevant"] for a in fast)  # and over "nothing relevant" answers
    assert any(r[2] for a in fast for r in a["results"])  # and over real highlights


def _out_of_corpus() -> list[str]:
    import json

    return [item["query"] if isinstance(item, dict) else str(item) for item in json.loads(OTHER.read_text("utf-8"))]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(length=st.integers(100, 1500), picks=st.lists(st.tuples(st.integers(0, 1500), st.integers(1, 12)), max_size=80),
       shuffled=st.booleans(), width=st.sampled_from([80, 320]))
def test_snippet_windows_as_counted_one_by_one(length: int, picks: list[tuple[int, int]], shuffled: bool,
                                               width: int) -> None:
    text = "".join("слово " if i % 3 else "ab " for i in range(length // 4 + 1))[:length]
    spans = sorted({(min(s, length - 1), min(length, s + n)) for s, n in picks})
    if shuffled:  # not a text's spans in order: the slow count must give the same window
        spans.reverse()
    assert snippet(text, spans, width) == _reference_snippet(text, spans, width)
