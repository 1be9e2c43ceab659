"""What the relevance measure counts as one answer (``relevance.equivalents``)."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

from kb.search import relevance

from .conftest import ruling

OFFICIAL = "You get no life if your opponent's life total can't change."


def test_a_document_ruling_is_its_official_twin_and_every_printed_copy_of_it() -> None:
    noted = replace(ruling("gtc/extort/2", "Вы не получите жизнь."), same_as=("mtgjson/card/a/ruling/3",))
    first = replace(ruling("mtgjson-gtc/cards/3", OFFICIAL, lang="en"), id="mtgjson/card/a/ruling/3",
                    same_as=("gtc/extort/2",))
    copy = replace(first, id="mtgjson/card/b/ruling/2", same_as=())
    other = replace(first, id="mtgjson/card/c/ruling/1", text="Extort doesn't target.", same_as=())
    same = relevance.equivalents(SimpleNamespace(entries=[noted, first, copy, other]))
    assert same["gtc/extort/2"] == {"mtgjson/card/a/ruling/3", "mtgjson/card/b/ruling/2"}
    assert same["mtgjson/card/b/ruling/2"] >= {"mtgjson/card/a/ruling/3", "gtc/extort/2"}
    assert "mtgjson/card/c/ruling/1" not in same.get("gtc/extort/2", set())


def test_a_copy_found_counts_as_the_relevant_entry() -> None:
    same = {"gtc/extort/2": {"mtgjson/card/b/ruling/2"}}
    query = relevance.DevQuery("extort Platinum Emperion", ("gtc/extort/2",))
    found = relevance.evaluate("x", lambda q: ["rule/1", "mtgjson/card/b/ruling/2"], [query], same_as=same)
    assert found.ranks == [2]
    strict = relevance.evaluate("x", lambda q: ["rule/1", "mtgjson/card/b/ruling/2"], [query])
    assert strict.ranks == [None]
