"""The query language and the glossary, without an index."""

from __future__ import annotations

from pathlib import Path

from kb.search import glossary as glossary_mod
from kb.search.analysis import tokenize
from kb.search.plan import Alt, AnyOf, Bool, Phrase, Prefix, positive_terms, walk
from kb.search.query import compile_query, lex

TERMS = """# comment
concept,lang,term,status,note
exile,ru,изгнать,official,
exile,ru,удалить из игры,old,
exile,en,exile,official,
battlefield,ru,поле битвы,official,
battlefield,ru,в игру,old,
token,ru,фишка,official,
token,ru,токен,slang,
"""


def small_glossary(tmp_path: Path) -> glossary_mod.Glossary:
    (tmp_path / "terms.csv").write_text(TERMS, encoding="utf-8")
    (tmp_path / "card-names-en-ru.csv").write_text(
        "set,number,name_en,name_ru,mana_cost,type_en,type_ru\n"
        "GTC,1,Agoraphobia,Агорафобия,{1}{U},Enchantment — Aura,Чары — Аура\n",
        encoding="utf-8",
    )
    return glossary_mod.load(tmp_path)


def kinds(text: str) -> list[tuple[str, str, str]]:
    return [(lx.kind, lx.text, lx.sign) for lx in lex(text)]


def test_lexer_operators_phrases_prefix_and_signs() -> None:
    assert kinds('"стали сильнее" AND упорст* OR -фишка +жетон NOT (a)') == [
        ("phrase", "стали сильнее", ""),
        ("op", "AND", ""),
        ("prefix", "упорст", ""),
        ("op", "OR", ""),
        ("word", "фишка", "-"),
        ("word", "жетон", "+"),
        ("op", "NOT", ""),
        ("lpar", "(", ""),
        ("word", "a", ""),
        ("rpar", ")", ""),
    ]


def test_counters_are_not_negations() -> None:
    assert kinds("-1/-1 +1/+1") == [("word", "-1/-1", ""), ("word", "+1/+1", "")]


def test_natural_question_is_a_soft_or_without_stop_words() -> None:
    plan = compile_query("может ли мироходец атаковать").plan
    assert isinstance(plan, Bool) and not plan.must and len(plan.should) == 3


def test_phrase_keeps_every_reading_of_an_ambiguous_word() -> None:
    plan = compile_query('"стали сильнее"').plan
    assert isinstance(plan, Phrase)
    assert {"стать", "сталь"} <= set(plan.positions[0])


def test_and_not_and_prefix_structure() -> None:
    plan = compile_query("упорство AND фишка NOT жетон*").plan
    assert isinstance(plan, Bool) and len(plan.must) == 2
    second = plan.must[1]
    assert isinstance(second, Bool) and isinstance(second.must_not[0], Prefix)
    terms, prefixes = positive_terms(plan)
    assert "упорство" in terms and prefixes == set()


def test_unbalanced_and_empty_queries_do_not_crash() -> None:
    assert compile_query("").plan is None
    assert compile_query("и в на").plan is None
    assert compile_query("(упорство OR").plan is not None
    assert compile_query('"незакрытая фраза').plan is not None
    assert compile_query(")))").plan is None


def test_glossary_matches_any_word_form_and_keeps_stop_words(tmp_path: Path) -> None:
    gloss = small_glossary(tmp_path)
    tokens = [t.terms("query") for t in tokenize("что если удалить из игры токен")]
    concepts = [hit.concept for hit in gloss.find(tokens)]
    assert concepts == ["exile", "token"]
    # «в игру» must not fire on a bare «игра»
    assert [h.concept for h in gloss.find([t.terms("query") for t in tokenize("игра окончена")])] == []


def test_glossary_expansion_adds_other_language_and_old_wording(tmp_path: Path) -> None:
    gloss = small_glossary(tmp_path)
    plan = compile_query("exile", gloss).plan
    assert isinstance(plan, AnyOf)
    phrases = [n.positions for n in walk(plan) if isinstance(n, Phrase)]
    singles = [n.terms for n in walk(plan) if isinstance(n, Alt)]
    assert (("удалить",), ("игра",)) in phrases
    assert ("изгнать",) in singles


def test_card_names_are_glossary_concepts_in_any_case(tmp_path: Path) -> None:
    gloss = small_glossary(tmp_path)
    plan = compile_query("Агорафобией", gloss).plan
    assert any(isinstance(n, Alt) and n.terms == ("agoraphobia",) for n in walk(plan))


def test_compiled_glossary_round_trips_through_json(tmp_path: Path) -> None:
    gloss = small_glossary(tmp_path)
    again = glossary_mod.Glossary.from_json(gloss.to_json())
    tokens = [t.terms("query") for t in tokenize("токены")]
    assert [h.concept for h in again.find(tokens)] == ["token"]
    assert again.vocabulary == gloss.vocabulary


def test_bundled_glossary_loads_with_documented_columns() -> None:
    directory = Path(__file__).resolve().parents[2] / "data" / "glossary"
    gloss = glossary_mod.load(directory)
    for concept in ("planeswalker", "exile", "battlefield", "mana value", "tribal", "token", "counter marker"):
        assert concept in gloss.concepts
    statuses = {t.status for terms in gloss.concepts.values() for t in terms}
    assert {"official", "old", "slang", "name"} <= statuses
