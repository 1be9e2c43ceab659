"""The verification adapter: real verdicts when ``kb.verify`` is there, "not linked" when it is not."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from kb.export import proofs, scenario_text
from kb.store import KnowledgeBase


def test_without_kb_verify_every_ruling_is_not_linked(monkeypatch: pytest.MonkeyPatch, seed_kb: KnowledgeBase) -> None:
    def missing(name: str) -> object:
        raise ImportError(name)

    monkeypatch.setattr(proofs.importlib, "import_module", missing)
    result = proofs.collect(seed_kb)
    assert result.source == "none" and not result.warnings
    assert result.of("shm/persist/3").status == "unlinked"
    assert result.of("shm/persist/3").label == "не связано со сценарием"


def test_broken_verification_degrades_with_a_warning(monkeypatch: pytest.MonkeyPatch, seed_kb: KnowledgeBase) -> None:
    def boom(*_: object) -> object:
        raise ValueError("data/scenarios/x.yaml:3: bad")

    monkeypatch.setattr(proofs.importlib, "import_module", lambda name: SimpleNamespace(card_db=boom))
    result = proofs.collect(seed_kb)
    assert result.source == "none"
    assert result.warnings and "x.yaml:3" in result.warnings[0]


def test_real_verdicts_carry_scenarios_with_russian_text(seed_proofs: proofs.Proofs, seed_kb: KnowledgeBase) -> None:
    if seed_proofs.source != "kb.verify":
        pytest.skip("kb.verify not available")
    verified = [v for v in seed_proofs.verdicts.values() if v.status == "verified"]
    assert verified
    scenario = verified[0].scenarios[0]
    assert scenario.passed is True
    assert scenario.setup and scenario.setup[0].startswith("Ход ")
    assert scenario.actions and scenario.expectations and scenario.log
    assert not Path(scenario.source).is_absolute()  # no machine-specific paths in the site
    counts = seed_proofs.coverage(r.id for r in seed_kb.rulings if r.kind == "ruling")
    assert sum(counts.values()) == sum(1 for r in seed_kb.rulings if r.kind == "ruling")


def test_scenario_steps_read_in_russian() -> None:
    def name(ref: str) -> str:
        return {"Lightning Bolt": "«Молния»", "Murderous Redcap": "«Кровожадный Красный Колпак»"}.get(ref, ref)

    step = {"cast": "Lightning Bolt", "by": "alice", "targets": ["Murderous Redcap"]}
    line = scenario_text.step_line("cast", step, name)
    assert line == "Алиса разыгрывает «Молния» (цели: «Кровожадный Красный Колпак»)."
    assert scenario_text.expectation_line("life", {"alice": 19, "bob": 20}, name) == "жизнь — Алиса: 19, Боб: 20"
    counters = scenario_text.expectation_line("counters", {"Murderous Redcap": {"-1/-1": 1}}, name)
    assert counters.endswith(": жетон -1/-1")


def test_every_engine_expectation_and_step_option_has_a_russian_label() -> None:
    """A proof never shows a raw engine key such as ``may_look`` to the reader."""
    from kb.export import scenario_text
    from rules_engine import expect, scenario

    assert set(expect.KINDS) <= set(scenario_text.EXPECTATIONS)
    line = scenario_text.step_line("cast", {"cast": "X", "hybrid": ["B"], "alternative": "evoke"}, str)
    assert "hybrid" not in line and "alternative" not in line
    assert "гибридные" in line and "Вызывания" in line
    assert {"hybrid", "alternative"} <= scenario.STEP_MODIFIERS  # the options rendered above are the engine's own
