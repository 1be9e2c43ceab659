"""Shared helpers: the card database, and games / scenarios built from short YAML snippets."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from rules_engine.cards import CardDB, load_card_db
from rules_engine.game import Game
from rules_engine.scenario import Scenario, ScenarioResult, build_game, load_scenario, run_scenario

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"


@pytest.fixture(scope="session")
def db() -> CardDB:
    return load_card_db(DATA / "cards")


@pytest.fixture
def scenario_from(tmp_path: Path, db: CardDB) -> Callable[[str], Scenario]:
    def make(text: str) -> Scenario:
        path = tmp_path / "case.yaml"
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        return load_scenario(path, db)

    return make


@pytest.fixture
def play(scenario_from: Callable[[str], Scenario], db: CardDB) -> Callable[[str], ScenarioResult]:
    def run(text: str) -> ScenarioResult:
        return run_scenario(scenario_from(text), db)

    return run


@pytest.fixture
def game_from(scenario_from: Callable[[str], Scenario], db: CardDB) -> Callable[[str], Game]:
    """A game in the position a scenario's setup describes (the scenario needs a dummy expectation)."""

    def make(setup: str) -> Game:
        body = textwrap.indent(textwrap.dedent(setup), "  ")
        text = "id: t\ntitle: t\nsetup:\n" + body + "\nexpect:\n  - stack_size: 0\n"
        scenario = scenario_from(text)
        return build_game(scenario, db.with_extra(scenario.cards))

    return make
