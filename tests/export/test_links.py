"""Every internal link resolves (file and anchor); nothing is loaded from outside the site."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

from bs4 import BeautifulSoup

from tests.export.conftest import html_files


def test_every_internal_link_resolves(exported: Path, soups: dict[Path, BeautifulSoup]) -> None:
    ids = {path.resolve(): {str(tag["id"]) for tag in soup.find_all(id=True)} for path, soup in soups.items()}
    broken: list[str] = []
    checked = 0
    for page, soup in soups.items():
        for tag in soup.find_all(["a", "link", "script", "img", "form"]):
            attr = {"a": "href", "link": "href", "form": "action"}.get(tag.name, "src")
            value = tag.get(attr)
            if value is None:
                continue
            url = urlsplit(str(value))
            assert not url.scheme and not url.netloc, f"{page}: absolute URL {value!r}"
            assert not url.path.startswith("/"), f"{page}: root-relative URL {value!r} breaks file://"
            target = (page.parent / unquote(url.path)).resolve() if url.path else page
            checked += 1
            if not target.is_file():
                broken.append(f"{page.relative_to(exported)}: {value}")
                continue
            if url.fragment and unquote(url.fragment) not in ids[target]:
                broken.append(f"{page.relative_to(exported)}: {value} (no such anchor)")
    assert checked > 1000
    assert not broken, broken[:20]


def test_data_index_attribute_points_at_the_index(soups: dict[Path, BeautifulSoup]) -> None:
    for page, soup in soups.items():
        body = soup.body
        assert body is not None
        assert (page.parent / str(body["data-index"])).resolve().is_file()
        assert (page.parent / (str(body["data-root"]) + "index.html")).resolve().is_file()


def test_no_external_assets(exported: Path) -> None:
    for path in [*exported.rglob("*.css"), *exported.rglob("*.js")]:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"url\(\s*['\"]?(https?:)?//", text), path
        assert "@import" not in text, path
    for page in html_files(exported):
        assert not re.search(r"(src|href)=\"(https?:)?//", page.read_text(encoding="utf-8")), page
