"""The SQLite store holds exactly what it was given: the canonical JSON round-trips byte for byte, an
unchanged knowledge base writes nothing, a change writes only its rows, and the views answer."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from pathlib import Path

import pytest

from ingest.entries import Entry, Ruling
from kb import store
from kb.db import connection, read
from kb.store import KnowledgeBase, KnowledgeBaseError


def test_the_canonical_json_round_trips_through_the_database(seed_kb: KnowledgeBase, tmp_path: Path) -> None:
    path = tmp_path / "kb.sqlite"
    store.save(seed_kb, path)
    loaded = store.load(path)
    assert loaded.to_json() == seed_kb.to_json()
    assert [e.id for e in loaded.entries] == [e.id for e in seed_kb.entries]
    assert loaded.fingerprint == seed_kb.fingerprint


def test_stats_from_the_summary_tables_equal_the_whole_knowledge_bases(seed_kb: KnowledgeBase, tmp_path: Path) -> None:
    path = tmp_path / "kb.sqlite"
    store.save(seed_kb, path)
    assert store.stats(path) == seed_kb.stats()
    assert store.stats(path)["rulings"] == 205


def test_an_unchanged_save_writes_nothing_and_a_change_writes_its_rows(seed_kb: KnowledgeBase, tmp_path: Path) -> None:
    path = tmp_path / "kb.sqlite"
    assert store.save(seed_kb, path) > len(seed_kb.entries)
    before = path.read_bytes()
    digest = store.digest(path)
    assert store.save(seed_kb, path) == 0
    assert path.read_bytes() == before and store.digest(path) == digest

    def fix(entry: Entry) -> Entry:
        if entry.id == "shm/persist/3" and isinstance(entry, Ruling):
            return dataclasses.replace(entry, text=entry.text + " (исправлено)")
        return entry

    edited = [fix(e) for e in seed_kb.entries]
    changed = KnowledgeBase(edited, seed_kb.fingerprint, seed_kb.summaries, seed_kb.warnings)
    assert store.save(changed, path) == 1
    assert store.digest(path) != digest
    got = store.load(path).get("shm/persist/3")
    assert isinstance(got, Ruling) and got.text.endswith("(исправлено)")
    assert store.load(path).to_json() == changed.to_json()

    fewer = KnowledgeBase([e for e in edited if e.document_id != "frf"], seed_kb.fingerprint,
                          {k: v for k, v in seed_kb.summaries.items() if k != "frf"}, seed_kb.warnings)
    store.save(fewer, path)
    assert store.load(path).to_json() == fewer.to_json()
    with sqlite3.connect(path) as conn:  # the links of the removed entries are gone with them
        orphans = conn.execute("SELECT count(*) FROM links WHERE entry_id NOT IN (SELECT id FROM entries)").fetchone()
    assert orphans == (0,)


def test_a_duplicate_id_is_refused_and_nothing_is_stored(seed_kb: KnowledgeBase, tmp_path: Path) -> None:
    path = tmp_path / "kb.sqlite"
    store.save(seed_kb, path)
    before = store.load(path).to_json()
    twice = KnowledgeBase([*seed_kb.entries, seed_kb.entries[3]], seed_kb.fingerprint, seed_kb.summaries)
    with pytest.raises(KnowledgeBaseError, match=f"запись {seed_kb.entries[3].id} встречается дважды"):
        store.save(twice, path)
    assert store.load(path).to_json() == before


def test_the_views_answer_what_the_entries_say(seed_kb: KnowledgeBase, tmp_path: Path) -> None:
    path = tmp_path / "kb.sqlite"
    store.save(seed_kb, path)
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)  # opens as it is, as Datasette would
    rulings = conn.execute("SELECT id, document, section FROM rulings").fetchall()
    assert [r[0] for r in rulings] == [r.id for r in seed_kb.rulings]
    assert ("shm/persist/3", "Заметки к выпуску — Шэдоумур", "Новая способность с ключевым словом: Упорство") in rulings
    pairs = conn.execute("SELECT ruling_id, card_id, card FROM ruling_cards").fetchall()
    expected = [(r.id, c) for r in seed_kb.rulings for c in r.card_ids]
    assert [(r, c) for r, c, _ in pairs] == expected and expected
    assert all(name for _, _, name in pairs)
    summary = {row[0]: row[1:] for row in conn.execute("SELECT id, rulings, notes, title FROM document_summary")}
    assert summary["shm"] == (54, 23, "Заметки к выпуску — Шэдоумур")
    cards = conn.execute("SELECT count(*) FROM cards").fetchone()[0]
    assert cards == len(seed_kb.cards)
    cited = conn.execute("SELECT count(*) FROM rule_citations").fetchone()[0]
    assert cited == sum(len(r.rules_cited) for r in seed_kb.entries if hasattr(r, "rules_cited"))
    conn.close()


def test_a_file_that_is_not_a_knowledge_base_is_an_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "kb.sqlite"
    path.write_bytes(b"not a database at all" * 100)
    with pytest.raises(KnowledgeBaseError, match=r"kb\.sqlite: это не база знаний SQLite"):
        store.load(path)
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    with pytest.raises(KnowledgeBaseError, match="нет таблицы meta"):
        store.load(other)


def test_a_newer_schema_is_refused_with_what_to_run(seed_kb: KnowledgeBase, tmp_path: Path) -> None:
    path = tmp_path / "kb.sqlite"
    store.save(seed_kb, path)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    with pytest.raises(KnowledgeBaseError, match="схема базы знаний 99, а нужна 1; выполните `kb ingest`"):
        store.load(path)
    store.save(seed_kb, path)  # a full save starts over (the bad file set aside)
    assert store.load(path).to_json() == seed_kb.to_json()
    assert (tmp_path / "kb.sqlite.invalid").exists()


def test_the_old_kb_json_is_migrated_once(seed_kb: KnowledgeBase, tmp_path: Path) -> None:
    legacy = tmp_path / "kb.json"
    store.save(seed_kb, legacy)
    text = legacy.read_text(encoding="utf-8")
    path = tmp_path / "kb.sqlite"
    assert store.exists(path)
    assert not legacy.exists()
    assert store.load(path).to_json() == text
    assert connection.leftovers(path) == []


def test_stored_ids_answer_membership_without_loading_entries(seed_kb: KnowledgeBase, tmp_path: Path) -> None:
    path = tmp_path / "kb.sqlite"
    store.save(seed_kb, path)
    ids = read.StoredIds(path)
    assert "shm/persist/3" in ids and "shm/persist/999" not in ids
    assert set(ids) == set(seed_kb.by_id) and len(ids) == len(seed_kb.entries)


def test_wal_mode_and_indexes_are_in_place(seed_kb: KnowledgeBase, tmp_path: Path) -> None:
    path = tmp_path / "kb.sqlite"
    store.save(seed_kb, path)
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        plan = " ".join(str(r) for r in conn.execute(
            "EXPLAIN QUERY PLAN SELECT entry_id FROM links WHERE relation = 'card' AND target = ?", ["x"]))
        assert "links_target" in plan
        meta = dict(conn.execute("SELECT key, value FROM meta"))
    assert json.loads(json.dumps(meta))["format"] == "mtg-rulings-kb-sqlite"


def test_a_transaction_writes_back_what_it_read_without_serialising_it_again(
    seed_kb: KnowledgeBase, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "kb.sqlite"
    store.save(seed_kb, path)
    before = path.read_bytes()
    with store.transaction(path) as tx:
        existing = tx.existing()
        assert existing is not None and existing.to_json() == seed_kb.to_json()
        with monkeypatch.context() as patched:
            patched.setattr(Entry, "to_dict", lambda self: pytest.fail(f"{self.id} serialised again"))
            assert tx.save(existing) == 0
        moved = KnowledgeBase([*existing.entries[1:], existing.entries[0]], existing.fingerprint,
                              existing.summaries, existing.warnings)
        assert tx.save(moved) == len(existing.entries)  # every position changed, no entry's content
    assert path.read_bytes() != before
    assert [e.id for e in store.load(path).entries] == [e.id for e in moved.entries]
