"""Card definitions: YAML data in the engine's vocabulary, loaded and validated with ``file:line``.

A definition file maps English card names to definitions::

    Murderous Redcap:
      name_ru: Кровожадный Красный Колпак
      cost: "{2}{B/R}{B/R}"
      type: Creature — Goblin Assassin
      pt: 2/2
      keywords: [persist]
      abilities:
        - triggered: enters
          targets: [any]
          effect: {damage: {amount: {power_of: self}, to: target}}

See ``docs/scenarios.md`` for the vocabulary (keywords, trigger events, static abilities, effects).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rules_engine.errors import CardDefinitionError, EngineError
from rules_engine.mana import parse_cost
from rules_engine.objects import AbilityDef, CardDef
from rules_engine.vocabulary import (
    EFFECT_NAMES,
    KEYWORDS,
    PARAM_KEYWORDS,
    STATIC_KINDS,
    TARGET_KINDS,
    TRIGGER_EVENTS,
)
from rules_engine.yamlload import LDict, line_of, load_yaml

SUPERTYPES = frozenset({"Legendary", "Basic", "Snow", "World", "Tribal", "Kindred"})
CARD_TYPES = frozenset(
    {"Artifact", "Creature", "Enchantment", "Instant", "Land", "Planeswalker", "Sorcery", "Tribal", "Kindred"}
)
DEF_KEYS = frozenset(
    {
        "name_ru",
        "cost",
        "type",
        "pt",
        "loyalty",
        "colors",
        "keywords",
        "abilities",
        "effect",
        "targets",
        "modes",
        "additional_costs",
        "alternative_costs",
        "enchant",
        "choose",
        "cast_only_during",  # combat: "Cast this spell only during combat"
        "split",  # [HALF, HALF]: a split card; each half is a definition of its own
        "back_face",  # {name, ...}: a double-faced card's back face
        "text_ru",  # the rules text as printed in Russian
        "text_en",  # the English rules text (Oracle; written in Oracle style for invented cards)
        "invented",  # true: a test card that was never printed
        "left_out",  # [{text, why}]: printed sentences the definition does not implement, and why
        "printing_errors",  # [{printed, actual}]: what a source document prints wrongly
    }
)
COMBAT_STEPS = frozenset(
    {"beginning_of_combat", "declare_attackers", "declare_blockers", "first_strike_damage", "combat_damage",
     "end_of_combat"}
)
ABILITY_KEYS = frozenset(
    {
        "triggered",
        "activated",
        "static",
        "name",
        "name_ru",
        "condition",
        "targets",
        "effect",
        "optional",
        "filter",
        "whose",
        "counter",
        "mana",
        "timing",
        "loyalty",
        "affects",
        "value",
        "cost",
        "zone",
    }
)


class CardDB:
    """All known card definitions by English name."""

    def __init__(self, cards: Iterable[CardDef] = ()) -> None:
        self.cards: dict[str, CardDef] = {}
        for card in cards:
            self.add(card)

    def add(self, card: CardDef) -> None:
        self.cards[card.name] = card

    def get(self, name: str) -> CardDef | None:
        return self.cards.get(name)

    def __contains__(self, name: object) -> bool:
        return name in self.cards

    def __len__(self) -> int:
        return len(self.cards)

    def with_extra(self, extra: Iterable[CardDef]) -> CardDB:
        db = CardDB(self.cards.values())
        for card in extra:
            db.add(card)
        return db


def load_card_db(directory: Path) -> CardDB:
    """Every ``*.yaml`` under ``directory``; a duplicate name is an error."""
    db = CardDB()
    for path in sorted(directory.glob("*.yaml")):
        data = load_yaml(path)
        if not isinstance(data, dict):
            raise CardDefinitionError(f"{path}:1: a card file maps card names to definitions")
        for name, spec in data.items():
            where = f"{path}:{line_of(data, name)}"
            if name in db:
                raise CardDefinitionError(f"{where}: card {name!r} is defined twice")
            db.add(parse_card(name, spec, where))
    return db


def parse_type_line(text: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """``"Legendary Creature — Goblin Assassin"`` -> (supertypes, types, subtypes)."""
    left, _, right = text.replace(" - ", " — ").partition("—")
    words = left.split()
    supertypes = frozenset(w for w in words if w in SUPERTYPES and w not in CARD_TYPES)
    types = frozenset(w for w in words if w in CARD_TYPES)
    unknown = [w for w in words if w not in SUPERTYPES and w not in CARD_TYPES]
    if unknown or not types:
        raise EngineError(f"bad type line {text!r}")
    return supertypes, types, frozenset(right.split())


def parse_card(name: str, spec: Any, where: str) -> CardDef:
    """Build a ``CardDef`` from its YAML mapping; errors name ``where`` (file:line) of the bad key."""
    if not isinstance(spec, dict):
        raise CardDefinitionError(f"{where}: definition of {name!r} must be a mapping")

    def at(key: str | None = None, node: Any = spec) -> str:
        path = where.rsplit(":", 1)[0]
        line = line_of(node, key)
        return f"{path}:{line}" if line else where

    unknown = sorted(set(spec) - DEF_KEYS)
    if unknown:
        raise CardDefinitionError(f"{at(unknown[0])}: unknown key {unknown[0]!r} in card {name!r}")
    if "split" in spec:
        halves = spec["split"]
        if not isinstance(halves, list) or len(halves) != 2 or not all(isinstance(h, dict) for h in halves):
            raise CardDefinitionError(f"{at('split')}: split needs two half definitions, each with a name")
        parsed = tuple(
            parse_card(str(h.get("name", "?")), {k: v for k, v in h.items() if k != "name"}, at("split"))
            for h in halves
        )
        return CardDef(
            name=name,
            name_ru=str(spec.get("name_ru", " // ".join(h.name_ru for h in parsed))),
            cost=None,
            types=frozenset().union(*(h.types for h in parsed)),
            source=where,
            halves=parsed,
            # the texts of a split card are its halves' texts, unless the card gives its own
            text_ru=str(spec.get("text_ru") or "\n//\n".join(h.text_ru for h in parsed)).strip(),
            text_en=str(spec.get("text_en") or "\n//\n".join(h.text_en for h in parsed)).strip(),
            invented=_flag(spec, "invented", at),
            left_out=_notes(spec, "left_out", ("text", "why"), at),
        )
    try:
        supertypes, types, subtypes = parse_type_line(str(spec.get("type", "")))
        cost = parse_cost(spec["cost"]) if spec.get("cost") is not None else None
    except EngineError as exc:
        raise CardDefinitionError(f"{at('type')}: {exc}") from exc
    power = toughness = None
    if "pt" in spec:
        p, _, t = str(spec["pt"]).partition("/")
        try:
            power, toughness = int(p), int(t)
        except ValueError as exc:
            raise CardDefinitionError(f"{at('pt')}: pt must look like 2/2") from exc
    elif "Creature" in types:
        raise CardDefinitionError(f"{at()}: creature {name!r} needs pt")
    keywords = parse_keywords(spec.get("keywords", []), at("keywords"))
    abilities: list[AbilityDef] = []
    for i, raw in enumerate(spec.get("abilities", []) or []):
        abilities.append(
            parse_ability(raw, f"{name}#{i + 1}", at(node=raw) if isinstance(raw, LDict) else where)
        )
    if "effect" in spec or "modes" in spec:
        spell_spec = {k: spec[k] for k in ("effect", "targets", "modes", "choose") if k in spec}
        check_spell_spec(spell_spec, at("effect") if "effect" in spec else at("modes"))
        abilities.append(AbilityDef("spell", "spell", spell_spec))
    if "enchant" in spec:
        check_targets([spec["enchant"]], at("enchant"))
        abilities.append(
            AbilityDef("spell", "aura", {"targets": [spec["enchant"]], "enchant": spec["enchant"]})
        )
    for key in ("additional_costs", "alternative_costs"):
        if key in spec:
            abilities.append(AbilityDef("cost", key, {"costs": list(spec[key])}))
    if "cast_only_during" in spec:
        if spec["cast_only_during"] != "combat":
            raise CardDefinitionError(f"{at('cast_only_during')}: cast_only_during: combat is the only one known")
        abilities.append(AbilityDef("cost", "restriction", {"during": "combat"}))
    colors = frozenset(str(c).upper() for c in spec["colors"]) if "colors" in spec else None
    back = None
    if "back_face" in spec:
        raw_back = spec["back_face"]
        if not isinstance(raw_back, dict) or "name" not in raw_back:
            raise CardDefinitionError(f"{at('back_face')}: back_face needs a definition with a name")
        back = parse_card(str(raw_back["name"]), {k: v for k, v in raw_back.items() if k != "name"}, at("back_face"))
    return CardDef(
        name=name,
        name_ru=str(spec.get("name_ru", name)),
        cost=cost,
        types=types,
        subtypes=subtypes,
        supertypes=supertypes,
        colors=colors,
        power=power,
        toughness=toughness,
        loyalty=int(spec["loyalty"]) if "loyalty" in spec else None,
        keywords=keywords,
        abilities=tuple(abilities),
        source=where,
        back=back,
        text_ru=str(spec.get("text_ru", "")).strip(),
        text_en=str(spec.get("text_en", "")).strip(),
        invented=_flag(spec, "invented", at),
        left_out=_notes(spec, "left_out", ("text", "why"), at),
        printing_errors=_notes(spec, "printing_errors", ("printed", "actual"), at),
    )


def _flag(spec: Any, key: str, at: Any) -> bool:
    value = spec.get(key, False)
    if not isinstance(value, bool):
        raise CardDefinitionError(f"{at(key)}: {key} must be true or false, not {value!r}")
    return value


def _notes(spec: Any, key: str, fields: tuple[str, str], at: Any) -> tuple[tuple[str, str], ...]:
    """``[{text: ..., why: ...}]`` -> pairs; every item needs exactly the two fields."""
    raw = spec.get(key) or []
    if not isinstance(raw, list):
        raise CardDefinitionError(f"{at(key)}: {key} must be a list of {{{fields[0]}, {fields[1]}}}")
    out = []
    for item in raw:
        if not isinstance(item, dict) or set(item) != set(fields):
            raise CardDefinitionError(f"{at(key)}: each {key} item is {{{fields[0]}: ..., {fields[1]}: ...}}")
        out.append((str(item[fields[0]]).strip(), str(item[fields[1]]).strip()))
    return tuple(out)


def parse_keywords(raw: Any, where: str) -> dict[str, Any]:
    """``[flying, persist, {morph: "{2}{B}"}]`` -> ``{"flying": 1, "persist": 1, "morph": "{2}{B}"}``."""
    out: dict[str, Any] = {}
    for item in raw or []:
        if isinstance(item, dict):
            for key, value in item.items():
                if key not in PARAM_KEYWORDS:
                    raise CardDefinitionError(f"{where}: unknown keyword with parameter {key!r}")
                out[key] = value
        else:
            key = str(item)
            if key not in KEYWORDS:
                raise CardDefinitionError(
                    f"{where}: unknown keyword {key!r}; known: {', '.join(sorted(KEYWORDS))}"
                )
            out[key] = out.get(key, 0) + 1
    return out


def parse_ability(raw: Any, default_name: str, where: str) -> AbilityDef:
    if not isinstance(raw, dict):
        raise CardDefinitionError(f"{where}: an ability must be a mapping")
    unknown = sorted(set(raw) - ABILITY_KEYS)
    if unknown:
        raise CardDefinitionError(f"{where}: unknown ability key {unknown[0]!r}")
    name = str(raw.get("name", default_name))
    spec = dict(raw)
    if "triggered" in raw:
        if raw["triggered"] not in TRIGGER_EVENTS:
            raise CardDefinitionError(f"{where}: unknown trigger event {raw['triggered']!r}")
        check_spell_spec(spec, where, need_effect=True)
        return AbilityDef("triggered", name, spec)
    if "activated" in raw:
        check_spell_spec(spec, where, need_effect="mana" not in raw)
        return AbilityDef("activated", name, spec)
    if "static" in raw:
        if raw["static"] not in STATIC_KINDS:
            raise CardDefinitionError(f"{where}: unknown static ability {raw['static']!r}")
        return AbilityDef("static", name, spec)
    raise CardDefinitionError(f"{where}: an ability needs one of triggered / activated / static")


def check_spell_spec(spec: dict[str, Any], where: str, need_effect: bool = True) -> None:
    if "modes" in spec:
        for mode in spec["modes"]:
            check_spell_spec(mode, where)
        return
    if "targets" in spec:
        check_targets(spec["targets"], where)
    if need_effect and "effect" not in spec:
        raise CardDefinitionError(f"{where}: missing effect")
    if "effect" in spec:
        check_effect(spec["effect"], where)


def check_targets(targets: Any, where: str) -> None:
    if not isinstance(targets, list):
        raise CardDefinitionError(f"{where}: targets must be a list")
    for t in targets:
        kind = t if isinstance(t, str) else (t.get("kind") if isinstance(t, dict) else None)
        if kind not in TARGET_KINDS:
            raise CardDefinitionError(
                f"{where}: unknown target kind {kind!r}; known: {', '.join(TARGET_KINDS)}"
            )


def check_effect(effect: Any, where: str) -> None:
    """Every effect is a one-key mapping from the vocabulary, or a list of them (done in order)."""
    if isinstance(effect, list):
        for item in effect:
            check_effect(item, where)
        return
    if not isinstance(effect, dict) or len(effect) != 1:
        raise CardDefinitionError(f"{where}: an effect is a one-key mapping such as {{damage: ...}}")
    (key,) = effect
    if key not in EFFECT_NAMES:
        raise CardDefinitionError(
            f"{where}: unknown effect {key!r}; known: {', '.join(sorted(EFFECT_NAMES))}"
        )
    value = effect[key]
    if key in ("if_spent", "may") and isinstance(value, dict) and "then" in value:
        check_effect(value["then"], where)
