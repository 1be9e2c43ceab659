"""Write a ``KnowledgeBase`` into the database as a difference: only rows that changed are touched.

Called inside the caller's write transaction (``kb.db.connection.write_transaction``). Each entry row carries
the digest of its JSON, so an unchanged entry costs a comparison, not a write; an unchanged knowledge base
writes nothing at all and the file stays byte for byte as it was. The content digest (``meta.digest``) is
what the search index is keyed on.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterator
from typing import Any

from ingest.entries import Card, Entry, Ruling
from ingest.glossary import fold_name
from kb import faults
from kb.db import verdicts
from kb.db.read import StoredRows
from kb.db.schema import FORMAT, SCHEMA_VERSION
from kb.i18n import t
from kb.store import KnowledgeBase, KnowledgeBaseError, RulesVersionRecord

SUMMARY_COLUMNS = ("sections", "cards", "rules", "rulings", "notes", "warnings")
RULES_COLUMNS = ("rules", "headings", "glossary", "warnings")


def canonical(value: Any) -> str:
    """The one JSON spelling stored and hashed: sorted keys, no spaces, UTF-8 kept."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def record_digest(record: RulesVersionRecord) -> str:
    return record.digest or _digest(canonical(record.to_payload()))


def _entry_row(position: int, data: dict[str, Any], text: str) -> tuple[Any, ...]:
    cards = data.get("cards")
    return (
        data["id"], position, data["type"], data.get("kind"), data["document_id"], data.get("section_id"),
        data.get("lang"), data.get("date"), data.get("number"), data.get("name"), data.get("name_en"),
        data.get("name_ru"), data.get("heading"), data.get("title"), data.get("text"),
        canonical(cards) if cards is not None else None, data.get("content_hash"), _digest(text), text,
    )


def _links(entry: Entry) -> Iterator[tuple[str, str, int, str]]:
    relations: list[tuple[str, tuple[str, ...]]] = [
        ("same_as", tuple(getattr(entry, "same_as", ()))),
        ("card", tuple(getattr(entry, "card_ids", ()))),
        ("rule", tuple(getattr(entry, "rules_cited", ()))),
    ]
    if aligned := getattr(entry, "aligned", None):
        relations.append(("aligned", (aligned,)))
    if isinstance(entry, Ruling):
        relations.append(("card_name", tuple(dict.fromkeys(fold_name(n) for n in entry.cards))))
    for relation, targets in relations:
        for position, target in enumerate(targets):
            yield entry.id, relation, position, target


def _card_names(entry: Entry) -> set[tuple[str, str]]:
    if not isinstance(entry, Card):
        return set()
    return {(fold_name(n), entry.id) for n in (entry.name, entry.name_en, entry.name_ru) if n and fold_name(n)}


INSERT_ENTRY = "INSERT OR REPLACE INTO entries VALUES (" + ", ".join("?" * 19) + ")"


def _forget(conn: sqlite3.Connection, entry_id: str) -> None:
    conn.execute("DELETE FROM links WHERE entry_id = ?", (entry_id,))
    conn.execute("DELETE FROM card_names WHERE card_id = ?", (entry_id,))


def _write_entries(conn: sqlite3.Connection, kb: KnowledgeBase, content: Any, known: StoredRows) -> int:
    if known.complete:
        stored = known.rows
    else:
        stored = {row[0]: (row[1], row[2]) for row in conn.execute("SELECT id, position, digest FROM entries")}
    seen: set[str] = set()
    changed = 0
    halfway = len(kb.entries) // 2
    for position, entry in enumerate(kb.entries):
        if position == halfway:
            faults.point("store.write")
        if entry.id in seen:
            where = f"{entry.source.path}:{entry.source.start}"
            raise KnowledgeBaseError(t("store.duplicate", where=where, id=entry.id))
        seen.add(entry.id)
        row: tuple[Any, ...] | None = None
        if (same := known.digest_of(entry)) is not None:  # the very object read from its row: unchanged
            digest = same
        else:
            data = entry.to_dict()
            row = _entry_row(position, data, canonical(data))
            digest = row[17]
        content.update(f"{entry.id}\0{digest}\n".encode())
        old = stored.get(entry.id)
        if old == (position, digest):
            continue
        changed += 1
        if old is not None and old[1] == digest:
            conn.execute("UPDATE entries SET position = ? WHERE id = ?", (position, entry.id))
            continue
        if row is None:
            data = entry.to_dict()
            row = _entry_row(position, data, canonical(data))
        if old is not None:
            _forget(conn, entry.id)
        conn.execute(INSERT_ENTRY, row)
        conn.executemany("INSERT INTO links VALUES (?, ?, ?, ?)", _links(entry))
        conn.executemany("INSERT OR IGNORE INTO card_names VALUES (?, ?)", _card_names(entry))
    for gone in stored.keys() - seen:
        changed += 1
        _forget(conn, gone)
        conn.execute("DELETE FROM entries WHERE id = ?", (gone,))
    return changed


def _write_documents(conn: sqlite3.Connection, kb: KnowledgeBase, content: Any) -> int:
    stored = {row[0]: tuple(row) for row in conn.execute("SELECT * FROM documents")}
    changed = 0
    for position, (doc_id, summary) in enumerate(kb.summaries.items()):
        counts = tuple(int(summary.get(key, 0)) for key in SUMMARY_COLUMNS)
        row = (doc_id, position, *counts, canonical(summary), canonical(kb.warnings.get(doc_id, [])))
        content.update(canonical(row).encode())
        if stored.get(doc_id) != row:
            changed += 1
            conn.execute("INSERT OR REPLACE INTO documents VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
    for gone in stored.keys() - kb.summaries.keys():
        changed += 1
        conn.execute("DELETE FROM documents WHERE id = ?", (gone,))
    return changed


def _rules_rows(version: str, record: RulesVersionRecord) -> Iterator[tuple[Any, ...]]:
    items = record.raw if record.raw is not None else [e.to_dict() for e in record.entries]
    for position, data in enumerate(items):
        yield (
            version, position, data["id"], data["type"], data.get("number"), data.get("kind"), data.get("title"),
            data.get("term"), data.get("text"), canonical(data),
        )


def _write_rules(conn: sqlite3.Connection, kb: KnowledgeBase, content: Any) -> int:
    stored = dict(conn.execute("SELECT version, digest FROM rules_versions"))
    changed = 0
    for version in sorted(kb.rules_versions):
        record = kb.rules_versions[version]
        digest = record_digest(record)
        content.update(f"{version}\0{digest}\n".encode())
        if stored.get(version) == digest:
            continue
        changed += 1
        conn.execute("DELETE FROM rules_entries WHERE version = ?", (version,))
        marks = ", ".join("?" * 10)
        conn.executemany(f"INSERT INTO rules_entries VALUES ({marks})", _rules_rows(version, record))
        counts = tuple(int(record.summary.get(key, 0)) for key in RULES_COLUMNS)
        conn.execute(
            "INSERT OR REPLACE INTO rules_versions VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (version, *counts, canonical(record.summary), canonical(record.warnings), digest),
        )
    for gone in stored.keys() - kb.rules_versions.keys():
        changed += 1
        conn.execute("DELETE FROM rules_entries WHERE version = ?", (gone,))
        conn.execute("DELETE FROM rules_versions WHERE version = ?", (gone,))
    return changed


def write(conn: sqlite3.Connection, kb: KnowledgeBase, stored: StoredRows | None = None) -> int:
    """Make the database hold exactly ``kb``; return how many rows changed (0: the file is untouched).

    ``stored``: what ``read.load_all`` saw of this database in the same transaction (saves a re-read).
    """
    content = hashlib.sha256(f"{FORMAT}:{SCHEMA_VERSION}:{kb.fingerprint}\n".encode())
    changed = _write_entries(conn, kb, content, stored or StoredRows())
    changed += _write_documents(conn, kb, content) + _write_rules(conn, kb, content)
    meta = {
        "format": FORMAT,
        "schema": str(SCHEMA_VERSION),
        "fingerprint": kb.fingerprint,
        "digest": content.hexdigest(),
    }
    if changed:
        verdicts.clear(conn)  # computed for the content just replaced: never left to describe this one
    before = dict(conn.execute("SELECT key, value FROM meta"))
    for key, value in meta.items():
        if before.get(key) != value:
            conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))
    return changed
