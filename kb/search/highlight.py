"""Highlighting in the text's own words: our analyzer maps each word back to the terms it was indexed
under, so «жетонами» is marked for a query about «жетон» and the user sees the word as written."""

from __future__ import annotations

from collections.abc import Set
from functools import lru_cache

from kb.search.analysis import analyze_spans

Span = tuple[int, int]


@lru_cache(maxsize=4096)
def _spans(text: str) -> tuple[tuple[int, int, tuple[str, ...]], ...]:
    return tuple(analyze_spans(text, "index"))


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
