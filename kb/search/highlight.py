"""Highlighting in the text's own words: our analyzer maps each word back to the terms it was indexed
under, so «жетонами» is marked for a query about «жетон» and the user sees the word as written."""

from __future__ import annotations

import json
from collections.abc import Set
from functools import lru_cache

from kb.search.analysis import analyze_spans

Span = tuple[int, int]
Analysis = tuple[tuple[int, int, tuple[str, ...]], ...]

# Each hit's text is analysed for coordination, the confidence floor and highlighting; at 100 000 entries
# that analysis cost more than the engine's search. The index stores it with the text (``encode``), the
# engines hand it over with each hit (``remember``) and it is decoded only when asked for.
_CACHE_LIMIT = 4096
_analysed: dict[str, Analysis] = {}
_stored: dict[str, str] = {}


def encode(text: str) -> str:
    """The index-time analysis of ``text`` as stored beside it: ``[[start, end, term, ...], ...]``."""
    return json.dumps([[s, e, *terms] for s, e, terms in analyze_spans(text, "index")], ensure_ascii=False,
                      separators=(",", ":"))


def remember(text: str, encoded: str) -> None:
    """The stored analysis of a fetched hit's text (``encode``), decoded on first use."""
    if encoded and text not in _analysed:
        if len(_stored) >= _CACHE_LIMIT:
            _stored.clear()
        _stored[text] = encoded


def _spans(text: str) -> Analysis:
    found = _analysed.get(text)
    if found is None:
        encoded = _stored.pop(text, None)
        if encoded is not None:
            found = tuple((row[0], row[1], tuple(row[2:])) for row in json.loads(encoded))
        else:
            found = tuple(analyze_spans(text, "index"))
        if len(_analysed) >= _CACHE_LIMIT:
            _analysed.clear()
        _analysed[text] = found
    return found


def text_terms(text: str) -> frozenset[str]:
    """Every term ``text`` is indexed under (cached with its analysis)."""
    return _terms(text)


@lru_cache(maxsize=4096)
def _terms(text: str) -> frozenset[str]:
    return frozenset(t for _, _, alternatives in _spans(text) for t in alternatives)


def match_spans(text: str, terms: Set[str], prefixes: Set[str] = frozenset()) -> list[Span]:
    """Character spans of ``text`` whose indexed terms are among ``terms`` or start with a prefix."""
    if not prefixes:
        return [(start, end) for start, end, alternatives in _spans(text) if not terms.isdisjoint(alternatives)]
    starts = tuple(prefixes)
    return [
        (start, end)
        for start, end, alternatives in _spans(text)
        if not terms.isdisjoint(alternatives) or any(t.startswith(starts) for t in alternatives)
    ]


def snippet(text: str, spans: list[Span], width: int = 320) -> tuple[str, list[Span]]:
    """A window of about ``width`` characters around the densest cluster of matches.

    Returns the window text (with … where cut) and the spans shifted into it.
    """
    if len(text) <= width:
        return text, spans
    best_start, best_count = 0, -1
    for start, _ in spans or [(0, 0)]:
        window_start = max(0, start - width // 4)
        count = sum(1 for s, e in spans if s >= window_start and e <= window_start + width)
        if count > best_count:
            best_start, best_count = window_start, count
    # snap to a word boundary
    if best_start > 0:
        space = text.rfind(" ", 0, best_start)
        best_start = space + 1 if space != -1 and best_start - space < 30 else best_start
    end = min(len(text), best_start + width)
    if end < len(text):
        space = text.rfind(" ", best_start, end)
        end = space if space > best_start + width // 2 else end
    prefix = "…" if best_start > 0 else ""
    suffix = "…" if end < len(text) else ""
    shift = len(prefix) - best_start
    inside = [(s + shift, e + shift) for s, e in spans if s >= best_start and e <= end]
    return prefix + text[best_start:end] + suffix, inside
