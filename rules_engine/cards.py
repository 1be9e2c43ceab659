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

from rules_engine import costs, schema
from rules_engine.errors import CardDefinitionError, EngineError
from rules_engine.mana import ManaCost, Symbol, parse_cost
from rules_engine.objects import AbilityDef, CardDef
from rules_engine.vocabulary import (
    KEYWORDS,
    PARAM_KEYWORDS,
    STATIC_KINDS,
    TRIGGER_EVENTS,
)
from rules_engine.yamlload import LDict, line_of, load_yaml

SUPERTYPES = schema.SUPERTYPES | {"Tribal", "Kindred"}  # the type line of the time wrote Tribal first
CARD_TYPES = schema.CARD_TYPES
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
        "divide",  # rule 601.2d: the damage divided among the targets as it is cast (divide.py)
        "additional_costs",
        "alternative_costs",
        "reveal_cost",  # {filter, or_control}: "you may reveal a Dragon card from your hand" (rule 118.8, reveal.py)
        "enchant",
        "choose",
        "cast_only_during",  # combat: "Cast this spell only during combat"
        "x_at_least",  # N: "X can't be 0" (1): a value of X below N can't be announced (601.2b, 107.3b)
        "split",  # [HALF, HALF]: a split card; each half is a definition of its own
        "back_face",  # {name, ...}: a double-faced card's back face
        "text_ru",  # the rules text as printed in Russian
        "text_en",  # the English rules text (Oracle; written in Oracle style for invented cards)
        "invented",  # true: a test card that was never printed
        "left_out",  # [{text, why}]: printed sentences the definition does not implement, and why
        "effect_lines",  # N: the spell's effect implements N paragraphs of text_en (113.2c), not one
        "printing_errors",  # [{printed, actual}]: what a source document prints wrongly
    }
)
COMBAT_STEPS = frozenset(
    {"beginning_of_combat", "declare_attackers", "declare_blockers", "first_strike_damage", "combat_damage",
     "end_of_combat"}
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


def combined_cost(costs: Iterable[ManaCost | None]) -> ManaCost | None:
    """A split card's mana cost (709.4b): the halves' generic mana added up, then their other symbols in order
    ({R} and {3}{G} make {3}{R}{G}); None when neither half has one."""
    present = [c for c in costs if c is not None]
    if not present:
        return None
    generic = sum(s.amount for c in present for s in c.symbols if s.kind == "generic")
    rest = tuple(s for c in present for s in c.symbols if s.kind != "generic")
    return ManaCost(((Symbol("generic", amount=generic),) if generic else ()) + rest)


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
        # rule 709.4: outside the stack the card has its halves' characteristics combined — the mana cost (its
        # colours and mana value follow, 709.4b) and every card type, subtype and supertype (709.4c)
        return CardDef(
            name=name,
            name_ru=str(spec.get("name_ru", " // ".join(h.name_ru for h in parsed))),
            cost=combined_cost(h.cost for h in parsed),
            types=frozenset().union(*(h.types for h in parsed)),
            subtypes=frozenset().union(*(h.subtypes for h in parsed)),
            supertypes=frozenset().union(*(h.supertypes for h in parsed)),
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
        try:  # "*" is defined by a characteristic-defining ability (604.3, defines_pt); 0 without one (208.2b)
            power, toughness = (0 if p == "*" else int(p)), (0 if t == "*" else int(t))
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
        spell_spec = {k: spec[k] for k in ("effect", "targets", "modes", "choose", "divide") if k in spec}
        check_spell_spec(spell_spec, at("effect") if "effect" in spec else at("modes"))
        abilities.append(AbilityDef("spell", "spell", spell_spec))
    if "enchant" in spec:
        check_targets([spec["enchant"]], at("enchant"))
        abilities.append(
            AbilityDef("spell", "aura", {"targets": [spec["enchant"]], "enchant": spec["enchant"]})
        )
    if "additional_costs" in spec:
        _check_additional(spec["additional_costs"], at("additional_costs"))
    for key in ("additional_costs", "alternative_costs"):
        if key in spec:
            abilities.append(AbilityDef("cost", key, {"costs": list(spec[key])}))
    if "reveal_cost" in spec:
        schema.Checker(at("reveal_cost")).keys(spec["reveal_cost"], schema.REVEAL_COST, "reveal_cost")
        abilities.append(AbilityDef("cost", "reveal_cost", dict(spec["reveal_cost"])))
    if "x_at_least" in spec:
        if isinstance(spec["x_at_least"], bool) or not isinstance(spec["x_at_least"], int) or spec["x_at_least"] < 1:
            raise CardDefinitionError(f"{at('x_at_least')}: x_at_least: a number of 1 or more")
        abilities.append(AbilityDef("cost", "x_at_least", {"n": int(spec["x_at_least"])}))
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
        effect_lines=_effect_lines(spec, at),
    )


def _effect_lines(spec: Any, at: Any) -> int:
    """How many paragraphs of the text the spell's effect implements (each paragraph is an ability, CR 113.2c)."""
    value = spec.get("effect_lines", 1)
    if "effect_lines" in spec and "effect" not in spec:
        raise CardDefinitionError(f"{at('effect_lines')}: effect_lines needs the spell's effect")
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise CardDefinitionError(f"{at('effect_lines')}: effect_lines must be a whole number from 1, not {value!r}")
    return value


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
                if key == "equip":  # rule 702.6a: a cost; {cost, filter} (702.6c); a list of them (702.6d)
                    _check_equip(value, where)
                if key == "protection":  # rule 702.16g: each instance is a protection of its own
                    schema.Checker(where).check("protection", value, "keyword protection", item, key)
                    out[key] = [*out.get(key, []), value]
                    continue
                out[key] = value
        else:
            key = str(item)
            if key not in KEYWORDS:
                raise CardDefinitionError(
                    f"{where}: unknown keyword {key!r}; known: {', '.join(sorted(KEYWORDS))}"
                )
            out[key] = out.get(key, 0) + 1
    return out


def _check_additional(value: Any, where: str) -> None:
    """Rule 118.8: each additional cost of a spell is a cost the engine reads; a spell has no {T}, {Q}, loyalty or
    "sacrifice this" of its own to pay."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise CardDefinitionError(f"{where}: additional_costs is a list of costs such as [\"sacrifice a creature\"]")
    for text in value:
        try:
            cost = costs.parse(text)
        except (EngineError, ValueError, IndexError) as exc:
            raise CardDefinitionError(f"{where}: bad additional cost {text!r}: {exc}") from exc
        if cost.tap or cost.untap or cost.loyalty is not None or cost.sacrifice_self or cost.discard_self:
            raise CardDefinitionError(f"{where}: {text!r} is no cost a spell can pay")


def _check_equip(value: Any, where: str) -> None:
    """Each equip ability's cost must be a cost the engine reads, its quality a filter (rule 702.6c)."""
    c = schema.Checker(where)
    for item in value if isinstance(value, list) else [value]:
        if isinstance(item, dict):
            unknown = sorted(set(item) - {"cost", "filter"})
            if unknown or "cost" not in item:
                raise CardDefinitionError(f"{where}: equip is a cost or {{cost, filter}}, not {item!r}")
            c.keys(item.get("filter") or {}, schema.FILTER, "filter of equip")
            cost = item["cost"]
        else:
            cost = item
        try:
            costs.parse(str(cost))
        except (EngineError, ValueError, IndexError) as exc:
            raise CardDefinitionError(f"{where}: bad equip cost {cost!r}: {exc}") from exc


def parse_ability(raw: Any, default_name: str, where: str) -> AbilityDef:
    """One ability; every key and every value inside it is checked against ``rules_engine.schema``."""
    c = schema.Checker(where)
    if not isinstance(raw, dict):
        raise c.fail(raw, "an ability must be a mapping")
    kinds = [k for k in schema.ABILITY_KEYS if k in raw]
    if len(kinds) != 1:
        raise c.fail(raw, "an ability needs exactly one of triggered / activated / static")
    (kind,) = kinds
    unknown = sorted(set(raw) - schema.ABILITY_KEYS[kind])
    if unknown:
        known = ", ".join(sorted(schema.ABILITY_KEYS[kind]))
        raise c.fail(raw, f"unknown key {unknown[0]!r} in a {kind} ability; known: {known}", unknown[0])
    name = str(raw.get("name", default_name))
    spec = dict(raw)
    if kind == "triggered":
        event = raw["triggered"]
        if event not in TRIGGER_EVENTS:
            raise c.fail(raw, f"unknown trigger event {event!r}; known: {', '.join(sorted(TRIGGER_EVENTS))}", kind)
        c.trigger_filter(raw, event, f"filter of trigger {event}")
        if "counter" in raw:
            if event not in schema.COUNTER_TRIGGERS:
                raise c.fail(raw, "counter: belongs to the counters_put / counters_removed triggers", "counter")
            c.check("counter", raw["counter"], "counter", raw, "counter")
        if "each_counter" in raw:
            if event not in schema.COUNTER_TRIGGERS:
                raise c.fail(raw, "each_counter: belongs to the counter triggers", "each_counter")
            c.check("bool", raw["each_counter"], "each_counter", raw, "each_counter")
        if "condition" in raw:
            c.keys(raw["condition"], schema.TRIGGER_CONDITIONS, "condition (intervening if)")
        if (event == "state") != ("state" in raw):  # rule 603.8: a state trigger names its game state
            raise c.fail(raw, "a state trigger (triggered: state) needs state: CONDITION, and only it takes one", kind)
        if "state" in raw:
            c.keys(raw["state"], schema.TRIGGER_CONDITIONS, "state (the game state it triggers on)")
        if "optional" in raw:
            c.check("bool", raw["optional"], "optional", raw, "optional")
        if "zone" in raw and raw["zone"] != "graveyard":  # rule 113.6m: "return this from your graveyard"
            raise c.fail(raw, f"zone: graveyard is the only one known for a trigger, not {raw['zone']!r}", "zone")
        if "each_counter" in raw:  # "whenever a +1/+1 counter is put on ...": once per counter (603.2c)
            if event != "counters_put":
                raise c.fail(raw, "each_counter: belongs to the counters_put trigger", "each_counter")
            c.check("bool", raw["each_counter"], "each_counter", raw, "each_counter")
        check_spell_spec(spec, where, need_effect=True)
        return AbilityDef("triggered", name, spec)
    if kind == "activated":
        try:
            costs.parse(str(raw["activated"]))
        except (EngineError, ValueError, IndexError) as exc:
            raise c.fail(raw, f"bad cost {raw['activated']!r}: {exc}", kind) from exc
        if "mana" in raw:
            c.check("mana_produced", raw["mana"], "mana", raw, "mana")
        if "spend_only" in raw:  # rule 106.6: what the mana it adds may be spent on
            if "mana" not in raw:
                raise c.fail(raw, "spend_only: only a mana ability (mana:) adds mana to restrict", "spend_only")
            c.check("spend_only", raw["spend_only"], "spend_only", raw, "spend_only")
        if "mana_times" in raw:  # "Add {G} for each ...": an amount (rule 106.1)
            c.check("amount", raw["mana_times"], "mana_times", raw, "mana_times")
        if "timing" in raw and raw["timing"] not in ("sorcery", "your_turn"):  # your_turn: 602.5b
            raise c.fail(raw, f"timing: sorcery or your_turn, not {raw['timing']!r}", "timing")
        if "zone" in raw and raw["zone"] not in ("battlefield", "hand"):
            raise c.fail(raw, f"zone: battlefield or hand, not {raw['zone']!r}", "zone")
        check_spell_spec(spec, where, need_effect="mana" not in raw)
        return AbilityDef("activated", name, spec)
    static = raw["static"]
    if static not in STATIC_KINDS:
        raise c.fail(raw, f"unknown static ability {static!r}; known: {', '.join(sorted(STATIC_KINDS))}", kind)
    value_shape = schema.STATIC_VALUES[static]
    if value_shape is None and "value" in raw:
        raise c.fail(raw, f"static ability {static!r} takes no value", "value")
    if value_shape is not None and "value" in raw:
        c.check(value_shape, raw["value"], f"value of {static}", raw, "value")
    if "affects" in raw:
        c.keys(raw["affects"], {**schema.FILTER, **schema.STATIC_AFFECTS_EXTRA.get(static, {})}, f"affects of {static}")
    if "condition" in raw and static in schema.CAST_CONDITION_STATICS:  # "... if you revealed a Dragon card"
        c.keys(raw["condition"], schema.CAST_CONDITIONS, f"condition of {static}")
        if len(raw["condition"]) != 1 or ("control" in raw["condition"] and static != "enters_with_counters"):
            raise c.fail(raw, f"condition of {static}: revealed_or_controlled, or control (enters_with_counters)",
                         "condition")
    elif "condition" in raw:
        if static not in schema.CONDITIONAL_STATICS:
            known = ", ".join(sorted(schema.CONDITIONAL_STATICS))
            raise c.fail(raw, f"static ability {static!r} takes no condition; those that do: {known}", "condition")
        c.keys(raw["condition"], schema.STATIC_CONDITIONS, f"condition of {static}")
        if not isinstance(raw["condition"], dict) or len(raw["condition"]) != 1:
            raise c.fail(raw, f"condition of {static}: one of {', '.join(schema.STATIC_CONDITIONS)}", "condition")
    if static == "grant_abilities":  # rule 613.1f: the abilities it grants, parsed once (layer 6 adds these objects)
        spec["granted"] = tuple(
            parse_ability(a, f"{name}#{i + 1}", f"{where}: {name}") for i, a in enumerate(raw["value"]["abilities"])
        )
    return AbilityDef("static", name, spec)


SPELL_KEYS = {"targets": "targets", "effect": "effect", "modes": "modes", "choose": "int", "divide": "divide_amount"}


def check_spell_spec(spec: dict[str, Any], where: str, need_effect: bool = True) -> None:
    """The targets and effect of a spell or ability, or its modes (each a {targets, effect})."""
    c = schema.Checker(where)
    if "modes" in spec:
        modes = spec["modes"]
        if not isinstance(modes, list) or not modes:
            raise c.fail(spec, "modes must be a list of {targets, effect}", "modes")
        for mode in modes:
            if not isinstance(mode, dict) or set(mode) - {"targets", "effect"}:
                bad = sorted(set(mode) - {"targets", "effect"}) if isinstance(mode, dict) else []
                raise c.fail(mode, "a mode is {targets, effect}" + (f"; unknown key {bad[0]!r}" if bad else ""))
            check_spell_spec(mode, f"{c.path}:{line_of(mode, None, c.line)}")
        if "choose" in spec:
            c.check("int", spec["choose"], "choose", spec, "choose")
        return
    if "targets" in spec:
        c.targets(spec["targets"])
    if "divide" in spec:  # rule 601.2d: divided among the targets (divide.py)
        c.check("divide_amount", spec["divide"], "divide", spec, "divide")
    if need_effect and "effect" not in spec:
        raise c.fail(spec, "missing effect")
    if "effect" in spec:
        c.effect(spec["effect"])


def check_targets(targets: Any, where: str) -> None:
    schema.Checker(where).targets(targets)


def check_effect(effect: Any, where: str) -> None:
    """Every effect is a one-key mapping from the vocabulary, or a list of them (done in order)."""
    schema.Checker(where).effect(effect)


# -- shapes of the schema that are card or ability definitions themselves ---------------------------------------
def _token(c: schema.Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    if not isinstance(v, dict) or "name" not in v:
        raise c.fail(parent, f"{what}: a token is a card definition with a name", key)
    spec = {k: x for k, x in v.items() if k != "name"}
    if "X" in str(spec.get("pt", "")):  # "an X/X token, where X is ...": the effect's ``x`` gives the number
        if not (isinstance(parent, dict) and "x" in parent):
            raise c.fail(parent, f"{what}: pt {spec['pt']!r} needs x: AMOUNT (\"where X is ...\")", key)
        spec["pt"] = str(spec["pt"]).replace("X", "0")
    parse_card(str(v["name"]), spec, f"{c.path}:{line_of(v, None, c.line)}")


def _abilities(c: schema.Checker, v: Any, what: str, parent: Any, key: str | None) -> None:
    if not isinstance(v, list):
        raise c.fail(parent, f"{what}: expected a list of abilities, not {v!r}", key)
    for i, raw in enumerate(v):
        parse_ability(raw, f"copy#{i + 1}", f"{c.path}:{line_of(raw, None, c.line)}")


schema.register("token", _token)
schema.register("abilities", _abilities)
