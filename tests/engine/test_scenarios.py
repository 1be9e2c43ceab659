"""Every scenario under data/scenarios passes; mutated scenarios fail; the loader names file:line."""

from __future__ import annotations

import copy
import dataclasses
from pathlib import Path

import pytest
import yaml

from kb import eras
from rules_engine.cards import CardDB
from rules_engine.errors import ScenarioFormatError
from rules_engine.expect import Expectation
from rules_engine.options import RulesOptions
from rules_engine.scenario import load_scenario, load_scenarios, run_scenario

DATA = Path(__file__).resolve().parents[2] / "data"

SCENARIOS = sorted((DATA / "scenarios").rglob("*.yaml"))
FIRST_TARGET = {
    *(f"shm/counters/{n}" for n in range(1, 7)),
    *(f"shm/persist/{n}" for n in range(1, 8)),
    *(f"shm/wither/{n}" for n in range(1, 6)),
    "shm/counters/note-1",
    "shm/persist/note-1",
    "shm/wither/note-1",
    "shm/rule/502.79/ru",
    "shm/rule/502.79a/ru",
    "shm/rule/212.3g/ru",
    "shm/rule/502.80/ru",
    "shm/rule/502.80a/ru",
    "shm/rule/502.80b/ru",
}


TIMELINE = eras.load_timeline(DATA / "rules" / "timeline.yaml")
DATES = {d["id"]: d.get("date") for d in yaml.safe_load((DATA / "sources" / "manifest.yaml").read_text())["documents"]}


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_passes_in_the_era_of_each_document_it_proves(path: Path, db: CardDB) -> None:
    for scenario in load_scenarios(path, db):
        # an official ruling's era is its own date, known to the knowledge base only: here today's rules
        documents = sorted({r.split("/", 1)[0] for r in scenario.rulings})
        eras_played = {TIMELINE.options_for(DATES[d]) if d in DATES else eras.TODAY for d in documents}
        for options in eras_played or {scenario.options}:
            result = run_scenario(dataclasses.replace(scenario, options=options), db)
            assert result.passed, f"{scenario.id} {options}\n" + "\n".join(result.failures + result.log)


def test_first_acceptance_target_is_linked(db: CardDB) -> None:
    linked = {r for p in SCENARIOS for s in load_scenarios(p, db) for r in s.rulings}
    assert linked >= FIRST_TARGET, sorted(FIRST_TARGET - linked)


def _mutated(path: Path, db: CardDB, kind: str, ref: str, value: object):  # type: ignore[no-untyped-def]
    scenario = load_scenario(DATA / "scenarios" / path, db)
    mutated = copy.deepcopy(scenario)
    for exp in mutated.expectations:
        if exp.kind == kind and ref in exp.value:
            exp.value = {**exp.value, ref: value}
            return mutated
    mutated.expectations.append(Expectation(kind, {ref: value}, "mutation"))
    return mutated


@pytest.mark.parametrize(
    ("path", "kind", "ref", "wrong"),
    [
        # persist returned the card although it had -1/-1 counters as it left (LKI ignored)
        ("shm-persist-plus-counters.yaml", "zone", "elite-plus", "battlefield"),
        # wither damage marked as damage instead of counters
        ("shm-wither-combat.yaml", "counters", "Hill Giant", {}),
        # "becomes 4/1" ignoring the -1/-1 counter (counters applied before P/T setting)
        ("shm-counters-layers.yaml", "pt", "Hill Giant", "7/4"),
        # two persist triggers both returning the card: two counters
        ("shm-persist-twice.yaml", "counters", "Safehold Elite", {"-1/-1": 2}),
        # negative power used by a non-P/T effect
        ("shm-counters-negative-power-combat.yaml", "life", "bob", 21),
        # pairs of counters not annihilated
        ("shm-counters-annihilation.yaml", "counters", "bears-a", {"+1/+1": 2, "-1/-1": 1}),
    ],
)
def test_wrong_expectation_makes_scenario_fail(
    path: str, kind: str, ref: str, wrong: object, db: CardDB
) -> None:
    result = run_scenario(_mutated(Path(path), db, kind, ref, wrong), db)
    assert not result.passed
    assert any("ожидалось" in f for f in result.failures)


def test_wrong_stack_order_makes_apnap_scenario_fail(db: CardDB) -> None:
    scenario = copy.deepcopy(load_scenario(DATA / "scenarios" / "shm-persist-apnap.yaml", db))
    for step in scenario.steps:
        if step.kind == "expect":
            for exp in step.params["expect"]:
                if exp.kind == "stack":
                    exp.value = list(reversed(exp.value))
    assert not run_scenario(scenario, db).passed


def test_flipping_a_rules_option_changes_the_outcome(db: CardDB, scenario_from) -> None:  # type: ignore[no-untyped-def]
    scenario = scenario_from(
        """
        id: burn
        title: ожог маны
        setup:
          active: alice
          alice: {mana: "{R}{R}"}
        actions:
          - advance: beginning_of_combat
        expect:
          - life: {alice: 20}
        """
    )
    assert run_scenario(scenario, db).passed
    burnt = dataclasses.replace(scenario, options=RulesOptions(mana_burn=True))
    result = run_scenario(burnt, db)
    assert not result.passed and "жизнь Алисы" in result.failures[0]


def test_unscripted_decision_fails_the_scenario(db: CardDB) -> None:
    scenario = copy.deepcopy(load_scenario(DATA / "scenarios" / "shm-persist-basic.yaml", db))
    for step in scenario.steps:
        step.params.pop("choices", None)
    result = run_scenario(scenario, db)
    assert not result.passed and "нескриптованное решение" in result.failures[0]


def test_unused_scripted_choice_fails_the_scenario(play) -> None:  # type: ignore[no-untyped-def]
    result = play(
        """
        id: extra
        title: extra
        setup:
          active: alice
          alice: {mana: "{R}", hand: [Shock]}
        actions:
          - cast: Shock
            targets: [bob]
            choices: [{kind: may, value: "yes"}]
          - resolve
        expect:
          - life: {bob: 18}
        """
    )
    assert not result.passed and "не понадобились" in result.failures[-1]


# -- loader errors ---------------------------------------------------------------------------------
def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_unknown_card_is_rejected_with_file_and_line(tmp_path: Path, db: CardDB) -> None:
    path = _write(
        tmp_path,
        "id: x\ntitle: x\nsetup:\n  alice:\n    battlefield:\n      - {card: No Such Card}\n"
        "expect:\n  - life: {bob: 20}\n",
    )
    with pytest.raises(ScenarioFormatError, match=rf"{path}:6: unknown card 'No Such Card'"):
        load_scenario(path, db)


def test_scenario_without_expectations_is_rejected(tmp_path: Path, db: CardDB) -> None:
    path = _write(tmp_path, "id: x\ntitle: x\nsetup:\n  alice: {life: 3}\nactions:\n  - pass\n")
    with pytest.raises(ScenarioFormatError, match=rf"{path}:1: scenario has no expectations"):
        load_scenario(path, db)


def test_malformed_step_is_rejected(tmp_path: Path, db: CardDB) -> None:
    path = _write(
        tmp_path,
        "id: x\ntitle: x\nsetup: {}\nactions:\n  - resolve\n  - {cats: Shock}\nexpect:\n  - life: {bob: 20}\n",
    )
    with pytest.raises(ScenarioFormatError, match=rf"{path}:6: a step needs exactly one action"):
        load_scenario(path, db)


def test_unknown_ruling_id_is_rejected_when_ids_are_known(tmp_path: Path, db: CardDB) -> None:
    path = _write(
        tmp_path, "id: x\ntitle: x\nrulings: [shm/persist/99]\nsetup: {}\nexpect:\n  - life: {bob: 20}\n"
    )
    load_scenario(path, db)  # no knowledge base: the form is enough
    with pytest.raises(ScenarioFormatError, match=rf"{path}:3: unknown ruling id 'shm/persist/99'"):
        load_scenario(path, db, known_rulings={"shm/persist/1"})


def test_unknown_expectation_and_rules_option(tmp_path: Path, db: CardDB) -> None:
    path = _write(tmp_path, "id: x\ntitle: x\nsetup: {}\nexpect:\n  - lifes: {bob: 20}\n")
    with pytest.raises(ScenarioFormatError, match=rf"{path}:5: unknown expectation 'lifes'"):
        load_scenario(path, db)
    path = _write(
        tmp_path, "id: x\ntitle: x\nrules: {mana_brun: true}\nsetup: {}\nexpect:\n  - life: {bob: 20}\n"
    )
    with pytest.raises(ScenarioFormatError, match=rf"{path}:3: unknown rules option"):
        load_scenario(path, db)


def test_old_redirection_rule_is_needed_by_its_scenario(db: CardDB) -> None:
    scenario = load_scenario(DATA / "scenarios" / "lrw-planeswalker-redirect.yaml", db)
    old = dataclasses.replace(scenario, options=RulesOptions(planeswalker_redirection=True))
    assert run_scenario(old, db).passed
    modern = dataclasses.replace(scenario, options=RulesOptions(planeswalker_redirection=False))
    result = run_scenario(modern, db)
    assert not result.passed  # no redirection decision is asked: the scripted one is left unused
