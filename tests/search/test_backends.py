"""The tantivy backend ranks as whoosh does: same analysis, same plan, the same BM25 idf and field weights.

Skipped when tantivy (the optional extra ``.[tantivy]``) is not installed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kb import store
from kb.search import index as index_mod
from kb.search import relevance
from kb.search.service import SearchRequest, SearchSession
from kb.store import KnowledgeBase

pytest.importorskip("tantivy")

HOLDOUT = relevance.DEV_SET.with_name("holdout_queries.json")


def _ranked(backend: str, queries: list[str]) -> dict[str, list[str]]:
    session = SearchSession(index_mod.ensure_index(backend=backend))
    try:
        assert session.state.meta["engine"] == backend
        return {q: [r.id for r in session.search(SearchRequest(q, limit=5)).results] for q in queries}
    finally:
        session.close()


def test_both_backends_give_the_same_top_results(build_dir: Path, seed_kb: KnowledgeBase) -> None:
    build_dir.mkdir(parents=True, exist_ok=True)
    store.save(seed_kb, build_dir / "kb.json")
    queries = [q.query for q in relevance.load_dev_set() + relevance.load_dev_set(HOLDOUT)]
    whoosh = _ranked("whoosh", queries)
    tantivy = _ranked("tantivy", queries)
    same_first = sum(whoosh[q][:1] == tantivy[q][:1] for q in queries) / len(queries)
    overlap = sum(len(set(whoosh[q]) & set(tantivy[q])) / max(1, len(whoosh[q])) for q in queries) / len(queries)
    assert same_first >= 0.9, same_first
    assert overlap >= 0.85, overlap
    totals = [q for q in queries[:20] if whoosh[q] and not tantivy[q]]
    assert totals == []


def test_the_backend_is_kept_across_rebuilds_and_can_be_chosen(kb_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(index_mod.BACKEND_VARIABLE, raising=False)
    assert index_mod.ensure_index().meta["engine"] == "whoosh"  # the default
    assert index_mod.ensure_index(backend="tantivy").meta["engine"] == "tantivy"
    assert index_mod.ensure_index(rebuild=True).meta["engine"] == "tantivy"  # the choice is remembered
    monkeypatch.setenv(index_mod.BACKEND_VARIABLE, "whoosh")
    assert index_mod.ensure_index().meta["engine"] == "whoosh"
    with pytest.raises(index_mod.IndexError_, match="unknown search backend"):
        index_mod.ensure_index(backend="lucene")


QUERIES = [
    ('"жетон -1/-1"', {}),
    ("упорст*", {"kind": "ruling"}),
    ("мироходец", {"set": "LRW"}),
    ("мироходец -атаковать", {}),
    ("упорство AND кладбище", {}),
    ("{Q}", {}),
    ("702.36", {}),
    ("conspire copy", {"lang": "en"}),
    ("", {"card": "Murderous Redcap"}),
]


def test_tantivy_answers_phrases_prefixes_filters_and_typos_as_whoosh(kb_dir: Path) -> None:
    found: dict[str, list[set[str]]] = {}
    for backend in ("whoosh", "tantivy"):
        session = SearchSession(index_mod.ensure_index(backend=backend))
        try:
            found[backend] = [
                {r.id for r in session.search(SearchRequest(q, **kw)).results}  # type: ignore[arg-type]
                for q, kw in QUERIES
            ]
            response = session.search(SearchRequest("мироходиц"))
            assert [c.suggestion for c in response.corrections] == ["мироходец"] and response.results
        finally:
            session.close()
    assert all(found["whoosh"]), list(zip(QUERIES, found["whoosh"], strict=True))
    assert found["tantivy"] == found["whoosh"]


def test_a_tantivy_index_of_an_older_format_is_rebuilt_on_open(kb_dir: Path) -> None:
    """The cheap freshness check (unchanged inputs) keeps the index; one this version cannot read is rebuilt."""
    from kb.search import tantivy_engine
    from kb.search.service import open_session

    state = index_mod.ensure_index(backend="tantivy")
    (state.directory / tantivy_engine.ROWS).unlink()  # what an index of format 1 lacks
    assert index_mod.ensure_index().directory == state.directory
    session = open_session()
    try:
        assert session.state.directory != state.directory
        assert session.search(SearchRequest("упорство")).results
    finally:
        session.close()


def test_an_index_written_by_another_version_of_the_code_is_rebuilt(kb_dir: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Unchanged inputs keep the index only if this version wrote it: a new ``INDEX_FORMAT`` (English stems in
    the stored vocabulary, say) is rebuilt on the next search although the old index could still be read."""
    state = index_mod.ensure_index()
    assert index_mod.ensure_index().directory == state.directory  # unchanged: kept by the cheap check
    monkeypatch.setattr(index_mod, "INDEX_FORMAT", index_mod.INDEX_FORMAT + "-next")
    rebuilt = index_mod.ensure_index()
    assert rebuilt.built and rebuilt.directory != state.directory
    assert index_mod.ensure_index().directory == rebuilt.directory
