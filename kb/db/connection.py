"""Opening ``build/kb.sqlite``: readers, the one writer at a time, the old ``kb.json`` migrated.

- WAL journal: a reader sees the last committed state, never a half-written one, while a writer works.
- Every write is one ``BEGIN IMMEDIATE`` transaction: the caller reads, merges and writes inside it, so
  two ``kb ingest`` runs at once serialise (the second waits for the first, then merges into its result)
  instead of one overwriting the other. A killed writer leaves an uncommitted tail in the WAL, which the
  next opener discards: the previous state is what everyone reads.
- A ``build/kb.json`` of the earlier store is imported once, into a temporary file renamed into place,
  under a lock file; a temporary file left by a killed migration is removed by the next one.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from kb import faults
from kb.db.schema import FORMAT, SCHEMA_VERSION, TABLES, VIEWS
from kb.errors import KnowledgeBaseError  # not kb.store: its entry model is not needed to open
from kb.i18n import t

BUSY_TIMEOUT = 600.0  # seconds a writer waits for another one to finish
CHECKPOINT_TIMEOUT = 2.0  # seconds a finished writer waits for readers before leaving the WAL as it is
LEGACY_NAME = "kb.json"


def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";\n") if s.strip()]


def _open(path: Path, create: bool, timeout: float = BUSY_TIMEOUT) -> sqlite3.Connection:
    mode = "rwc" if create else "rw"
    try:
        conn = sqlite3.connect(f"file:{path}?mode={mode}", uri=True, timeout=timeout, isolation_level=None)
    except sqlite3.OperationalError as exc:
        raise KnowledgeBaseError(t("store.cannot_open", path=path, error=exc)) from exc
    conn.execute("PRAGMA foreign_keys = OFF")
    return conn


def check_format(conn: sqlite3.Connection, path: Path) -> bool:
    """True for our database, False for an empty one (never written); an error for anything else."""
    try:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "meta" not in tables:
            if tables:
                raise KnowledgeBaseError(t("store.no_meta", path=path))
            return False
        meta = dict(conn.execute("SELECT key, value FROM meta"))
    except sqlite3.DatabaseError as exc:
        raise KnowledgeBaseError(t("store.not_sqlite", path=path, error=exc)) from exc
    if not meta:
        return False
    if meta.get("format") != FORMAT:
        raise KnowledgeBaseError(t("store.format", path=path, format=FORMAT))
    if meta.get("schema") != str(SCHEMA_VERSION):
        raise KnowledgeBaseError(t("store.schema", path=path, found=meta.get("schema"), wanted=SCHEMA_VERSION))
    return True


@contextmanager
def reader(path: Path) -> Iterator[sqlite3.Connection]:
    """A connection to a committed knowledge base (an error when there is none yet)."""
    migrate_legacy(path)
    if not path.exists():
        raise KnowledgeBaseError(t("store.missing", path=path))
    conn = _open(path, create=False)
    try:
        if not check_format(conn, path):
            raise KnowledgeBaseError(t("store.empty", path=path))
        yield conn
    finally:
        conn.close()


def _create_schema(conn: sqlite3.Connection) -> None:
    for statement in _statements(TABLES) + _statements(VIEWS):
        conn.execute(statement)


@contextmanager
def write_transaction(path: Path, fresh_if_invalid: bool = False) -> Iterator[tuple[sqlite3.Connection, bool]]:
    """``(connection, has_data)`` inside ``BEGIN IMMEDIATE``: committed when the block ends, rolled back on error.

    ``fresh_if_invalid``: a file that is not our database (or of another schema) is moved aside to
    ``kb.sqlite.invalid`` and a new one started (a full rebuild needs nothing from it).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    migrate_legacy(path)
    conn = _open(path, create=True)
    try:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("BEGIN IMMEDIATE")
            has_data = check_format(conn, path)
        except (KnowledgeBaseError, sqlite3.DatabaseError):
            if not fresh_if_invalid:
                raise
            conn.close()
            _set_aside(path)
            conn = _open(path, create=True)
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("BEGIN IMMEDIATE")
            has_data = False
        _create_schema(conn)
        yield conn, has_data
        faults.point("store.commit")
        conn.execute("COMMIT")
    except sqlite3.DatabaseError as exc:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise KnowledgeBaseError(t("store.failed", path=path, error=exc)) from exc
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    finally:
        conn.close()
    _checkpoint(path)


def _checkpoint(path: Path) -> None:
    """Fold the WAL into the main file (best effort: a reader still on an older snapshot defers it, and the
    writer does not wait long for it; SQLite checkpoints again on later writes and on the last close)."""
    conn = _open(path, create=False, timeout=CHECKPOINT_TIMEOUT)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.OperationalError:
        pass
    finally:
        conn.close()


def _set_aside(path: Path) -> None:
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    os.replace(path, path.with_name(path.name + ".invalid"))


@contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(f".{path.name}.lock"), "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def leftovers(path: Path) -> list[Path]:
    """Temporary databases of migrations that never finished (only ever written under the lock)."""
    return sorted(path.parent.glob(f".{path.name}.*.tmp*"))


def migrate_legacy(path: Path) -> bool:
    """Import ``kb.json`` beside ``path`` when there is no database yet; True when it did."""
    legacy = path.with_name(LEGACY_NAME)
    if path.exists() or not legacy.exists():
        return False
    from kb.db.write import write
    from kb.store import KnowledgeBase

    with _file_lock(path):
        for stale in leftovers(path):
            stale.unlink(missing_ok=True)
        if path.exists():
            return False  # another process migrated it while we waited
        kb = KnowledgeBase.from_json(legacy.read_text(encoding="utf-8"), origin=str(legacy))
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        conn = _open(tmp, create=True)
        try:
            conn.execute("BEGIN IMMEDIATE")
            _create_schema(conn)
            write(conn, kb)
            faults.point("store.migrate")
            conn.execute("COMMIT")
            conn.execute("PRAGMA journal_mode = WAL")
        finally:
            conn.close()
        os.chmod(tmp, 0o644 & ~_umask())
        os.replace(tmp, path)
        legacy.unlink()
    return True


def clean_leftovers(path: Path) -> list[Path]:
    """Remove what a killed migration left (under the lock, so a running one is never touched)."""
    found = leftovers(path)
    if not found:
        return []
    with _file_lock(path):
        found = leftovers(path)
        for stale in found:
            stale.unlink(missing_ok=True)
    return found


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
