"""MTGJSON v5 set files: cards with printings, official rulings, merging across sets, links to the
documents, lookups by name, card-first search and bad input. Small fixtures are written here (invented
cards, one or two real lines); the real set files are read from ``../shared/mtgjson/`` when present."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ingest.errors import IngestError
from ingest.mtgjson import parse_mtgjson
from kb.cli import app

PROJECT_ROOT = Path(__file__).resolve().parents[2]
SHARED = PROJECT_ROOT.parent / "shared" / "mtgjson"
SET_FILES = [SHARED / f"{code}.json" for code in ("LRW", "SHM", "GTC", "FRF", "DTK")]
runner = CliRunner()


def invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def card(name: str, number: str, **extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": name, "number": number, "manaCost": "{1}{G}", "manaValue": 2.0, "colors": ["G"],
        "type": "Creature — Elf", "types": ["Creature"], "subtypes": ["Elf"], "supertypes": [],
        "power": "1", "toughness": "1", "text": "Flying", "originalText": "Flying", "originalType": "Creature - Elf",
        "foreignData": [], "rulings": [],
    }
    data.update(extra)
    return data


def russian(name: str, text: str = "Полет", type_: str = "Существо — Эльф") -> list[dict[str, str]]:
    return [{"language": "German", "name": "x"}, {"language": "Russian", "name": name, "text": text, "type": type_}]


def set_file(code: str, cards: list[dict[str, Any]], release: str = "2001-01-01", version: str = "5.2.0") -> dict:
    return {"meta": {"date": "2022-04-25", "version": version},
            "data": {"code": code, "name": f"Test {code}", "releaseDate": release, "cards": cards}}


def stored(path: Path) -> dict[str, Any]:
    """The stored knowledge base in its canonical JSON form (``KnowledgeBase.to_json``)."""
    from kb import store

    payload: dict[str, Any] = json.loads(store.load(path).to_json())
    return payload


def write(path: Path, payload: Any) -> Path:
    path.write_text(json.dumps(payload, ensure_ascii=False), encoding="utf-8")
    return path


GROVE = [
    card("Glade Warden", "1", foreignData=russian("Страж Поляны"),
         rulings=[{"date": "2001-01-01", "text": "Glade Warden's ability counts itself."},
                  {"date": "2005-02-02", "text": "The ability uses the number of Forests you control."}]),
    card("Forest", "9", type="Basic Land — Forest", types=["Land"], supertypes=["Basic"], manaCost=None,
         colors=[], power=None, toughness=None, text="({T}: Add {G}.)", foreignData=russian("Лес", "", "Земля")),
    card("Forest", "10", type="Basic Land — Forest", types=["Land"], supertypes=["Basic"], manaCost=None,
         colors=[], power=None, toughness=None, text="({T}: Add {G}.)"),
    card("Vow Keeper", "3", type="Legendary Planeswalker — Vow", types=["Planeswalker"], loyalty="3",
         power=None, toughness=None, text="+1: Draw a card.\n−2: Gain 2 life."),
]


def test_a_set_file_becomes_a_document_cards_with_printings_and_dated_rulings(tmp_path: Path) -> None:
    path = write(tmp_path / "grv.json", set_file("GRV", GROVE))
    [doc] = parse_mtgjson(path.read_bytes(), "grv.json")
    assert doc.document.id == "mtgjson-grv" and doc.document.kind == "MTGJSON"
    cards = {c.id: c for c in doc.cards}
    assert set(cards) == {"mtgjson/card/glade-warden", "mtgjson/card/forest", "mtgjson/card/vow-keeper"}
    warden = cards["mtgjson/card/glade-warden"]
    assert (warden.name_en, warden.name_ru, warden.mana_cost, warden.colors) == ("Glade Warden", "Страж Поляны",
                                                                                 "{1}{G}", ("G",))
    assert warden.oracle_text == "Flying" and warden.printings[0].text_ru == "Полет"
    assert warden.printings[0].original_type == "Creature - Elf"
    forest = cards["mtgjson/card/forest"]
    assert [(p.set_code, p.number) for p in forest.printings] == [("GRV", "9"), ("GRV", "10")]
    assert [(a.cost, a.text) for a in cards["mtgjson/card/vow-keeper"].loyalty_abilities] == [
        ("+1", "Draw a card."), ("-2", "Gain 2 life.")]
    rulings = [(r.id, r.date, r.lang, r.card_ids) for r in doc.rulings]
    assert rulings == [
        ("mtgjson/card/glade-warden/ruling/1", "2001-01-01", "en", ("mtgjson/card/glade-warden",)),
        ("mtgjson/card/glade-warden/ruling/2", "2005-02-02", "en", ("mtgjson/card/glade-warden",)),
    ]
    assert doc.summary()["cards"] == 3 and doc.summary()["rulings"] == 2


def test_an_allprintings_file_merges_a_reprint_into_one_card_owned_by_the_earliest_set(
    tmp_path: Path, build_dir: Path
) -> None:
    ruling = {"date": "2001-01-01", "text": "Glade Warden's ability counts itself."}
    reprint = card("Glade Warden", "77", originalText="Flying (reprinted)", rulings=[ruling])
    payload = {"meta": {"version": "5.2.0"}, "data": {
        "NEW": set_file("NEW", [reprint], release="2010-01-01")["data"],
        "GRV": set_file("GRV", GROVE, release="2001-01-01")["data"],
    }}
    path = write(tmp_path / "AllPrintings.json", payload)
    code, _out, err = invoke("ingest", "--quiet", str(path))
    assert code == 0, err
    kb = stored(build_dir / "kb.sqlite")
    warden = next(e for e in kb["entries"] if e["id"] == "mtgjson/card/glade-warden")
    assert [(p["set_code"], p["number"]) for p in warden["printings"]] == [("GRV", "1"), ("NEW", "77")]
    assert warden["document_id"] == "mtgjson-grv"
    assert sum(1 for e in kb["entries"] if e["id"].startswith("mtgjson/card/glade-warden/ruling/")) == 2
    stats = json.loads(invoke("stats", "--json")[1])
    assert stats["per_document"]["mtgjson-grv"]["cards"] == 3 and stats["per_document"]["mtgjson-new"]["cards"] == 0


def test_ingesting_sets_one_by_one_adds_and_replaces_printings(tmp_path: Path, build_dir: Path) -> None:
    first = write(tmp_path / "grv.json", set_file("GRV", GROVE))
    later = write(tmp_path / "new.json", set_file("NEW", [card("Glade Warden", "77")], release="2010-01-01"))
    assert invoke("ingest", "--quiet", str(first))[0] == 0
    assert invoke("ingest", "--quiet", str(later))[0] == 0

    def printings() -> list[tuple[str, str]]:
        kb = stored(build_dir / "kb.sqlite")
        warden = next(e for e in kb["entries"] if e["id"] == "mtgjson/card/glade-warden")
        return [(p["set_code"], p["number"]) for p in warden["printings"]]

    assert printings() == [("GRV", "1"), ("NEW", "77")]
    write(first, set_file("GRV", GROVE[1:]))  # GRV re-ingested without the card: its printing goes
    assert invoke("ingest", "--quiet", str(first))[0] == 0
    assert printings() == [("NEW", "77")]


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"cards": []}, "not an MTGJSON file"),
        ([{"name": "Glade Warden"}], "not an MTGJSON file"),
        ({"meta": {"version": "4.6.0"}, "data": {"code": "OLD", "cards": []}}, "version 4.6.0"),
        (set_file("BAD", [card("", "7")]), "card #1 (number 7) has no name"),
    ],
)
def test_bad_files_are_one_line_errors_and_store_nothing(
    tmp_path: Path, build_dir: Path, payload: Any, message: str
) -> None:
    good = write(tmp_path / "grv.json", set_file("GRV", GROVE))
    assert invoke("ingest", "--quiet", str(good))[0] == 0
    before = (build_dir / "kb.sqlite").read_bytes()
    bad = write(tmp_path / "bad.json", payload)
    code, _out, err = invoke("ingest", "--quiet", str(bad))
    assert code != 0
    assert message in err and "bad.json" in err and len(err.strip().splitlines()) == 1
    assert (build_dir / "kb.sqlite").read_bytes() == before


def test_invalid_json_names_the_file_and_line(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match=r"broken.json:1: not valid JSON"):
        parse_mtgjson(b'{"meta": ', "broken.json")


def test_a_ruling_without_a_date_is_a_warning_counted_in_the_document(tmp_path: Path, build_dir: Path) -> None:
    undated = card("Glade Warden", "1", rulings=[{"text": "No date on this one."}, {"date": "2001-01-01"}])
    path = write(tmp_path / "grv.json", set_file("GRV", [undated]))
    code, out, err = invoke("ingest", "--json", str(path))
    assert code == 0, err
    report = json.loads(out)
    assert report["warnings"] == 2
    assert any("'Glade Warden': ruling 1 has no date" in w for w in report["warnings_detail"])
    assert any("ruling 2 has no text" in w for w in report["warnings_detail"])
    assert json.loads(invoke("stats", "--json")[1])["per_document"]["mtgjson-grv"]["warnings"] == 2


# -- with the bundled documents: links, lookups, card-first search --------------------------------------
REDCAP_RULING = ("If a permanent has multiple instances of persist, they'll each trigger separately, but the "
                 "redundant instances will have no effect.")
REDCAP = card("Murderous Redcap", "192", manaCost="{2}{B/R}{B/R}", colors=["B", "R"], type="Creature — Goblin Assassin",
              foreignData=russian("Кровожадный Красный Колпак"),
              rulings=[{"date": "2001-01-01", "text": "Glade Warden can't be the target of this."},
                       {"date": "2013-06-07", "text": REDCAP_RULING}])


@pytest.fixture
def with_redcap(tmp_path: Path, build_dir: Path) -> Path:
    assert invoke("ingest", "--quiet")[0] == 0
    path = write(tmp_path / "shm.json", set_file("SHM", [REDCAP, *GROVE[:1]], release="2008-05-02"))
    code, _out, err = invoke("ingest", "--quiet", str(path))
    assert code == 0, err
    return build_dir / "kb.sqlite"


def test_the_document_card_and_ruling_are_linked_to_the_official_ones(with_redcap: Path) -> None:
    kb = {e["id"]: e for e in stored(with_redcap)["entries"]}
    assert kb["shm/card/murderous-redcap"]["same_as"] == ["mtgjson/card/murderous-redcap"]
    assert kb["mtgjson/card/murderous-redcap"]["same_as"] == ["shm/card/murderous-redcap"]
    assert kb["shm/persist/3"]["same_as"] == ["mtgjson/card/murderous-redcap/ruling/2"]
    assert kb["mtgjson/card/murderous-redcap/ruling/2"]["same_as"] == ["shm/persist/3"]
    assert kb["mtgjson/card/murderous-redcap/ruling/1"]["same_as"] == []  # says nothing a document says


@pytest.mark.parametrize("key", ["Murderous Redcap", "Кровожадного Красного Колпака", "кровожадным красным колпаком",
                                 "Murderos Redcap"])
def test_show_finds_the_card_by_any_name_form_and_lists_every_ruling(with_redcap: Path, key: str) -> None:
    code, out, err = invoke("show", key, "--json")
    assert code == 0, err
    shown = json.loads(out)
    assert shown["entry"]["id"] == "mtgjson/card/murderous-redcap"
    rulings = shown["context"]["rulings"]
    assert "shm/persist/3" in rulings and "mtgjson/card/murderous-redcap/ruling/2" in rulings
    assert rulings.index("shm/persist/3") < rulings.index("mtgjson/card/murderous-redcap/ruling/1")
    statuses = {d["id"]: d["verification"]["status"] for d in shown["context"]["rulings_detail"]}
    assert statuses["shm/persist/3"] == "verified" and statuses["mtgjson/card/murderous-redcap/ruling/1"] == "unlinked"


def test_show_prints_both_texts(with_redcap: Path) -> None:
    code, out, _ = invoke("show", "Murderous Redcap")
    assert code == 0
    for expected in ("Текст Oracle", "Напечатано (SHM 192)", "Кровожадный Красный Колпак", "Полет",
                     "shm/persist/3", "официальное, 2013-06-07"):
        assert expected in out


def test_a_query_naming_a_card_puts_the_card_first_and_its_rulings_next(with_redcap: Path) -> None:
    code, out, err = invoke("search", "Кровожадный Красный Колпак", "--json", "--limit", "5")
    assert code == 0, err
    results = json.loads(out)["results"]
    assert results[0]["id"] == "mtgjson/card/murderous-redcap"
    assert results[1]["kind"] == "card" and results[1]["id"] == "shm/card/murderous-redcap"
    assert results[2]["kind"] == "ruling" and "Murderous Redcap" in results[2]["cards"]


# -- the real set files -----------------------------------------------------------------------------------
real_files = pytest.mark.skipif(not all(p.exists() for p in SET_FILES), reason="../shared/mtgjson/ is absent")


@real_files
def test_the_five_real_sets_ingest_with_every_card_and_ruling(build_dir: Path) -> None:
    """(Its time is printed by ``scripts/bench_ingest.py``, not limited here: timed tests fail on a loaded machine.)"""
    assert invoke("ingest", "--quiet")[0] == 0
    code, _out, err = invoke("ingest", "--quiet", *map(str, SET_FILES))
    assert code == 0, err
    stats = json.loads(invoke("stats", "--json")[1])
    official = {k: v for k, v in stats["per_document"].items() if k.startswith("mtgjson-")}
    assert sum(v["cards"] for v in official.values()) == 1238  # distinct names over the five sets
    # 2,468 (set, card, ruling) triples; Battle Mastery (LRW, DTK) shares one ruling: 2,467 entries
    assert sum(v["rulings"] for v in official.values()) == 2467
    kb = {e["id"]: e for e in stored(build_dir / "kb.sqlite")["entries"]}
    assert kb["shm/persist/7"]["same_as"] == ["mtgjson/card/murderous-redcap/ruling/2"]
    assert kb["dtk/commands/3"]["same_as"] == ["mtgjson/card/ojutai-s-command/ruling/3"]
    plains = kb["mtgjson/card/plains"]
    assert len(plains["printings"]) == 13 and plains["name_ru"] == "Равнина"
    links = [e for e in kb.values() if e["type"] == "ruling" and not e["id"].startswith("mtgjson/") and e["same_as"]]
    assert len(links) >= 60


def test_a_question_about_a_card_keeps_the_answering_ruling_first_and_the_card_next(with_redcap: Path) -> None:
    code, out, err = invoke("search", "Кровожадный Красный Колпак несколько способностей Упорства", "--json")
    assert code == 0, err
    ids = [r["id"] for r in json.loads(out)["results"]]
    assert ids[0] in {"shm/persist/3", "mtgjson/card/murderous-redcap/ruling/2"}  # the same ruling, RU or EN
    assert ids[1:3] == ["mtgjson/card/murderous-redcap", "shm/card/murderous-redcap"]


def test_show_of_a_document_ruling_prints_the_official_one(with_redcap: Path) -> None:
    code, out, _ = invoke("show", "shm/persist/3")
    assert code == 0
    assert "То же разъяснение (mtgjson/card/murderous-redcap/ruling/2, 2013-06-07)" in out
    assert "multiple instances of persist" in out


def test_the_entries_do_not_depend_on_the_order_the_sets_are_ingested_in(tmp_path: Path, build_dir: Path) -> None:
    shared = {"date": "2001-01-01", "text": "Glade Warden's ability counts itself."}
    first = write(tmp_path / "grv.json", set_file("GRV", GROVE))
    later = write(tmp_path / "new.json", set_file("NEW", [card("Glade Warden", "77", rulings=[shared]),
                                                         card("Forest", "80")], release="2010-01-01"))

    def entries_after(*batches: tuple[Path, ...]) -> list[dict[str, Any]]:
        (build_dir / "kb.sqlite").unlink(missing_ok=True)
        for batch in batches:
            code, _out, err = invoke("ingest", "--quiet", *map(str, batch))
            assert code == 0, err
        return stored(build_dir / "kb.sqlite")["entries"]

    together = entries_after((first, later))
    assert entries_after((later,), (first,)) == together
    assert entries_after((first,), (later,), (later,)) == together
    warden = next(e for e in together if e["id"] == "mtgjson/card/glade-warden")
    assert warden["source"]["path"].endswith("grv.json")  # read from its earliest set


def test_a_ruling_repeated_under_several_cards_is_one_search_hit(tmp_path: Path, build_dir: Path) -> None:
    general = {"date": "2001-01-01", "text": "Wildgrowth triggers only once per turn, whatever happens."}
    cards = [card(name, str(n), rulings=[general]) for n, name in enumerate(("Glade Warden", "Moss Herald"), 1)]
    path = write(tmp_path / "grv.json", set_file("GRV", cards))
    assert invoke("ingest", "--quiet", str(path))[0] == 0
    code, out, err = invoke("search", "wildgrowth triggers once per turn", "--kind", "ruling", "--json")
    assert code == 0, err
    ids = [r["id"] for r in json.loads(out)["results"]]
    assert ids == ["mtgjson/card/glade-warden/ruling/1"] or ids == ["mtgjson/card/moss-herald/ruling/1"]
