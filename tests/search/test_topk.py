"""The large-index walk (``whoosh_topk``) finds the plan's true top k, and ranks as whoosh's own plan does.

A corpus of 600 entries generated from the bundled documents' sentences (``scripts/bench_search.py``) is
indexed with ``EXACT_TOTAL_LIMIT`` lowered below it, so the index carries the impact lists. For words,
phrases, prefixes, operators and filters, the walk's top 20 must equal a brute-force scoring of every
document by the same plan (phrases checked by whoosh's ``Sequence`` over the whole index), and its top
hits must be whoosh's own (the small-index plan run on the same index).
"""

from __future__ import annotations

import heapq
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kb.search import whoosh_engine, whoosh_topk
from kb.search.analysis import tokenize
from kb.search.engine import Filters
from kb.search.query import compile_query, name_filter
from kb.search.relevance import load_dev_set
from kb.search.service import SearchSession

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import bench_search  # noqa: E402

CORPUS = 600
LOWERED_LIMIT = 200


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[SearchSession, list[str]]]:
    saved, saved_topk = whoosh_engine.EXACT_TOTAL_LIMIT, whoosh_engine.TOPK_LIMIT
    whoosh_engine.EXACT_TOTAL_LIMIT = whoosh_engine.TOPK_LIMIT = LOWERED_LIMIT
    try:
        docs = list(bench_search.synthetic_corpus(CORPUS, random.Random(21)))
        directory = tmp_path_factory.mktemp("topk") / "whoosh"
        whoosh_engine.WhooshEngine().build(docs, directory)
        opened = bench_search.open_ours(directory, "whoosh")
        assert isinstance(opened, SearchSession)
        assert opened.searcher.topk is not None  # type: ignore[attr-defined]
        words = sorted({t.surface for d in docs[:300] for t in tokenize(d.text) if t.kind == "word" and not t.stop})
        yield opened, words
        opened.close()
    finally:
        whoosh_engine.EXACT_TOTAL_LIMIT, whoosh_engine.TOPK_LIMIT = saved, saved_topk


def _queries(words: list[str], count: int = 60) -> list[str]:
    rng = random.Random(5)
    out = []
    for i in range(count):
        picked = rng.sample(words, rng.randint(1, 4))
        shape = i % 5
        if shape == 1:
            out.append('"' + " ".join(picked[:2]) + '"')
        elif shape == 2:
            out.append(picked[0][: max(3, len(picked[0]) - 2)] + "* " + " ".join(picked[1:]))
        elif shape == 3:
            out.append(" AND ".join(picked[:2]) + (" -" + picked[2] if len(picked) > 2 else ""))
        else:
            out.append(" ".join(picked))
    return [*out, "мироходец атаковать", "упорство жетон -1/-1", '"поле битвы"', "{Q}", "702.36 правило",
            'существо -"поле битвы"', 'карта AND -"рубашкой вверх"', 'NOT "поле битвы" жетон']


def _brute(searcher: Any, plan: Any, filters: Filters, k: int) -> list[tuple[float, int]]:
    """Every document scored by the compiled plan from all its terms, phrases checked by whoosh's ``Sequence``."""
    topk = searcher.topk
    compiler = whoosh_topk.Compiler(topk, whoosh_engine.FIELD_BOOSTS, whoosh_engine.WHOOSH_TIEBREAK,
                                    whoosh_engine._is_rule)
    main = compiler.compile(plan) if plan is not None else None
    if plan is not None and main is None:
        return []
    required = [compiler.compile(n, 1.0, read=False) for n in filters.nodes]
    if any(r is None for r in required):
        return []
    holding = {p.key: set(searcher.searcher.docs_for_query(p.query())) for p in compiler.phrases}

    def oracle(key: int, doc: int) -> bool:
        return doc in holding[key]

    scorers = [compiler.function(r[0]) for r in required if r is not None]
    main_scorer = compiler.function(main[0]) if main is not None else None
    scored = []
    for doc in range(topk.doc_count):
        if filters.kinds and topk.label(doc, 0) not in filters.kinds:
            continue
        impacts = topk.terms(doc)
        if any(not r(impacts, doc, oracle) for r in scorers):
            continue
        value = main_scorer(impacts, doc, oracle) if main_scorer is not None else 1.0
        if value:
            scored.append((-value, doc))
    return [(-s, d) for s, d in heapq.nsmallest(k, scored)]


@pytest.mark.parametrize("strategy", ["as configured", "walk among candidates", "walk alone"])
def test_the_walk_finds_the_plans_true_top_k(session: tuple[SearchSession, list[str]],
                                              monkeypatch: pytest.MonkeyPatch, strategy: str) -> None:
    monkeypatch.setattr(whoosh_topk, "SEEN_BUDGET", 0)  # unbounded: the walk must then be exact
    if strategy == "walk among candidates":  # candidates found, but too many to score them all
        monkeypatch.setattr(whoosh_topk, "EXHAUSTIVE_LIMIT", 0)
    elif strategy == "walk alone":  # no list short enough to find the candidates by
        monkeypatch.setattr(whoosh_topk, "CANDIDATE_POSTINGS", 0)
    opened, words = session
    searcher: Any = opened.searcher
    checked = 0
    named = [d.cards for d in bench_search.synthetic_corpus(CORPUS, random.Random(21))][:3]
    card = name_filter(named[0], "cards", opened.glossary, searcher)
    mechanic = name_filter("Упорство", "topic", opened.glossary, searcher)
    assert card is not None and mechanic is not None
    cases = [(compile_query(text, opened.glossary, searcher).plan, filters) for text in _queries(words)
             for filters in (Filters(), Filters(kinds=("ruling",)), Filters(nodes=(card,)))]
    # filters alone (a named card's entries, ``--mechanic``): their cover's lists read whole, or the walk
    cases += [(None, Filters(nodes=(card,))), (None, Filters(kinds=("card",), nodes=(card,))),
              (None, Filters(nodes=(mechanic,))), (None, Filters(kinds=("note",), nodes=(mechanic, card))),
              (None, Filters(kinds=("note",)))]
    filtered = 0
    for plan, filters in cases:
        compiler = whoosh_topk.Compiler(searcher.topk, whoosh_engine.FIELD_BOOSTS,
                                        whoosh_engine.WHOOSH_TIEBREAK, whoosh_engine._is_rule)
        found = whoosh_topk.search(searcher.topk, plan, filters, 20, compiler)
        if found is None:  # exclusions only: whoosh answers those itself
            continue
        expected = _brute(searcher, plan, filters, 20)
        assert [d for _, d in found.docs] == [d for _, d in expected], plan
        assert [s for s, _ in found.docs] == pytest.approx([s for s, _ in expected], rel=1e-9), plan
        checked += 1
        filtered += bool(filters.nodes and expected)
    assert checked >= 150
    assert filtered >= 5  # the card and mechanic filters match something


@pytest.mark.parametrize("budget", [whoosh_topk.SEEN_BUDGET, CORPUS // 6])
def test_the_walk_ranks_as_whooshs_own_plan(session: tuple[SearchSession, list[str]],
                                            monkeypatch: pytest.MonkeyPatch, budget: int) -> None:
    """Against whoosh's exhaustive plan: with the budget as configured (above this corpus: the walk ends on its
    bound alone), and with a budget of a sixth of the corpus, so that the walk stops early as it does at
    100 000 entries, for the generated queries and the development set's questions."""
    monkeypatch.setattr(whoosh_topk, "SEEN_BUDGET", budget)
    opened, words = session
    searcher: Any = opened.searcher
    same_first, overlap, counted = 0, 0.0, 0
    # whoosh scores a prefix by its terms' BM25 on large indexes but at a constant under 5 000 documents (its
    # unscored array union): the walk follows the former, so prefixes are left out at this size
    questions = [q.query for q in load_dev_set()]
    for text in [t for t in _queries(words) if "*" not in t] + questions:
        plan = compile_query(text, opened.glossary, searcher).plan
        walk = [h.id for h in searcher.search(plan, Filters(), 10).hits]
        with monkeypatch.context() as patched:  # whoosh's own plan, as on an index under the limit
            patched.setattr(whoosh_engine, "EXACT_TOTAL_LIMIT", 10 * CORPUS)
            patched.setattr(searcher, "fast", False)
            patched.setattr(searcher, "topk", None)
            own = [h.id for h in searcher.search(plan, Filters(), 10).hits]
        if own:
            counted += 1
            same_first += walk[:1] == own[:1]
            overlap += len(set(walk) & set(own)) / len(own)
    assert counted >= 200
    assert same_first / counted >= 0.95, same_first / counted
    assert overlap / counted >= 0.95, overlap / counted


def test_typo_candidates_are_whooshs(session: tuple[SearchSession, list[str]]) -> None:
    """The lexicon scan that replaces whoosh's Levenshtein automaton finds the same words one edit away."""
    opened, words = session
    searcher: Any = opened.searcher
    rng = random.Random(8)
    compared = found = 0
    for word in rng.sample([w.lower() for w in words if len(w) >= 4], 60):
        i = rng.randrange(1, len(word))
        for typo in (word, word[:i] + word[i + 1 :], word[:i] + "о" + word[i:], word[:i] + "а" + word[i + 1 :]):
            for f in ("text", "topic", "cards"):
                theirs = {(c, searcher.reader.doc_frequency(f, c)) for c in searcher.reader.terms_within(f, typo, 1, 1)
                          if c != typo}
                ours = set(searcher.topk.within_one_edit(f, typo))
                assert ours == theirs, (f, typo)
                compared += 1
                found += bool(ours)
    assert compared >= 600 and found >= 100


def test_a_deeply_nested_query_is_scored_like_any_other(session: tuple[SearchSession, list[str]]) -> None:
    """Each plan level nests the generated scorer's parentheses: deep plans are split into helper functions, so a
    hundred nested groups compile (Python's parser stops at 200 parentheses) and still score exactly."""
    opened, words = session
    searcher: Any = opened.searcher
    text = " (".join(words[:100]) + ")" * 99
    plan = compile_query(text, opened.glossary, searcher).plan
    compiler = whoosh_topk.Compiler(searcher.topk, whoosh_engine.FIELD_BOOSTS, whoosh_engine.WHOOSH_TIEBREAK,
                                    whoosh_engine._is_rule)
    found = whoosh_topk.search(searcher.topk, plan, Filters(), 20, compiler)
    assert found is not None and found.docs
    assert len(compiler._defs) >= 3  # split into helpers
    expected = _brute(searcher, plan, Filters(), 20)
    assert [d for _, d in found.docs] == [d for _, d in expected]


def test_kb_search_says_the_walks_total_is_a_lower_bound(session: tuple[SearchSession, list[str]]) -> None:
    """The walk's total is a lower bound (``Page.exact`` False): ``kb search`` must not print it as a count."""
    from kb.commands.search_run import _lines
    from kb.i18n import t
    from kb.search.service import SearchRequest

    opened, _ = session
    response = opened.search(SearchRequest("существо карта", limit=3))
    assert response.results and not response.total_exact

    def printed() -> list[str]:
        return ["".join(text for text, _ in parts) for kind, parts in _lines(response) if kind == "line"]

    shown = len(response.results)
    assert t("search.found_at_least", total=response.total, query="существо карта", shown=shown) in printed()
    response.total_exact = True  # a counted total keeps the plain wording
    assert t("search.found", total=response.total, query="существо карта", shown=shown) in printed()
