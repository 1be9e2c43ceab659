"""The official MTGJSON rulings proven by scenarios: each reference resolves to one ruling of its card, each
linked ruling is proven under the rules of its own date, and the coverage counts them per set. Reads the
real set files from ``../shared/mtgjson/`` (skipped when absent)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from ingest.entries import ParsedDocument
from kb import build as kb_build
from kb import verify
from kb.store import KnowledgeBase
from tests.ingest.test_mtgjson import SET_FILES

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
real_files = pytest.mark.skipif(not all(p.exists() for p in SET_FILES), reason="../shared/mtgjson/ is absent")


def test_the_catalog_matches_the_start_of_a_ruling_whatever_its_quotes_and_spacing() -> None:
    ruling = SimpleNamespace(id="mtgjson/card/x/ruling/1", text="You don’t have to  attack with “X”.")
    other = SimpleNamespace(id="lrw/x/1", text="You don't have to attack")
    mentions = SimpleNamespace(id="mtgjson/card/z/ruling/1", text="You don't have to attack with X either.")
    kb = SimpleNamespace(
        by_id={r.id: r for r in (ruling, other, mentions)}, rulings=[ruling, other, mentions]
    )
    catalog = verify.catalog(kb)
    assert catalog.official("X", 'You don\'t have to attack with "X"') == ["mtgjson/card/x/ruling/1"]
    assert catalog.official("x", "you DON'T have") == ["mtgjson/card/x/ruling/1"]  # a document's ruling is no match
    assert catalog.official("X", "Nothing like it") == []
    assert catalog.official("Y", "You don't") is None  # no official ruling of Y known: left unresolved
    assert catalog.official_of_any_card("You don’t have to attack with") == [
        "mtgjson/card/x/ruling/1", "mtgjson/card/z/ruling/1"
    ]
    assert "lrw/x/1" in catalog and "nope" not in catalog


@pytest.fixture(scope="module")
def full_kb(parsed_seeds: list[ParsedDocument]) -> KnowledgeBase:
    added = kb_build.parse_sources([kb_build.Source(p, p.name) for p in SET_FILES])
    return kb_build.merge(kb_build.build(parsed_seeds), added)


@real_files
def test_every_linked_official_ruling_is_proven_in_the_era_of_its_date(full_kb: KnowledgeBase) -> None:
    catalog = verify.catalog(full_kb)
    db = verify.card_db(DATA)
    scenarios = verify.collect_scenarios(DATA, db, catalog)
    unresolved = [w for s in scenarios for w in s.unresolved]
    assert not unresolved, unresolved  # every {card, official} reference names a ruling of the real files
    official = sorted({r for s in scenarios for r in s.rulings if r.startswith("mtgjson/")})
    assert official, "no scenario proves an official ruling"
    context = verify.era_context(full_kb, DATA)
    found = verify.verdicts(official, scenarios, db, context=context)
    failing = {i: [f for r in v.results for f in r.failures] for i, v in found.items() if v.status != "verified"}
    assert not failing, failing
    dated = found[official[0]]
    assert dated.era == full_kb.by_id[official[0]].date  # the ruling's own date, not its set's


@real_files
def test_official_rulings_classified_as_not_simulable_exist(full_kb: KnowledgeBase) -> None:
    classified = verify.load_not_simulable(DATA, verify.catalog(full_kb))
    db = verify.card_db(DATA)
    proven = {r for s in verify.collect_scenarios(DATA, db, verify.catalog(full_kb)) for r in s.rulings}
    both = sorted(set(classified) & proven)
    assert not both, f"proven and classified not simulable at once: {both[:5]}"
    items = verify.load_yaml(DATA / "not_simulable_official.yaml")
    catalog = verify.catalog(full_kb)
    stale = [i["official"] for i in items if not catalog.official_of_any_card(i["official"])]
    assert not stale, f"classified texts no official ruling starts with: {stale}"


def test_the_catalog_names_cards_as_the_mtgjson_ingest_does() -> None:
    from ingest import mtgjson

    assert verify.OFFICIAL_CARD_PREFIX == mtgjson.CARD_PREFIX
    ruling = SimpleNamespace(id=mtgjson.card_id("Ojutai's Command") + "/ruling/1", text="You choose the two modes")
    catalog = verify.catalog(SimpleNamespace(by_id={ruling.id: ruling}, rulings=[ruling]))
    assert catalog.official("Ojutai's Command", "You choose") == [ruling.id]
