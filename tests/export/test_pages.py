"""Content of the pages: document pages read like the source, languages, badges, cards, rules."""

from __future__ import annotations

from pathlib import Path

from bs4 import BeautifulSoup

from kb.export import urls
from kb.store import KnowledgeBase


def _soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def test_every_ruling_appears_exactly_once_on_its_document_page(exported: Path, seed_kb: KnowledgeBase) -> None:
    for doc in seed_kb.documents:
        soup = _soup(exported / urls.document_page(doc.id))
        on_page = [str(a["id"]) for a in soup.select("article.ruling")]
        expected = [r.id for r in seed_kb.rulings if r.document_id == doc.id]
        assert sorted(on_page) == sorted(expected), doc.id
        assert len(on_page) == len(set(on_page)), doc.id
        # original order: by source line
        starts = {r.id: r.source.start for r in seed_kb.rulings}
        assert [starts[i] for i in on_page] == sorted(starts[i] for i in on_page), doc.id


def test_document_page_keeps_the_source_order_of_sections(exported: Path, seed_kb: KnowledgeBase) -> None:
    soup = _soup(exported / urls.document_page("shm"))
    headings = [str(h["id"]) for h in soup.select(".section-heading")]
    expected = sorted((s for s in seed_kb.sections if s.document_id == "shm"), key=lambda s: s.source.start)
    assert headings == [s.id for s in expected]
    assert headings[0] == "shm/conspire-en"  # the English excerpt opens the source file


def test_html_lang_per_page(exported: Path, soups: dict[Path, BeautifulSoup]) -> None:
    langs = {}
    for page, soup in soups.items():
        html = soup.html
        assert html is not None and html.get("lang") in {"ru", "en"}, page
        langs[page.relative_to(exported).as_posix()] = html["lang"]
    assert langs["index.html"] == "ru"
    assert langs[urls.section_page("shm/conspire-en")] == "en"
    assert langs[urls.section_page("shm/conspire")] == "ru"
    en_ruling = _soup(exported / urls.document_page("shm")).find(id="shm/conspire-en/1")
    assert en_ruling is not None and en_ruling.get("lang") == "en"


def test_rulings_carry_badge_and_proof(exported: Path, seed_kb: KnowledgeBase) -> None:
    soup = _soup(exported / urls.document_page("shm"))
    for ruling in (r for r in seed_kb.rulings if r.document_id == "shm" and r.kind == "ruling"):
        article = soup.find(id=ruling.id)
        assert article is not None
        assert article.select_one(".badge"), ruling.id
        assert article.select_one("details.proof summary"), ruling.id
        assert article.select_one(f'a.permalink[href="#{ruling.id}"]'), ruling.id


def test_verified_ruling_shows_scenario_and_russian_log(exported: Path, seed_kb: KnowledgeBase) -> None:
    soup = _soup(exported / urls.document_page("shm"))
    verified = soup.select("article.ruling .badge-verified")
    if not verified:  # verification not wired yet: every ruling is honestly "not linked"
        assert soup.select("article.ruling .badge-unlinked")
        return
    article = verified[0].find_parent("article")
    assert article is not None
    proof = article.select_one("details.proof")
    assert proof is not None and proof.select_one(".scenario h5")
    log = proof.select_one("pre.log")
    assert log is not None and any("\u0400" <= ch <= "\u04ff" for ch in log.get_text())
    cards = proof.select_one("pre.cards")  # the cards the scenario plays: Russian name, cost, type line
    assert cards is not None and "«" in cards.get_text() and "{" in cards.get_text()
    checks = proof.select("ul.checked li.ok")  # what was checked, with expected and actual, also on a pass
    assert checks and "ожидалось" in checks[0].get_text() and "на деле" in checks[0].get_text()


def test_home_page_lists_documents_and_coverage(exported: Path, seed_kb: KnowledgeBase) -> None:
    soup = _soup(exported / "index.html")
    total = soup.select_one("table.coverage tfoot")
    assert total is not None and str(sum(1 for r in seed_kb.rulings if r.kind == "ruling")) in total.get_text()
    for doc in seed_kb.documents:
        assert soup.select_one(f'a[href="{urls.document_page(doc.id)}"]'), doc.id


def test_card_page_draws_mana_symbols_and_lists_rulings(exported: Path, seed_kb: KnowledgeBase) -> None:
    soup = _soup(exported / urls.card_page("shm/card/murderous-redcap"))
    box = soup.select_one(".card-box")
    assert box is not None
    assert [s["title"] for s in box.select(".card-head .ms")] == ["{2}", "{B/R}", "{B/R}"]
    assert box.select_one(".pt") is not None and box.select_one(".pt").get_text() == "2/2"
    assert soup.select_one('a[href="../../section/shm/persist.html"]')  # the mechanic's rulings, one click away
    soup = _soup(exported / urls.card_page("shm/card/beseech-the-queen"))
    rulings = soup.select("article.ruling")
    naming = [r.id for r in seed_kb.rulings if "shm/card/beseech-the-queen" in r.card_ids]
    assert naming and set(naming) <= {str(a["id"]) for a in rulings}


def test_rule_page_shows_both_languages_side_by_side(exported: Path) -> None:
    soup = _soup(exported / urls.rule_page("shm", "502.78a"))
    columns = soup.select(".side-by-side.two .rule-text")
    assert [c["lang"] for c in columns] == ["ru", "en"]
    assert "Conspire" in columns[1].get_text()


def test_rulings_say_whether_they_hold_today(exported: Path, soups: dict[Path, BeautifulSoup]) -> None:
    """The 2007 redirection ruling is proven for its era and marked obsolete since 2018, with both proofs side by
    side on «Что изменилось с тех пор»; a ruling whose play is the same today is marked current."""
    section = soups[exported / "section" / "lrw" / "planeswalker.html"]
    redirect = section.find(id="lrw/planeswalker/12")
    assert redirect is not None
    badge = redirect.select_one(".badge-now-obsolete")
    assert badge is not None and badge.get_text(strip=True) == "устарело с 2018"
    assert "По сегодняшним правилам" in redirect.get_text()
    persist = soups[exported / "section" / "gtc" / "extort.html"].find(id="gtc/extort/1")
    assert persist is not None and persist.select_one(".badge-now-current") is not None
    changes = soups[exported / "changes.html"]
    entry = changes.find(id="changed-lrw/planeswalker/12")
    assert entry is not None
    era, today = entry.select(".side-by-side > div")
    assert "пройден" in era.get_text() and "не пройден" in today.get_text()
    assert "Dominaria" in entry.get_text()


def test_rulings_confirmed_by_both_engines_say_so(exported: Path, soups: dict[Path, BeautifulSoup]) -> None:
    """With phase.rs installed, a proven ruling on which it agrees carries «подтверждено двумя движками»; an
    obsolete one (phase plays today's rules) never does."""
    import pytest

    from kb import second_opinion

    if second_opinion.default_opinions([], None) is None:  # type: ignore[arg-type]
        pytest.skip("the oracle extra (phase.rs) or ../shared/mtgjson is not here")
    badges = [b for soup in soups.values() for b in soup.select(".badge-confirmed")]
    assert badges and all(b.get_text(strip=True) == "подтверждено двумя движками" for b in badges)
    redirect = soups[exported / "section" / "lrw" / "planeswalker.html"].find(id="lrw/planeswalker/12")
    assert redirect is not None and redirect.select_one(".badge-confirmed") is None
