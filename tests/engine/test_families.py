"""Scenario families (``each_card:``) and official rulings named by card and text, not by position."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from rules_engine.cards import CardDB
from rules_engine.errors import ScenarioFormatError
from rules_engine.scenario import load_scenario, load_scenarios, run_scenario

FAMILY = """\
id: t/shock-kills/{card}
title: "«{card_ru}» погибает от Шока"
each_card: [Grizzly Bears, Tattermunge Maniac]
rulings:
  - {card: "{card}", official: "It dies."}
setup:
  active: alice
  step: main1
  alice: {mana: "{R}", hand: [Shock]}
  bob: {battlefield: ["{card}"]}
actions:
  - cast: Shock
    by: alice
    targets: ["{card}"]
  - resolve
expect:
  - zone: {"{card}": graveyard}
"""


class Catalog:
    """The knowledge base as the loader sees it: IDs, and official rulings by card and start of text."""

    def __init__(self, rulings: dict[str, tuple[str, str]]) -> None:
        self.rulings = rulings

    def __contains__(self, ruling_id: object) -> bool:
        return ruling_id in self.rulings

    def official(self, card: str, text: str) -> list[str] | None:
        if all(c != card for c, _ in self.rulings.values()):
            return None
        return [rid for rid, (c, body) in self.rulings.items() if c == card and body.startswith(text)]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "family.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_a_family_plays_once_per_card_with_the_card_in_every_text(tmp_path: Path, db: CardDB) -> None:
    plays = load_scenarios(write(tmp_path, FAMILY), db)
    assert [s.id for s in plays] == ["t/shock-kills/grizzly-bears", "t/shock-kills/tattermunge-maniac"]
    assert [s.card for s in plays] == ["Grizzly Bears", "Tattermunge Maniac"]
    assert plays[0].title == "«Медведи-гризли» погибает от Шока"
    assert plays[1].setup["bob"]["battlefield"] == ["Tattermunge Maniac"]
    assert [r.card for s in plays for r in s.ruling_refs] == ["Grizzly Bears", "Tattermunge Maniac"]
    assert plays[0].ruling_refs[0].line == 5  # errors name the line of the file
    results = [run_scenario(s, db) for s in plays]
    assert all(r.passed for r in results), [r.failures for r in results]
    assert any("«Медведи-гризли»" in line for line in results[0].log)


def test_official_rulings_resolve_to_each_cards_own_id(tmp_path: Path, db: CardDB) -> None:
    catalog = Catalog(
        {
            "mtgjson/card/grizzly-bears/ruling/1": ("Grizzly Bears", "It dies. Really."),
            "mtgjson/card/tattermunge-maniac/ruling/3": ("Tattermunge Maniac", "It dies. Too."),
            "mtgjson/card/tattermunge-maniac/ruling/4": ("Tattermunge Maniac", "Something else."),
        }
    )
    plays = load_scenarios(write(tmp_path, FAMILY), db, catalog)
    assert [s.rulings for s in plays] == [
        ["mtgjson/card/grizzly-bears/ruling/1"],
        ["mtgjson/card/tattermunge-maniac/ruling/3"],
    ]


def test_an_ambiguous_official_ruling_is_a_load_error(tmp_path: Path, db: CardDB) -> None:
    rulings = {
        "mtgjson/card/grizzly-bears/ruling/1": ("Grizzly Bears", "It dies."),
        "mtgjson/card/tattermunge-maniac/ruling/1": ("Tattermunge Maniac", "It dies."),
        "mtgjson/card/tattermunge-maniac/ruling/2": ("Tattermunge Maniac", "It dies. Again."),
    }
    with pytest.raises(ScenarioFormatError, match=r"family.yaml:5: 2 official rulings .* quote more"):
        load_scenarios(write(tmp_path, FAMILY), db, Catalog(rulings))


def test_an_official_ruling_missing_from_the_cards_list_leaves_that_play_unlinked_with_a_warning(
    tmp_path: Path, db: CardDB
) -> None:
    """Another MTGJSON version may lack or reword a ruling: the proof stays, unlinked, and says so."""
    rulings = {
        "mtgjson/card/grizzly-bears/ruling/1": ("Grizzly Bears", "It dies."),
        "mtgjson/card/tattermunge-maniac/ruling/1": ("Tattermunge Maniac", "Something else."),
    }
    bears, maniac = load_scenarios(write(tmp_path, FAMILY), db, Catalog(rulings))
    assert bears.rulings == ["mtgjson/card/grizzly-bears/ruling/1"] and not bears.unresolved
    assert maniac.rulings == []
    where = f"{tmp_path / 'family.yaml'}:5"
    assert maniac.unresolved == [f"{where}: no official ruling of 'Tattermunge Maniac' starts with 'It dies.'"]


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("each_card: [Grizzly Bears, Tattermunge Maniac]", "each_card: Grizzly Bears", "each_card: expected a list"),
        ("each_card: [Grizzly Bears, Tattermunge Maniac]", "each_card: [Grizzly Bears, Grizzly Bears]", "named twice"),
        ("id: t/shock-kills/{card}", "id: t/shock-kills", "must contain {card}"),
        ('{card: "{card}", official: "It dies."}', '{card: "{card}", oficial: "It dies."}', "an official ruling is"),
        ("each_card: [Grizzly Bears, Tattermunge Maniac]", "each_card: [Grizzly Bears, Bogus Card]", "Bogus Card"),
    ],
)
def test_malformed_families_are_load_errors(tmp_path: Path, db: CardDB, old: str, new: str, message: str) -> None:
    assert old in FAMILY
    with pytest.raises(ScenarioFormatError, match=message):
        load_scenarios(write(tmp_path, FAMILY.replace(old, new)), db)


def test_a_family_is_not_read_as_one_scenario(tmp_path: Path, db: CardDB) -> None:
    with pytest.raises(ScenarioFormatError, match="load_scenarios"):
        load_scenario(write(tmp_path, FAMILY), db)


def test_a_play_of_the_family_fails_when_its_card_does_not_behave(tmp_path: Path, db: CardDB) -> None:
    """The family is no rubber stamp: a card that survives Shock fails its own play, the others pass."""
    text = FAMILY.replace("[Grizzly Bears, Tattermunge Maniac]", "[Grizzly Bears, Hill Giant]")
    results = [run_scenario(s, db) for s in load_scenarios(write(tmp_path, text), db)]
    assert [r.passed for r in results] == [True, False]
