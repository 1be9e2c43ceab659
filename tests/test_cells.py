"""``kb.cells`` answers as ``rich.cells`` / ``rich._wrap`` do: its one-cell characters are one cell in every
Unicode version rich knows, and widths, crops and line breaks agree on generated text."""

from __future__ import annotations

import random
import re

import pytest
from rich._unicode_data._versions import VERSIONS
from rich._wrap import divide_line as richs_divide_line
from rich.cells import cell_len as richs_cell_len
from rich.cells import get_character_cell_size
from rich.cells import set_cell_size as richs_set_cell_size

from kb import cells


def _one_cell_characters() -> list[str]:
    ranges = re.findall(r"(.)-(.)", cells.ONE_CELL, re.DOTALL)
    return [chr(code) for first, last in ranges for code in range(ord(first), ord(last) + 1)]


@pytest.mark.parametrize("version", sorted(VERSIONS))
def test_every_one_cell_character_is_one_cell_in_every_unicode_version(version: str) -> None:
    characters = _one_cell_characters()
    assert len(characters) > 1500 and "—" in characters and "ж" in characters
    assert [c for c in characters if get_character_cell_size(c, version) != 1] == []


def _text(rng: random.Random) -> str:
    alphabet = rng.choice(["abc defg  hij", "абв где  жзий", "«—» … ’-", "漢字 仮名", "a\u0301b ", "x"])
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 120)))


def test_widths_crops_and_breaks_are_richs() -> None:
    rng = random.Random(3)
    simple = 0
    for _ in range(3000):
        text = _text(rng)
        simple += cells.single(text)
        width = rng.randint(1, 40)
        assert cells.cell_len(text) == richs_cell_len(text), text
        assert cells.set_cell_size(text, width) == richs_set_cell_size(text, width), (text, width)
        for fold in (True, False):
            assert cells.divide_line(text, width, fold) == richs_divide_line(text, width, fold), (text, width, fold)
    assert 1000 < simple < 3000  # both paths compared: kb.cells' own and rich's
