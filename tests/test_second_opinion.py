"""The second opinion of phase.rs (the optional ``oracle`` extra): scenarios that agree, a wrong fact of ours that
is caught, old rules that are not comparable, and the CLI's one-line error when the extra is missing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kb import second_opinion as so
from kb.cli import app
from rules_engine.options import RulesOptions
from rules_engine.scenario import load_scenario, load_scenarios

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "data" / "scenarios"
MTGJSON = ROOT.parent / "shared" / "mtgjson"


@pytest.fixture(scope="module")
def oracle() -> tuple[Any, dict[str, Any]]:
    """Our card definitions and phase's faces of the MTGJSON set files (none when the files are absent: then
    every card is built from our ``text_en``)."""
    pytest.importorskip("phase")
    from kb import verify as kv

    db = kv.card_db(ROOT / "data")
    faces = so.printed_faces(MTGJSON, ROOT / "build") if MTGJSON.is_dir() else {}  # the CLI's cache too
    return db, faces


@pytest.mark.parametrize("name", ["shm-persist-basic", "shm-wither-combat", "gtc-evolve", "shm-kulrath-knight"])
def test_agrees(oracle: tuple[Any, dict[str, Any]], name: str) -> None:
    db, faces = oracle
    opinion = so.compare(load_scenario(SCENARIOS / f"{name}.yaml", db), db, faces, RulesOptions())
    assert opinion.status == "agrees", opinion.to_dict()
    assert opinion.compared >= 3 and not opinion.differences


def test_a_wrong_fact_of_ours_is_a_disagreement(oracle: tuple[Any, dict[str, Any]]) -> None:
    db, faces = oracle
    scenario = load_scenario(SCENARIOS / "shm-persist-basic.yaml", db)
    game, result = so.play_ours(scenario, db)
    assert not result.failures and not result.stopped_at
    ours = so.facts_of_ours(game)
    assert ours["life alice"] == "19" and ours["counters Murderous Redcap"] == "-1/-1: 1"
    wrong = {**ours, "life alice": "17", "counters Murderous Redcap": "{}"}
    opinion = so.compare(scenario, db, faces, RulesOptions(), ours=wrong)
    assert opinion.status == "disagrees"
    assert {(d.fact, d.ours, d.theirs) for d in opinion.differences} == {
        ("life alice", "17", "19"),
        ("counters Murderous Redcap", "{}", "-1/-1: 1"),
    }


def test_a_ref_naming_two_cards_is_not_compared(oracle: tuple[Any, dict[str, Any]]) -> None:
    """Alice's and Bob's Forest share the ref "Forest": each engine reports whichever it listed last (Bob drew
    his, Alice's is still in her library), so comparing "zone Forest" would compare two different cards."""
    db, faces = oracle
    (scenario,) = load_scenarios(SCENARIOS / "official" / "x-shapesharer-until-next-turn.yaml", db)
    assert so.ambiguous_refs(scenario) == {"Forest"}
    opinion = so.compare(scenario, db, faces, RulesOptions())
    assert opinion.status == "agrees", opinion.to_dict()
    game, _result = so.play_ours(scenario, db)
    ours = so.facts_of_ours(game)
    assert "zone Forest" in ours and "zone Hill Giant" in ours
    wrong = {**ours, "zone Forest": "exile", "zone Hill Giant": "exile"}
    opinion = so.compare(scenario, db, faces, RulesOptions(), ours=wrong)
    assert [(d.fact, d.ours) for d in opinion.differences] == [("zone Hill Giant", "exile")]


def test_a_difference_after_a_decision_phase_never_asks_is_not_comparable(oracle: tuple[Any, dict[str, Any]]) -> None:
    """Leech Bonder moves the age counter (our scripted ``counter_kind``); phase never asks which kind and picks one
    itself: a difference then may come of that choice, not of a rule, so it is no disagreement. (Which kind phase
    picks varies from run to run, so the difference is made sure of: our Hill Giant is given no counter at all.)"""
    db, faces = oracle
    scenario = load_scenario(SCENARIOS / "official" / "t-move-counter-any-kind.yaml", db)
    game, _result = so.play_ours(scenario, db)
    wrong = {**so.facts_of_ours(game), "counters Hill Giant": "{}"}
    opinion = so.compare(scenario, db, faces, RulesOptions(), ours=wrong)
    assert opinion.status == "not_comparable" and opinion.reason == "decision", opinion.to_dict()
    assert "counter_kind" in opinion.why and not opinion.differences


def test_old_rules_are_not_comparable(oracle: tuple[Any, dict[str, Any]]) -> None:
    db, faces = oracle
    scenario = load_scenario(SCENARIOS / "shm-persist-basic.yaml", db)
    opinion = so.compare(scenario, db, faces, RulesOptions(mana_burn=True, planeswalker_redirection=True))
    assert (opinion.status, opinion.reason, opinion.compared) == ("not_comparable", "old_rules", 0)
    assert "mana_burn" in opinion.why and "planeswalker_redirection" in opinion.why
    # an unlinked scenario that states its old rules is played under them, so phase.rs cannot judge it
    own = load_scenario(ROOT / "tests" / "engine" / "cr" / "cr-300.3-mana-burn-2007.yaml", db)
    [opinion] = so.compare_all([own], db, faces)
    assert (opinion.status, opinion.reason) == ("not_comparable", "old_rules")


def test_an_unparsed_card_is_not_comparable(oracle: tuple[Any, dict[str, Any]]) -> None:
    pytest.importorskip("phase")
    face = so.face_of(_invented("Whenever a frog sings, flibber the wobble of target zorp."))
    assert so.unparsed(face)
    assert not so.unparsed(so.face_of(_invented("Flying")))


def test_a_clause_phase_swallowed_is_not_comparable(oracle: tuple[Any, dict[str, Any]]) -> None:
    """phase reads Frontier Mastodon's ferocious line without its «if you control a creature with power 4 or
    greater» and says so only in the face's ``parse_warnings`` (a ``SwallowedClause``): its Mastodon always enters
    with the counter. Such a card is one phase plays without part of its text, so the scenario is not comparable,
    never a disagreement (official/e2-mastodon-itself was one)."""
    db, faces = oracle
    d = db.get("Frontier Mastodon")
    assert d is not None
    face = faces.get("frontier mastodon") or so.face_of(d)
    assert [w["type"] for w in face["parse_warnings"]] == ["SwallowedClause"]
    assert so.unparsed(face) == [face["parse_warnings"][0]["description"]]
    scenario = load_scenario(SCENARIOS / "official" / "e2-mastodon-itself.yaml", db)
    opinion = so.compare(scenario, db, faces, RulesOptions())
    assert (opinion.status, opinion.reason) == ("not_comparable", "card_unparsed"), opinion.to_dict()
    assert "Frontier Mastodon" in opinion.why and not opinion.differences


def _invented(text: str) -> Any:
    from rules_engine.objects import CardDef

    return CardDef(name="Test Frog", name_ru="Тестовая лягушка", cost=None, types=frozenset({"Creature"}),
                   power=1, toughness=1, keywords={"flying": True} if text == "Flying" else {}, text_en=text,
                   invented=True)


def test_cli_prints_the_second_opinion(oracle: tuple[Any, dict[str, Any]]) -> None:
    runner = CliRunner()
    path = str(SCENARIOS / "shm-persist-basic.yaml")
    result = runner.invoke(app, ["verify", "--scenario", path, "--no-log", "--second-opinion"])
    assert result.exit_code == 0, result.output
    assert "СОГЛАСЕН shm-persist-basic" in result.output
    assert "Второе мнение: сценариев 1; согласен — 1" in result.output
    result = runner.invoke(app, ["verify", "--scenario", path, "--second-opinion", "--json"])
    found = json.loads(result.output)["second_opinion"]
    assert found["summary"]["agrees"] == 1 and found["scenarios"][0]["status"] == "agrees"


def test_cli_without_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(so, "available", lambda: False)
    result = CliRunner().invoke(app, ["verify", "--all", "--second-opinion"])
    assert result.exit_code == 2
    assert "pip install -e '.[oracle]'" in result.output
    assert "не установлен" in result.output


def test_coverage_counts_the_rulings_both_engines_confirm(seed_kb) -> None:  # type: ignore[no-untyped-def]
    from kb import verify as kv

    if not so.available() or not so.mtgjson_dir().is_dir():
        pytest.skip("the oracle extra (phase.rs) or ../shared/mtgjson is not here")
    coverage = kv.coverage(seed_kb)
    report = coverage["second_opinion"]
    verified = coverage["total"]["verified"]
    assert verified == 194  # of the seeds' 205 rulings
    assert report["available"] and report["verified"] == verified
    assert 0 < report["confirmed"] < verified and report["share"] == round(report["confirmed"] / verified, 3)


def test_a_draw_ends_the_game_facts_like_a_win(oracle: tuple[Any, dict[str, Any]]) -> None:
    """Both players deck out (104.4a, a draw): phase moves every card out at the end, so its zones are not the
    game's facts; the draw is a fact of its own ("draw", not "none", which means the game goes on)."""
    db, faces = oracle
    scenario = load_scenario(SCENARIOS / "official" / "rv-madness-both-deck-out.yaml", db)
    game, _result = so.play_ours(scenario, db)
    ours = so.facts_of_ours(game)
    assert ours["winner"] == "draw"
    opinion = so.compare(scenario, db, faces, RulesOptions())
    assert opinion.status == "agrees", opinion.to_dict()
    assert not any(d.fact.startswith("zone ") for d in opinion.differences)
    opinion = so.compare(scenario, db, faces, RulesOptions(), ours={**ours, "winner": "none"})
    assert [(d.fact, d.ours, d.theirs) for d in opinion.differences] == [("winner", "none", "draw")]
