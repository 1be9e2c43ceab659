"""Search end to end over a small hand-built knowledge base (index built in a tmp build dir)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kb.search.service import SearchError, SearchRequest, SearchSession


def ids(session: SearchSession, query: str, **filters: Any) -> list[str]:
    return [r.id for r in session.search(SearchRequest(query, limit=20, **filters)).results]


def test_inflected_question_finds_the_ruling(session: SearchSession) -> None:
    assert ids(session, "может ли мироходец атаковать")[0] == "lrw/planeswalker/1"


def test_counters_are_searchable_tokens(session: SearchSession) -> None:
    assert ids(session, "что будет с жетонами -1/-1 и +1/+1")[0] == "shm/counters/1"
    assert ids(session, "2/2")[0] == "shm/counters/2"


def test_mana_symbols(session: SearchSession) -> None:
    assert ids(session, "{Q}") == ["shm/untap/1"]
    assert ids(session, "{2/B}")[0] == "shm/untap/1"


def test_parent_rule_number_finds_sub_rules(session: SearchSession) -> None:
    found = ids(session, "502.79")
    assert {"shm/rule/502.79/ru", "shm/rule/502.79a/ru"} <= set(found)
    assert "lrw/planeswalker/2" in ids(session, "702.36")
    assert ids(session, "502.79a", kind="rule") == ["shm/rule/502.79a/ru"]


def test_phrase_over_ambiguous_words_needs_adjacency(session: SearchSession) -> None:
    found = ids(session, '"стали сильнее"')
    assert "shm/counters/2" in found
    assert "shm/untap/2" not in found  # «стали не может быть сильнее»: not adjacent
    assert "shm/untap/2" in ids(session, "стали сильнее")


def test_highlights_show_the_texts_own_words(session: SearchSession) -> None:
    result = session.search(SearchRequest("жетонами -1/-1", limit=1)).results[0]
    marked = {result.text[s:e] for s, e in result.highlights}
    assert {"жетон", "-1/-1"} <= marked
    assert all(result.snippet[s:e] in marked for s, e in result.snippet_highlights)


def test_filters(session: SearchSession) -> None:
    assert all(i.startswith("lrw/") for i in ids(session, "жетоны", set="LRW"))
    assert all(i.startswith("lrw/") for i in ids(session, "жетоны", set="Lorwyn"))
    assert all("/rule/" in i for i in ids(session, "упорство", kind="rule"))
    assert ids(session, "copy", lang="en") == ["shm/conspire-en/1"]
    persist = ids(session, "", mechanic="persist")
    assert persist and all(i.startswith(("shm/persist/", "shm/rule/502.79", "shm/card/")) for i in persist)
    assert set(ids(session, "", mechanic="Упорство")) == set(persist)
    assert set(ids(session, "кладбище", card="Murderous Redcap")) == {"shm/persist/1", "shm/persist/2"}
    assert set(ids(session, "кладбище", card="Кровожадного Красного Колпака")) == {"shm/persist/1", "shm/persist/2"}


def test_unknown_filter_values_are_errors(session: SearchSession) -> None:
    with pytest.raises(SearchError, match="unknown set"):
        session.search(SearchRequest("жетон", set="XYZ"))
    with pytest.raises(SearchError, match="unknown kind"):
        session.search(SearchRequest("жетон", kind="faq"))


def test_english_query_finds_russian_rulings_and_back(session: SearchSession) -> None:
    assert ids(session, "persist token")[0] == "shm/persist/1"
    assert ids(session, "копия заговора")[0] == "shm/conspire-en/1"


def test_slang_maps_to_official_terms(session: SearchSession) -> None:
    assert ids(session, "токен с персистом")[0] == "shm/persist/1"
    assert ids(session, "ПВ атаковать")[0] == "lrw/planeswalker/1"


def test_naming_a_mechanic_ranks_its_section_first(session: SearchSession) -> None:
    found = ids(session, "упорство кладбище")
    assert found[0].startswith("shm/persist/")
    assert found.index("shm/persist/1") < found.index("shm/counters/1") if "shm/counters/1" in found else True


def test_typos_are_corrected_and_reported(session: SearchSession) -> None:
    response = session.search(SearchRequest("мироходиц атаковать"))
    assert response.results[0].id == "lrw/planeswalker/1"
    assert [(c.word, c.suggestion) for c in response.corrections] == [("мироходиц", "мироходец")]
    response = session.search(SearchRequest("persit"))
    assert response.corrections and response.corrections[0].suggestion == "persist"
    assert response.results[0].id.startswith(("shm/persist/", "shm/rule/502.79"))


def test_real_words_are_not_corrected(session: SearchSession) -> None:
    assert session.search(SearchRequest("убирает жетоны")).corrections == []


def test_boolean_operators_and_prefix(session: SearchSession) -> None:
    assert "shm/persist/1" not in ids(session, "упорство -фишка")
    assert ids(session, "упорство AND фишка") == ["shm/persist/1"]
    assert ids(session, "фишка OR Гнев") and set(ids(session, "фишка OR Гнев")) >= {"shm/persist/1", "shm/persist/2"}
    assert "shm/persist/note-1" in ids(session, "упорст*")
    assert ids(session, "NOT упорство", set="LRW")


def test_yo_folding_in_queries(session: SearchSession) -> None:
    assert ids(session, "елка") == ids(session, "ёлка") == ["lrw/planeswalker/1"]


def test_json_shape_carries_full_text(session: SearchSession) -> None:
    payload = session.search(SearchRequest("упорство фишка", limit=3)).to_json()
    assert set(payload) >= {"query", "total", "results"}
    assert payload["total"] >= len(payload["results"]) > 0
    first = payload["results"][0]
    assert {"id", "kind", "text", "score", "document", "section", "lang"} <= set(first)
    assert first["text"].startswith("Если Упорство есть у фишки")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.sampled_from(list('абвжзмопрстуёAORNDTX01/+-*(){}"« »')), max_size=30))
def test_any_query_string_is_served(session: SearchSession, query: str) -> None:
    response = session.search(SearchRequest(query, limit=5))
    assert response.total >= len(response.results)
    for result in response.results:
        assert all(0 <= s < e <= len(result.text) for s, e in result.highlights)
