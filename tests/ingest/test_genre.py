"""A parser for the genre, not for five files: release notes and FAQs of other sets, English and Russian,
as text, HTML and Markdown (hand-written fixtures in ``fixtures/``), parse into the same kinds of entries.

Every expectation below is read off the fixture text, not copied from parser output.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from ingest.entries import Card, ParsedDocument, Rule, Ruling, Section
from ingest.errors import IngestError
from ingest.pipeline import parse_path
from tests.ingest.htmlify import to_html, to_markdown
from tests.ingest.test_formats import assert_same_entries, glossary

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@cache
def parsed(name: str) -> ParsedDocument:
    return parse_path(FIXTURES / name, None, glossary(), label=f"fixtures/{name}")


def section(doc: ParsedDocument, heading: str) -> Section:
    found = [s for s in doc.sections if s.heading == heading]
    assert len(found) == 1, f"no single section {heading!r} in {[s.heading for s in doc.sections]}"
    return found[0]


def card(doc: ParsedDocument, name: str) -> Card:
    found = [c for c in doc.cards if c.name == name]
    assert len(found) == 1, f"no single card {name!r} in {[c.name for c in doc.cards]}"
    return found[0]


def rulings_of(doc: ParsedDocument, sec: Section, kind: str = "ruling") -> list[Ruling]:
    return [r for r in doc.rulings if r.section_id == sec.id and r.kind == kind]


def rules_of(doc: ParsedDocument, sec: Section) -> list[Rule]:
    return [r for r in doc.rules if r.section_id == sec.id]


# -- English text: Shadowmoor FAQ (old plain-text style: "--" dashes, "-- " sub-items) -------------------------
def test_en_shadowmoor_sections_and_parts() -> None:
    doc = parsed("en_shadowmoor_faq.txt")
    assert doc.document.languages == ("en",)
    assert doc.document.kind == "FAQ"  # "Frequently Asked Questions" in the title
    assert doc.document.date == "2008-04-04"  # "Last updated April 4, 2008"
    assert [(s.heading, s.kind) for s in doc.sections] == [
        ("Shadowmoor Frequently Asked Questions", "release info"),
        ("Keyword Ability: Persist", "keyword ability"),
        ("Returning Mechanic: Hybrid Mana", "theme"),
        ("Oona, Queen of the Fae", "card notes"),
        ("Reaper King", "card notes"),
        ("Boggart Ram-Gang", "card notes"),
    ]
    persist = section(doc, "Keyword Ability: Persist")
    assert persist.mechanic_en == "Persist" and persist.lang == "en"
    assert persist.id == "en-shadowmoor-faq/persist"
    # the byline and date stay notes of the release information, not headings of their own
    intro = rulings_of(doc, doc.sections[0], "note")
    assert [n.text for n in intro][:2] == ["Compiled by Mark L. Gottlieb", "Last updated April 4, 2008"]
    assert not doc.warnings


def test_en_shadowmoor_cards() -> None:
    doc = parsed("en_shadowmoor_faq.txt")
    finks = card(doc, "Kitchen Finks")
    assert (finks.mana_cost, finks.colors, finks.mana_value) == ("{1}{G/W}{G/W}", ("W", "G"), 3)
    assert (finks.types, finks.subtypes, finks.power, finks.toughness) == (("Creature",), ("Ouphe",), "3", "2")
    assert finks.type_line == "Creature -- Ouphe"
    assert finks.rules_text == ("When Kitchen Finks comes into play, you gain 2 life.", "Persist")
    assert len(finks.reminder_text) == 1 and finks.reminder_text[0].startswith("When this creature is put into")
    assert finks.section_id == section(doc, "Keyword Ability: Persist").id

    beseech = card(doc, "Beseech the Queen")
    assert (beseech.mana_value, beseech.colors, beseech.types) == (6, ("B",), ("Sorcery",))  # {2/B} counts 2
    assert beseech.reminder_text == ("{2/B} can be paid with any two mana or with {B}. This card's converted mana cost"
                                     " is 6.",)

    oona = card(doc, "Oona, Queen of the Fae")
    assert (oona.mana_value, oona.colors) == (6, ("U", "B"))  # {U/B} counts 1
    assert (oona.supertypes, oona.types, oona.subtypes) == (("Legendary",), ("Creature",), ("Faerie", "Wizard"))
    assert oona.rules_text[0] == "Flying" and oona.rules_text[1].startswith("{X}{U/B}: Choose a color.")

    king = card(doc, "Reaper King")
    assert (king.mana_value, king.colors) == (10, ("W", "U", "B", "R", "G"))
    assert (king.supertypes, king.types, king.subtypes) == (("Legendary",), ("Artifact", "Creature"), ("Scarecrow",))

    gang = card(doc, "Boggart Ram-Gang")  # name and cost on one line
    assert (gang.mana_cost, gang.mana_value, gang.colors) == ("{R/G}{R/G}{R/G}", 3, ("R", "G"))
    assert (gang.subtypes, gang.power, gang.toughness) == (("Goblin", "Warrior"), "3", "3")
    assert gang.rules_text == ("Haste", "Wither")
    assert gang.reminder_text == ("This deals damage to creatures in the form of -1/-1 counters.",)
    assert all(c.lang == "en" for c in doc.cards) and len(doc.cards) == 5


def test_en_shadowmoor_rules_and_rulings() -> None:
    doc = parsed("en_shadowmoor_faq.txt")
    persist = section(doc, "Keyword Ability: Persist")
    assert [(r.number, r.lang) for r in rules_of(doc, persist)] == [("502.79", "en"), ("502.79a", "en")]
    assert persist.captions == ("The official rules for persist are as follows:",)
    rulings = rulings_of(doc, persist)
    assert len(rulings) == 3
    assert rulings[0].rules_cited == ("217.1c",)
    assert rulings[1].text.splitlines()[1:] == [
        "-- The -1/-1 counters and the +1/+1 counters are removed as a state-based action at the same time.",
        "-- The creature is put into the graveyard with -1/-1 counters on it.",
    ]
    assert [r.id for r in rulings] == [f"en-shadowmoor-faq/persist/{n}" for n in (1, 2, 3)]
    assert "Wrath of God" in rulings[2].cards
    # each card of the card-specific part has its own rulings
    assert len(rulings_of(doc, section(doc, "Oona, Queen of the Fae"))) == 2
    king_rulings = rulings_of(doc, section(doc, "Reaper King"))
    assert [r.text for r in king_rulings][1] == "Reaper King's converted mana cost is 10."
    assert doc.summary() == {"sections": 6, "cards": 5, "rules": 2, "rulings": 9, "notes": 5, "warnings": 0}


# -- English HTML: Zendikar release notes (landfall, planeswalker with a bare loyalty line, land, artifact) -----
def test_en_zendikar_html() -> None:
    doc = parsed("en_zendikar_release_notes.html")
    assert doc.document.encoding == "html" and doc.document.kind == "release notes"
    assert doc.document.date == "2009-09-25"
    assert [(s.heading, s.kind) for s in doc.sections] == [
        ("Zendikar Release Notes", "release info"),
        ("Ability Word: Landfall", "ability word"),
        ("Card Type: Planeswalker", "card type"),
        ("Arid Mesa", "card notes"),
        ("Eldrazi Monument", "card notes"),
    ]  # "General Notes" / "Card-Specific Notes" are part headings, not sections
    landfall = section(doc, "Ability Word: Landfall")
    assert landfall.mechanic_en == "Landfall"
    notes = rulings_of(doc, doc.sections[0], "note")
    assert notes[-1].text.endswith("visit <MagicTheGathering.com>.")  # HTML entities decoded
    lynx = card(doc, "Steppe Lynx")
    assert (lynx.mana_cost, lynx.mana_value, lynx.power, lynx.toughness) == ("{W}", 1, "0", "1")
    assert lynx.rules_text == ("Landfall — Whenever a land enters the battlefield under your control, "
                               "Steppe Lynx gets +2/+2 until end of turn.",)
    rulings = rulings_of(doc, landfall)
    assert len(rulings) == 3
    assert rulings[0].text.endswith("a Plains & a Mountain.")
    assert rulings[1].text.splitlines()[1:] == ["— It doesn't matter who owned the land.",
                                                "— It doesn't matter where the land came from."]
    nissa = card(doc, "Nissa Revane")
    assert (nissa.loyalty, nissa.types, nissa.subtypes, nissa.mana_value) == ("2", ("Planeswalker",), ("Nissa",), 4)
    assert [a.cost for a in nissa.loyalty_abilities] == ["+1", "+1", "-7"]
    assert nissa.loyalty_abilities[1].text == "You gain 2 life for each Elf you control."
    mesa = card(doc, "Arid Mesa")
    assert (mesa.mana_cost, mesa.colors, mesa.mana_value, mesa.types) == (None, (), 0, ("Land",))
    monument = card(doc, "Eldrazi Monument")
    assert (monument.mana_cost, monument.colors, monument.mana_value, monument.types) == ("{5}", (), 5, ("Artifact",))
    assert [r.text for r in rulings_of(doc, section(doc, "Eldrazi Monument"))] == [
        "If Eldrazi Monument leaves the battlefield, creatures you control lose its bonuses."
    ]
    assert "Not a ruling" not in " ".join(r.text for r in doc.rulings)  # scripts are not text


# -- English Markdown: Lorwyn FAQ (planeswalker with "Loyalty: 3", tribal, clash steps) ----------------------
def test_en_lorwyn_markdown() -> None:
    doc = parsed("en_lorwyn_faq.md")
    assert [(s.heading, s.kind, s.mechanic_en) for s in doc.sections] == [
        ("Lorwyn Frequently Asked Questions", "release info", None),
        ("Card Type: Planeswalker", "card type", "Planeswalker"),
        ("Keyword Action: Clash", "keyword action", "Clash"),
        ("Card Type: Tribal", "card type", "Tribal"),
        ("Brigid, Hero of Kinsbaile", "card notes", None),
    ]
    garruk = card(doc, "Garruk Wildspeaker")
    assert (garruk.loyalty, garruk.mana_value, garruk.colors) == ("3", 4, ("G",))
    assert next((a.cost, a.text) for a in garruk.loyalty_abilities) == ("+1", "Untap two target lands.")
    assert [a.cost for a in garruk.loyalty_abilities] == ["+1", "-1", "-4"]  # "\[+1\]" unescaped
    smoke = card(doc, "Peppersmoke")
    assert (smoke.types, smoke.subtypes, smoke.mana_value) == (("Tribal", "Instant"), ("Faerie",), 1)
    brigid = card(doc, "Brigid, Hero of Kinsbaile")
    assert (brigid.supertypes, brigid.subtypes, brigid.power, brigid.toughness) == (
        ("Legendary",), ("Kithkin", "Archer"), "2", "3")
    assert brigid.rules_text[0] == "First strike"
    clash = section(doc, "Keyword Action: Clash")
    assert clash.captions == ("The official rules for clash are as follows:",)  # a bold lead-in, not a heading
    assert [r.number for r in rules_of(doc, clash)] == ["501.10", "501.10a"]
    steps, win = rulings_of(doc, clash)
    assert steps.text.splitlines() == [
        "Clashing works like this:",
        "1) Each player involved reveals the top card of his or her library.",
        "2) Compare the converted mana costs of the revealed cards.",
        "3) Each player puts his or her card on the top or bottom of his or her library.",
    ]
    assert win.rules_cited == ("501.10b", "501.10c")
    pw = section(doc, "Card Type: Planeswalker")
    assert len(rulings_of(doc, pw)) == 2 and len(rulings_of(doc, pw, "note")) == 1
    assert doc.document.date == "2007-10-12"


# -- Russian text: Zendikar ---------------------------------------------------------------------------------
def test_ru_zendikar_text() -> None:
    doc = parsed("ru_zendikar.txt")
    assert doc.document.languages == ("ru",) and doc.document.date == "2009-09-25"
    assert [(s.heading, s.kind) for s in doc.sections] == [
        ("Заметки к выпуску Зендикар", "release info"),
        ("Слово способности: Выход земли", "ability word"),
        ("Тип карты: Мироходец", "card type"),
        ("Казуул, Тиран Утесов", "card notes"),
        ("Вечная Башня Дозора", "card notes"),
    ]
    landfall = section(doc, "Слово способности: Выход земли")
    assert landfall.mechanic_ru == "Выход земли" and landfall.lang == "ru"
    assert section(doc, "Тип карты: Мироходец").mechanic_en == "Planeswalker"  # from the glossary
    intro = [n.text for n in rulings_of(doc, doc.sections[0], "note")]
    assert intro[0] == "Составитель: Марк Л. Готтлиб"  # a byline, not a heading
    lynx = card(doc, "Степная Рысь")
    assert (lynx.types, lynx.subtypes, lynx.power, lynx.toughness, lynx.lang) == (
        ("Creature",), ("Кошка",), "0", "1", "ru")
    twice = rulings_of(doc, landfall)[1]
    assert twice.text.splitlines()[1:] == ["— первый раз для первой земли;", "— второй раз для второй земли."]
    assert [n.text.split()[0] for n in rulings_of(doc, landfall, "note")] == ["«Выход", "Способность"]
    nissa = card(doc, "Нисса Ревейн")
    assert (nissa.loyalty, nissa.subtypes) == ("2", ("Нисса",))  # «Верность: 2»
    assert [a.cost for a in nissa.loyalty_abilities] == ["+1", "+1", "-7"]  # «−7» with a minus sign
    assert rulings_of(doc, section(doc, "Тип карты: Мироходец"))[0].rules_cited == ("212.9d",)
    kazuul = card(doc, "Казуул, Тиран Утесов")
    assert (kazuul.supertypes, kazuul.types, kazuul.subtypes) == (("Legendary",), ("Creature",), ("Огр", "Воин"))
    assert (kazuul.mana_value, kazuul.colors, kazuul.power, kazuul.toughness) == (5, ("R",), "5", "4")
    tower = card(doc, "Вечная Башня Дозора")
    assert (tower.mana_cost, tower.types, tower.rules_text) == (None, ("Land",), ("{T}: добавьте {C}.",))
    assert [r.text for r in rulings_of(doc, section(doc, "Вечная Башня Дозора"))] == [
        "Вечная Башня Дозора — это не базовая земля."
    ]


# -- Russian HTML: Theros (every card line its own <p>, <p><strong> headings, nested <ol> sub-items) ----------
def test_ru_theros_html() -> None:
    doc = parsed("ru_theros.html")
    assert doc.document.kind == "FAQ" and doc.document.date == "2013-09-09"
    assert [(s.heading, s.kind) for s in doc.sections] == [
        ("Часто задаваемые вопросы по выпуску «Терос»", "release info"),
        ("Новое ключевое слово: Дар богов", "keyword ability"),
        ("Цикл: Боги", "cycle"),
        ("Ксенагос, Гуляка", "card notes"),
        ("Гидра Рассекающая Туман", "card notes"),
    ]
    bestow = section(doc, "Новое ключевое слово: Дар богов")
    assert bestow.mechanic_ru == "Дар богов"
    assert bestow.captions == ("Официальные правила для Дара богов звучат так:",)
    assert [(r.number, r.lang) for r in rules_of(doc, bestow)] == [("702.102", "ru"), ("702.102a", "ru")]
    hero = card(doc, "Дар Героя")  # one <p> per line
    assert (hero.types, hero.subtypes, hero.power, hero.toughness) == (
        ("Enchantment", "Creature"), ("Человек", "Солдат"), "2", "2")
    assert hero.rules_text == ("Дар богов {3}{W}", "Зачарованное существо получает +2/+2.")
    assert hero.reminder_text == ("Вы можете разыграть эту карту за ее стоимость Дара богов.",)
    first = rulings_of(doc, bestow)[0]
    assert first.text.splitlines() == [
        "Если цель Ауры с Даром богов становится недопустимой, заклинание не отменяется:",
        "1) Оно разрешается как заклинание существа.",
        "2) Оно выходит на поле битвы как существо.",
    ]
    erebos = card(doc, "Эребос, Бог Мертвых")
    assert (erebos.supertypes, erebos.types, erebos.subtypes) == (("Legendary",), ("Enchantment", "Creature"), ("Бог",))
    assert erebos.section_id == section(doc, "Цикл: Боги").id
    xenagos = card(doc, "Ксенагос, Гуляка")
    assert (xenagos.loyalty, xenagos.colors, xenagos.mana_value) == ("3", ("R", "G"), 4)  # bare loyalty line
    assert [a.cost for a in xenagos.loyalty_abilities] == ["+1", "0", "-6"]
    hydra = card(doc, "Гидра Рассекающая Туман")
    assert (hydra.mana_cost, hydra.mana_value, hydra.colors) == ("{X}{G}", 1, ("G",))  # X counts 0
    assert (hydra.power, hydra.toughness) == ("0", "0")
    assert not any("Главная" in r.text or "Wizards" in r.text for r in doc.rulings)  # page chrome is not text


# -- Russian Markdown: Dominaria (a bold card name, reminder text in *italics*) -------------------------------
def test_ru_dominaria_markdown() -> None:
    doc = parsed("ru_dominaria.md")
    assert [(s.heading, s.kind) for s in doc.sections] == [
        ("Заметки к выпуску «Доминария»", "release info"),
        ("Возвращающееся ключевое слово: Кикер", "keyword ability"),
        ("Тема: исторические заклинания", "theme"),
    ]
    assert section(doc, "Возвращающееся ключевое слово: Кикер").mechanic_ru == "Кикер"
    fireball = card(doc, "Огненный Шар Шивы")
    assert (fireball.types, fireball.mana_value) == (("Instant",), 2)  # «Мгновенное заклинание»
    assert fireball.rules_text == ("Кикер {1}{U}", "Огненный Шар Шивы наносит 3 повреждения целевому существу.")
    assert fireball.reminder_text == ("Вы можете дополнительно заплатить {1}{U} при разыгрывании этого заклинания.",)
    tiana = card(doc, "Тиана, Хранительница Кораблей")  # **bold** name
    assert (tiana.supertypes, tiana.subtypes, tiana.power, tiana.toughness) == (("Legendary",), ("Ангел",), "3", "1")
    assert tiana.rules_text == ("Полет",)
    kicker = rulings_of(doc, section(doc, "Возвращающееся ключевое слово: Кикер"))
    assert [r.text for r in kicker][1] == "Если заклинание с кикером копируется, копия тоже «с кикером»."
    assert doc.summary()["rulings"] == 3


# -- warnings, formats of the genre fixtures ------------------------------------------------------------------
def test_bullet_before_any_heading_warns_with_file_and_line() -> None:
    doc = parsed("en_ru_bullet_first.txt")
    assert [str(w) for w in doc.warnings] == ["fixtures/en_ru_bullet_first.txt:1: ruling before any heading"]
    assert doc.summary()["warnings"] == 1
    first = next(r for r in doc.rulings if r.kind == "ruling")
    assert first.text.startswith("Ruling before any heading") and first.source.start == 1  # kept, not dropped
    persist = section(doc, "Ключевое слово: Упорство")  # a labelled heading with no separator before it
    assert persist.kind == "keyword ability" and persist.mechanic_en == "Persist"
    assert [r.text for r in rulings_of(doc, persist)] == ["Второй ruling идет после заголовка."]


def test_bullet_first_in_html_warns_too(tmp_path: Path) -> None:
    page = tmp_path / "faq.html"
    page.write_text("<html><body>\n<ul>\n<li>Orphan ruling.</li>\n</ul>\n<h3>Cycle: Monuments</h3>\n"
                    "<ul><li>A ruling.</li></ul></body></html>", encoding="utf-8")
    doc = parse_path(page, None, glossary(), label="faq.html")
    assert [str(w) for w in doc.warnings] == ["faq.html:3: ruling before any heading"]
    assert [s.kind for s in doc.sections] == ["release info", "cycle"]


@pytest.mark.parametrize("name", ["en_shadowmoor_faq.txt", "ru_zendikar.txt"])
def test_text_fixtures_as_html_and_markdown(tmp_path: Path, name: str) -> None:
    text = (FIXTURES / name).read_text(encoding="utf-8")
    expected = parse_path(FIXTURES / name, None, glossary(), label=name)
    for suffix, content in [
        (".html", to_html(text, lang=name[:2])),
        (".htm", to_html(text, heading_style="strong", sub_items="nested")),
        (".md", to_markdown(text)),
        (".markdown", to_markdown(text, heading_style="**", bullet="-")),
    ]:
        target = tmp_path / (Path(name).stem + suffix)
        target.write_text(content, encoding="utf-8")
        assert_same_entries(expected, parse_path(target, None, glossary(), label=name))


def test_page_without_structure_is_an_error(tmp_path: Path) -> None:
    page = tmp_path / "empty.html"
    page.write_text("<html><head><title>x</title><script>var a = 1;</script></head><body><nav>Home</nav></body></html>",
                    encoding="utf-8")
    with pytest.raises(IngestError, match="no text"):
        parse_path(page, None, glossary(), label="empty.html")
