"""A query that is a rule number puts that rule first (``kb.search.card_first.rule_first``)."""

from __future__ import annotations

from pathlib import Path

from kb import store
from kb.search.card_first import rule_first, rule_numbers
from kb.search.engine import Hit
from kb.search.service import SearchRequest, open_session
from kb.store import KnowledgeBase


def _hit(hit_id: str, kind: str, text: str, score: float) -> Hit:
    return Hit(hit_id, kind, "dtk", "", "en", text, score)


def test_only_a_query_of_rule_numbers_is_one() -> None:
    assert rule_numbers("702.36d") == ["702.36d"]
    assert rule_numbers("702.36d 702.37") == ["702.36d", "702.37"]
    assert rule_numbers("правило 702.36d") == []
    assert rule_numbers("мироходец") == []


def test_the_rule_itself_goes_before_a_rule_that_cites_it() -> None:
    citing = _hit("frf/rule/701.31c", "rule", "701.31c If a card with morph is manifested, see rule 702.36d", 6.3)
    ruling = _hit("dtk/megamorph/1", "ruling", "Turning it face up (rule 702.36d) is a special action.", 5.0)
    own = _hit("dtk/rule/702.36d", "rule", "702.36d Any time you have priority, you may turn it face up.", 4.5)
    ranked = rule_first([citing, ruling, own], ["702.36d"])
    assert [h.id for h in ranked] == [own.id, citing.id, ruling.id]
    assert ranked[0].score > ranked[1].score
    assert [h.id for h in rule_first([citing, ruling], ["702.36d"])] == [citing.id, ruling.id]  # no such rule


def test_kb_search_of_a_rule_number_shows_that_rule_first(build_dir: Path, seed_kb: KnowledgeBase) -> None:
    build_dir.mkdir(parents=True, exist_ok=True)
    store.save(seed_kb, build_dir / "kb.json")
    session = open_session()
    try:
        for number in ("702.36d", "702.99a", "502.79a"):
            first = session.search(SearchRequest(number)).results[0]
            assert first.kind == "rule" and first.text.split()[0] == number, (number, first.id)
    finally:
        session.close()
