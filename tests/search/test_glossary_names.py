"""Players' other names for the seeded mechanics find the documents' own term (data/glossary/terms.csv)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb import store
from kb.search.service import SearchRequest, SearchSession, open_session
from kb.store import KnowledgeBase


@pytest.fixture
def session(build_dir: Path, seed_kb: KnowledgeBase) -> object:
    build_dir.mkdir(parents=True, exist_ok=True)
    store.save(seed_kb, build_dir / "kb.json")
    opened = open_session()
    yield opened
    opened.close()


@pytest.mark.parametrize(
    ("query", "section", "concept"),
    [
        ("чемпион", "lrw/champion", "champion"),
        ("что если чемпион покинет поле битвы", "lrw/champion", "champion"),
        ("сговор", "shm/conspire", "conspire"),
        ("шифровка", "gtc/cipher", "cipher"),
        ("зашифровать заклинание на существо", "gtc/cipher", "cipher"),
    ],
)
def test_players_names_find_the_mechanic(session: SearchSession, query: str, section: str, concept: str) -> None:
    response = session.search(SearchRequest(query, limit=3))
    assert concept in response.concepts
    assert response.results and response.results[0].section_id.startswith(section), [r.id for r in response.results]


def test_etb_and_ltb_abbreviations(session: SearchSession) -> None:
    for query, concept in (("LTB", "leaves battlefield"), ("ЛТБ", "leaves battlefield"), ("ETB", "etb"),
                           ("ЕТБ-триггер", "etb")):
        response = session.search(SearchRequest(query, limit=3))
        assert concept in response.concepts, query
        assert response.results, query
