"""The in-browser index: morphology precomputed, glossary compiled, size within budget."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from kb.export import text

BUDGET = 1024 * 1024  # home page plus search, gzip-compressed


def _payload(exported: Path) -> dict:
    script = (exported / "static/search-index.js").read_text(encoding="utf-8")
    assert script.startswith("window.KB_SEARCH_INDEX=") and script.endswith(";\n")
    return json.loads(script[len("window.KB_SEARCH_INDEX=") : -2])


def _terms_of(payload: dict, form: str) -> set[str]:
    terms = payload["terms"]
    found = {t for t in terms if t == form}
    found |= {terms[i] for i, forms in enumerate(payload["forms"]) if form in forms.split(" ")}
    return found


def test_inflected_forms_map_to_corpus_lemmas(exported: Path) -> None:
    payload = _payload(exported)
    assert "мироходец" in _terms_of(payload, "мироходцам")
    assert "мироходец" in _terms_of(payload, "мироходцы")
    assert "жетон" in _terms_of(payload, "жетонами")


def test_glossary_links_english_persist_to_russian_persist(exported: Path) -> None:
    payload = _payload(exported)
    terms = payload["terms"]
    persist, upor = terms.index("persist"), terms.index("упорство")
    concepts = [c for c in payload["gloss"] if any(term[0] == [[persist]] for term in c)]
    assert concepts and any(term[1] == [[upor]] for term in concepts[0])


def test_token_regex_is_shared_with_the_browser(exported: Path) -> None:
    payload = _payload(exported)
    assert payload["tokens"] == text.TOKEN_SOURCE
    kinds = [t.kind for t in text.tokenize("{2/B} -1/-1 702.36d мироходцам")]
    assert kinds == ["symbol", "pt", "rule", "word"]
    assert text.token_terms(text.tokenize("702.36d")[0]) == ("702.36d", "702.36")


def test_home_page_plus_search_fits_the_budget(exported: Path) -> None:
    files = ["index.html", "search.html", "static/site.css", "static/search.js", "static/search-index.js"]
    size = sum(len(gzip.compress((exported / f).read_bytes(), 9)) for f in files)
    assert size < BUDGET, size
