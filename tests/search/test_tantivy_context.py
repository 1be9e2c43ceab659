"""tantivy stores each entry's context terms (section heading, card names) with its row, and the confidence
floor reads them instead of analysing twenty contexts per question: they must be what an analysis gives.

Skipped when tantivy (the optional extra ``.[tantivy]``) is not installed.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from kb.search import confidence
from kb.search.engine import Hit, get_engine

pytest.importorskip("tantivy")

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import bench_search  # noqa: E402


def test_stored_context_terms_are_a_fresh_analysis(tmp_path: Path) -> None:
    docs = list(bench_search.synthetic_corpus(120, random.Random(3)))
    for i, doc in enumerate(docs[::3]):  # card names and English headings too, as MTGJSON cards carry them
        doc.extra.update({"name": "Murderous Redcap", "name_en": "Murderous Redcap", "cards": ["Kitchen Finks"]}
                         if i % 2 else {"section_title": "Persist"})
    get_engine("tantivy").build(docs, tmp_path)
    searcher = get_engine("tantivy").open(tmp_path)
    try:
        rows = searcher.rows  # type: ignore[attr-defined]
        checked = 0
        for order in range(rows.count):
            extra, stored = rows.get(order)[6], rows.get(order)[8]
            expected = confidence.context_terms(confidence.context_of(extra))
            assert expected and frozenset(stored.split()) == expected
            checked += 1
        assert checked == len(docs)
    finally:
        searcher.close()


def test_the_floor_reads_the_stored_context_terms() -> None:
    extra = {"section_title": "Заголовок, которого нет нигде", "cards": ["Nowhere Card"]}
    hit = Hit("x/1", "ruling", "x", "x/s", "ru", "текст", 1.0, extra, context="stored-only-term")
    assert "stored-only-term" in confidence.hit_terms(hit)
    assert "заголовок" not in confidence.hit_terms(hit)  # not analysed again
    assert "заголовок" in confidence.hit_terms(Hit("x/1", "ruling", "x", "x/s", "ru", "текст", 1.0, extra))
