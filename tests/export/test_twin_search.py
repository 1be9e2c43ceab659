"""The site's search shows a Russian entry and its aligned English original once, as ``kb search`` does.

In the browser (Debian's chromium through Playwright, as ``test_browser.py``) over the seeds and their English
originals from ``../shared/english-originals`` (skipped when absent); in Python over the invented Mirror Vale
pair of ``test_bilingual_pages`` (always).
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ingest.entries import Card, Rule, Ruling
from kb import build as kb_build
from kb.export import proofs, site, urls
from kb.store import KnowledgeBase
from tests.export.test_bilingual_pages import files

ROOT = Path(__file__).resolve().parents[2]
ORIGINALS = ROOT / ".." / "shared" / "english-originals"
CHROMIUM = Path("/usr/bin/chromium")
QUERIES = ["мегаморф жетон", "megamorph counter", "мегаоборотень жетон +1/+1", "megamorph counter face up",
           "шифр копия изгнание", "cipher encoded copy exile", "Крепкошкурый Дракон", "Shieldhide Dragon"]


def _rows(files: dict[str, bytes]) -> list[list[Any]]:
    """Every document row of the index's pages, in document order."""
    pages = sorted((int(p.split("/")[-1][:-3]), p) for p in files if p.startswith("static/search/d/"))
    rows: list[list[Any]] = []
    for number, path in pages:
        text = files[path].decode("utf-8")
        rows += json.loads(text[len(f'KBShard("d/{number}",'):-3])
    return rows


def test_the_index_links_each_twin_to_the_other() -> None:
    docs = _rows(files())
    by_url = {d[0]: n for n, d in enumerate(docs)}
    ru, en = by_url["doc/mvl-ru.html#mvl-ru/mertsanie/1"], by_url["doc/mvl-en.html#mvl-en/glimmer/1"]
    assert docs[ru][7] == en and docs[en][7] == ru
    fox_ru, fox_en = by_url["card/mvl-ru/glass-fox.html"], by_url["card/mvl-en/glass-fox.html"]
    assert docs[fox_ru][7] == fox_en and docs[fox_en][7] == fox_ru
    assert docs[by_url["doc/mvl-en.html#mvl-en/quiet-beacon/1"]][7] == -1  # no Russian translation
    assert all(d[7] == -1 or docs[d[7]][7] == n for n, d in enumerate(docs))  # one-to-one


def _url(entry: Ruling | Rule | Card) -> str:
    if isinstance(entry, Card):
        return urls.card_page(entry.id)
    if isinstance(entry, Rule):
        return urls.rule_page(entry.document_id, entry.number)
    return urls.in_document(entry.document_id, entry.id)


@pytest.fixture(scope="module")
def twinned(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The seeds and their English originals exported; each twinned entry's page → its twin's page."""
    if not ORIGINALS.is_dir():
        pytest.skip("../shared/english-originals is not there")
    sources = kb_build.bundled_sources(ROOT / "data" / "sources") + [
        kb_build.Source(p, p.name) for p in sorted(ORIGINALS.glob("*.md"))]
    kb: KnowledgeBase = kb_build.build(kb_build.parse_sources(sources))
    out = tmp_path_factory.mktemp("twins") / "site"
    site.export_site(kb, out, proofs.collect(kb))
    twin_of: dict[str, str] = {}
    for entry in kb.entries:
        twin = kb.get(entry.aligned) if isinstance(entry, Ruling | Rule | Card) and entry.aligned else None
        if isinstance(entry, Ruling | Rule | Card) and isinstance(twin, Ruling | Rule | Card) and (
                twin.document_id != entry.document_id):
            twin_of[_url(entry)] = _url(twin)
    return out, twin_of


@pytest.fixture(scope="module")
def tab() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--headless=new", "--no-sandbox"])
        yield browser.new_page()
        browser.close()


@pytest.mark.browser
def test_the_site_search_shows_a_pair_once(tab: Any, twinned: tuple[Path, dict[str, str]]) -> None:
    out, twin_of = twinned
    with_twin = 0
    for query in QUERIES:
        tab.goto((out / "search.html").as_uri() + "?q=" + urllib.parse.quote(query))
        tab.wait_for_selector("#page-results .hit", timeout=5000)
        hrefs = [h.removeprefix("./") for h in tab.eval_on_selector_all(
            "#page-results .hit", "els => els.map(e => e.getAttribute('href'))")]
        top = hrefs[:5]
        assert not {twin_of[h] for h in top if h in twin_of} & set(top), (query, top)
        assert not {twin_of[h] for h in hrefs if h in twin_of} & set(hrefs), query  # nor further down
        with_twin += sum(h in twin_of for h in top)
    assert with_twin >= len(QUERIES)  # the queries do hit twinned entries: the check can fail
