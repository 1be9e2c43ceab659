"""Highlighting in the text's own words: our analyzer maps each word back to the terms it was indexed
under, so «жетонами» is marked for a query about «жетон» and the user sees the word as written."""

from __future__ import annotations

from collections.abc import Set

from kb.search.analysis import analyze_spans

Span = tuple[int, int]
Analysis = tuple[tuple[int, int, tuple[str, ...]], ...]

# Each hit's text is analysed for coordination, the confidence floor and highlighting; at 100 000 entries
# that analysis cost more than the engine's search. The index stores it with the text (``encode``), the
# engines hand it over with each hit (``remember``), and only the part asked for is decoded: the set of
# terms for the twenty hits reranked, the spans for the ten shown.
_CACHE_LIMIT = 4096
_analysed: dict[str, Analysis] = {}
_term_sets: dict[str, frozenset[str]] = {}
_stored: dict[str, str] = {}


def encode(text: str) -> str:
    """The index-time analysis of ``text`` as stored beside it: its distinct terms, a newline, then each
    token as ``start:end:term|term`` (terms hold no space, colon or bar: see ``analysis._TOKEN_RE``)."""
    spans = list(analyze_spans(text, "index"))
    terms = sorted({t for _, _, alternatives in spans for t in alternatives})
    return " ".join(terms) + "\n" + " ".join(f"{s}:{e}:{'|'.join(alternatives)}" for s, e, alternatives in spans)


def remember(text: str, encoded: str) -> None:
    """The stored analysis of a fetched hit's text (``encode``), decoded on first use."""
    if encoded and text not in _stored:
        if len(_stored) >= _CACHE_LIMIT:
            _stored.clear()
        _stored[text] = encoded


def _bounded(cache: dict[str, object]) -> None:
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()


def _spans(text: str) -> Analysis:
    found = _analysed.get(text)
    if found is None:
        encoded = _stored.get(text)
        if encoded is not None:
            tokens = encoded.partition("\n")[2]
            found = tuple(
                (int(s), int(e), tuple(alternatives.split("|")))
                for s, e, alternatives in (token.split(":", 2) for token in tokens.split(" ") if token)
            )
        else:
            found = tuple(analyze_spans(text, "index"))
        _bounded(_analysed)  # type: ignore[arg-type]
        _analysed[text] = found
    return found


def text_terms(text: str) -> frozenset[str]:
    """Every term ``text`` is indexed under (cached with its analysis)."""
    found = _term_sets.get(text)
    if found is None:
        encoded = _stored.get(text)
        if encoded is not None:
            terms = encoded.partition("\n")[0]
            found = frozenset(terms.split(" ")) if terms else frozenset()
        else:
            found = frozenset(t for _, _, alternatives in _spans(text) for t in alternatives)
        _bounded(_term_sets)  # type: ignore[arg-type]
        _term_sets[text] = found
    return found


def match_spans(text: str, terms: Set[str], prefixes: Set[str] = frozenset()) -> list[Span]:
    """Character spans of ``text`` whose indexed terms are among ``terms`` or start with a prefix."""
    encoded = _stored.get(text)
    if encoded is not None and text not in _analysed:
        starts = tuple(prefixes)
        present = text_terms(text)
        matched = (present & terms) | ({t for t in present if t.startswith(starts)} if starts else set())
        return _stored_spans(encoded.partition("\n")[2], matched)
    if not prefixes:
        return [(start, end) for start, end, alternatives in _spans(text) if not terms.isdisjoint(alternatives)]
    starts = tuple(prefixes)
    return [
        (start, end)
        for start, end, alternatives in _spans(text)
        if not terms.isdisjoint(alternatives) or any(t.startswith(starts) for t in alternatives)
    ]


def _stored_spans(tokens: str, matched: Set[str]) -> list[Span]:
    """The tokens of ``encode``'s second line holding one of ``matched``, found by string search (the few
    terms a text shares with the query), not by decoding every token."""
    found: set[Span] = set()
    for term in matched:
        i = tokens.find(term)
        while i != -1:
            j = i + len(term)
            if (tokens[i - 1] if i else " ") in ":|" and (tokens[j] if j < len(tokens) else " ") in "| ":
                start, end, _ = tokens[tokens.rfind(" ", 0, i) + 1 : i].split(":", 2)
                found.add((int(start), int(end)))
            i = tokens.find(term, j)
    return sorted(found)


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
