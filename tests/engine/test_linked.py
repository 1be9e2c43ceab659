"""Linked abilities and cards played from exile: champion, hideaway, cipher (rule 607, rules 502.72, 502.75, 702.97)."""

from __future__ import annotations

import textwrap

import pytest

from rules_engine import actions
from rules_engine.cipher import encoded_on
from rules_engine.effects import may_look
from rules_engine.errors import DecisionMissing, IllegalAction
from rules_engine.game import Choice, Game, StackAbility


def _one(game: Game, ref: str):  # type: ignore[no-untyped-def]
    found = [o for o in game.all_objects() if o.card.ref == ref]
    assert len(found) == 1, (ref, [o.zone for o in found])
    return found[0]


def _stack_labels(game: Game) -> list[str]:
    return [
        f"{i.source.card.ref}/{i.ability.name}" if isinstance(i, StackAbility) else i.card.ref
        for i in reversed(game.stack)
    ]


# -- champion -------------------------------------------------------------------------------------------
CHAMPION = """
active: alice
alice:
  mana: "{W}{C}{C}{C}{C}{W}{C}{C}{C}{C}"
  hand: [{card: Changeling Hero, ref: hero-1}, {card: Changeling Hero, ref: hero-2}]
  battlefield: [Grizzly Bears, Hill Giant]
bob: {mana: "{B}{C}", hand: [Terror]}
"""


def _champion(game: Game, hero: str, exiled: str) -> None:
    actions.perform(game, "cast", "alice", {"cast": hero, "pay": "{W}{C}{C}{C}{C}"})
    actions.perform(game, "resolve", None, {})
    assert _stack_labels(game) == [f"{hero}/champion"]
    game.choices.append(Choice("champion", exiled, "alice"))
    actions.perform(game, "resolve", None, {})


def test_champion_exiles_and_returns_only_its_own_card(game_from) -> None:  # type: ignore[no-untyped-def]
    game = game_from(CHAMPION)
    _champion(game, "hero-1", "Grizzly Bears")
    _champion(game, "hero-2", "Hill Giant")
    assert _one(game, "Grizzly Bears").zone == "exile" and _one(game, "Hill Giant").zone == "exile"
    actions.perform(game, "cast", "bob", {"cast": "Terror", "targets": ["hero-1"]})
    actions.perform(game, "resolve", None, {"resolve": "all"})
    assert _one(game, "Grizzly Bears").zone == "battlefield"
    assert _one(game, "Hill Giant").zone == "exile"  # linked to hero-2, which is still there


def test_champion_cannot_exile_itself_and_is_sacrificed_otherwise(game_from) -> None:  # type: ignore[no-untyped-def]
    game = game_from(CHAMPION)
    actions.perform(game, "cast", "alice", {"cast": "hero-1", "pay": "{W}{C}{C}{C}{C}"})
    actions.perform(game, "resolve", None, {})
    game.choices.append(Choice("champion", "hero-1", "alice"))
    with pytest.raises(IllegalAction):
        actions.perform(game, "resolve", None, {})
    game2 = game_from(CHAMPION)
    actions.perform(game2, "cast", "alice", {"cast": "hero-1", "pay": "{W}{C}{C}{C}{C}"})
    actions.perform(game2, "resolve", None, {})
    game2.choices.append(Choice("champion", "no", "alice"))
    actions.perform(game2, "resolve", None, {})
    assert _one(game2, "hero-1").zone == "graveyard"


def test_champion_decision_must_be_scripted(game_from) -> None:  # type: ignore[no-untyped-def]
    game = game_from(CHAMPION)
    actions.perform(game, "cast", "alice", {"cast": "hero-1", "pay": "{W}{C}{C}{C}{C}"})
    actions.perform(game, "resolve", None, {})
    with pytest.raises(DecisionMissing):
        actions.perform(game, "resolve", None, {})


def test_champion_that_left_first_never_returns_the_card(game_from) -> None:  # type: ignore[no-untyped-def]
    game = game_from(CHAMPION)
    actions.perform(game, "cast", "alice", {"cast": "hero-1", "pay": "{W}{C}{C}{C}{C}"})
    actions.perform(game, "resolve", None, {})
    actions.perform(game, "cast", "bob", {"cast": "Terror", "targets": ["hero-1"]})
    actions.perform(game, "resolve", None, {"resolve": 2})  # Terror, then the leaves ability: nothing yet
    game.choices.append(Choice("champion", "Grizzly Bears", "alice"))
    actions.perform(game, "resolve", None, {})
    assert _one(game, "Grizzly Bears").zone == "exile"
    assert not game.stack


@pytest.mark.parametrize(("choice", "legal"), [("Hill Giant", False), ("Boggart Shenanigans", True)])
def test_champion_filter_by_subtype_reaches_noncreatures(game_from, choice: str, legal: bool) -> None:  # type: ignore[no-untyped-def]
    game = game_from(
        """
        active: alice
        alice: {mana: "{B}{C}{C}{C}", hand: [Boggart Mob], battlefield: [Boggart Shenanigans, Hill Giant]}
        """
    )
    actions.perform(game, "cast", "alice", {"cast": "Boggart Mob"})
    actions.perform(game, "resolve", None, {})
    game.choices.append(Choice("champion", choice, "alice"))
    if not legal:
        with pytest.raises(IllegalAction):
            actions.perform(game, "resolve", None, {})
        return
    actions.perform(game, "resolve", None, {})
    assert _one(game, choice).zone == "exile"


# -- hideaway -------------------------------------------------------------------------------------------
HIDEAWAY = """
active: alice
alice:
  mana: "{U}{U}{U}"
  hand: [Shelldock Isle, Test Untap Land]
  library: [Plains, Forest, Island, Swamp, %s]
"""
UNTAP = """
id: t
title: t
cards:
  Test Untap Land: {cost: "{U}", type: Instant, targets: [land], effect: {untap: target}}
setup:
%s
expect:
  - stack_size: 0
"""


@pytest.fixture
def hide(scenario_from, db):  # type: ignore[no-untyped-def]
    from rules_engine.scenario import build_game

    def make(top: str, order: list[str] | None = None) -> Game:
        scenario = scenario_from(UNTAP % textwrap.indent(HIDEAWAY % top, "  "))
        game = build_game(scenario, db.with_extra(scenario.cards))
        actions.perform(game, "play_land", "alice", {"play_land": "Shelldock Isle"})
        game.choices.append(Choice("hideaway", top, "alice"))
        game.choices.append(Choice("bottom_order", order or ["Island", "Swamp", "Forest"], "alice"))
        actions.perform(game, "resolve", None, {})
        return game

    return make


def _untap_and_activate(game: Game) -> None:
    actions.perform(game, "cast", "alice", {"cast": "Test Untap Land", "targets": ["Shelldock Isle"]})
    actions.perform(game, "resolve", None, {})
    actions.perform(game, "activate", "alice", {"activate": "Shelldock Isle", "ability": "play-hidden"})


def test_hideaway_enters_tapped_exiles_face_down_rest_to_bottom(hide) -> None:  # type: ignore[no-untyped-def]
    game = hide("Hill Giant", ["Swamp", "Island", "Forest"])
    land = _one(game, "Shelldock Isle")
    giant = _one(game, "Hill Giant")
    assert land.tapped
    assert giant.zone == "exile" and giant.face_down
    lib = [o.card.ref for o in game.players["alice"].library]
    assert lib == ["Forest", "Island", "Swamp", "Plains"]  # bottom first: the last listed is the bottom card
    assert may_look(game, giant) == ["alice"]


def test_hideaway_plays_card_without_paying_and_only_once(hide) -> None:  # type: ignore[no-untyped-def]
    game = hide("Hill Giant")
    _untap_and_activate(game)
    game.choices.append(Choice("play", "yes", "alice"))
    actions.perform(game, "resolve", None, {})
    assert _stack_labels(game) == ["Hill Giant"]
    assert game.players["alice"].mana_pool == {"U": 1}  # nothing more was paid for the Giant
    actions.perform(game, "resolve", None, {})
    assert _one(game, "Hill Giant").zone == "battlefield"


def test_hideaway_rejects_alternative_costs(hide) -> None:  # type: ignore[no-untyped-def]
    game = hide("Mulldrifter")
    _untap_and_activate(game)
    game.choices.append(Choice("play", {"alternative": "evoke"}, "alice"))
    with pytest.raises(IllegalAction):
        actions.perform(game, "resolve", None, {})


def test_hideaway_land_uses_the_land_play(hide) -> None:  # type: ignore[no-untyped-def]
    game = hide("Mountain")
    # the land play was used by Shelldock Isle itself: the exiled land stays exiled
    _untap_and_activate(game)
    game.choices.append(Choice("play", "yes", "alice"))
    actions.perform(game, "resolve", None, {})
    assert _one(game, "Mountain").zone == "exile"
    game.players["alice"].land_plays = 0  # as in a later turn with no land played yet
    _one(game, "Shelldock Isle").tapped = False
    game.players["alice"].mana_pool.update({"U": 1})
    actions.perform(game, "activate", "alice", {"activate": "Shelldock Isle", "ability": "play-hidden"})
    game.choices.append(Choice("play", "yes", "alice"))
    actions.perform(game, "resolve", None, {})
    assert _one(game, "Mountain").zone == "battlefield"
    assert game.players["alice"].land_plays == 1


def test_hideaway_spell_without_legal_targets_stays_exiled(hide) -> None:  # type: ignore[no-untyped-def]
    game = hide("Terror")
    _untap_and_activate(game)
    game.choices.append(Choice("play", "yes", "alice"))
    actions.perform(game, "resolve", None, {})
    terror = _one(game, "Terror")
    assert terror.zone == "exile" and terror.face_down


def test_hideaway_look_permission_ends_when_land_leaves(hide) -> None:  # type: ignore[no-untyped-def]
    game = hide("Hill Giant")
    land = _one(game, "Shelldock Isle")
    game.move(land, "graveyard")
    assert may_look(game, _one(game, "Hill Giant")) == []


# -- cipher ---------------------------------------------------------------------------------------------
CIPHER = """
active: alice
alice:
  mana: "{U}{C}{C}{C}"
  hand: [Last Thoughts]
  battlefield: [Grizzly Bears, Gruul Keyrune]
  library: [Forest, Island]
bob: {mana: "{U}{U}{C}", hand: [Cancel]}
"""


def test_cipher_encodes_and_casts_copy_on_combat_damage(game_from) -> None:  # type: ignore[no-untyped-def]
    game = game_from(CIPHER)
    actions.perform(game, "cast", "alice", {"cast": "Last Thoughts"})
    game.choices.append(Choice("cipher", "Grizzly Bears", "alice"))
    actions.perform(game, "resolve", None, {})
    card = _one(game, "Last Thoughts")
    assert card.zone == "exile"
    assert encoded_on(game, card) is _one(game, "Grizzly Bears")
    actions.perform(game, "attack", "alice", {"attack": {"Grizzly Bears": "bob"}})
    actions.perform(game, "advance", None, {"advance": "combat_damage"})
    assert _stack_labels(game) == ["Grizzly Bears/cipher"]
    game.choices.append(Choice("play", "yes", "alice"))
    actions.perform(game, "resolve", None, {})
    copy = _one(game, "Last Thoughts (copy)")
    assert copy.is_copy and copy.zone == "stack"
    actions.perform(game, "resolve", None, {})
    assert len(game.players["alice"].hand) == 2
    assert not [o for o in game.all_objects() if o.card.ref == "Last Thoughts (copy)"]


def test_cipher_only_on_a_creature_and_not_when_countered(game_from) -> None:  # type: ignore[no-untyped-def]
    game = game_from(CIPHER)
    actions.perform(game, "cast", "alice", {"cast": "Last Thoughts"})
    game.choices.append(Choice("cipher", "Gruul Keyrune", "alice"))
    with pytest.raises(IllegalAction):
        actions.perform(game, "resolve", None, {})
    countered = game_from(CIPHER)
    actions.perform(countered, "cast", "alice", {"cast": "Last Thoughts"})
    actions.perform(countered, "cast", "bob", {"cast": "Cancel", "targets": ["Last Thoughts"]})
    actions.perform(countered, "resolve", None, {})
    assert _one(countered, "Last Thoughts").zone == "graveyard"


def test_cipher_ends_when_creature_leaves_and_lost_ability_does_not_trigger(game_from) -> None:  # type: ignore[no-untyped-def]
    game = game_from(CIPHER)
    actions.perform(game, "cast", "alice", {"cast": "Last Thoughts"})
    game.choices.append(Choice("cipher", "Grizzly Bears", "alice"))
    actions.perform(game, "resolve", None, {})
    bears = _one(game, "Grizzly Bears")
    card = _one(game, "Last Thoughts")
    assert any(a.name == "cipher" for a in game.chars(bears).abilities)
    from rules_engine.layers import ContinuousEffect

    game.effects.append(ContinuousEffect("6", "lose_abilities", {}, game.new_timestamp(), frozenset({bears.oid})))
    game.touch()
    assert not any(a.name == "cipher" for a in game.chars(bears).abilities)
    assert encoded_on(game, card) is bears  # still encoded
    game.move(bears, "hand")
    assert encoded_on(game, card) is None and card.zone == "exile"


def test_cipher_ends_when_the_card_leaves_exile(game_from) -> None:  # type: ignore[no-untyped-def]
    game = game_from(CIPHER)
    actions.perform(game, "cast", "alice", {"cast": "Last Thoughts"})
    game.choices.append(Choice("cipher", "Grizzly Bears", "alice"))
    actions.perform(game, "resolve", None, {})
    bears = _one(game, "Grizzly Bears")
    game.move(_one(game, "Last Thoughts"), "graveyard")
    assert not any(a.name == "cipher" for a in game.chars(bears).abilities)


# -- other vocabulary -----------------------------------------------------------------------------------
def test_set_subtypes_replaces_only_the_same_kind_and_set_types_drops_orphans(play) -> None:  # type: ignore[no-untyped-def]
    result = play(
        """
        id: st
        title: st
        cards:
          Dryad Land: {type: Land Creature — Forest Dryad, pt: 1/1}
          Goblinize: {cost: "{R}", type: Instant, targets: [permanent], effect: {set_subtypes: {subtypes: [Goblin]}}}
          Landify: {cost: "{G}", type: Instant, targets: [permanent], effect: {set_types: {types: [Land]}}}
        setup:
          active: alice
          alice: {mana: "{R}{G}", hand: [Goblinize, Landify], battlefield: [Dryad Land]}
        actions:
          - {cast: Goblinize, targets: [Dryad Land]}
          - resolve
          - expect: [{subtypes: {Dryad Land: [Forest, Goblin]}}, {not_subtypes: {Dryad Land: [Dryad]}}]
          - {cast: Landify, targets: [Dryad Land]}
          - resolve
        expect:
          - subtypes: {Dryad Land: [Forest]}
          - not_subtypes: {Dryad Land: [Goblin, Dryad]}
          - types: {Dryad Land: [Land]}
        """
    )
    assert result.passed, result.failures


def test_if_control_counts_permanents_not_spells(play) -> None:  # type: ignore[no-untyped-def]
    text = """
        id: ic
        title: ic
        cards:
          Goblin Ping:
            cost: "{R}"
            type: Tribal Instant — Goblin
            effect: {if: {condition: {control: {subtypes: [Goblin]}}, then: {gain_life: {n: 5}}}}
        setup:
          active: alice
          alice: {mana: "{R}", hand: [Goblin Ping], battlefield: [%s]}
        actions:
          - cast: Goblin Ping
          - resolve
        expect:
          - life: {alice: %d}
        """
    assert play(text % ("Hill Giant", 20)).passed
    assert play(text % ("Tattermunge Maniac", 25)).passed


def test_search_filter_and_landwalk_use_types_not_names(play) -> None:  # type: ignore[no-untyped-def]
    search = play(
        """
        id: s
        title: s
        cards:
          Basic Search: {cost: "{G}", type: Sorcery, effect: {search_library: {filter: {supertypes: [Basic]}}}}
        setup:
          active: alice
          alice: {mana: "{G}", hand: [Basic Search], library: [Stomping Ground]}
        actions:
          - cast: Basic Search
          - {resolve: 1, choices: [{kind: search, value: Stomping Ground}], illegal: "701.23a"}
        """
    )
    assert search.passed, search.failures
    walk = """
        id: w
        title: w
        cards:
          Walker: {cost: "{G}", type: Creature — Elf, pt: 1/1, keywords: [{landwalk: Forest}]}
        setup:
          active: alice
          step: beginning_of_combat
          alice: {battlefield: [Walker]}
          bob: {battlefield: [%s, Grizzly Bears]}
        actions:
          - attack: {Walker: bob}
          - {block: {Grizzly Bears: Walker}, by: bob, illegal: "702.14c"}
        """
    assert play(walk % "Stomping Ground").passed
    assert not play(walk % "Island").passed  # without a land of type Forest the block is legal


def test_token_copy_keeps_activated_ability_and_return_card_is_chosen(play) -> None:  # type: ignore[no-untyped-def]
    result = play(
        """
        id: dp
        title: dp
        cards:
          Clone It: {cost: "{U}", type: Instant, targets: [creature], effect: {create_token_copy: {of: target}}}
          Kill It: {cost: "{B}", type: Instant, targets: [creature], effect: {destroy: target}}
        setup:
          active: alice
          alice:
            mana: "{B}{U}"
            hand: [Kill It, Clone It]
            battlefield: [{card: Deathpact Angel, ref: a1}]
            graveyard: [{card: Deathpact Angel, ref: a2}]
        actions:
          - {cast: Kill It, targets: [a1], pay: "{B}"}
          - resolve
          - resolve
          - {cast: Clone It, targets: [Cleric]}
          - resolve
        expect:
          - zone: {"Cleric (copy)": battlefield}
          - colors: {"Cleric (copy)": [W, B]}
        """
    )
    assert result.passed, result.failures


def test_gain_control_of_a_spell(play) -> None:  # type: ignore[no-untyped-def]
    result = play(
        """
        id: gc
        title: gc
        cards:
          Steal Spell: {cost: "{U}", type: Instant, targets: [spell], effect: {gain_control: {on: target}}}
        setup:
          active: alice
          alice: {mana: "{G}{C}", hand: [Grizzly Bears]}
          bob: {mana: "{U}", hand: [Steal Spell]}
        actions:
          - cast: Grizzly Bears
          - {cast: Steal Spell, by: bob, targets: [Grizzly Bears]}
          - resolve: 2
        expect:
          - controller: {Grizzly Bears: bob}
        """
    )
    assert result.passed, result.failures


def test_manifest_attach_made_and_turn_face_down(play) -> None:  # type: ignore[no-untyped-def]
    result = play(
        """
        id: cf
        title: cf
        cards:
          Face Down: {cost: "{U}", type: Instant, targets: [creature], effect: {turn_face_down: target}}
        setup:
          active: alice
          alice: {mana: "{U}{U}{C}{R}{C}{C}{C}{U}", hand: [Cloudform, Face Down], library: [Hill Giant]}
        actions:
          - {cast: Cloudform, pay: "{U}{U}{C}"}
          - resolve: 2
          - {turn_face_up: Hill Giant, pay: "{R}{C}{C}{C}"}
          - expect: [{pt: {Hill Giant: 3/3}}]
          - {cast: Face Down, targets: [Hill Giant]}
          - resolve
        expect:
          - pt: {Hill Giant: 2/2}
          - attached: {Cloudform: Hill Giant}
          - keywords: {Hill Giant: [flying, hexproof]}
        """
    )
    assert result.passed, result.failures


def test_cast_only_during_combat(play) -> None:  # type: ignore[no-untyped-def]
    result = play(
        """
        id: oc
        title: oc
        cards:
          Trick: {cost: "{W}", type: Instant, cast_only_during: combat, effect: {gain_life: {n: 1}}}
        setup:
          active: alice
          alice: {mana: "{W}", hand: [Trick]}
        actions:
          - {cast: Trick, illegal: "601.3"}
        """
    )
    assert result.passed, result.failures


DFC = """
id: dfc
title: dfc
cards:
  Two Face:
    cost: "{1}{G}"
    type: Creature — Human
    pt: 1/1
    back_face: {name: Night Face, type: Creature — Wolf, pt: 3/3}
  Flip: {cost: "{G}", type: Instant, targets: [creature], effect: {transform: target}}
setup:
  active: alice
  alice: {mana: "{G}", hand: [Flip], battlefield: [{card: Two Face, face_down: %s}]}
actions:
  - {cast: Flip, targets: [Two Face]}
  - resolve
expect:
  - pt: {Two Face: %s}
  - %s: "не может трансформироваться"
"""


@pytest.mark.parametrize(
    ("face_down", "pt", "log"), [("false", "3/3", "log_lacks"), ("true", "2/2", "log_contains")]
)
def test_transform_turns_over_only_a_face_up_double_faced_card(play, face_down: str, pt: str, log: str) -> None:  # type: ignore[no-untyped-def]
    result = play(DFC % (face_down, pt, log))
    assert result.passed, result.failures
