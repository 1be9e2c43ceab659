"""Verdicts in ``build/kb.sqlite`` (``kb.db.verdicts``, ``kb.verdict_cache``): stored whole under the key of
their inputs, served only under that key, cleared by a write that changes the entries, refused for another
knowledge base, and readable by a person through the views."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path
from typing import Any

from kb import store, verdict_cache
from kb.store import KnowledgeBase


def _verdicts(kb: KnowledgeBase) -> tuple[dict[str, dict[str, str]], dict[str, dict[str, Any]]]:
    """A verdict for every ruling and rule excerpt, as ``compute`` gives them (no scenario played here)."""
    statuses: dict[str, dict[str, str]] = {}
    full: dict[str, dict[str, Any]] = {}
    for n, entry in enumerate([*kb.rulings, *kb.rules]):
        verified = n % 3 == 0
        statuses[entry.id] = {"status": "verified" if verified else "unlinked"}
        full[entry.id] = {"id": entry.id, "status": statuses[entry.id]["status"], "scenarios": []}
        if verified:
            statuses[entry.id] |= {"currency": "obsolete", "currency_label": "устарело с 2018"}
            full[entry.id] |= {
                "scenarios": ["s-1", "s-2"],
                "era": "2008-04-04",
                "currency": {"status": "obsolete", "label_ru": "устарело с 2018"},
                "results": [{"scenario": "s-1", "title": "один", "passed": True},
                            {"scenario": "s-2", "title": "два", "passed": True}],
                "today_results": [{"scenario": "s-1", "title": "один", "passed": False}],
            }
    return statuses, full


def test_verdicts_are_served_under_their_key_only(build_dir: Path, seed_kb: KnowledgeBase) -> None:
    path = build_dir / "kb.sqlite"
    store.save(seed_kb, path)
    statuses, full = _verdicts(seed_kb)
    assert verdict_cache.load("k1") is None  # none stored yet
    assert verdict_cache.save(seed_kb.fingerprint, "k1", statuses, full)
    assert verdict_cache.load("k1") == statuses
    assert verdict_cache.load("k2") is None  # other inputs (a scenario edited): never the stale ones
    ruling = seed_kb.rulings[0].id
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key = 'verdicts_key'").fetchone() == ("k1",)
        details = conn.execute("SELECT details FROM verdicts WHERE entry_id = ?", (ruling,)).fetchone()[0]
    assert full[ruling]["status"] in details
    assert not verdict_cache.save("another fingerprint", "k3", statuses, full)  # not this knowledge base's
    assert verdict_cache.load("k1") == statuses


def test_a_changed_knowledge_base_drops_its_verdicts_in_the_same_write(
    build_dir: Path, seed_kb: KnowledgeBase
) -> None:
    path = build_dir / "kb.sqlite"
    store.save(seed_kb, path)
    assert verdict_cache.save(seed_kb.fingerprint, "k1", *_verdicts(seed_kb))
    store.save(seed_kb, path)  # unchanged: nothing written, the verdicts stay
    assert verdict_cache.load("k1") is not None
    first = seed_kb.rulings[0]
    changed = [dataclasses.replace(e, text=e.text + " (изменено)") if e is first else e for e in seed_kb.entries]
    store.save(dataclasses.replace(seed_kb, entries=changed), path)
    assert verdict_cache.load("k1") is None
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT count(*) FROM verdicts").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM verdict_scenarios").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM meta WHERE key LIKE 'verdicts%'").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM ruling_verdicts WHERE status != 'not_computed'").fetchone() == (0,)


def test_the_views_answer_what_a_person_asks(build_dir: Path, seed_kb: KnowledgeBase) -> None:
    path = build_dir / "kb.sqlite"
    store.save(seed_kb, path)
    statuses, full = _verdicts(seed_kb)
    verdict_cache.save(seed_kb.fingerprint, "k1", statuses, full)
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT id, status, currency, document FROM ruling_verdicts").fetchall()
        assert {r[0] for r in rows} == set(statuses)
        assert all((r[1], r[2]) == (statuses[r[0]]["status"], statuses[r[0]].get("currency")) for r in rows)
        assert all(r[3] for r in rows)  # the document's title beside each
        coverage = conn.execute(
            "SELECT sum(entries), sum(verified), sum(unlinked), sum(obsolete), sum(not_computed) FROM document_coverage"
        ).fetchone()
        verified = sum(1 for s in statuses.values() if s["status"] == "verified")
        assert coverage == (len(statuses), verified, len(statuses) - verified, verified, 0)
        proofs = conn.execute("SELECT scenario, passed, today_passed FROM scenario_proofs").fetchall()
        assert len(proofs) == 2 * verified
        assert set(proofs) == {("s-1", 1, 0), ("s-2", 1, None)}  # s-2 was not replayed under today's rules
