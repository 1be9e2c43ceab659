"""The site shows the English original beside each Russian ruling (collapsed), the translation discrepancies,
and English document pages: an invented set's two pages, parsed and aligned, exported in memory."""

from __future__ import annotations

from functools import cache

from bs4 import BeautifulSoup

from ingest.pipeline import parse_path
from kb import build as kb_build
from kb.export import proofs, site
from tests.ingest.test_bilingual import KNOWN, with_invented_cards
from tests.ingest.test_formats import glossary
from tests.ingest.test_genre import FIXTURES


@cache
def files() -> dict[str, bytes]:
    names = with_invented_cards(glossary())
    parsed = [parse_path(FIXTURES / name, None, names, label=name, known_sets=KNOWN)
              for name in ("ru_mirror_vale_archived.md", "en_mirror_vale_archived.md")]
    kb = kb_build.build(parsed)
    return site.build_files(kb, proofs.collect(kb))[0]


def page(path: str) -> BeautifulSoup:
    return BeautifulSoup(files()[path].decode("utf-8"), "html.parser")


def test_russian_ruling_has_its_english_original_collapsed() -> None:
    ruling = page("doc/mvl-ru.html").find(id="mvl-ru/mertsanie/1")
    assert ruling is not None
    original = ruling.find("details", class_="original")
    assert original is not None and not original.has_attr("open")  # collapsed by default
    assert original.summary.get_text() == "Английский оригинал"
    assert "Glimmer counts spells cast this turn" in original.get_text()
    assert original.find(lang="en") is not None


def test_english_document_page_with_the_russian_translation() -> None:
    doc = page("doc/mvl-en.html")
    ruling = doc.find(id="mvl-en/glimmer/1")
    assert ruling is not None and "Glimmer counts spells" in ruling.get_text()
    original = ruling.find("details", class_="original")
    assert original is not None and original.summary.get_text() == "Русский перевод"
    untranslated = doc.find(id="mvl-en/quiet-beacon/1")
    assert untranslated is not None and untranslated.find("details", class_="original") is None


def test_russian_card_page_has_the_english_card_collapsed_and_its_discrepancies() -> None:
    card = page("card/mvl-ru/glass-fox.html")
    original = card.find("details", class_="original")
    assert original is not None and not original.has_attr("open")  # collapsed, like the rulings' originals
    assert original.summary.get_text() == "Английский оригинал"
    box = original.find(class_="card-box")
    assert box is not None and box.get("lang") == "en" and box.get("id") == "mvl-en/card/glass-fox"
    assert box.find(class_="card-name").get_text(strip=True) == "Glass Fox"
    assert box.find(class_="card-type").get_text(strip=True).startswith("Creature")
    assert box.find(class_="pt").get_text() == "2/1"
    assert "Glimmer" in box.find(class_="card-text").get_text()
    assert [symbol["title"] for symbol in box.find(class_="cost").find_all(class_="ms")] == ["{1}", "{W/U}"]
    # the P/T the translation states otherwise: in the card's facts, and beside the original
    facts = {dt.get_text(): dt.find_next_sibling("dd").get_text() for dt in card.find("dl").find_all("dt")}
    assert facts["Расхождения перевода"] == "число: 2/2 ≠ 2/1"
    assert original.find(class_="discrepancy").get_text() == "Расхождения перевода: число: 2/2 ≠ 2/1"


def test_english_card_page_has_the_russian_card_and_an_unaligned_card_has_none() -> None:
    card = page("card/mvl-en/glass-fox.html")
    original = card.find("details", class_="original")
    assert original is not None and original.summary.get_text() == "Русский перевод"
    assert original.find(class_="card-name").get_text(strip=True).startswith("Стеклянная Лиса")
    aligned_without_discrepancy = page("card/mvl-ru/prism-of-dusk.html")
    assert aligned_without_discrepancy.find("details", class_="original") is not None
    assert aligned_without_discrepancy.find(class_="discrepancy") is None
    assert page("card/mvl-en/brackish-sentry.html").find("details", class_="original") is None


def test_document_page_flags_a_card_discrepancy() -> None:
    box = page("doc/mvl-ru.html").find(id="mvl-ru/card/glass-fox")
    assert box is not None and box.find(class_="chip-discrepancy").get_text() == "≠ число: 2/2 ≠ 2/1"
