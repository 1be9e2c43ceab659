"""A query that names a card finds the card: the card entries are fetched by name whatever BM25 says.
A query that is a rule number («702.36d») puts that rule first, before the entries that cite it.

The glossary recognises card names (English or Russian, any case form) as ``card:<english name>``
concepts. Where they go depends on what else the query asks (measured on the development and holdout
query sets, ``scripts/bench_relevance.py``):

- the query *is* a card name («Кровожадный Красный Колпак», stop words aside): the card entries first
  (the MTGJSON card, with both texts and every printing, before a document's card block), then the hits
  that are about the card (their ``cards`` field names it), then the rest, each group in score order;
- the query asks something about a card («вернуть Агорафобию до боевых повреждений»): the best hit stays
  first (it is the ruling that answers, Recall@1 0.910 against 0.815 with the card first, dev + holdout), the card
  entries come right after it, then the rest in score order.
"""

from __future__ import annotations

import re
from dataclasses import replace

from kb.search.analysis import tokenize
from kb.search.engine import Filters, Hit, Searcher
from kb.search.glossary import Glossary
from kb.search.query import CARD_CONCEPT, name_filter

_RULE_HINT = re.compile(r"\d{3}\.\d")  # what every rule number token (``analysis._TOKEN_RE``) holds
MAX_CARDS = 3  # card entries kept per named card (a document's card block and the MTGJSON card)


def named_cards(concepts: list[str]) -> list[str]:
    """English names (lower case) of the cards a query names, in query order."""
    return list(dict.fromkeys(c[len(CARD_CONCEPT):] for c in concepts if c.startswith(CARD_CONCEPT)))


def is_name_only(query: str, glossary: Glossary) -> bool:
    """Every word of the query (stop words aside) belongs to a card name the glossary recognises."""
    tokens = tokenize(query)
    covered: set[int] = set()
    for hit in glossary.find([tok.terms("query") for tok in tokens]):
        if hit.concept.startswith(CARD_CONCEPT):
            covered.update(range(hit.start, hit.end))
    return bool(covered) and all(tok.stop or i in covered for i, tok in enumerate(tokens))


def _names_of(hit: Hit) -> set[str]:
    names = {str(n).lower() for n in hit.extra.get("cards", []) or []}
    names |= {str(hit.extra.get(k) or "").lower() for k in ("name", "name_en")}
    return names - {""}


def _card_hits(names: list[str], searcher: Searcher, glossary: Glossary, filters: Filters) -> list[Hit]:
    found: list[Hit] = []
    for name in names:
        node = name_filter(name, "cards", glossary, searcher)
        if node is None:
            continue
        only_cards = replace(filters, kinds=("card",), nodes=(*filters.nodes, node))
        page = searcher.search(None, only_cards, MAX_CARDS * 4)
        exact = [h for h in page.hits if name in {str(h.extra.get(k) or "").lower() for k in ("name", "name_en")}]
        exact.sort(key=lambda h: not h.id.startswith("mtgjson/"))  # the full card view first
        found.extend(exact[:MAX_CARDS])
    return found


def card_first(
    hits: list[Hit], query: str, names: list[str], searcher: Searcher, glossary: Glossary, filters: Filters
) -> list[Hit]:
    if not names or (filters.kinds and "card" not in filters.kinds):
        return hits
    cards = _card_hits(names, searcher, glossary, filters)
    if not cards:
        return hits
    seen = {h.id for h in cards}
    top = max((h.score for h in hits), default=1.0)
    if not is_name_only(query, glossary):
        best = [h for h in hits[:1] if h.id not in seen]
        rest = [h for h in hits[1:] if h.id not in seen]
        lifted = [replace(h, score=(best[0].score if best else top)) for h in cards]
        return best + lifted + rest
    about = [h for h in hits if h.id not in seen and h.kind != "card" and _names_of(h) & set(names)]
    about_ids = {h.id for h in about}
    rest = [h for h in hits if h.id not in seen and h.id not in about_ids]
    ordered = [replace(h, score=top + 2.0) for h in cards]
    ordered += [replace(h, score=top + 1.0 + h.score / (10 * top or 1)) for h in about]
    return ordered + rest


def rule_numbers(query: str) -> list[str]:
    """The rule numbers a query consists of (stop words aside), or [] when it holds anything else."""
    if not _RULE_HINT.search(query):  # no rule number at all: not worth tokenizing again
        return []
    tokens = [tok for tok in tokenize(query) if not tok.stop]
    if not tokens or any(tok.kind != "rule" for tok in tokens):
        return []
    return [tok.surface.lower() for tok in tokens]


def rule_first(hits: list[Hit], numbers: list[str]) -> list[Hit]:
    """The rules numbered as asked (a rule's text starts with its number) first, each group in score order:
    BM25 may rank a short rule that cites «702.36d» above the longer rule 702.36d itself."""
    if not numbers or not hits:
        return hits
    wanted = set(numbers)
    own = [h for h in hits if h.kind == "rule" and h.text.split(None, 1)[:1] and h.text.split()[0].lower() in wanted]
    if not own:
        return hits
    top = max(h.score for h in hits)
    ids = {h.id for h in own}
    return [replace(h, score=top + h.score) for h in own] + [h for h in hits if h.id not in ids]
