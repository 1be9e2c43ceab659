"""Verdicts in ``build/kb.sqlite``: each ruling's, note's and rule excerpt's status, currency and proof.

They are what playing every scenario gives (``kb.verdict_cache.compute``), kept so that search, ``kb show``
and a person in Datasette read them instead of replaying. The whole set is written in one transaction
with the key of what it was computed from (``meta.verdicts_key``: the knowledge base's fingerprint and
the data files verification reads), and served only to a reader asking with the same key, so a stale
verdict is never served. A write that changes the entries clears them (``clear``, in that write's
transaction): the tables never describe another content than the one stored beside them.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection, Iterable, Iterator
from typing import Any

KEY = "verdicts_key"
FINGERPRINT = "verdicts_fingerprint"


def key(conn: sqlite3.Connection) -> str | None:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (KEY,)).fetchone()
    return str(row[0]) if row else None


STATUS_QUERY = "SELECT entry_id, status, currency, currency_label FROM verdicts"
CHUNK = 500  # ids per query (SQLite's limit on parameters is 999 in older builds)


def statuses(conn: sqlite3.Connection, ids: Collection[str] | None = None) -> dict[str, dict[str, str]]:
    """``{id: {"status", "currency", "currency_label"}}`` of every stored verdict (what search marks), or of
    ``ids`` only (a search's hits: a few rows by the primary key instead of thousands)."""
    if ids is None:
        rows: Iterable[tuple[Any, ...]] = conn.execute(STATUS_QUERY)
    else:
        wanted = sorted(set(ids))
        rows = [
            row
            for i in range(0, len(wanted), CHUNK)
            for row in conn.execute(
                f"{STATUS_QUERY} WHERE entry_id IN ({','.join('?' * len(wanted[i : i + CHUNK]))})",
                wanted[i : i + CHUNK],
            )
        ]
    out: dict[str, dict[str, str]] = {}
    for entry_id, status, currency, label in rows:
        row = {"status": status}
        if currency is not None:
            row["currency"] = currency
            row["currency_label"] = label
        out[entry_id] = row
    return out


def details(conn: sqlite3.Connection, entry_id: str) -> dict[str, Any] | None:
    """One entry's whole verdict (``Verdict.to_dict()``, no game logs), by the primary key."""
    row = conn.execute("SELECT details FROM verdicts WHERE entry_id = ?", (entry_id,)).fetchone()
    if row is None:
        return None
    found = json.loads(row[0])
    return found if isinstance(found, dict) else None


def clear(conn: sqlite3.Connection) -> None:
    conn.execute("DELETE FROM verdicts")
    conn.execute("DELETE FROM verdict_scenarios")
    conn.execute("DELETE FROM meta WHERE key IN (?, ?)", (KEY, FINGERPRINT))


def _rows(statuses_: dict[str, dict[str, str]], full: dict[str, dict[str, Any]]) -> Iterator[tuple[Any, ...]]:
    for entry_id in sorted(statuses_):
        row = statuses_[entry_id]
        verdict = full.get(entry_id) or {"id": entry_id, **row}
        yield (
            entry_id, row["status"], row.get("currency"), row.get("currency_label"), verdict.get("reason"),
            verdict.get("why"), verdict.get("era"), verdict.get("shared_from"), len(verdict.get("scenarios", ())),
            json.dumps(verdict, ensure_ascii=False, sort_keys=True, separators=(",", ":")),
        )


def _scenario_rows(full: dict[str, dict[str, Any]]) -> Iterator[tuple[Any, ...]]:
    for entry_id in sorted(full):
        verdict = full[entry_id]
        today = {r["scenario"]: r["passed"] for r in verdict.get("today_results", ())}
        results = {r["scenario"]: r for r in verdict.get("results", ())}
        for position, scenario in enumerate(verdict.get("scenarios", ())):
            result = results.get(scenario) or {}
            passed = result.get("passed")
            if scenario in today:
                today_passed = today[scenario]
            elif verdict.get("currency", {}).get("status") in ("current", "terms"):
                today_passed = passed  # the same outcome under today's rules (only an obsolete one keeps both)
            else:
                today_passed = None
            yield (
                entry_id, position, scenario, result.get("title"),
                None if passed is None else int(passed), None if today_passed is None else int(today_passed),
            )


def replace(
    conn: sqlite3.Connection,
    inputs_key: str,
    fingerprint: str,
    statuses_: dict[str, dict[str, str]],
    full: dict[str, dict[str, Any]],
) -> None:
    """Make the tables hold exactly these verdicts under ``inputs_key`` (inside the caller's transaction)."""
    clear(conn)
    conn.executemany("INSERT INTO verdicts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", _rows(statuses_, full))
    conn.executemany("INSERT INTO verdict_scenarios VALUES (?, ?, ?, ?, ?, ?)", _scenario_rows(full))
    conn.executemany("INSERT INTO meta VALUES (?, ?)", [(KEY, inputs_key), (FINGERPRINT, fingerprint)])
