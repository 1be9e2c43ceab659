"""Scenarios transcribed from another engine's test suite (tests/engine/external/) run unchanged.

Each file is one XMage test method written in our scenario format, with the cards that ``data/cards/`` lacks
defined inline; it is not linked to rulings. They go through the same loader and runner as
``kb verify --scenario`` (``rules_engine.scenario`` and ``kb.verify.run_all``), like python-chess runs external
perft suites.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kb import verify as kv
from rules_engine.cards import CardDB
from rules_engine.scenario import load_scenario

EXTERNAL = Path(__file__).resolve().parent / "external"
FILES = sorted(EXTERNAL.glob("*.yaml"))


def test_the_suite_is_there() -> None:
    assert len(FILES) >= 8, [p.name for p in FILES]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_external_scenario_passes(path: Path, db: CardDB) -> None:
    scenario = load_scenario(path, db)
    assert scenario.rulings == [], "external scenarios are not linked to rulings"
    header = path.read_text(encoding="utf-8").splitlines()[:4]
    assert header[0].startswith("# Source: "), f"{path.name}: the header must name the source"
    assert any("method " in line for line in header), f"{path.name}: the header must name the test method"
    result = kv.run_all([scenario], db)[scenario.id]
    assert result.passed, "\n".join(result.failures + result.log)


def test_ids_are_unique(db: CardDB) -> None:
    ids = [load_scenario(p, db).id for p in FILES]
    assert len(ids) == len(set(ids))


def test_kb_verify_scenario_reports_them_all_passed() -> None:
    from kb.cli import app

    result = CliRunner().invoke(app, ["verify", "--scenario", *map(str, FILES), "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert payload["passed"] is True
    reported = {Path(r["path"]).name: r["passed"] for r in payload["results"]}
    assert reported == {p.name: True for p in FILES}


def test_kb_verify_scenario_rejects_a_missing_file(tmp_path: Path) -> None:
    from kb.cli import app

    result = CliRunner().invoke(app, ["verify", "--scenario", str(FILES[0]), str(tmp_path / "nope.yaml")])
    assert result.exit_code == 2  # bad input is an error, never a verdict
    assert "nope.yaml" in result.output
