"""Strict loading: every word of a card or scenario is known, or the file is rejected with ``file:line``.

A word the engine does not read would make a card do something else than its text and still pass (an ignored
filter key destroys every creature), so each of these must be a load error, never a silent default.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from rules_engine import schema, vocabulary
from rules_engine.cards import CardDB
from rules_engine.errors import ScenarioFormatError
from rules_engine.layers import STATIC_LAYERS
from rules_engine.scenario import load_scenario, run_scenario

SCENARIO = """\
id: x
title: x
cards:
  Probe:
{card}
setup:
  active: alice
  alice: {{mana: "{{R}}", hand: [Probe]}}
expect:
  - life: {{bob: 20}}
"""


def _load_card(tmp_path: Path, db: CardDB, card: str) -> None:
    path = tmp_path / "card.yaml"
    path.write_text(SCENARIO.format(card=textwrap.indent(textwrap.dedent(card).strip(), "    ")), encoding="utf-8")
    load_scenario(path, db)


@pytest.mark.parametrize(
    ("card", "line", "message"),
    [
        # the case that destroyed every creature: a filter key the engine ignored
        ('cost: "{R}"\ntype: Sorcery\neffect: {destroy_all: {types: [Creature], colour: [B]}}', 7,
         r"unknown key 'colour'; known: .*colors"),
        ('cost: "{R}"\ntype: Instant\ntargets: [any]\neffect: {damage: {amount: 3, too: target}}', 8,
         r"effect damage: unknown key 'too'; known: amount, cant_be_prevented, source, to"),
        ('cost: "{R}"\ntype: Instant\ntargets: [any]\neffect: {damage: {amount: {power: self}, to: target}}', 8,
         r"unknown amount 'power'; known: count, count_made, counters_removed, damage_dealt, discarded, event_amount"),
        ('cost: "{R}"\ntype: Instant\ntargets: [any]\neffect: {damage: {amount: 3, to: targt}}', 8,
         r"unknown reference 'targt'"),
        ('cost: "{R}"\ntype: Instant\neffect: {if: {condition: {controls: {subtypes: [Goblin]}}, then: {draw: {}}}}',
         7, r"unknown key 'controls'; known: attacked_with_at_least, .*control, .*library_at_most"),
        ('cost: "{R}"\ntype: Instant\neffect: {counters: {n: 1, on: self}}', 7, r"effect counters: missing 'kind'"),
        ('cost: "{R}"\ntype: Instant\neffect: {grant: {keywords: [flyng], on: self}}', 7, r"unknown keyword 'flyng'"),
        ('cost: "{R}"\ntype: Instant\neffect: {pump: {power: 1, on: self, duration: forever}}', 7,
         r"unknown duration 'forever'; known: end_of_turn, permanent"),
        ('cost: "{R}"\ntype: Instant\ntargets: [{kind: creature, filer: {tapped: true}}]\neffect: {tap: target}', 7,
         r"target: unknown key 'filer'; known: another, count, filter, kind, number, relation"),
        ('cost: "{R}"\ntype: Instant\ntargets: [{kind: creature, count: 1}]\neffect: {tap: target}', 7,
         r"count is the number of targets of one word, 2 to 10"),
        # targets restricted relative to each other (601.2c)
        ('cost: "{R}"\ntype: Instant\ntargets: [creature, {kind: creature, relation: {same_colour_as: target0}}]\n'
         'effect: {tap: target1}', 7, r"unknown relation 'same_colour_as'; known: mana_value_at_most_of, .*"),
        ('cost: "{R}"\ntype: Instant\ntargets: [{kind: creature, relation: {same_controller_as: target0}}, creature]'
         '\neffect: {tap: target1}', 7, r"same_controller_as: expected an earlier target"),
        ('cost: "{R}"\ntype: Instant\ntargets: [{kind: creature, relation: {same_controller_as: each_other}}]\n'
         'effect: {tap: target}', 7, r"each_other needs count: N and a symmetric relation"),
        ('cost: "{R}"\ntype: Instant\ntargets: [{kind: creature, count: 2, relation: {mana_value_at_most_of: '
         'each_other}}]\neffect: {tap: target0}', 7, r"each_other needs count: N and a symmetric relation"),
        # a variable number of targets (601.2c): "for each opponent, up to one", "each target"
        ('cost: "{R}"\ntype: Instant\ntargets: [{kind: creature, number: {most: 1}}]\neffect: {tap: target}',
         7, r"unknown key 'most'; known: max, min"),
        ('cost: "{R}"\ntype: Instant\ntargets: [{kind: creature, number: any}]\neffect: {put_on_library: each_targets}',
         8, r"unknown reference 'each_targets'"),
        ('cost: "{R}"\ntype: Creature — Elf\npt: 1/1\nabilities:\n  - {activated: "{T}, tap two", effect: {draw: {}}}',
         9, r"bad cost '\{T\}, tap two'"),
        ('cost: "{R}"\ntype: Creature — Elf\npt: 1/1\nabilities:\n  - {triggered: enters, filter: {types: [Elf]},'
         ' effect: {draw: {}}}', 9, r"trigger 'enters' takes no filter"),
        ('cost: "{R}"\ntype: Creature — Elf\npt: 1/1\nabilities:\n  - {triggered: creature_dies, filter: {tapped: '
         'true}, effect: {draw: {}}}', 9, r"filter of trigger creature_dies: unknown key 'tapped'"),
        ('cost: "{R}"\ntype: Creature — Elf\npt: 1/1\nabilities:\n  - {static: pump, value: {power: 1, tuffness: 1}}',
         9, r"unknown key 'tuffness'"),
        ('cost: "{R}"\ntype: Creature — Elf\npt: 1/1\nabilities:\n  - {static: blocks_each_combat, value: 1}', 9,
         r"static ability 'blocks_each_combat' takes no value"),
        ('cost: "{R}"\ntype: Creature — Elf\npt: 1/1\nabilities:\n  - {static: pump, affects: {controler: you}}', 9,
         r"affects of pump: unknown key 'controler'"),
        ('cost: "{R}"\ntype: Creature — Elf\npt: 1/1\nabilities:\n  - {activated: "{T}", counter: "-1/-1",'
         ' effect: {draw: {}}}', 9, r"unknown key 'counter' in a activated ability"),
        ('cost: "{R}"\ntype: Sorcery\neffect: {destroy_all: {not_types: [Legendary]}}', 7,
         r"unknown card type 'Legendary'"),
        # protection's quality (rule 702.16a), in a card's keywords and in a grant alike
        ('cost: "{R}"\ntype: Creature — Elf\npt: 1/1\nkeywords: [{protection: {colours: [R]}}]', 8,
         r"keyword protection: unknown key 'colours'; known: colors, everything, mana_value_at_least, "
         r"multicolored, subtypes, types"),
        ('cost: "{R}"\ntype: Creature — Elf\npt: 1/1\nkeywords: [{protection: red}]', 8,
         r"keyword protection: expected a mapping"),
        ('cost: "{R}"\ntype: Instant\neffect: {grant: {keywords: [{protection: {colors: [Red]}}], on: self}}', 7,
         r"unknown colour 'Red'"),
        ('cost: "{R}"\ntype: Creature — Elf\npt: 1/1\nabilities:\n  - {static: cant_be_blocked, value: {by: {colour: '
         '[R]}}}', 9, r"unknown key 'colour'"),
        ('cost: "{R}"\ntype: Creature — Elf\npt: 1/1\nabilities:\n  - {static: min_blockers, value: {n: two}}', 9,
         r"expected a whole number"),
        ('cost: "{R}"\ntype: Instant\ntargets: [creature, creature]\neffect: {fight: {a: target0}}', 8,
         r"effect fight: missing 'b'"),
        # the replacement framework's vocabulary (614-616)
        ('cost: "{R}"\ntype: Enchantment\nabilities:\n  - {static: modify_damage, value: {times: 2, plus: 1}}', 8,
         r"name one change of minus, plus, times"),
        ('cost: "{R}"\ntype: Enchantment\nabilities:\n  - {static: cant_gain_life, value: {players: all}}', 8,
         r"unknown player 'all'"),
        ('cost: "{R}"\ntype: Enchantment\nabilities:\n  - {static: cant_get_counters, value: {players: you, kind: '
         '"+1/+1"}}', 8, r"unknown player counter '\+1/\+1'"),
        ('cost: "{R}"\ntype: Creature — Elf\npt: 1/1\nabilities:\n  - {static: instead_of_dying, value: {zone: '
         'battlefield}}', 9, r"unknown zone 'battlefield'; known: exile, hand, library"),
        ('cost: "{R}"\ntype: Instant\ntargets: [creature]\neffect: {destroy: {what: target, regenerate: false}}', 8,
         r"unknown key 'regenerate'; known: instead, no_regeneration, what"),
    ],
)
def test_unknown_words_in_cards_are_load_errors(
    tmp_path: Path, db: CardDB, card: str, line: int, message: str
) -> None:
    with pytest.raises(ScenarioFormatError, match=rf"card\.yaml:{line}: .*{message}"):
        _load_card(tmp_path, db, card)


def test_every_effect_static_and_trigger_has_a_schema() -> None:
    assert set(schema.EFFECTS) == vocabulary.EFFECT_NAMES
    assert set(schema.STATIC_VALUES) == vocabulary.STATIC_KINDS
    assert set(schema.TRIGGER_FILTERS) == vocabulary.TRIGGER_EVENTS
    assert set(STATIC_LAYERS) == schema.CONDITIONAL_STATICS  # "as long as" applies to the layered statics


@pytest.mark.parametrize(
    ("card", "message"),
    [
        ("""
         cost: "{1}"
         type: Artifact Creature — Scarecrow
         pt: 2/2
         abilities:
           - {static: grant, value: {keywords: [persist]}, condition: {controll: {colors: [B]}}}
         """, r"unknown key 'controll'"),
        ("""
         cost: "{1}"
         type: Artifact Creature — Scarecrow
         pt: 2/2
         abilities:
           - {static: enters_tapped, condition: {control: {colors: [B]}}}
         """, r"takes no condition"),
    ],
)
def test_conditions_of_static_abilities_are_checked(tmp_path: Path, db: CardDB, card: str, message: str) -> None:
    with pytest.raises(ScenarioFormatError, match=message):
        _load_card(tmp_path, db, card)


def _scenario(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "case.yaml"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("body", "line", "message"),
    [
        ("setup:\n  alice:\n    hand: Lightning Bolt\nexpect:\n  - life: {bob: 20}\n", 5,
         r"alice.hand: expected a list of cards such as \['Lightning Bolt'\]"),
        ("setup:\n  alice: {life: twenty}\nexpect:\n  - life: {bob: 20}\n", 4, r"alice.life: expected a number"),
        ("setup:\n  alice:\n    battlefield: [{card: Grizzly Bears, taped: true}]\nexpect:\n  - life: {bob: 20}\n",
         5, r"unknown card key 'taped'"),
        ("setup:\n  alice:\n    battlefield: [{card: Grizzly Bears, tapped: yes}]\nexpect:\n  - life: {bob: 20}\n",
         5, r"tapped: expected true or false"),
        ("setup: {}\nexpect:\n  - life: 20\n", 5, r"life: expected a mapping \{a player"),
        ("setup: {}\nexpect:\n  - life: {carol: 20}\n", 5, r"'carol' is not a player"),
        ("setup: {}\nexpect:\n  - zone: {Grizzly Bears: battlefeld}\n", 5, r"expected a zone"),
        ("setup: {}\nexpect:\n  - keywords: {Grizzly Bears: [flyng]}\n", 5, r"expected a list of known keywords"),
        ("setup: {}\nactions:\n  - {pass: true, choices: [{kind: mayy, value: yes}]}\nexpect:\n  - life: {bob: 20}\n",
         5, r"unknown decision 'mayy'"),
        ("setup: {}\nactions:\n  - {cast: Shock, mode: first}\nexpect:\n  - life: {bob: 20}\n", 5,
         r"mode: expected N or \[N, M\]"),
        ("setup: {}\nactions:\n  - {cast: Shock, illegal: true}\n", 5,
         r'illegal: names the Comprehensive Rules number .*not True'),
        ("setup: {}\nactions:\n  - {cast: Shock, illegal: 508.1}\n", 5, r"quoted"),
        ("setup: {}\nactions:\n  - {advance: combat}\nexpect:\n  - life: {bob: 20}\n", 5, r"advance: expected a step"),
    ],
)
def test_wrong_shapes_in_scenarios_say_what_was_expected(
    tmp_path: Path, db: CardDB, body: str, line: int, message: str
) -> None:
    path = _scenario(tmp_path, "id: x\ntitle: x\n" + body)
    with pytest.raises(ScenarioFormatError, match=rf"{path}:{line}: .*{message}"):
        load_scenario(path, db)


# -- rejections name their rule ----------------------------------------------------------------------
SUMMONING_SICK = """\
id: x
title: x
setup:
  active: alice
  alice:
    battlefield: [{card: Grizzly Bears, summoning_sick: true}]
actions:
  - {attack: {Grizzly Bears: bob}, illegal: "%s"}
"""


def test_a_rejection_for_the_expected_rule_passes(tmp_path: Path, db: CardDB) -> None:
    result = run_scenario(load_scenario(_scenario(tmp_path, SUMMONING_SICK % "302.6"), db), db)
    assert result.passed, result.failures
    assert any("правило 302.6" in line for line in result.log)


def test_a_rejection_for_another_rule_fails_and_shows_both(tmp_path: Path, db: CardDB) -> None:
    result = run_scenario(load_scenario(_scenario(tmp_path, SUMMONING_SICK % "702.9b"), db), db)
    assert not result.passed
    assert "ожидалось отклонено по правилу 702.9b" in result.failures[0]
    assert "на деле отклонено" in result.failures[0] and "(правило 302.6)" in result.failures[0]


def test_a_script_error_never_counts_as_a_rejection(tmp_path: Path, db: CardDB) -> None:
    """Naming a card that isn't there is the script's fault, not a rule forbidding the action."""
    body = SUMMONING_SICK.replace("{Grizzly Bears: bob}", "{Hill Giant: bob}") % "302.6"
    result = run_scenario(load_scenario(_scenario(tmp_path, body), db), db)
    assert not result.passed
    assert "ошибка сценария" in result.failures[0]


def test_an_allowed_action_fails_an_illegal_step(tmp_path: Path, db: CardDB) -> None:
    body = SUMMONING_SICK.replace("summoning_sick: true", "summoning_sick: false") % "302.6"
    result = run_scenario(load_scenario(_scenario(tmp_path, body), db), db)
    assert not result.passed
    assert "ожидалось отклонено по правилу 302.6, на деле выполнено" in result.failures[0]
