"""The development query set against the bundled knowledge base: a regression guard on relevance.

The thresholds sit a little below the figures ``scripts/bench_relevance.py`` reports, so a change that
costs relevance fails here; the benchmark script is where the exact figures are read.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kb import paths, store
from kb.search import glossary as glossary_mod
from kb.search import relevance
from kb.search.documents import index_documents
from kb.search.index import _mechanic_names
from kb.search.service import SearchRequest, open_session
from kb.store import KnowledgeBase


@pytest.fixture
def seed_dir(build_dir: Path, seed_kb: KnowledgeBase) -> Path:
    build_dir.mkdir(parents=True, exist_ok=True)
    store.save(seed_kb, build_dir / "kb.sqlite")
    return build_dir


HOLDOUT = relevance.DEV_SET.with_name("holdout_queries.json")


def test_dev_set_is_large_and_points_at_real_entries(seed_kb: KnowledgeBase) -> None:
    queries = relevance.load_dev_set()
    assert len(queries) >= 40
    queries += relevance.load_dev_set(HOLDOUT)
    missing = [(q.query, r) for q in queries for r in q.relevant if seed_kb.get(r) is None]
    assert missing == []


def test_relevance_on_dev_set_beats_baselines(seed_dir: Path, tmp_path: Path) -> None:
    queries = relevance.load_dev_set()
    session = open_session()
    try:
        ours = relevance.evaluate(
            "ours", lambda q: [r.id for r in session.search(SearchRequest(q, limit=10)).results], queries
        )
    finally:
        session.close()
    docs = list(
        index_documents(
            store.load(paths.kb_path()),
            glossary_mod.card_name_pairs(paths.glossary_dir()),
            _mechanic_names(paths.glossary_dir()),
        )
    )
    snowball = relevance.BaselineIndex(tmp_path / "snowball", relevance.snowball_ru_analyzer(), docs)
    try:
        base = relevance.evaluate("snowball", snowball.rank, queries)
    finally:
        snowball.close()
    assert ours.recall_at_5 >= 0.9, ours
    assert ours.mrr >= 0.8, ours
    assert ours.mrr > base.mrr + 0.05 and ours.recall_at_5 >= base.recall_at_5
