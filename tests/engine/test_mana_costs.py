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
          - {activate: untapped, illegal: "107.6"}
          - {activate: sick, illegal: "302.6"}
          - {activate: ready}
          - resolve
        expect:
          - tapped: {ready: false}
          - life: {alice: 21}
        """
    )
    assert result.passed, result.failures


COST_MODS = """
id: cm
title: cm
cards:
  Discount:
    cost: "{1}"
    type: Artifact
    abilities: [{static: cost_reduction, name: d, affects: {controller: you}, value: "%s"}]
  Tax:
    cost: "{1}"
    type: Artifact
    abilities: [{static: cost_increase, name: t, affects: {controller: opponent}, value: "{1}"}]
setup:
  active: alice
  alice: {mana: "%s", hand: [%s], battlefield: [Discount]}
  bob: {battlefield: [%s]}
actions:
  - {cast: %s, pay: "%s"%s}
expect:
  - stack_size: 1
"""


@pytest.mark.parametrize(
    ("discount", "pool", "card", "tax", "pay", "extra", "ok"),
    [
        ("{1}", "{R}{G}", "Grizzly Bears", "Plains", "{G}", "", True),  # generic part reduced
        ("{1}", "{R}{G}", "Grizzly Bears", "Tax", "{G}", "", False),  # ... and increased again
        ("{G}", "{R}{R}{R}", "Boggart Ram-Gang", "Plains", "{R}{R}", ", hybrid: [G, R, R]", True),
        ("{G}", "{R}{R}{R}", "Boggart Ram-Gang", "Plains", "{R}{R}", ", hybrid: [R, R, R]", False),
        ("{1}", "{B}{B}{C}", "Beseech the Queen", "Plains", "{C}{B}{B}", ", hybrid: ['2', B, B]", True),
        ("{1}", "{B}{B}{C}", "Beseech the Queen", "Plains", "{B}{B}", ", hybrid: [B, B, B]", False),
    ],
)
def test_cost_reductions_and_increases(play, discount, pool, card, tax, pay, extra, ok) -> None:  # type: ignore[no-untyped-def]
    result = play(COST_MODS % (discount, pool, card, tax, card, pay, extra))
    assert result.passed is ok, result.failures


def test_cost_modifier_with_hybrid_needs_the_payment_choice(play) -> None:  # type: ignore[no-untyped-def]
    result = play(COST_MODS % ("{G}", "{R}{R}{R}", "Boggart Ram-Gang", "Plains", "Boggart Ram-Gang", "{R}{R}{R}", ""))
    assert not result.passed
    assert any("hybrid" in f for f in result.failures)


def test_pay_life_or_enter_tapped(play) -> None:  # type: ignore[no-untyped-def]
    text = """
        id: pl
        title: pl
        setup:
          active: alice
          alice: {life: %d, hand: [Stomping Ground]}
        actions:
          - {play_land: Stomping Ground, choices: [{kind: may, value: "%s"}]%s}
        expect:
          - life: {alice: %d}
          - tapped: {Stomping Ground: %s}
        """
    assert play(text % (20, "yes", "", 18, "false")).passed
    assert play(text % (20, "no", "", 20, "true")).passed
    assert play(text % (1, "yes", ', illegal: "119.4"', 1, "false")).passed  # with 1 life it can't pay 2
    assert not play(text % (2, "yes", ', illegal: "119.4"', 2, "false")).passed  # with 2 it can
