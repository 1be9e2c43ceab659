"""Which fields a query's parts are looked for in (``kb.search.plan.WORD_FIELDS`` / ``CARD_NAME_FIELDS``).

A question's words and the terms it names are looked for in the text and the section's topic: a word that
is only part of a card's name («damage» of Collateral Damage) must not rank that card's rulings above the
ruling that talks about damage. A card name the glossary recognises is looked for among the card names,
so every ruling about the card weighs the same for it and the rest of the question decides.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kb import store
from kb.search.service import SearchRequest, SearchSession, open_session
from kb.store import KnowledgeBase
from tests.search.conftest import document, ruling, section

COLLATERAL = ("Collateral Damage",)


def _kb() -> KnowledgeBase:
    entries = [
        document(),
        section("shm/wither", "Wither", "Увядание", "Wither", lang="en"),
        ruling("shm/wither/1", "Wither applies to any damage dealt to a creature by a source with wither, not "
                               "only to the damage it deals in combat, whoever controls that source.", lang="en"),
        ruling("shm/wither/2", "The -1/-1 counters stay on the creature.", lang="en"),
        document("frf", "FRF", "Fate Reforged", "Перекованная Судьба"),
        section("frf/collateral", "Notes on the card", None, None, kind="card", lang="en"),
        ruling("frf/collateral/1", "You must sacrifice exactly one creature to cast this spell.",
               lang="en", cards=COLLATERAL),
        ruling("frf/collateral/2", "Players can respond only after the spell's costs are paid.", lang="en",
               cards=COLLATERAL),
        ruling("frf/collateral/3", "Collateral Damage: sacrificing the creature is an additional cost of Collateral "
                                   "Damage.", lang="en", cards=COLLATERAL),
    ]
    return KnowledgeBase(entries=entries, fingerprint="fields")


@pytest.fixture
def fields_session(build_dir: Path) -> Iterator[SearchSession]:
    build_dir.mkdir(parents=True, exist_ok=True)
    store.save(_kb(), build_dir / "kb.sqlite")
    opened = open_session()
    yield opened
    opened.close()


def _ids(session: SearchSession, query: str) -> list[str]:
    return [r.id for r in session.search(SearchRequest(query, limit=5)).results]


def test_a_word_of_a_card_name_does_not_rank_that_cards_rulings(fields_session: SearchSession) -> None:
    ranked = _ids(fields_session, "damage")
    assert "shm/wither/1" in ranked
    assert "frf/collateral/1" not in ranked and "frf/collateral/2" not in ranked  # «damage»: only the card's name


def test_a_named_card_lets_the_other_words_decide(fields_session: SearchSession) -> None:
    response = fields_session.search(SearchRequest("Collateral Damage respond", limit=5))
    assert "card:collateral damage" in response.concepts
    assert response.results[0].id == "frf/collateral/2"  # not /3, which names the card in its text


def test_a_quoted_card_name_still_searches_every_field(fields_session: SearchSession) -> None:
    assert set(_ids(fields_session, '"Collateral Damage"')) >= {"frf/collateral/1", "frf/collateral/2"}
