"""Read the database: the whole knowledge base for the commands that need everything (verify, export),
and narrow queries by index for the ones that need a few rows (``kb show``, ``kb stats``)."""

from __future__ import annotations

import gc
import json
import sqlite3
from collections.abc import Iterable, Iterator
from collections.abc import Set as AbstractSet
from contextlib import contextmanager
from dataclasses import dataclass, field
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


def summaries(
    conn: sqlite3.Connection, documents: Iterable[str] | None = None
) -> tuple[dict[str, dict[str, int]], dict[str, list[str]]]:
    """Counts and warnings per document (of ``documents`` only, when given: by the primary key), in stored order."""
    sql = "SELECT position, id, summary, warning_lines FROM documents"
    if documents is None:
        rows = conn.execute(sql).fetchall()
    else:
        rows = []
        for chunk in _chunks(sorted(set(documents))):
            rows += conn.execute(f"{sql} WHERE id IN ({', '.join('?' * len(chunk))})", chunk).fetchall()
    out: dict[str, dict[str, int]] = {}
    warnings: dict[str, list[str]] = {}
    for _, doc_id, summary, lines in sorted(rows):
        out[doc_id] = json.loads(summary)
        warnings[doc_id] = json.loads(lines)
    return out, warnings


@contextmanager
def _no_gc() -> Iterator[None]:
    """Decoding 100,000 entries makes millions of objects none of which is garbage: the cyclic collector's
    passes over them would cost more than the decoding (and grow faster than the corpus)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


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
            record.stored_at = (path, version)
        out[version] = record
    return out


@dataclass
class StoredRows:
    """What a write compares against, gathered while the rows are read (``load_all``): each row's
    (position, digest) by ID, and the digest of each entry object decoded from a row, by identity (entries
    are frozen), so an entry written back unchanged costs no re-serialisation."""

    rows: dict[str, tuple[int, str]] = field(default_factory=dict)
    objects: dict[int, tuple[Entry, str]] = field(default_factory=dict)
    complete: bool = False  # ``rows`` holds every stored row

    def digest_of(self, entry: Entry) -> str | None:
        known = self.objects.get(id(entry))
        return known[1] if known is not None and known[0] is entry else None


def load_all(
    conn: sqlite3.Connection, path: Path | None = None, eager_rules: bool = False, stored: StoredRows | None = None
) -> KnowledgeBase:
    """The whole knowledge base, as ``KnowledgeBase.from_json`` gave it from ``kb.json`` (``stored``: filled)."""
    entries: list[Entry] = []
    with _no_gc():
        for entry_id, position, digest, text in conn.execute(
            "SELECT id, position, digest, json FROM entries ORDER BY position"
        ):
            entry = entry_from_dict(json.loads(text))
            entries.append(entry)
            if stored is not None:
                stored.rows[entry_id] = (position, digest)
                stored.objects[id(entry)] = (entry, digest)
    if stored is not None:
        stored.complete = True

    counts, warnings = summaries(conn)
    return KnowledgeBase(
        entries=entries,
        fingerprint=meta(conn).get("fingerprint", ""),
        summaries=counts,
        warnings=warnings,
        rules_versions=rules_versions(conn, path, eager_rules),
    )


def stats(conn: sqlite3.Connection) -> dict[str, Any]:
    """What ``KnowledgeBase.stats()`` returns, from the ``documents`` and ``rules_versions`` tables alone."""
    keys = ("sections", "cards", "rules", "rulings", "notes", "warnings")
    ordered = [row[0] for row in conn.execute("SELECT id FROM entries WHERE type = 'document' ORDER BY position")]
    stored = {doc_id: json.loads(text) for doc_id, text in conn.execute("SELECT id, summary FROM documents")}
    totals: dict[str, Any] = {"documents": len(ordered)}
    for key in keys:
        totals[key] = sum(summary.get(key, 0) for summary in stored.values())
    per_document = {doc_id: stored[doc_id] for doc_id in ordered if doc_id in stored}
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
    """IDs of entries whose ``column`` (an indexed one) is one of ``values``, of type ``kind`` if given.

    The type is a filter, never the index (``+type``): without statistics SQLite would otherwise pick
    ``entries_type_position`` for ``section_id IN (...) AND type = 'ruling'`` and read every ruling. A rule
    number is looked up by ``entries_type_number`` (type first), so there the type stays indexed."""
    assert column in {"section_id", "number", "document_id", "id"}
    out: list[str] = []
    kind_filter = " AND type = ?" if column in {"number", "document_id"} else " AND +type = ?"
    for chunk in _chunks(sorted(set(values))):
        marks = ", ".join("?" * len(chunk))
        where = f"{column} IN ({marks})" + (kind_filter if kind else "")
        out += ids_where(conn, f"SELECT id FROM entries WHERE {where}", [*chunk, *([kind] if kind else [])])
    return out


class StoredIds(AbstractSet[str]):
    """Every entry ID, asked of the database one at a time: what scenario loading checks its IDs against
    (a set, so it is asked as it is, never copied; iterating reads every ID once)."""

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
        if self._all is not None:
            return len(self._all)
        return int(self._connection().execute("SELECT count(*) FROM entries").fetchone()[0])
