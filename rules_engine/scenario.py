"""Scenarios: YAML files that set up a game, script every action and decision, and state expectations.

``load_scenario(path, card_db)`` validates a file (unknown keys, unknown cards, malformed steps, no
expectations are errors naming ``file:line``); ``run_scenario(scenario, card_db)`` plays it in strict mode
and returns a ``ScenarioResult`` with the Russian game log and expected-vs-actual failures.
See ``docs/scenarios.md`` for the format.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from rules_engine import actions, expect, turn
from rules_engine import log as narr
from rules_engine.cards import CardDB, parse_card
from rules_engine.errors import DecisionMissing, EngineError, IllegalAction, ScenarioFormatError
from rules_engine.game import Choice, Game
from rules_engine.objects import Card, CardDef
from rules_engine.options import RulesOptions
from rules_engine.turn import STEPS
from rules_engine.yamlload import LDict, line_of, load_yaml

TOP_KEYS = frozenset({"id", "title", "rulings", "rules", "cards", "setup", "actions", "expect", "notes"})
SETUP_KEYS = frozenset({"active", "step", "priority", "turn", "players"})
PLAYER_KEYS = frozenset({"life", "mana", "hand", "battlefield", "graveyard", "library", "exile", "poison"})
CARD_KEYS = frozenset(
    {
        "card",
        "ref",
        "counters",
        "tapped",
        "face_down",
        "attached_to",
        "summoning_sick",
        "token",
        "damage",
        "owner",
    }
)
STEP_MODIFIERS = frozenset(
    {
        "by",
        "targets",
        "mode",
        "x",
        "pay",
        "ability",
        "illegal",
        "choices",
        "alternative",
        "conspire",
        "face_down",
        "without_paying",
        "via",
        "note",
        "hybrid",
    }
)
RULING_ID = re.compile(r"^[a-z0-9]+/[a-z0-9.-]+/[a-z0-9.-]+(/[a-z]+)?$")
PLAYERS = ("alice", "bob")


@dataclass
class Step:
    kind: str  # an action of ``actions.ACTIONS``, or "choose" / "expect"
    params: dict[str, Any]
    line: int


@dataclass
class Scenario:
    id: str
    title: str
    rulings: list[str]
    path: Path
    line: int
    options: RulesOptions
    cards: list[CardDef]
    setup: dict[str, Any]
    steps: list[Step]
    expectations: list[expect.Expectation]

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass
class ScenarioResult:
    scenario: Scenario
    passed: bool
    log: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    checks: int = 0
    checked: list[expect.CheckOutcome] = field(default_factory=list)  # every comparison, shown on PASS too


def _fail(path: Path, node: Any, message: str, key: str | None = None) -> ScenarioFormatError:
    return ScenarioFormatError(f"{path}:{line_of(node, key, 1)}: {message}")


def load_scenario(
    path: Path, card_db: CardDB | None = None, known_rulings: Iterable[str] | None = None
) -> Scenario:
    """Read and validate one scenario file."""
    path = Path(path)
    try:
        data = load_yaml(path)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        raise ScenarioFormatError(f"{path}:{line}: not valid YAML: {getattr(exc, 'problem', exc)}") from exc
    if not isinstance(data, LDict):
        raise ScenarioFormatError(f"{path}:1: a scenario is a mapping")
    unknown = sorted(set(data) - TOP_KEYS)
    if unknown:
        raise _fail(path, data, f"unknown key {unknown[0]!r}", unknown[0])
    for key in ("id", "title", "setup"):
        if key not in data:
            raise _fail(path, data, f"missing {key!r}")
    rulings = [str(r) for r in data.get("rulings") or []]
    known = set(known_rulings) if known_rulings is not None else None
    for r in rulings:
        if not RULING_ID.match(r):
            raise _fail(path, data, f"malformed ruling id {r!r}", "rulings")
        if known is not None and r not in known:
            raise _fail(path, data, f"unknown ruling id {r!r} (not in the knowledge base)", "rulings")
    try:
        options = RulesOptions.from_mapping(dict(data.get("rules") or {}))
    except EngineError as exc:
        raise _fail(path, data, str(exc), "rules") from exc
    inline: list[CardDef] = []
    for name, spec in (data.get("cards") or {}).items():
        try:
            inline.append(parse_card(name, spec, f"{path}:{line_of(data['cards'], name)}"))
        except EngineError as exc:
            raise ScenarioFormatError(str(exc)) from exc
    db = (card_db or CardDB()).with_extra(inline)
    setup = data["setup"]
    _check_setup(path, setup, db)
    raw_steps = data.get("actions") or []
    lines = getattr(raw_steps, "item_lines", [0] * len(raw_steps))
    steps = [_parse_step(path, raw, db, line) for raw, line in zip(raw_steps, lines, strict=True)]
    final = [expect.parse(path, item) for item in _expect_items(path, data.get("expect"), data)]
    has_checks = bool(final) or any(s.kind == "expect" or s.params.get("illegal") for s in steps)
    if not has_checks:
        raise _fail(path, data, "scenario has no expectations (expect:, an expect step or illegal: true)")
    return Scenario(
        id=str(data["id"]),
        title=str(data["title"]),
        rulings=rulings,
        path=path,
        line=data.line,
        options=options,
        cards=inline,
        setup=setup,
        steps=steps,
        expectations=final,
    )


def _expect_items(path: Path, raw: Any, parent: Any) -> list[Any]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise _fail(path, parent, "expect must be a list of checks", "expect")
    return list(raw)


def _check_setup(path: Path, setup: Any, db: CardDB) -> None:
    if not isinstance(setup, dict):
        raise _fail(path, setup, "setup must be a mapping")
    for key in setup:
        if key not in SETUP_KEYS and key not in PLAYERS:
            raise _fail(path, setup, f"unknown setup key {key!r}", key)
    if setup.get("step", "main1") not in STEPS:
        raise _fail(path, setup, f"unknown step {setup.get('step')!r}", "step")
    for player in PLAYERS:
        zones = setup.get(player) or {}
        if not isinstance(zones, dict):
            raise _fail(path, setup, f"{player} must be a mapping", player)
        for key in zones:
            if key not in PLAYER_KEYS:
                raise _fail(path, zones, f"unknown key {key!r} for {player}", key)
        for zone in ("hand", "battlefield", "graveyard", "library", "exile"):
            for item in zones.get(zone) or []:
                name = item if isinstance(item, str) else item.get("card") if isinstance(item, dict) else None
                if isinstance(item, dict):
                    bad = sorted(set(item) - CARD_KEYS)
                    if bad:
                        raise _fail(path, item, f"unknown card key {bad[0]!r}", bad[0])
                if name is None or str(name) not in db:
                    raise _fail(
                        path,
                        item if isinstance(item, dict) else zones.get(zone),
                        f"unknown card {name!r} (define it in data/cards or under cards:)",
                    )


def _parse_step(path: Path, raw: Any, db: CardDB, line: int) -> Step:
    if isinstance(raw, str):
        if raw not in ("pass", "resolve"):
            raise ScenarioFormatError(f"{path}:{line or 1}: unknown step {raw!r}")
        return Step(raw, {raw: True}, line)
    if not isinstance(raw, dict) or not raw:
        raise ScenarioFormatError(
            f"{path}:{line or 1}: a step is a mapping such as {{cast: Shock, by: alice}}"
        )
    kinds = [k for k in raw if k in actions.ACTIONS or k in ("choose", "expect")]
    if len(kinds) != 1:
        raise _fail(
            path,
            raw,
            f"a step needs exactly one action of {', '.join((*actions.ACTIONS, 'choose', 'expect'))}",
        )
    kind = kinds[0]
    bad = sorted(set(raw) - {kind} - STEP_MODIFIERS)
    if bad:
        raise _fail(path, raw, f"unknown step key {bad[0]!r}", bad[0])
    if "by" in raw and raw["by"] not in PLAYERS:
        raise _fail(path, raw, f"unknown player {raw['by']!r}", "by")
    params = dict(raw)
    if kind == "expect":
        params["expect"] = [expect.parse(path, item) for item in _expect_items(path, raw["expect"], raw)]
    if kind == "choose":
        params["choose"] = [_parse_choice(path, c) for c in _listify(raw["choose"])]
    if "choices" in raw:
        params["choices"] = [_parse_choice(path, c) for c in _listify(raw["choices"])]
    return Step(kind, params, line)


def _listify(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else [value]


def _parse_choice(path: Path, raw: Any) -> Choice:
    if not isinstance(raw, dict) or "kind" not in raw or "value" not in raw:
        raise ScenarioFormatError(f"{path}:{line_of(raw, None, 1)}: a choice needs kind and value")
    bad = sorted(set(raw) - {"kind", "value", "player", "source"})
    if bad:
        raise _fail(path, raw, f"unknown choice key {bad[0]!r}", bad[0])
    return Choice(
        kind=str(raw["kind"]),
        value=raw["value"],
        player=raw.get("player"),
        source=raw.get("source"),
        where=f"{path}:{line_of(raw, None, 1)}",
    )


# -- running -----------------------------------------------------------------------------------------
def build_game(scenario: Scenario, db: CardDB) -> Game:
    setup = scenario.setup
    game = Game(list(PLAYERS), scenario.options)
    game.active = str(setup.get("active", "alice"))
    game.step = str(setup.get("step", "main1"))
    game.turn = int(setup.get("turn", 1))
    refs: dict[str, Any] = {}
    pending_attach: list[tuple[Any, str]] = []
    for player in PLAYERS:
        zones = setup.get(player) or {}
        p = game.players[player]
        p.life = int(zones.get("life", 20))
        p.poison = int(zones.get("poison", 0))
        if zones.get("mana"):
            from rules_engine.mana import parse_units

            p.mana_pool.update(parse_units(str(zones["mana"])))
        for zone in ("library", "hand", "graveyard", "exile", "battlefield"):
            for item in zones.get(zone) or []:
                spec: dict[str, Any] = {"card": item} if isinstance(item, str) else dict(item)
                definition = db.get(str(spec["card"]))
                assert definition is not None
                ref = str(spec.get("ref", definition.name))
                owner = str(spec.get("owner", player))
                card = Card(ref=ref, definition=definition, owner=owner, is_token=bool(spec.get("token")))
                obj = game.new_object(card, zone, player)
                if zone != "battlefield" and owner != player:
                    game.players[player].zone(zone).remove(obj)
                    game.players[owner].zone(zone).append(obj)
                obj.tapped = bool(spec.get("tapped", False))
                obj.face_down = bool(spec.get("face_down", False))
                obj.damage = int(spec.get("damage", 0))
                for kind, n in (spec.get("counters") or {}).items():
                    obj.counters[str(kind)] += int(n)
                if zone == "battlefield":
                    if definition.loyalty is not None and "loyalty" not in obj.counters:
                        obj.counters["loyalty"] = definition.loyalty
                    obj.steady_controller = None if spec.get("summoning_sick") else player
                    if "attached_to" in spec:
                        pending_attach.append((obj, str(spec["attached_to"])))
                refs[ref] = obj
    for obj, host_ref in pending_attach:
        host = refs.get(host_ref)
        if host is None:
            raise ScenarioFormatError(
                f"{scenario.where}: attached_to {host_ref!r}: no such card on the battlefield"
            )
        obj.attached_to = host.oid
    game.priority = str(setup.get("priority", game.active))
    game.touch()
    game.log(
        f"Начальная позиция: ход {game.turn}, {narr.STEP_NAMES[game.step]}, активный игрок "
        f"{narr.player(game.active)}"
    )
    game.log_lines.extend("  " + line for line in narr.describe_state(game))
    turn.settle(game)
    return game


def run_scenario(scenario: Scenario, card_db: CardDB | None = None) -> ScenarioResult:
    """Play the scenario; any unexpected illegal action or unscripted decision is a failure."""
    db = (card_db or CardDB()).with_extra(scenario.cards)
    result = ScenarioResult(scenario, passed=False)
    try:
        game = build_game(scenario, db)
    except EngineError as exc:
        result.failures.append(f"{scenario.where}: setup: {exc}")
        return result
    for step in scenario.steps:
        where = f"{scenario.path}:{step.line}"
        try:
            if not _run_step(game, step, result, where):
                break
        except DecisionMissing as exc:
            result.failures.append(f"{where}: нескриптованное решение: {exc}")
            break
        except IllegalAction as exc:
            result.failures.append(f"{where}: недопустимое действие: {exc}")
            break
    else:
        for check in scenario.expectations:
            result.checks += 1
            _record(result, expect.evaluate(game, check))
        if game.choices:
            left = ", ".join(f"{c.kind} ({c.where})" for c in game.choices)
            result.failures.append(f"{scenario.where}: скриптованные решения не понадобились: {left}")
    game.log("Итоговое состояние:")
    game.log_lines.extend("  " + line for line in narr.describe_state(game))
    result.log = game.log_lines
    result.passed = not result.failures and result.checks > 0
    if result.checks == 0 and not result.failures:
        result.failures.append(f"{scenario.where}: ни одна проверка не выполнена")
    return result


def _record(result: ScenarioResult, outcomes: list[expect.CheckOutcome]) -> None:
    result.checked.extend(outcomes)
    result.failures.extend(o.failure for o in outcomes if not o.passed)


def _run_step(game: Game, step: Step, result: ScenarioResult, where: str) -> bool:
    params = step.params
    if step.kind == "expect":
        for check in params["expect"]:
            result.checks += 1
            _record(result, expect.evaluate(game, check))
        return True
    if step.kind == "choose":
        game.choices.extend(params["choose"])
        return True
    if params.get("illegal"):
        saved = copy.deepcopy(game)
        game.choices.extend(params.get("choices", []))
        result.checks += 1
        try:
            actions.perform(game, step.kind, params.get("by"), params)
        except IllegalAction as exc:
            saved.log(narr.describe_attempt(game, step.kind, params, exc))
            result.checked.append(expect.rejected(game, step.kind, params, exc, where))
            game.__dict__.update(saved.__dict__)
            return True
        _record(result, [expect.rejected(saved, step.kind, params, None, where)])  # it was done: a failure
        return False
    game.choices.extend(params.get("choices", []))
    actions.perform(game, step.kind, params.get("by"), params)
    return True
