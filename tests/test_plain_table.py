"""``kb.plain.PlainTable`` draws what rich's ``Table`` prints uncoloured, on generated tables: random column
counts and widths, Cyrillic, ASCII and double-width text, long IDs, right- and left-justified columns,
sections, columns that do not wrap, consoles from 12 to 200 cells: the cases where rich narrows, wraps and
cuts columns."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from rich.console import Console
from rich.table import Table

from kb import plain
from kb.plain_table import collapse_widths, ratio_reduce

ALPHABETS = {
    "ascii": "abcdefghijklmnopqrstuvwxyz0123456789-/",
    "cyrillic": "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
    "wide": "漢字仮名交じり文",  # two cells each: rich's set_cell_size pads a split character
    "digits": "0123456789",
}


def _word(rng: random.Random, longest: int) -> str:
    alphabet = ALPHABETS[rng.choice(list(ALPHABETS))]
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(1, longest)))


def _cell(rng: random.Random) -> str:
    shape = rng.random()
    if shape < 0.1:
        return ""
    if shape < 0.3:  # a long ID: one word wider than its column will be
        return "-".join(_word(rng, 12) for _ in range(rng.randint(2, 5)))
    if shape < 0.4:
        return f"[bold]{_word(rng, 6)}[/]"
    words = [_word(rng, 14) for _ in range(rng.randint(1, 6))]
    text = " ".join(words)
    if rng.random() < 0.1:
        text = "  " + text + "   "  # blanks at the ends: rich strips the right ones of a wrapped line
    return text


def _id(rng: random.Random) -> str:
    """What a column that does not wrap holds in ``kb stats``: a document ID (``lrw-release-notes-12``)."""
    return "-".join(_word(rng, 8) for _ in range(rng.randint(1, 3)))


def _tables(seed: int) -> tuple[Any, Any, int]:
    rng = random.Random(seed)
    columns = rng.randint(1, 8)
    title = rng.choice(["", "Документов: 1166", _cell(rng), " ".join(_word(rng, 10) for _ in range(12))])
    specs = [(_cell(rng) or "x", rng.choice(["left", "right"]), rng.random() < 0.2) for _ in range(columns)]
    rows = [[_id(rng) if no_wrap else _cell(rng) for _, _, no_wrap in specs] for _ in range(rng.randint(0, 12))]
    sections = {rng.randint(0, len(rows)) for _ in range(rng.randint(0, 2))}
    drawn = []
    for kind in (Table, plain.PlainTable):
        table: Any = kind(title=title, title_justify="left")
        for header, justify, no_wrap in specs:
            table.add_column(header, justify=justify, no_wrap=no_wrap)
        for number, row in enumerate(rows):
            if number in sections:
                table.add_section()
            table.add_row(*row)
        drawn.append(table)
    return drawn[0], drawn[1], rng.choice([12, 20, 33, 40, 60, 80, 80, 100, 120, 200])


def _rich(table: Table, width: int) -> str:
    out = io.StringIO()
    Console(file=out, width=width).print(table)
    return out.getvalue()


@pytest.mark.parametrize("seed", range(400))
def test_a_generated_table_is_drawn_as_rich_draws_it(seed: int) -> None:
    rich_table, plain_table, width = _tables(seed)
    drawn = plain_table.lines(width)
    expected = _rich(rich_table, width)
    if drawn is None:  # only when rich leaves a column no cell besides its padding: rich draws it then
        console = Console(width=width)
        options = console.options.update_width(width - rich_table._extra_width)
        assert min(rich_table._calculate_column_widths(console, options)) < 3, (seed, width)
        return
    assert "".join(line + "\n" for line in drawn) == expected, (seed, width)


def test_most_generated_tables_are_drawn_without_rich() -> None:
    """The comparison above is of PlainTable's own drawing for most tables (the rest: consoles of 12 or 20
    cells for up to 8 columns, columns pushed aside by one that does not wrap)."""
    drawn = sum(_tables(seed)[1].lines(_tables(seed)[2]) is not None for seed in range(400))
    assert drawn > 240


def test_the_stats_table_of_a_thousand_documents_is_narrowed_as_rich_narrows_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from kb.commands.show import summary_table

    per_document = {f"lrw-release-notes-{n}": {"sections": n, "cards": 3 * n, "rulings": 10**6 + n}
                    for n in range(1166)}
    monkeypatch.setenv("COLUMNS", "80")
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    table = summary_table("Документов: 1166", per_document, plain_=True)
    assert isinstance(table, plain.PlainTable) and table.lines(80) is not None  # drawn here, not by rich
    plain.PlainConsole().print(table)
    assert out.getvalue() == _rich(summary_table("Документов: 1166", per_document), 80)
    assert max(len(line) for line in out.getvalue().splitlines()) == 80
    assert "│ lrw-release-notes-1165 │" in out.getvalue()  # an ID is never cut: the counts' headers wrap instead


def test_the_reduction_is_richs() -> None:
    from rich._ratio import ratio_reduce as richs_ratio_reduce

    rng = random.Random(7)
    for _ in range(500):
        values = [rng.randint(1, 40) for _ in range(rng.randint(1, 8))]
        ratios = [rng.randint(0, 3) for _ in values]
        maximums = [rng.randint(0, v) for v in values]
        total = rng.randint(0, sum(values))
        assert ratio_reduce(total, ratios, maximums, values) == richs_ratio_reduce(total, ratios, maximums, values)
        limit = rng.randint(1, sum(values) + 5)
        wrapable = [rng.random() < 0.8 for _ in values]
        assert collapse_widths(values, wrapable, limit) == Table._collapse_widths(values, wrapable, limit)
