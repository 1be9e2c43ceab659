"""The tantivy backend's shortcuts answer as its whole plan does: identical readings scored once, phrases
matched by their adjacent pairs, and (above ``EXACT_TOTAL_LIMIT`` entries only) a question's common words left
out of its scoring with the total reported as a lower bound.

Each shortcut is checked against the plain query it stands for, on a corpus generated from the bundled
documents' sentences (``scripts/bench_search.py``), so a shortcut that drops or adds a match shows up here.
"""

from __future__ import annotations

import itertools
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kb.search.analysis import analyze_spans
from kb.search.engine import Filters, get_engine
from kb.search.plan import WORD_FIELDS, Alt, AnyOf, Bool, Phrase

pytest.importorskip("tantivy")

from kb.search import tantivy_engine
from kb.search.tantivy_engine import Readings, TantivySearcher

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import bench_search  # noqa: E402

CORPUS = 500


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TantivySearcher, list[Any]]]:
    docs = list(bench_search.synthetic_corpus(CORPUS, random.Random(5)))
    directory = tmp_path_factory.mktemp("tantivy-plan")
    get_engine("tantivy").build(docs, directory)
    searcher = get_engine("tantivy").open(directory)
    assert isinstance(searcher, TantivySearcher)
    yield searcher, docs
    searcher.close()


def _matches(searcher: TantivySearcher, query: Any) -> set[int]:
    hits = searcher.searcher.search(query, CORPUS, count=False).hits
    return {address.doc for _, address in hits}


def _ranked(searcher: TantivySearcher, plan: Any) -> tuple[int, list[tuple[str, float]]]:
    page = searcher.search(plan, Filters(), 20)
    return page.total, [(hit.id, round(hit.score, 4)) for hit in page.hits]


# --- identical readings -----------------------------------------------------------------------------


def test_readings_that_always_stand_together_are_one() -> None:
    readings = Readings()
    for terms in (("поле", "поля", "поль"), ("пол", "поле", "поля", "поль"), ("поле", "поля", "поль")):
        readings.seen(terms)
    # «пол» stood with them once only; поле, поля, поль stood together everywhere
    assert readings.aliases() == {"поля": "поле", "поль": "поле"}
    readings.seen(("поля",))  # «поля» alone once: its postings now differ from «поле»'s
    assert readings.aliases() == {"поль": "поле"}


def test_every_alias_names_a_term_with_the_same_postings(built: tuple[TantivySearcher, list[Any]]) -> None:
    searcher, _ = built
    aliases = searcher.aliases["text"]
    assert len(aliases) > 20  # the corpus has ambiguous Russian words
    query = searcher.tantivy.Query
    for term, first in sorted(aliases.items())[:60]:
        one, other = query.term_query(searcher.schema, "text", term), query.term_query(searcher.schema, "text", first)
        assert _matches(searcher, one) == _matches(searcher, other), (term, first)
        best, other_best = (searcher.searcher.search(q, 1).hits[0][0] for q in (one, other))
        assert best == pytest.approx(other_best)


def test_scoring_each_reading_once_ranks_as_scoring_them_all(built: tuple[TantivySearcher, list[Any]]) -> None:
    searcher, docs = built
    words = [spans for doc in docs[:200] for spans in analyze_spans(doc.text) if len(spans[2]) > 2]
    assert words
    saved = searcher.aliases
    for _, _, terms in words[:40]:
        plan = Bool(should=(Alt(terms, WORD_FIELDS), Alt(("карта",), WORD_FIELDS)))
        with_aliases = _ranked(searcher, plan)
        searcher.aliases = {}
        try:
            assert _ranked(searcher, plan) == with_aliases, terms
        finally:
            searcher.aliases = saved


# --- phrases by their pairs -------------------------------------------------------------------------


def _phrases(docs: list[Any], rng: random.Random) -> Iterator[tuple[tuple[str, ...], ...]]:
    """Phrases of 2–4 positions: runs of adjacent positions from the texts (they match), and the same runs
    with a position moved or replaced by another text's word (they mostly do not)."""
    spans = [[terms for _, _, terms in analyze_spans(doc.text)] for doc in docs[:300]]
    for positions in spans:
        if len(positions) < 5:
            continue
        start, size = rng.randrange(len(positions) - 4), rng.randint(2, 4)
        run = tuple(positions[start : start + size])
        yield run
        yield (*run[1:], run[0])
        yield (*run[:-1], rng.choice(rng.choice(spans) or [("карта",)]))


def test_pairs_match_the_documents_a_positional_phrase_matches(built: tuple[TantivySearcher, list[Any]]) -> None:
    searcher, docs = built
    query = searcher.tantivy.Query
    checked = matched = 0
    for positions in _phrases(docs, random.Random(11)):
        present = [[t for t in position if searcher.has("text", t)] for position in positions]
        variants = list(itertools.product(*present))[: tantivy_engine.MAX_PHRASE_VARIANTS]
        by_positions = set().union(
            *(_matches(searcher, query.phrase_query(searcher.schema, "text", list(v))) for v in variants)
        )
        by_pairs = searcher._phrase_match("text", variants)
        assert (set() if by_pairs is None else _matches(searcher, by_pairs)) == by_positions, positions
        checked += 1
        matched += bool(by_positions)
    assert checked > 200 and matched > 100, (checked, matched)


def test_a_phrase_of_the_plan_ranks_as_with_positions(built: tuple[TantivySearcher, list[Any]],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    searcher, docs = built
    plans = [Bool(should=(Phrase(positions, ("text", "topic"), boost=2.0), Alt(("существо",), WORD_FIELDS)))
             for positions in itertools.islice(_phrases(docs, random.Random(3)), 90)]
    by_pairs = [_ranked(searcher, plan) for plan in plans]
    query = searcher.tantivy.Query

    def positional(self: TantivySearcher, field_name: str, variants: list[tuple[str, ...]]) -> Any:
        queries = [query.phrase_query(self.schema, field_name, list(v)) for v in variants]
        return query.const_score_query(self._should(queries), 0.0)

    monkeypatch.setattr(TantivySearcher, "_phrase_match", positional)
    searcher._phrases.clear()  # the phrases built by their pairs
    assert [_ranked(searcher, plan) for plan in plans] == by_pairs
    assert sum(bool(hits) for _, hits in by_pairs) > 30


# --- common words of a large index -------------------------------------------------------------------


def _common_and_rare(searcher: TantivySearcher) -> tuple[str, str]:
    """A word in many texts and no topic (so a cap on the texts leaves it out everywhere), and a rare one."""
    common = next(t for t in ("существо", "способность", "карта") if not searcher.df("topic", t))
    rare = next(t for t in ("упорство", "мироходец", "увядание", "заговор") if 0 < searcher.df("text", t) < 40)
    return common, rare


def test_a_large_index_leaves_a_questions_common_words_out(built: tuple[TantivySearcher, list[Any]],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    searcher, _ = built
    common, rare = _common_and_rare(searcher)
    share = searcher.df("text", common) / CORPUS
    assert share > 0.1, share
    question = Bool(should=(Alt((rare,), WORD_FIELDS), AnyOf((Alt((common,), WORD_FIELDS),))))
    rare_total, rare_only = _ranked(searcher, Alt((rare,), WORD_FIELDS))
    whole_total, _ = _ranked(searcher, question)
    assert whole_total > rare_total
    monkeypatch.setattr(searcher, "large", True)
    monkeypatch.setattr(tantivy_engine, "COMMON_TERM_FRACTION", share / 2)
    for _ in range(2):  # the second time, the words' queries come from the searcher's cache (``_alts``)
        page = searcher.search(question, Filters(), 20)
        # the common word neither matches nor scores: the rare word's ranking, and a total that is a lower bound
        assert [(hit.id, round(hit.score, 4)) for hit in page.hits] == rare_only
        assert page.exact is False
        assert page.total == max(rare_total, *(searcher.df(f, common) for f in WORD_FIELDS))


def test_a_required_or_lone_common_word_always_counts(built: tuple[TantivySearcher, list[Any]],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    searcher, _ = built
    common, rare = _common_and_rare(searcher)
    assert searcher.df("text", "карта") > 5 * searcher.df("topic", "карта") > 0  # a cap could keep its topics only
    required = Bool(must=(Alt(("карта",), WORD_FIELDS),), should=(Alt((rare,), WORD_FIELDS),))
    alone = Bool(should=(Alt((common,), WORD_FIELDS), Alt(("существо", "карта"), WORD_FIELDS)))
    before = [_ranked(searcher, plan) for plan in (required, alone)]
    monkeypatch.setattr(searcher, "large", True)
    for share, plan, expected in ((0.1, required, before[0]), (0.01, alone, before[1])):
        # 0.1: «карта» is common in the texts, not in the topics; 0.01: every word of ``alone`` is common
        monkeypatch.setattr(tantivy_engine, "COMMON_TERM_FRACTION", share)
        assert _ranked(searcher, plan) == expected
        assert searcher.search(plan, Filters(), 20).exact
