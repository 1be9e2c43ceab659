"""The tantivy backend's flattened plan ranks exactly as the plan compiled node by node.

``TantivySearcher.compile`` folds boosts into the leaf terms and splices sums into sums and maxima into
maxima, so a natural question is one union of term scorers (``tantivy_engine.Flat``); ``nested`` builds the
plan one tantivy query per node, as before. On a generated corpus of 600 entries, with the size limits
lowered below it (so the large-index behaviour is on: common glossary phrases dropped, totals not counted),
words, phrases, prefixes, operators, exclusions and filters must give the same top 20 with the same scores
(up to the order float32 additions are done in), and the uncounted total must be a true lower bound.

Skipped when tantivy (the optional extra ``.[tantivy]``) is not installed.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kb.search.analysis import tokenize
from kb.search.engine import Filters
from kb.search.query import compile_query, name_filter
from kb.search.relevance import load_dev_set
from kb.search.service import SearchSession

pytest.importorskip("tantivy")

from kb.search import tantivy_engine  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import bench_search  # noqa: E402

CORPUS = 600
LOWERED_LIMIT = 200
REL = 1e-5  # float32 sums in another order


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[SearchSession, list[str]]]:
    saved = tantivy_engine.EXACT_TOTAL_LIMIT, tantivy_engine.COUNT_LIMIT
    tantivy_engine.EXACT_TOTAL_LIMIT = tantivy_engine.COUNT_LIMIT = LOWERED_LIMIT
    try:
        docs = list(bench_search.synthetic_corpus(CORPUS, random.Random(21)))
        directory = tmp_path_factory.mktemp("tantivy-flat") / "tantivy"
        tantivy_engine.TantivyEngine().build(docs, directory)
        opened = bench_search.open_ours(directory, "tantivy")
        assert isinstance(opened, SearchSession)
        searcher: Any = opened.searcher
        assert searcher.large and not searcher.counted
        words = sorted({t.surface for d in docs[:300] for t in tokenize(d.text) if t.kind == "word" and not t.stop})
        yield opened, words
        opened.close()
    finally:
        tantivy_engine.EXACT_TOTAL_LIMIT, tantivy_engine.COUNT_LIMIT = saved


def _queries(words: list[str], count: int = 80) -> list[str]:
    rng = random.Random(5)
    out = []
    for i in range(count):
        picked = rng.sample(words, rng.randint(1, 4))
        shape = i % 5
        if shape == 1:
            out.append('"' + " ".join(picked[:2]) + '"' + (" " + picked[2] if len(picked) > 2 else ""))
        elif shape == 2:
            out.append(picked[0][: max(3, len(picked[0]) - 2)] + "* " + " ".join(picked[1:]))
        elif shape == 3:
            out.append(" AND ".join(picked[:2]) + (" -" + picked[2] if len(picked) > 2 else ""))
        else:
            out.append(" ".join(picked))
    return [*out, "мироходец атаковать", "упорство жетон -1/-1", '"поле битвы"', "{Q}", "702.36 правило",
            'существо -"поле битвы"', 'NOT "поле битвы" жетон', "упорст* существо (карта OR жетон)"]


def _top(searcher: Any, plan: Any, filters: Filters, nested: bool) -> list[tuple[str, float]]:
    if nested:
        searcher.compile = searcher.nested  # the reference: every node its own tantivy query
    try:
        return [(h.id, h.score) for h in searcher.search(plan, filters, 20).hits]
    finally:
        searcher.__dict__.pop("compile", None)


def _same(flat: list[tuple[str, float]], nested: list[tuple[str, float]]) -> bool:
    """The same hits with the same scores; two hits may trade places only when their scores are equal."""
    if len(flat) != len(nested):
        return False
    if any(a[1] != pytest.approx(b[1], rel=REL) for a, b in zip(flat, nested, strict=True)):
        return False
    for (a_id, a_score), (b_id, _) in zip(flat, nested, strict=True):
        if a_id != b_id:
            ties = {i for i, s in nested if s == pytest.approx(a_score, rel=REL)}
            if a_id not in ties or b_id not in {i for i, s in flat if s == pytest.approx(a_score, rel=REL)}:
                return False
    return {i for i, _ in flat} == {i for i, _ in nested} or flat[-1][1] == pytest.approx(nested[-1][1], rel=REL)


def _cases(opened: SearchSession, words: list[str]) -> list[tuple[Any, Filters]]:
    searcher: Any = opened.searcher
    named = [d.cards for d in bench_search.synthetic_corpus(CORPUS, random.Random(21))][:3]
    card = name_filter(named[0], "cards", opened.glossary, searcher)
    mechanic = name_filter("Упорство", "topic", opened.glossary, searcher)
    assert card is not None and mechanic is not None
    texts = _queries(words) + [q.query for q in load_dev_set()][:60]
    cases = [(compile_query(text, opened.glossary, searcher).plan, filters) for text in texts
             for filters in (Filters(), Filters(kinds=("ruling",)), Filters(nodes=(card,)))]
    return [*cases, (None, Filters(nodes=(card,))), (None, Filters(nodes=(mechanic,)))]


def test_the_flat_plan_ranks_as_the_nested_plan(session: tuple[SearchSession, list[str]]) -> None:
    opened, words = session
    searcher: Any = opened.searcher
    checked = flattened = 0
    for plan, filters in _cases(opened, words):
        flat = _top(searcher, plan, filters, nested=False)
        nested = _top(searcher, plan, filters, nested=True)
        assert _same(flat, nested), (plan, filters, flat[:5], nested[:5])
        checked += bool(nested)
        if plan is not None and (shape := searcher.flat(plan)) is not None:
            flattened += shape[0] == "sum" and any(p[0] == "t" for p in shape[1])
    assert checked >= 250
    assert flattened >= 50  # questions really became one union with plain terms in it


def test_an_uncounted_total_is_a_lower_bound(session: tuple[SearchSession, list[str]]) -> None:
    opened, words = session
    searcher: Any = opened.searcher
    compared = above_page = 0
    for plan, filters in _cases(opened, words)[:120]:
        page = searcher.search(plan, filters, 10)
        assert not page.exact or (page.total == 0 and not page.hits)  # nothing to match: an exact 0
        query = searcher.compile(plan) if plan is not None else None
        if query is None or filters != Filters():
            continue
        counted = searcher.searcher.search(query, 1, count=True).count
        assert len(page.hits) <= page.total <= counted, plan
        compared += 1
        above_page += page.total > 20
    assert compared >= 30 and above_page >= 10  # the bound says more than the page's length


def test_kb_search_says_an_uncounted_total_is_a_lower_bound(session: tuple[SearchSession, list[str]]) -> None:
    from kb.commands.search_run import _lines
    from kb.i18n import t
    from kb.search.service import SearchRequest

    opened, _ = session
    response = opened.search(SearchRequest("существо карта", limit=3))
    assert response.results and not response.total_exact
    lines = ["".join(text for text, _ in parts) for kind, parts in _lines(response) if kind == "line"]
    expected = t("search.found_at_least", total=response.total, query="существо карта", shown=len(response.results))
    assert expected in lines, lines
    response.total_exact = True  # a counted total keeps the plain wording
    lines = ["".join(text for text, _ in parts) for kind, parts in _lines(response) if kind == "line"]
    assert t("search.found", total=response.total, query="существо карта", shown=len(response.results)) in lines
