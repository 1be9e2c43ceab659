"""The site's page of an MTGJSON card: both texts (Oracle and as printed, English and Russian) and every
ruling about it, from the documents and from the official list, with its badge."""

from __future__ import annotations

from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from ingest.entries import ParsedDocument
from kb import build as kb_build
from kb.export import pages, proofs, site
from kb.store import KnowledgeBase
from tests.ingest.test_mtgjson import GROVE, REDCAP, set_file, write


@pytest.fixture(scope="module")
def kb_with_cards(tmp_path_factory: pytest.TempPathFactory, parsed_seeds: list[ParsedDocument]) -> KnowledgeBase:
    path = write(tmp_path_factory.mktemp("mtgjson") / "shm.json", set_file("SHM", [REDCAP, GROVE[0]], "2008-05-02"))
    added = kb_build.parse_sources([kb_build.Source(path, "shm.json")])
    return kb_build.merge(kb_build.build(parsed_seeds), added)


def test_the_card_model_holds_the_documents_and_the_official_rulings(kb_with_cards: KnowledgeBase) -> None:
    model = pages.gather(kb_with_cards, proofs.collect(kb_with_cards))
    view = next(c for c in model.cards if c.card.id == "mtgjson/card/murderous-redcap")
    ids = [v.ruling.id for v in view.rulings]
    assert "shm/persist/3" in ids and "mtgjson/card/murderous-redcap/ruling/2" in ids
    assert not any(i.startswith("mtgjson/card/glade-warden") for i in ids)  # the set's other cards stay out


def test_the_card_page_shows_both_texts_and_every_ruling(kb_with_cards: KnowledgeBase, tmp_path: Path) -> None:
    out = tmp_path / "site"
    site.export_site(kb_with_cards, out, proofs.collect(kb_with_cards))
    page = out / "card" / "mtgjson" / "murderous-redcap.html"
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    texts = soup.select_one(".card-texts")
    assert texts is not None
    assert "Текст Oracle" in texts.get_text() and "Как напечатано: SHM 192" in texts.get_text()
    assert texts.select_one('[lang="ru"]') is not None and "Кровожадный Красный Колпак" in texts.get_text()
    rulings = {a["id"] for a in soup.select("article.ruling")}
    official = {f"mtgjson/card/murderous-redcap/ruling/{n}" for n in (1, 2)}
    assert {"shm/persist/3", *official} <= rulings
    badge = soup.find("article", id="shm/persist/3").select_one(".badge")
    assert badge is not None and "badge-verified" in badge["class"]
