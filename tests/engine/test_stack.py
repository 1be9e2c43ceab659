"""The stack: last in, first out; targets re-checked on resolution; timing; copies."""

from __future__ import annotations

import pytest

from rules_engine import actions
from rules_engine.errors import DecisionMissing, IllegalAction, ScriptError


def test_last_in_first_out_and_response_saves_creature(game_from) -> None:  # type: ignore[no-untyped-def]
    game = game_from(
        """
        active: alice
        alice: {mana: "{R}", hand: [Shock]}
        bob: {mana: "{G}", hand: [Giant Growth], battlefield: [Grizzly Bears]}
        """
    )
    actions.perform(game, "cast", "alice", {"cast": "Shock", "targets": ["Grizzly Bears"]})
    actions.perform(game, "cast", "bob", {"cast": "Giant Growth", "targets": ["Grizzly Bears"]})
    assert [o.card.ref for o in game.stack] == ["Shock", "Giant Growth"]
    actions.perform(game, "resolve", None, {"resolve": "all"})
    bears = game.battlefield[0]
    assert bears.damage == 2
    assert game.chars(bears).toughness == 5
    assert not game.stack


def test_spell_with_all_targets_illegal_does_nothing(game_from) -> None:  # type: ignore[no-untyped-def]
    game = game_from(
        """
        active: alice
        alice: {mana: "{G}{R}", hand: [Giant Growth, Shock]}
        bob: {battlefield: [Grizzly Bears]}
        """
    )
    actions.perform(game, "cast", "alice", {"cast": "Giant Growth", "targets": ["Grizzly Bears"]})
    actions.perform(game, "cast", "alice", {"cast": "Shock", "targets": ["Grizzly Bears"]})
    actions.perform(game, "resolve", None, {})  # Shock kills the Bears
    actions.perform(game, "resolve", None, {})  # Giant Growth: its only target is gone
    assert any("не производит эффекта" in line for line in game.log_lines)
    assert [o.card.ref for o in game.players["alice"].graveyard] == ["Shock", "Giant Growth"]


def test_sorcery_timing(game_from) -> None:  # type: ignore[no-untyped-def]
    game = game_from(
        """
        active: bob
        alice: {mana: "{W}{W}{C}{C}", hand: [Wrath of God]}
        """
    )
    with pytest.raises(IllegalAction) as rejected:
        actions.perform(game, "cast", "alice", {"cast": "Wrath of God"})
    assert rejected.value.rule == "117.1a"  # a sorcery: main phase, empty stack
    assert game.players["alice"].hand  # nothing moved


def test_counterspell_and_resolve_on_empty_stack(game_from) -> None:  # type: ignore[no-untyped-def]
    game = game_from(
        """
        active: alice
        alice: {mana: "{R}", hand: [Lightning Bolt]}
        bob: {mana: "{U}{U}{C}", hand: [Cancel]}
        """
    )
    actions.perform(game, "cast", "alice", {"cast": "Lightning Bolt", "targets": ["bob"]})
    actions.perform(game, "cast", "bob", {"cast": "Cancel", "targets": ["Lightning Bolt"]})
    actions.perform(game, "resolve", None, {"resolve": "all"})
    assert game.players["bob"].life == 20
    with pytest.raises(ScriptError):
        actions.perform(game, "resolve", None, {})


CONSPIRE_TWICE = """
id: c2
title: c2
cards:
  Twin Plot:
    cost: "{R}"
    type: Sorcery
    keywords: [conspire, conspire]
    targets: [any]
    effect: {damage: {amount: 1, to: target}}
setup:
  active: alice
  alice:
    mana: "{R}"
    hand: [Twin Plot]
    battlefield: [{card: Tattermunge Maniac, ref: m1}, {card: Tattermunge Maniac, ref: m2}]
actions:
  - {cast: Twin Plot, targets: [bob], conspire: %s}
expect:
  - stack: %s
"""


@pytest.mark.parametrize(
    ("paid", "stack"),
    [
        ("[m1, m2]", "[Twin Plot/conspire, Twin Plot]"),
        ("[[], [m1, m2]]", "[Twin Plot/conspire-2, Twin Plot]"),
    ],
)
def test_each_conspire_instance_triggers_on_its_own_payment(play, paid: str, stack: str) -> None:  # type: ignore[no-untyped-def]
    result = play(CONSPIRE_TWICE % (paid, stack))
    assert result.passed, result.failures


def test_one_creature_cannot_pay_two_conspire_instances(play) -> None:  # type: ignore[no-untyped-def]
    result = play(CONSPIRE_TWICE % ("[[m1, m2], [m1, m2]]", "[Twin Plot]"))
    assert not result.passed


# -- split cards (rule 709.3): the half is a decision of the caster ------------------------------------------
SPLIT = """
active: alice
alice:
  mana: "{B}{W}{C}{C}"
  hand: [Night // Day]
  battlefield: [Grizzly Bears]
"""


def test_a_split_card_needs_its_half_chosen(game_from) -> None:  # type: ignore[no-untyped-def]
    game = game_from(SPLIT)
    with pytest.raises(DecisionMissing, match="half: Night, Day"):
        actions.perform(game, "cast", "alice", {"cast": "Night // Day", "targets": ["Grizzly Bears"]})
    card = game.players["alice"].hand[0]
    assert card.half is None and game.chars(card).mana_value == 4  # still whole in the hand (709.4)


def test_half_names_a_half_of_a_split_card_only(game_from) -> None:  # type: ignore[no-untyped-def]
    game = game_from(SPLIT)
    with pytest.raises(ScriptError, match="Dusk"):
        actions.perform(game, "cast", "alice", {"cast": "Night // Day", "half": "Dusk"})
    cast = {"cast": "Night // Day", "half": "День", "targets": ["alice"], "pay": "{W}{C}{C}"}
    actions.perform(game, "cast", "alice", cast)
    on_stack = game.stack[-1]  # the Russian name of the half works too; on the stack only Day exists (709.3b)
    assert game.chars(on_stack).name == "Day" and game.chars(on_stack).mana_value == 3
