"""Triggered abilities: APNAP order, scripted order, intervening-if, leaves-the-battlefield look-back."""

from __future__ import annotations

import pytest

from rules_engine import actions
from rules_engine.errors import DecisionMissing
from rules_engine.game import Choice, StackAbility

WRATH_SETUP = """
active: alice
alice:
  mana: "{W}{W}{C}{C}"
  hand: [Wrath of God]
  battlefield: [{card: Safehold Elite, ref: a1}, {card: Kitchen Finks, ref: a2}]
bob:
  battlefield: [{card: Safehold Elite, ref: b1}]
"""


def test_unscripted_order_of_distinguishable_triggers_fails(game_from) -> None:  # type: ignore[no-untyped-def]
    game = game_from(WRATH_SETUP)
    actions.perform(game, "cast", "alice", {"cast": "Wrath of God"})
    with pytest.raises(DecisionMissing):
        actions.perform(game, "resolve", None, {})


def test_apnap_active_player_first_on_stack(game_from) -> None:  # type: ignore[no-untyped-def]
    game = game_from(WRATH_SETUP)
    game.choices.append(Choice("order", ["a2", "a1"], "alice"))
    actions.perform(game, "cast", "alice", {"cast": "Wrath of God"})
    actions.perform(game, "resolve", None, {})
    bottom_to_top = [item.source.card.ref for item in game.stack if isinstance(item, StackAbility)]
    assert bottom_to_top == ["a2", "a1", "b1"]


INTERVENING_IF = """
id: if
title: if
cards:
  Low Life Helper:
    cost: "{1}"
    type: Enchantment
    abilities:
      - triggered: beginning_of_step
        name: if-low
        filter: {step: upkeep, whose: you}
        condition: {life_at_most: 10}
        effect: {draw: {n: 1, player: you}}
  Heal Five: {cost: "{W}", type: Instant, effect: {gain_life: {n: 5, player: you}}}
setup:
  active: bob
  step: end
  alice: {life: 10, hand: [Heal Five], battlefield: [Low Life Helper, Plains], library: [Grizzly Bears]}
  bob: {library: [Grizzly Bears]}
actions:
  - advance: upkeep
  - expect: [{stack: [Low Life Helper/if-low]}]
%s
  - resolve
expect:
  - hand_size: {alice: %d}
"""


def test_intervening_if_is_checked_on_resolution_too(play) -> None:  # type: ignore[no-untyped-def]
    plain = play(INTERVENING_IF % ("", 2))
    assert plain.passed, plain.failures
    respond = "  - mana: Plains\n  - cast: Heal Five\n  - resolve"
    healed = play(INTERVENING_IF % (respond, 0))
    assert healed.passed, healed.failures
    assert any("больше не выполняется" in line for line in healed.log)


def test_dies_trigger_looks_back_at_granted_persist(play) -> None:  # type: ignore[no-untyped-def]
    result = play(
        """
        id: lb
        title: lb
        cards:
          Granter:
            cost: "{1}"
            type: Enchantment
            abilities:
              - {static: grant, name: g, affects: {types: [Creature]}, value: {keywords: [persist]}}
        setup:
          active: alice
          alice: {mana: "{W}{W}{C}{C}", hand: [Wrath of God], battlefield: [Granter, Grizzly Bears]}
        actions:
          - cast: Wrath of God
          - resolve
          - expect: [{stack: [Grizzly Bears/persist]}]
          - resolve
        expect:
          - pt: {Grizzly Bears: 1/1}
        """
    )
    assert result.passed, result.failures


SPLIT_CLASH = """
id: sc
title: sc
rules: {split_card_two_sets_of_characteristics: %s}
cards:
  Trophy:
    cost: "{1}"
    type: Artifact
    abilities: [{triggered: clash_won, name: t, effect: {gain_life: {n: 1, player: you}}}]
setup:
  active: alice
  alice: {mana: "{R}{C}", hand: [Lash Out], library: [%s]}
  bob: {battlefield: [Trophy, Craw Wurm], library: [%s]}
actions:
  - {cast: Lash Out, targets: [Craw Wurm]}
  - {resolve: 1, choices: [{kind: clash, value: top, player: alice}, {kind: clash, value: top, player: bob}]}
  - advance: main2
expect:
  - life: {bob: %d}
"""


@pytest.mark.parametrize(
    ("alice_top", "bob_top", "bob_life"),
    [
        ("Night // Day", "Grizzly Bears", 18),  # 3 > 2 and 2 > 1: both win
        ("Hill Giant", "Grizzly Bears", 17),  # only alice wins
        ("Grizzly Bears", "Night // Day", 18),  # both win
        ("Shock", "Night // Day", 21),  # 3 > 1, but 1 is not > 1: only bob wins
    ],
)
def test_split_halves_clash_separately_before_2017(play, alice_top: str, bob_top: str, bob_life: int) -> None:  # type: ignore[no-untyped-def]
    result = play(SPLIT_CLASH % ("true", alice_top, bob_top, bob_life))
    assert result.passed, result.failures


@pytest.mark.parametrize(
    ("alice_top", "bob_top", "bob_life"),
    [
        ("Night // Day", "Grizzly Bears", 17),  # 1 + 3 = 4 > 2: only alice wins
        ("Grizzly Bears", "Night // Day", 21),  # 2 < 4: only bob wins
    ],
)
def test_split_card_mana_value_is_combined_today(play, alice_top: str, bob_top: str, bob_life: int) -> None:  # type: ignore[no-untyped-def]
    result = play(SPLIT_CLASH % ("false", alice_top, bob_top, bob_life))  # rule 709.4
    assert result.passed, result.failures
