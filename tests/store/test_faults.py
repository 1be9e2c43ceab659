"""Concurrent writers and crashes, with real processes: several ``kb ingest PATH`` at once lose no document;
SIGKILL in the middle of an ingest (``KB_FAULT``, ``kb/faults.py``), of a migration or of an index rebuild
leaves the previous state readable, and the next run cleans up what was left."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest

from kb import store
from kb.db import connection
from tests.store.conftest import run_kb, small_document, start_kb

WORDS = ["альфа", "бета", "гамма", "дельта"]


@pytest.fixture
def base(tmp_path: Path) -> Path:
    """A build directory holding the bundled documents."""
    build = tmp_path / "build"
    done = run_kb(build, "ingest", "--quiet")
    assert done.returncode == 0, done.stderr
    return build


def _documents(build: Path) -> set[str]:
    done = run_kb(build, "stats", "--json")
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout)["per_document"])


def test_concurrent_ingests_lose_no_document(base: Path, tmp_path: Path) -> None:
    docs = [small_document(tmp_path / f"extra-{i}.txt", word) for i, word in enumerate(WORDS)]
    bundled = {"lrw", "dtk", "gtc", "shm", "frf"}
    running = [start_kb(base, "ingest", "--quiet", str(doc)) for doc in docs]
    seen = []
    while any(p.poll() is None for p in running):  # a reader meanwhile sees one committed state or the next
        seen.append(set(store.stats(base / "kb.sqlite")["per_document"]))
    results = [(p.wait(timeout=300), p.communicate()) for p in running]
    assert all(code == 0 for code, _ in results), results
    final = _documents(base)
    assert final == {*bundled, *(d.stem for d in docs)}
    assert seen and all(bundled <= documents <= final for documents in seen)
    kb = store.load(base / "kb.sqlite")
    for i, word in enumerate(WORDS):
        ruling = kb.get(f"extra-{i}/persist/1")
        assert ruling is not None and word in getattr(ruling, "text", "")


@pytest.mark.parametrize("point", ["store.write", "store.commit"])
def test_sigkill_during_ingest_keeps_the_previous_state(base: Path, tmp_path: Path, point: str) -> None:
    before = store.load(base / "kb.sqlite").to_json()
    doc = small_document(tmp_path / "late.txt", "поздний")
    killed = run_kb(base, "ingest", "--quiet", str(doc), KB_FAULT=point)
    assert killed.returncode == -signal.SIGKILL
    assert store.load(base / "kb.sqlite").to_json() == before  # the torn transaction is not seen
    assert "late" not in _documents(base)
    again = run_kb(base, "ingest", "--quiet", str(doc))
    assert again.returncode == 0, again.stderr
    assert "late" in _documents(base)


def test_sigkill_during_migration_keeps_kb_json_and_the_next_run_cleans_up(
    seed_kb: store.KnowledgeBase, tmp_path: Path
) -> None:
    build = tmp_path / "build"
    build.mkdir()
    store.save(seed_kb, build / "kb.json")
    killed = run_kb(build, "stats", "--json", KB_FAULT="store.migrate")
    assert killed.returncode == -signal.SIGKILL
    assert (build / "kb.json").exists() and not (build / "kb.sqlite").exists()
    assert connection.leftovers(build / "kb.sqlite")  # the half-built temporary database
    done = run_kb(build, "stats", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == seed_kb.stats()
    assert connection.leftovers(build / "kb.sqlite") == [] and not (build / "kb.json").exists()


def test_sigkill_during_index_rebuild_keeps_the_live_index_and_the_next_cleans_up(base: Path) -> None:
    assert run_kb(base, "index").returncode == 0
    pointer = (base / "index" / "CURRENT").read_text()
    killed = run_kb(base, "index", "--rebuild", KB_FAULT="index.build")
    assert killed.returncode == -signal.SIGKILL
    assert list((base / "index").glob(".gen-*.tmp"))  # the staging generation it was writing
    assert (base / "index" / "CURRENT").read_text() == pointer
    found = run_kb(base, "search", "упорство", "--json")
    assert found.returncode == 0 and json.loads(found.stdout)["results"], found.stderr
    assert run_kb(base, "index", "--rebuild").returncode == 0
    assert not list((base / "index").glob(".gen-*.tmp"))


def test_a_leftover_temporary_database_is_removed_by_the_next_write(base: Path, tmp_path: Path) -> None:
    stale = base / ".kb.sqlite.12345.tmp"
    stale.write_bytes(b"half a migration")
    assert run_kb(base, "ingest", "--quiet", str(small_document(tmp_path / "one.txt", "один"))).returncode == 0
    assert not stale.exists()


def test_a_rebuild_sets_an_unreadable_file_aside_and_a_read_names_it(base: Path) -> None:
    (base / "kb.sqlite").write_bytes(b"garbage" * 1000)
    failed = run_kb(base, "stats")
    assert failed.returncode == 1
    assert "kb.sqlite: это не база знаний SQLite" in failed.stderr and len(failed.stderr.strip().splitlines()) == 1
    rebuilt = run_kb(base, "ingest", "--quiet")
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert (base / "kb.sqlite.invalid").read_bytes() == b"garbage" * 1000
    assert len(_documents(base)) == 5
