"""Knowledge-base entries → engine-neutral index documents.

One index document per searchable entry (ruling, note, rule, card). Besides the entry's own text it
carries the context a player searches by: the section's heading and mechanic in both languages
(``topic``), the cards it mentions in both languages (``cards``) and the rule numbers it cites
(``rules``), so that a query naming a mechanic or a card can rank that section's rulings first.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the entry model is only needed to build an index, never to search one
    from ingest.entries import Card, Document, Rule, Ruling, Section
    from kb.store import KnowledgeBase

SEARCHABLE_KINDS = ("ruling", "note", "rule", "card")


@dataclass(frozen=True)
class IndexDoc:
    """What the engine indexes and stores for one entry."""

    id: str
    kind: str  # ruling | note | rule | card
    document: str  # document id: lrw, shm, ...
    section: str  # section id ("" when none)
    lang: str
    text: str  # the entry's full text, as returned to the user
    topic: str = ""  # section heading, mechanic RU + EN, subheading
    cards: str = ""  # card names, both languages
    rules: str = ""  # rule numbers: its own and those it cites
    order: int = 0  # position in the knowledge base: the tie-break
    extra: dict[str, Any] = field(default_factory=dict)  # stored, returned in JSON


def card_text(card: Card) -> str:
    """A card as a player reads it: name, cost, type line, P/T or loyalty, abilities."""
    lines = [card.name]
    if card.mana_cost:
        lines[0] += f" {card.mana_cost}"
    lines.append(card.type_line)
    if card.power is not None and card.toughness is not None:
        lines.append(f"{card.power}/{card.toughness}")
    if card.loyalty:
        lines.append(f"Верность: {card.loyalty}")
    lines.extend(card.rules_text)
    lines.extend(f"[{a.cost}]: {a.text}" for a in card.loyalty_abilities)
    lines.extend(f"({r})" for r in card.reminder_text)
    if card.name_ru:  # an MTGJSON card: its Russian name and printed Russian text are searched too
        lines.append(card.name_ru)
        lines.extend(dict.fromkeys(p.text_ru for p in card.printings if p.text_ru))
    return "\n".join(line for line in lines if line)


def _translate(names: list[str], pairs: dict[str, str]) -> list[str]:
    out: list[str] = []
    for name in names:
        for candidate in (name, pairs.get(name.lower().replace("ё", "е"), "")):
            if candidate and candidate not in out:
                out.append(candidate)
    return out


def _topic(
    section: Section | None, subheading: str | None, mechanic_names: dict[str, str], container: bool = False
) -> str:
    """What the entry is about, from its section: the heading and the mechanic's names.

    Two headings label a place, not a subject, and are left out: a release-info section's («Сборник основных
    правил…») and a container's (``container``: a card-notes section holding many cards, as MTGJSON's
    «Карты и официальные разъяснения» holding every card of a set — the card is the entry's topic, in its
    ``cards`` field). Such a heading, shared by most of the corpus, only adds a near-zero score to nearly
    every entry, and every query with «карта» would walk all of them.
    """
    if section is None:
        return subheading or ""
    heading = "" if section.kind == "release info" or container else section.heading
    parts = [heading, section.mechanic_ru or "", section.mechanic_en or "", subheading or ""]
    for name in (section.mechanic_ru, section.mechanic_en):
        if name:
            parts.append(mechanic_names.get(name.lower(), ""))
    unique: list[str] = []
    for part in parts:
        if part and part not in unique:
            unique.append(part)
    return "\n".join(unique)


def _container(section: Section | None, section_cards: dict[str, list[Card]]) -> bool:
    """A card-notes section holding more than the card it is about and an example (see ``_topic``)."""
    return section is not None and section.kind == "card notes" and len(section_cards.get(section.id, ())) > 2


def index_documents(
    kb: KnowledgeBase,
    card_pairs: dict[str, str] | None = None,
    mechanic_names: dict[str, str] | None = None,
) -> Iterator[IndexDoc]:
    """Every searchable entry of ``kb`` as an ``IndexDoc``, in knowledge-base order."""
    from ingest.entries import Card, Rule, Ruling

    card_pairs = card_pairs or {}
    mechanic_names = mechanic_names or {}
    sections = {s.id: s for s in kb.sections}
    documents = {d.id: d for d in kb.documents}
    cards_by_id = {c.id: c for c in kb.cards}
    section_cards: dict[str, list[Card]] = defaultdict(list)
    for card in kb.cards:
        section_cards[card.section_id].append(card)

    for order, entry in enumerate(kb.entries):
        if isinstance(entry, Ruling):
            section = sections.get(entry.section_id)
            names = list(entry.cards)
            names += [cards_by_id[c].name for c in entry.card_ids if c in cards_by_id]
            names += [n.ru for n in entry.english_names] + [n.en for n in entry.english_names]
            own_cards = section_cards.get(entry.section_id, [])
            if section and len(own_cards) <= 2:  # the card a section is about, or its one example card
                names += [c.name for c in own_cards] + [c.name_en for c in own_cards if c.name_en]
            yield IndexDoc(
                id=entry.id,
                kind=entry.kind,
                document=entry.document_id,
                section=entry.section_id,
                lang=entry.lang,
                text=entry.text,
                topic=_topic(section, entry.subheading, mechanic_names, _container(section, section_cards)),
                cards="\n".join(_translate(names, card_pairs)),
                rules=" ".join(entry.rules_cited),
                order=order,
                extra={**_extra(entry, section, documents), **_twin(kb, entry)},
            )
        elif isinstance(entry, Rule):
            section = sections.get(entry.section_id)
            text = entry.text if entry.text.startswith(entry.number) else f"{entry.number} {entry.text}"
            yield IndexDoc(
                id=entry.id,
                kind="rule",
                document=entry.document_id,
                section=entry.section_id,
                lang=entry.lang,
                text=text,
                topic=_topic(section, None, mechanic_names),
                rules=entry.number,
                order=order,
                extra={**_extra(entry, section, documents), **_twin(kb, entry), "number": entry.number},
            )
        elif isinstance(entry, Card):
            section = sections.get(entry.section_id)
            names = [entry.name] + ([entry.name_en] if entry.name_en else [])
            yield IndexDoc(
                id=entry.id,
                kind="card",
                document=entry.document_id,
                section=entry.section_id,
                lang=entry.lang,
                text=card_text(entry),
                topic=_topic(section, None, mechanic_names, _container(section, section_cards)),
                cards="\n".join(_translate(names, card_pairs)),
                order=order,
                extra={**_extra(entry, section, documents), **_twin(kb, entry), "name": entry.name,
                       "name_en": entry.name_en},
            )


def _twin(kb: KnowledgeBase, entry: Ruling | Rule | Card) -> dict[str, Any]:
    """The same entry in the other language's document (``ingest.bilingual``): search shows the pair once."""
    from ingest.entries import Card, Rule, Ruling

    twin = kb.get(entry.aligned) if entry.aligned else None
    if not isinstance(twin, Ruling | Rule | Card) or twin.document_id == entry.document_id:
        return {}
    text = twin.text if isinstance(twin, Ruling) else card_text(twin) if isinstance(twin, Card) else (
        f"{twin.number} {twin.text}")
    section = kb.get(twin.section_id)
    document = kb.get(twin.document_id)
    kind = twin.kind if isinstance(twin, Ruling) else twin.entry_type
    return {"twin": {"id": twin.id, "kind": kind, "lang": twin.lang, "text": text, "document": twin.document_id,
                     "section": twin.section_id, "section_title": getattr(section, "heading", ""),
                     "document_title": getattr(document, "title", "")}}


def _extra(entry: Ruling | Rule | Card, section: Section | None, documents: dict[str, Document]) -> dict[str, Any]:
    from ingest.entries import Ruling

    document = documents.get(entry.document_id)
    extra: dict[str, Any] = {
        "section_title": section.heading if section else "",
        "document_title": document.title if document else "",
        "set": document.set_code if document else entry.document_id.upper(),
    }
    if isinstance(entry, Ruling):
        extra.update(
            subheading=entry.subheading,
            cards=list(entry.cards),
            rules_cited=list(entry.rules_cited),
            aligned=entry.aligned,
        )
    if section is not None and (section.mechanic_ru or section.mechanic_en):
        extra["mechanic"] = {"ru": section.mechanic_ru, "en": section.mechanic_en}
    return extra
