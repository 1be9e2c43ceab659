"""The names card definitions may use: keywords, trigger events, static abilities, effects, targets.

Kept in one place so the card loader can validate a definition without importing the machinery.
"""

from __future__ import annotations

KEYWORDS = frozenset(
    {
        "flying",
        "fear",
        "reach",
        "first_strike",
        "double_strike",
        "trample",
        "haste",
        "vigilance",
        "defender",
        "wither",
        "persist",
        "changeling",
        "deathtouch",
        "lifelink",
        "indestructible",
        "flash",
        "shroud",
        "hexproof",
        "conspire",
        "evolve",
        "extort",
        "hideaway",  # rule 502.75a of the time: enters tapped; look at four, exile one face down (linked)
        "cipher",  # rule 702.97a: encode the card on a creature on resolution
        "intimidate",  # rule 702.13b: blocked only by artifact creatures and creatures sharing a colour with it
        "menace",  # rule 702.111b: can't be blocked except by two or more creatures
        "infect",  # rule 702.90: damage as -1/-1 counters to creatures and poison counters to players (120.3b, d)
        "exploit",  # rule 702.110a: when this creature enters, you may sacrifice a creature
        "rebound",  # rule 702.88a: cast from the hand, exiled as it resolves, cast again at the next upkeep
        "prowess",  # rule 702.108a: whenever you cast a noncreature spell, +1/+1 until end of turn
        "skulk",  # rule 702.118b: can't be blocked by creatures with greater power
        "shadow",  # rule 702.28b: blocked only by creatures with shadow, blocks only creatures with shadow
        "delve",  # rule 702.66a: cards exiled from your graveyard pay generic mana of the total cost (cast: delve:)
    }
)
# champion: a filter ({types: [Creature]} or {subtypes: [Goblin]}); landwalk: a land subtype ("Forest");
# protection (rule 702.16): a quality {colors: [R]}, {types: [Creature]}, {subtypes: [Goblin]} or everything
# dash (rule 702.109a): its cost, an alternative cost with haste and a delayed return to the hand
# equip (rule 702.6a): its cost, {cost, filter} for "Equip [quality]" (702.6c), or a list of them (702.6d)
PARAM_KEYWORDS = frozenset({"morph", "megamorph", "evoke", "dash", "champion", "landwalk", "protection", "equip"})

TRIGGER_EVENTS = frozenset(
    {
        "enters",  # this permanent enters the battlefield
        "leaves",  # this permanent leaves the battlefield
        "dies",  # this creature is put into a graveyard from the battlefield
        "to_graveyard_from_battlefield",  # this permanent is, whatever its types
        "cast",  # this spell is cast
        "you_cast",  # its controller casts a spell (filter: on the spell)
        "attacks",  # this creature attacks
        "creature_attacks",  # a creature matching filter is declared as an attacker (rule 508.3a; `it` is it)
        "deals_damage",  # this object deals damage
        "ability_activated",  # an activated ability (never a mana ability, 605.3b) is activated: filter on its source
        "dealt_damage",  # this permanent is dealt damage (120.1; damage dealt at once is one event, 510.2, 603.2c)
        "deals_combat_damage_to_player",
        "beginning_of_step",  # filter: {step: upkeep, whose: you|each|opponent}
        "counters_put",  # counters (counter: kind) are put on a permanent matching filter, or it enters with them
        "creature_dies",  # any creature matching filter dies
        "creature_leaves",  # any creature matching filter leaves the battlefield, to any zone (603.6c)
        "creature_enters",  # another creature matching filter enters under your control
        "to_graveyard_from_anywhere",  # this card is put into a graveyard from any zone
        "clashes",  # its controller clashes
        "clash_won",  # its controller clashes and wins
        "turned_face_up",  # this permanent is turned face up (rules 702.37e, 701.40b; 708.8: it doesn't "enter")
        "permanent_turned_face_up",  # a permanent matching filter is turned face up
        "creature_fights",  # rule 701.14a: whenever a creature (filter: you control) fights; `it` is that creature
        "exploits",  # this creature exploits a creature (rule 702.110b), also when it sacrificed itself
        "becomes_target",  # this permanent becomes the target of a spell or ability
        "you_gain_life",  # its controller gains life (rule 119.9: once per life-gaining event, never for 0)
        "opponent_casts",  # an opponent casts a spell (filter: on the spell, e.g. {multicolored: true})
        "spell_countered",  # a spell matching filter is countered (rule 701.6a)
        "counters_removed",  # counters (counter: kind) are removed from a permanent matching filter
        "put_into_graveyard",  # a card matching filter is put into a graveyard (filter from: ZONE; else anywhere)
        "permanent_enters",  # a permanent matching filter (itself included) enters (filter from: ZONE), 603.6a
        "player_casts",  # a player casts a spell matching filter (filter from: ZONE, where it was cast from), 601.2
        "player_gets_counters",  # a player (filter player: you|opponent|each) gets counters (counter: kind), 122.1
        "becomes_tapped",  # this permanent changes from untapped to tapped (rule 701.26a; tapping.py)
        "permanent_becomes_tapped",  # a permanent matching filter becomes tapped ("whenever a Merfolk you control ...")
        "becomes_untapped",  # this permanent changes from tapped to untapped (rule 701.26b; tapping.py)
        "permanent_becomes_untapped",  # a permanent matching filter becomes untapped
        "blocks",  # this creature blocks (rule 509.3a: once each combat, however many it blocks)
        "blocks_creature",  # this creature blocks a creature (509.3b: once per attacker; filter on the attacker)
        "becomes_blocked",  # this creature becomes blocked (509.3c: once, however many block it)
        "becomes_blocked_by",  # this creature becomes blocked by a creature (509.3d: once per blocker; filter on it)
        "attacks_or_blocks",  # this creature attacks or blocks (508.3a, 509.3a)
        "blocks_at_least",  # filter {n: 2}: this creature blocks N or more creatures (509.3e: declared, or made to)
        "loses_life",  # a player (filter player: you|opponent|each) loses life (rule 119.3: once per loss)
        "state",  # rule 603.8: a state trigger, "when you control no Islands" (state: CONDITION)
        "draws",  # a player (filter player: you|opponent|each) draws a card (rule 121.1: once per card)
    }
)

STATIC_KINDS = frozenset(
    {
        "pump",  # layer 7c: affects get value {power, toughness}
        "grant",  # layer 6: affects gain value {keywords}
        "set_colors",  # layer 5
        "add_colors",  # layer 5, value {colors}: "... are the chosen color in addition to their other colors"
        "exile_as_enters",  # rule 614.12a, value {filter, link}: "as this enters, exile a ... card from your graveyard"
        "add_types",  # layer 4
        "cant_attack",
        "cant_block",
        "cant_attack_or_block",
        "doesnt_untap",  # rules 502.3, 611.3a: affects don't untap during their controller's untap step
        "attacks_each_combat",  # rule 508.1d: affects attack each combat if able
        "blocks_each_combat",  # rule 509.1c: affects block each combat if able
        "must_be_blocked",  # rule 509.1c: affects must be blocked if able (value {all: true}: by all able to)
        "cant_attack_you",  # rule 508.1c: affects can't attack you or planeswalkers you control
        "cant_be_blocked",  # rule 509.1b: affects can't be blocked (value {by: FILTER}: by such creatures)
        "min_blockers",  # rule 509.1b: value {n: 3}: can't be blocked except by N or more creatures
        "max_blockers",  # rule 509.1b: value {n: 1}: can't be blocked by more than N creatures
        "can_block_only",  # rule 509.1b: value {filter: FILTER}: affects can block only such attackers
        "cant_attack_alone",  # rules 506.5, 508.1c: affects can't be the only creature declared as an attacker
        "cant_block_alone",  # rules 506.5, 509.1b: affects can't be the only creature declared as a blocker
        "cant_attack_or_block_alone",  # both ("can't attack or block alone")
        "can_block_additional",  # rule 509.1a: value {n: 1}: affects can block N additional creatures each combat
        "can_block_any_number",  # rule 509.1a: affects can block any number of creatures
        "attack_cost",  # rule 508.1h: value "{1}": affects can't attack unless their controller pays it
        "block_cost",  # rule 509.1d: value "{1}": affects can't block unless their controller pays it (each)
        "attack_or_block_cost",  # both ("can't attack or block unless you pay {2}")
        "assigns_damage_by_toughness",  # rule 510.1a: affects assign combat damage equal to toughness, not power
        "enters_tapped",
        "enters_with_counters",
        "enters_tapped_unless_pay",  # value {life: 2}: "as it enters, you may pay 2 life; if you don't, tapped"
        "cost_increase",  # value "{1}": spells matching affects cost that much more (their total cost)
        "cost_reduction",  # value "{1}" or "{G}": less; a coloured reduction needs that colour in the cost
        "lose_abilities",  # layer 6, e.g. cards in graveyards lose all abilities
        "enters_as_copy",  # rule 707.5: value {filter, except}: "you may have this enter as a copy of ..."
        "defines_pt",  # rule 604.3, layer 7a: value {power, toughness}: a number or {count: FILTER} (every zone)
        "set_pt",  # rule 613.4b, layer 7b: value {power, toughness}: affects have base P/T N/N
        "lose_keywords",  # layer 6, value {keywords}: "enchanted creature loses flying"
        "set_subtypes",  # layer 4, value {subtypes}: replaces the subtypes of that kind (205.1b; lands: 305.7)
        "exile_instead_of_graveyard",  # rule 614.1a: affected cards go to exile instead of a graveyard
        "instead_of_dying",  # rule 614.1a: value {zone}: "if this creature would die, put it into ZONE instead"
        "prevent_damage",  # rule 615.10: value {n: N|all}: damage to the affected permanents is prevented
        "modify_damage",  # rule 614.1a: value {times|plus|minus: N}: damage from the affected sources changes
        "modify_life_gain",  # rule 119.10: value {times|plus: N}: life its controller would gain changes
        "modify_mana",  # rules 106.12b, 614.1a: value {times: N, players}: a permanent tapped for mana produces more
        "modify_counters",  # rule 614.16: value {kind, times|plus|minus: N}: counters put on the affected change
        "damage_cant_be_prevented",  # rule 615.12: damage from the affected sources ({}: all) can't be prevented
        "target_as_though_no_hexproof",  # rule 702.11b: its controller may target the affected as if no hexproof
        "damage_as_though_wither",  # rule 702.80a (120.3d): damage from every source (or the affected) as with wither
        "cant_have_counters",  # rule 614.17 (122.6): value {kind} (optional): counters can't be put on the affected
        "cant_get_counters",  # rule 614.17: value {players, kind}: those players can't get such counters
        "cant_gain_life",  # rule 119.7: value {players: you|opponent|each}: those players can't gain life
        "cant_lose_life",  # rule 119.8: value {players: you|opponent|each}: those players can't lose life
        "play_exiled",  # value {link, spells_per_turn}: you may play the affected cards it exiled (playfrom.py)
        "look_at_face_down",  # rule 708.5: its controller may look at face-down creatures they don't control
        "play_from_graveyard",  # you may play the affected cards of your graveyard (Crucible of Worlds; playfrom.py)
        "choose_as_enters",  # value {options: [Khans, Dragons]}: rule 614.12c, the anchor word (anchors.py)
        "control",  # rule 613.1b (layer 2): "you control enchanted creature" (affects: {attached: true})
        "cant_be_countered",  # rule 101.2: this spell can't be countered (condition: revealed_or_controlled)
        "instead_of_countering",  # 614.1a: a spell its controller's effects would counter is exiled, may be cast
        "grant_abilities",  # rule 613.1f, layer 6: value {abilities}: the affected have those abilities
        "instead_of_drawing",  # rule 614.11: value {players, effect, optional}: "if you would draw, EFFECT instead"
    }
)

EFFECT_NAMES = frozenset(
    {
        "damage",
        "destroy",
        "destroy_all",
        "counters",
        "remove_counters",
        "exile_until_leaves",  # REF: exile it until this leaves the battlefield (rule 610.3, until.py)
        "exile_linked",  # exile REF; the source's return_linked: exiled returns that card (rule 607.2a)
        "cast_without_paying",  # you may cast that card without paying its mana cost (rebound, 702.88a)
        "exploit",  # rule 702.110a: the exploit trigger's sacrifice, chosen as it resolves (an exploit choice)
        "turn_face_up",  # an effect turns a face-down permanent face up (a manifested instant stays down, 701.40g)
        "bolster",  # rule 701.39a: N +1/+1 counters on a creature of yours with the least toughness
        "pump",
        "set_pt",
        "switch_pt",
        "grant",
        "lose_abilities",
        "lose_keywords",  # {keywords, on, duration}: layer 6, "target creature loses flying"
        "set_colors",
        "set_types",
        "add_types",
        "gain_control",
        "draw",
        "gain_life",
        "lose_life",
        "set_life",  # rule 119.5: {player, n, their}: the life total becomes N (gain or lose the difference)
        "exile",
        "return_to_hand",
        "return_to_battlefield",
        "create_token",
        "regenerate",
        "prevent_damage",
        "redirect_damage",
        "tap",
        "untap",
        "doesnt_untap",  # REF: the next untap step; {on, duration: while_you_control_source}: lasting (611.2b)
        "return_chosen",  # {player, filter}: a permanent that player controls, chosen on resolution, to the hand
        "attack_despite_defender",  # REF: it can attack this turn as though it didn't have defender (702.3b)
        "next_spell_costs_less",  # "{1}": the next spell you cast this turn costs that much less (601.2f)
        "move_counters",
        "exchange_control",
        "counter_spell",
        "counter_unless_pays",  # {what, cost}: "counter target spell unless its controller pays {1}" (118.12a)
        "copy_spell",
        "copy_ability",  # rule 707.10: copy the activated or triggered ability of the event
        "if_spent",
        "may",
        "sacrifice",
        "sacrifice_chosen",  # rule 701.21a: {player, filter, n}: that player chooses what to sacrifice (edicts.py)
        "choose_color",  # rules 608.2d, 105.4: {then, any_number}: choose a colour as it resolves (colorchoice.py)
        "divided_damage",  # rule 601.2d: each target its announced share of the divide amount (divide.py)
        "may_sacrifice",  # rules 608.2c, 701.21a: {then}: "you may sacrifice it. If you do, THEN" (ifyoudo.py)
        "choose_option",  # rule 608.2d: {options, then}: choose one of the words (or basic_land_types) as it resolves
        "add_mana",
        "mill",
        "nothing",
        "put_onto_battlefield",
        "counter_ability",
        "manifest",
        "drain",
        "pay_optional",
        "shuffle_into_library",
        "for_each_target",  # EFFECT: once per target chosen, ``target`` naming that one (601.2c, eachtarget.py)
        "put_on_library",  # REF: on top of the owner's library; several in the owner's order (401.4, ontop.py)
        "clash",  # {then, otherwise}: rule 701.30; clashed_opponent names "that player"
        "repeat_while_clash_won",  # EFFECT ending in a clash, done again while that clash is won (701.30d)
        "discard",
        "champion",  # {filter}: exile another matching permanent you control (linked), or sacrifice this
        "return_linked",  # LINK: return the cards this object's linked ability exiled (under their owners)
        "hideaway",  # {n}: look at the top N, exile one face down (linked), the rest to the bottom
        "look_at_top",  # {n, player, take: [{n, filter, to, up_to, reveal}], rest}: rule 608.2c, 401.4 (looking.py)
        "reveal_until",  # {player, filter, n, found, rest}: reveal until N such cards are revealed (701.20a)
        "shuffle_library",  # REF: those players shuffle their libraries (701.24a, looking.py)
        "play_linked",  # LINK: you may play the card this object's linked ability exiled, without paying
        "exile_top",  # {n, player, link, play: {until}}: exile the top N cards; "you may play them" (playfrom.py)
        "if",  # {condition, then, else}: control FILTER, library_at_most N
        "set_subtypes",  # {subtypes, on}: replaces the subtypes of the same kind only (rule 205.1b)
        "search_library",  # {filter, to}: find a matching card in your library (a scripted search choice)
        "return_card",  # {filter, from, to}: a card of yours chosen on resolution (not targeted)
        "create_token_copy",  # {of, except, tapped, attacking}: a token copying an object's copiable values (707.2)
        "become_copy",  # {what, of, duration, except}: permanents become copies of an object (707.1, layer 1)
        "turn_face_down",  # REF: the permanent becomes a face-down 2/2 (not a double-faced card)
        "transform",  # REF: a double-faced permanent turns over (not while face down)
        "change_text",  # {on, not_to}: replace one creature type word with another (a text_change choice)
        "attach",  # {what, to}: attach an Aura (self) to an object ("made": what this effect manifested)
        "exile_same_name",  # {as, player}: cards named as that object in graveyard, hand, library exiled (701.23)
        "move_auras",  # {from}: its Auras attached to another permanent of that controller (701.3, 303.4d)
        "remove_from_combat",  # REF: rule 506.4, it stops being an attacking, blocking, blocked creature
        "fight",  # {a, b}: rule 701.14, each deals damage equal to its power to the other
        "poison",  # {n, player}: the player gets N poison counters (rule 122.1f)
        "emblem",  # {abilities, player}: the player gets an emblem with those abilities (rule 114.2)
        "reflexive_trigger",  # {targets, effect, name, name_ru}: "when you do, ..." (rule 603.12), in an action's then
        "delayed_trigger",  # {when, filter, about, duration: this_turn, effect}: a delayed trigger (rule 603.7)
        "exile_if_dies",  # REF: "if it would die this turn, exile it instead" (rule 614.1a, one-shot)
        "cant_gain_life",  # {player}: those players can't gain life this turn (rule 119.7)
        "damage_cant_be_prevented",  # damage can't be prevented this turn (rule 615.12)
        "cant_be_targeted",  # {player, by}: their permanents can't be targets of such spells this turn (601.2c)
        "must_block",  # {what, attacker}: "target creature blocks [that creature] this turn if able" (509.1c)
        "must_be_blocked",  # REF: "target creature must be blocked this turn if able" (509.1c)
        "cant_block",  # {what, except}: those creatures can't block this turn (509.1b, combat_effects.py)
        "block_also",  # {what, attacker}: that creature also blocks that attacker (509.3, combat_effects.py)
        "choose_blocks",  # {}: "you choose how those creatures block" this turn (509.1, combat_effects.py)
        "additional_combat_phase",  # {}: "after this phase, there is an additional combat phase" (500.8)
        "grant_abilities",  # {abilities, on, duration}: they gain those abilities (613.1f, layer 6; granted.py)
        "pay_any_life",  # {then}: "pay any amount of life", chosen as it resolves; X in then is that many (119.4)
        "discard_chosen",  # {player, filter}: that player reveals their hand, you choose a card, they discard it
        "pay_life_rounds",  # {then}: each player pays any life, in rounds until no one does; then per player (101.4)
        "reveal_from_hand",  # {player, n, exile_chosen}: N cards of their choice; you exile one of them (701.20a)
        "win_game",  # you: "you win the game"; each opponent loses (104.2b, 104.3h; winning.py)
        "additional_land",  # {n}: you may play N more lands this turn (305.2; landplays.py)
        "may_discard",  # {n, then}: "you may discard a card. If you do, draw a card" (608.2c; maydiscard.py)
        "sacrifice_rest",  # {player, keep, filter}: keeps up to N chosen, sacrifices the rest (701.21a; spare.py)
        "put_from_hand",  # {n, filter}: up to N permanent cards of your hand onto the battlefield, face up (110.4a)
    }
)

TARGET_KINDS = (
    "any",
    "creature_or_player",
    "creature",
    "player",
    "opponent",
    "permanent",
    "planeswalker",
    "creature_or_planeswalker",
    "player_or_planeswalker",
    "card_in_graveyard",
    "creature_card_in_graveyard",
    "spell",
    "ability",
    "artifact",
    "enchantment",
    "land",
)

# The steps of a turn in order (rule 500.1), as scenarios and filters name them.
STEPS = (
    "untap",
    "upkeep",
    "draw",
    "main1",
    "beginning_of_combat",
    "declare_attackers",
    "declare_blockers",
    "first_strike_damage",
    "combat_damage",
    "end_of_combat",
    "main2",
    "end",
    "cleanup",
)
