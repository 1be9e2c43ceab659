"""Highlighting in the text's own words: our analyzer maps each word back to the terms it was indexed
under, so «жетонами» is marked for a query about «жетон» and the user sees the word as written."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Iterable, KeysView, Set
from itertools import pairwise
from typing import Any

from kb.search.analysis import analyze_spans

Span = tuple[int, int]
Analysis = tuple[tuple[int, int, tuple[str, ...]], ...]
# A text's terms as the keys of a dict of None (``term_set``): a set-like view that CPython's cyclic collector
# never scans (a dict of strings only is untracked), where every frozenset is, at every collection: the twenty
# term sets a query adds made each young-generation collection (one every dozen queries) cost 0.25 ms, and each
# older one 2.4 ms, at 100 000 entries.
TermSet = KeysView[str]

# Each hit's text is analysed for coordination, the confidence floor and highlighting; at 100 000 entries
# that analysis cost more than the engine's search. The index stores it with the text (``encode``), the
# engines hand it over with each hit (``remember``), and only the part asked for is read: the set of terms
# for the twenty hits reranked, the spans of the few terms a text shares with the query for the ten shown.
# The caches drop their oldest entry when full, one at a time: clearing four thousand analyses at once cost
# milliseconds inside whichever query filled them. OrderedDicts: a plain dict's oldest key, once keys have been
# deleted from its front, is found by skipping their empty slots (2 µs a lookup at this size, 0.45 here).
_CACHE_LIMIT = 4096
_analysed: OrderedDict[str, Analysis] = OrderedDict()
_term_sets: OrderedDict[str, TermSet] = OrderedDict()
_stored: OrderedDict[str, str] = OrderedDict()


def encode(text: str) -> str:
    """The index-time analysis of ``text`` as stored beside it: its distinct terms (sorted), a newline, then
    each term with the spans of the tokens indexed under it, `` term:start,end,start,end`` (terms hold no
    space or colon: see ``analysis._TOKEN_RE``), so the spans of one term are found by one string search."""
    spans: dict[str, list[str]] = {}
    for start, end, alternatives in analyze_spans(text, "index"):
        for term in alternatives:
            found = spans.setdefault(term, [])
            if not found or found[-1] != f"{start},{end}":
                found.append(f"{start},{end}")
    terms = sorted(spans)
    return " ".join(terms) + "\n" + "".join(f" {term}:{','.join(spans[term])}" for term in terms)


def _keep(cache: OrderedDict[str, Any], key: str, value: Any) -> None:
    if len(cache) >= _CACHE_LIMIT:
        cache.popitem(last=False)
    cache[key] = value


def remember(text: str, encoded: str) -> None:
    """The stored analysis of a fetched hit's text (``encode``), read on first use."""
    if encoded and text not in _stored:
        _keep(_stored, text, encoded)


def _spans(text: str) -> Analysis:
    """The analysis of a text the index did not store (a twin's text shown instead of the hit's)."""
    found = _analysed.get(text)
    if found is None:
        found = tuple(analyze_spans(text, "index"))
        _keep(_analysed, text, found)
    return found


def term_set(terms: Iterable[str]) -> TermSet:
    """``terms`` as a ``TermSet``."""
    return dict.fromkeys(terms).keys()


def text_terms(text: str) -> TermSet:
    """Every term ``text`` is indexed under (cached with its analysis)."""
    found = _term_sets.get(text)
    if found is None:
        encoded = _stored.get(text)
        if encoded is not None:
            terms = encoded[: encoded.find("\n")]
            found = term_set(terms.split(" ") if terms else ())
        else:
            found = term_set(t for _, _, alternatives in _spans(text) for t in alternatives)
        _keep(_term_sets, text, found)
    return found


def match_spans(text: str, terms: Set[str], prefixes: Set[str] = frozenset()) -> list[Span]:
    """Character spans of ``text`` whose indexed terms are among ``terms`` or start with a prefix."""
    encoded = _stored.get(text)
    if encoded is not None:
        present = text_terms(text)
        matched = present & terms
        if prefixes:
            starts = tuple(prefixes)
            matched |= {t for t in present if t.startswith(starts)}
        return _stored_spans(encoded, matched)
    if not prefixes:
        return [(start, end) for start, end, alternatives in _spans(text) if not terms.isdisjoint(alternatives)]
    starts = tuple(prefixes)
    return [
        (start, end)
        for start, end, alternatives in _spans(text)
        if not terms.isdisjoint(alternatives) or any(t.startswith(starts) for t in alternatives)
    ]


def _stored_spans(encoded: str, matched: Set[str]) -> list[Span]:
    """The spans ``encode`` stored under each of ``matched`` (terms the text holds): one search per term."""
    if not matched:
        return []
    found: set[Span] = set()
    spans_start = encoded.find("\n")  # the terms' line holds no «term:»: the search starts after it
    for term in matched:
        i = encoded.index(f" {term}:", spans_start) + len(term) + 2
        j = encoded.find(" ", i)
        offsets = map(int, encoded[i : j if j != -1 else len(encoded)].split(","))
        found.update(zip(offsets, offsets, strict=True))  # start, end, start, end: pairs from one iterator
    return sorted(found)


def snippet(text: str, spans: list[Span], width: int = 320) -> tuple[str, list[Span]]:
    """A window of about ``width`` characters around the densest cluster of matches.

    Returns the window text (with … where cut) and the spans shifted into it.
    """
    if len(text) <= width:
        return text, spans
    best_start, best_count = 0, -1
    starts, ends = [s for s, _ in spans], [e for _, e in spans]
    # a text's spans (``match_spans``) are its tokens' in order: their starts and ends both ascend, so the
    # spans inside a window are counted by two binary searches (span by span, the candidate windows cost
    # 0.5 ms on ten long texts); any other list is counted one by one (the same answer)
    ordered = all(a <= b for a, b in pairwise(starts)) and all(a <= b for a, b in pairwise(ends))
    for start in starts or [0]:
        window_start = max(0, start - width // 4)
        if ordered:
            count = max(0, bisect_right(ends, window_start + width) - bisect_left(starts, window_start))
        else:
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

