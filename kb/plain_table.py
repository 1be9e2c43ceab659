"""rich's table layout for one-line plain-text cells, without importing ``rich.table`` (~0.6 ms a row).

``kb.plain.PlainTable`` draws with this what ``rich.table.Table`` (heavy-head box, padding 1, no fixed
widths, ``expand`` off, overflow "ellipsis") prints uncoloured, including a table wider than the console.
The column widths are rich's (``Table._calculate_column_widths``): each column's measured maximum, then
``_collapse_widths`` narrowing the widest wrappable columns (not those with ``no_wrap``), then
``ratio_reduce`` evenly as a last resort, then the columns measured again at their widths. Each cell is
wrapped as ``Text.wrap`` wraps it at that width (words moved to the next line, a word too long for the
column cut with "…", justified left or right), the rows' lines aligned top (the header's bottom). What it
cannot draw exactly (a column narrower than its padding plus one cell, a cell with a newline, a tab, a
control character or an emoji code) is ``None``: ``kb.plain.PlainConsole`` then hands the table to rich.
``tests/test_plain_table.py`` compares the two on generated tables.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from kb.cells import cell_len, divide_line, set_cell_size, wrapped

PADDING = 2  # one space each side of a cell
_UNSAFE = re.compile(r"[\x00-\x1f\x7f]|:\S*?:")  # newline, tab, control codes; emoji codes (``rich.emoji``)
_TRAILING_BLANKS = re.compile(r"\s+$")  # ``rich.text._re_whitespace``


def ratio_reduce(total: int, ratios: list[int], maximums: list[int], values: list[int]) -> list[int]:
    """``rich._ratio.ratio_reduce``: take ``total`` away from ``values`` in proportion to ``ratios``."""
    ratios = [ratio if maximum else 0 for ratio, maximum in zip(ratios, maximums, strict=True)]
    total_ratio = sum(ratios)
    if not total_ratio:
        return values[:]
    remaining = total
    result: list[int] = []
    for ratio, maximum, value in zip(ratios, maximums, values, strict=True):
        if ratio and total_ratio > 0:
            distributed = min(maximum, round(ratio * remaining / total_ratio))
            result.append(value - distributed)
            remaining -= distributed
            total_ratio -= ratio
        else:
            result.append(value)
    return result


def collapse_widths(widths: list[int], wrapable: list[bool], max_width: int) -> list[int]:
    """``rich.table.Table._collapse_widths``: narrow the widest wrappable columns first."""
    total = sum(widths)
    excess = total - max_width
    if not any(wrapable):
        return widths
    while total and excess > 0:
        widest = max(width for width, wraps in zip(widths, wrapable, strict=True) if wraps)
        second = max(width if wraps and width != widest else 0 for width, wraps in zip(widths, wrapable, strict=True))
        difference = widest - second
        ratios = [1 if width == widest and wraps else 0 for width, wraps in zip(widths, wrapable, strict=True)]
        if not any(ratios) or not difference:
            break
        widths = ratio_reduce(excess, ratios, [min(excess, difference)] * len(widths), widths)
        total = sum(widths)
        excess = total - max_width
    return widths


def _measured(longest: int, max_width: int) -> int:
    """``Table._measure_column(...).maximum`` of a column whose longest cell is ``longest`` cells wide
    (``Padding.__rich_measure__`` around ``Text.__rich_measure__``, clamped to ``max_width``)."""
    if max_width < 1:
        return 0
    if max_width - PADDING < 1:
        return max_width
    return min(longest + PADDING, max_width)


def column_widths(longest: Sequence[int], wrapable: list[bool], max_width: int) -> list[int]:
    """``Table._calculate_column_widths`` (padding included, borders not) for ``max_width`` cells."""
    widths = [_measured(n, max_width) or 1 for n in longest]
    if sum(widths) > max_width:
        widths = collapse_widths(widths, wrapable, max_width)
        if sum(widths) > max_width:  # the last resort: every column narrowed evenly
            widths = ratio_reduce(sum(widths) - max_width, [1] * len(widths), widths, widths)
        widths = [_measured(n, width) or 0 for n, width in zip(longest, widths, strict=True)]
    return widths


def cell_lines(text: str, size: int, right: bool, wrap: bool = True) -> list[str]:
    """A one-line cell at ``size`` cells: ``Text.wrap`` with overflow "ellipsis" (``wrap`` off: ``no_wrap``, one
    line), justified left or right, every line exactly ``size`` cells."""
    if not wrap or cell_len(text) <= size:
        pieces = [text]
    else:
        offsets = [0, *divide_line(text, size, fold=False), len(text)]
        pieces = []
        for start, end in itertools.pairwise(offsets):
            piece = text[start:end]
            if len(piece) > size and (blanks := _TRAILING_BLANKS.search(piece)):  # ``Text.rstrip_end``
                piece = piece[: len(piece) - min(len(blanks.group(0)), len(piece) - size)]
            pieces.append(piece)
    lines = []
    for piece in pieces:
        if right:
            piece = piece.rstrip()
        length = cell_len(piece)
        if length > size:  # ``Text.truncate(overflow="ellipsis")``
            piece = set_cell_size(piece, size - 1) + "…"
            length = size
        pad = " " * (size - length)
        lines.append(pad + piece if right else piece + pad)
    return lines


def draw(
    title: str,
    header: list[str],
    body: list[list[str]],
    right: list[bool],
    sections: set[int],
    size: int,
    wrapable: list[bool] | None = None,
) -> list[str] | None:
    """The table's lines as rich prints them on a console ``size`` cells wide (``None``: ask rich).

    ``header`` and ``body`` are plain text (markup already resolved); ``right``: the columns justified right;
    ``sections``: body rows with a rule above them (``Table.add_section`` before them); ``wrapable``: the
    columns without ``no_wrap`` (default: all).
    """
    wraps = wrapable if wrapable is not None else [True] * len(header)
    texts = [header, *body]
    if any(_UNSAFE.search(text) for row in texts for text in row) or _UNSAFE.search(title.replace("\n", " ")):
        return None
    longest = [max(cell_len(text) for text in column) for column in zip(*texts, strict=True)]
    widths = column_widths(longest, wraps, size - (len(header) + 1))
    if any(width < PADDING + 1 for width in widths):
        return None
    total = sum(widths) + len(widths) + 1
    drawn = [line + " " * (total - cell_len(line)) for line in wrapped(title, total)] if title else []

    def rule(left: str, fill: str, middle: str, end: str) -> str:
        return left + middle.join(fill * width for width in widths) + end

    def row(cells: list[str], bar: str, bottom: bool) -> list[str]:
        rendered = [
            cell_lines(text, width - PADDING, flush, wrap)
            for text, width, flush, wrap in zip(cells, widths, right, wraps, strict=True)
        ]
        height = max(len(lines) for lines in rendered)
        for width, lines in zip(widths, rendered, strict=True):
            blank = [" " * (width - PADDING)] * (height - len(lines))
            lines[:] = blank + lines if bottom else lines + blank
        return [bar + bar.join(f" {line} " for line in line_cells) + bar for line_cells in zip(*rendered, strict=True)]

    drawn += [rule("┏", "━", "┳", "┓"), *row(header, "┃", bottom=True), rule("┡", "━", "╇", "┩")]
    for number, cells in enumerate(body):
        if number in sections and number:
            drawn.append(rule("├", "─", "┼", "┤"))
        drawn += row(cells, "│", bottom=False)
    drawn.append(rule("└", "─", "┴", "┘"))
    return drawn
