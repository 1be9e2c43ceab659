"""Scenarios: YAML files that set up a game, script every action and decision, and state expectations.

``load_scenario(path, card_db)`` validates a file (unknown keys, unknown cards, malformed steps, no
expectations are errors naming ``file:line``); ``load_scenarios`` also reads a *family* (``each_card:``, one
play per card, ``{card}`` standing for it); ``run_scenario(scenario, card_db)`` plays it in strict mode
and returns a ``ScenarioResult`` with the Russian game log and expected-vs-actual failures.
See ``docs/scenarios.md`` for the format.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import yaml

from rules_engine import actions, costs, expect, teams, turn
from rules_engine import log as narr
from rules_engine.cards import CardDB, parse_card
from rules_engine.errors import DecisionMissing, EngineError, IllegalAction, ScenarioFormatError, ScriptError
from rules_engine.game import Choice, Game
from rules_engine.mana import parse_cost
from rules_engine.objects import Card, CardDef
from rules_engine.options import ERA_DECISIONS, RulesOptions
from rules_engine.teams import scenario_players
from rules_engine.turn import STEPS
from rules_engine.yamlload import LDict, LList, line_of, load_yaml

TOP_KEYS = frozenset(
    {"id", "title", "rulings", "rules", "cards", "setup", "actions", "expect", "notes", "seed", "each_card"}
)
CARD_PLACEHOLDER = "{card}"
CARD_RU_PLACEHOLDER = "{card_ru}"  # the card's Russian name, for titles a Russian reader reads
# the mana that pays the card's mana cost ({card_mana}), a keyword's cost ({card_mana:megamorph}) or an activated
# ability's ({card_mana:animate}), each generic mana as {C}: a pool and a payment for a family whose cards cost
# different mana
CARD_MANA_PLACEHOLDER = re.compile(r"\{card_mana(?::([a-z_]+))?\}")
RULING_REF_KEYS = frozenset({"card", "official"})


@dataclass(frozen=True)
class RulingRef:
    """An official ruling named by its card and the start of its text, not by its position in the card's list
    (official lists grow and are renumbered); the knowledge base resolves it to an ID."""

    card: str
    official: str
    line: int


@runtime_checkable
class RulingCatalog(Protocol):
    """What the loader asks the knowledge base: is an ID known, which official rulings of a card start so."""

    def __contains__(self, ruling_id: object) -> bool: ...

    def official(self, card: str, text: str) -> list[str] | None:
        """IDs of the card's official rulings starting with ``text``; None when no official ruling of the card
        is known (its set not ingested): the reference then stays unresolved, and the scenario unlinked."""
        ...
SETUP_KEYS = frozenset({"active", "step", "priority", "turn", "players", "variant", "teams"})
VARIANTS = frozenset({"two_headed_giant"})  # rule 810; players not on teams play Free-for-All (806)
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
        "chosen",  # rule 614.12c: the anchor word chosen as it entered (Khans or Dragons)
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
        "phyrexian",
        "half",
        "delve",
        "reveal",
        "divide",  # rule 601.2d: the damage announced for each target, in the order of the targets
        "pay_with",  # rules 508.1g, 509.1f: mana abilities activated during a declaration, for its costs
    }
)
RULE_NUMBER = re.compile(r"^\d{3}(\.\d+[a-z]?)?$")
# The decisions the engine asks for (``Game.decide`` kinds, see docs/scenarios.md "Strict mode").
CHOICE_KINDS = frozenset(
    {
        "assign",
        "attacking",  # rule 508.4: what a creature put onto the battlefield attacking attacks (a player or REF)
        "bolster",
        "bottom_order",
        "look_take",  # the looked-at cards a clause of look_at_top takes (REF, a list, or none)
        "top_order",  # rule 401.4: cards put back on top in any order, top to bottom
        "champion",
        "choose_card",
        "cipher",
        "clash",
        "color",  # rules 608.2d, 105.4: a colour chosen as an effect resolves (W U B R G, or a list of them)
        "copy",
        "counter_kind",
        "enter_choice",  # rule 614.12c: the anchor word chosen as a permanent enters (Khans or Dragons)
        "exploit",
        "cost",
        "discard",
        "random",  # rule 701.9b: a random outcome scripted (the card(s) a random discard picks), else the seed
        "divide",  # rule 601.2d: a triggered ability's division among its targets, [N, ...] in their order
        "hideaway",
        "legend",
        "mana_color",
        "may",
        "mode",  # rules 603.3c, 700.2b: the mode of a modal triggered ability, 1-based, as it goes on the stack
        "new_targets",
        "number",
        "opponent",
        "option",  # rule 608.2d: a word chosen as an effect resolves ("choose first strike, vigilance, or lifelink")
        "order",
        "sacrifice",
        "spare",  # rule 608.2d: the permanents a player keeps before sacrificing the rest (spare.py), a list
        "pay",
        "play",
        "redirect",
        "replacement",
        "search",
        "shuffle",
        "source",  # rule 615.8: "a source of your choice", chosen as the prevention effect resolves (REF)
        "target",
        "text_change",
    }
)
RULING_ID = re.compile(r"^[a-z0-9-]+/[a-z0-9.-]+/[a-z0-9.-]+(/[a-z0-9.-]+)*$")
KNOWN_PLAYERS = narr.PLAYER_IDS  # the names a scenario may declare (``setup: players`` / ``teams``)


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
    seed: int | None = None  # random outcomes not scripted are drawn from this seed
    ruling_refs: list[RulingRef] = field(default_factory=list)  # official rulings by card and text
    card: str | None = None  # the card this play of a family (``each_card:``) is about
    unresolved: list[str] = field(default_factory=list)  # official rulings not in the knowledge base (file:line)

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
    stopped_at: str = ""  # the failure that stopped the script before its end (a rejected action...), if any


def _fail(path: Path, node: Any, message: str, key: str | None = None) -> ScenarioFormatError:
    return ScenarioFormatError(f"{path}:{line_of(node, key, 1)}: {message}")


def _read(path: Path) -> LDict:
    try:
        data = load_yaml(path)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        raise ScenarioFormatError(f"{path}:{line}: not valid YAML: {getattr(exc, 'problem', exc)}") from exc
    if not isinstance(data, LDict):
        raise ScenarioFormatError(f"{path}:1: a scenario is a mapping")
    return data


def load_scenario(
    path: Path, card_db: CardDB | None = None, known_rulings: Iterable[str] | RulingCatalog | None = None
) -> Scenario:
    """Read and validate one scenario file (a family of plays is read with ``load_scenarios``)."""
    path = Path(path)
    data = _read(path)
    if "each_card" in data:
        raise _fail(path, data, "a family of scenarios (each_card:) is read with load_scenarios", "each_card")
    return _build(path, data, card_db, known_rulings)


def load_scenarios(
    path: Path, card_db: CardDB | None = None, known_rulings: Iterable[str] | RulingCatalog | None = None
) -> list[Scenario]:
    """One scenario, or a family: ``each_card: [A, B]`` plays the file once per card, ``{card}`` in any text
    of the file standing for that card's name, so one proof of a ruling printed on many cards plays with each
    of them (the card's own abilities included)."""
    path = Path(path)
    data = _read(path)
    if "each_card" not in data:
        return [_build(path, data, card_db, known_rulings)]
    names = data["each_card"]
    if not isinstance(names, list) or not names or not all(isinstance(n, str) and n.strip() for n in names):
        raise _fail(path, data, "each_card: expected a list of card names", "each_card")
    if len(set(names)) != len(names):
        raise _fail(path, data, "each_card: a card is named twice", "each_card")
    if CARD_PLACEHOLDER not in str(data.get("id", "")):
        raise _fail(path, data, f"id of a family must contain {CARD_PLACEHOLDER}", "id")
    out = []
    for name in names:
        known_card = card_db.get(name) if card_db is not None else None
        name_ru = known_card.name_ru if known_card is not None and known_card.name_ru else name
        names_of = {CARD_PLACEHOLDER: name, CARD_RU_PLACEHOLDER: name_ru}
        for found in sorted(set(CARD_MANA_PLACEHOLDER.findall(repr(data)))):
            names_of["{card_mana" + (f":{found}" if found else "") + "}"] = _card_mana(path, data, known_card, found)
        one = _substitute({k: v for k, v in data.items() if k != "each_card"}, names_of)
        scenario = _build(path, one, card_db, known_rulings)
        scenario.id = str(data["id"]).replace(CARD_PLACEHOLDER, _slug(name))
        scenario.card = name
        out.append(scenario)
    return out


def _card_mana(path: Path, data: LDict, card: CardDef | None, keyword: str) -> str:
    """The mana (generic as {C}) that pays the card's mana cost or the cost of its keyword ``keyword``."""
    if card is None:
        raise _fail(path, data, "each_card: {card_mana} needs the card's definition", "each_card")
    if keyword:
        named = [a for a in card.abilities if a.kind == "activated" and a.name == keyword]
        if keyword in card.keywords:
            cost = parse_cost(str(card.keywords[keyword]))
        elif named:  # an activated ability's mana cost, as the engine reads its cost (602.1a)
            cost = costs.parse(str(named[0].spec.get("activated", ""))).mana
        else:
            raise _fail(path, data, f"each_card: {card.name} has no keyword or ability {keyword}", "each_card")
    else:
        cost = card.cost or parse_cost("{0}")
    out = []
    for symbol in cost.symbols:
        if symbol.kind == "generic":
            out.append("{C}" * symbol.amount)
        elif symbol.kind in ("colored", "colorless"):
            out.append(str(symbol))
        else:
            raise _fail(path, data, f"each_card: {{card_mana}} can't pay {symbol} of {card.name}", "each_card")
    return "".join(out)


def _slug(name: str) -> str:
    return "-".join(re.findall(r"[a-z0-9]+", name.lower()))


def _replace(text: str, names: dict[str, str]) -> str:
    for placeholder, value in names.items():
        text = text.replace(placeholder, value)
    return text


def _substitute(node: Any, names: dict[str, str]) -> Any:
    """A copy of the parsed file with the placeholders (``{card}``, ``{card_ru}``) replaced, keeping every
    line number."""
    if isinstance(node, dict):
        out_d = LDict((_replace(k, names), _substitute(v, names)) for k, v in node.items())
        out_d.line = getattr(node, "line", 0)
        out_d.key_lines = {_replace(k, names): n for k, n in getattr(node, "key_lines", {}).items()}
        return out_d
    if isinstance(node, list):
        out_l = LList(_substitute(v, names) for v in node)
        out_l.line = getattr(node, "line", 0)
        out_l.item_lines = list(getattr(node, "item_lines", [0] * len(node)))
        return out_l
    if isinstance(node, str):
        return _replace(node, names)
    return node


def _rulings(
    path: Path, data: LDict, known_rulings: Iterable[str] | RulingCatalog | None
) -> tuple[list[str], list[RulingRef], list[str]]:
    """The IDs a scenario proves: given as IDs, or as official rulings by card and text, resolved (and
    checked) against the knowledge base when there is one."""
    raw = data.get("rulings") or []
    if not isinstance(raw, list):
        raise _fail(path, data, "rulings: expected a list of ruling ids", "rulings")
    lines = getattr(raw, "item_lines", [data.line] * len(raw))
    known: Any = known_rulings  # a catalog or a set is asked as it is (100,000 IDs, or a database): never copied
    if known is not None and not isinstance(known, RulingCatalog | AbstractSet):
        known = set(known)
    catalog = known if isinstance(known, RulingCatalog) else None
    ids: list[str] = []
    refs: list[RulingRef] = []
    unresolved: list[str] = []
    for item, line in zip(raw, lines, strict=True):
        where = f"{path}:{line}"
        if isinstance(item, dict):
            extra = sorted(set(item) - RULING_REF_KEYS)
            if extra or not all(isinstance(item.get(k), str) and item[k].strip() for k in RULING_REF_KEYS):
                raise ScenarioFormatError(
                    f"{where}: an official ruling is {{card: NAME, official: START OF ITS TEXT}}, not {dict(item)!r}"
                )
            ref = RulingRef(item["card"], item["official"], line)
            refs.append(ref)
            if catalog is not None:
                found = catalog.official(ref.card, ref.official)
                if not found:
                    # the card's rulings unknown, or another MTGJSON version without (or rewording) this one: the
                    # proof stays, unlinked to it; `kb verify` warns (the real files' test requires them all)
                    if found is not None:
                        unresolved.append(f"{where}: no official ruling of {ref.card!r} starts with {ref.official!r}")
                    continue
                if len(found) > 1:
                    raise ScenarioFormatError(
                        f"{where}: {len(found)} official rulings ({', '.join(found)}) of {ref.card!r} start with "
                        f"{ref.official!r}: quote more of the text"
                    )
                ids.append(found[0])
            continue
        r = str(item)
        if not RULING_ID.match(r):
            raise ScenarioFormatError(f"{where}: malformed ruling id {r!r}")
        if known is not None and r not in known:
            raise ScenarioFormatError(f"{where}: unknown ruling id {r!r} (not in the knowledge base)")
        ids.append(r)
    if len(set(ids)) != len(ids):
        raise _fail(path, data, "rulings: the same ruling is named twice", "rulings")
    return ids, refs, unresolved


def _build(
    path: Path, data: LDict, card_db: CardDB | None, known_rulings: Iterable[str] | RulingCatalog | None
) -> Scenario:
    unknown = sorted(set(data) - TOP_KEYS)
    if unknown:
        raise _fail(path, data, f"unknown key {unknown[0]!r}", unknown[0])
    for key in ("id", "title", "setup"):
        if key not in data:
            raise _fail(path, data, f"missing {key!r}")
    rulings, refs, unresolved = _rulings(path, data, known_rulings)
    if (rulings or refs) and "rules" in data:
        raise _fail(
            path, data, "a scenario linked to rulings plays under its document's era (and today's): no rules:", "rules"
        )
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
    _check_declared(path, scenario_players(setup), steps, final)
    has_checks = bool(final) or any(s.kind == "expect" or "illegal" in s.params for s in steps)
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
        seed=_seed(path, data),
        ruling_refs=refs,
        unresolved=unresolved,
    )


def _seed(path: Path, data: LDict) -> int | None:
    seed = data.get("seed")
    if seed is not None and not _is_count(seed):
        raise _fail(path, data, f"seed: expected a whole number, not {seed!r}", "seed")
    return seed


def _expect_items(path: Path, raw: Any, parent: Any) -> list[Any]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise _fail(path, parent, "expect must be a list of checks", "expect")
    return list(raw)


def _is_ref_list(v: Any) -> bool:
    return isinstance(v, str) or (isinstance(v, list) and all(isinstance(x, str | list) for x in v))


def _is_count(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


_CARD_VALUES: dict[str, tuple[Any, str]] = {
    "card": (lambda v: isinstance(v, str), "a card name"),
    "ref": (lambda v: isinstance(v, str), "a text"),
    "counters": (lambda v: isinstance(v, dict) and all(_is_count(n) for n in v.values()),
                 'counters such as {"+1/+1": 1}'),
    "tapped": (lambda v: isinstance(v, bool), "true or false"),
    "face_down": (lambda v: isinstance(v, bool), "true or false"),
    "summoning_sick": (lambda v: isinstance(v, bool), "true or false"),
    "token": (lambda v: isinstance(v, bool), "true or false"),
    "damage": (_is_count, "a number"),
    "owner": (lambda v: v in KNOWN_PLAYERS, "a player"),
    "attached_to": (lambda v: isinstance(v, str), "a card ref"),
    "chosen": (lambda v: isinstance(v, str), "an anchor word such as Khans"),
}


def _check_players(path: Path, setup: dict[str, Any]) -> list[str]:
    """``players: [alice, bob, carol]`` (turn order) or ``variant: two_headed_giant`` with ``teams``."""
    if "players" in setup:
        raw = setup["players"]
        if not (isinstance(raw, list) and len(raw) >= 2 and all(p in KNOWN_PLAYERS for p in raw)):
            raise _fail(path, setup, f"players: expected two or more of {', '.join(KNOWN_PLAYERS)}, not {raw!r}",
                        "players")
    variant = setup.get("variant")
    if variant is not None and variant not in VARIANTS:
        raise _fail(path, setup, f"variant: unknown {variant!r}; known: {', '.join(sorted(VARIANTS))}", "variant")
    teams = setup.get("teams")
    if (variant is None) != (teams is None):
        raise _fail(path, setup, "teams: a Two-Headed Giant game (variant: two_headed_giant) declares its teams, "
                    "such as [[alice, carol], [bob, dave]]", "teams" if teams is not None else "variant")
    if teams is not None:
        lists = isinstance(teams, list) and all(isinstance(t, list) for t in teams)
        sizes = {len(t) for t in teams} if lists else set()
        known = lists and all(p in KNOWN_PLAYERS for t in teams for p in t)
        if len(teams) != 2 or len(sizes) != 1 or min(sizes) < 2 or not known:
            raise _fail(path, setup, "teams: Two-Headed Giant is two teams of equally many players (rules 810.1, "
                        f"810.11), such as [[alice, carol], [bob, dave]], not {teams!r}", "teams")
        if "players" in setup:
            raise _fail(path, setup, "players: the teams give the players and their turn order", "players")
    players = scenario_players(setup)
    if len(set(players)) != len(players):
        raise _fail(path, setup, f"a player is declared twice: {players!r}", "teams" if teams else "players")
    return players


def _check_declared(path: Path, players: list[str], steps: list[Step], final: list[expect.Expectation]) -> None:
    """Every player a step, a choice or an expectation names is one the setup declared."""
    def bad(name: Any, line: int | str) -> None:
        if name in KNOWN_PLAYERS and name not in players:
            raise ScenarioFormatError(f"{path}:{line}: {name!r} is not a player of this game ({', '.join(players)})")

    for step in steps:
        bad(step.params.get("by"), step.line or 1)
        for choice in step.params.get("choices", []) + step.params.get("choose", []):
            bad(choice.player, choice.where.rpartition(":")[2])
        for exp in step.params.get("expect", []):
            for key in exp.value if isinstance(exp.value, dict) else ([exp.value] if exp.kind == "winner" else []):
                bad(key, exp.where.rpartition(":")[2])
    for exp in final:
        for key in exp.value if isinstance(exp.value, dict) else ([exp.value] if exp.kind == "winner" else []):
            bad(key, exp.where.rpartition(":")[2])


def _check_setup(path: Path, setup: Any, db: CardDB) -> None:
    if not isinstance(setup, dict):
        raise _fail(path, setup, "setup must be a mapping")
    players = _check_players(path, setup)
    for key in setup:
        if key not in SETUP_KEYS and key not in players:
            raise _fail(path, setup, f"unknown setup key {key!r}" + (
                " (a player not declared in players: or teams:)" if key in KNOWN_PLAYERS else ""), key)
    if setup.get("step", "main1") not in STEPS:
        raise _fail(path, setup, f"unknown step {setup.get('step')!r}; known: {', '.join(STEPS)}", "step")
    for key in ("active", "priority"):
        if key in setup and setup[key] not in players:
            raise _fail(path, setup, f"{key}: expected one of {', '.join(players)}, not {setup[key]!r}", key)
    if "turn" in setup and not (_is_count(setup["turn"]) and setup["turn"] > 0):
        raise _fail(path, setup, f"turn: expected a turn number, not {setup['turn']!r}", "turn")
    if "teams" in setup:
        for team in setup["teams"]:
            lives = {setup[p]["life"] for p in team if isinstance(setup.get(p), dict)
                     and _is_count(setup[p].get("life"))}
            if len(lives) > 1:
                raise _fail(path, setup, "life: a team's players share one life total (rule 810.4), "
                            f"not {sorted(lives)}", team[0])
    for player in players:
        zones = setup.get(player) or {}
        if not isinstance(zones, dict):
            raise _fail(path, setup, f"{player} must be a mapping", player)
        for key in zones:
            if key not in PLAYER_KEYS:
                raise _fail(path, zones, f"unknown key {key!r} for {player}; known: {', '.join(sorted(PLAYER_KEYS))}",
                            key)
        for key in ("life", "poison"):
            if key in zones and not _is_count(zones[key]):
                raise _fail(path, zones, f"{player}.{key}: expected a number, not {zones[key]!r}", key)
        if "mana" in zones and not isinstance(zones["mana"], str):
            raise _fail(path, zones, f"{player}.mana: expected mana such as \"{{R}}{{R}}\", not {zones['mana']!r}",
                        "mana")
        for zone in ("hand", "battlefield", "graveyard", "library", "exile"):
            cards = zones.get(zone) or []
            if not isinstance(cards, list):
                raise _fail(
                    path, zones, f"{player}.{zone}: expected a list of cards such as [{cards!r}], not {cards!r}", zone
                )
            for item in cards:
                name = item if isinstance(item, str) else item.get("card") if isinstance(item, dict) else None
                if isinstance(item, dict):
                    bad = sorted(set(item) - CARD_KEYS)
                    if bad:
                        raise _fail(path, item, f"unknown card key {bad[0]!r}; known: {', '.join(sorted(CARD_KEYS))}",
                                    bad[0])
                    for key, (ok, expected) in _CARD_VALUES.items():
                        if key in item and not ok(item[key]):
                            raise _fail(path, item, f"{key}: expected {expected}, not {item[key]!r}", key)
                if name is None or str(name) not in db:
                    raise _fail(
                        path,
                        item if isinstance(item, dict) else cards,
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
    if "by" in raw and raw["by"] not in KNOWN_PLAYERS:
        raise _fail(path, raw, f"unknown player {raw['by']!r}", "by")
    _check_step_values(path, raw, kind)
    params = dict(raw)
    if kind == "expect":
        params["expect"] = [expect.parse(path, item) for item in _expect_items(path, raw["expect"], raw)]
    if kind == "choose":
        params["choose"] = [_parse_choice(path, c) for c in _listify(raw["choose"])]
    if "choices" in raw:
        params["choices"] = [_parse_choice(path, c) for c in _listify(raw["choices"])]
    return Step(kind, params, line)


# Each action's own value and each modifier: (test, what is expected).
_ACTION_VALUES: dict[str, tuple[Any, str]] = {
    "cast": (lambda v: isinstance(v, str), "a card ref"),
    "activate": (lambda v: isinstance(v, str), "a card ref"),
    "mana": (lambda v: isinstance(v, str), "a card ref"),
    "play_land": (lambda v: isinstance(v, str), "a card ref"),
    "turn_face_up": (lambda v: isinstance(v, str), "a card ref"),
    "attack": (lambda v: isinstance(v, dict) and all(isinstance(t, str) for t in v.values()),
               "a mapping {ATTACKER: bob | PLANESWALKER}"),
    "block": (lambda v: isinstance(v, dict) and all(_is_ref_list(t) for t in v.values()),
              "a mapping {BLOCKER: ATTACKER | [ATTACKERS]}"),
    "pass": (lambda v: v is True or v is None, "nothing"),
    "resolve": (lambda v: v is True or v is None or v == "all" or (_is_count(v) and v > 0), "N or all"),
    "advance": (lambda v: v in STEPS, "a step (" + ", ".join(STEPS) + ")"),
}
_MODIFIER_VALUES: dict[str, tuple[Any, str]] = {
    "targets": (_is_ref_list, "a list of player ids or card refs"),
    "mode": (lambda v: _is_count(v) or (isinstance(v, list) and all(_is_count(m) for m in v)), "N or [N, M]"),
    "x": (_is_count, "a number"),
    "divide": (lambda v: _is_count(v) or (isinstance(v, list) and all(_is_count(m) for m in v)), "[N, M, ...]"),
    "pay": (lambda v: isinstance(v, str), 'mana such as "{B}{R}"'),
    "ability": (lambda v: isinstance(v, str) or _is_count(v), "an ability name or its 1-based index"),
    "alternative": (lambda v: isinstance(v, str), "the name of an alternative cost"),
    "conspire": (lambda v: isinstance(v, list), "[REF, REF] or [[REF, REF], ...]"),
    "face_down": (lambda v: isinstance(v, bool), "true or false"),
    "without_paying": (lambda v: isinstance(v, bool), "true or false"),
    "half": (lambda v: isinstance(v, str), "the name of a half of a split card"),
    "via": (lambda v: v in ("morph", "mana_cost"), "morph or mana_cost"),
    "note": (lambda v: isinstance(v, str), "a text"),
    "hybrid": (lambda v: isinstance(v, list | str), "a list such as [G, R, \"2\"]"),
    "phyrexian": (lambda v: all(isinstance(a, str) and (a.lower() == "life" or (len(a) == 1 and a.upper() in "WUBRG"))
                                for a in (v if isinstance(v, list) else [v])),
                  "a list such as [life, W]: one answer per Phyrexian symbol, life or a colour of it"),
    "delve": (_is_ref_list, "a list of card refs in your graveyard"),
    "pay_with": (_is_ref_list, "a list of permanents whose mana abilities pay a cost to attack or block"),
    "reveal": (lambda v: isinstance(v, str) or _is_ref_list(v), "the ref of a card in your hand to reveal"),
}


def _check_step_values(path: Path, raw: dict[str, Any], kind: str) -> None:
    """Wrong shapes are load errors naming what was expected, never a silent default mid-game."""
    if kind in _ACTION_VALUES:
        ok, expected = _ACTION_VALUES[kind]
        if not ok(raw[kind]):
            raise _fail(path, raw, f"{kind}: expected {expected}, not {raw[kind]!r}", kind)
    for key, (ok, expected) in _MODIFIER_VALUES.items():
        if key in raw and not ok(raw[key]):
            raise _fail(path, raw, f"{key}: expected {expected}, not {raw[key]!r}", key)
    if "illegal" in raw:
        rule = raw["illegal"]
        if not isinstance(rule, str) or not RULE_NUMBER.match(rule):
            raise _fail(
                path,
                raw,
                "illegal: names the Comprehensive Rules number that forbids the action, quoted, e.g. "
                f'illegal: "702.37e" (not {rule!r})',
                "illegal",
            )


def _listify(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else [value]


def _parse_choice(path: Path, raw: Any) -> Choice:
    if not isinstance(raw, dict) or "kind" not in raw or "value" not in raw:
        raise ScenarioFormatError(f"{path}:{line_of(raw, None, 1)}: a choice needs kind and value")
    bad = sorted(set(raw) - {"kind", "value", "player", "source"})
    if bad:
        raise _fail(path, raw, f"unknown choice key {bad[0]!r}", bad[0])
    if raw["kind"] not in CHOICE_KINDS:
        raise _fail(path, raw, f"unknown decision {raw['kind']!r}; known: {', '.join(sorted(CHOICE_KINDS))}", "kind")
    if raw.get("player") is not None and raw["player"] not in KNOWN_PLAYERS:
        raise _fail(path, raw, f"unknown player {raw['player']!r}", "player")
    value = raw["value"]
    if raw["kind"] == "shuffle" and not (
        isinstance(value, list) or (isinstance(value, dict) and set(value) == {"seed"} and _is_count(value["seed"]))
    ):
        raise _fail(path, raw, f"shuffle: expected [REF, ...] (top first) or {{seed: N}}, not {value!r}", "value")
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
    players = scenario_players(setup)
    game = Game(players, scenario.options)
    if setup.get("teams"):
        teams.make_teams(game, [tuple(str(p) for p in t) for t in setup["teams"]])
    game.active = str(setup.get("active", players[0]))
    game.step = str(setup.get("step", "main1"))
    game.turn = int(setup.get("turn", 1))
    game.seed = scenario.seed
    refs: dict[str, Any] = {}
    pending_attach: list[tuple[Any, str]] = []
    for player in players:
        zones = setup.get(player) or {}
        p = game.players[player]
        if "life" in zones or p.team is None:
            p.life = int(zones.get("life", 20))
        if "poison" in zones:
            p.poison = int(zones["poison"])
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
                obj.chosen = str(spec["chosen"]) if "chosen" in spec else None
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
    return play(scenario, card_db)[1]


def play(scenario: Scenario, card_db: CardDB | None = None) -> tuple[Game | None, ScenarioResult]:
    """The scenario played, with the final game (None when the setup itself fails): for comparing the final
    state with another engine's."""
    db = (card_db or CardDB()).with_extra(scenario.cards)
    result = ScenarioResult(scenario, passed=False)
    try:
        game = build_game(scenario, db)
    except EngineError as exc:
        result.failures.append(f"{scenario.where}: setup: {exc}")
        return None, result
    for step in scenario.steps:
        where = f"{scenario.path}:{step.line}"
        try:
            if not _run_step(game, step, result, where):
                result.stopped_at = result.failures[-1] if result.failures else where
                break
        except DecisionMissing as exc:
            result.failures.append(f"{where}: нескриптованное решение: {exc}")
            result.stopped_at = result.failures[-1]
            break
        except IllegalAction as exc:
            result.failures.append(f"{where}: недопустимое действие: {exc}")
            result.stopped_at = result.failures[-1]
            break
        except ScriptError as exc:
            result.failures.append(f"{where}: ошибка сценария: {exc}")
            result.stopped_at = result.failures[-1]
            break
    else:
        for check in scenario.expectations:
            result.checks += 1
            _record(result, expect.evaluate(game, check))
        for choice in [c for c in game.choices if not game.options.has_decision(c.kind)]:
            what = ERA_DECISIONS[choice.kind][1]
            game.log(f"Заготовленное решение ({what}) не понадобилось: по правилам этой эпохи его не принимают")
            game.choices.remove(choice)
        if game.choices:
            left = ", ".join(f"{c.kind} ({c.where})" for c in game.choices)
            result.failures.append(f"{scenario.where}: скриптованные решения не понадобились: {left}")
    game.log("Итоговое состояние:")
    game.log_lines.extend("  " + line for line in narr.describe_state(game))
    result.log = game.log_lines
    result.passed = not result.failures and result.checks > 0
    if result.checks == 0 and not result.failures:
        result.failures.append(f"{scenario.where}: ни одна проверка не выполнена")
    return game, result


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
    if "illegal" in params:
        expected = params["illegal"]
        saved = copy.deepcopy(game)
        game.choices.extend(params.get("choices", []))
        result.checks += 1
        try:
            actions.perform(game, step.kind, params.get("by"), params)
        except IllegalAction as exc:
            outcome = expect.rejected(game, step.kind, params, exc, where, expected)
            if not outcome.passed:  # rejected, but by another rule: not the proof the scenario claims
                _record(result, [outcome])
                return False
            saved.log(narr.describe_attempt(game, step.kind, params, exc))
            result.checked.append(outcome)
            game.__dict__.update(saved.__dict__)
            return True
        _record(result, [expect.rejected(saved, step.kind, params, None, where, expected)])  # it was done
        return False
    game.choices.extend(params.get("choices", []))
    actions.perform(game, step.kind, params.get("by"), params)
    return True
