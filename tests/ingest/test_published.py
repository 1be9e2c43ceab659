"""Release notes as WotC publishes and archives them: page chrome dropped and counted, card blocks in every shape.

The fixtures are pages of an invented set (Mirror Vale) written the way magic.wizards.com pages and their
Wayback Machine Markdown conversions look: a metadata header, navigation, author picture, download links,
card blocks as ``> `` quotes or spaced lines, mana costs as symbol images or bare letters (``5W``, ``B/G``),
modes, colour headings, the trademark line. Every expectation is read off the fixture text. The last tests
run on the real English originals in ``../shared/english-originals/`` when they are there.
"""

from __future__ import annotations

import csv
import re
from functools import cache
from pathlib import Path

import pytest

from ingest.boilerplate import dropped_count, mana_image_symbol
from ingest.cards import brace_rules_line, normalise_cost
from ingest.entries import ParsedDocument
from ingest.pipeline import parse_path
from tests.ingest.test_formats import glossary
from tests.ingest.test_genre import FIXTURES, card, rulings_of, section

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"
ORIGINALS = SHARED / "english-originals"
CHROME_WORDS = ("http", "Posted in", "Wayback", "metadata", "trademark", "Download", "By Wizards", "товарн", "Скачать")


@cache
def parsed(name: str) -> ParsedDocument:
    return parse_path(FIXTURES / name, None, glossary(), label=f"fixtures/{name}")


def dropped(doc: ParsedDocument) -> dict[str, int]:
    """What the document's warnings say was dropped: kind of chrome → lines."""
    found: dict[str, int] = {}
    for warning in doc.warnings:
        if (match := re.match(r"dropped (\d+) (.+?)\(s\): lines", warning.message)) is not None:
            found[match.group(2)] = int(match.group(1))
    return found


def assert_no_chrome(doc: ParsedDocument) -> None:
    texts = [r.text for r in doc.rulings] + [s.heading for s in doc.sections] + [c.name for c in doc.cards]
    leaked = [text for text in texts if any(word in text for word in CHROME_WORDS)]
    assert not leaked, leaked


# -- costs ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("printed", "braced"),
    [("5W", "{5}{W}"), ("B/G", "{B/G}"), ("W/BW/B", "{W/B}{W/B}"), ("4", "{4}"), ("XRR", "{X}{R}{R}"),
     ("2/W", "{2/W}"), ("{1}{G/W}", "{1}{G/W}"), ("Flying", None), ("Sorcery", None), ("123", None)],
)
def test_bare_and_braced_costs(printed: str, braced: str | None) -> None:
    assert normalise_cost(printed) == braced


def test_costs_in_ability_lines_are_braced_only_where_a_cost_stands() -> None:
    assert brace_rules_line("4BR: It becomes a 4/4 Dragon.") == "{4}{B}{R}: It becomes a 4/4 Dragon."
    assert brace_rules_line("2B, T: Target player mills two cards.") == "{2}{B}, {T}: Target player mills two cards."
    assert brace_rules_line("Dash 3B (You may cast it.)") == "Dash {3}{B} (You may cast it.)"
    assert brace_rules_line("When it dies, bolster 2.") == "When it dies, bolster 2."
    assert brace_rules_line("Bolster 1") == "Bolster 1"
    assert brace_rules_line("you may pay W/BW/B. If you do") == "you may pay {W/B}{W/B}. If you do"


@pytest.mark.parametrize(
    ("url", "symbol"),
    [("https://x/wiz_manacost/manasymbols/blue.gif", "{U}"), ("/manasymbols/colorless12.gif", "{12}"),
     ("/manasymbols/white-black.gif", "{W/B}"), ("/manasymbols/x.gif", "{X}"),
     ("https://gatherer.test/Handlers/Image.ashx?size=small&name=G&type=symbol", "{G}"),
     ("/images/person/authorpic.jpg", None), ("/cards/abc_en.jpg", None)],
)
def test_mana_symbol_images(url: str, symbol: str | None) -> None:
    assert mana_image_symbol(url) == symbol


# -- an archived Markdown page (Wayback Machine conversion) ---------------------------------------------------
def test_archived_markdown_page() -> None:
    doc = parsed("en_mirror_vale_archived.md")
    assert (doc.document.title, doc.document.date) == ("Mirror Vale Release Notes", "2031-03-03")
    assert [(s.heading, s.kind) for s in doc.sections] == [
        ("Mirror Vale Release Notes", "release info"),
        ("Release Information", "release info"),
        ("Keyword Ability: Glimmer", "keyword ability"),
        ("Cycle: Prisms", "cycle"),
        ("Brackish Sentry", "card notes"),
        ("Quiet Beacon", "card notes"),
    ]
    fox = card(doc, "Glass Fox")  # quoted block: picture glued to the name, cost as symbol images
    assert (fox.mana_cost, fox.type_line, fox.power, fox.toughness) == ("{1}{W/U}", "Creature—Fox", "2", "1")
    assert fox.types == ("Creature",) and fox.subtypes == ("Fox",)
    assert fox.reminder_text[0].startswith("Whenever you cast your second spell")
    glimmer = section(doc, "Keyword Ability: Glimmer")
    assert [r.number for r in doc.rules if r.section_id == glimmer.id] == ["702.200", "702.200a"]
    assert len(rulings_of(doc, glimmer)) == 2
    prism = card(doc, "Prism of Dusk")  # spaced quoted block, bare cost, modes as quoted list items
    assert (prism.mana_cost, prism.types) == ("{3}{B}", ("Sorcery",))
    assert prism.rules_text == ("Choose one —", "• Target player discards two cards.", "• Each opponent loses 2 life.")
    prisms = section(doc, "Cycle: Prisms")
    assert [r.text for r in rulings_of(doc, prisms)] == ["You choose the mode as you cast the Prism."]
    sentry = card(doc, "Brackish Sentry")  # spaced lines without a quote, hybrid in bare letters
    assert (sentry.mana_cost, sentry.colors, sentry.power, sentry.toughness) == ("{B/G}", ("B", "G"), "2", "2")
    assert sentry.rules_text == ("{2}{B}, {T}: Target player mills two cards.",)
    beacon = card(doc, "Quiet Beacon")
    assert (beacon.mana_cost, beacon.mana_value, beacon.types) == ("{4}", 4, ("Artifact",))
    assert beacon.rules_text == ("{T}: Add {2} to your mana pool.", "Megamorph {5}{W}{W}")
    assert [r.text for r in rulings_of(doc, section(doc, "Quiet Beacon"))] == [
        "Quiet Beacon is colorless.", "Its mana can be spent on anything."]
    assert doc.summary()["rulings"] == 6  # the two modes are card text, not rulings
    assert dropped(doc) == {"archive header": 7, "navigation": 3, "image link": 4, "download link": 2,
                            "trademark line": 1}
    assert dropped_count(doc.warnings) == 17
    assert all(w.path == "fixtures/en_mirror_vale_archived.md" and w.line > 0 for w in doc.warnings)
    assert_no_chrome(doc)


# -- the same set as an HTML page: <img> mana symbols, colour headings, modes in a <br> block ---------------------
def test_html_release_notes_page() -> None:
    doc = parsed("en_mirror_vale_release_notes.html")
    assert (doc.document.title, doc.document.date, doc.document.encoding) == (
        "Mirror Vale Release Notes", "2031-03-03", "html")
    assert [(s.heading, s.kind) for s in doc.sections] == [
        ("Mirror Vale Release Notes", "release info"),
        ("Keyword Ability: Glimmer", "keyword ability"),
        ("White", "theme"),  # a colour heading: a section of its own, each card under it one more
        ("Lantern Warden", "card notes"),
        ("Sunlit Vigil", "card notes"),
        ("Blue", "theme"),
        ("Tidewatcher", "card notes"),
    ]
    assert card(doc, "Glass Fox").mana_cost == "{1}{W/U}"
    warden = card(doc, "Lantern Warden")
    assert (warden.mana_cost, warden.power, warden.toughness) == ("{2}{W}", "1", "4")
    assert warden.rules_text == ("Choose one —", "• You gain 3 life.", "• Tap target creature.")
    assert [r.text for r in rulings_of(doc, section(doc, "Sunlit Vigil"))] == [
        "Sunlit Vigil can target a creature that is already dealt damage.", "The shield lasts until end of turn."]
    assert card(doc, "Tidewatcher").rules_text == ("Flash",)
    assert dropped(doc) == {"navigation": 2, "download link": 2, "trademark line": 1, "image link": 3}
    assert_no_chrome(doc)


def test_russian_archived_page() -> None:
    doc = parsed("ru_mirror_vale_archived.md")
    assert (doc.document.date, doc.document.languages) == ("2031-03-03", ("ru",))
    fox = card(doc, "Стеклянная Лиса")
    assert (fox.mana_cost, fox.type_line, fox.power, fox.toughness, fox.lang) == (
        "{1}{W/U}", "Существо — Лиса", "2", "2", "ru")  # 2/2: the English page prints 2/1
    prism = card(doc, "Призма Сумерек")
    assert prism.rules_text == ("Выберите одно —", "• Целевой игрок сбрасывает две карты.",
                                "• Каждый оппонент теряет 2 жизни.")
    assert [r.text for r in rulings_of(doc, section(doc, "Призма Сумерек"))] == [
        "Вы выбираете режим при разыгрывании Призмы."]
    assert dropped(doc) == {"archive header": 4, "image link": 2, "download link": 2, "trademark line": 1}
    assert_no_chrome(doc)


# -- the real English originals (read from ../shared when present) --------------------------------------------
ORIGINAL_FILES = ["gtc-faq-en.md", "frf-release-notes-en.md", "dtk-release-notes-en.md"]


@cache
def original(name: str) -> ParsedDocument:
    path = ORIGINALS / name
    if not path.exists():
        pytest.skip(f"{path} is not there")
    return parse_path(path, None, glossary(), label=name)


@cache
def card_names() -> set[str]:
    with (SHARED / "card-names-en-ru.csv").open(encoding="utf-8") as handle:
        return {row["name_en"] for row in csv.DictReader(handle)}


def _fold(name: str) -> str:
    return name.replace("’", "'").replace("Æ", "Ae")


@pytest.mark.parametrize("name", ORIGINAL_FILES)
def test_english_originals_parse_into_cards_and_rulings(name: str) -> None:
    doc = original(name)
    raw = (ORIGINALS / name).read_text(encoding="utf-8")
    # every ruling bullet outside a quote is one ruling; quoted list items are modes
    assert doc.summary()["rulings"] == len(re.findall(r"(?m)^\s*\* ", raw))
    # one card per card picture (the author's picture is no card), each a card of the CSV (curly quotes folded)
    pictures = len(re.findall(r"!\[\]\([^)]*(?:_en\.jpg|/en_[^)]*\.png)\)", raw))
    assert len(doc.cards) >= pictures - 1 and len(doc.cards) >= 90
    known = {_fold(n) for n in card_names()}
    strays = [c.name for c in doc.cards if _fold(c.name) not in known]
    assert len(strays) <= 1, strays  # GTC misprints one name ("Serene Remebrance")
    assert all(c.mana_cost is None or c.mana_cost.startswith("{") for c in doc.cards)
    assert doc.summary()["notes"] < 30
    assert {"archive header", "image link", "trademark line"} <= set(dropped(doc))
    assert doc.document.date is not None
    assert_no_chrome(doc)


def test_plain_text_saved_from_the_page() -> None:
    """The page saved as text: no images left, links are bare words ("English | Français | Deutsch")."""
    doc = parsed("en_mirror_vale_release_notes.txt")
    assert (doc.document.title, doc.document.date) == ("Mirror Vale Release Notes", "2031-03-03")
    assert [s.heading for s in doc.sections] == ["Mirror Vale Release Notes", "Keyword Ability: Glimmer",
                                                 "Kolaghan Lantern"]
    assert card(doc, "Glass Fox").mana_cost == "{1}{W/U}"  # "1W/U"
    lantern = card(doc, "Kolaghan Lantern")
    assert lantern.rules_text == (
        "{T}: Add {B} or {R} to your mana pool.",
        "{4}{B}{R}: Kolaghan Lantern becomes a 4/4 black and red Dragon artifact creature with flying until end of "
        "turn.",
    )
    assert [r.text for r in rulings_of(doc, section(doc, "Kolaghan Lantern"))] == [
        "Kolaghan Lantern can't attack the turn it enters the battlefield."]
    assert dropped(doc) == {"navigation": 2, "download link": 2, "trademark line": 1}
    assert_no_chrome(doc)
