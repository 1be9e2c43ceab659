"""Combat: restrictions, first strike, trample assignment, planeswalkers, combat-damage triggers."""

from __future__ import annotations


def test_first_strike_kills_before_regular_damage(play) -> None:  # type: ignore[no-untyped-def]
    result = play(
        """
        id: fs
        title: fs
        cards:
          Striker: {cost: "{1}{W}", type: Creature — Knight, pt: 2/2, keywords: [first_strike]}
        setup:
          active: alice
          alice: {battlefield: [Striker]}
          bob: {battlefield: [Grizzly Bears]}
        actions:
          - attack: {Striker: bob}
          - block: {Grizzly Bears: Striker}
            by: bob
          - advance: end_of_combat
        expect:
          - zone: {Grizzly Bears: graveyard, Striker: battlefield}
          - damage: {Striker: 0}
        """
    )
    assert result.passed, result.failures


def test_trample_needs_lethal_to_blocker_and_scripted_assignment(play) -> None:  # type: ignore[no-untyped-def]
    text = """
    id: tr
    title: tr
    cards:
      Trampler: {cost: "{4}{G}", type: Creature — Beast, pt: 5/5, keywords: [trample]}
    setup:
      active: alice
      alice: {battlefield: [Trampler]}
      bob: {battlefield: [Grizzly Bears]}
    actions:
      - attack: {Trampler: bob}
      - block: {Grizzly Bears: Trampler}
        by: bob
      - advance: combat_damage
        choices: [{kind: assign, player: alice, value: %s}]
    expect:
      - life: {bob: 17}
    """
    assert play(text % "{Grizzly Bears: 2, bob: 3}").passed
    illegal = play(text % "{Grizzly Bears: 1, bob: 4}")
    assert not illegal.passed and "Пробивной удар" in illegal.failures[0]


def test_flying_attacker_cannot_be_blocked_by_ground_creature(play) -> None:  # type: ignore[no-untyped-def]
    result = play(
        """
        id: fly
        title: fly
        setup:
          active: alice
          alice: {battlefield: [Serra Angel]}
          bob: {battlefield: [Grizzly Bears]}
        actions:
          - attack: {Serra Angel: bob}
          - {block: {Grizzly Bears: Serra Angel}, by: bob, illegal: "702.9b"}
          - advance: end_of_combat
        expect:
          - life: {bob: 16}
          - tapped: {Serra Angel: false}
        """
    )
    assert result.passed, result.failures


def test_summoning_sick_creature_cannot_attack(play) -> None:  # type: ignore[no-untyped-def]
    result = play(
        """
        id: sick
        title: sick
        setup:
          active: alice
          alice:
            battlefield:
              - {card: Grizzly Bears, summoning_sick: true}
              - {card: Boggart Ram-Gang, summoning_sick: true}
        actions:
          - {attack: {Grizzly Bears: bob}, illegal: "302.6"}
          - attack: {Boggart Ram-Gang: bob}
          - advance: end_of_combat
        expect:
          - life: {bob: 17}
        """
    )
    assert result.passed, result.failures


def test_combat_damage_to_planeswalker_removes_loyalty(play) -> None:  # type: ignore[no-untyped-def]
    result = play(
        """
        id: pw
        title: pw
        setup:
          active: alice
          alice: {battlefield: [Hill Giant]}
          bob: {battlefield: [Ajani Goldmane]}
        actions:
          - attack: {Hill Giant: Ajani Goldmane}
          - advance: end_of_combat
        expect:
          - loyalty: {Ajani Goldmane: 1}
          - life: {bob: 20}
        """
    )
    assert result.passed, result.failures


def test_partial_redirection_splits_combat_damage_between_players(play) -> None:  # type: ignore[no-untyped-def]
    text = """
        id: pr
        title: pr
        cards:
          Deflect: {cost: "{W}", type: Instant, targets: [player], effect: {redirect_damage: {from: you, to: target%s}}}
        setup:
          active: alice
          step: beginning_of_combat
          alice: {battlefield: [Hill Giant]}
          bob: {battlefield: [Plains], hand: [Deflect]}
        actions:
          - attack: {Hill Giant: bob}
          - {mana: Plains, by: bob}  # mana from the beginning of combat would be gone (rule 500.4)
          - {cast: Deflect, by: bob, targets: [alice]}
          - resolve
          - advance: combat_damage
        expect:
          - life: {alice: %d, bob: %d}
        """
    assert play(text % (", n: 1", 19, 18)).passed  # only the next 1 damage
    assert play(text % ("", 17, 20)).passed  # all of it
