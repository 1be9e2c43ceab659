"""Continuous effects applied in layers and timestamp order (rule 613).

Layers handled: 2 control, 4 type (characteristic-defining changeling first, in every zone), 5 colour,
6 abilities added / removed, 7b P/T setting, 7c P/T modifying, 7d counters, 7e switching. Effects from
resolved spells and abilities lock the set of objects they affect when they begin (rule 611.2c); effects of
static abilities apply to whatever matches their filter right now.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rules_engine import dash
from rules_engine.objects import FACE_DOWN, AbilityDef, Characteristics, GameObject, Snapshot

if TYPE_CHECKING:
    from rules_engine.game import Game

ALL_CREATURE_TYPES = "*"
# Subtypes that belong to a card type other than Creature (rule 205.3); every other subtype is a creature type
# (used by creatures and tribal cards), or a planeswalker type on a planeswalker that is neither.
SUBTYPES_OF = {
    "Land": frozenset({"Forest", "Island", "Mountain", "Plains", "Swamp", "Desert", "Gate", "Lair", "Locus", "Mine",
                       "Power-Plant", "Tower", "Urza's"}),
    "Artifact": frozenset({"Equipment", "Fortification", "Contraption", "Vehicle", "Clue", "Food", "Treasure"}),
    "Enchantment": frozenset({"Aura", "Shrine", "Curse", "Saga"}),
    "Spell": frozenset({"Arcane", "Trap"}),
}
TYPES_OF_KIND = {
    "Land": {"Land"},
    "Artifact": {"Artifact"},
    "Enchantment": {"Enchantment"},
    "Spell": {"Instant", "Sorcery"},
    "Creature": {"Creature", "Tribal", "Kindred"},
    "Planeswalker": {"Planeswalker"},
}
LAYER_ORDER = ("2", "3", "4", "5", "6", "7b", "7c", "7e")
STATIC_LAYERS = {"pump": "7c", "grant": "6", "lose_abilities": "6", "set_colors": "5", "add_types": "4"}


@dataclass
class ContinuousEffect:
    """One continuous effect: what it does (``kind`` + ``data``), to whom, since when, until when."""

    layer: str
    kind: str
    data: dict[str, Any]
    timestamp: int
    affected: frozenset[int] = frozenset()
    duration: str = "end_of_turn"  # or "permanent"
    source_oid: int | None = None
    controller: str = ""
    filter: dict[str, Any] | None = field(default=None)


def base_characteristics(obj: GameObject) -> Characteristics:
    if obj.face_down and obj.zone in ("battlefield", "stack"):
        chars = Characteristics.of(FACE_DOWN, obj.controller)
    elif obj.transformed and obj.definition.back is not None and obj.zone == "battlefield":
        chars = Characteristics.of(obj.definition.back, obj.controller)
    else:
        chars = Characteristics.of(obj.definition, obj.controller)
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


def has_subtype(chars: Characteristics, subtype: str) -> bool:
    return subtype in chars.subtypes or (ALL_CREATURE_TYPES in chars.subtypes and subtype != "Aura")


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
    if "colors" in filt and not any(c in chars.colors for c in filt["colors"]):
        return False
    if "not_colors" in filt and any(c in chars.colors for c in filt["not_colors"]):
        return False
    if "multicolored" in filt and (len(chars.colors) > 1) != bool(filt["multicolored"]):  # rule 105.4
        return False
    if "controller" in filt:
        wanted = you if filt["controller"] == "you" else game.opponent(you)
        if chars.controller != wanted:
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
    if "token" in filt and obj.card.is_token != bool(filt["token"]):
        return False
    if "tapped" in filt and obj.tapped != bool(filt["tapped"]):
        return False
    if "mana_value_at_most" in filt:
        value = chars.cost.mana_value if chars.cost else 0
        if value > int(filt["mana_value_at_most"]):
            return False
    if "attacking" in filt and (obj.attacking is not None) != bool(filt["attacking"]):
        return False
    if filt.get("attached") and (source is None or source.attached_to != obj.oid):
        return False
    return not ("keyword" in filt and filt["keyword"] not in chars.keywords)


def compute(game: Game) -> dict[int, Characteristics]:
    """Characteristics of every object in every zone."""
    objects = list(game.all_objects())
    result = {o.oid: base_characteristics(o) for o in objects}
    by_id = {o.oid: o for o in objects}
    for o in objects:  # layer 4, characteristic-defining abilities, in all zones (rule 604.3)
        chars = result[o.oid]
        if "changeling" in chars.keywords:
            chars.subtypes.add(ALL_CREATURE_TYPES)
    spell_effects = sorted(game.effects, key=lambda e: e.timestamp)
    statics = list(_static_effects(game, by_id, result))
    early = sorted([e for e in spell_effects + statics if e.layer in ("2", "3", "4", "5", "6")], key=_order)
    granted = False
    for effect in early:
        if not granted and LAYER_ORDER.index(effect.layer) > LAYER_ORDER.index("4"):
            _land_type_abilities(result.values())  # once the land types are final (after layer 4)
            granted = True
        for o in _affected(game, effect, by_id, result):
            _apply(effect, result[o.oid], game)
    if not granted:
        _land_type_abilities(result.values())
    late_statics = [e for e in _static_effects(game, by_id, result) if e.layer.startswith("7")]
    late = sorted([e for e in spell_effects if e.layer.startswith("7")] + late_statics, key=_order)
    for layer in ("7b", "7c"):
        for effect in late:
            if effect.layer == layer:
                for o in _affected(game, effect, by_id, result):
                    _apply(effect, result[o.oid], game)
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


def _static_effects(
    game: Game, by_id: dict[int, GameObject], result: dict[int, Characteristics]
) -> Iterable[ContinuousEffect]:
    for source in game.battlefield:
        chars = result[source.oid]
        for ability in chars.abilities:
            if ability.kind != "static" or ability.spec["static"] not in STATIC_LAYERS:
                continue
            kind = ability.spec["static"]
            yield ContinuousEffect(
                layer=STATIC_LAYERS[kind],
                kind=kind,
                data=dict(ability.spec.get("value") or {}),
                timestamp=source.timestamp,
                duration="static",
                source_oid=source.oid,
                controller=chars.controller,
                filter=dict(ability.spec.get("affects") or {"self": True}),
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
    zone = effect.filter.get("zone")
    pool = game.battlefield if zone is None else [o for o in by_id.values() if o.zone == zone]
    return [o for o in pool if matches(game, o, result[o.oid], effect.filter, effect.controller, source)]


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
    elif kind == "grant_ability":
        chars.abilities.append(data["ability"])
    elif kind == "add_types":
        chars.types |= set(data.get("types", []))
        chars.subtypes |= set(data.get("subtypes", []))
    elif kind == "set_colors":
        chars.colors = {c.upper() for c in data["colors"]}
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
    elif kind == "set_pt":  # also gives P/T to a permanent that had none (an animated artifact)
        chars.power, chars.toughness = int(data["power"]), int(data["toughness"])
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


def end_of_turn_cleanup(game: Game) -> None:
    """Rule 514.2: "until end of turn" effects end in the cleanup step."""
    game.effects = [e for e in game.effects if e.duration != "end_of_turn"]
    game.delayed = [d for d in game.delayed if d.get("duration") != "end_of_turn"]
    game.touch()
