"""The same document as text, as a web page (HTML) and as a web archive (Markdown) yields the same entries.

Every seed is rendered by ``htmlify`` the way a web FAQ page has it and parsed through ``from_html`` (or
``from_markdown``) and the structure parser; the entries must equal those of the text form — IDs, kinds,
texts, card fields, rule numbers, rulings, alignment — all but source line numbers, encoding and sha256.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from ingest.entries import ParsedDocument
from ingest.glossary import Glossary, load_glossary
from ingest.lines import from_html, from_markdown
from ingest.manifest import SourceInfo, load_manifest
from ingest.pipeline import parse_path
from tests.ingest.htmlify import blocks_of, to_html, to_markdown

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "data" / "sources"
SEEDS = {
    "lrw": "000_77d666e87a086b03.txt",
    "dtk": "001_0ae9e1ff30605001.txt",
    "gtc": "002_dcd7daab24d9d71a.txt",
    "shm": "003_b683e8ca89d81121.txt",
    "frf": "004_543d1fe2d1771ac5.txt",
}
# Fields that depend on the file's bytes and line numbers, not on what the document says.
_FORMAT_FIELDS = {"source", "sha256", "encoding"}


@cache
def glossary() -> Glossary:
    return load_glossary(ROOT / "data" / "glossary")


@cache
def manifest() -> dict[str, SourceInfo]:
    return load_manifest(SOURCES)


def comparable(parsed: ParsedDocument) -> list[dict[str, Any]]:
    """Every entry as a dict, without what depends on the format (line numbers, bytes, encoding)."""
    result: list[dict[str, Any]] = []
    for entry in parsed.entries():
        data = entry.to_dict()
        for key in _FORMAT_FIELDS:
            data.pop(key, None)
        if data["type"] == "document":
            data.pop("content_hash")  # the document's hash is that of its bytes
        result.append(data)
    return result


def parse_as(tmp_path: Path, seed: str, suffix: str, content: str) -> ParsedDocument:
    """Parse ``content`` as the seed would be parsed, from a file with the given suffix."""
    target = tmp_path / (Path(seed).stem + suffix)
    target.write_text(content, encoding="utf-8")
    return parse_path(target, manifest()[seed], glossary(), label=f"data/sources/{seed}")


def parse_seed(seed: str) -> ParsedDocument:
    return parse_path(SOURCES / seed, manifest()[seed], glossary(), label=f"data/sources/{seed}")


def assert_same_entries(expected: ParsedDocument, actual: ParsedDocument) -> None:
    want, got = comparable(expected), comparable(actual)
    want_ids, got_ids = [e["id"] for e in want], [e["id"] for e in got]
    assert got_ids == want_ids, f"missing {set(want_ids) - set(got_ids)}, extra {set(got_ids) - set(want_ids)}"
    for a, b in zip(want, got, strict=True):
        assert b == a, f"entry {a['id']} differs"
    assert actual.summary() == expected.summary()
    assert [w.message for w in actual.warnings] == [w.message for w in expected.warnings]


def seed_text(seed: str) -> str:
    return (SOURCES / seed).read_text(encoding="utf-8")


# -- HTML -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("doc_id", list(SEEDS))
def test_html_page_yields_the_same_entries(tmp_path: Path, doc_id: str) -> None:
    seed = SEEDS[doc_id]
    page = to_html(seed_text(seed), title=manifest()[seed].set_name_en)
    assert page.startswith("<!DOCTYPE html>") and "<head>" in page and "<nav" in page
    html_parse = parse_as(tmp_path, seed, ".html", page)
    assert_same_entries(parse_seed(seed), html_parse)
    if doc_id in ("lrw", "shm"):  # «… будет помещен на сайте <MagicTheGathering.com> …»: escaped, then unescaped
        assert "сайте &lt;MagicTheGathering.com&gt; в" in page
        assert any("сайте <MagicTheGathering.com> в" in r.text for r in html_parse.rulings)


@pytest.mark.parametrize("doc_id", list(SEEDS))
def test_html_with_bold_headings_and_nested_sub_items(tmp_path: Path, doc_id: str) -> None:
    seed = SEEDS[doc_id]
    page = to_html(seed_text(seed), heading_style="strong", sub_items="nested")
    assert "<h3>" not in page and "<p><strong>" in page
    assert_same_entries(parse_seed(seed), parse_as(tmp_path, seed, ".htm", page))


@pytest.mark.parametrize("doc_id", ["gtc", "frf"])
def test_html_with_one_paragraph_per_card_line(tmp_path: Path, doc_id: str) -> None:
    """GTC and FRF pages print each line of a card block as its own ``<p>``."""
    seed = SEEDS[doc_id]
    page = to_html(seed_text(seed), card_lines="p")
    assert '<p class="card">' not in page
    assert_same_entries(parse_seed(seed), parse_as(tmp_path, seed, ".html", page))


def test_html_rendering_really_uses_markup() -> None:
    """The page is real markup (lists, breaks, rules, escaped text), not the text wrapped in <pre>."""
    page = to_html(seed_text(SEEDS["shm"]), sub_items="nested")
    assert page.count("<hr>") == seed_text(SEEDS["shm"]).count("\n-----")
    assert '<ul class="rulings">' in page and "<br>" in page and "<h2>" not in page  # SHM has no part headings
    assert "<h3>Тема: важность цвета</h3>" in page
    assert "<p class=\"card\">Вассал Темнолесья<br>\n{1}{G/W}{G/W}{G/W}<br>" in page
    lrw = to_html(seed_text(SEEDS["lrw"]), sub_items="nested")
    assert "<h2>ОБЩИЕ ЗАМЕЧАНИЯ</h2>" in lrw and "<h4>ПОДТИПЫ МИРОХОДЦЕВ</h4>" in lrw
    assert "\n<ul><li>1) Игрок, контролирующий" in lrw  # the Clash steps: a list nested in their bullet's <li>


def test_html_escapes_text_and_ignores_page_chrome() -> None:
    text = "Release Notes\n\nVisit <MagicTheGathering.com> & the forums.\n\n* Rulings < 5 & > 2 stay.\n"
    page = to_html(text, lang="en")
    assert "&lt;MagicTheGathering.com&gt; &amp; the forums." in page
    lines = [line for line in from_html(page, "page.html") if line.kind != "blank"]
    assert [(line.kind, line.text) for line in lines] == [
        ("heading", "Release Notes"),
        ("text", "Visit <MagicTheGathering.com> & the forums."),
        ("text", "* Rulings < 5 & > 2 stay."),
    ]


def test_nested_list_sub_items_stay_inside_the_bullet() -> None:
    page = "<html><body><ul><li>Clash works so:<ol><li>1) Reveal.</li><li>2) Compare.</li></ol></li><li>Next.</li></ul>"
    texts = [line.text for line in from_html(page, "p.html") if line.kind == "text"]
    assert texts == ["* Clash works so:", "1) Reveal.", "2) Compare.", "* Next."]


def test_list_nested_straight_in_a_list_is_not_dropped() -> None:
    page = "<html><body><ul><li>Clash works so:</li><ol><li>1) Reveal.</li></ol><li>Next.</li></ul>"
    texts = [line.text for line in from_html(page, "p.html") if line.kind == "text"]
    assert texts == ["* Clash works so:", "1) Reveal.", "* Next."]


def test_br_card_block_is_one_line_per_card_line() -> None:
    page = "<html><body><p>Kitchen Finks<br>{1}{G/W}{G/W}<br/>Creature — Ouphe<br>3/2<br>Persist <i>(reminder)</i></p>"
    texts = [line.text for line in from_html(page, "p.html") if line.kind == "text"]
    assert texts == ["Kitchen Finks", "{1}{G/W}{G/W}", "Creature — Ouphe", "3/2", "Persist (reminder)"]


# -- Markdown -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("doc_id", "heading_style", "bullet"),
    [("lrw", "#", "*"), ("shm", "**", "-"), ("gtc", "#", "-"), ("dtk", "**", "*"), ("frf", "#", "*")],
)
def test_markdown_yields_the_same_entries(tmp_path: Path, doc_id: str, heading_style: Any, bullet: Any) -> None:
    seed = SEEDS[doc_id]
    markdown = to_markdown(seed_text(seed), heading_style=heading_style, bullet=bullet)
    assert "\n---\n" in markdown and "<p>" not in markdown
    assert_same_entries(parse_seed(seed), parse_as(tmp_path, seed, ".md", markdown))


def test_markdown_escapes_and_inline_markup() -> None:
    markdown = "## Rules\n\n* A *\\*/\\** creature with [Wither](https://x/wither) and a Летучая\\_мышь.\n"
    texts = [line.text for line in from_markdown(markdown) if line.kind != "blank"]
    assert texts == ["Rules", "* A */* creature with Wither and a Летучая_мышь."]


def test_blocks_follow_the_text_parser() -> None:
    """The helper marks as headings exactly the lines the text parser took as headings."""
    blocks = blocks_of(seed_text(SEEDS["gtc"]))
    headings = [b.lines[0] for b in blocks if b.kind == "heading"]
    assert "Ключевое слово Орзовов: Вымогательство" in headings
    assert "Информация о релизе" in headings
    assert [b.lines[0] for b in blocks if b.kind == "part"] == ["ОБЩИЕ ЗАМЕЧАНИЯ", "ОТДЕЛЬНЫЕ ЗАМЕЧАНИЯ ПО КАРТАМ"]
    cards = [b for b in blocks if b.kind == "card"]
    assert len(cards) == 14
    assert cards[0].lines[:4] == ("Крикун Базилики", "{1}{B}", "Существо — Летучая_мышь", "1/2")
