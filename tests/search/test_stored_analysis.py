"""The analysis stored with each indexed text (``highlight.encode``) answers exactly as analysing it again.

Search reads a hit's terms (coordination, the confidence floor) and its highlights from the stored form
instead of re-analysing twenty texts per query; a difference would change rankings or marks silently.
"""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from kb.search import highlight
from kb.search.analysis import analyze_spans

ROOT = Path(__file__).resolve().parents[2]
SENTENCES = [line.strip() for path in sorted((ROOT / "data" / "sources").glob("*.txt"))
             for line in path.read_text(encoding="utf-8", errors="replace").splitlines() if len(line.strip()) > 20]
EXTRA = ["{2/B}", "{Q}", "-1/-1", "+1/+1", "702.36d", "702.36", "+2", "-4", "X/X", "1", "12", "2/2", "Ёж", "it's"]


def _texts() -> st.SearchStrategy[str]:
    pieces = st.one_of(st.sampled_from(SENTENCES[:3000]), st.sampled_from(EXTRA), st.text(max_size=12))
    return st.lists(pieces, min_size=1, max_size=4).map(" ".join)


def _fresh(text: str, encoded: str | None) -> None:
    for cache in (highlight._analysed, highlight._term_sets, highlight._stored):
        cache.pop(text, None)
    if encoded is not None:
        highlight.remember(text, encoded)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(text=_texts(), seed=st.integers(0, 1000))
def test_stored_analysis_matches_a_new_one(text: str, seed: int) -> None:
    live = tuple(analyze_spans(text, "index"))
    terms = sorted({t for _, _, alternatives in live for t in alternatives})
    rng = random.Random(seed)
    asked = set(rng.sample(terms, min(3, len(terms)))) | {"1", "2", "жетон", "creatur"}
    prefixes = {t[:2] for t in rng.sample(terms, min(1, len(terms)))} if seed % 3 == 0 else set()

    _fresh(text, None)
    expected = (highlight.text_terms(text), highlight.match_spans(text, asked, prefixes))
    assert expected[0] == frozenset(terms)

    _fresh(text, highlight.encode(text))
    assert highlight.text_terms(text) == expected[0]
    assert highlight.match_spans(text, asked, prefixes) == expected[1]
    assert highlight._spans(text) == live
    assert highlight._stored_spans(highlight.encode(text), highlight.text_terms(text)) == sorted(
        {(s, e) for s, e, _ in live})
    _fresh(text, None)
