"""Expectations of a scenario: what must be true of the game, each compared as expected vs actual."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rules_engine import log as narr
from rules_engine import schema
from rules_engine.errors import ScenarioFormatError
from rules_engine.objects import GameObject
from rules_engine.vocabulary import KEYWORDS, PARAM_KEYWORDS
from rules_engine.yamlload import line_of

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game

KINDS = frozenset(
    {
        "life",
        "poison",
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
        "log_order",
        "encoded",
        "land_plays",
        "may_look",
        "not_subtypes",
        "name",
        "abilities",
        "not_abilities",
        "player_counters",
        "emblems",
        "in_game",
    }
)


PLAYER_NAMES = narr.PLAYER_IDS  # the players a scenario may declare (alice and bob by default)
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
_BY_PLAYER = "a player (alice, bob, carol, dave, eve or frank)"
_BY_CARD = "a card ref"
SHAPES: dict[str, tuple[str, Any, str]] = {
    "life": (_BY_PLAYER, _is_int, "a number"),
    "poison": (_BY_PLAYER, _is_int, "a number"),
    "hand_size": (_BY_PLAYER, _is_int, "a number"),
    "land_plays": (_BY_PLAYER, _is_int, "a number"),
    "player_counters": (_BY_PLAYER, _is_counters, 'counters such as {experience: 2} ({} for none)'),
    "emblems": (_BY_PLAYER, _is_int, "a number"),
    "in_game": (_BY_PLAYER, lambda v: isinstance(v, bool), "true or false"),
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
    "controller": (_BY_CARD, _is_player, _BY_PLAYER),
    "tapped": (_BY_CARD, lambda v: isinstance(v, bool), "true or false"),
    "face_down": (_BY_CARD, lambda v: isinstance(v, bool), "true or false"),
    "summoning_sick": (_BY_CARD, lambda v: isinstance(v, bool), "true or false"),
    "attached": (_BY_CARD, lambda v: isinstance(v, str) or v is None, "a card ref or null"),
    "encoded": (_BY_CARD, lambda v: isinstance(v, str) or v is None, "a card ref or null"),
    "name": (_BY_CARD, lambda v: isinstance(v, str), 'its English name now ("" for none, face down)'),
    "abilities": (_BY_CARD, _is_words, "a list of ability names"),
    "not_abilities": (_BY_CARD, _is_words, "a list of ability names"),
    "may_look": (_BY_CARD, lambda v: isinstance(v, list) and all(_is_player(p) for p in v), "a list of players"),
}
WHOLE: dict[str, tuple[Any, str]] = {
    "stack": (_is_words, "a list of stack objects, top first"),
    "stack_size": (_is_int, "a number"),
    "winner": (lambda v: _is_player(v) or v is None, "a player or null"),
    "log_contains": (lambda v: isinstance(v, str) and v != "", "a text"),
    "log_lacks": (lambda v: isinstance(v, str) and v != "", "a text"),
    # texts found in the log in this order (what happened first: "draws before encoding", 608.2c)
    "log_order": (lambda v: isinstance(v, list) and len(v) >= 2 and all(isinstance(t, str) and t for t in v),
                  "a list of two or more texts"),
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


@dataclass(frozen=True)
class CheckOutcome:
    """One comparison a proof made, shown on PASS as on FAIL: what, where, expected and actual (in Russian)."""

    description: str
    expected: str
    actual: str
    passed: bool
    where: str

    @property
    def failure(self) -> str:
        return f"{self.where}: {self.description}: ожидалось {self.expected}, на деле {self.actual}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "description": self.description,
            "expected": self.expected,
            "actual": self.actual,
            "passed": self.passed,
            "where": self.where,
        }


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


def rejected(
    game: Game, kind: str, params: dict[str, Any], exc: BaseException | None, where: str, rule: str
) -> CheckOutcome:
    """The check an ``illegal:`` step makes: the action is rejected by ``rule`` (``exc`` names the rule the engine
    cited), rejected by another rule, or it was done (``exc`` is None)."""
    actual = f"отклонено: {narr.rejection(game, exc)}" if exc is not None else "выполнено"
    description = f"{narr.attempt(game, kind, params)} — недопустимо"
    passed = exc is not None and getattr(exc, "rule", None) == rule
    return CheckOutcome(description, f"отклонено по правилу {rule}", actual, passed, where)


def _objects(game: Game, ref: str) -> list[GameObject]:
    by_ref = [o for o in game.all_objects() if o.card.ref == ref]
    return by_ref or [o for o in game.all_objects() if o.card.definition.name == ref]


class _Checks:
    """Collects the outcomes of one expectation; values are shown with the narration's Russian words."""

    def __init__(self, game: Game, where: str) -> None:
        self.game, self.where = game, where
        self.out: list[CheckOutcome] = []

    def cmp(self, what: str, expected: Any, actual: Any, show: Any = None) -> None:
        fmt = show or self.show
        self.out.append(CheckOutcome(what, fmt(expected), fmt(actual), expected == actual, self.where))

    def add(self, what: str, expected: str, actual: str, passed: bool) -> None:
        self.out.append(CheckOutcome(what, expected, actual, passed, self.where))

    def one(self, ref: str) -> GameObject | None:
        objs = _objects(self.game, ref)
        if len(objs) != 1:
            self.add(narr.named(self.game, ref), "один такой объект", f"найдено {len(objs)}", False)
            return None
        return objs[0]

    def show(self, value: Any) -> str:
        if isinstance(value, bool):
            return "да" if value else "нет"
        if value is None:
            return "нет"
        if isinstance(value, dict):
            return ", ".join(f"{self.show(k)}: {self.show(v)}" for k, v in value.items()) or "нет"
        if isinstance(value, list | tuple):
            return ", ".join(self.show(v) for v in value) or "нет"
        if isinstance(value, int):
            return str(value)
        text = str(value)
        if text in narr.PLAYER_NAMES:
            return narr.PLAYER_NAMES[text]
        return narr.named(self.game, text)

    def counters(self, value: Any) -> str:
        items = [narr.counter(str(k), int(n)) for k, n in sorted(dict(value).items()) if n]
        return ", ".join(items) or "нет жетонов"

    def zones(self, value: Any) -> str:
        return ", ".join(ZONE_NOMINATIVE.get(z, "нет такого объекта" if z == "none" else z) for z in value)

    def mana(self, value: Any) -> str:
        from rules_engine.mana import format_units

        units = Counter({str(k): int(v) for k, v in dict(value).items()})
        return format_units(units) if units else "нет маны"


ZONE_NOMINATIVE = {
    "library": "библиотека",
    "hand": "рука",
    "battlefield": "поле битвы",
    "graveyard": "кладбище",
    "exile": "изгнание",
    "stack": "стек",
    "command": "командная зона",
}
PLAYER_GENITIVE = narr.PLAYER_GENITIVE


def _of(player: Any) -> str:
    return PLAYER_GENITIVE.get(str(player), narr.player(str(player)))


def check(game: Game, exp: Expectation) -> list[str]:
    """Compare; return failure messages (empty if the expectation holds)."""
    return [o.failure for o in evaluate(game, exp) if not o.passed]


def evaluate(game: Game, exp: Expectation) -> list[CheckOutcome]:
    """Every comparison of one expectation, passed or not, with expected and actual values."""
    from rules_engine.stackobjects import StackAbility

    kind, value, where = exp.kind, exp.value, exp.where
    c = _Checks(game, where)
    if kind == "life":
        for player, n in value.items():
            c.cmp(f"жизнь {_of(player)}", int(n), game.players[player].life)
    elif kind == "poison":
        for player, n in value.items():
            c.cmp(f"жетонов яда {_of(player)}", int(n), game.players[player].poison)
    elif kind == "hand_size":
        for player, n in value.items():
            c.cmp(f"карт в руке {_of(player)}", int(n), len(game.players[player].hand))
    elif kind == "winner":  # in a team game the team wins (810.8a): any of its players is the winner
        from rules_engine.teams import team_of

        won = game.winner
        c.cmp("победитель", value, value if won is not None and value in team_of(game, won) else won)
    elif kind == "player_counters":
        for player, wanted in value.items():
            p = game.players[player]
            held = {k: n for k, n in p.counters.items() if n and k != "poison"}
            if p.poison:
                held["poison"] = p.poison
            c.cmp(f"жетоны {_of(player)}", {str(k): int(n) for k, n in wanted.items()}, held, c.counters)
    elif kind == "emblems":
        for player, n in value.items():
            c.cmp(f"эмблем {_of(player)}", int(n), len(game.players[player].command))
    elif kind == "in_game":
        for player, wanted in value.items():
            c.cmp(f"{narr.player(player)} в игре", bool(wanted), not game.players[player].left)
    elif kind == "mana_pool":
        from rules_engine.mana import parse_units

        for player, text in value.items():
            c.cmp(
                f"пул маны {_of(player)}",
                dict(parse_units(str(text))),
                {k: v for k, v in game.players[player].mana_pool.items() if v},
                c.mana,
            )
    elif kind in ("library_top", "library_bottom"):
        for player, ref in value.items():
            lib = game.players[player].library
            card = (lib[-1] if kind == "library_top" else lib[0]).card.ref if lib else None
            where_ = "верхняя" if kind == "library_top" else "нижняя"
            c.cmp(f"{where_} карта библиотеки {_of(player)}", ref, card)
    elif kind == "stack_size":
        c.cmp("объектов в стеке", int(value), len(game.stack))
    elif kind == "stack":
        actual, shown = [], []
        for item in reversed(game.stack):
            if isinstance(item, StackAbility):
                actual.append(f"{item.source.card.ref}/{item.ability.name}")
                shown.append(game.describe_stack_item(item))
            else:
                actual.append(item.card.ref)
                shown.append(game.describe_stack_item(item))
        wanted = [str(v) for v in value]
        labels = dict(zip(actual, shown, strict=True))

        def stack_text(items: Any) -> str:
            return "; ".join(labels.get(i) or _stack_name(game, i) for i in items) or "стек пуст"

        c.cmp("стек (сверху вниз)", wanted, actual, stack_text)
    elif kind in ("log_contains", "log_lacks"):
        present = str(value) in "\n".join(game.log_lines)
        c.add(f"в журнале есть «{value}»", "нет" if kind == "log_lacks" else "да", "да" if present else "нет",
              present == (kind == "log_contains"))
    elif kind == "log_order":
        c.add(f"в журнале по порядку: {' → '.join(f'«{t}»' for t in value)}", "да",
              "да" if _in_order(game.log_lines, [str(t) for t in value]) else "нет",
              _in_order(game.log_lines, [str(t) for t in value]))
    elif kind == "zone":
        for ref, zone in value.items():
            objs = _objects(game, str(ref))
            actual_zones = sorted(o.zone for o in objs) if objs else ["none"]
            wanted_zones = [str(zone)] if not isinstance(zone, list) else sorted(str(z) for z in zone)
            c.cmp(f"зона {narr.named(game, ref)}", wanted_zones, actual_zones, c.zones)
    elif kind == "land_plays":
        for player, n in value.items():
            c.cmp(f"сыграно земель {_of(player)}", int(n), game.players[player].land_plays)
    elif kind == "encoded":  # {CARD: CREATURE or null}: the creature a card in exile is encoded on
        from rules_engine.cipher import encoded_on

        for ref, host in value.items():
            obj = c.one(str(ref))
            if obj is not None:
                found = encoded_on(game, obj)
                c.cmp(f"на чем закодирована {narr.named(game, ref)}", host, found.card.ref if found else None)
    elif kind == "may_look":  # {CARD: [players]}: who may look at it (a face-down exiled card)
        from rules_engine.effects import may_look

        for ref, who in value.items():
            obj = c.one(str(ref))
            if obj is not None:
                c.cmp(f"кто может смотреть {narr.named(game, ref)}", sorted(who or []), may_look(game, obj))
    elif kind == "attached":
        for ref, host in value.items():
            obj = c.one(str(ref))
            if obj is not None:
                target = game.find(obj.attached_to) if obj.attached_to is not None else None
                c.cmp(f"к чему прикреплен {narr.named(game, ref)}", host, target.card.ref if target else None)
    else:
        for ref, wanted in value.items():
            obj = c.one(str(ref))
            if obj is not None:
                _check_object(c, kind, str(ref), obj, wanted)
    return c.out


def _stack_name(game: Game, text: str) -> str:
    """An expected stack entry ``REF`` or ``REF/ABILITY`` in words."""
    ref, slash, name = text.partition("/")
    label = narr.named(game, ref)
    if not slash:
        return label
    cards = [o.card for o in narr.every_object(game)] + [snap.card for snap in game.lki.values()]
    for card in cards:
        if card.ref == ref or card.definition.name == ref:
            for a in card.definition.abilities:
                if a.name == name:
                    return f"способность «{narr.ability_label(a)}» объекта {label}"
    return f"способность объекта {label}"


def _ability_label(game: Game, ability_name: str) -> str:
    """The Russian label of the ability an expectation names, found on any object or card of the game."""
    for o in game.all_objects():
        for a in [*game.chars(o).abilities, *o.card.definition.abilities]:
            if a.name == ability_name:
                return narr.ability_label(a)
    return "способность"


def _check_object(c: _Checks, kind: str, ref: str, obj: GameObject, wanted: Any) -> None:
    from rules_engine import costs

    game = c.game
    chars = game.chars(obj)
    name = narr.named(game, ref)
    if kind == "pt":
        c.cmp(f"сила/выносливость {name}", str(wanted), f"{chars.power}/{chars.toughness}", str)
    elif kind == "counters":
        actual = {k: v for k, v in obj.counters.items() if v and (k != "loyalty" or "loyalty" in wanted)}
        c.cmp(f"жетоны на {name}", {str(k): int(v) for k, v in (wanted or {}).items()}, actual, c.counters)
    elif kind == "damage":
        c.cmp(f"повреждения на {name}", int(wanted), obj.damage)
    elif kind == "loyalty":
        # on the battlefield loyalty is the number of loyalty counters; elsewhere the printed number
        loyalty = obj.counters.get("loyalty", 0) if obj.zone == "battlefield" else chars.loyalty
        c.cmp(f"верность {name}", int(wanted), loyalty)
    elif kind == "colors":
        c.cmp(
            f"цвета {name}",
            sorted(str(x).upper() for x in wanted),
            sorted(chars.colors),
            lambda v: ", ".join(narr.COLOR_NAMES.get(x, x) for x in v) or "бесцветный",
        )
    elif kind == "types":
        c.cmp(f"типы {name}", sorted(wanted), sorted(chars.types), lambda v: narr.types_text(v) or "нет")
    elif kind in ("subtypes", "not_subtypes"):
        from rules_engine.layers import has_subtype

        have = narr.subtypes_text(sorted(chars.subtypes)) or "нет"
        for s in wanted:
            present = has_subtype(chars, s)
            expected = kind == "subtypes"
            shown = f"{'есть' if present else 'нет'} (подтипы: {have})"
            c.add(f"подтип «{narr.subtypes_text([s])}» у {name}", "есть" if expected else "нет", shown,
                  present == expected)
    elif kind in ("keywords", "not_keywords"):
        have = narr.keywords_held(chars.keywords)
        for k in wanted:
            present = k in chars.keywords
            expected = kind == "keywords"
            c.add(f"способность «{narr.keyword(k)}» у {name}", "есть" if expected else "нет",
                  f"{'есть' if present else 'нет'} (способности: {have})", present == expected)
    elif kind == "controller":
        c.cmp(f"контролер {name}", str(wanted), chars.controller)
    elif kind == "tapped":
        c.cmp(f"{name} повернут", bool(wanted), obj.tapped)
    elif kind == "name":  # a copy effect renames it (707.2); a face-down one has none (708.2a)
        c.cmp(f"имя {name}", str(wanted) or "(нет имени)", chars.name or "(нет имени)")
    elif kind in ("abilities", "not_abilities"):  # told by their Russian labels, never the internal names
        names = [a.name for a in chars.abilities]
        held = ", ".join(narr.ability_label(a) for a in chars.abilities) or "нет"
        for wanted_name in wanted:
            present = wanted_name in names
            expected = kind == "abilities"
            c.add(f"способность «{_ability_label(game, str(wanted_name))}» у {name}", "есть" if expected else "нет",
                  f"{'есть' if present else 'нет'} (способности: {held})", present == expected)
    elif kind == "face_down":
        c.cmp(f"{name} рубашкой вверх", bool(wanted), obj.face_down)
    elif kind == "mana_value":
        c.cmp(f"конвертированная мана-стоимость {name}", int(wanted), chars.mana_value)
    elif kind == "mana_spent":
        from rules_engine.mana import parse_units

        c.cmp(
            f"мана, потраченная на {name}",
            dict(parse_units(str(wanted))),
            {k: v for k, v in obj.mana_spent.items() if v},
            c.mana,
        )
    elif kind == "summoning_sick":
        c.cmp(f"«болезнь вызова» у {name}", bool(wanted), costs.summoning_sick(game, obj))


def _in_order(lines: list[str], texts: list[str]) -> bool:
    """Each text is found in a log line after the line where the one before it was found."""
    at = 0
    for text in texts:
        found = next((i for i in range(at, len(lines)) if text in lines[i]), None)
        if found is None:
            return False
        at = found + 1
    return True
