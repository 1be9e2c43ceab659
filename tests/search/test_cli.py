"""``kb search`` and ``kb index`` through typer's CliRunner, with KB_BUILD_DIR in a tmp dir."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
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


def test_plain_search_output_is_rich_output_without_colour(
    kb_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Off a terminal ``kb search`` prints without importing rich's console (``kb.plain``): the same characters."""
    import io

    from rich.console import Console

    from kb import plain
    from kb.commands import search_run
    from kb.search.service import SearchRequest, open_session

    session = open_session()
    queries = ["может ли мироходец атаковать", "мироходиц", "упорство фишка", "как работает мутация на токене",
               "zzzqqq", "упорство жетон " * 30, "{2/B}\tкража"]
    try:
        responses = [session.search(SearchRequest(q)) for q in queries]
    finally:
        session.close()
    for width in (80, 41, 160):
        monkeypatch.setenv("COLUMNS", str(width))
        for response in responses:
            buffer = io.StringIO()
            search_run._print_results(response, Console(file=buffer, width=width, color_system=None))
            search_run._print_results(response, plain.PlainConsole())
            assert capsys.readouterr().out == buffer.getvalue(), (width, response.query)
    assert any("  оценка" in line for line in buffer.getvalue().splitlines())
