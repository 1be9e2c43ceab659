"""One ranking everywhere: the site's in-browser search answers the development queries as ``kb search``.

Debian's chromium through Playwright (as ``test_browser.py``), on the seed site; the CLI over the same
knowledge base. The figures are printed by ``scripts/bench_relevance.py --site``.
"""

from __future__ import annotations

import sys
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kb import store
from kb.search import relevance
from kb.search.service import SearchRequest, open_session
from kb.store import KnowledgeBase

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import bench_relevance  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (apt-get install chromium)"),
]


@pytest.fixture(scope="module")
def tab() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--headless=new", "--no-sandbox"])
        yield browser.new_page()
        browser.close()


def test_site_and_cli_give_the_same_top_results(
    tab: Any, exported: Path, build_dir: Path, seed_kb: KnowledgeBase
) -> None:
    build_dir.mkdir(parents=True, exist_ok=True)
    store.save(seed_kb, build_dir / "kb.json")
    session = open_session()
    queries = [q.query for q in relevance.load_dev_set() + relevance.load_dev_set(relevance.DEV_SET.with_name(
        "holdout_queries.json"))]
    same_first = overlap = 0
    try:
        for query in queries:
            tab.goto((exported / "search.html").as_uri() + "?q=" + urllib.parse.quote(query))
            tab.wait_for_selector("#page-results .hit", timeout=5000)
            hrefs = tab.eval_on_selector_all("#page-results .hit", "els => els.map(e => e.getAttribute('href'))")
            site = [bench_relevance._site_place(h) for h in hrefs[:5]]
            cli = [bench_relevance._place(r) for r in session.search(SearchRequest(query, limit=5)).results]
            same_first += bool(cli and site and cli[0] == site[0])
            overlap += len(set(cli) & set(site))
    finally:
        session.close()
    assert same_first / len(queries) >= 0.84, same_first
    assert overlap / (5 * len(queries)) >= 0.7, overlap
