"""Search knows whether a ruling holds today: an obsolete one is marked, ranks below an equal current one, and
``--current`` leaves it out (the currency comes from playing the scenarios, kept in build/kb.sqlite)."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kb.search.engine import Hit
from kb.search.service import prefer_current

ROOT = Path(__file__).resolve().parents[2]


def test_an_obsolete_ruling_yields_to_a_current_one_of_the_same_relevance() -> None:
    hits = [Hit("a", "ruling", "lrw", "", "ru", "x", 10.0), Hit("b", "ruling", "lrw", "", "ru", "x", 9.8)]
    verdicts = {"a": {"currency": "obsolete"}, "b": {"currency": "current"}}
    assert [h.id for h in prefer_current(hits, verdicts)] == ["b", "a"]
    far = [Hit("a", "ruling", "lrw", "", "ru", "x", 20.0), hits[1]]
    assert [h.id for h in prefer_current(far, verdicts)] == ["a", "b"]  # much more relevant: still first


@pytest.fixture(scope="module")
def seed_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    build = tmp_path_factory.mktemp("build")
    env = {"KB_BUILD_DIR": str(build)}
    runner = CliRunner()
    from kb.cli import app

    assert runner.invoke(app, ["ingest", "--quiet"], env=env).exit_code == 0
    assert runner.invoke(app, ["index"], env=env).exit_code == 0
    return build


def _search(build: Path, *args: str) -> dict:
    from kb.cli import app

    result = CliRunner().invoke(app, ["search", *args, "--json"], env={"KB_BUILD_DIR": str(build)})
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_obsolete_rulings_are_marked_and_current_filters_them(seed_build: Path) -> None:
    query = ("перенаправить повреждения на мироходца", "--limit", "20")
    every = {r["id"]: r for r in _search(seed_build, *query)["results"]}
    assert every["lrw/planeswalker/13"]["currency"] == "obsolete"
    assert every["lrw/planeswalker/13"]["currency_label"] == "устарело с 2018"
    current = _search(seed_build, *query, "--current")["results"]
    assert current and "lrw/planeswalker/13" not in {r["id"] for r in current}
    assert all(r["currency"] in ("current", "terms") for r in current if r["kind"] != "card")


def test_the_verdict_cache_follows_the_scenarios(
    seed_build: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Touching a scenario makes the stored verdicts stale: they are computed again, not served old."""
    from kb import verdict_cache

    with sqlite3.connect(seed_build / "kb.sqlite") as conn:
        key = conn.execute("SELECT value FROM meta WHERE key = 'verdicts_key'").fetchone()[0]
        fingerprint = conn.execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone()[0]
        stored = conn.execute("SELECT count(*) FROM verdicts").fetchone()[0]
        judged = conn.execute("SELECT count(*) FROM entries WHERE type IN ('ruling', 'rule')").fetchone()[0]
        uncomputed = conn.execute("SELECT count(*) FROM ruling_verdicts WHERE status = 'not_computed'").fetchone()[0]
    assert stored == judged > 300 and uncomputed == 0  # every ruling, note and rule excerpt, in the database
    assert not (seed_build / "verdicts.json").exists()
    monkeypatch.setenv("KB_BUILD_DIR", str(seed_build))
    assert verdict_cache.load(key) is not None  # the key they were stored under serves them
    assert verdict_cache.load(key + "x") is None  # any other key does not
    assert verdict_cache.inputs_key(fingerprint, ROOT / "data") == key
    data = tmp_path / "data"
    for name in ("cards", "scenarios", "rules"):
        shutil.copytree(ROOT / "data" / name, data / name)
    shutil.copy(ROOT / "data" / "not_simulable.yaml", data / "not_simulable.yaml")
    before = verdict_cache.inputs_key(fingerprint, data)
    scenario = data / "scenarios" / "shm-persist-basic.yaml"
    os.utime(scenario, ns=(scenario.stat().st_atime_ns, scenario.stat().st_mtime_ns + 10**9))
    assert verdict_cache.inputs_key(fingerprint, data) != before
