"""Continuous effects in layers: 7b before 7c before 7d counters before 7e, whatever the timestamps."""

from __future__ import annotations

import pytest

from rules_engine import actions
from rules_engine.layers import ALL_CREATURE_TYPES


def test_setting_then_modifying_then_counters_then_switching(play) -> None:  # type: ignore[no-untyped-def]
    result = play(
        """
        id: layers
        title: layers
        cards:
          Set 4/1:
            cost: "{U}"
            type: Instant
            targets: [creature]
            effect: {set_pt: {power: 4, toughness: 1, on: target}}
          Switch: {cost: "{U}", type: Instant, targets: [creature], effect: {switch_pt: {on: target}}}
        setup:
          active: alice
          alice: {mana: "{U}{U}{G}", hand: [Switch, Giant Growth, Set 4/1]}
          bob: {battlefield: [{card: Craw Wurm, counters: {"-1/-1": 1}}]}
        actions:
          - {cast: Switch, targets: [Craw Wurm], pay: "{U}"}
          - resolve
          - {cast: Giant Growth, targets: [Craw Wurm]}
          - resolve
          - {cast: Set 4/1, targets: [Craw Wurm]}
          - resolve
        expect:
          # 4/1 (7b) +3/+3 (7c) = 7/4, -1/-1 (7d) = 6/3, switched (7e) = 3/6
          - pt: {Craw Wurm: 3/6}
        """
    )
    assert result.passed, result.failures


def test_until_end_of_turn_effects_end_in_cleanup(game_from) -> None:  # type: ignore[no-untyped-def]
    game = game_from(
        """
        active: alice
        alice: {mana: "{G}", hand: [Giant Growth], battlefield: [Grizzly Bears]}
        bob: {library: [Grizzly Bears]}
        """
    )
    actions.perform(game, "cast", "alice", {"cast": "Giant Growth", "targets": ["Grizzly Bears"]})
    actions.perform(game, "resolve", None, {})
    bears = game.battlefield[0]
    assert game.chars(bears).power == 5
    actions.perform(game, "advance", None, {"advance": "upkeep"})
    assert game.active == "bob" and game.chars(bears).power == 2


def test_changeling_has_every_creature_type_in_every_zone(game_from) -> None:  # type: ignore[no-untyped-def]
    game = game_from(
        """
        active: alice
        alice: {hand: [Avian Changeling], graveyard: [Avian Changeling]}
        """
    )
    for obj in [*game.players["alice"].hand, *game.players["alice"].graveyard]:
        assert ALL_CREATURE_TYPES in game.chars(obj).subtypes


def test_static_grant_and_ability_loss(play) -> None:  # type: ignore[no-untyped-def]
    result = play(
        """
        id: grant
        title: grant
        cards:
          Strip: {cost: "{U}", type: Instant, targets: [creature], effect: {lose_abilities: {on: target}}}
          Wither Anthem:
            cost: "{2}{B}"
            type: Enchantment
            abilities: [{static: grant, affects: {types: [Creature]}, value: {keywords: [wither]}}]
        setup:
          active: alice
          alice: {mana: "{U}", hand: [Strip], battlefield: [Wither Anthem, Grizzly Bears]}
        actions:
          - expect: [{keywords: {Grizzly Bears: [wither]}}]
          - {cast: Strip, targets: [Grizzly Bears]}
          - resolve
        expect:
          # the loss of abilities has a later timestamp than the static grant, so it wins
          - not_keywords: {Grizzly Bears: [wither]}
        """
    )
    assert result.passed, result.failures


TEXT_CHANGE = """
id: tc
title: tc
setup:
  active: alice
  alice:
    mana: "{U}{B}{C}"
    hand: [Artificial Evolution, Terror]
    battlefield: [Boggart Shenanigans, Tattermunge Maniac]
actions:
  - {cast: Artificial Evolution, targets: [Boggart Shenanigans], pay: "{U}"}
  - {resolve: 1, choices: [{kind: text_change, value: {from: Goblin, to: %s}}]}
  - {cast: Terror, targets: [Tattermunge Maniac]}
  - resolve
expect:
  - subtypes: {Boggart Shenanigans: [%s]}
  - stack_size: %d
"""


@pytest.mark.parametrize(("word", "triggers"), [("Elf", 0), ("Goblin", 1)])
def test_text_change_rewrites_type_line_and_trigger_filter(play, word: str, triggers: int) -> None:  # type: ignore[no-untyped-def]
    text = TEXT_CHANGE % (word, word, triggers)
    if triggers:  # the Goblin-dies trigger needs its target scripted
        text = text.replace("  - resolve\nexpect", "  - {resolve: 1, choices: [{kind: target, value: bob}]}\nexpect")
    result = play(text)
    assert result.passed, result.failures
