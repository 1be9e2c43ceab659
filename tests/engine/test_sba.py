"""State-based actions: simultaneous, repeated until none apply."""

from __future__ import annotations

from rules_engine import actions, sba, turn


def test_counters_annihilate_and_toughness_zero_dies_in_one_check(game_from) -> None:  # type: ignore[no-untyped-def]
    game = game_from(
        """
        active: alice
        alice:
          battlefield:
            - {card: Grizzly Bears, ref: a, counters: {"+1/+1": 2, "-1/-1": 1}}
            - {card: Grizzly Bears, ref: b, counters: {"-1/-1": 2}}
        """
    )
    # build_game already settled the position: a lost one pair of counters, b died
    a = next(o for o in game.battlefield if o.card.ref == "a")
    assert dict(a.counters) == {"+1/+1": 1}
    assert [o.card.ref for o in game.players["alice"].graveyard] == ["b"]
    assert sba.check_once(game) is False


def test_sba_loop_repeats_until_stable(game_from) -> None:  # type: ignore[no-untyped-def]
    game = game_from(
        """
        active: alice
        alice:
          battlefield:
            - {card: Grizzly Bears, token: true, ref: tok, damage: 5}
        """
    )
    # first pass: lethal damage puts the token into the graveyard; second pass: the token ceases to exist
    assert not game.battlefield
    assert not game.players["alice"].graveyard
    assert any("прекращает существование" in line for line in game.log_lines)


def test_player_at_zero_life_loses(game_from) -> None:  # type: ignore[no-untyped-def]
    game = game_from(
        """
        active: alice
        alice: {mana: "{R}", hand: [Lightning Bolt]}
        bob: {life: 3}
        """
    )
    actions.perform(game, "cast", "alice", {"cast": "Lightning Bolt", "targets": ["bob"]})
    actions.perform(game, "resolve", None, {})
    assert game.players["bob"].lost and game.winner == "alice"


def test_legend_rule_needs_a_scripted_choice(game_from) -> None:  # type: ignore[no-untyped-def]
    from rules_engine.errors import DecisionMissing
    from rules_engine.game import Choice

    game = game_from(
        """
        active: alice
        alice: {battlefield: [{card: Ajani Goldmane, ref: ajani-1}]}
        """
    )
    ajani = game.battlefield[0]
    second = game.new_object(ajani.card.__class__("ajani-2", ajani.definition, "alice"), "battlefield")
    second.counters["loyalty"] = 4
    try:
        turn.settle(game)
        raise AssertionError("the legend rule must ask which one to keep")
    except DecisionMissing:
        pass
    game.choices.append(Choice("legend", "ajani-2", "alice"))
    turn.settle(game)
    assert [o.card.ref for o in game.battlefield] == ["ajani-2"]


def test_old_planeswalker_uniqueness_option(play) -> None:  # type: ignore[no-untyped-def]
    text = """
    id: pw
    title: pw
    rules: {planeswalker_uniqueness: %s}
    cards:
      Other Ajani: {cost: "{3}{W}", type: Legendary Planeswalker — Ajani, loyalty: 3}
    setup:
      active: alice
      alice: {battlefield: [Ajani Goldmane]}
      bob: {battlefield: [Other Ajani]}
    expect:
      - zone: {Ajani Goldmane: battlefield, Other Ajani: battlefield}
    """
    assert play(text % "false").passed
    assert not play(text % "true").passed


def test_face_down_permanents_are_revealed_when_the_game_ends(play) -> None:  # type: ignore[no-untyped-def]
    text = """
        id: rv
        title: rv
        setup:
          active: alice
          alice:
            mana: "{R}"
            hand: [Lightning Bolt]
            battlefield: [{card: Aerie Bowmasters, face_down: true}]
          bob: {life: %d}
        actions:
          - {cast: Lightning Bolt, targets: [bob]}
          - resolve
        expect:
          - log_contains: "показываются карты рубашкой вверх: «Лучники Гнездовья»"
        """
    assert play(text % 3).passed
    assert not play(text % 4).passed  # the game goes on: nothing is revealed


def test_only_the_controller_may_look_at_a_face_down_permanent(game_from) -> None:  # type: ignore[no-untyped-def]
    from rules_engine.effects import may_look

    game = game_from("active: alice\nalice: {battlefield: [{card: Aerie Bowmasters, face_down: true}, Hill Giant]}")
    face_down, face_up = sorted(game.battlefield, key=lambda o: not o.face_down)
    assert may_look(game, face_down) == ["alice"]
    assert may_look(game, face_up) == ["alice", "bob"]
