"""``kb search`` and ``kb index`` through typer's CliRunner, with KB_BUILD_DIR in a tmp dir."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from kb.cli import app

runner = CliRunner()


def test_search_json_shape(kb_dir: Path) -> None:
    result = runner.invoke(app, ["search", "может ли мироходец атаковать", "--json", "--limit", "2"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["query"] == "может ли мироходец атаковать"
    assert payload["total"] >= 1 and len(payload["results"]) <= 2
    first = payload["results"][0]
    assert first["id"] == "lrw/planeswalker/1"
    assert first["kind"] == "ruling" and first["lang"] == "ru" and first["document"] == "lrw"
    assert first["section"] == "Тип карты: Мироходец"
    assert first["text"].startswith("Мироходцы не являются существами")
    assert isinstance(first["score"], float)


def test_search_terminal_output_names_id_section_and_show_hint(kb_dir: Path) -> None:
    result = runner.invoke(app, ["search", "упорство фишка", "--set", "shm", "--kind", "ruling"])
    assert result.exit_code == 0, result.output
    assert "shm/persist/1" in result.stdout
    assert "Упорство" in result.stdout
    assert "kb show shm/persist/1" in result.stdout


def test_search_reports_typo_correction(kb_dir: Path) -> None:
    result = runner.invoke(app, ["search", "мироходиц"])
    assert result.exit_code == 0, result.output
    assert "мироходец" in result.stdout and "мироходиц" in result.stdout


def test_nothing_found_is_not_an_error(kb_dir: Path) -> None:
    result = runner.invoke(app, ["search", "zzzzqqq", "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["total"] == 0


def test_bad_filter_is_a_one_line_error(kb_dir: Path) -> None:
    result = runner.invoke(app, ["search", "жетон", "--set", "XYZ"])
    assert result.exit_code == 1
    assert "unknown set" in result.output


def test_search_without_knowledge_base_says_what_to_run(build_dir: Path) -> None:
    result = runner.invoke(app, ["search", "жетон"])
    assert result.exit_code == 1
    assert "kb ingest" in result.output


def test_index_builds_then_reports_up_to_date_then_rebuilds(kb_dir: Path) -> None:
    first = json.loads(runner.invoke(app, ["index", "--json"]).stdout)
    assert first["built"] is True and first["entries"] > 10 and first["bytes"] > 0
    second = json.loads(runner.invoke(app, ["index", "--json"]).stdout)
    assert second["built"] is False and second["directory"] == first["directory"]
    third = json.loads(runner.invoke(app, ["index", "--rebuild", "--json"]).stdout)
    assert third["built"] is True and third["directory"] != first["directory"]
    text = runner.invoke(app, ["index"])
    assert text.exit_code == 0 and "индекс актуален" in text.stdout


def test_filters_through_the_command_line(kb_dir: Path) -> None:
    result = runner.invoke(
        app, ["search", "кладбище", "--mechanic", "persist", "--card", "Murderous Redcap", "--kind", "ruling",
              "--lang", "ru", "--set", "SHM", "--json"],
    )
    assert result.exit_code == 0, result.output
    found = {r["id"] for r in json.loads(result.stdout)["results"]}
    assert found == {"shm/persist/1", "shm/persist/2"}
