"""The exported site in a real browser: Debian's chromium through Playwright, opened from file://.

Never a downloaded browser: ``executable_path="/usr/bin/chromium"`` (CI installs it with apt). Screenshots
go to ``test-artifacts/export/`` (git-ignored) for a human to look at.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "export"
ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (apt-get install chromium)"),
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        instance = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield instance
        instance.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    tab.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    yield tab
    context.close()
    assert not errors, errors


def _shot(tab: Any, name: str, full_page: bool = False) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


SETTLED = """() => [["q", "results"], ["page-q", "page-results"]].every(([i, l]) => {
    const box = document.getElementById(i), list = document.getElementById(l);
    return !box || !list || !box.value.trim() || list.dataset.query === box.value; })"""


def _results(tab: Any, selector: str = "#results .hit:not(.more)") -> list[dict[str, str]]:
    tab.wait_for_selector(selector)
    tab.wait_for_function(SETTLED)  # the answer to the whole query, not to the letters typed so far
    return tab.eval_on_selector_all(
        selector,
        """els => els.map(e => ({href: e.getAttribute('href'), where: e.querySelector('.hit-where').textContent,
            text: e.querySelector('.hit-text').textContent,
            marks: Array.from(e.querySelectorAll('mark')).map(m => m.textContent)}))""",
    )


def test_russian_inflected_query_finds_planeswalker_rulings_first(page: Any, exported: Path) -> None:
    page.goto((exported / "index.html").as_uri())
    page.keyboard.press("/")  # keyboard: / focuses the search box
    assert page.evaluate("document.activeElement.id") == "q"
    page.keyboard.type("мироходцы")
    hits = _results(page)
    _shot(page, "search-mirohodcy")
    assert len(hits) >= 5
    assert all("Мироходец" in hit["where"] for hit in hits[:5]), hits[:5]
    assert any(mark.lower().startswith("мироход") for hit in hits[:3] for mark in hit["marks"])


def test_english_query_finds_russian_persist_rulings(page: Any, exported: Path) -> None:
    page.goto((exported / "index.html").as_uri())
    page.fill("#q", "persist")
    hits = _results(page)
    _shot(page, "search-persist")
    top = hits[:5]
    assert all("Упорство" in hit["where"] for hit in top), top
    assert any("Упорств" in mark for hit in top for mark in hit["marks"]), top


def test_dative_form_and_keyboard_navigation(page: Any, exported: Path) -> None:
    page.goto((exported / "index.html").as_uri())
    page.keyboard.press("/")
    page.keyboard.type("повреждения мироходцам")
    hits = _results(page)
    assert any("мироход" in hit["text"].lower() for hit in hits[:3])
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    selected = page.eval_on_selector('#results .hit[aria-selected="true"]', "e => e.getAttribute('href')")
    assert selected == hits[1]["href"]
    with page.expect_navigation():
        page.keyboard.press("Enter")
    anchor = hits[1]["href"].split("#", 1)[1]
    assert page.url.endswith("#" + anchor)
    assert page.evaluate("id => !!document.getElementById(id)", anchor)


def test_open_a_rulings_proof(page: Any, exported: Path) -> None:
    page.goto((exported / "doc/shm.html").as_uri() + "#shm/persist/3")
    article = page.locator('[id="shm/persist/3"]')
    proof = article.locator("details.proof")
    assert proof.evaluate("d => d.open") is False
    proof.locator("summary").click()
    assert proof.evaluate("d => d.open") is True
    text = proof.inner_text()
    assert "Сценарий" in text or "не связано" in text
    if article.locator(".badge-verified").count():
        assert "Журнал игры" in text and "Начальная позиция" in text
    _shot(page, "proof-shm-persist-3")


def test_follow_a_card_link(page: Any, exported: Path) -> None:
    page.goto((exported / "doc/gtc.html").as_uri() + "#gtc/agoraphobia/1")
    page.locator('[id="gtc/agoraphobia/1"] a.chip-card').first.click()
    page.wait_for_load_state()
    assert page.url.endswith("card/gtc/agoraphobia.html")
    assert page.locator("h1").inner_text().startswith("Агорафобия")
    assert page.locator(".card-box .card-head .ms").count() >= 2  # {1}{U} drawn as symbols
    _shot(page, "card-agoraphobia")


def test_search_page_from_query_string_and_phone_layout(browser: Any, exported: Path) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True)
    tab = context.new_page()
    tab.goto((exported / "search.html").as_uri() + "?q=%D0%B6%D0%B5%D1%82%D0%BE%D0%BD%D1%8B%20-1%2F-1")
    hits = _results(tab, "#page-results .hit")
    assert hits and "-1/-1" in hits[0]["where"] + hits[0]["text"]
    width = tab.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"horizontal scrolling on a phone: {width}px"
    _shot(tab, "phone-search")
    tab.goto((exported / "doc/shm.html").as_uri())
    assert tab.evaluate("document.documentElement.scrollWidth") <= 390
    _shot(tab, "phone-document")
    context.close()


QUERIES = [  # query, a phrase every one of the first hits' places must contain
    ("мироходцам", "Мироходец"),
    ("плейнсвокеры", "Мироходец"),  # players' slang through the glossary
    ("перевертышь", "Перевертыш"),  # a typo: one-edit fuzzy match
    ("persit", "Упорство"),  # an English typo, then the glossary
    ("wither", "Увядание"),
    ("702.36", "правило 702.36"),  # a rule number finds its sub-rules
    ("{2/B}", "одноцветная"),
]


def test_search_quality_table(page: Any, exported: Path) -> None:
    page.goto((exported / "index.html").as_uri())
    page.wait_for_function("window.KBSearch !== undefined")
    for query, expected in QUERIES:
        places = page.evaluate("q => KBSearch.ids(q, 3).then(r => r.wheres)", query)
        assert places and all(expected.lower() in place.lower() for place in places), (query, places)
