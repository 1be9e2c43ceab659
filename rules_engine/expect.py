"""Expectations of a scenario: what must be true of the game, each compared as expected vs actual."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rules_engine.errors import ScenarioFormatError
from rules_engine.objects import GameObject
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
