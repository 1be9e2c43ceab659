"""Verdicts kept beside the knowledge base, so search and ``kb show`` mark rulings without replaying them.

They live in ``build/kb.sqlite`` (tables ``verdicts`` and ``verdict_scenarios``, ``kb.db.verdicts``): each
entry's verification status, currency (current / obsolete / terms / unjudged) and whole verdict, written
in one transaction with the key of what they were computed from: the knowledge base's fingerprint and
the size and modification time of every file under ``data/`` verification reads (cards, scenarios,
timeline, not simulable). A reader asking with another key gets nothing (stale verdicts are never
served); they are then recomputed by playing the scenarios once. The earlier ``build/verdicts.json`` and
``verdict-details.json`` are simply recomputed into the database and removed.
"""

from __future__ import annotations

import os
from collections.abc import Collection
from pathlib import Path
from typing import Any

from kb import paths

INPUTS = ("cards", "scenarios", "rules", "not_simulable.yaml", "not_simulable_official.yaml")
LEGACY_FILES = ("verdicts.json", "verdict-details.json")


def _files(root: str, relative: str) -> list[tuple[str, os.stat_result]]:
    """Every file under ``root`` (itself, when a file) with its path relative to the data directory."""
    try:
        with os.scandir(root) as found:
            items = sorted(found, key=lambda e: e.name)
    except NotADirectoryError:
        return [(relative, os.stat(root))]
    except FileNotFoundError:
        return []
    out: list[tuple[str, os.stat_result]] = []
    for item in items:
        name = f"{relative}/{item.name}"
        if item.is_dir():
            out += _files(item.path, name)
        elif item.is_file():
            out.append((name, item.stat()))
    return out


def _digest(data: bytes) -> Any:
    """BLAKE2b from its own small module when there is one: ``hashlib`` loads OpenSSL first (~3 ms of every
    ``kb show RULING``); the digest is the same either way."""
    try:
        from _blake2 import blake2b
    except ImportError:  # another Python build: hashlib's
        from hashlib import blake2b
    return blake2b(data, digest_size=32)


def inputs_key(kb_fingerprint: str, data_dir: Path) -> str:
    """Cheap to compute on every search and ``kb show``: names, sizes and mtimes, not contents."""
    lines = [f"{relative}:{stat.st_size}:{stat.st_mtime_ns}\n"
             for name in INPUTS for relative, stat in _files(os.path.join(data_dir, name), name)]
    return str(_digest(kb_fingerprint.encode() + "".join(lines).encode()).hexdigest())


def _read(key: str, query: Any) -> Any:
    """``query(conn)`` on the stored verdicts when they carry ``key``; ``None`` when they don't (or none)."""
    import sqlite3

    from kb.db import verdicts
    from kb.db.connection import reader
    from kb.errors import KnowledgeBaseError

    path = paths.kb_path()
    if not path.exists():
        return None
    try:
        with reader(path) as conn:
            if verdicts.key(conn) != key:
                return None
            return query(conn)
    except (KnowledgeBaseError, sqlite3.Error):
        return None


def load(key: str, ids: Collection[str] | None = None) -> dict[str, dict[str, str]] | None:
    """Every entry's ``{"status", "currency", "currency_label"}`` (or only those of ``ids``), when the stored
    verdicts carry ``key``."""
    from kb.db import verdicts

    found: dict[str, dict[str, str]] | None = _read(key, lambda conn: verdicts.statuses(conn, ids))
    return found


def details(kb_fingerprint: str, entry_id: str, data_dir: Path | None = None) -> dict[str, Any] | None:
    """One entry's full verdict (``Verdict.to_dict()``: scenarios and their results, no game logs) from the
    database, or ``None`` when the stored verdicts are stale or missing (``kb show`` then plays it)."""
    from kb.db import verdicts

    key = inputs_key(kb_fingerprint, data_dir or paths.data_dir())
    found: dict[str, Any] | None = _read(key, lambda conn: verdicts.details(conn, entry_id))
    return found


def details_of(kb_fingerprint: str, ids: list[str], data_dir: Path | None = None) -> dict[str, dict[str, Any]]:
    """The stored full verdicts of these entries (those it has), when fresh; ``{}`` when stale or missing."""
    from kb.db import verdicts

    key = inputs_key(kb_fingerprint, data_dir or paths.data_dir())

    def query(conn: Any) -> dict[str, dict[str, Any]]:
        return {i: found for i in ids if (found := verdicts.details(conn, i)) is not None}

    found: dict[str, dict[str, Any]] | None = _read(key, query)
    return found or {}


def save(
    kb_fingerprint: str, key: str, statuses: dict[str, dict[str, str]], full: dict[str, dict[str, Any]]
) -> bool:
    """Store a whole set of verdicts in one transaction; False (nothing written) when the stored knowledge base
    is not the one they were computed for (a concurrent ingest changed it meanwhile) or there is none."""
    from kb.db import connection, read, verdicts
    from kb.store import KnowledgeBaseError

    path = paths.kb_path()
    if not path.exists():
        return False
    try:
        with connection.write_transaction(path) as (conn, has_data):
            if not has_data or read.meta(conn).get("fingerprint", "") != kb_fingerprint:
                return False
            verdicts.replace(conn, key, kb_fingerprint, statuses, full)
    except KnowledgeBaseError:
        return False
    for name in LEGACY_FILES:  # the earlier cache files: what they held is in the database now
        (paths.build_dir() / name).unlink(missing_ok=True)
    return True


def rows_of(found: dict[str, Any]) -> tuple[dict[str, dict[str, str]], dict[str, dict[str, Any]]]:
    """``verify.verdicts``' answer as stored: each entry's status and currency, and its whole verdict."""
    out: dict[str, dict[str, str]] = {}
    full: dict[str, dict[str, Any]] = {}
    for entry_id, verdict in found.items():
        full[entry_id] = verdict.to_dict()
        row = {"status": verdict.status}
        if verdict.currency is not None:
            row["currency"] = verdict.currency.status
            row["currency_label"] = verdict.currency.label_ru
        out[entry_id] = row
    return out, full


def record(kb: Any, found: dict[str, Any], data_dir: Path | None = None) -> bool:
    """Keep the verdicts another command computed for every ruling, note and rule excerpt (``kb export``
    plays them all for the proofs), so search and ``kb show`` need not play them again."""
    statuses, full = rows_of(found)
    return save(kb.fingerprint, inputs_key(kb.fingerprint, data_dir or paths.data_dir()), statuses, full)


def compute(kb: Any, data_dir: Path, full: dict[str, Any] | None = None) -> dict[str, dict[str, str]]:
    """Every ruling, note and rule excerpt: its status and currency (the engine plays the scenarios once);
    ``full`` receives each one's whole verdict (what ``kb show`` prints)."""
    from kb import verify

    known = verify.catalog(kb)
    db = verify.card_db(data_dir)
    scenarios = verify.collect_scenarios(data_dir, db, known)
    not_simulable = verify.load_not_simulable(data_dir, known)
    ids = [r.id for r in kb.rulings] + [r.id for r in kb.rules]
    found = verify.verdicts(ids, scenarios, db, not_simulable, context=verify.era_context(kb, data_dir))
    out, whole = rows_of(found)
    if full is not None:
        full.update(whole)
    return out


def ensure(kb: Any, data_dir: Path | None = None) -> dict[str, dict[str, str]]:
    """The verdicts for this knowledge base and data, from the database when they are fresh (else computed
    and stored)."""
    data_dir = data_dir or paths.data_dir()
    key = inputs_key(kb.fingerprint, data_dir)
    cached = load(key)
    if cached is not None:
        return cached
    full: dict[str, Any] = {}
    verdicts = compute(kb, data_dir, full)
    save(kb.fingerprint, key, verdicts, full)
    return verdicts
