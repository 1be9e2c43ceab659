"""The analyzer: MTG tokens whole, our stop list, every lemma at one position, ё folding, stemming."""

from __future__ import annotations

import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

from kb.search.analysis import STOPS, analyze, mtg_analyzer, tokenize


def flat(text: str, mode: str = "index") -> list[str]:
    return [t for position in analyze(text, mode) for t in position]


def test_mtg_tokens_are_kept_whole() -> None:
    terms = flat("Заплатите {2/B} и {Q}, затем {T}: жетон -1/-1, жетон +1/+1, существо 2/2 и X/X, верность -4.")
    for token in ("{2/b}", "{q}", "{t}", "-1/-1", "+1/+1", "2/2", "x/x", "-4"):
        assert token in terms


def test_rule_number_indexes_its_parent_but_query_stays_exact() -> None:
    assert analyze("см. правило 702.36d.") [-1] == ("702.36d", "702.36")
    assert analyze("702.36d", "query") == [("702.36d",)]
    assert analyze("702.36") == [("702.36",)]


def test_stop_list_keeps_words_rulings_hinge_on() -> None:
    for word in ("не", "может", "один", "два", "три", "нет", "без", "только"):
        assert word not in STOPS
    positions = analyze("не может один два три")
    assert len(positions) == 5
    for position, lemma in zip(positions, ("не", "мочь", "один", "два", "три"), strict=True):
        assert lemma in position
    assert flat("и в на с") == []


def test_ambiguous_word_keeps_every_lemma_at_one_position() -> None:
    positions = analyze("стали сильнее")
    assert set(positions[0]) >= {"стать", "сталь"}
    tokens = [(t.text, t.pos) for t in mtg_analyzer()("стали сильнее", positions=True)]
    assert ("стать", 0) in tokens and ("сталь", 0) in tokens and ("сильный", 1) in tokens


def test_yo_is_folded() -> None:
    assert analyze("ёлка") == analyze("елка")


def test_inflected_forms_share_a_lemma() -> None:
    assert analyze("мироходцами")[0] == analyze("мироходец")[0]
    assert "жетон" in analyze("жетонов")[0]


def test_english_is_stemmed() -> None:
    assert analyze("countered")[0] == analyze("counter")[0]
    assert analyze("creatures")[0] == analyze("creature")[0]


def test_highlight_positions_point_at_the_original_words() -> None:
    text = "Жетонами -1/-1"
    spans = {text[t.startchar : t.endchar] for t in mtg_analyzer()(text, positions=True, chars=True)}
    assert spans == {"Жетонами", "-1/-1"}


def test_empty_and_symbol_only_text() -> None:
    assert analyze("") == []
    assert analyze("— … «»") == []
    assert list(mtg_analyzer()("")) == []


def test_analyzer_pickles_by_reference() -> None:
    again = pickle.loads(pickle.dumps(mtg_analyzer()))
    assert [t.text for t in again("жетоны")] == ["жетон"]


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("абвгдеёжзийклмнопрстуфхцчшщъыьэюяABCxyz0123456789{}/+-.,«» \n")),
               max_size=60))
def test_any_text_analyses_into_spans_inside_the_text(text: str) -> None:
    last = -1
    for tok in tokenize(text):
        assert 0 <= tok.start < tok.end <= len(text)
        assert tok.start >= last
        last = tok.start
        assert all(tok.terms())
    positions = [t.pos for t in mtg_analyzer()(text, positions=True)]
    assert positions == sorted(positions)
