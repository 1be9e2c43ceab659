"""Read the database: the whole knowledge base for the commands that need everything (verify, export),
and narrow queries by index for the ones that need a few rows (``kb show``, ``kb stats``)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ingest.entries import Entry, entry_from_dict
from kb.store import KnowledgeBase, RulesVersionRecord

CHUNK = 500  # ids per ``IN (...)``: far below SQLite's variable limit


def _chunks(items: list[str]) -> Iterator[list[str]]:
    for start in range(0, len(items), CHUNK):
        yield items[start : start + CHUNK]


def meta(conn: sqlite3.Connection) -> dict[str, str]:
    return dict(conn.execute("SELECT key, value FROM meta"))


def _summaries(conn: sqlite3.Connection) -> tuple[dict[str, dict[str, int]], dict[str, list[str]]]:
    summaries: dict[str, dict[str, int]] = {}
    warnings: dict[str, list[str]] = {}
    for doc_id, summary, lines in conn.execute("SELECT id, summary, warning_lines FROM documents ORDER BY position"):
        summaries[doc_id] = json.loads(summary)
        warnings[doc_id] = json.loads(lines)
    return summaries, warnings


def rules_rows(conn: sqlite3.Connection, version: str) -> list[dict[str, Any]]:
    rows = conn.execute("SELECT json FROM rules_entries WHERE version = ? ORDER BY position", (version,))
    return [json.loads(text) for (text,) in rows]


def _lazy_rules(path: Path, version: str) -> list[dict[str, Any]]:
    from kb.db.connection import reader

    with reader(path) as conn:
        return rules_rows(conn, version)


def rules_versions(conn: sqlite3.Connection, path: Path | None, eager: bool) -> dict[str, RulesVersionRecord]:
    """Every CR version's record; its entries read now (``eager``) or on first use from ``path``."""
    out: dict[str, RulesVersionRecord] = {}
    rows = conn.execute("SELECT version, summary, warning_lines, digest FROM rules_versions ORDER BY version")
    for version, summary, lines, digest in rows.fetchall():
        record = RulesVersionRecord(json.loads(summary), json.loads(lines), digest=digest)
        if eager or path is None:
            record.raw = rules_rows(conn, version)
        else:
            record.loader = (lambda v=version: _lazy_rules(path, v))
        out[version] = record
    return out


def load_all(conn: sqlite3.Connection, path: Path | None = None, eager_rules: bool = False) -> KnowledgeBase:
    """The whole knowledge base, as ``KnowledgeBase.from_json`` gave it from ``kb.json``."""
    rows = conn.execute("SELECT json FROM entries ORDER BY position")
    entries = [entry_from_dict(json.loads(text)) for (text,) in rows]
    summaries, warnings = _summaries(conn)
    return KnowledgeBase(
        entries=entries,
        fingerprint=meta(conn).get("fingerprint", ""),
        summaries=summaries,
        warnings=warnings,
        rules_versions=rules_versions(conn, path, eager_rules),
    )


def stats(conn: sqlite3.Connection) -> dict[str, Any]:
    """What ``KnowledgeBase.stats()`` returns, from the ``documents`` and ``rules_versions`` tables alone."""
    keys = ("sections", "cards", "rules", "rulings", "notes", "warnings")
    ordered = [row[0] for row in conn.execute("SELECT id FROM entries WHERE type = 'document' ORDER BY position")]
    summaries, _ = _summaries(conn)
    totals: dict[str, Any] = {"documents": len(ordered)}
    for key in keys:
        totals[key] = sum(summary.get(key, 0) for summary in summaries.values())
    per_document = {doc_id: summaries[doc_id] for doc_id in ordered if doc_id in summaries}
    versions = {
        version: json.loads(summary)
        for version, summary in conn.execute("SELECT version, summary FROM rules_versions ORDER BY version")
    }
    return {**totals, "per_document": per_document, "comprehensive_rules": versions}


def entries(conn: sqlite3.Connection, ids: Iterable[str]) -> list[Entry]:
    """The entries with these IDs (missing ones skipped), in document order."""
    found: list[tuple[int, str]] = []
    for chunk in _chunks(sorted(set(ids))):
        marks = ", ".join("?" * len(chunk))
        found += conn.execute(f"SELECT position, json FROM entries WHERE id IN ({marks})", chunk).fetchall()
    return [entry_from_dict(json.loads(text)) for _, text in sorted(found)]


def ids_where(conn: sqlite3.Connection, sql: str, params: Iterable[Any] = ()) -> list[str]:
    return [row[0] for row in conn.execute(sql, tuple(params))]


def linking_to(conn: sqlite3.Connection, relation: str, targets: Iterable[str]) -> list[str]:
    """Entries with a ``relation`` link to any of ``targets`` (by the ``links_target`` index)."""
    out: list[str] = []
    for chunk in _chunks(sorted(set(targets))):
        marks = ", ".join("?" * len(chunk))
        out += ids_where(
            conn, f"SELECT entry_id FROM links WHERE relation = ? AND target IN ({marks})", [relation, *chunk]
        )
    return out


def in_column(conn: sqlite3.Connection, column: str, values: Iterable[str], kind: str | None = None) -> list[str]:
    """IDs of entries whose ``column`` (an indexed one) is one of ``values``, of type ``kind`` if given."""
    assert column in {"section_id", "number", "document_id", "id"}
    out: list[str] = []
    for chunk in _chunks(sorted(set(values))):
        marks = ", ".join("?" * len(chunk))
        where = f"{column} IN ({marks})" + (" AND type = ?" if kind else "")
        out += ids_where(conn, f"SELECT id FROM entries WHERE {where}", [*chunk, *([kind] if kind else [])])
    return out


class StoredIds:
    """Every entry ID, asked of the database one at a time: what scenario loading checks its IDs against."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn: sqlite3.Connection | None = None
        self._all: frozenset[str] | None = None

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            from kb.db.connection import _open

            self._conn = _open(self.path, create=False)
        return self._conn

    def __contains__(self, entry_id: object) -> bool:
        if self._all is not None:
            return entry_id in self._all
        row = self._connection().execute("SELECT 1 FROM entries WHERE id = ?", (str(entry_id),)).fetchone()
        return row is not None

    def __iter__(self) -> Iterator[str]:
        if self._all is None:
            self._all = frozenset(ids_where(self._connection(), "SELECT id FROM entries"))
        return iter(self._all)

    def __len__(self) -> int:
        return sum(1 for _ in self)
