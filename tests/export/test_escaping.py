"""Source text is always text: ``<MagicTheGathering.com>`` in the seeds, and hostile text, never markup."""

from __future__ import annotations

from pathlib import Path

from bs4 import BeautifulSoup

from ingest.entries import Document, Ruling, Section, SourceSpan
from kb.export import proofs, site, urls
from kb.export.search_index import read_shard
from kb.store import KnowledgeBase


def test_seed_angle_brackets_show_as_text(exported: Path) -> None:
    for doc_id in ("lrw", "shm"):
        html = (exported / urls.document_page(doc_id)).read_text(encoding="utf-8")
        assert "&lt;MagicTheGathering.com&gt;" in html
        assert "<MagicTheGathering.com>" not in html
        soup = BeautifulSoup(html, "html.parser")
        assert soup.find("magicthegathering.com") is None
        assert "<MagicTheGathering.com>" in soup.get_text()


def _hostile_kb() -> KnowledgeBase:
    evil = '<script>alert("x")</script><img src=x onerror=alert(1)> & "quotes" {U/B}'
    span = SourceSpan("evil.txt", 1, 1)
    doc = Document("evl", "evl", span, evil, "EVL", evil, evil, "FAQ", None, ("ru",), "0", "utf-8", "h")
    section = Section("evl/sec", "evl", SourceSpan("evil.txt", 2, 2), evil, "theme", evil, evil, "ru", 0, (evil,))
    ruling = Ruling("evl/sec/1", "evl", SourceSpan("evil.txt", 3, 3), "evl/sec", "ruling", evil + "\n" + evil, "ru")
    return KnowledgeBase([doc, section, ruling], summaries={"evl": {"rulings": 1}})


def test_hostile_text_is_escaped_everywhere(tmp_path: Path) -> None:
    out = tmp_path / "site"
    site.export_site(_hostile_kb(), out, proofs.Proofs({}, "none", []))
    for page in out.rglob("*.html"):
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        assert soup.find("img") is None, page
        scripts = [s.get("src") for s in soup.find_all("script")]
        assert all(scripts), f"{page}: an inline <script> appeared"
    doc_html = (out / urls.document_page("evl")).read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in doc_html
    assert 'title="{U/B}"' in doc_html  # symbols are still drawn
    rows = read_shard(out / "static" / "search", "d/0")
    assert any("<script>" in doc[3] for doc in rows)  # stored as JSON text, inserted via textContent
