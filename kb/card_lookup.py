"""Find a card by what a judge types (English or Russian name, any case form, a typo) and gather
everything said about it: the documents' rulings and the official ones, across the card's entries.

A card may have several entries: a document's card block (``shm/card/murderous-redcap``) and the
MTGJSON card (``mtgjson/card/murderous-redcap``), linked by ``same_as``. The MTGJSON entry is the
card's full view (both texts, every printing), so a lookup answers with it where it exists.
"""

from __future__ import annotations

from collections.abc import Iterable

from ingest.entries import Card, Ruling, Section
from ingest.names import fold_name
from kb.store import KnowledgeBase

TYPO_CUTOFF = 0.8


def _names(card: Card) -> list[str]:
    return [n for n in (card.name, card.name_en, card.name_ru) if n]


def _lemma_key(text: str) -> tuple[frozenset[str], ...]:
    from ingest.morphology import lemmas, words  # pymorphy3: only for a name in another case form

    return tuple(frozenset(lemmas(w)) for _, _, w in words(text))


def _prefer_full(cards: Iterable[Card]) -> list[Card]:
    """The MTGJSON entries where there are any (they link the document's own), else the document cards."""
    found = list(dict.fromkeys(cards))
    full = [c for c in found if c.printings]
    return full or found


def find_cards(kb: KnowledgeBase, key: str) -> list[Card]:
    """Exact name (folded), then the same words in another case form, then the closest name (a typo)."""
    folded = fold_name(key)
    if not folded:
        return []
    cards = kb.cards
    exact = [c for c in cards if folded in {fold_name(n) for n in _names(c)}]
    if exact:
        return _prefer_full(exact)
    wanted = _lemma_key(key)
    if wanted:
        inflected = [
            c for c in cards
            if any(
                len(k) == len(wanted) and all(a & b for a, b in zip(k, wanted, strict=True))
                for k in (_lemma_key(n) for n in _names(c))
            )
        ]
        if inflected:
            return _prefer_full(inflected)
    by_name: dict[str, list[Card]] = {}
    for card in cards:
        for name in _names(card):
            by_name.setdefault(fold_name(name), []).append(card)
    import difflib  # a typo: the last resort

    close = difflib.get_close_matches(folded, list(by_name), n=1, cutoff=TYPO_CUTOFF)
    return _prefer_full(by_name[close[0]]) if close else []


def related_cards(kb: KnowledgeBase, card: Card) -> list[Card]:
    """The card and its entries from other sources."""
    found = [card] + [c for cid in card.same_as if isinstance(c := kb.get(cid), Card)]
    return list(dict.fromkeys(found))


def card_rulings(kb: KnowledgeBase, card: Card) -> list[Ruling]:
    """Every ruling about the card: the documents' first (in their order), then the official list."""
    entries = related_cards(kb, card)
    ids = {c.id for c in entries}
    names = {fold_name(n) for c in entries for n in _names(c)}
    own_sections = {
        c.section_id for c in entries
        if not c.printings and isinstance(s := kb.get(c.section_id), Section) and s.kind == "card notes"
    }
    found = [
        r for r in kb.rulings
        if ids & set(r.card_ids)
        or (not _official(r) and names & {fold_name(n) for n in r.cards})
        or r.section_id in own_sections
    ]
    official = {r.id for r in found if _official(r)}
    found += [r for r in kb.rulings if not _official(r) and official & set(r.same_as) and r not in found]
    return sorted(found, key=_official)  # stable: documents first, then official


def _official(ruling: Ruling) -> bool:
    return ruling.id.startswith("mtgjson/")
