"""Does a natural question have an answer here at all? A calibrated floor instead of a hundred weak hits.

BM25 always finds *something* for a question about a mechanic the corpus never mentions («как работает
мутация на токене»): the common words («работает», «токен») match hundreds of entries. What tells the two
apart is how much of the question's information the best hit carries: each word (or glossary concept) of
the question weighs its idf, ln(1 + N / (1 + df)), a word the index has never seen weighing the most; the
best of the top hits covers a share of that weight. Below ``COVERAGE_FLOOR`` the search says that nothing
relevant was found, and lists nothing.

Calibrated on the development and holdout sets (every query has an answer; none may fall below) and on
``tests/search/out_of_corpus_queries.json`` (mechanics of other sets, in both languages); the figures are
printed by ``scripts/bench_relevance.py``.
"""

from __future__ import annotations

import math
from collections.abc import Set
from functools import lru_cache
from typing import Any, Protocol

from kb.search.analysis import analyze
from kb.search.engine import Hit
from kb.search.highlight import TermSet, term_set, text_terms
from kb.search.plan import Node, question_units

# The lowest answerable question (dev + holdout) covers 0.351 on the bundled documents alone and 0.375 with
# the MTGJSON cards; out-of-corpus questions start at 0 (half of them fall below the floor).
COVERAGE_FLOOR = 0.34
# A question holding a word neither the index nor the glossary knows (not a typo of a known one), and naming no
# card and no seeded mechanic, is most likely about a mechanic of another set («каскад», «монарх», «energy»):
# it needs a better best hit. The answerable ones of that shape (dev + holdout) cover 0.66 and more with the MTGJSON
# cards and English originals; out-of-corpus ones of that shape 0.52 at most.
UNKNOWN_WORD_FLOOR = 0.6
DEPTH = 20  # top hits examined


class Frequencies(Protocol):
    def frequency(self, term: str) -> int: ...

    def doc_count(self) -> int: ...


def hit_terms(hit: Hit) -> Set[str]:
    """Every term of the hit's text and of its context (section heading, cards named)."""
    return text_terms(hit.text) | _hit_context(hit)


def context_of(extra: dict[str, Any]) -> str:
    """A hit's context as one text: its section heading and the cards it names."""
    context = [str(extra.get("section_title") or ""), str(extra.get("name") or ""),
               str(extra.get("name_en") or ""), *(str(c) for c in extra.get("cards") or [])]
    return " ".join(context)


def context_terms(context: str) -> frozenset[str]:
    """The terms of a context (``context_of``): what an index may store with the hit (``Hit.context``)."""
    return frozenset(t for position in analyze(context) for t in position)


_CACHE_LIMIT = 4096


def _hit_context(hit: Hit) -> Set[str]:
    """The hit's context terms: as the index stored them (``Hit.context``: the card names' English stems and
    the headings' lemmas cost more than the rest of a question's post-processing at 100 000 entries), else
    analysed."""
    if hit.context is not None:
        return _stored_terms(hit.context)
    return _context_terms(context_of(hit.extra))


@lru_cache(maxsize=_CACHE_LIMIT)
def _stored_terms(stored: str) -> TermSet:
    return term_set(stored.split())


@lru_cache(maxsize=_CACHE_LIMIT)
def _context_terms(context: str) -> frozenset[str]:
    """A section heading and card names recur across hits: analysed once."""
    return context_terms(context)


def answered(plan: Node | None, hits: list[Hit], index: Frequencies, off_topic: bool = False) -> bool:
    """False when a natural question of several words finds nothing that answers it (see the module).

    ``off_topic``: the question has a word nobody knows and names no card or seeded mechanic
    (``UNKNOWN_WORD_FLOOR``)."""
    units = question_units(plan)
    if units is None:
        return True  # one word, operators, phrases: the user said exactly what to match
    if not hits:
        return True  # nothing at all: the ordinary «ничего не найдено»
    total = max(1, index.doc_count())
    frequencies = [max((index.frequency(t) for t in terms), default=0) for terms in units]
    weights = [math.log(1 + total / (1 + df)) for df in frequencies]
    floor, whole = (UNKNOWN_WORD_FLOOR if off_topic else COVERAGE_FLOOR), sum(weights)
    for hit in hits[:DEPTH]:
        text, context = text_terms(hit.text), _hit_context(hit)
        covered = sum(w for terms, w in zip(units, weights, strict=True)
                      if not (terms.isdisjoint(text) and terms.isdisjoint(context)))
        if covered / whole >= floor:  # the best hit's share is at least this one's
            return True
    return False
