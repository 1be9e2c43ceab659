"""The shape of every value a card definition may hold, checked when the file loads.

A card whose filter, effect, amount, condition, cost or reference holds a word the engine does not read
would silently do something else than its text (a filter key ignored destroys every creature), so the
loader validates each of them against this schema and names ``file:line`` and the known words on error.

Each effect, static ability and trigger filter declares its parameters as ``{key: SHAPE}``; a shape is one
of the names in ``_CHECKERS`` (``ref``, ``amount``, ``filter``, ``effect``, ...). Required keys are marked
with a trailing ``!``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from rules_engine.errors import CardDefinitionError, EngineError
from rules_engine.history import HISTORY_CONDITIONS
from rules_engine.mana import parse_cost, parse_units
from rules_engine.target_relations import EACH_OTHER, RELATIONS
from rules_engine.vocabulary import KEYWORDS, PARAM_KEYWORDS, STEPS, TARGET_KINDS, TRIGGER_EVENTS
from rules_engine.yamlload import line_of

COLORS = frozenset({"W", "U", "B", "R", "G"})
CARD_TYPES = frozenset(
    {"Artifact", "Creature", "Enchantment", "Instant", "Land", "Planeswalker", "Sorcery", "Tribal", "Kindred"}
)
SUPERTYPES = frozenset({"Legendary", "Basic", "Snow", "World"})
ZONE_NAMES = frozenset({"library", "hand", "battlefield", "graveyard", "exile", "stack"})
# while_source_on_battlefield: "for as long as [this] remains on the battlefield" (611.2b, ``layers._lasts``);
# while_you_control_source: "for as long as you control [this]" (611.2b, aslong.py)
DURATIONS = frozenset({"end_of_turn", "permanent", "until_your_next_turn", "while_source_on_battlefield",
                       "while_you_control_source"})
STEP_NAMES = frozenset(STEPS)
_TARGET_REF = re.compile(r"^target\d*$")
SIMPLE_REFS = frozenset(
    {"self", "it", "made", "you", "controller", "each_opponent", "each_player", "enchanted", "that", "event_player",
     "defending_player",  # rules 506.2, 508.5
     "sacrificed",  # the creature this effect's sacrifice_chosen sacrificed, as it last existed (608.2h)
     "event_target",  # the other object of the event: the creature blocked / blocking, the one dealt damage
     "each_target",  # rules 601.2c, 608.2b: every target chosen ("any number of target cards"), the legal ones
     "this_card",  # the source card wherever it is now, while it is the same object (113.6m, 400.7)
     "clashed_opponent"}  # rule 701.30b: the opponent of the clash just made ("that player")
)
LINKS = frozenset({"champion", "hideaway", "exiled"})

# What ``layers.matches`` reads (an object's characteristics and status right now).
FILTER: dict[str, str] = {
    "name": "str",
    "supertypes": "supertypes",
    "not_supertypes": "supertypes",
    "types": "types",
    "not_types": "types",
    "subtypes": "strs",
    "not_subtypes": "strs",  # "except by Rogues"
    "colors": "colors",
    "not_colors": "colors",
    "multicolored": "bool",
    "greatest_mana_value": "bool",  # "the creature with the highest mana value" (202.3; greatest.py)
    "greatest_toughness": "bool",  # "the creature with the greatest toughness or tied": among all creatures (208.1)
    "monocolored": "bool",  # rule 105.2a: exactly one colour
    "controller": "controller_word",  # you | opponent | defending_player (506.2, 508.5)
    "other": "bool",
    "self": "bool",
    "has_counters": "counter_or_true",
    "token": "bool",
    "owner": "you_or_opponent",  # "permanents you own"
    "tapped": "bool",
    "face_down": "bool",  # "face-up creatures you control": face_down: false (708.2)
    "mana_value_at_most": "int_or_count",  # a number, X or {count: FILTER}: "X or less, where X is the number of"
    "mana_value": "int_or_count",  # exactly: "each creature card with mana value X"
    "mana_value_at_least": "int",
    "mana_value_parity": "parity",  # odd | even | chosen (LRW Ashling's Prerogative)
    "not_mana_value_parity": "parity",
    # "creature card with power 2 or less", "all creatures with power 3 or less" (power now); X: the spell's X,
    # or the X of a "remove X counters" cost (Simic Manipulator, put in as it is activated)
    "power_at_most": "int_or_count",
    "blocked_by_source": "bool",  # "for each creature it's blocking": the creatures the source blocks now
    "power_below_source": "bool",  # "creatures with power less than this creature's power" (both powers now)
    "power_above_source": "bool",  # "creatures with power greater than this creature's power"
    # "with toughness less than the exploited creature's toughness": a number, or an amount in {all: FILTER} of an
    # effect, computed as it resolves (Profaner of the Dead)
    "toughness_less_than": "amount",
    "power_at_least": "int",  # ferocious: "a creature with power 4 or greater" (its power now, layers applied)
    "attacking": "bool",
    "unblocked": "bool",  # an attacking creature no creature blocked, from the declare blockers step on (509.1h)
    "attacking_or_blocking": "bool",  # rule 506.4: an attacking or a blocking creature this combat
    "attached": "bool",
    "keyword": "keyword",
    "not_keyword": "keyword",  # "each creature without flying"
    "dealt_damage_this_turn": "bool",  # this very object dealt damage this turn (rule 120, history)
    "was_dealt_damage_this_turn": "bool",  # this very permanent was dealt damage this turn
}
# What a filter on an object's last known information can read (``triggers._snap_matches``).
SNAPSHOT_FILTER: dict[str, str] = {
    k: FILTER[k] for k in ("other", "controller", "types", "subtypes", "token", "colors", "multicolored")
}
SNAPSHOT_FILTER["owner"] = "you_or_opponent"
SNAPSHOT_FILTER["attached"] = "bool"  # "when enchanted creature dies": the one this Aura was attached to
SNAPSHOT_FILTER["controller"] = "you_or_opponent"
# The source of damage dealt this turn, as it was then (``self``: the source of the ability that asks).
DAMAGE_SOURCE_FILTER: dict[str, str] = {**SNAPSHOT_FILTER, "self": "bool"}
# The recipient of damage or the thing targeted: a player (you, opponent, player) or an object by card type.
RECIPIENTS = frozenset({"you", "opponent", "player", "creature", "planeswalker", "permanent"})

_ON = {"on": "ref", "duration": "duration"}
EFFECTS: dict[str, dict[str, str] | str] = {
    # A string: the whole value has that shape; a mapping: its keys.
    "damage": {"amount": "amount", "to": "ref", "cant_be_prevented": "bool", "source": "ref"},
    "destroy": "destroy",
    "destroy_all": "filter",
    "counters": {"kind": "counter!", "n": "amount", "on": "ref"},
    "bolster": {"n": "amount!"},  # rule 701.39a
    # "you may cast that card without paying its mana cost" (rebound); or {what: REF, exile_instead_of_graveyard}
    "cast_without_paying": "cast_without_paying",
    "exploit": "none",  # rule 702.110a
    "copy_ability": "none",  # rule 707.10: copy the ability of the event ("copy that ability")
    "turn_face_up": "ref",  # 708.8; a manifested instant or sorcery stays face down (701.40g)
    "remove_counters": {"kind": "counter!", "n": "amount_or_all", "on": "ref"},  # all: "remove all +1/+1 counters"
    "move_counters": {"kind": "counter", "n": "move_amount", "from": "ref", "to": "ref"},
    "pump": {"power": "amount", "toughness": "amount", **_ON},
    "set_pt": {"power": "amount!", "toughness": "amount", **_ON},  # "has base power 8": toughness left as it is
    "switch_pt": dict(_ON),
    "grant": {"keywords": "keywords!", **_ON},
    "lose_abilities": dict(_ON),
    "lose_keywords": {"keywords": "keywords!", **_ON},
    "set_colors": {"colors": "colors!", **_ON},
    "set_types": {"types": "types!", "subtypes": "strs", **_ON},
    "add_types": {"types": "types", "subtypes": "strs", **_ON},
    "set_subtypes": {"subtypes": "strs!", **_ON},
    "gain_control": {"player": "ref", **_ON},  # player: "target opponent / that player gains control of ..." (613.1b)
    "draw": {"n": "amount", "player": "ref"},
    "discard": {"n": "amount_or_all", "player": "ref", "random": "bool"},  # all: "discard your hand"; random: 701.9b
    "gain_life": {"n": "amount", "player": "ref"},
    "lose_life": {"n": "amount", "player": "ref"},
    "set_life": {"n": "amount!", "player": "ref", "their": "bool"},  # rule 119.5: "life total becomes N"
    "mill": {"n": "amount", "player": "ref"},
    "drain": {"n": "amount"},
    "exile": "ref",
    "return_to_hand": "ref",
    "sacrifice": "sacrifice",
    "sacrifice_chosen": {"player": "ref", "filter": "filter", "n": "amount"},  # rule 701.21a (edicts.py)
    "choose_color": {"then": "effect!", "any_number": "bool"},  # rules 608.2d, 105.4 (colorchoice.py)
    # rule 608.2d: a word chosen on resolution; then (with `chosen`) or by_option: {WORD: effect} ("+1/-1 or -1/+1")
    "choose_option": {"options": "enter_options!", "then": "effect", "by_option": "effects_by_word"},
    "may_sacrifice": {"then": "effect!"},  # rules 608.2c, 701.21a: "you may sacrifice it. If you do, ..." (ifyoudo.py)
    "divided_damage": "none",  # rule 601.2d: each target its announced share of the ability's divide (divide.py)
    "return_to_battlefield": {"what": "ref", "under": "owner_or_you", "counters": "counters", "tapped": "bool",
                              "attacking": "bool"},  # "tapped and attacking": rule 508.4 (attacking.py)
    "put_onto_battlefield": {"what": "ref", "under": "owner_or_you", "face_down": "bool"},  # face down: 708.3
    "create_token": {"token": "token!", "n": "amount", "ref": "str", "player": "ref", "tapped": "bool",
                     "attacking": "bool", "x": "amount"},  # x: "an X/X token, where X is ..." (608.2h)
    "create_token_copy": {"of": "ref", "except": "copy_except", "tapped": "bool", "attacking": "bool"},
    "become_copy": {"what": "ref", "of": "ref!", "duration": "duration", "except": "copy_except"},
    "regenerate": "ref",
    # from: a source's damage (615.1a), `chosen_source` (615.8); by / to_all: filters; then: 615.5
    "prevent_damage": {"n": "amount_or_all", "to": "ref", "from": "prevent_from", "by": "filter", "to_all": "filter",
                       "then": "effect"},
    "redirect_damage": {"from": "ref", "to": "ref!", "n": "amount"},
    "tap": "ref",
    "untap": "ref",
    "return_chosen": {"player": "ref", "filter": "filter"},  # "return a nonland permanent you control" (608.2d)
    "attack_despite_defender": "ref",  # "can attack this turn as though it didn't have defender" (702.3b)
    "next_spell_costs_less": "mana",  # "the next spell you cast this turn costs {1} less to cast" (601.2f)
    "doesnt_untap": "doesnt_untap_value",  # a ref (the next untap step), or {on, duration} (lasting, 611.2b)
    "exchange_control": {"a": "ref", "b": "ref"},  # rule 701.12a-b
    "counter_spell": "ref",
    # rule 118.12a (countering.py); x: "where X is ...", counted as it resolves (608.2h)
    "counter_unless_pays": {"what": "ref", "cost": "mana!", "x": "amount"},
    "counter_ability": "ref",
    "copy_spell": {"what": "ref", "except": "copy_except"},
    "if_spent": {"mana": "mana!", "then": "effect!"},
    "may": {"then": "effect!", "question": "str", "else": "effect"},  # else: "... instead" of it (608.2d)
    "pay_any_life": {"then": "effect!"},  # rules 608.2d, 119.4: X in then is the life paid (handreveal.py)
    "pay_life_rounds": {"then": "effect!"},  # 101.4, 119.4: each player in rounds until none pays (handreveal.py)
    "discard_chosen": {"player": "ref", "filter": "filter"},  # 701.9b: you choose from the revealed hand (handreveal)
    "reveal_from_hand": {"player": "ref", "n": "amount", "exile_chosen": "bool"},  # rule 701.20a (handreveal.py)
    "put_from_hand": {"n": "amount", "filter": "filter"},  # rule 110.4a: up to N permanent cards (fromhand.py)
    "pay_optional": {"cost": "mana!", "then": "effect!"},
    "add_mana": "mana_produced",
    "manifest": {"n": "amount", "player": "ref", "counters": "counters", "with_self": "bool",
                 "from_graveyard": "ref", "filter": "filter"},
    "shuffle_into_library": "ref",
    "put_on_library": "library_value",  # rule 401.4: on top of the owner's library, a top_order decision (ontop.py)
    "for_each_target": "effect",  # EFFECT once per target chosen, ``target`` naming it (eachtarget.py)
    "clash": {"then": "effect", "otherwise": "effect"},  # rule 701.30: then if you win, otherwise if you don't
    "repeat_while_clash_won": "effect",  # "..., then clash. If you win, repeat this process" (701.30d)
    "nothing": "none",
    "sacrifice_rest": {"player": "ref", "keep": "amount", "filter": "filter"},  # rule 701.21a (spare.py)
    "may_discard": {"n": "amount", "then": "effect!"},  # rule 608.2c: "you may discard a card. If you do, ..."
    "additional_land": {"n": "int"},  # rule 305.2: "you may play an additional land this turn" (landplays.py)
    "win_game": "player_you",  # rule 104.2b: "you win the game" (winning.py)
    "champion": {"filter": "filter"},
    "return_linked": "link",
    "exile_linked": "ref",  # exile REF, linked to this object: return_linked: exiled brings it back (607.2a)
    "exile_until_leaves": "ref",  # rule 610.3: exile REF until this leaves the battlefield (until.py)
    "hideaway": {"n": "amount"},
    # looking.py: look at the top N of a library, put the chosen ones where each clause says (608.2c, 401.4)
    "look_at_top": {"n": "amount", "player": "ref", "reveal": "bool", "take": "look_take", "rest": "library_place"},
    # looking.py: reveal from the top until N matching cards are revealed (701.20a)
    "reveal_until": {"player": "ref", "filter": "filter", "n": "amount", "found": "library_place",
                     "rest": "library_place"},
    "shuffle_library": "ref",  # looking.py: those players shuffle their libraries (701.24a)
    "play_linked": "link",
    # playfrom.py: that player exiles the top N cards (linked to the source; "you may play them" for a while)
    "exile_top": {"n": "amount", "player": "ref", "link": "link", "play": "play_permission"},
    "if": {"condition": "effect_condition!", "then": "effect", "else": "effect"},
    "search_library": {"filter": "filter", "to": "zone", "n": "amount", "tapped": "bool", "shuffle": "bool",
                       "top_after_shuffle": "bool"},
    "return_card": {"filter": "filter", "from": "zones", "to": "zone", "all": "bool",  # all: every such card
                    "chooser": "return_chooser"},  # chooser: opponent — "a card of an opponent's choice" (608.2d)
    "turn_face_down": "ref",
    "transform": "ref",
    "change_text": {"not_to": "strs", **_ON},
    "attach": {"what": "ref", "to": "ref"},
    "exile_same_name": {"as": "ref", "player": "ref"},  # rules 701.23a-b: graveyard, hand and library searched
    "move_auras": {"from": "ref"},  # rule 701.3: to another permanent with the same controller, chosen on resolution
    "remove_from_combat": "ref",
    "fight": {"a": "ref!", "b": "ref!"},
    "poison": {"n": "amount", "player": "ref"},
    "emblem": {"abilities": "abilities!", "player": "ref", "text_ru": "str", "text_en": "str"},  # rule 114.2
    "delayed_trigger": "delayed_trigger",
    "reflexive_trigger": {"targets": "targets", "effect": "effect!", "name": "str", "name_ru": "str"},  # 603.12
    "exile_if_dies": "ref",
    "cant_gain_life": {"player": "ref", "duration": "game_duration"},  # 611.2a: "for the rest of the game"
    "damage_cant_be_prevented": "none",
    "cant_be_targeted": {"player": "ref", "by": "filter"},  # rules 601.2c, 608.2b, this turn
    "must_block": {"what": "ref", "attacker": "ref"},  # rule 509.1c, this turn
    "must_be_blocked": "ref",  # rule 509.1c, this turn
    "cant_block": {"what": "ref", "except": "ref"},  # rule 509.1b, this turn (combat_effects.py)
    "block_also": {"what": "ref!", "attacker": "ref!"},  # an effect adds a blocked creature (509.3a-e)
    "choose_blocks": "none",  # "you choose how those creatures block" (combat_effects.py)
    "additional_combat_phase": "none",  # rule 500.8 (combat_effects.py)
    "grant_abilities": {"abilities": "abilities!", "on": "ref", "duration": "duration"},  # 613.1f (granted.py)
}

# Static abilities: the shape of ``value`` (None: no value), and the extra filter keys ``affects`` may use.
STATIC_VALUES: dict[str, str | None] = {
    "pump": "pt_change",
    "grant": "grant_value",
    "set_colors": "colors_value",
    "add_colors": "colors_value",
    "add_types": "types_value",
    "cant_attack": "unless_value",  # value {unless_control: FILTER}: "... unless you control another Giant"
    "cant_block": "unless_value",
    "cant_attack_or_block": "unless_value",
    "doesnt_untap": None,  # rules 502.3, 611.3a: affects don't untap during their controller's untap step
    "attacks_each_combat": None,
    "blocks_each_combat": None,
    "must_be_blocked": "must_be_blocked_value",
    "cant_attack_you": None,
    "cant_be_blocked": "blocked_by_value",
    "min_blockers": "n_value",
    "max_blockers": "n_value",
    "can_block_only": "filter_value",
    "cant_attack_alone": None,  # rule 506.5
    "cant_block_alone": None,
    "cant_attack_or_block_alone": None,
    "can_block_additional": "n_value",  # rule 509.1a
    "can_block_any_number": None,
    "assigns_damage_by_toughness": None,  # rule 510.1a
    "attack_cost": "mana",  # rule 508.1h (combat_costs.py)
    "block_cost": "mana",  # rule 509.1d
    "attack_or_block_cost": "mana",
    "enters_tapped": None,
    "enters_with_counters": "entering_counters",  # a number, or {greatest_power: FILTER} counted as it enters
    "enters_tapped_unless_pay": "life_value",
    "cost_increase": "mana",
    "cost_reduction": "mana",
    "lose_abilities": None,
    "exile_instead_of_graveyard": None,
    "enters_as_copy": "enters_as_copy_value",
    "defines_pt": "defined_pt",
    "set_pt": "pt_set",
    "set_subtypes": "subtypes_value",
    "lose_keywords": "grant_value",
    "instead_of_dying": "zone_value",
    "prevent_damage": "prevent_value",
    "modify_damage": "modify_value",
    "modify_counters": "modify_counters_value",
    "modify_life_gain": "modify_value",  # rule 119.10: "if you would gain life, you gain twice that much instead"
    "modify_mana": "modify_mana_value",  # rule 106.12b: "if you tap a permanent for mana, it produces twice as much"
    "damage_cant_be_prevented": None,
    "target_as_though_no_hexproof": None,  # rule 702.11b: its controller ignores the affected's hexproof
    "damage_as_though_wither": None,
    "cant_have_counters": "counter_kind_value",
    "cant_get_counters": "player_counters_value",
    "cant_gain_life": "players_value",
    "cant_lose_life": "players_value",
    "instead_of_drawing": "instead_of_drawing_value",
    "grant_abilities": "granted_abilities_value",  # rule 613.1f: "equipped creature has '{3}, {Q}: ...'"
    "instead_of_countering": None,  # rule 614.1a: Guile (effects.counter_by)
    "cant_be_countered": None,
    "control": None,  # "you control enchanted creature" (affects: {attached: true}; layer 2, 613.1b)
    "choose_as_enters": "anchor_words",
    "exile_as_enters": "exile_as_enters_value",  # rule 614.12a: {filter, link}: exile a card of your graveyard
    "play_exiled": "play_exiled_value",
    "look_at_face_down": None,  # "you may look at face-down creatures you don't control any time" (708.5)
    "play_from_graveyard": None,  # "you may play lands / cast spells from your graveyard" (affects: the cards)
}
STATIC_AFFECTS_EXTRA: dict[str, dict[str, str]] = {
    "cost_increase": {"targets_you_or_yours": "bool",  # "spells that target you or a permanent you control"
                      "targets_self": "bool"},  # "spells that target [this permanent]" (601.2f)
    "cost_reduction": {"alternative": "alternative_cost"},  # "dash costs you pay cost {2} less" (601.2f)
    "lose_abilities": {"zone": "zone"},
    "add_colors": {"zone": "zone_or_any"},
    "grant": {"zone": "zone"},  # zone: stack — "each red or green instant or sorcery spell you cast has conspire"
    "exile_instead_of_graveyard": {"zone": "zone", "owner": "you_or_opponent"},
}

# Trigger events: the filter each reads (None: it takes no filter) and whether ``counter:`` applies.
TRIGGER_FILTERS: dict[str, dict[str, str] | None] = {
    "enters": None,
    "leaves": None,
    "dies": None,
    "to_graveyard_from_battlefield": None,
    "cast": None,
    "you_cast": FILTER,
    "attacks": {"min_attackers": "int"},
    "creature_attacks": FILTER,
    "deals_damage": {"source": "snapshot_filter", "to": "recipient", "combat": "bool", "one_or_more": "bool",
                     "amount_at_least": "int"},  # "deals 6 or more damage to an opponent": one event's damage
    "deals_combat_damage_to_player": None,
    "ability_activated": {**FILTER, "by": "you_or_opponent"},  # rule 602.2: the source; `by`: who activated it
    "dealt_damage": None,  # rule 120.1: this permanent is dealt damage (a delayed one: `about` that creature)
    "beginning_of_step": {"step": "step!", "whose": "whose"},
    "counters_put": FILTER,
    "creature_dies": SNAPSHOT_FILTER,
    "creature_leaves": SNAPSHOT_FILTER,  # a creature leaves the battlefield, to any zone (603.6c, 603.10a)
    "creature_enters": FILTER,
    "creature_fights": SNAPSHOT_FILTER,  # rule 701.14a: a creature fights (each of the two), as it was then
    "to_graveyard_from_anywhere": None,
    "clashes": None,
    "clash_won": None,
    "turned_face_up": None,
    "exploits": None,
    "permanent_turned_face_up": FILTER,
    "becomes_target": {"by": "you_or_opponent"},
    "you_gain_life": None,
    "opponent_casts": FILTER,
    "spell_countered": SNAPSHOT_FILTER,
    "counters_removed": FILTER,
    "put_into_graveyard": {**SNAPSHOT_FILTER, "from": "zone"},
    "permanent_enters": {**FILTER, "from": "zone"},  # rule 603.6a: "put onto the battlefield from a graveyard"
    "player_casts": {**FILTER, "from": "zone"},  # "whenever a player casts a spell from a graveyard" (601.2)
    "player_gets_counters": {"player": "whose"},
    "state": None,  # rule 603.8: a state trigger; its game state is the ability's state: CONDITION
    "becomes_tapped": None,
    "permanent_becomes_tapped": FILTER,
    "becomes_untapped": None,
    "permanent_becomes_untapped": FILTER,
    "blocks": None,
    "blocks_creature": FILTER,  # on the attacker it blocks
    "becomes_blocked": None,
    "becomes_blocked_by": FILTER,  # on the blocking creature
    "attacks_or_blocks": None,
    "blocks_at_least": {"n": "int!"},  # rule 509.3e
    "loses_life": {"player": "whose"},
    "draws": {"player": "whose"},
}
# Trigger events whose ``counter:`` names the kind of counter.
COUNTER_TRIGGERS = frozenset({"counters_put", "counters_removed", "player_gets_counters"})
TRIGGER_CONDITIONS: dict[str, str] = {
    "had_no_counters": "counter",
    "had_counters": "counter",
    "life_at_most": "int",
    "hand_empty": "hand_empty_whose",  # "if you (that player) have no cards in hand": on triggering and resolving
    "total_power_at_least": "int",  # formidable: creatures you control have total power N or greater
    "paid": "str",
    "revealed_or_controlled": "bool",  # a card revealed for its reveal_cost, or one controlled as it was cast
    "control_none": "filter",  # "if / when you control no Islands" (rule 603.8 state triggers too)
    "control_at_least": "control_count",  # {n, filter}: "if you control four or more creatures named X" (603.4)
    "event_object_is": "filter",  # "..., if it's a creature": the event's permanent, on triggering and resolving
    **HISTORY_CONDITIONS,
}
# "As long as you control a black creature" (rule 611.3a): a static ability of a layer applies only while it holds.
STATIC_CONDITIONS: dict[str, str] = {
    "control": "filter",
    "library_at_most": "int",  # "as long as a library has twenty or fewer cards in it": any library, once (611.3a)
}
# The static abilities that take one: those applied in the layers (``layers.STATIC_LAYERS``, a test keeps them equal).
CONDITIONAL_STATICS = frozenset(
    {"pump", "set_pt", "grant", "lose_abilities", "lose_keywords", "set_colors", "add_colors", "add_types",
     "set_subtypes", "grant_abilities"}
)
EFFECT_CONDITIONS: dict[str, str] = {
    "control": "filter", "library_at_most": "int", "revealed_or_controlled": "bool", **HISTORY_CONDITIONS,
    "made": "filter",  # "if you do": this effect put such a card somewhere (608.2c; looking.py's made)
    "nth_resolution_this_turn": "int",  # "if this is the third time this ability has resolved this turn" (608.2)
    "clash_won": "bool",  # "if you won" of a "whenever you clash" trigger (701.30d)
}
# How the spell was cast, for "this enters with a +1/+1 counter on it if you revealed a Dragon card or controlled a
# Dragon as you cast this spell" and "if you revealed ..., this spell can't be countered" (reveal.py)
CAST_CONDITIONS: dict[str, str] = {"revealed_or_controlled": "bool", "control": "filter"}
# ... and, for enters_with_counters, "if you control a creature with power 4 or greater" (ferocious, 614.1c)
CAST_CONDITION_STATICS = frozenset({"enters_with_counters", "cant_be_countered"})
# rule 118.8: "As an additional cost to cast this spell, you may reveal a [filter] card from your hand" (reveal.py)
REVEAL_COST: dict[str, str] = {"filter": "filter!", "or_control": "filter"}
# A delayed triggered ability (rule 603.7): its event, what it is about, its duration and effect.
DELAYED_KEYS: dict[str, str] = {
    "when": "trigger_event!",
    "filter": "any",  # checked against the event's own filter shape (TRIGGER_FILTERS)
    "about": "ref",
    "duration": "delayed_duration",
    "condition": "trigger_condition",
    "effect": "effect!",
    "name": "str",
    "name_ru": "str",
}

ABILITY_KEYS: dict[str, frozenset[str]] = {  # anchor: "Khans — [ability]", the ability of a chosen word (614.12c)
    "triggered": frozenset({"triggered", "name", "name_ru", "condition", "targets", "effect", "optional", "filter",
                            "counter", "each_counter", "state", "anchor", "modes", "divide", "zone"}),
    "activated": frozenset({"activated", "name", "name_ru", "targets", "effect", "mana", "mana_times", "timing",
                            "zone", "condition", "anchor", "spend_only"}),
    "static": frozenset({"static", "name", "name_ru", "affects", "value", "condition", "anchor"}),
}


class Checker:
    """Validates values of one card definition; errors name ``file:line`` of the innermost node."""

    def __init__(self, where: str) -> None:
        self.path, _, line = where.rpartition(":")
        if not self.path or not line.isdigit():
            self.path, line = where, "0"
        self.line = int(line)

    def fail(self, node: Any, message: str, key: str | None = None) -> CardDefinitionError:
        line = line_of(node, key, self.line) or self.line
        return CardDefinitionError(f"{self.path}:{line}: {message}")

    # -- entry points ------------------------------------------------------------------------------------
    def check(self, shape: str, value: Any, what: str, parent: Any = None, key: str | None = None) -> None:
        """Check ``value`` against ``shape``; ``what`` says where it sits (``effect damage, key amount``)."""
        _CHECKERS[shape.rstrip("!")](self, value, what, parent if parent is not None else value, key)

    def keys(
        self, node: Any, allowed: dict[str, str], what: str, extra: Iterable[str] = ()
    ) -> None:
        """A mapping holds only ``allowed`` keys (plus ``extra``), every required one, each of its shape."""
        if not isinstance(node, dict):
            raise self.fail(node, f"{what}: expected a mapping with keys {_known(allowed)}, not {node!r}")
        extras = set(extra)
        for key in node:
            if key in extras:
                continue
            if key not in allowed:
                raise self.fail(node, f"{what}: unknown key {key!r}; known: {_known(allowed) or '(none)'}", key)
            self.check(allowed[key], node[key], f"{what}, {key}", node, key)
        for key, shape in allowed.items():
            if shape.endswith("!") and key not in node:
                raise self.fail(node, f"{what}: missing {key!r}")

    def trigger_filter(self, node: dict[str, Any], event: str, what: str) -> None:
        """``node``'s ``filter:`` has the keys the trigger event reads, or is absent where it reads none."""
        if "filter" not in node:
            return
        allowed = TRIGGER_FILTERS[event]
        if allowed is None:
            raise self.fail(node, f"{what}: trigger {event!r} takes no filter", "filter")
        self.keys(node["filter"], allowed, what)

    def effect(self, value: Any, what: str = "effect") -> None:
        if isinstance(value, list):
            for item in value:
                self.effect(item, what)
            return
        if not isinstance(value, dict) or len(value) != 1:
            raise self.fail(value, f"{what}: an effect is a one-key mapping such as {{damage: ...}}, not {value!r}")
        ((name, inner),) = value.items()
        if name not in EFFECTS:
            raise self.fail(value, f"{what}: unknown effect {name!r}; known: {', '.join(sorted(EFFECTS))}")
        shape = EFFECTS[name]
        if isinstance(shape, str):
            self.check(shape, inner, f"effect {name}", value, name)
        else:
            self.keys(inner if inner is not None else {}, shape, f"effect {name}")

    def targets(self, value: Any, what: str = "targets") -> None:
        if not isinstance(value, list):
            raise self.fail(value, f"{what} must be a list")
        first_slot = 0
        for spec in value:
            if isinstance(spec, dict):
                # another: "another target creature" — not one chosen for an earlier target (601.2c);
                # count: "two target creatures" — one word "target" for N different objects (115.3);
                # relation: restricted relative to an earlier target (601.2c, 608.2b)
                # number: "any number of targets" / "one or two targets" (any | {min, max}, 601.2c; divide.py)
                shape = {"kind": "target_kind!", "filter": "filter", "another": "bool", "count": "int",
                         "number": "target_number"}
                self.keys(spec, {**shape, "relation": "any"}, "target")
                if "count" in spec and (isinstance(spec["count"], bool) or not 2 <= int(spec["count"]) <= 10):
                    raise self.fail(spec, f"{what}: count is the number of targets of one word, 2 to 10", "count")
                if "relation" in spec:
                    self._relation(spec, first_slot, what)
                first_slot += int(spec.get("count", 1))
            else:
                _target_kind(self, spec, what, value, None)
                first_slot += 1

    def _relation(self, spec: dict[str, Any], first_slot: int, what: str) -> None:
        """``relation: {KEY: targetN}`` names an earlier slot; ``each_other`` (symmetric keys, a ``count`` spec)
        relates the N objects of one word."""
        relation = spec["relation"]
        if not isinstance(relation, dict) or not relation:
            example = "{shares_card_type_with: target0}"
            raise self.fail(spec, f"{what}: relation is a mapping such as {example}", "relation")
        for key, ref in relation.items():
            if key not in RELATIONS:
                raise self.fail(relation, f"{what}: unknown relation {key!r}; known: {_known(RELATIONS)}", key)
            if ref == EACH_OTHER:
                if not ("count" in spec or "number" in spec) or not RELATIONS[key][1]:
                    why = "each_other needs count: N and a symmetric relation (or number: for a variable count)"
                    raise self.fail(relation, f"{what}: {key}: {why}", key)
                continue
            match = re.fullmatch(r"target(\d+)", str(ref))
            if match is None or int(match.group(1)) >= first_slot:
                raise self.fail(relation, f"{what}: {key}: expected an earlier target (target0..) or each_other", key)


def _known(allowed: Iterable[str]) -> str:
    return ", ".join(sorted(allowed))


# -- shapes ----------------------------------------------------------------------------------------------
Check = Callable[[Checker, Any, str, Any, "str | None"], None]


def _str(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    if not isinstance(v, str):
        raise c.fail(parent, f"{what}: expected text, not {v!r}", key)


def _int(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    if isinstance(v, bool) or not isinstance(v, int):
        raise c.fail(parent, f"{what}: expected a whole number, not {v!r}", key)


def _bool(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    if not isinstance(v, bool):
        raise c.fail(parent, f"{what}: expected true or false, not {v!r}", key)


def _none(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    if v not in (None, {}, True):
        raise c.fail(parent, f"{what}: takes no value, not {v!r}", key)


def _one_of(words: frozenset[str] | Iterable[str], label: str) -> Check:
    known = frozenset(words)

    def check(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
        if not isinstance(v, str) or v not in known:
            raise c.fail(parent, f"{what}: unknown {label} {v!r}; known: {_known(known)}", key)

    return check


def _list_of(item: Check, label: str) -> Check:
    def check(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
        if not isinstance(v, list):
            raise c.fail(parent, f"{what}: expected a list of {label}, not {v!r}", key)
        for x in v:
            item(c, x, what, v, None)

    return check


def _ref(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    """``target``/``targetN``, a word of ``SIMPLE_REFS``, ``{all: FILTER, of: REF}``, ``{controller_of: target}``."""
    if isinstance(v, list):
        for x in v:
            _ref(c, x, what, v, None)
        return
    if isinstance(v, dict):
        if "all" in v:
            c.keys(v, {"all": "filter!", "of": "ref"}, f"{what} (all)")
            return
        if "graveyard_of" in v:  # the cards in that player's graveyard ("exile target opponent's graveyard")
            c.keys(v, {"graveyard_of": "ref!"}, f"{what} (graveyard_of)")
            return
        if "controller_of" in v:  # of a target, or of "that" object of a delayed trigger (LKI)
            c.keys(v, {"controller_of": "target_ref_or_that!"}, f"{what} (controller_of)")
            return
        if "owner_of" in v:  # "that player": the owner of the event's card (its graveyard's player, 404.2)
            c.keys(v, {"owner_of": "ref!"}, f"{what} (owner_of)")
            return
        raise c.fail(v, f"{what}: a reference mapping is {{all: FILTER}} or {{controller_of: target}}, not {v!r}")
    if isinstance(v, str) and (_TARGET_REF.match(v) or v in SIMPLE_REFS):
        return
    raise c.fail(
        parent, f"{what}: unknown reference {v!r}; known: target, target0.., {_known(SIMPLE_REFS)}, {{all: ...}}", key
    )


def _target_ref(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    if not (isinstance(v, str) and _TARGET_REF.match(v)):
        raise c.fail(parent, f"{what}: expected target or targetN, not {v!r}", key)


def _target_ref_or_that(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    if v != "that":
        _target_ref(c, v, what, parent, key)


def _snapshot_filter(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    c.keys(v, SNAPSHOT_FILTER, f"{what} (filter)")


def _trigger_event(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    if v not in TRIGGER_EVENTS:
        raise c.fail(parent, f"{what}: unknown trigger event {v!r}; known: {_known(TRIGGER_EVENTS)}", key)


def _trigger_condition(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    c.keys(v, TRIGGER_CONDITIONS, f"{what} (condition)")


def _delayed_trigger(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    """``{when, filter, about, duration, effect}``; the filter has the shape of the event's own filter."""
    c.keys(v, DELAYED_KEYS, what)
    c.trigger_filter(v, v["when"], f"{what}, filter of {v['when']}")


def _amount(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    if isinstance(v, bool):
        raise c.fail(parent, f"{what}: an amount is a number, X or a mapping, not {v!r}", key)
    if isinstance(v, int) or v == "X" or (isinstance(v, str) and v.lstrip("-").isdigit()):
        return
    if isinstance(v, dict) and set(v) == {"count", "of"}:  # "for each creature target opponent controls"
        c.check("filter", v["count"], f"{what} (count)", v, "count")
        c.check("ref", v["of"], f"{what} (of)", v, "of")
        return
    if isinstance(v, dict) and len(v) == 1:
        ((name, inner),) = v.items()
        shapes = {"power_of": "ref", "toughness_of": "ref", "event_amount": "bool", "count": "count_filter",
                  "greatest_power": "filter",  # "the greatest power among creatures you control" (208.1)
                  "mana_value_of": "ref",  # "that card's mana value" (202.3e: an {X} off the stack is 0; LKI once gone)
                  "count_made": "filter",  # the objects this effect made or moved: "for each card exiled this way"
                  "counters_removed": "bool",  # "that much": the counters this effect removed so far (608.2c)
                  "damage_dealt": "bool",  # "the damage dealt this way": by this effect's earlier damage (608.2c)
                  "most_discarded": "bool",  # "the greatest number of cards a player discarded this way" (608.2c)
                  "discarded": "that_player",  # "draws that many": the cards that player discarded this way
                  "sum": "amounts",  # "that many minus one": {sum: [AMOUNT, -1]} (a negative total counts as 0)
                  "negate": "amount", "player_counters": "player_counters_amount",
                  "this_turn": "history_amount",  # this turn's history: life lost, cards drawn, damage
                  "number_of_counters": "number_of_counters_amount"}  # {kind, what}: counters on it, as it last existed
        if name in shapes:
            c.check(shapes[name], inner, f"{what} ({name})", v, name)
            return
        raise c.fail(v, f"{what}: unknown amount {name!r}; known: {_known(shapes)}")
    raise c.fail(parent, f"{what}: an amount is a number, X, {{power_of: REF}}, {{count: FILTER}}..., not {v!r}", key)


def _history_amount(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    """``{life_lost: REF}``, ``{cards_drawn: REF}`` or ``{damage_to: REF, source: FILTER, combat: bool}``."""
    shapes = {"life_lost": {"life_lost": "ref!"}, "cards_drawn": {"cards_drawn": "ref!"},
              "damage_to": {"damage_to": "ref!", "source": "damage_source", "combat": "bool"}}
    kind = next((k for k in shapes if isinstance(v, dict) and k in v), None)
    if kind is None:
        raise c.fail(parent, f"{what}: this turn's {_known(shapes)}, not {v!r}", key)
    c.keys(v, shapes[kind], what)


def _player_counters_amount(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    """``{player_counters: experience}`` (yours) or ``{player_counters: {kind: experience, of: REF}}``."""
    if isinstance(v, str):
        _counter(c, v, what, parent, key)
    else:
        c.keys(v, {"kind": "counter!", "of": "ref"}, what)


def _amount_or_all(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    if v != "all":
        _amount(c, v, what, parent, key)


def _move_amount(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    """How many counters ``move_counters`` moves: an amount, ``all``, or ``any_number`` (chosen on resolution)."""
    if v not in ("all", "any_number"):
        _amount(c, v, what, parent, key)


def _filter(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    c.keys(v, FILTER, f"{what} (filter)")


def _counter(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    if not isinstance(v, str) or not re.match(r"^([+-]\d+/[+-]\d+|[a-z][a-z _-]*)$", v):
        raise c.fail(parent, f"{what}: a counter kind is like \"-1/-1\", \"+1/+1\" or loyalty, not {v!r}", key)


def _counter_or_true(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    if v is not True:
        _counter(c, v, what, parent, key)


def _counters(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    if not isinstance(v, dict):
        raise c.fail(parent, f"{what}: expected counters such as {{\"+1/+1\": 1}}, not {v!r}", key)
    for kind, n in v.items():
        _counter(c, kind, what, v, kind)
        _int(c, n, what, v, kind)


def _entering_counters(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    """ "Enters with X +1/+1 counters, where X is the greatest power among other creatures you control"."""
    if not isinstance(v, dict):
        raise c.fail(parent, f"{what}: expected counters such as {{\"+1/+1\": 1}}, not {v!r}", key)
    for kind, n in v.items():
        _counter(c, kind, what, v, kind)
        if isinstance(n, dict) and set(n) == {"greatest_power"}:
            c.check("filter", n["greatest_power"], f"{what} (greatest_power)", n, "greatest_power")
        elif n != "X":  # "enters with X +1/+1 counters": the X of its spell (107.3m)
            _int(c, n, what, v, kind)


def _mana(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    try:
        parse_cost(str(v)) if "{" in str(v) else parse_units(str(v))
    except (EngineError, ValueError, KeyError) as exc:
        raise c.fail(parent, f"{what}: bad mana {v!r} ({exc})", key) from exc


def _effects_by_word(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    """``by_option: {WORD: effect}``: the effect of each word a player may choose as the effect resolves (608.2d)."""
    if not isinstance(v, dict) or not v:
        raise c.fail(parent, f"{what}: a mapping of the offered words to effects", key)
    for word, eff in v.items():
        c.check("effect", eff, f"{what} ({word})", v, str(word))


def _mana_produced(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    """Mana an ability adds: units (``G``, ``{C}{C}``) or ``any`` (one mana of any colour, a choice); or
    ``{mana, times}``: that mana for each of an amount ("add {G} for each +1/+1 counter on this", 106.1)."""
    from rules_engine.produce import is_produced

    if isinstance(v, dict) and "could_produce" in v:  # rule 106.7: "any type that a land you control could produce"
        c.keys(v, {"could_produce": "filter!"}, what)
        return
    if isinstance(v, dict):
        c.keys(v, {"mana": "mana_produced!", "times": "amount!"}, what)
        return

    try:
        is_produced(str(v))
    except (EngineError, ValueError, KeyError) as exc:
        raise c.fail(parent, f"{what}: bad mana {v!r}: units such as G or {{C}}{{C}}, or any ({exc})", key) from exc


def _keyword(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    if not isinstance(v, str) or v not in KEYWORDS | PARAM_KEYWORDS:
        raise c.fail(parent, f"{what}: unknown keyword {v!r}; known: {_known(KEYWORDS | PARAM_KEYWORDS)}", key)


def _keywords(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    if not isinstance(v, list):
        raise c.fail(parent, f"{what}: expected a list of keywords, not {v!r}", key)
    for item in v:
        if isinstance(item, dict):  # a keyword with its parameter, e.g. {landwalk: Forest}
            for name in item:
                if name not in PARAM_KEYWORDS:
                    raise c.fail(item, f"{what}: unknown keyword with parameter {name!r}; known: "
                                       f"{_known(PARAM_KEYWORDS)}", name)
                if name == "protection":
                    _protection(c, item[name], f"{what}, protection", item, name)
        elif item != "chosen":  # "gain that ability": the keyword chosen as the effect resolves (608.2d)
            _keyword(c, item, what, v, None)


PROTECTION_QUALITIES = {"colors": "colors", "types": "types", "subtypes": "strs", "everything": "bool",
                        "mana_value_at_least": "int",  # "protection from mana value 3 or greater" (702.16a)
                        "multicolored": "bool"}  # "protection from multicolored": two or more colours (105.4)


def _protection(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    """Rule 702.16a: the quality protection is from: ``everything`` or a mapping of colours, card types, subtypes
    (each one listed is a protection of its own, rule 702.16g)."""
    if v == "everything":
        return
    c.keys(v, PROTECTION_QUALITIES, what)
    if not v:
        raise c.fail(parent, f"{what}: name a quality ({_known(PROTECTION_QUALITIES)}) or everything", key)


def _sacrifice(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    if isinstance(v, dict):
        c.keys(v, {"what": "ref", "by": "its_controller"}, what)
    else:
        _ref(c, v, what, parent, key)


def _effect_condition(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    c.keys(v, EFFECT_CONDITIONS, f"{what} (condition)")


def _instead_of_drawing_value(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    """"If you would draw a card, EFFECT instead" (``effect``) or "draw N cards instead" (``draws``): one of the two."""
    c.keys(v, {"players": "whose", "effect": "effect", "draws": "int", "optional": "bool"}, what)
    if isinstance(v, dict) and ("effect" in v) == ("draws" in v):
        raise c.fail(parent, f"{what}: exactly one of effect / draws", key)


def _effect_shape(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    c.effect(v, what)


def _target_kind(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    if v not in TARGET_KINDS:
        raise c.fail(parent, f"{what}: unknown target kind {v!r}; known: {', '.join(TARGET_KINDS)}", key)


def _pt_change(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    """A number or ``{count: FILTER}`` ("+1/+1 for each Plains you control", counted continuously: 611.3a)."""
    c.keys(v, {"power": "static_amount", "toughness": "static_amount"}, what)


def _subtypes_value(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    c.keys(v, {"subtypes": "strs!"}, what)


def _pt_set(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    c.keys(v, {"power": "int!", "toughness": "int!"}, what)


def _defined_pt(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    """Rule 604.3: each of power and toughness is a number or ``{count: FILTER}`` (``zone:`` counts there)."""
    c.keys(v, {"power": "static_amount!", "toughness": "static_amount!"}, what)


def _static_amount(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    if isinstance(v, int) and not isinstance(v, bool):
        return
    if isinstance(v, dict) and set(v) == {"count"}:
        c.keys(v["count"], {**FILTER, "zone": "zone"}, f"{what} (count)")
        return
    if isinstance(v, dict) and set(v) == {"mana_value_of_linked"}:  # the card this object's linked ability exiled
        c.check("link", v["mana_value_of_linked"], what, v, "mana_value_of_linked")
        return
    if isinstance(v, dict) and set(v) == {"sum"} and isinstance(v["sum"], list) and v["sum"]:  # "X plus Y"
        for part in v["sum"]:
            _static_amount(c, part, what, v, "sum")
        return
    raise c.fail(parent, f"{what}: a number, {{count: FILTER}}, {{sum: [...]}} or {{mana_value_of_linked: LINK}}, "
                         f"not {v!r}", key)


# Rule 707.9: the modifications and exceptions a copy effect may state ("except it's 1/1", "except it has flying",
# "except it doesn't copy that creature's colour", "except it's an enchantment in addition to its other types").
COPY_EXCEPT: dict[str, str] = {
    "power": "int",
    "toughness": "int",
    "colors": "colors",
    "not_copied": "not_copied",
    "add_types": "types",
    "add_subtypes": "strs",
    "add_supertypes": "supertypes",
    "remove_supertypes": "supertypes",
    "name": "str",
    "name_ru": "str",  # the Russian name the copy has then (the log's), with name
    "keywords": "keywords",
    "this_ability": "bool",
    "abilities": "abilities",
}


def _copy_except(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    c.keys(v, COPY_EXCEPT, f"{what} (except)")


def _enters_as_copy_value(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    c.keys(v, {"filter": "filter", "except": "copy_except"}, what)


def _grant_value(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    c.keys(v, {"keywords": "keywords!"}, what)


def _colors_value(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    c.keys(v, {"colors": "colors!"}, what)


def _types_value(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    c.keys(v, {"types": "types", "subtypes": "strs"}, what)


def _life_value(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    c.keys(v, {"life": "int!"}, what)


def _blocked_by_value(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    c.keys(v, {"by": "filter!"}, what)


def _n_value(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    c.keys(v, {"n": "int!"}, what)


def _destroy(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    """``REF``, or ``{what, no_regeneration, instead}`` (rules 701.19c, 614.15)."""
    if isinstance(v, dict) and "what" in v:
        c.keys(v, {"what": "ref!", "no_regeneration": "bool", "instead": "replacement_zone"}, what)
    else:
        _ref(c, v, what, parent, key)


_CHANGES = {"times": "int", "plus": "int", "minus": "int"}


def _modify_value(c: Checker, v: Any, what: str, parent: Any, key: str | None, extra: dict[str, str] | None = None
                  ) -> None:
    """Exactly one of ``times``, ``plus``, ``minus``."""
    c.keys(v, {**_CHANGES, **(extra or {})}, what)
    if len([k for k in v if k in _CHANGES]) != 1:
        raise c.fail(parent, f"{what}: name one change of {_known(_CHANGES)}", key)


def _modify_counters_value(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    _modify_value(c, v, what, parent, key, {"kind": "counter"})


def _filter_value(c: Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    c.keys(v, {"filter": "filter!"}, what)


_CHECKERS: dict[str, Check] = {
    "str": _str,
    "int": _int,
    "int_or_x": lambda c, v, what, parent, key: None if v == "X" else _int(c, v, what, parent, key),
    "bool": _bool,
    "none": _none,
    "strs": _list_of(_str, "words"),
    "types": _list_of(_one_of(CARD_TYPES, "card type"), "card types"),
    "supertypes": _list_of(_one_of(SUPERTYPES | {"Tribal", "Kindred"}, "supertype"), "supertypes"),
    "colors": _list_of(_one_of(set(COLORS) | {"chosen"}, "colour"), "colours (W U B R G, or chosen: the choice)"),
    "parity": _one_of({"odd", "even", "chosen"}, "odd or even"),
    "you_or_opponent": _one_of({"you", "opponent"}, "player"),
    "owner_or_you": _one_of({"owner", "you"}, "player"),
    "its_controller": _one_of({"its_controller"}, "player"),
    "whose": _one_of({"you", "opponent", "each"}, "player"),
    "duration": _one_of(DURATIONS, "duration"),
    "zone": _one_of(ZONE_NAMES, "zone"),
    "zones": lambda c, v, what, parent, key: (  # a zone, or a list: "from your hand or graveyard"
        _list_of(_one_of(ZONE_NAMES, "zone"), "zones")(c, v, what, parent, key) if isinstance(v, list)
        else _one_of(ZONE_NAMES, "zone")(c, v, what, parent, key)
    ),
    "step": _one_of(STEP_NAMES, "step"),
    "link": _one_of(LINKS, "linked ability"),
    "effects_by_word": _effects_by_word,
    "that_player": _one_of({"that_player", "you"}, "player (that_player: each player in turn, you)"),
    "amounts": _list_of(_amount, "amounts"),
    # looking.py: where looked-at or revealed cards go (top / bottom of their library in any order, or a zone)
    "library_place": _one_of({"top", "bottom", "graveyard", "hand", "exile", "battlefield", "shuffle", "cast"},
                             "place"),
    "look_take": _list_of(
        lambda c, v, what, parent, key: c.keys(
            v, {"n": "amount", "filter": "filter", "to": "library_place", "up_to": "bool", "reveal": "bool"}, what),
        "clauses {n, filter, to, up_to, reveal}"),
    "anchor_words": lambda c, v, what, parent, key: c.keys(v, {"options": "enter_options!"}, what),
    # rule 614.12: a list of words (anchor words, odd / even) or a named set: colors (105.4), basic_land_types
    "enter_options": lambda c, v, what, parent, key: (
        None if isinstance(v, str) and v in ("colors", "basic_land_types") else _list_of(_str, "words")(
            c, v, what, parent, key)
    ),
    "exile_as_enters_value": lambda c, v, what, parent, key: c.keys(v, {"filter": "filter", "link": "link!"}, what),
    "cast_without_paying": lambda c, v, what, parent, key: (
        c.keys(v, {"what": "ref!", "exile_instead_of_graveyard": "bool"}, what) if isinstance(v, dict) and "what" in v
        else _ref(c, v, what, parent, key)
    ),
    "target_number": lambda c, v, what, parent, key: (
        None if v == "any" else c.keys(v, {"min": "int", "max": "int"}, what)
    ),
    # rule 601.2d: the amount divided, counted as the spell is cast: a number, X, or {count: FILTER}
    "divide_amount": lambda c, v, what, parent, key: (
        c.keys(v, {"count": "filter!"}, what) if isinstance(v, dict) else None if v == "X" else _int(
            c, v, what, parent, key)
    ),
    "zone_or_any": lambda c, v, what, parent, key: (
        None if v == "any" else _one_of(ZONE_NAMES, "zone")(c, v, what, parent, key)
    ),
    "play_until": _one_of({"end_of_turn", "end_of_your_next_turn"}, "duration of the permission"),
    "play_permission": lambda c, v, what, parent, key: c.keys(v, {"until": "play_until!"}, what),
    "play_exiled_value": lambda c, v, what, parent, key: c.keys(v, {"link": "link", "spells_per_turn": "int"}, what),
    "keyword": _keyword,
    "keywords": _keywords,
    "ref": _ref,
    "target_ref": _target_ref,
    "target_kind": _target_kind,
    "amount": _amount,
    "player_counters_amount": _player_counters_amount,
    "amount_or_all": _amount_or_all,
    "move_amount": _move_amount,
    "filter": _filter,
    "counter": _counter,
    "counter_or_true": _counter_or_true,
    "counters": _counters,
    "entering_counters": _entering_counters,
    "mana": _mana,
    "mana_produced": _mana_produced,
    "spend_only": lambda c, v, what, parent, key: c.keys(  # rule 106.6 (spending.py)
        v, {"spells": "filter", "abilities": "filter", "x_costs": "bool", "face_down_spells": "bool",
            "morph_costs": "bool", "manifest_face_up": "bool"}, what),
    "sacrifice": _sacrifice,
    "effect": _effect_shape,
    "effect_condition": _effect_condition,
    "pt_change": _pt_change,
    "grant_value": _grant_value,
    "colors_value": _colors_value,
    "types_value": _types_value,
    "life_value": _life_value,
    "blocked_by_value": _blocked_by_value,
    "n_value": _n_value,
    "filter_value": _filter_value,
    "pt_set": _pt_set,
    "subtypes_value": _subtypes_value,
    "defined_pt": _defined_pt,
    "static_amount": _static_amount,
    "copy_except": _copy_except,
    "not_copied": _list_of(_one_of({"colors"}, "characteristic"), "characteristics"),
    "enters_as_copy_value": _enters_as_copy_value,
    "destroy": _destroy,
    "modify_value": _modify_value,
    "modify_counters_value": _modify_counters_value,
    "zone_value": lambda c, v, what, parent, key: c.keys(v, {"zone": "replacement_zone!"}, what),
    "replacement_zone": _one_of({"exile", "hand", "library"}, "zone"),
    "prevent_value": lambda c, v, what, parent, key: c.keys(v, {"n": "amount_or_all!", "then": "effect"}, what),
    "modify_mana_value": lambda c, v, what, parent, key: c.keys(v, {"times": "int!", "players": "whose"}, what),
    "prevent_from": lambda c, v, what, parent, key: None if v == "chosen_source" else _ref(c, v, what, parent, key),
    "counter_kind_value": lambda c, v, what, parent, key: c.keys(v, {"kind": "counter"}, what),
    "player_counters_value": lambda c, v, what, parent, key: c.keys(
        v, {"players": "whose!", "kind": "player_counter"}, what
    ),
    "player_counter": _one_of({"poison"}, "player counter"),
    "players_value": lambda c, v, what, parent, key: c.keys(v, {"players": "whose!"}, what),
    "instead_of_drawing_value": _instead_of_drawing_value,
    "hand_empty_whose": _one_of({"you", "event_player"}, "whose hand (you, event_player)"),
    "granted_abilities_value": lambda c, v, what, parent, key: c.keys(v, {"abilities": "abilities!"}, what),
    "protection": _protection,
    "any": lambda c, v, what, parent, key: None,
    "target_ref_or_that": _target_ref_or_that,
    "snapshot_filter": _snapshot_filter,
    "recipient": _one_of(RECIPIENTS, "recipient"),
    "trigger_event": _trigger_event,
    "trigger_condition": _trigger_condition,
    "delayed_trigger": _delayed_trigger,
    "delayed_duration": _one_of({"this_turn"}, "duration"),
    "targets": lambda c, v, what, parent, key: c.targets(v, what),
    "controller_word": _one_of({"you", "opponent", "defending_player"}, "player"),
    "return_chooser": _one_of({"you", "opponent"}, "chooser"),
    "player_you": _one_of({"you"}, "player"),
    "control_count": lambda c, v, what, parent, key: c.keys(v, {"n": "int", "filter": "filter!"}, what),
    "must_be_blocked_value": lambda c, v, what, parent, key: c.keys(v, {"all": "bool"}, what),
    "unless_value": lambda c, v, what, parent, key: c.keys(v, {"unless_control": "filter!"}, what),
    "life_lost_condition": lambda c, v, what, parent, key: c.keys(v, {"players": "whose", "at_least": "int"}, what),
    "damage_condition": lambda c, v, what, parent, key: c.keys(
        v, {"source": "damage_source", "to": "recipient", "combat": "bool", "at_least": "int"}, what
    ),
    "history_amount": _history_amount,
    # {count: FILTER}: permanents matching it; with zone: cards in that zone ("each Elf card in your graveyard")
    "count_filter": lambda c, v, what, parent, key: c.keys(v, {**FILTER, "zone": "zone"}, f"{what} (filter)"),
    "int_or_count": lambda c, v, what, parent, key: (
        c.keys(v, {"count": "filter!"}, what) if isinstance(v, dict) else None if v == "X" else _int(
            c, v, what, parent, key)
    ),
    "number_of_counters_amount": lambda c, v, what, parent, key: c.keys(v, {"kind": "counter!", "what": "ref"}, what),
    "damage_source": lambda c, v, what, parent, key: c.keys(v, DAMAGE_SOURCE_FILTER, f"{what} (source)"),
    "alternative_cost": _one_of({"dash", "evoke"}, "alternative cost"),
    "library_value": lambda c, v, what, parent, key: (  # REF, or {what: REF, bottom: true}: the bottom (401.4)
        c.keys(v, {"what": "ref!", "bottom": "bool"}, what) if isinstance(v, dict) and "what" in v else _ref(
            c, v, what, parent, key)
    ),
    "doesnt_untap_value": lambda c, v, what, parent, key: (
        c.keys(v, {"on": "ref", "duration": "duration!"}, what) if isinstance(v, dict) else _ref(
            c, v, what, parent, key)
    ),
    "game_duration": _one_of({"end_of_turn", "permanent"}, "duration"),  # this turn, or the rest of the game
}


def register(shape: str, check: Check) -> None:
    """Add a shape whose check needs the card parser: a token (``token``) is a card definition and a copy's
    ``abilities`` are ability definitions. ``cards`` registers both as it loads, so this module, which ``cards``
    imports, never imports ``cards``; every ``Checker`` is made by ``cards``, after the registration."""
    _CHECKERS[shape] = check
