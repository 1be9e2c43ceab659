"""A proof reads in Russian Magic terminology, with no internal name leaking, wherever a judge reads it.

Every scenario (``data/scenarios/`` and ``tests/engine/external/``) is played; its game log, the checks it made,
the site's proof (``kb.export.proofs``) and the CLI's proof text (``kb verify --scenario``) are scanned for
forbidden forms (wrong Russian terms, leftovers of internal formats) and for identifier-like Latin words: what
remains after removing mana symbols ({R}, {T}), English card names, rule numbers (702.37e, слой 7b) and the
variable X must contain no Latin letter.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kb import verify as kv
from rules_engine.cards import CardDB
from rules_engine.scenario import Scenario, ScenarioResult, load_scenario

ROOT = Path(__file__).resolve().parents[2]
PATHS = sorted((ROOT / "data" / "scenarios").rglob("*.yaml")) + sorted((ROOT / "tests/engine/external").glob("*.yaml"))

# (wrong form, the right one): the documents' own words (data/sources/*.txt)
FORBIDDEN = {
    "поворачивает рубашкой": "face up/down is «переворачивает рубашкой вниз/вверх»; «повернуть» is to tap",
    "поворачивается рубашкой": "«переворачивается рубашкой вверх»",
    "повернуть рубашкой": "«перевернуть рубашкой вниз»",
    "в поле битвы": "«на поле битвы»",
    "в кладбище": "«на кладбище»",
    "(copy)": "a copy is «(копия)»",
    "] ": "a scenario's ref in brackets: copies are numbered «№2»",
}
ALLOWED_WORDS = frozenset({"X"})
RULE_NUMBER = re.compile(r"^\d+(\.\d+)*[a-z]?$")  # 702.37e, the layer 7b
MANA_SYMBOL = re.compile(r"\{[^{}]*\}")
WORD = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_'.\-]*")


def _token_names(node: Any) -> Iterator[str]:
    if isinstance(node, Mapping):
        token = node.get("token")
        if isinstance(token, Mapping) and token.get("name"):
            yield str(token["name"])
        for value in node.values():
            yield from _token_names(value)
    elif isinstance(node, list | tuple):
        for value in node:
            yield from _token_names(value)


@cache
def _played() -> tuple[CardDB, tuple[Scenario, ...], tuple[ScenarioResult, ...], re.Pattern[str]]:
    db = kv.card_db(ROOT / "data")
    scenarios = tuple(load_scenario(p, db) for p in PATHS)
    results = tuple(kv.run_all(scenarios, db).values())
    names = set(db.cards)
    for s in scenarios:
        names |= {c.name for c in s.cards}
    for d in [*db.cards.values(), *(c for s in scenarios for c in s.cards)]:
        for a in d.abilities:
            names |= set(_token_names(a.spec))
    card_names = re.compile("|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)))
    return db, scenarios, results, card_names


def problems(lines: Iterable[str], card_names: re.Pattern[str]) -> list[str]:
    """Every forbidden form and identifier-like Latin word in ``lines``, with the line it is in."""
    found = []
    for line in lines:
        for wrong, right in FORBIDDEN.items():
            if wrong in line:
                found.append(f"{wrong!r} ({right}): {line}")
        text = card_names.sub(" ", MANA_SYMBOL.sub(" ", line))
        for word in WORD.findall(text):
            word = word.rstrip(".'-")
            if re.search(r"[A-Za-z]", word) and word not in ALLOWED_WORDS and not RULE_NUMBER.match(word):
                found.append(f"Latin word {word!r}: {line}")
    return found


def _log_lines() -> list[str]:
    _, _, results, _ = _played()
    return [line for r in results for line in r.log]


def _check_lines() -> list[str]:
    _, _, results, _ = _played()
    return [f"{c.description}: {c.expected} / {c.actual}" for r in results for c in getattr(r, "checked", ())]


def _site_lines() -> list[str]:
    from kb.export import proofs

    db, _, results, _ = _played()
    base = str((ROOT / "data").resolve().parent) + "/"
    lines: list[str] = []
    for result in results:
        proof = proofs._scenario(result, db, base)
        lines += [*proof.setup, *proof.actions, *proof.expectations, *proof.log, *getattr(proof, "cards", ())]
        lines += [f"{c.description}: {c.expected} / {c.actual}" for c in getattr(proof, "checked", ())]
    return lines


def _cli_lines() -> list[str]:
    """The proof text of ``kb verify --scenario``: the indented lines under each scenario's header."""
    from kb.cli import app

    result = CliRunner().invoke(app, ["verify", "--scenario", *map(str, PATHS)], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output[-2000:]
    return [line.strip() for line in result.output.splitlines() if line.startswith("    ")]


SOURCES = {"log": _log_lines, "checks": _check_lines, "site": _site_lines, "cli": _cli_lines}


@pytest.mark.parametrize("where", list(SOURCES))
def test_proof_text_has_no_forbidden_form_or_internal_name(where: str) -> None:
    *_, card_names = _played()
    lines = SOURCES[where]()
    assert len(lines) > 500, f"{where}: only {len(lines)} lines: nothing to scan?"
    found = problems(lines, card_names)
    assert not found, f"{len(found)} problems in {len(lines)} lines ({where}), e.g.:\n" + "\n".join(found[:30])


def test_the_scan_catches_what_it_forbids() -> None:
    *_, card_names = _played()
    bad = [
        "Алиса поворачивает рубашкой вниз «Лучники Гнездовья» (особое действие)",
        "«Медведи-гризли» перемещается из зоны «библиотека» в поле битвы",
        "Алиса активирует способность «counters-vigilance» объекта «Златогривый Аджани»",
        "Эффект (set_subtypes) применяется к «Тестовая Лесная Дриада»",
        "'Ajani Goldmane' — недопустимая цель (creature_or_player)",
        "Разрешается заклинание «Веление Оджутая» [Ojutai's Command (copy)]",
        "Срабатывает способность «etb-damage» объекта «Икслидский Тюремщик»",
        "нет способностей first_strike",
    ]
    assert all(problems([line], card_names) for line in bad), [b for b in bad if not problems([b], card_names)]
    good = [
        "Алиса платит мана-стоимость {1}{R} (мана из пула: {R}{R})",
        "Эффект (установка силы/выносливости, слой 7b) применяется к «Lightning Crafter»",
        "Недопустимое действие отклонено: Алиса пытается разыграть «Шок» — нельзя (правило 702.37e)",
        "«Тестовое Заклинание с X» №2 перемещается из зоны «стек» на кладбище",
    ]
    assert not [g for g in good if problems([g], card_names)]
