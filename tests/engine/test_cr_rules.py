"""General-rule scenarios (tests/engine/cr/): rules of the Comprehensive Rules that no seed ruling exercises, each
file named by its rule number (``cr-702.2b-deathtouch.yaml``) and opening with a ``# CR NUMBER:`` line that says
what it checks. They are not linked to rulings; ``scripts/mutate.py`` plays them with the linked scenarios, so
breaking the rule in the engine turns them red.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kb import verify as kv
from rules_engine.cards import CardDB
from rules_engine.scenario import load_scenario

CR_DIR = Path(__file__).resolve().parent / "cr"
FILES = sorted(CR_DIR.glob("*.yaml"))
NAME = re.compile(r"^cr-(\d{3}\.\d+[a-z]?)-[a-z0-9.-]+$")


def test_the_suite_is_there() -> None:
    assert len(FILES) >= 15, [p.name for p in FILES]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_cr_scenario_passes(path: Path, db: CardDB) -> None:
    match = NAME.match(path.stem)
    assert match, f"{path.name}: name it cr-RULE-what.yaml"
    first = path.read_text(encoding="utf-8").splitlines()[0]
    rule = match.group(1)
    assert first.startswith(f"# CR {rule}"), f"{path.name}: the first line must be '# CR {rule}: ...'"
    scenario = load_scenario(path, db)
    assert scenario.id == path.stem
    assert scenario.rulings == [], "general-rule scenarios are not linked to rulings"
    result = kv.run_all([scenario], db)[scenario.id]
    assert result.passed, "\n".join(result.failures + result.log)
