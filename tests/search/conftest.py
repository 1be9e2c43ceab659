"""Fixtures for search tests: a small hand-built knowledge base and an index over it in a tmp build dir."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ingest.entries import Card, Document, Rule, Ruling, Section, SourceSpan
from kb import store
from kb.store import KnowledgeBase

SPAN = SourceSpan("test.txt", 1, 1)


def document(doc_id: str = "shm", code: str = "SHM", en: str = "Shadowmoor", ru: str = "Шэдоумур") -> Document:
    return Document(
        id=doc_id, document_id=doc_id, source=SPAN, title=f"Заметки — {ru}", set_code=code, set_name_ru=ru,
        set_name_en=en, kind="release notes", date=None, languages=("ru",), sha256="0" * 64, encoding="utf-8",
        content_hash="x",
    )


def section(sec_id: str, heading: str, mech_ru: str | None = None, mech_en: str | None = None,
            kind: str = "keyword ability", lang: str = "ru") -> Section:
    doc_id = sec_id.split("/")[0]
    return Section(id=sec_id, document_id=doc_id, source=SPAN, heading=heading, kind=kind,  # type: ignore[arg-type]
                   mechanic_ru=mech_ru, mechanic_en=mech_en, lang=lang, order=0)  # type: ignore[arg-type]


def ruling(rid: str, text: str, kind: str = "ruling", lang: str = "ru", cards: tuple[str, ...] = (),
           rules_cited: tuple[str, ...] = ()) -> Ruling:
    doc_id, sec, _ = rid.split("/")
    return Ruling(id=rid, document_id=doc_id, source=SPAN, section_id=f"{doc_id}/{sec}", kind=kind,  # type: ignore[arg-type]
                  text=text, lang=lang, cards=cards, rules_cited=rules_cited)  # type: ignore[arg-type]


def rule(doc_id: str, sec_id: str, number: str, text: str) -> Rule:
    return Rule(id=f"{doc_id}/rule/{number}/ru", document_id=doc_id, source=SPAN, section_id=sec_id,
                number=number, text=text, lang="ru")


def card(doc_id: str, sec_id: str, slug: str, name: str, name_en: str, text: str) -> Card:
    return Card(id=f"{doc_id}/card/{slug}", document_id=doc_id, source=SPAN, section_id=sec_id, name=name,
                name_en=name_en, mana_cost="{2}{B/R}{B/R}", colors=("B", "R"), mana_value=4,
                type_line="Существо — Гоблин Убийца", supertypes=(), types=("Creature",), subtypes=("Goblin",),
                power="2", toughness="2", loyalty=None, rules_text=(text,), reminder_text=(),
                loyalty_abilities=(), lang="ru")


def small_kb() -> KnowledgeBase:
    """A dozen entries exercising morphology, symbols, rule numbers, two languages and two sets."""
    entries = [
        document(),
        section("shm/persist", "Новая способность с ключевым словом: Упорство", "Упорство", "Persist"),
        section("shm/counters", "Тема: жетоны «-1/-1»", "жетоны «-1/-1»", "-1/-1 counters", kind="theme"),
        section("shm/untap", "Новый значок: символ разворота карты", None, None, kind="theme"),
        section("shm/conspire-en", "Conspire", "Заговор", "Conspire", lang="en"),
        card("shm", "shm/persist", "murderous-redcap", "Кровожадный Красный Колпак", "Murderous Redcap",
             "Упорство"),
        rule("shm", "shm/persist", "502.79", "Упорство"),
        rule("shm", "shm/persist", "502.79a", "Упорство — это срабатывающая способность."),
        ruling("shm/persist/note-1", "Упорство — это способность, которая может вернуть существо к жизни.",
               kind="note"),
        ruling("shm/persist/1", "Если Упорство есть у фишки, то эта способность срабатывает, когда фишка "
                                "попадает из игры на кладбище."),
        ruling("shm/persist/2", "Если несколько существ со способностью Упорства одновременно попадают на "
                                "кладбище (например, под действием заклинания Гнев Божий), они возвращаются "
                                "по одному.", cards=("Wrath of God",)),
        ruling("shm/counters/1", "Если на перманенте есть хотя бы один жетон +1/+1 и хотя бы один жетон "
                                 "-1/-1, удалите с него пары этих жетонов.", rules_cited=("704.5r",)),
        ruling("shm/counters/2", "Существо 2/2 с одним жетоном -1/-1 становится 1/1. Его существа стали "
                                 "сильнее не станут."),
        ruling("shm/untap/1", "Если перманент уже развернут, то его способность {Q} разыграть нельзя; "
                              "{T} и {2/B} здесь ни при чем."),
        ruling("shm/untap/2", "Изделие из стали не может быть сильнее."),
        ruling("shm/conspire-en/1", "The copy you create with conspire is separate from the original spell.",
               lang="en"),
        document("lrw", "LRW", "Lorwyn", "Лорвин"),
        section("lrw/planeswalker", "Тип карты: Мироходец", "Мироходец", "Planeswalker", kind="card type"),
        ruling("lrw/planeswalker/1", "Мироходцы не являются существами, поэтому они не могут атаковать. "
                                     "Однако самих мироходцев можно атаковать. Ёлка здесь ни при чем."),
        ruling("lrw/planeswalker/2", "Один мироходец входит в игру с жетонами верности; см. правило 702.36d."),
    ]
    return KnowledgeBase(entries=entries, fingerprint="test")


@pytest.fixture
def kb_dir(build_dir: Path) -> Iterator[Path]:
    """The small knowledge base saved into an isolated build dir (see the ``build_dir`` fixture)."""
    build_dir.mkdir(parents=True, exist_ok=True)
    store.save(small_kb(), build_dir / "kb.sqlite")
    yield build_dir


@pytest.fixture
def session(kb_dir: Path) -> Iterator[object]:
    from kb.search.service import open_session

    opened = open_session()
    yield opened
    opened.close()
