"""Phyrexian mana (107.4f), mana of any colour, equip (702.6) and attaching (701.3): the parts a YAML scenario can't
show, such as a decision the script forgot or a word the loader must refuse."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from rules_engine import phyrexian
from rules_engine.cards import CardDB
from rules_engine.errors import DecisionMissing, IllegalAction, ScenarioFormatError
from rules_engine.mana import parse_cost
from rules_engine.scenario import load_scenario


def test_phyrexian_symbols_are_coloured_and_count_one() -> None:
    cost = parse_cost("{1}{W/P}{W/P}")
    assert cost.mana_value == 3  # rule 202.3g
    assert cost.colors == {"W"}
    hybrid = parse_cost("{G/U/P}")
    assert hybrid.mana_value == 1
    assert hybrid.colors == {"G", "U"}
    assert str(hybrid) == "{G/U/P}"


def test_the_way_to_pay_is_forced_scripted_or_missing() -> None:
    cost = parse_cost("{W/P}")
    # {W} in the pool and 20 life: both ways pay, so the script must say which
    with pytest.raises(DecisionMissing):
        phyrexian.announce(cost, None, 20, Counter("W"), None, modified=False)
    # no {W}: life is the only way; 1 life: mana is the only way
    assert phyrexian.announce(cost, None, 20, Counter(), None, modified=False) == (parse_cost(""), 2)
    assert phyrexian.announce(cost, None, 1, Counter("W"), None, modified=False) == (parse_cost("{W}"), 0)
    # neither
    with pytest.raises(IllegalAction) as no_way:
        phyrexian.announce(cost, None, 1, Counter("U"), None, modified=False)
    assert no_way.value.rule == "118.3"
    # scripted: life needs a life total at least that large (119.4), a colour must be the symbol's (107.4f)
    assert phyrexian.announce(cost, ["life"], 2, Counter("W"), None, modified=False)[1] == 2
    with pytest.raises(IllegalAction) as too_little:
        phyrexian.announce(cost, ["life"], 1, Counter("W"), None, modified=False)
    assert too_little.value.rule == "119.4"
    with pytest.raises(IllegalAction) as wrong_colour:
        phyrexian.announce(cost, ["U"], 20, Counter("U"), None, modified=False)
    assert wrong_colour.value.rule == "107.4f"
    # cost increases or reductions apply: the total cost depends on the answer, which must be scripted (601.2b)
    with pytest.raises(DecisionMissing):
        phyrexian.announce(cost, None, 20, Counter(), None, modified=True)


def test_a_pay_answer_decides_between_mana_and_life() -> None:
    cost = parse_cost("{W/P}{W/P}")
    rest, life = phyrexian.announce(cost, None, 20, Counter("WW"), "{W}", modified=False)
    assert (rest, life) == (parse_cost("{W}"), 2)  # {W} spent names the one plan: one symbol with mana


def test_life_of_the_rest_of_the_cost_counts_too() -> None:
    cost = parse_cost("{B/P}")
    with pytest.raises(IllegalAction) as exc:
        phyrexian.announce(cost, ["life"], 3, Counter(), None, modified=False, other_life=2)
    assert exc.value.rule == "119.4"


UNSCRIPTED = """
id: x
title: x
cards:
  Gut Shot: {cost: "{R/P}", type: Instant, targets: [any], effect: {damage: {amount: 1, to: target}}}
setup:
  active: alice
  alice: {mana: "{R}", hand: [Gut Shot]}
actions:
  - {cast: Gut Shot, targets: [bob]%s}
  - resolve
expect:
  - life: {alice: %d, bob: 19}
"""


def test_an_unscripted_phyrexian_choice_fails_the_scenario(play) -> None:  # type: ignore[no-untyped-def]
    result = play(UNSCRIPTED % ("", 20))
    assert not result.passed
    assert any("phyrexian" in f for f in result.failures)
    assert play(UNSCRIPTED % (", phyrexian: [R]", 20)).passed
    assert play(UNSCRIPTED % (", phyrexian: [life]", 18)).passed


def test_a_phyrexian_answer_without_phyrexian_mana_is_a_script_error(play) -> None:  # type: ignore[no-untyped-def]
    result = play(UNSCRIPTED.replace("{R/P}", "{R}") % (", phyrexian: [life]", 20))
    assert not result.passed


EQUIP = """
id: x
title: x
cards:
  Test Blade:
    cost: "{1}"
    type: Artifact — Equipment
    keywords: [{equip: %s}]
    abilities:
      - {static: pump, affects: {attached: true}, value: {power: 1, toughness: 1}}
  Test Knight: {cost: "{W}", type: Creature — Human Knight, pt: 2/2}
setup:
  active: alice
  alice:
    mana: "{C}{C}"
    battlefield: [Test Blade, Grizzly Bears, Test Knight]
actions:
  - {activate: Test Blade, ability: %s, targets: [%s]%s}
  - resolve
expect:
  - attached: {Test Blade: %s}
"""


@pytest.mark.parametrize(
    ("equip", "ability", "target", "illegal", "host"),
    [
        ('"{1}"', "equip", "Grizzly Bears", "", "Grizzly Bears"),
        # "Equip Knight {1}" (702.6c): only a Knight you control is a legal target
        ('{cost: "{1}", filter: {subtypes: [Knight]}}', "equip", "Grizzly Bears", ', illegal: "601.2c"', "null"),
        ('{cost: "{1}", filter: {subtypes: [Knight]}}', "equip", "Test Knight", "", "Test Knight"),
        # several equip abilities, any of them may be activated (702.6d)
        ('[{cost: "{2}", filter: {subtypes: [Knight]}}, "{1}"]', "equip-2", "Grizzly Bears", "", "Grizzly Bears"),
    ],
)
def test_equip_variants(play, equip, ability, target, illegal, host) -> None:  # type: ignore[no-untyped-def]
    text = EQUIP % (equip, ability, target, illegal, host)
    if illegal:
        text = text.replace("  - resolve\n", "")
    result = play(text)
    assert result.passed, result.failures


def test_an_equipment_that_loses_its_abilities_cannot_equip(game_from) -> None:  # type: ignore[no-untyped-def]
    game = game_from(
        """
        active: alice
        alice: {battlefield: [Grizzly Bears]}
        """
    )
    names = [a.name for o in game.battlefield for a in game.chars(o).abilities]
    assert "equip" not in names  # nothing with equip: no equip ability is made up


@pytest.mark.parametrize(
    ("card", "message"),
    [
        ('{cost: "{1}", type: Artifact — Equipment, keywords: [{equip: "{1}, dance"}]}', "bad equip cost"),
        ('{cost: "{1}", type: Artifact — Equipment, keywords: [{equip: {cost: "{1}", filter: {colour: W}}}]}',
         "colour"),
        ('{cost: "{1}", type: Artifact — Equipment, keywords: [{equip: {price: "{1}"}}]}', "equip is a cost"),
        ('{cost: "{1}", type: Artifact, abilities: [{activated: "{T}", mana: rainbow}]}', "rainbow"),
        ('{cost: "{1}", type: Artifact, abilities: [{activated: "{T}, exile a card from your library",'
         " effect: {draw: {n: 1}}}]}", "unknown cost part"),
    ],
)
def test_unknown_words_of_the_new_vocabulary_are_load_errors(
    tmp_path: Path, db: CardDB, card: str, message: str
) -> None:
    path = tmp_path / "x.yaml"
    head = f"id: x\ntitle: x\ncards:\n  Probe: {card}\n"
    path.write_text(head + "setup: {active: alice}\nexpect:\n  - life: {bob: 20}\n", encoding="utf-8")
    with pytest.raises(ScenarioFormatError) as exc:
        load_scenario(path, db)
    assert message in str(exc.value)


def test_a_bad_phyrexian_answer_is_a_load_error(tmp_path: Path, db: CardDB) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(
        "id: x\ntitle: x\nsetup: {alice: {hand: [Shock]}}\nactions:\n  - {cast: Shock, targets: [bob], "
        "phyrexian: [two life]}\nexpect:\n  - life: {bob: 20}\n",
        encoding="utf-8",
    )
    with pytest.raises(ScenarioFormatError) as exc:
        load_scenario(path, db)
    assert "phyrexian" in str(exc.value)


AMONG = """
id: x
title: x
cards:
  Test Sage:
    cost: "{U}"
    type: Creature — Human
    pt: 0/0
    abilities:
      - activated: "remove two +1/+1 counters from among creatures you control"
        effect: {draw: {n: 1}}
setup:
  active: alice
  alice:
    library: [Island]
    battlefield:
      - {card: Test Sage, counters: {"+1/+1": 1}}
      - {card: Grizzly Bears, counters: {"+1/+1": %d}}
actions:
  - {activate: Test Sage, choices: [{kind: cost, player: alice, value: %s}]%s}
expect:
  - counters: {Test Sage: %s, Grizzly Bears: %s}
"""


def test_counters_from_among_creatures_split_as_the_player_names(play) -> None:  # type: ignore[no-untyped-def]
    # one from each: the Sage (a 0/0 then) dies as a state-based action, the bears keep none
    split = play(AMONG % (1, "[Test Sage, Grizzly Bears]", "", "{}", "{}"))
    assert split.passed, split.failures
    # two from the bears
    both = play(AMONG % (2, "[Grizzly Bears, Grizzly Bears]", "", '{"+1/+1": 1}', "{}"))
    assert both.passed, both.failures
    # two from the Sage, which has one: the payment is refused
    short = play(AMONG % (2, "[Test Sage, Test Sage]", ', illegal: "118.3"', '{"+1/+1": 1}', '{"+1/+1": 2}'))
    assert short.passed, short.failures


@pytest.mark.parametrize(
    ("costs", "message"),
    [('["{T}"]', "no cost a spell can pay"), ('["sacrifice this"]', "unknown cost part"), ('"discard 1"', "a list")],
)
def test_additional_costs_are_checked_when_loading(tmp_path: Path, db: CardDB, costs: str, message: str) -> None:
    card = f'{{cost: "{{B}}", type: Instant, additional_costs: {costs}, effect: {{draw: {{n: 1}}}}}}'
    path = tmp_path / "x.yaml"
    head = f"id: x\ntitle: x\ncards:\n  Probe: {card}\n"
    path.write_text(head + "setup: {active: alice}\nexpect:\n  - life: {bob: 20}\n", encoding="utf-8")
    with pytest.raises(ScenarioFormatError) as exc:
        load_scenario(path, db)
    assert message in str(exc.value)
