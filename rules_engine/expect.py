"""Expectations of a scenario: what must be true of the game, each compared as expected vs actual."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rules_engine import schema
from rules_engine.errors import ScenarioFormatError
from rules_engine.objects import GameObject
from rules_engine.vocabulary import KEYWORDS, PARAM_KEYWORDS
from rules_engine.yamlload import line_of

if TYPE_CHECKING:
    from rules_engine.game import Game

KINDS = frozenset(
    {
        "life",
        "mana_value",
        "library_top",
        "library_bottom",
        "mana_spent",
        "zone",
        "pt",
        "counters",
        "damage",
        "loyalty",
        "colors",
        "types",
        "subtypes",
        "keywords",
        "not_keywords",
        "controller",
        "tapped",
        "stack",
        "stack_size",
        "hand_size",
        "summoning_sick",
        "winner",
        "attached",
        "face_down",
        "mana_pool",
        "log_contains",
        "log_lacks",
        "encoded",
        "land_plays",
        "may_look",
        "not_subtypes",
    }
)


PLAYER_NAMES = ("alice", "bob")
ZONE_VALUES = frozenset({"battlefield", "hand", "library", "graveyard", "exile", "stack", "none"})


def _is_player(v: Any) -> bool:
    return v in PLAYER_NAMES


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_words(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _is_pt(v: Any) -> bool:
    return isinstance(v, str) and bool(re.match(r"^-?\d+/-?\d+$", v))


def _is_counters(v: Any) -> bool:
    return isinstance(v, dict) and all(isinstance(k, str) and _is_int(n) for k, n in v.items())


# The shape of each expectation's value: (what the keys are, what each value is, how to say it), or a
# whole-value shape for the ones that are not mappings.
_ALL_KEYWORDS = KEYWORDS | PARAM_KEYWORDS
_BY_PLAYER = "a player (alice or bob)"
_BY_CARD = "a card ref"
SHAPES: dict[str, tuple[str, Any, str]] = {
    "life": (_BY_PLAYER, _is_int, "a number"),
    "hand_size": (_BY_PLAYER, _is_int, "a number"),
    "land_plays": (_BY_PLAYER, _is_int, "a number"),
    "mana_pool": (_BY_PLAYER, lambda v: isinstance(v, str), 'mana such as "{B}" ("" for none)'),
    "library_top": (_BY_PLAYER, lambda v: isinstance(v, str) or v is None, "a card ref"),
    "library_bottom": (_BY_PLAYER, lambda v: isinstance(v, str) or v is None, "a card ref"),
    "zone": (_BY_CARD, lambda v: v in ZONE_VALUES, "a zone (" + ", ".join(sorted(ZONE_VALUES)) + ")"),
    "pt": (_BY_CARD, _is_pt, "power/toughness such as 2/2"),
    "counters": (_BY_CARD, _is_counters, 'counters such as {"-1/-1": 1} ({} for none)'),
    "damage": (_BY_CARD, _is_int, "a number"),
    "loyalty": (_BY_CARD, _is_int, "a number"),
    "mana_value": (_BY_CARD, _is_int, "a number"),
    "mana_spent": (_BY_CARD, lambda v: isinstance(v, str), 'mana such as "{B}{R}"'),
    "colors": (_BY_CARD, lambda v: _is_words(v) and set(v) <= schema.COLORS, "a list of colours (W U B R G)"),
    "types": (_BY_CARD, lambda v: _is_words(v) and set(v) <= schema.CARD_TYPES, "a list of card types"),
    "subtypes": (_BY_CARD, _is_words, "a list of subtypes"),
    "not_subtypes": (_BY_CARD, _is_words, "a list of subtypes"),
    "keywords": (_BY_CARD, lambda v: _is_words(v) and set(v) <= _ALL_KEYWORDS, "a list of known keywords"),
    "not_keywords": (_BY_CARD, lambda v: _is_words(v) and set(v) <= _ALL_KEYWORDS, "a list of known keywords"),
    "controller": (_BY_CARD, _is_player, "a player (alice or bob)"),
    "tapped": (_BY_CARD, lambda v: isinstance(v, bool), "true or false"),
    "face_down": (_BY_CARD, lambda v: isinstance(v, bool), "true or false"),
    "summoning_sick": (_BY_CARD, lambda v: isinstance(v, bool), "true or false"),
    "attached": (_BY_CARD, lambda v: isinstance(v, str) or v is None, "a card ref or null"),
    "encoded": (_BY_CARD, lambda v: isinstance(v, str) or v is None, "a card ref or null"),
    "may_look": (_BY_CARD, lambda v: isinstance(v, list) and all(_is_player(p) for p in v), "a list of players"),
}
WHOLE: dict[str, tuple[Any, str]] = {
    "stack": (_is_words, "a list of stack objects, top first"),
    "stack_size": (_is_int, "a number"),
    "winner": (lambda v: _is_player(v) or v is None, "a player or null"),
    "log_contains": (lambda v: isinstance(v, str) and v != "", "a text"),
    "log_lacks": (lambda v: isinstance(v, str) and v != "", "a text"),
}


def _check_shape(where: str, kind: str, value: Any) -> None:
    """Wrong shapes are load errors: ``life: 20`` says it expects {alice: N}, not a silent mismatch later."""
    if kind in WHOLE:
        ok, expected = WHOLE[kind]
        if not ok(value):
            raise ScenarioFormatError(f"{where}: {kind}: expected {expected}, not {value!r}")
        return
    keys, ok, expected = SHAPES[kind]
    if not isinstance(value, dict) or not value:
        raise ScenarioFormatError(f"{where}: {kind}: expected a mapping {{{keys}: {expected}}}, not {value!r}")
    for key, item in value.items():
        if keys == _BY_PLAYER and not _is_player(key):
            raise ScenarioFormatError(f"{where}: {kind}: {key!r} is not a player (alice or bob)")
        if not ok(item):
            raise ScenarioFormatError(f"{where}: {kind} of {key}: expected {expected}, not {item!r}")


@dataclass
class Expectation:
    kind: str
    value: Any
    where: str


def parse(path: Path, raw: Any) -> Expectation:
    where = f"{path}:{line_of(raw, None, 1)}"
    if not isinstance(raw, dict) or len(raw) != 1:
        raise ScenarioFormatError(
            f"{where}: an expectation is a one-key mapping such as {{life: {{bob: 18}}}}"
        )
    ((kind, value),) = raw.items()
    if kind not in KINDS:
        raise ScenarioFormatError(f"{where}: unknown expectation {kind!r}; known: {', '.join(sorted(KINDS))}")
    _check_shape(where, str(kind), value)
    return Expectation(str(kind), value, where)


def _objects(game: Game, ref: str) -> list[GameObject]:
    by_ref = [o for o in game.all_objects() if o.card.ref == ref]
    return by_ref or [o for o in game.all_objects() if o.card.definition.name == ref]


def _one(game: Game, ref: str, where: str, failures: list[str]) -> GameObject | None:
    objs = _objects(game, ref)
    if len(objs) != 1:
        failures.append(f"{where}: {ref}: ожидался один объект, найдено {len(objs)}")
        return None
    return objs[0]


def _cmp(failures: list[str], where: str, what: str, expected: Any, actual: Any) -> None:
    if expected != actual:
        failures.append(f"{where}: {what}: ожидалось {expected!r}, на деле {actual!r}")


def check(game: Game, exp: Expectation) -> list[str]:
    """Compare; return failure messages (empty if the expectation holds)."""
    from rules_engine.game import StackAbility

    failures: list[str] = []
    kind, value, where = exp.kind, exp.value, exp.where
    if kind == "life":
        for player, n in value.items():
            _cmp(failures, where, f"жизнь {player}", int(n), game.players[player].life)
    elif kind == "hand_size":
        for player, n in value.items():
            _cmp(failures, where, f"карт в руке {player}", int(n), len(game.players[player].hand))
    elif kind == "winner":
        _cmp(failures, where, "победитель", value, game.winner)
    elif kind == "mana_pool":
        from rules_engine.mana import parse_units

        for player, text in value.items():
            _cmp(
                failures,
                where,
                f"пул маны {player}",
                dict(parse_units(str(text))),
                {k: v for k, v in game.players[player].mana_pool.items() if v},
            )
    elif kind in ("library_top", "library_bottom"):
        for player, ref in value.items():
            lib = game.players[player].library
            card = (lib[-1] if kind == "library_top" else lib[0]).card.ref if lib else None
            _cmp(
                failures,
                where,
                f"{'верх' if kind == 'library_top' else 'низ'} библиотеки {player}",
                ref,
                card,
            )
    elif kind == "stack_size":
        _cmp(failures, where, "объектов в стеке", int(value), len(game.stack))
    elif kind == "stack":
        actual = []
        for item in reversed(game.stack):
            if isinstance(item, StackAbility):
                actual.append(f"{item.source.card.ref}/{item.ability.name}")
            else:
                actual.append(item.card.ref)
        _cmp(failures, where, "стек (сверху вниз)", [str(v) for v in value], actual)
    elif kind in ("log_contains", "log_lacks"):
        text = "\n".join(game.log_lines)
        present = str(value) in text
        if present != (kind == "log_contains"):
            failures.append(f"{where}: журнал {'не ' if kind == 'log_contains' else ''}содержит {value!r}")
    elif kind == "zone":
        for ref, zone in value.items():
            objs = _objects(game, str(ref))
            actual = sorted(o.zone for o in objs) if objs else ["none"]
            wanted = [str(zone)] if not isinstance(zone, list) else sorted(str(z) for z in zone)
            _cmp(failures, where, f"зона {ref}", wanted, actual)
    elif kind == "land_plays":
        for player, n in value.items():
            _cmp(failures, where, f"сыграно земель {player}", int(n), game.players[player].land_plays)
    elif kind == "encoded":  # {CARD: CREATURE or null}: the creature a card in exile is encoded on
        from rules_engine.effects import encoded_on

        for ref, host in value.items():
            obj = _one(game, str(ref), where, failures)
            if obj is not None:
                found = encoded_on(game, obj)
                _cmp(failures, where, f"{ref} закодирована на", host, found.card.ref if found else None)
    elif kind == "may_look":  # {CARD: [players]}: who may look at it (a face-down exiled card)
        from rules_engine.effects import may_look

        for ref, who in value.items():
            obj = _one(game, str(ref), where, failures)
            if obj is not None:
                _cmp(failures, where, f"кто может посмотреть {ref}", sorted(who or []), may_look(game, obj))
    elif kind == "attached":
        for ref, host in value.items():
            obj = _one(game, str(ref), where, failures)
            if obj is not None:
                target = game.find(obj.attached_to) if obj.attached_to is not None else None
                _cmp(failures, where, f"{ref} прикреплен к", host, target.card.ref if target else None)
    else:
        for ref, wanted in value.items():
            obj = _one(game, str(ref), where, failures)
            if obj is not None:
                _check_object(game, kind, str(ref), obj, wanted, where, failures)
    return failures


def _check_object(
    game: Game, kind: str, ref: str, obj: GameObject, wanted: Any, where: str, failures: list[str]
) -> None:
    from rules_engine import costs

    chars = game.chars(obj)
    if kind == "pt":
        _cmp(failures, where, f"сила/выносливость {ref}", str(wanted), f"{chars.power}/{chars.toughness}")
    elif kind == "counters":
        actual = {k: v for k, v in obj.counters.items() if v and (k != "loyalty" or "loyalty" in wanted)}
        _cmp(failures, where, f"жетоны на {ref}", {str(k): int(v) for k, v in (wanted or {}).items()}, actual)
    elif kind == "damage":
        _cmp(failures, where, f"повреждения на {ref}", int(wanted), obj.damage)
    elif kind == "loyalty":
        # on the battlefield loyalty is the number of loyalty counters; elsewhere the printed number
        loyalty = obj.counters.get("loyalty", 0) if obj.zone == "battlefield" else chars.loyalty
        _cmp(failures, where, f"верность {ref}", int(wanted), loyalty)
    elif kind == "colors":
        _cmp(failures, where, f"цвета {ref}", sorted(str(c).upper() for c in wanted), sorted(chars.colors))
    elif kind == "types":
        _cmp(failures, where, f"типы {ref}", sorted(wanted), sorted(chars.types))
    elif kind == "subtypes":
        from rules_engine.layers import has_subtype

        missing = [s for s in wanted if not has_subtype(chars, s)]
        if missing:
            failures.append(f"{where}: {ref}: нет подтипов {missing}; есть {sorted(chars.subtypes)}")
    elif kind == "not_subtypes":
        from rules_engine.layers import has_subtype

        present = [s for s in wanted if has_subtype(chars, s)]
        if present:
            failures.append(f"{where}: {ref}: не ожидались подтипы {present}; есть {sorted(chars.subtypes)}")
    elif kind == "keywords":
        missing = [k for k in wanted if k not in chars.keywords]
        if missing:
            failures.append(f"{where}: {ref}: нет способностей {missing}; есть {sorted(chars.keywords)}")
    elif kind == "not_keywords":
        present = [k for k in wanted if k in chars.keywords]
        if present:
            failures.append(f"{where}: {ref}: не ожидались способности {present}")
    elif kind == "controller":
        _cmp(failures, where, f"контролер {ref}", str(wanted), chars.controller)
    elif kind == "tapped":
        _cmp(failures, where, f"{ref} повернут", bool(wanted), obj.tapped)
    elif kind == "face_down":
        _cmp(failures, where, f"{ref} рубашкой вверх", bool(wanted), obj.face_down)
    elif kind == "mana_value":
        _cmp(
            failures, where, f"мана-стоимость {ref}", int(wanted), chars.cost.mana_value if chars.cost else 0
        )
    elif kind == "mana_spent":
        from rules_engine.mana import parse_units

        _cmp(
            failures,
            where,
            f"потраченная мана {ref}",
            dict(parse_units(str(wanted))),
            {k: v for k, v in obj.mana_spent.items() if v},
        )
    elif kind == "summoning_sick":
        _cmp(failures, where, f"«болезнь вызова» {ref}", bool(wanted), costs.summoning_sick(game, obj))
