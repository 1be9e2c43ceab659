"""A query that names a card answers with the card first and the rulings about it next.

The glossary recognises card names (English or Russian, any case form) as ``card:<english name>``
concepts. For each one the card entries are fetched with the name as a filter on the ``cards`` field
(whether or not BM25 ranked them in the page), then the page is reordered: the named cards, the hits
that are about them (their ``cards`` field names them), then the rest, each group in score order.
"""

from __future__ import annotations

from dataclasses import replace

from kb.search.engine import Filters, Hit, Searcher
from kb.search.glossary import Glossary
from kb.search.query import name_filter

CARD_CONCEPT = "card:"
MAX_CARDS = 3  # card entries fetched per named card (a document's card block and the MTGJSON card)


def named_cards(concepts: list[str]) -> list[str]:
    """English names (lower case) of the cards a query names, in query order."""
    return list(dict.fromkeys(c[len(CARD_CONCEPT):] for c in concepts if c.startswith(CARD_CONCEPT)))


def _names_of(hit: Hit) -> set[str]:
    names = {str(n).lower() for n in hit.extra.get("cards", []) or []}
    names |= {str(hit.extra.get(k) or "").lower() for k in ("name", "name_en")}
    return names - {""}


def card_first(
    hits: list[Hit], names: list[str], searcher: Searcher, glossary: Glossary, filters: Filters
) -> list[Hit]:
    if not names or (filters.kinds and "card" not in filters.kinds and not hits):
        return hits
    cards: list[Hit] = []
    if not filters.kinds or "card" in filters.kinds:
        for name in names:
            node = name_filter(name, "cards", glossary, searcher)
            if node is None:
                continue
            only_cards = replace(filters, kinds=("card",), nodes=(*filters.nodes, node))
            page = searcher.search(None, only_cards, MAX_CARDS * 4)
            exact = [h for h in page.hits if name in {str(h.extra.get(k) or "").lower() for k in ("name", "name_en")}]
            exact.sort(key=lambda h: not h.id.startswith("mtgjson/"))  # the full card view first
            cards.extend(exact[:MAX_CARDS])
    seen = {h.id for h in cards}
    top = max((h.score for h in hits), default=1.0)
    ordered = [replace(h, score=top + 2.0) for h in cards]
    about = [h for h in hits if h.id not in seen and h.kind != "card" and _names_of(h) & set(names)]
    about_ids = {h.id for h in about}
    rest = [h for h in hits if h.id not in seen and h.id not in about_ids]
    ordered += [replace(h, score=top + 1.0 + h.score / (top * 10 or 1)) for h in about]
    return ordered + rest
