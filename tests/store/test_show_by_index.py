"""``kb show`` reads only the entry and its context (``store.for_show``), and says exactly what it said
when it loaded the whole knowledge base: every entry's context compared, then the command's JSON for keys
of every kind (ID, rule number, card name in another case form, a typo, CR keys, a missing key)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kb import store
from kb.cli import app
from kb.commands import show as show_cmd
from tests.ingest.cr_fixtures import cr_text, write_cr
from tests.ingest.test_mtgjson import GROVE, REDCAP, set_file, write

runner = CliRunner()


def invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def stored(build_dir: Path, tmp_path: Path) -> Path:
    """The bundled documents, an MTGJSON set linked to them (``same_as``) and two CR versions."""
    assert invoke("ingest", "--quiet")[0] == 0
    cards = write(tmp_path / "shm.json", set_file("SHM", [REDCAP, *GROVE[:1]], release="2008-05-02"))
    old = write_cr(tmp_path / "cr-old.txt", cr_text(date="April 1, 2008", old=True))
    new = write_cr(tmp_path / "cr-new.txt", cr_text())
    code, _, err = invoke("ingest", "--quiet", str(cards), str(old), str(new))
    assert code == 0, err
    return build_dir / "kb.sqlite"


def _no_verification(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lookup is what is compared here; verification is the same code either way (and slow)."""
    monkeypatch.setattr(show_cmd, "_verification", lambda kb, entry_id: {"id": entry_id})
    monkeypatch.setattr("kb.card_view._verdicts", lambda kb, ids: {i: {"id": i} for i in ids})


def test_every_entrys_context_is_the_same_from_its_part_and_from_the_whole(
    stored: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _no_verification(monkeypatch)
    whole = store.load(stored)
    assert any(getattr(e, "same_as", ()) for e in whole.entries)  # the links are there to be followed
    for entry in whole.entries:
        part = store.for_show(stored, entry.id, show_cmd.cr_numbers)
        assert len(part.entries) < len(whole.entries) / 2, entry.id
        resolved = show_cmd._resolve(part, entry.id)
        assert [e.id for e in resolved] == [entry.id]
        assert show_cmd._context(part, resolved[0]) == show_cmd._context(whole, entry), entry.id


KEYS = [
    "shm/persist/3",  # a ruling (verified: its scenario is played)
    "shm/persist",  # a section
    "shm",  # a document
    "shm/card/murderous-redcap",  # a document's card, linked to the MTGJSON one
    "Кровожадного Красного Колпака",  # a card name in another case form
    "Murderous Redcapp",  # a typo
    "702.36a",  # a rule excerpt number (no CR version has it)
    "702.78",  # a CR rule: today, its history, who cites it
    "cr/20080401",  # a CR version
    "shm/persist/33",  # nothing: the close IDs
]


@pytest.mark.parametrize("key", KEYS)
def test_the_command_prints_the_same_from_the_index_as_from_the_whole(
    stored: Path, key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    by_index = invoke("show", key, "--json")
    with monkeypatch.context() as patched:
        patched.setattr(store, "for_show", lambda path, _key, _numbers: store.load(path))
        whole = invoke("show", key, "--json")
    assert by_index == whole
    assert by_index[0] == (1 if key == "shm/persist/33" else 0), by_index


def test_stats_reads_no_entry(stored: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = store.load(stored).stats()

    def refuse(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("kb stats decoded an entry")

    monkeypatch.setattr("kb.db.read.entry_from_dict", refuse)
    monkeypatch.setattr("kb.db.read.load_all", refuse)
    code, out, err = invoke("stats", "--json")
    assert code == 0, err
    import json

    assert json.loads(out) == expected


# tables whose size does not grow with the documents: read whole without reading the corpus
_SMALL_TABLES = ("meta", "rules_versions", "sqlite_master")


def _plans(path: Path, statements: list[str]) -> list[tuple[str, str]]:
    """(statement, plan line) of every statement a lookup ran, as SQLite plans it on the same database."""
    import sqlite3

    conn = sqlite3.connect(path)
    try:
        return [(sql, row[3]) for sql in statements if sql.lstrip().upper().startswith("SELECT")
                for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}")]
    finally:
        conn.close()


def _corpus_wide(plan: str) -> bool:
    """A plan step that reads a table whole, or every row of one type (``entries_type_position (type=?)``)."""
    if any(f" {table}" in plan and not plan.startswith("SEARCH") for table in _SMALL_TABLES):
        return False
    if plan.startswith("SEARCH rules_entries USING PRIMARY KEY (version=?)"):  # a CR version: constant size
        return False
    return plan.startswith("SCAN") or plan.endswith("(type=?)")


@pytest.mark.parametrize("key", ["shm/persist/3", "shm/persist", "shm/card/murderous-redcap", "Murderous Redcap",
                                 "702.78", "cr/20260116/702.78a", "702.36a"])
def test_show_reads_by_index_only(stored: Path, key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every query ``kb show KEY`` runs is an index search on the key's few rows: none reads every entry, every
    link or every entry of a type (a ruling, a section, a card by its name, a CR rule and who cites it)."""
    from kb.db import connection

    statements: list[str] = []
    real_open = connection._open

    def traced(*args: Any, **kwargs: Any) -> Any:
        conn = real_open(*args, **kwargs)
        conn.set_trace_callback(statements.append)
        return conn

    monkeypatch.setattr(connection, "_open", traced)
    part = store.for_show(stored, key, show_cmd.cr_numbers)
    assert part.entries or key.startswith("cr/")
    plans = _plans(stored, statements)
    assert plans, statements
    wide = [(sql, plan) for sql, plan in plans if _corpus_wide(plan)]
    assert not wide, wide


def test_a_cr_rule_reads_only_what_cites_it(stored: Path) -> None:
    """``kb show`` of a CR rule gathers the excerpts and rulings citing it and their documents, not every one."""
    whole = store.load(stored)
    part = store.for_show(stored, "702.78", show_cmd.cr_numbers)
    assert len(part.entries) < len(whole.entries) / 3
    assert {e.entry_type for e in part.entries} <= {"document", "section", "rule", "ruling"}
    assert not any(e.entry_type == "ruling" and not e.rules_cited for e in part.entries)  # type: ignore[attr-defined]
