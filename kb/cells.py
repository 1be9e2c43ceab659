"""``rich.cells`` and ``rich._wrap.divide_line`` for text whose every character is one cell wide, without
importing rich (its width tables cost ~2.5 ms of every ``kb show``); other text goes to rich itself. And
``wrapped``: rich's ``Text.wrap`` on them, what ``kb.plain`` and ``kb.plain_table`` print.

One cell: rich's own single-cell ranges (``rich.cells._SINGLE_CELL_UNICODE_RANGES``: Latin, Greek,
Cyrillic, box drawing, Braille) and General Punctuation's dashes, quotes, bullets and ellipsis, which the
documents use throughout ("—", "’", "…"); every one of them is one cell in each Unicode version rich
knows (``tests/test_cells.py``). For such text rich's functions reduce to what is written here: the
length is the width, a fold is a slice.
"""

from __future__ import annotations

import itertools
import re

ONE_CELL = "\x20-\x7e\xa0-\xac\xae-\u02ff\u0370-\u0482\u2010-\u2027\u2030-\u205e\u2500-\u25fc\u2800-\u28ff"
_SINGLE = re.compile(f"[{ONE_CELL}]*")
_WORD = re.compile(r"\s*\S+\s*")  # ``rich._wrap.re_word``


def single(text: str) -> bool:
    """Every character of ``text`` is one cell wide."""
    return _SINGLE.fullmatch(text) is not None


def cell_len(text: str) -> int:
    """``rich.cells.cell_len``."""
    if single(text):
        return len(text)
    from rich.cells import cell_len as richs

    return richs(text)


def set_cell_size(text: str, total: int) -> str:
    """``rich.cells.set_cell_size``: cropped or padded with spaces to ``total`` cells."""
    if single(text):
        return text + " " * (total - len(text)) if len(text) < total else text[:total]
    from rich.cells import set_cell_size as richs

    return richs(text, total)


def divide_line(text: str, width: int, fold: bool = True) -> list[int]:
    """``rich._wrap.divide_line``: the offsets where ``text`` breaks to fit ``width`` cells."""
    if not single(text):
        from rich._wrap import divide_line as richs

        return richs(text, width, fold=fold)
    breaks: list[int] = []
    offset = 0
    for found in _WORD.finditer(text):
        start, word = found.start(), found.group(0)
        length = len(word.rstrip())
        if width - offset >= length:
            offset += len(word)
        elif length > width:
            if fold:
                pieces = [word[i : i + width] for i in range(0, len(word), width)]
                for number, piece in enumerate(pieces):
                    if start:
                        breaks.append(start)
                    if number == len(pieces) - 1:
                        offset = len(piece)
                    else:
                        start += len(piece)
            else:
                if start:
                    breaks.append(start)
                offset = len(word)
        elif offset and start:
            breaks.append(start)
            offset = len(word)
    return breaks


def wrapped(text: str, size: int) -> list[str]:
    """rich's ``Text.wrap`` with its defaults (justify "default", overflow "fold"), as plain lines."""
    lines: list[str] = []
    for line in text.split("\n"):
        if cell_len(line) <= size:
            lines.append(line)
            continue
        offsets = [0, *divide_line(line, size, fold=True), len(line)]
        for start, end in itertools.pairwise(offsets):
            piece = line[start:end]
            if len(piece) > size:  # ``Text.rstrip_end``: trailing blanks beyond the width go
                blanks = len(piece) - len(piece.rstrip())
                piece = piece[: len(piece) - min(blanks, len(piece) - size)]
            if cell_len(piece) > size:
                piece = set_cell_size(piece, size)
            lines.append(piece)
    return lines
