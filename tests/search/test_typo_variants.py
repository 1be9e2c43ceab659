"""tantivy's typo lookup (``TantivySearcher.near``) spells out only the variants it must look up one by one;
the others it recognises among the dictionary's terms. Both shortcuts must agree with the full list of
variants one edit away (``_one_edit_variants``), the definition the lookup was written from."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kb.search.tantivy_engine import _is_variant, _one_edit_variants, _second_letter_variants

WORDS = st.text(alphabet="абвгеёжa1z'-", min_size=1, max_size=8)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(term=WORDS, others=st.lists(WORDS, max_size=20))
def test_the_shortcuts_agree_with_every_variant(term: str, others: list[str]) -> None:
    variants = _one_edit_variants(term)
    if len(term) >= 2:
        assert _second_letter_variants(term) == {v for v in variants if not v.startswith(term[:2])}
    candidates = [*sorted(variants)[:40], *others, *(term[:1] + o for o in others)]
    assert [c for c in candidates if _is_variant(term, c)] == [c for c in candidates if c in variants]
    assert all(_is_variant(term, c) for c in variants)
