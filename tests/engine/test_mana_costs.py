"""Mana symbols, payment (hybrid, monocolored hybrid, X) and non-mana costs ({T}, {Q})."""

from __future__ import annotations

from collections import Counter

import pytest

from rules_engine import actions
from rules_engine.errors import DecisionMissing, IllegalAction
from rules_engine.mana import choose_payment, parse_cost, parse_units, pays


def test_mana_value_and_colours_of_hybrid_costs() -> None:
    redcap = parse_cost("{2}{B/R}{B/R}")
    assert redcap.mana_value == 4
    assert redcap.colors == {"B", "R"}
    assert parse_cost("{2/W}{2/W}{2/W}").mana_value == 6
    assert parse_cost("{X}{R}").mana_value == 1


@pytest.mark.parametrize(
    ("cost", "units", "ok"),
    [
        ("{2}{B/R}{B/R}", "BBRR", True),
        ("{2}{B/R}{B/R}", "GGBR", True),
        ("{2}{B/R}{B/R}", "GGGB", False),
        ("{2/B}", "B", True),
        ("{2/B}", "GG", True),
        ("{2/B}", "G", False),
        ("{1}{U}", "UU", True),
        ("{1}{U}", "UUU", False),  # exact payment, nothing left over
    ],
)
def test_pays(cost: str, units: str, ok: bool) -> None:
    assert pays(parse_cost(cost), parse_units(units)) is ok


def test_payment_is_forced_or_scripted() -> None:
    cost = parse_cost("{B/R}")
    assert choose_payment(cost, Counter("B"), None) == Counter("B")
    with pytest.raises(DecisionMissing):
        choose_payment(cost, Counter("BR"), None)
    assert choose_payment(cost, Counter("BR"), Counter("R")) == Counter("R")
    with pytest.raises(IllegalAction):
        choose_payment(cost, Counter("BR"), Counter("G"))


def test_spell_remembers_the_mana_spent(game_from) -> None:  # type: ignore[no-untyped-def]
    game = game_from(
        """
        active: alice
        alice: {mana: "{B}{R}", hand: [Scar]}
        bob: {battlefield: [Grizzly Bears]}
        """
    )
    actions.perform(game, "cast", "alice", {"cast": "Scar", "targets": ["Grizzly Bears"], "pay": "{R}"})
    assert game.stack[-1].mana_spent == Counter("R")  # type: ignore[union-attr]
    assert game.players["alice"].mana_pool == Counter("B")


X_SCENARIO = """
id: x
title: x
cards:
  Blaze Test: {cost: "{X}{R}", type: Sorcery, targets: [any], effect: {damage: {amount: X, to: target}}}
setup:
  active: alice
  alice: {mana: "{R}{R}{R}", hand: [Blaze Test]}
actions:
  - {cast: Blaze Test, targets: [bob]%s}
  - resolve
expect:
  - life: {bob: 18}
"""


def test_x_must_be_scripted(play) -> None:  # type: ignore[no-untyped-def]
    unscripted = play(X_SCENARIO % "")
    assert not unscripted.passed
    assert "нескриптованное решение" in unscripted.failures[0]
    scripted = play(X_SCENARIO % ", x: 2")
    assert scripted.passed, scripted.failures


def test_untap_symbol_needs_a_tapped_permanent_without_summoning_sickness(play) -> None:  # type: ignore[no-untyped-def]
    result = play(
        """
        id: q
        title: q
        cards:
          Q Tester:
            cost: "{1}"
            type: Creature — Test
            pt: 1/1
            abilities:
              - activated: "{Q}"
                name: untap
                effect: {gain_life: {n: 1, player: you}}
        setup:
          active: alice
          alice:
            battlefield:
              - {card: Q Tester, ref: untapped}
              - {card: Q Tester, ref: sick, tapped: true, summoning_sick: true}
              - {card: Q Tester, ref: ready, tapped: true}
        actions:
          - {activate: untapped, illegal: true}
          - {activate: sick, illegal: true}
          - {activate: ready}
          - resolve
        expect:
          - tapped: {ready: false}
          - life: {alice: 21}
        """
    )
    assert result.passed, result.failures
