"""``kb ingest PATH…`` of documents no manifest lists: the set, language and date come from the document."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ingest.identity import identify, set_name_in
from ingest.manifest import SourceInfo
from ingest.pipeline import parse_path
from kb.cli import app
from tests.ingest.test_formats import glossary
from tests.ingest.test_genre import FIXTURES

ORIGINALS = Path(__file__).resolve().parents[2] / ".." / "shared" / "english-originals"
runner = CliRunner()
KNOWN = [SourceInfo(file="x.txt", id="mvl", set_code="MVL", set_name_ru="Зеркальная Долина", set_name_en="Mirror Vale")]


def test_identity_from_metadata_title_and_release_information() -> None:
    text = '---\n[_metadata_:title]:- "Mirror Vale Release Notes"\n[_metadata_:publish_date]:- "2031-03-10"\n---\n'
    found = identify(text, None)
    assert (found.title, found.set_name, found.published) == ("Mirror Vale Release Notes", "Mirror Vale", "2031-03-10")
    assert set_name_in("Frequently Asked Questions", "The *Mirror Vale* set contains 150 cards.") == "Mirror Vale"
    assert set_name_in("Заметки к выпуску «Зеркальная Долина»", "") == "Зеркальная Долина"
    assert set_name_in("DRAGONS OF TARKIR RELEASE NOTES", "") == "Dragons Of Tarkir"
    assert identify("<a href='/EN_MTGMVL_FAQ.doc'>English</a>", "FAQ").set_code == "MVL"


@pytest.mark.parametrize(
    ("name", "doc_id", "lang", "date"),
    [("en_mirror_vale_archived.md", "mvl-en", "en", "2031-03-03"),
     ("en_mirror_vale_release_notes.html", "mvl-en", "en", "2031-03-03"),
     ("ru_mirror_vale_archived.md", "mvl-ru", "ru", "2031-03-03")],
)
def test_a_known_set_named_by_the_document_gives_code_and_id(name: str, doc_id: str, lang: str, date: str) -> None:
    doc = parse_path(FIXTURES / name, None, glossary(), label=name, known_sets=KNOWN).document
    assert (doc.id, doc.set_code, doc.languages, doc.date) == (doc_id, "MVL", (lang,), date)
    assert (doc.set_name_en, doc.set_name_ru) == ("Mirror Vale", "Зеркальная Долина")


def test_a_download_link_states_the_set_code() -> None:
    doc = parse_path(FIXTURES / "en_mirror_vale_release_notes.html", None, glossary(), label="p.html").document
    assert (doc.id, doc.set_code, doc.set_name_en, doc.date) == ("mvl-en", "MVL", "Mirror Vale", "2031-03-03")


def test_unknown_set_keeps_the_file_name_id() -> None:
    doc = parse_path(FIXTURES / "en_zendikar_release_notes.html", None, glossary(), label="z.html").document
    assert (doc.id, doc.set_code, doc.set_name_en, doc.date) == ("en-zendikar-release", "", "Zendikar", "2009-09-25")


@pytest.mark.skipif(not ORIGINALS.is_dir(), reason="../shared/english-originals is not there")
def test_kb_ingest_of_the_english_originals(build_dir: Path, tmp_path: Path) -> None:
    copies = []
    for path in sorted(ORIGINALS.glob("*.md")):  # a user's own copies, anywhere, under any name
        copies.append(tmp_path / f"copy-of-{path.name}")
        shutil.copy(path, copies[-1])
    assert runner.invoke(app, ["ingest", "--quiet"]).exit_code == 0
    result = runner.invoke(app, ["ingest", "--json", *map(str, copies)])
    assert result.exit_code == 0, result.stderr
    per_document = json.loads(result.stdout)["per_document"]
    assert set(per_document) == {"gtc-en", "frf-en", "dtk-en"}
    stats = json.loads(runner.invoke(app, ["stats", "--json"]).stdout)
    assert {"gtc", "frf", "dtk", "gtc-en", "frf-en", "dtk-en"} <= set(stats["per_document"])
    shown = {
        doc_id: json.loads(runner.invoke(app, ["show", doc_id, "--json"]).stdout)["entry"]
        for doc_id in ("gtc-en", "frf-en", "dtk-en")
    }
    assert {k: (v["set_code"], v["languages"], v["date"], v["kind"]) for k, v in shown.items()} == {
        "gtc-en": ("GTC", ["en"], "2013-01-11", "FAQ"),
        "frf-en": ("FRF", ["en"], "2014-11-24", "release notes"),
        "dtk-en": ("DTK", ["en"], "2015-02-25", "release notes"),
    }
    assert shown["frf-en"]["set_name_ru"] == "Перекованная Судьба"
