"""Golden counts and spot checks of the five bundled documents, against facts read off the sources."""

from __future__ import annotations

import pytest

from ingest.entries import Card, Document, ParsedDocument, Rule, Ruling, Section
from kb.store import KnowledgeBase

GOLDEN_RULINGS = {"lrw": 66, "dtk": 24, "gtc": 45, "shm": 54, "frf": 16}
GOLDEN_CARDS = {"lrw": 8, "dtk": 3, "gtc": 14, "shm": 11, "frf": 2}
GOLDEN_RULES = {"lrw": 18, "dtk": 7, "gtc": 10, "shm": 15, "frf": 7}


def by_id(kb: KnowledgeBase, entry_id: str) -> object:
    entry = kb.get(entry_id)
    assert entry is not None, f"missing entry {entry_id}"
    return entry


def test_golden_counts_per_document(parsed_seeds: list[ParsedDocument]) -> None:
    summaries = {doc.document.id: doc.summary() for doc in parsed_seeds}
    assert {k: v["rulings"] for k, v in summaries.items()} == GOLDEN_RULINGS
    assert {k: v["cards"] for k, v in summaries.items()} == GOLDEN_CARDS
    assert {k: v["rules"] for k, v in summaries.items()} == GOLDEN_RULES
    assert sum(v["warnings"] for v in summaries.values()) == 0


def test_every_bullet_of_the_sources_is_a_ruling(seed_kb: KnowledgeBase, parsed_seeds: list[ParsedDocument]) -> None:
    """Each ``* `` line of each source file is the first line of exactly one ruling."""
    from pathlib import Path

    for doc in parsed_seeds:
        path = Path(doc.document.source.path)
        bullet_lines = [n for n, line in enumerate(path.read_text("utf-8").splitlines(), 1) if line.startswith("* ")]
        ruling_lines = sorted(r.source.start for r in doc.rulings if r.kind == "ruling")
        assert ruling_lines == bullet_lines, doc.document.id


def test_shm_english_conspire_block_is_five_english_rulings_aligned_to_russian(seed_kb: KnowledgeBase) -> None:
    english = [r for r in seed_kb.rulings if r.document_id == "shm" and r.kind == "ruling" and r.lang == "en"]
    assert len(english) == 5
    assert all(r.section_id == "shm/conspire-en" for r in english)
    for index, ruling in enumerate(english, start=1):
        assert ruling.aligned == f"shm/conspire/{index}"
        russian = by_id(seed_kb, f"shm/conspire/{index}")
        assert isinstance(russian, Ruling) and russian.aligned == ruling.id and russian.lang == "ru"
    stifle = by_id(seed_kb, "shm/conspire-en/5")
    assert isinstance(stifle, Ruling) and "Stifle" in stifle.text and "Stifle" in stifle.cards
    rule = by_id(seed_kb, "shm/rule/502.78a/en")
    assert isinstance(rule, Rule) and rule.aligned == "shm/rule/502.78a/ru"
    assert rule.rules_cited == ("409.1b", "409.1f", "409.1g", "409.1h")


def test_rule_excerpts_have_numbers_and_headings(seed_kb: KnowledgeBase) -> None:
    numbers = [r.number for r in seed_kb.rules]
    assert len(numbers) == 57
    assert {"702.36a", "502.78", "212.3g", "104.5", "701.31f", "212.8"} <= set(numbers)
    evoke = by_id(seed_kb, "lrw/rule/502.74a/ru")
    assert isinstance(evoke, Rule)
    assert evoke.rules_cited == ("409.1b", "409.1f", "409.1g", "409.1h")


@pytest.mark.parametrize(
    ("card_id", "name", "cost", "mana_value", "colors", "types", "subtypes", "pt"),
    [
        ("lrw/card/garruk-wildspeaker", "Гаррук Дикоречивый", "{2}{G}{G}", 4, ("G",), ("Planeswalker",),
         ("Гаррук",), (None, None)),
        ("shm/card/beseech-the-queen", "Взывания к Королеве", "{2/B}{2/B}{2/B}", 6, ("B",), ("Sorcery",), (),
         (None, None)),
        ("shm/card/wasp-lancer", "Налетчик с Осиным Копьем", "{U/B}{U/B}{U/B}", 3, ("U", "B"), ("Creature",),
         ("Фея", "Солдат"), ("3", "2")),
        ("lrw/card/mosswort-bridge", "Мост Ползучего Мха", None, 0, (), ("Land",), (), (None, None)),
        ("gtc/card/stomping-ground", "Токовище", None, 0, (), ("Land",), ("Гора", "Лес"), (None, None)),
        ("lrw/card/dread", "Жуть", "{3}{B}{B}{B}", 6, ("B",), ("Creature",), ("Элементаль", "Инкарнация"), ("6", "6")),
        ("dtk/card/kolaghan-monument", "Монумент Колаган", "{3}", 3, (), ("Artifact",), (), (None, None)),
        ("lrw/card/nova-chaser", "Охотница на Новые Звезды", "{3}{R}", 4, ("R",), ("Creature",),
         ("Элементаль", "Воин"), ("10", "2")),
    ],
)
def test_card_fields(
    seed_kb: KnowledgeBase, card_id: str, name: str, cost: str | None, mana_value: int,
    colors: tuple[str, ...], types: tuple[str, ...], subtypes: tuple[str, ...], pt: tuple[str | None, str | None],
) -> None:
    card = by_id(seed_kb, card_id)
    assert isinstance(card, Card)
    assert (card.name, card.mana_cost, card.mana_value, card.colors) == (name, cost, mana_value, colors)
    assert (card.types, card.subtypes, (card.power, card.toughness)) == (types, subtypes, pt)


def test_mana_value_of_x_is_zero_and_reminders_are_kept_apart(seed_kb: KnowledgeBase) -> None:
    mirror = by_id(seed_kb, "lrw/card/mirror-entity")
    assert isinstance(mirror, Card)
    assert mirror.rules_text[0] == "Перевертыш"
    assert mirror.reminder_text == ("Эта карта всегда обладает всеми типами существ.",)
    assert mirror.rules_text[1].startswith("{X}:")


def test_planeswalker_loyalty_abilities(seed_kb: KnowledgeBase) -> None:
    garruk = by_id(seed_kb, "lrw/card/garruk-wildspeaker")
    assert isinstance(garruk, Card)
    assert [a.cost for a in garruk.loyalty_abilities] == ["+1", "-1", "-4"]
    assert garruk.loyalty_abilities[0].text == "Разверните две целевые земли."


def test_sub_items_stay_inside_their_ruling(seed_kb: KnowledgeBase) -> None:
    clash_steps = next(r for r in seed_kb.rulings if r.document_id == "lrw" and "1) Игрок, контролирующий" in r.text)
    assert clash_steps.text.count("\n") == 8  # the bullet plus steps 1) … 8)
    assert clash_steps.text.splitlines()[-1].startswith("8) ")
    tribal = by_id(seed_kb, "lrw/tribal/2")
    assert isinstance(tribal, Ruling) and tribal.text.count("\n— ") == 3


def test_card_mentions_in_any_case_form(seed_kb: KnowledgeBase) -> None:
    shock = by_id(seed_kb, "lrw/planeswalker/13")  # «…с Шоком нельзя заставить Шок…»
    assert isinstance(shock, Ruling) and "Shock" in shock.cards
    redcap_rulings = [r for r in seed_kb.rulings if "shm/card/murderous-redcap" in r.card_ids]
    assert all("Колпак" in r.text for r in redcap_rulings)
    humble = by_id(seed_kb, "lrw/champion/3")
    assert isinstance(humble, Ruling)
    assert [(n.ru, n.en) for n in humble.english_names] == [("Смирить", "Humble")]


def test_sections_have_kinds_and_bilingual_mechanic_names(seed_kb: KnowledgeBase) -> None:
    expected = {
        "lrw/planeswalker": ("card type", "Planeswalker"),
        "lrw/clash": ("keyword action", "Clash"),
        "shm/persist": ("keyword ability", "Persist"),
        "gtc/bloodrush": ("ability word", "Bloodrush"),
        "dtk/monuments": ("cycle", "Monuments"),
        "shm/counters": ("theme", "-1/-1 counters"),
        "gtc/release-info-2": ("release info", "Release information"),
        "frf/manifest": ("keyword action", "Manifest"),
        "gtc/agoraphobia": ("card notes", None),
    }
    for section_id, (kind, mechanic_en) in expected.items():
        section = by_id(seed_kb, section_id)
        assert isinstance(section, Section)
        assert (section.kind, section.mechanic_en) == (kind, mechanic_en), section_id


def test_subheadings_and_captions_are_not_rulings(seed_kb: KnowledgeBase) -> None:
    texts = {r.text for r in seed_kb.rulings}
    assert "ПОДТИПЫ МИРОХОДЦЕВ" not in texts
    assert not any(t.startswith("Официальные правила для") for t in texts)
    ruling = by_id(seed_kb, "lrw/planeswalker/1")
    assert isinstance(ruling, Ruling) and ruling.subheading == "ПОДТИПЫ МИРОХОДЦЕВ"
    persist = by_id(seed_kb, "shm/persist")
    assert isinstance(persist, Section)
    assert persist.captions == ("Официальные правила для способности Упорства звучат так:",)


def test_documents_carry_manifest_and_dates(seed_kb: KnowledgeBase) -> None:
    gtc = by_id(seed_kb, "gtc")
    shm = by_id(seed_kb, "shm")
    assert isinstance(gtc, Document) and isinstance(shm, Document)
    assert gtc.kind == "FAQ" and gtc.date == "2012-12-10"
    assert shm.languages == ("en", "ru") and shm.set_code == "SHM"


def test_reingest_is_byte_identical(parsed_seeds: list[ParsedDocument], seed_kb: KnowledgeBase) -> None:
    from kb import build as kb_build

    again = kb_build.build(kb_build.parse_sources(kb_build.bundled_sources()))
    assert again.to_json() == seed_kb.to_json()
    assert KnowledgeBase.from_json(seed_kb.to_json()).to_json() == seed_kb.to_json()


def test_ids_are_unique_and_hashes_present(seed_kb: KnowledgeBase) -> None:
    ids = [e.id for e in seed_kb.entries]
    assert len(ids) == len(set(ids))
    assert all(getattr(e, "content_hash", "x") for e in seed_kb.entries)
