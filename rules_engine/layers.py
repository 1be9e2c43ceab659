"""Continuous effects applied in layers and timestamp order (rule 613).

Layers handled: 1 copiable values (copy effects, then the face-down status; the copy effects themselves are
``copies``), 2 control, 3 text,
4 type (characteristic-defining changeling first, in every zone), 5 colour, 6 abilities added / removed, 7a
characteristic-defining P/T (every zone), 7b P/T setting, 7c P/T modifying, 7d counters, 7e switching. Inside a
layer, dependency (613.8) and then timestamps (613.7) order the effects. Effects from resolved spells and
abilities lock the set of objects they affect when they begin (rule 611.2c); effects of static abilities apply to
whatever matches their filter right now, while their source has the ability."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rules_engine import aslong, choices, dash, equipment, greatest
from rules_engine.errors import ScriptError
from rules_engine.objects import (
    FACE_DOWN,
    AbilityDef,
    CardDef,
    Characteristics,
    ContinuousEffect,
    GameObject,
    Snapshot,
)

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game

ALL_CREATURE_TYPES = "*"
# Subtypes that belong to a card type other than Creature (rule 205.3g-k, q: the CR's own lists); every other subtype
# is a creature type (205.3m: used by creatures and kindred cards), or a planeswalker type on a planeswalker.
SUBTYPES_OF = {
    "Land": frozenset({"Cave", "Desert", "Forest", "Gate", "Island", "Lair", "Locus", "Mine", "Mountain", "Plains",
                       "Planet", "Power-Plant", "Sphere", "Swamp", "Tower", "Town", "Urza's"}),
    "Artifact": frozenset({"Attraction", "Blood", "Bobblehead", "Clue", "Contraption", "Equipment", "Food",
                           "Fortification", "Gold", "Incubator", "Infinity", "Junk", "Lander", "Map", "Powerstone",
                           "Spacecraft", "Stone", "Treasure", "Vehicle"}),
    "Enchantment": frozenset({"Aura", "Background", "Cartouche", "Case", "Class", "Curse", "Role", "Room", "Rune",
                              "Saga", "Shard", "Shrine"}),
    "Spell": frozenset({"Adventure", "Arcane", "Lesson", "Omen", "Trap"}),
    "Planeswalker": frozenset({
        "Ajani", "Aminatou", "Angrath", "Arlinn", "Ashiok", "Bahamut", "Basri", "Bolas", "Calix", "Chandra", "Comet",
        "Dack", "Dakkon", "Daretti", "Davriel", "Dihada", "Domri", "Dovin", "Ellywick", "Elminster", "Elspeth",
        "Estrid", "Freyalise", "Garruk", "Gideon", "Grist", "Guff", "Huatli", "Jace", "Jared", "Jaya", "Jeska",
        "Kaito", "Karn", "Kasmina", "Kaya", "Kiora", "Koth", "Liliana", "Lolth", "Lukka", "Minsc", "Mordenkainen",
        "Nahiri", "Narset", "Niko", "Nissa", "Nixilis", "Oko", "Quintorius", "Ral", "Rowan", "Saheeli", "Samut",
        "Sarkhan", "Serra", "Sivitri", "Sorin", "Szat", "Tamiyo", "Tasha", "Teferi", "Teyo", "Tezzeret", "Tibalt",
        "Tyvar", "Ugin", "Urza", "Venser", "Vivien", "Vraska", "Vronos", "Will", "Windgrace", "Wrenn", "Xenagos",
        "Yanggu", "Yanling", "Zariel"}),
    "Battle": frozenset({"Siege"}),
}
TYPES_OF_KIND = {
    "Land": {"Land"},
    "Artifact": {"Artifact"},
    "Enchantment": {"Enchantment"},
    "Spell": {"Instant", "Sorcery"},
    "Creature": {"Creature", "Tribal", "Kindred"},
    "Planeswalker": {"Planeswalker"},
    "Battle": {"Battle"},
}
LAYER_ORDER = ("1", "2", "3", "4", "5", "6", "7a", "7b", "7c", "7e")
STATIC_LAYERS = {
    "pump": "7c",
    "set_pt": "7b",  # "has base power and toughness N/N" (613.4b)
    "grant": "6",
    "grant_abilities": "6",  # "equipped creature has '...'": whole abilities, parsed with the card (613.1f)
    "lose_abilities": "6",
    "lose_keywords": "6",  # "enchanted creature loses flying"
    "set_colors": "5",
    "add_colors": "5",  # "are the chosen color in addition to their other colors"
    "add_types": "4",
    "set_subtypes": "4",  # "nonbasic lands are Mountains", "enchanted creature is a Treefolk" (205.1b, 305.7)
}


CDA_PT = "defines_pt"  # the static ability kind of a characteristic-defining P/T (604.3, layer 7a)


def printed_values(obj: GameObject | Snapshot) -> CardDef:
    """The face that is up (707.8): a transformed double-faced permanent copies its back face."""
    definition = obj.definition if isinstance(obj, GameObject) else obj.card.definition  # a half cast (709.3b)
    if getattr(obj, "transformed", False) and definition.back is not None and obj.zone == "battlefield":
        return definition.back
    return definition


def copy_index(game: Game) -> dict[int, CardDef]:
    """Each object's latest layer-1a copy values (the later copy effect wins whole, 613.2a), for a whole pass."""
    index: dict[int, CardDef] = {}
    for effect in sorted((e for e in game.effects if e.layer == "1"), key=lambda e: e.timestamp):
        for oid in effect.affected:
            index[oid] = effect.data["values"]
    return index


def copiable_values(
    game: Game, obj: GameObject | Snapshot, *, face_down: bool = True, index: dict[int, CardDef] | None = None
) -> CardDef:
    """Layer 1: the printed values, then each copy effect in timestamp order (1a), then the face-down status
    (1b, 708.2). ``face_down=False`` gives the values a face-down permanent will have once turned face up
    (707.3, 708.10: a face-down permanent that became a copy turns up as the copy, with the copy's morph)."""
    if isinstance(obj, Snapshot) and obj.values is not None:
        return obj.values  # last known copiable values (608.2h)
    if face_down and obj.face_down and obj.zone in ("battlefield", "stack"):
        return FACE_DOWN
    if isinstance(obj, GameObject):
        if index is None:
            index = copy_index(game) if game.effects else {}
        if obj.oid in index:
            return index[obj.oid]
    return printed_values(obj)


def base_characteristics(
    obj: GameObject, game: Game | None = None, index: dict[int, Any] | None = None
) -> Characteristics:
    """Layer 1 (613.2): the object's copiable values — printed, as modified by copy effects and its face-down
    status (rule 707.2, 708.2)."""
    if game is None:
        values = FACE_DOWN if obj.face_down and obj.zone in ("battlefield", "stack") else printed_values(obj)
    else:
        values = copiable_values(game, obj, index=index)
    chars = Characteristics.of(values, obj.controller)
    if any("anchor" in a.spec for a in chars.abilities):  # rule 614.12c: the chosen word only
        chars.abilities = [a for a in chars.abilities if a.spec.get("anchor") in (None, obj.chosen)]
    front = obj.definition
    if values is front.back and obj.transformed and front.cost is not None:  # 202.3b (not for a copy of it)
        chars.front_mana_value = front.cost.mana_value
    if obj.x:  # rule 202.3e: X is the chosen number while the object is a spell (only a spell has an X chosen)
        chars.x_value = obj.x
    return chars


def subtype_kind(subtype: str, types: Iterable[str]) -> str:
    """Which card type a subtype goes with (rule 205.3d): Land, Artifact, Enchantment, Spell, Creature or
    Planeswalker."""
    for kind, names in SUBTYPES_OF.items():
        if subtype in names:
            return kind
    types = set(types)
    if "Planeswalker" in types and not types & TYPES_OF_KIND["Creature"]:
        return "Planeswalker"
    return "Creature"


def is_creature_type(subtype: str) -> bool:
    """Rule 205.3m: a creature type is any subtype that is not an artifact, enchantment, land, spell, planeswalker or
    battle type (205.3g-k, q)."""
    return not any(subtype in names for names in SUBTYPES_OF.values())


def has_subtype(chars: Characteristics, subtype: str) -> bool:
    """Changeling's marker is every creature type (702.73a) and no other subtype: not Aura, not Arcane (205.3k)."""
    return subtype in chars.subtypes or (ALL_CREATURE_TYPES in chars.subtypes and is_creature_type(subtype))


def _filter_number(game: Game, value: Any, you: str, source: GameObject | Snapshot | None) -> int:
    """A filter's bound: a number; ``X``, the X chosen for the spell that is the source (601.2b: announced before
    its targets; checked again on resolution, 608.2b); or ``{count: FILTER}`` — "mana value X or less, where X is
    the number of Faeries you control", counted whenever the filter is checked."""
    if value == "X":
        return source.x if isinstance(source, GameObject) else 0
    if isinstance(value, dict) and "count" not in value:
        raise ScriptError(f"граница фильтра {value!r} вычисляется только в эффекте {{all: ФИЛЬТР}} при разрешении")
    if isinstance(value, dict):
        return sum(1 for o in game.battlefield if matches(game, o, game.chars(o), value["count"], you, source))
    return int(value)


def matches(
    game: Game,
    obj: GameObject,
    chars: Characteristics,
    filt: dict[str, Any] | None,
    you: str,
    source: GameObject | Snapshot | None = None,
) -> bool:
    """Whether an object satisfies a filter from a card definition (``affects:``, target ``filter:``)."""
    if not filt:
        return True
    if choices.uses_chosen(filt):  # "the chosen colour": the choice its source made as it entered (614.12)
        filt = choices.bind(filt, choices.of_object(source))
        if filt is None:  # no choice was made: nothing has the undefined quality
            return False
    if "name" in filt and chars.name != filt["name"]:
        return False
    if "supertypes" in filt and not any(t in chars.supertypes for t in filt["supertypes"]):
        return False
    if "not_supertypes" in filt and any(t in chars.supertypes for t in filt["not_supertypes"]):
        return False  # "nonlegendary" (rule 205.4a: legendary is a supertype, not a card type)
    if "types" in filt and not any(t in chars.types for t in filt["types"]):
        return False
    if "not_types" in filt and any(t in chars.types for t in filt["not_types"]):
        return False
    if "subtypes" in filt and not any(has_subtype(chars, s) for s in filt["subtypes"]):
        return False
    if "not_subtypes" in filt and any(has_subtype(chars, s) for s in filt["not_subtypes"]):
        return False  # "except by Rogues": a blocker that isn't a Rogue
    if "colors" in filt and not any(c in chars.colors for c in filt["colors"]):
        return False
    if "not_colors" in filt and any(c in chars.colors for c in filt["not_colors"]):
        return False
    if "multicolored" in filt and (len(chars.colors) > 1) != bool(filt["multicolored"]):  # rule 105.4
        return False
    if "monocolored" in filt and (len(chars.colors) == 1) != bool(filt["monocolored"]):  # rule 105.2a: one colour
        return False
    if "controller" in filt:
        from rules_engine.teams import is_opponent

        mine = chars.controller == you
        if filt["controller"] == "defending_player":  # rules 506.2, 508.5: "a creature defending player controls"
            from rules_engine.defending import defending_player

            if chars.controller != defending_player(game, source.oid if source is not None else None):
                return False
        elif not (mine if filt["controller"] == "you" else is_opponent(game, you, chars.controller)):
            return False
    # this turn's damage (rule 120), by or to this very object (400.7): "target creature that dealt damage this turn"
    if "dealt_damage_this_turn" in filt and any(
        r.source.oid == obj.oid for r in game.history.damage
    ) != bool(filt["dealt_damage_this_turn"]):
        return False
    if "was_dealt_damage_this_turn" in filt and any(
        r.to_oid == obj.oid for r in game.history.damage
    ) != bool(filt["was_dealt_damage_this_turn"]):
        return False
    if filt.get("other") and source is not None and obj.oid == source.oid:
        return False
    if "self" in filt and source is not None and (obj.oid == source.oid) != bool(filt["self"]):
        return False
    if "has_counters" in filt:
        wanted_kind = filt["has_counters"]
        has = any(n > 0 for k, n in obj.counters.items() if wanted_kind is True or k == wanted_kind)
        if not has:
            return False
    if "owner" in filt and (obj.owner == you) != (filt["owner"] == "you"):  # "all permanents you own"
        return False
    if "token" in filt and obj.card.is_token != bool(filt["token"]):
        return False
    if "face_down" in filt and obj.face_down != bool(filt["face_down"]):
        return False  # rule 708.2: "face-up nontoken creatures"
    if "tapped" in filt and obj.tapped != bool(filt["tapped"]):
        return False
    if "mana_value_at_most" in filt:
        value = chars.mana_value
        if value > _filter_number(game, filt["mana_value_at_most"], you, source):
            return False
    if "mana_value_at_least" in filt and chars.mana_value < int(filt["mana_value_at_least"]):
        return False
    if "mana_value" in filt and chars.mana_value != _filter_number(game, filt["mana_value"], you, source):
        return False  # "each creature card with mana value X" (an {X} of that card counts 0 off the stack, 202.3e)
    if "mana_value_parity" in filt and ("even" if chars.mana_value % 2 == 0 else "odd") != filt["mana_value_parity"]:
        return False  # "with mana value of the chosen quality": odd or even (zero is even)
    if "not_mana_value_parity" in filt and ("even" if chars.mana_value % 2 == 0 else "odd") == filt[
        "not_mana_value_parity"
    ]:
        return False
    if "power_at_least" in filt and (chars.power is None or chars.power < int(filt["power_at_least"])):
        return False
    if "power_at_most" in filt and (
        chars.power is None or chars.power > _filter_number(game, filt["power_at_most"], you, source)
    ):
        return False  # "a creature with power 3 or less" / "X or less" (its power now, layers applied)
    if "toughness_less_than" in filt and (
        chars.toughness is None or chars.toughness >= _filter_number(game, filt["toughness_less_than"], you, source)
    ):
        return False  # "creatures with toughness less than N" (toughness now, layers applied)
    compared = "power_below_source" in filt or "power_above_source" in filt
    if compared and not _power_vs_source(game, chars, filt, source):
        return False  # "creatures with power less / greater than this creature's power" (both powers now)
    if "blocked_by_source" in filt and (  # "for each creature it's blocking" (rule 509.1g: the blocked ones)
        isinstance(source, GameObject) and obj.oid in source.blocking
    ) != bool(filt["blocked_by_source"]):
        return False
    if "attacking" in filt and (obj.attacking is not None) != bool(filt["attacking"]):
        return False
    if "unblocked" in filt and _unblocked(game, obj) != bool(filt["unblocked"]):
        return False
    # rule 506.4: "target attacking or blocking creature" — declared or put onto the battlefield so this combat
    if "attacking_or_blocking" in filt and (obj.attacking is not None or bool(obj.blocking)) != bool(
        filt["attacking_or_blocking"]
    ):
        return False
    if filt.get("attached") and (source is None or source.attached_to != obj.oid):
        return False
    if "not_keyword" in filt and filt["not_keyword"] in chars.keywords:
        return False
    if "keyword" in filt and filt["keyword"] not in chars.keywords:
        return False
    if filt.get("greatest_mana_value"):  # CR 202.3: "the creature with the highest mana value" (outside layers)
        rest = {k: v for k, v in filt.items() if k != "greatest_mana_value"}
        pool = [o for o in game.battlefield if matches(game, o, game.chars(o), rest, you, source)]
        return obj in greatest.keep_greatest_mana_value(pool, None, game)
    # "the creature with the greatest toughness or tied" among all creatures (CR 208.1)
    return not filt.get("greatest_toughness") or (chars.toughness or 0) >= greatest.top_toughness(game)


_AFTER_BLOCKERS = frozenset({"declare_blockers", "first_strike_damage", "combat_damage", "end_of_combat"})


def _unblocked(game: Game, obj: GameObject) -> bool:
    """Rule 509.1h: an attacking creature no creature blocked is unblocked from the declare blockers step on,
    until it is removed from combat or the combat phase ends (before that it is neither blocked nor unblocked)."""
    return obj.attacking is not None and not obj.blocked and game.step in _AFTER_BLOCKERS


def _power_vs_source(
    game: Game, chars: Characteristics, filt: dict[str, Any], source: GameObject | Snapshot | None
) -> bool:
    """``power_below_source`` / ``power_above_source``: this object's power against its source's (the creature
    whose ability it is), both read now (Den Protector, Silumgar Assassin: checked as blockers are declared)."""
    if source is None or chars.power is None:
        return False
    theirs = game.chars(source).power if isinstance(source, GameObject) else source.chars.power
    if theirs is None:
        return False
    if filt.get("power_below_source") and not chars.power < theirs:
        return False
    return not (filt.get("power_above_source") and not chars.power > theirs)


def compute(game: Game) -> dict[int, Characteristics]:
    """Characteristics of every object in every zone; an effect "for as long as you control" its source that has
    lapsed is ended first and everything computed again without it (rule 611.2b, ``aslong``)."""
    while True:
        result = _compute(game)
        if not aslong.end_lapsed(game, result):
            return result


def _compute(game: Game) -> dict[int, Characteristics]:
    objects = list(game.all_objects())
    index = copy_index(game)
    result = {o.oid: base_characteristics(o, game, index) for o in objects}  # layer 1: copiable values
    by_id = {o.oid: o for o in objects}
    for o in objects:  # layer 4, characteristic-defining abilities, in all zones (rule 604.3)
        chars = result[o.oid]
        if "changeling" in chars.keywords:
            chars.subtypes.add(ALL_CREATURE_TYPES)
    spell_effects = sorted((e for e in game.effects if e.layer != "1" and _lasts(e, by_id)), key=lambda e: e.timestamp)
    control = sorted([e for e in spell_effects if e.layer == "2"] + list(_control_statics(game, result)),
                     key=lambda e: e.timestamp)  # layer 2 in timestamp order, static "you control" too (613.7)
    for effect in control:
        if effect.ability is not None and effect.source_oid is not None:  # a static's controller as layer 2 has
            if not _exists(effect, result):  # made it so far (a stolen Aura)
                continue
            effect = replace(effect, data={"controller": result[effect.source_oid].controller})
        for o in _affected(game, effect, by_id, result):
            _apply(effect, result[o.oid], game)
    for effect in spell_effects:  # layer 3: no static ability of the vocabulary changes text
        if effect.layer == "3":
            for o in _affected(game, effect, by_id, result):
                _apply(effect, result[o.oid], game)
    # Static abilities as their text reads after layer 3; an effect of one applies only while its source still
    # has the ability when its layer comes (its existence, 613.8a), so the order inside a layer matters (613.8).
    statics = list(_static_effects(game, by_id, result))
    for layer in ("4", "5", "6"):
        if layer == "5":
            _land_type_abilities(result.values())  # once the land types are final (after layer 4)
        pending = [e for e in spell_effects + statics if e.layer == layer]
        _apply_layer(game, sorted(pending, key=_order), by_id, result)
    equipment.add_equip_abilities(result.values())  # rule 702.6a, once the keywords are final (after layer 6)
    late_statics = [e for e in _static_effects(game, by_id, result) if e.layer.startswith("7")]
    late = sorted([e for e in spell_effects if e.layer.startswith("7")] + late_statics, key=_order)
    _defined_pt(game, objects, result)  # 7a: characteristic-defining P/T, in every zone (604.3, 613.4a)
    for layer in ("7b", "7c"):
        for effect in late:
            if effect.layer == layer:
                counted = _counted(game, effect, by_id, result)
                for o in _affected(game, effect, by_id, result):
                    _apply(counted, result[o.oid], game)
    for o in objects:  # 7d: counters
        chars = result[o.oid]
        if chars.power is not None and chars.toughness is not None and o.zone == "battlefield":
            delta = o.counters.get("+1/+1", 0) - o.counters.get("-1/-1", 0)
            chars.power += delta
            chars.toughness += delta
    for effect in late:
        if effect.layer == "7e":
            for o in _affected(game, effect, by_id, result):
                _apply(effect, result[o.oid], game)
    return result


def _apply_layer(
    game: Game, pending: list[ContinuousEffect], by_id: dict[int, GameObject], result: dict[int, Characteristics]
) -> None:
    """Rule 613.8: inside a layer, an effect that depends on another waits until that one has applied; otherwise,
    and inside a dependency loop, timestamp order (613.7). The order is re-evaluated after each effect (613.8c)."""
    while pending:
        effect = pending[0]
        if len(pending) > 1 and any(e.ability is not None for e in pending):
            trials = {id(other): _trial(game, other, by_id, result) for other in pending}
            for candidate in pending:
                if not any(
                    other is not candidate and _depends(game, candidate, trials[id(other)], by_id, result)
                    for other in pending
                ):
                    effect = candidate
                    break
        pending = [e for e in pending if e is not effect]
        _apply_one(game, effect, by_id, result)


def _exists(effect: ContinuousEffect, result: dict[int, Characteristics]) -> bool:
    """An effect of a static ability exists while its source has that ability (613.8a: "the existence")."""
    if effect.ability is None:
        return True
    chars = result.get(effect.source_oid) if effect.source_oid is not None else None
    return chars is not None and effect.ability in chars.abilities


def _apply_one(
    game: Game, effect: ContinuousEffect, by_id: dict[int, GameObject], result: dict[int, Characteristics]
) -> None:
    if not _exists(effect, result):
        return
    for o in _affected(game, effect, by_id, result):
        _apply(effect, result[o.oid], game)


def _trial(
    game: Game, effect: ContinuousEffect, by_id: dict[int, GameObject], result: dict[int, Characteristics]
) -> dict[int, Characteristics]:
    """The characteristics as they would be if ``effect`` applied now (to see what depends on it)."""
    trial = {oid: chars.copy() for oid, chars in result.items()}
    _apply_one(game, effect, by_id, trial)
    return trial


def _depends(
    game: Game,
    effect: ContinuousEffect,
    trial: dict[int, Characteristics],
    by_id: dict[int, GameObject],
    result: dict[int, Characteristics],
) -> bool:
    """613.8a (b): applying the other effect would change this one's existence or what it applies to. An effect
    of a resolved spell or ability has a locked set of objects (611.2c) and no source ability: it depends on
    nothing."""
    if effect.ability is None:
        return False
    if _exists(effect, result) != _exists(effect, trial):
        return True
    before = {o.oid for o in _affected(game, effect, by_id, result)}
    return before != {o.oid for o in _affected(game, effect, by_id, trial)}


def _defined_pt(game: Game, objects: list[GameObject], result: dict[int, Characteristics]) -> None:
    """Layer 7a: "this creature's power and toughness are each equal to the number of ..." (604.3, 613.4a) —
    counted now, so the creature changes as the count changes; it functions in every zone."""
    by_id: dict[int, GameObject] | None = None
    for o in objects:
        chars = result[o.oid]
        for ability in chars.abilities:
            if ability.kind != "static" or ability.spec.get("static") != CDA_PT:
                continue
            if by_id is None:
                by_id = {x.oid: x for x in objects}
            value = ability.spec.get("value") or {}
            for stat in ("power", "toughness"):
                if stat in value:
                    setattr(chars, stat, _static_amount(game, value[stat], o, chars, by_id, result))


def _counted(
    game: Game, effect: ContinuousEffect, by_id: dict[int, GameObject], result: dict[int, Characteristics]
) -> ContinuousEffect:
    """Rule 611.3a: "gets +1/+1 for each Plains you control" is counted anew whenever the layer is applied."""
    source = by_id.get(effect.source_oid) if effect.source_oid is not None else None
    if source is None or not any(isinstance(effect.data.get(k), dict) for k in ("power", "toughness")):
        return effect
    data = dict(effect.data)
    for stat in ("power", "toughness"):
        if isinstance(data.get(stat), dict):
            data[stat] = _static_amount(game, data[stat], source, result[source.oid], by_id, result)
    return replace(effect, data=data)


def _static_amount(
    game: Game,
    expr: Any,
    source: GameObject,
    chars: Characteristics,
    by_id: dict[int, GameObject],
    result: dict[int, Characteristics],
) -> int:
    """A number, or ``{count: FILTER}`` — objects matching it now (on the battlefield, or in ``zone``), or
    ``{sum: [AMOUNT, ...]}`` ("the number of Forests you control plus the number of Treefolk you control": each
    counted on its own, so a Forest Treefolk counts twice)."""
    if isinstance(expr, int):
        return expr
    if "sum" in expr:
        return sum(_static_amount(game, part, source, chars, by_id, result) for part in expr["sum"])
    if "mana_value_of_linked" in expr:  # "equal to the exiled card's mana value": 0 once it has left exile (607.2a)
        oids = game.linked.get((source.oid, str(expr["mana_value_of_linked"])), [])
        cards = [by_id[i] for i in oids if i in by_id and by_id[i].zone == "exile"]
        return result[cards[0].oid].mana_value if cards else 0
    filt = dict(expr["count"])
    zone = filt.get("zone")
    pool = game.battlefield if zone is None else [o for o in by_id.values() if o.zone == zone]
    return sum(1 for o in pool if matches(game, o, result[o.oid], filt, chars.controller, source))


# Rule 305.6: a land with a basic land type has "{T}: Add [mana]" for it, whatever its rules text says.
BASIC_LAND_MANA = {
    "Plains": ("white", "W", "белая мана"),
    "Island": ("blue", "U", "синяя мана"),
    "Swamp": ("black", "B", "черная мана"),
    "Mountain": ("red", "R", "красная мана"),
    "Forest": ("green", "G", "зеленая мана"),
}
_LAND_TYPE_ABILITIES = {
    subtype: AbilityDef("activated", name, {"activated": "{T}", "mana": mana, "name": name, "name_ru": name_ru})
    for subtype, (name, mana, name_ru) in BASIC_LAND_MANA.items()
}


def land_type_abilities(types: Iterable[str], subtypes: Iterable[str]) -> list[AbilityDef]:
    """The intrinsic mana abilities of a land's basic land types (rule 305.6), in the order of the rule."""
    if "Land" not in set(types):
        return []
    have = set(subtypes)
    return [ability for subtype, ability in _LAND_TYPE_ABILITIES.items() if subtype in have]


def _land_type_abilities(all_chars: Iterable[Characteristics]) -> None:
    """Each land gets the abilities of the basic land types it has now: a land that becomes a Forest taps for
    {G}; one that stops being an Island no longer taps for {U}."""
    for chars in all_chars:
        for ability in land_type_abilities(chars.types, chars.subtypes):
            if ability not in chars.abilities:
                chars.abilities.append(ability)


def _order(effect: ContinuousEffect) -> tuple[int, int]:
    return (LAYER_ORDER.index(effect.layer), effect.timestamp)


def _control_statics(game: Game, result: dict[int, Characteristics]) -> Iterable[ContinuousEffect]:
    """Static abilities "you control enchanted creature" (DTK Illusory Gains; rules 613.1b, 303.4): layer 2, with
    the source's timestamp — an Aura attached anew has a new one (701.3c), so the last attachment wins."""
    for source in game.ability_sources():
        for ability in result[source.oid].abilities:
            if ability.kind == "static" and ability.spec["static"] == "control":
                yield ContinuousEffect(
                    layer="2", kind="control", data={}, timestamp=source.timestamp, duration="static",
                    source_oid=source.oid, controller=result[source.oid].controller,
                    filter=dict(ability.spec.get("affects") or {"attached": True}), ability=ability,
                )


def _static_effects(
    game: Game, by_id: dict[int, GameObject], result: dict[int, Characteristics]
) -> Iterable[ContinuousEffect]:
    for source in game.ability_sources():  # permanents and emblems (rule 114.4)
        chars = result[source.oid]
        for ability in chars.abilities:
            if ability.kind != "static" or ability.spec["static"] not in STATIC_LAYERS:
                continue
            kind = ability.spec["static"]
            data = choices.bind(dict(ability.spec.get("value") or {}), choices.of_object(source))
            if data is None:  # "the chosen colour" of a permanent that made no choice (614.12): nothing to apply
                continue
            if kind == "grant_abilities":
                data = {"granted": ability.spec["granted"]}
            yield ContinuousEffect(
                layer=STATIC_LAYERS[kind],
                kind=kind,
                data=data,
                timestamp=source.timestamp,
                duration="static",
                source_oid=source.oid,
                controller=chars.controller,
                filter=dict(ability.spec.get("affects") or {"self": True}),
                ability=ability,
            )
        dash_haste = dash.haste(source, chars)  # rule 702.109a
        if dash_haste is not None:
            yield dash_haste


def _affected(
    game: Game, effect: ContinuousEffect, by_id: dict[int, GameObject], result: dict[int, Characteristics]
) -> list[GameObject]:
    if effect.filter is None:
        if "while_in_exile" in effect.data:  # e.g. a cipher card grants its ability while it stays encoded
            card = by_id.get(effect.data["while_in_exile"])
            if card is None or card.zone != "exile":
                return []
        return [by_id[oid] for oid in effect.affected if oid in by_id and by_id[oid].zone == "battlefield"]
    source = by_id.get(effect.source_oid) if effect.source_oid is not None else None
    if not _condition_holds(game, effect, source, result):
        return []
    zone = effect.filter.get("zone")
    if zone == "any":  # "all cards that aren't on the battlefield, spells, and permanents": every object
        pool = list(by_id.values())
    else:
        pool = game.battlefield if zone is None else [o for o in by_id.values() if o.zone == zone]
    filt = effect.filter
    if filt.get("greatest_mana_value"):  # "each creature with the highest mana value": among the matching ones,
        rest = {k: v for k, v in filt.items() if k != "greatest_mana_value"}  # as the layers have them so far
        found = [o for o in pool if matches(game, o, result[o.oid], rest, effect.controller, source)]
        return greatest.keep_greatest_mana_value(found, result, game)  # checked continuously (611.3a)
    return [o for o in pool if matches(game, o, result[o.oid], filt, effect.controller, source)]


def _condition_holds(
    game: Game, effect: ContinuousEffect, source: GameObject | None, result: dict[int, Characteristics]
) -> bool:
    """ "Has persist as long as you control a black creature": a static ability's effect is not locked in, it
    applies at each moment to what its text says then (rule 611.3a), read with the characteristics as the
    earlier layers left them."""
    condition = effect.ability.spec.get("condition") if effect.ability is not None else None
    if not condition:
        return True
    if "library_at_most" in condition:  # whichever library it is; several such libraries give it once
        return any(len(p.library) <= int(condition["library_at_most"]) for p in game.players.values())
    wanted = condition["control"]
    return any(
        result[o.oid].controller == effect.controller
        and matches(game, o, result[o.oid], wanted, effect.controller, source)
        for o in game.battlefield
    )


def _apply(effect: ContinuousEffect, chars: Characteristics, game: Game) -> None:
    data = effect.data
    kind = effect.kind
    if kind == "control":
        chars.controller = data["controller"]
    elif kind == "change_text":  # layer 3: every instance of one creature type word becomes another
        before, after = str(data["from"]), str(data["to"])
        chars.subtypes = {after if s == before else s for s in chars.subtypes}
        chars.keywords = {k: _replace_word(v, before, after) for k, v in chars.keywords.items()}
        chars.abilities = [
            AbilityDef(a.kind, a.name, _replace_word(a.spec, before, after), a.keyword) for a in chars.abilities
        ]
    elif kind == "set_types":
        old = set(chars.types)
        chars.types = set(data["types"])
        if "subtypes" in data:
            chars.subtypes = set(data["subtypes"])
        else:  # subtypes of a type it no longer has go too, unless a remaining type uses them (LRW tribal 6)
            chars.subtypes = {
                s for s in chars.subtypes if TYPES_OF_KIND[subtype_kind(s, old)] & chars.types
            }
    elif kind == "set_subtypes":  # new subtypes replace only the existing ones of the same kind (LRW tribal 5)
        kinds = {subtype_kind(s, chars.types) for s in data["subtypes"]}
        chars.subtypes = {s for s in chars.subtypes if subtype_kind(s, chars.types) not in kinds}
        chars.subtypes |= set(data["subtypes"])
        if "Land" in chars.types and set(data["subtypes"]) & set(BASIC_LAND_MANA):
            chars.abilities, chars.keywords = [], {}  # 305.7: it loses the abilities of its rules text
    elif kind == "grant_ability":
        chars.abilities.append(data["ability"])
    elif kind == "grant_abilities":  # a static ability's (613.1f): each affected object has them while it applies
        chars.abilities.extend(data["granted"])
    elif kind == "add_types":
        chars.types |= set(data.get("types", []))
        chars.subtypes |= set(data.get("subtypes", []))
    elif kind == "set_colors":
        chars.colors = {c.upper() for c in data["colors"]}
    elif kind == "add_colors":  # layer 5: added, not overwriting (a later set_colors overwrites it, 613.7)
        chars.colors |= {c.upper() for c in data["colors"]}
    elif kind == "grant":
        for keyword in data.get("keywords", []):
            if isinstance(keyword, dict):  # a keyword with its parameter: {landwalk: Forest}, {protection: ...}
                for name, param in keyword.items():
                    if name == "protection":  # one more instance (rule 702.16g); never mutate a shared list
                        chars.keywords[name] = [*chars.keywords.get(name, []), param]
                    else:
                        chars.keywords[name] = param
                continue
            chars.keywords[keyword] = chars.keywords.get(keyword, 0) + 1
    elif kind == "lose_abilities":
        chars.keywords = {}
        chars.abilities = []
    elif kind == "lose_keywords":  # "loses flying"
        for keyword in data["keywords"]:
            chars.keywords.pop(keyword, None)
    elif kind == "set_pt":  # also gives P/T to a permanent that had none (an animated artifact)
        if "power" in data:
            chars.power = int(data["power"])
        if "toughness" in data:  # "has base power 8" sets the power alone
            chars.toughness = int(data["toughness"])
    elif kind == "pump":
        if chars.power is not None and chars.toughness is not None:
            chars.power += int(data.get("power", 0))
            chars.toughness += int(data.get("toughness", 0))
    elif kind == "switch_pt" and chars.power is not None:
        chars.power, chars.toughness = chars.toughness, chars.power


def _replace_word(value: Any, before: str, after: str) -> Any:
    if isinstance(value, str):
        return after if value == before else value
    if isinstance(value, list):
        return [_replace_word(v, before, after) for v in value]
    if isinstance(value, dict):
        return {k: _replace_word(v, before, after) for k, v in value.items()}
    return value


def _lasts(effect: ContinuousEffect, by_id: dict[int, GameObject]) -> bool:
    """Rule 611.2b: an effect "for as long as [its source] remains on the battlefield" ends once that object leaves
    (a card back on the battlefield is a new object, 400.7: the effect doesn't come back), whoever controls it."""
    if effect.duration != "while_source_on_battlefield":
        return True
    source = by_id.get(effect.source_oid) if effect.source_oid is not None else None
    return source is not None and source.zone == "battlefield"


def end_until_next_turn(game: Game) -> None:
    """ "Until your next turn" effects end as that player's next turn begins, before its untap step (rule 611.2a: as
    long as the effect states; LRW Shapesharer: "doesn't wear off until just before your next untap step")."""
    kept = [e for e in game.effects if not (e.duration == "until_your_next_turn" and e.controller == game.active)]
    if len(kept) != len(game.effects):
        game.effects = kept
        game.touch()


def end_of_turn_cleanup(game: Game) -> None:
    """Rule 514.2: "until end of turn" effects end in the cleanup step."""
    game.effects = [e for e in game.effects if e.duration != "end_of_turn"]
    game.delayed = [d for d in game.delayed if d.get("duration") != "end_of_turn"]
    game.touch()
