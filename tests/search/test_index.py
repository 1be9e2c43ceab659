"""Index lifecycle: built on first use, reused while unchanged, rebuilt on change, swapped atomically."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from ingest.entries import Ruling
from kb import store
from kb.search import index as index_mod
from kb.search.service import SearchRequest, open_session
from tests.search.conftest import ruling, small_kb


def test_built_on_first_use_then_reused(kb_dir: Path) -> None:
    first = index_mod.ensure_index()
    assert first.built and first.doc_count > 10
    second = index_mod.ensure_index()
    assert not second.built and second.directory == first.directory


def test_touching_without_changing_does_not_rebuild(kb_dir: Path) -> None:
    first = index_mod.ensure_index()
    kb_file = kb_dir / "kb.sqlite"
    kb_file.write_bytes(kb_file.read_bytes())  # new mtime, same content
    again = index_mod.ensure_index()
    assert not again.built and again.directory == first.directory


def test_knowledge_base_change_rebuilds_and_swaps(kb_dir: Path) -> None:
    first = index_mod.ensure_index()
    kb = small_kb()
    kb.entries.append(ruling("lrw/planeswalker/3", "Новое разъяснение про перевертышей и мироходцев."))
    store.save(store.KnowledgeBase(kb.entries, kb.fingerprint), kb_dir / "kb.sqlite")
    second = index_mod.ensure_index()
    assert second.built and second.directory != first.directory
    pointer = json.loads((kb_dir / "index" / "CURRENT").read_text())
    assert pointer["generation"] == second.directory.name
    session = open_session()
    try:
        found = [r.id for r in session.search(SearchRequest("перевертыш")).results]
    finally:
        session.close()
    assert "lrw/planeswalker/3" in found


def test_forced_rebuild_keeps_one_previous_generation(kb_dir: Path) -> None:
    index_mod.ensure_index()
    for _ in range(3):
        assert index_mod.ensure_index(rebuild=True).built
    generations = sorted(p.name for p in (kb_dir / "index").glob("gen-*"))
    assert len(generations) == 2
    assert not list((kb_dir / "index").glob(".gen-*"))  # no staging left behind


def test_missing_knowledge_base_is_a_clear_error(build_dir: Path) -> None:
    try:
        index_mod.ensure_index()
    except index_mod.IndexError_ as exc:
        assert "kb ingest" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("expected IndexError_")


def test_search_during_rebuilds_never_sees_a_partial_index(kb_dir: Path) -> None:
    index_mod.ensure_index()
    errors: list[BaseException] = []
    stop = threading.Event()

    def rebuild() -> None:
        try:
            for _ in range(3):
                index_mod.ensure_index(rebuild=True)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            stop.set()

    worker = threading.Thread(target=rebuild)
    worker.start()
    searches = 0
    while not stop.is_set() or searches == 0:
        session = open_session()
        try:
            results = session.search(SearchRequest("упорство фишка")).results
        finally:
            session.close()
        assert results and results[0].id == "shm/persist/1"
        searches += 1
    worker.join()
    assert not errors and searches > 0


def test_rulings_are_indexed_with_section_context(kb_dir: Path) -> None:
    from kb.search.documents import index_documents

    docs = {d.id: d for d in index_documents(small_kb(), {"wrath of god": "Гнев Божий"}, {"упорство": "Persist"})}
    persist = docs["shm/persist/2"]
    assert "Упорство" in persist.topic and "Persist" in persist.topic
    assert "Гнев Божий" in persist.cards and "Wrath of God" in persist.cards
    assert "Кровожадный Красный Колпак" in persist.cards  # the section's example card
    assert docs["shm/counters/1"].rules == "704.5r"
    assert isinstance(small_kb().get("shm/persist/2"), Ruling)
