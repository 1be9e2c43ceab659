"""A shuffle is a decision (rule 701.24a): scripted order, or a seed — never a silent "put it on top"."""

from __future__ import annotations

from collections.abc import Callable

from rules_engine.scenario import ScenarioResult

DREAD = """
id: shuffle
title: shuffle
%s
cards:
  Test Kill: {cost: "{B}", type: Instant, targets: [creature], effect: {destroy: target}, invented: true}
setup:
  active: alice
  alice:
    mana: "{B}"
    hand: [Test Kill]
  bob:
    battlefield: [Dread]
    library: [Island, Forest]
actions:
  - cast: Test Kill
    targets: [Dread]
  - resolve
  - resolve: 1%s
expect:
  - zone: {Dread: library}
  - library_top: {bob: %s}
"""


def test_a_scripted_order_decides_the_library(play: Callable[[str], ScenarioResult]) -> None:
    choice = "\n    choices: [{kind: shuffle, player: bob, value: [Forest, Dread, Island]}]"
    result = play(DREAD % ("", choice, "Forest"))
    assert result.passed, result.failures
    assert any("перемешивает библиотеку" in line for line in result.log)
    assert not play(DREAD % ("", choice, "Dread")).passed  # the scripted top is Forest, not the shuffled card


def test_a_shuffle_nobody_scripted_is_a_missing_decision(play: Callable[[str], ScenarioResult]) -> None:
    result = play(DREAD % ("", "", "Dread"))
    assert not result.passed
    assert "shuffle" in result.failures[0]


def test_a_seed_gives_the_same_order_every_run(play: Callable[[str], ScenarioResult]) -> None:
    tops = set()
    for _ in range(3):
        for top in ("Island", "Forest", "Dread"):
            if play(DREAD % ("seed: 7", "", top)).passed:
                tops.add(top)
    assert len(tops) == 1  # one order for seed 7, every time


def test_an_incomplete_order_is_a_script_error(play: Callable[[str], ScenarioResult]) -> None:
    choice = "\n    choices: [{kind: shuffle, player: bob, value: [Forest, Dread]}]"
    result = play(DREAD % ("", choice, "Forest"))
    assert not result.passed
    assert "перечислить все 3" in result.failures[0]
