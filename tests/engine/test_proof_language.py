"""A proof reads in Russian Magic terminology, with no internal name leaking, wherever a judge reads it.

Every scenario (``data/scenarios/`` and ``tests/engine/external/``) is played; its game log, the checks it made,
the site's proof (``kb.export.proofs``) and the CLI's proof text (``kb verify --scenario``) are scanned for
forbidden forms (wrong Russian terms, leftovers of internal formats) and for identifier-like Latin words: what
remains after removing mana symbols ({R}, {T}), English card names, rule numbers (702.37e, слой 7b) and the
variable X must contain no Latin letter.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kb import verify as kv
from rules_engine.cards import CardDB
from rules_engine.scenario import Scenario, ScenarioResult, load_scenarios

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
# Printed Russian forms with Latin letters: Silumgar's Command (and the DTK release notes, data/sources) print
# «planeswalker-а», Merciless Eviction «planeswalker-ов», Gideon, Champion of Justice «planeswalker-ом», Shifting
# Loyalties' reminder text «… земля и planeswalker являются типами карт»; only those exact forms are allowed, not the
# bare identifier.
PRINTED_FORMS = re.compile(r"planeswalker-(а|ов|ом)\b|(?<=земля и )planeswalker(?= являются типами карт)")
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
    scenarios = tuple(s for p in PATHS for s in load_scenarios(p, db))
    results = tuple(kv.run_all(scenarios, db).values())
    names = set(db.cards)
    for s in scenarios:
        names |= {c.name for c in s.cards}
    definitions = [*db.cards.values(), *(c for s in scenarios for c in s.cards)]
    for d in definitions:
        names |= {face.name for face in (d.back, *d.halves) if face is not None}
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
        text = PRINTED_FORMS.sub(" ", card_names.sub(" ", MANA_SYMBOL.sub(" ", line)))
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
    """The proof text of ``kb verify --scenario``: the indented lines under each scenario's header.

    The knowledge base is ingested first (into a temporary build dir): without it the CLI knows no document dates,
    and the scenarios of old rules would be played under today's.
    """
    from kb.cli import app

    with tempfile.TemporaryDirectory() as build:
        env = {"COLUMNS": "400", "KB_BUILD_DIR": build}
        ingested = CliRunner().invoke(app, ["ingest"], env=env)
        assert ingested.exit_code == 0, ingested.output[-2000:]
        result = CliRunner().invoke(app, ["verify", "--scenario", *map(str, PATHS)], env=env)
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


# -- what a proof shows --------------------------------------------------------------------------------------
def _result(scenario_id: str) -> ScenarioResult:
    _, _, results, _ = _played()
    return next(r for r in results if r.scenario.id == scenario_id)


def test_the_payment_that_decides_frf_manifest_3_is_in_the_log() -> None:
    log = _result("frf-manifest-morph").log
    # the megamorph cost paid with six mana gives the counter; the mana cost paid with four does not
    assert "Алиса платит стоимость Мегаоборотня {5}{G} (мана из пула: {G}{C}{C}{C}{C}{C})" in log
    assert "Алиса платит мана-стоимость {2}{G}{G} (мана из пула: {G}{G}{C}{C})" in log
    assert any(line.startswith("Алиса переворачивает рубашкой вниз") for line in log)


def test_every_cast_says_which_cost_and_which_mana() -> None:
    _, _, results, _ = _played()
    for result in results:
        log = result.log
        for i, line in enumerate(log):
            if " разыгрывает заклинание " in line and "без уплаты" not in line:
                paid = log[i + 1]
                # a spell costing {0} says so: «мана-стоимость {0} (мана не нужна)»
                assert " платит " in paid and ("мана из пула" in paid or "(мана не нужна)" in paid), (
                    result.scenario.id,
                    log[i : i + 2],
                )


def test_a_rejected_action_says_who_tried_what_and_the_rule() -> None:
    from rules_engine import log as narr
    from rules_engine.errors import IllegalAction

    _, scenarios, _, _ = _played()
    scenario = next(s for s in scenarios if s.id == "frf-manifest-morph")
    from rules_engine.scenario import build_game

    db, *_ = _played()
    game = build_game(scenario, db.with_extra(scenario.cards))
    exc = IllegalAction("эту карту нельзя перевернуть рубашкой вниз", "702.37e")
    step = {"turn_face_up": "bow-morph", "by": "alice", "via": "morph"}
    line = narr.describe_attempt(game, "turn_face_up", step, exc)
    assert line.startswith("Недопустимое действие отклонено: Алиса пытается перевернуть рубашкой вниз")
    assert "«Лучники Гнездовья» №2" in line and "за стоимость Оборотня" in line
    assert line.endswith("(правило 702.37e)") and line.count("правило") == 1  # the rule the engine cites, once


def test_rejections_in_the_suite_name_the_attempt() -> None:
    lines = [line for line in _log_lines() if line.startswith("Недопустимое действие отклонено")]
    assert len(lines) > 30
    assert all(" пытается " in line and " — " in line for line in lines), lines[:3]


def test_checks_are_recorded_with_expected_and_actual_on_pass() -> None:
    result = _result("frf-manifest-morph")
    assert result.passed and len(result.checked) == 4 and all(c.passed for c in result.checked)
    pt = [c for c in result.checked if c.description.startswith("сила/выносливость")]
    assert {(c.expected, c.actual) for c in pt} == {("4/5", "4/5"), ("3/4", "3/4")}


def test_a_failing_check_shows_both_values(play: Any) -> None:
    result = play(
        """
        id: t
        title: t
        setup:
          bob: {life: 20}
        expect:
          - life: {bob: 18}
        """
    )
    assert not result.passed
    (check,) = result.checked
    assert (check.description, check.expected, check.actual, check.passed) == ("жизнь Боба", "18", "20", False)
    assert result.failures == [check.failure]


def test_cli_prints_cards_log_and_checks_on_pass_and_json_carries_them() -> None:
    import json

    from kb.cli import app

    path = str(ROOT / "data/scenarios/frf-manifest-morph.yaml")
    text = CliRunner().invoke(app, ["verify", "--scenario", path], env={"COLUMNS": "300"})
    assert text.exit_code == 0, text.output
    assert "Карты этого доказательства:" in text.output
    assert "«Лучники Гнездовья» (Aerie Bowmasters): {2}{G}{G}, Существо" in text.output
    assert "✓ сила/выносливость «Лучники Гнездовья» №2: ожидалось 4/5, на деле 4/5" in text.output
    quiet = CliRunner().invoke(app, ["verify", "--scenario", path, "--no-log"], env={"COLUMNS": "300"})
    assert "Журнал партии" not in quiet.output and "✓ сила/выносливость" in quiet.output
    payload = json.loads(CliRunner().invoke(app, ["verify", "--scenario", path, "--json"]).output)
    (result,) = payload["results"]
    assert len(result["checked"]) == 4 and all(c["passed"] for c in result["checked"])
    assert {c["name"] for c in result["cards"]} == {"Soul Summons", "Aerie Bowmasters"}


def test_a_card_shows_its_text_and_an_invented_card_says_so() -> None:
    from rules_engine import log as narr
    from rules_engine.cards import parse_card

    printed = parse_card(
        "Goblin Test",
        {"name_ru": "Тестовый Гоблин", "cost": "{R}", "type": "Creature — Goblin Warrior", "pt": "1/1",
         "text_ru": "Ускорение", "invented": True},
        "x.yaml:1",
    )
    lines = narr.describe_card(printed)
    head = "«Тестовый Гоблин» (Goblin Test): {R}, Существо — Гоблин Воин, 1/1"
    assert lines[0] == head + " — тестовая карта, не напечатана"
    assert lines[1:] == ["  Ускорение"]
    bare = parse_card("Plain Test", {"name_ru": "Простая", "cost": "{1}", "type": "Legendary Artifact"}, "x.yaml:2")
    assert narr.describe_card(bare) == ["«Простая» (Plain Test): {1}, Легендарный Артефакт"]  # no text: no line


def test_the_site_proof_has_the_same_cards_and_checks_as_the_cli() -> None:
    from kb.export import proofs
    from rules_engine import log as narr

    db, *_ = _played()
    result = _result("frf-manifest-morph")
    proof = proofs._scenario(result, db, str(ROOT) + "/")
    assert list(proof.cards) == narr.describe_cards(kv.proof_cards(result.scenario, db))
    assert [(c.description, c.expected, c.actual) for c in proof.checked] == [
        (c.description, c.expected, c.actual) for c in result.checked
    ]
    assert any("«Лучники Гнездовья» №2" in line for line in proof.expectations)  # numbered as in the log
