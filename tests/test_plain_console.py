"""``kb.plain.PlainConsole`` prints exactly what rich's console prints when it prints no colour: the quick
commands (``kb show``) use it off a terminal so as not to import rich's console (``kb.plain``)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from kb import plain, store
from kb.cli import app
from kb.commands import show as show_cmd

TEXTS = [
    "",
    "короткая строка",
    "Если у перманента есть несколько способностей Упорства, то каждая из них срабатывает отдельно, но только "
    "первая из них дает эффект. Если первое срабатывание возвращает карту в игру, то при последующих ничего.",
    "\nс новой строки\n\nи пустой между ними\n",
    "слово" * 30 + " хвост",  # longer than a line: folded
    "пробелы в конце строки, которые выходят за ширину                                                     ",
    "[bold]Разъяснение[/] (ru): [dim](shm/persist)[/] и \\[не тег] и [1] и a[b]c",
    "\\\\[bold]два слеша[/]",
    "эмодзи :thumbs_up: и не эмодзи :нет: и 10:30:00",
    "табуляция\tи\tещё\tодна",
    "управляющие\r символы\x07 уходят",
    "«Кавычки» — тире, {2/B}{T} символы маны, −1/−1 и 702.36a",
]


def _rich(text: str, width: int, **options: Any) -> str:
    out = io.StringIO()
    Console(file=out, width=width).print(text, **options)
    return out.getvalue()


def _plain(text: str, width: int, monkeypatch: pytest.MonkeyPatch, **options: Any) -> str:
    monkeypatch.setenv("COLUMNS", str(width))
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    plain.PlainConsole().print(text, **options)
    return out.getvalue()


@pytest.mark.parametrize("width", [20, 80])
@pytest.mark.parametrize("markup", [True, False])
@pytest.mark.parametrize("text", TEXTS)
def test_print_is_richs_uncoloured_output(text: str, width: int, markup: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _plain(text, width, monkeypatch, markup=markup) == _rich(text, width, markup=markup)
    assert _plain(text, width, monkeypatch, soft_wrap=True) == _rich(text, width, soft_wrap=True)


@pytest.mark.parametrize("width", [30, 80])
@pytest.mark.parametrize("title", ["[bold]shm/persist/3[/]  (разъяснение)", "x", "очень длинный заголовок " * 5])
def test_rule_is_richs(title: str, width: int, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = io.StringIO()
    Console(file=expected, width=width).rule(title)
    monkeypatch.setenv("COLUMNS", str(width))
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    plain.PlainConsole().rule(title)
    assert out.getvalue() == expected.getvalue()


def test_the_console_is_plain_off_a_terminal_and_richs_on_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    assert plain.is_plain(io.StringIO())
    monkeypatch.setenv("FORCE_COLOR", "1")  # rich would colour: so does the command
    assert not plain.is_plain(io.StringIO())
    assert not isinstance(plain.console(), plain.PlainConsole)


VERDICT = {
    "id": "",
    "status": "verified",
    "scenarios": ["a"],
    "era": "2008-04-04",
    "currency": {
        "status": "obsolete",
        "label_ru": "устарело с 2018",
        "explanation_ru": "правило изменилось: " + "очень длинное объяснение " * 6,
        "changes": [{"rules_now": ["306.7", "120.3c"]}],
    },
    "results": [{"scenario": "shm-persist-twice", "title": "Две способности [Упорства] " * 4, "passed": True}],
    "today_results": [{"scenario": "shm-persist-twice", "title": "", "passed": False}],
}


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    build = tmp_path_factory.mktemp("build")
    result = CliRunner().invoke(app, ["ingest", "--quiet"], env={"KB_BUILD_DIR": str(build)})
    assert result.exit_code == 0, result.output
    return build


def test_every_kind_of_entry_prints_the_same_plain_as_through_rich(
    stored: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KB_BUILD_DIR", str(stored))
    monkeypatch.setattr(show_cmd, "_verification", lambda kb, entry_id: {**VERDICT, "id": entry_id})
    monkeypatch.setattr("kb.card_view._verdicts", lambda kb, ids: {i: {**VERDICT, "id": i} for i in ids})
    kb = store.load(stored / "kb.sqlite")
    by_type: dict[str, list[str]] = {}
    for entry in kb.entries:  # the longest texts of each type and kind: wrapping, markup-looking text
        by_type.setdefault(f"{entry.entry_type}/{getattr(entry, 'kind', '')}", []).append(entry.id)
    keys = [ids[i] for ids in by_type.values() for i in sorted({0, len(ids) // 2, len(ids) - 1})]
    keys += sorted((e.id for e in kb.rulings), key=lambda i: -len(kb.by_id[i].text))[:5]  # type: ignore[attr-defined]
    keys += ["Кровожадного Красного Колпака", "702.36a", "shm/persist/33"]
    assert len(keys) > 25
    runner = CliRunner()
    for key in keys:
        plain_run = runner.invoke(app, ["show", key])
        with monkeypatch.context() as patched:
            patched.setattr(plain, "is_plain", lambda stream: False)  # rich's console, uncoloured (not a tty)
            rich_run = runner.invoke(app, ["show", key])
        assert plain_run.exit_code == rich_run.exit_code, key
        assert plain_run.stdout == rich_run.stdout, key
        assert plain_run.stderr == rich_run.stderr, key
        assert plain_run.stdout or plain_run.stderr


def _table(kind: type, rows: int, wide: bool = False) -> Any:
    table = kind(title="Документов: 3", title_justify="left")
    table.add_column("документ")
    for header in ("разделы", "карты", "предупреждения" * (4 if wide else 1)):
        table.add_column(header, justify="right")
    for n in range(rows):
        table.add_row(f"shm-{n}", str(10**n), "[bold]7[/]", "0")
    table.add_section()
    table.add_row("[bold]итого[/]", "1", "22", "333")
    return table


@pytest.mark.parametrize(("rows", "wide"), [(0, False), (1, False), (12, False), (3, True)])
def test_a_table_is_drawn_as_rich_draws_it(rows: int, wide: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    from rich.table import Table

    expected = io.StringIO()
    Console(file=expected, width=80).print(_table(Table, rows, wide))
    monkeypatch.setenv("COLUMNS", "80")
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    plain.PlainConsole().print(_table(plain.PlainTable, rows, wide))  # too wide: rich lays it out
    assert out.getvalue() == expected.getvalue()


def test_stats_prints_the_same_plain_as_through_rich(stored: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KB_BUILD_DIR", str(stored))
    runner = CliRunner()
    plain_run = runner.invoke(app, ["stats"])
    with monkeypatch.context() as patched:
        patched.setattr(plain, "is_plain", lambda stream: False)
        rich_run = runner.invoke(app, ["stats"])
    assert plain_run.exit_code == rich_run.exit_code == 0
    assert plain_run.stdout == rich_run.stdout
    assert "итого" in plain_run.stdout and "shm" in plain_run.stdout
