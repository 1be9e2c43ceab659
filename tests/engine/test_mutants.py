"""The mutation check (``scripts/mutate.py``) works: every mutant still applies to the engine source, and three
representative mutants (a state-based action, a keyword, a trigger rule) are killed by the suite.

The whole run (every mutant) takes about half a minute; here only three mutants run, in subprocesses, so the
test stays cheap. The real source must be byte-identical afterwards.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "mutate.py"
REPRESENTATIVE = ["legend-rule", "deathtouch", "leave-together-look-back"]


@pytest.fixture(scope="module")
def mutate() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutate_script", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _engine_digest() -> str:
    h = hashlib.sha256()
    for path in sorted((ROOT / "rules_engine").glob("*.py")):
        h.update(path.name.encode() + path.read_bytes())
    return h.hexdigest()


def test_every_mutant_applies_to_the_current_source(mutate: ModuleType) -> None:
    mutate.check_all(mutate.MUTANTS)
    names = [m.name for m in mutate.MUTANTS]
    assert len(names) == len(set(names)), "mutant names must be unique"
    assert len(names) >= 30
    assert all(m.rule[:3].isdigit() for m in mutate.MUTANTS), "each mutant names its CR rule"


def test_a_stale_snippet_is_an_error(mutate: ModuleType, tmp_path: Path) -> None:
    (tmp_path / "sba.py").write_text("nothing to see\n", encoding="utf-8")
    stale = mutate.Mutant("stale", "704.3", "sba.py", "not in the file", "x")
    with pytest.raises(mutate.MutantError, match="found 0 times"):
        mutate.apply(stale, tmp_path)


def test_representative_mutants_are_killed(mutate: ModuleType) -> None:
    before = _engine_digest()
    report = mutate.run(mutate.select(REPRESENTATIVE), jobs=2, baseline=False)  # the suite is green: test_linked
    assert _engine_digest() == before, "the real engine source must never be modified"
    outcomes = {o["name"]: o for o in report["outcomes"]}
    assert set(outcomes) == set(REPRESENTATIVE)
    for name, outcome in outcomes.items():
        assert outcome["killed"], f"{name} survived"
    # each is killed by the scenario written for it (the failing scenario is named in the report)
    assert any("dtk-morph-nameless" in p for p in outcomes["legend-rule"]["failed"])
    assert any("cr-702.2b-deathtouch" in p for p in outcomes["deathtouch"]["failed"])
    assert any("cr-603.10a-leave-together" in p for p in outcomes["leave-together-look-back"]["failed"])
    assert report["killed"] == 3 and report["must_kill_survivors"] == []


def test_the_cli_exits_non_zero_when_a_must_kill_mutant_survives(
    mutate: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A mutant that changes nothing the suite can see (a comment) survives, and the exit code says so."""
    harmless = mutate.Mutant("comment-only", "704.3", "sba.py", '"""State-based actions', '"""State-based  actions')
    monkeypatch.setattr(mutate, "MUTANTS", (harmless,))
    assert mutate.main(["--only", "comment-only", "--no-baseline"]) == 1
