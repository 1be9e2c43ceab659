"""One entry, two languages: ``kb show`` prints both texts, ``kb stats`` counts pairs and discrepancies, and an
English original shares the verdict and proof of its verified Russian twin."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kb.cli import app
from tests.ingest.test_genre import FIXTURES

ORIGINALS = Path(__file__).resolve().parents[2] / ".." / "shared" / "english-originals"
runner = CliRunner()


def invoke(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return result.stdout


@pytest.fixture
def mirror_vale(build_dir: Path) -> None:
    invoke("ingest", "--quiet")
    pages = [str(FIXTURES / name) for name in ("ru_mirror_vale_archived.md", "en_mirror_vale_archived.md")]
    invoke("ingest", "--quiet", *pages)


def test_show_prints_the_english_original_beside_the_russian_text(mirror_vale: None) -> None:
    out = invoke("show", "mvl-ru/mertsanie/1")
    assert "Мерцание учитывает заклинания" in out
    assert "Английский оригинал (mvl-en/glimmer/1)" in out and "Glimmer counts spells cast" in out
    out = invoke("show", "mvl-en/glimmer/1")
    assert "Русский перевод (mvl-ru/mertsanie/1)" in out
    out = invoke("show", "mvl-en/quiet-beacon/1")  # the Russian page does not translate it
    assert "Нет пары на другом языке: раздела нет в документе на другом языке" in out
    shown = json.loads(invoke("show", "mvl-ru/mertsanie/1", "--json"))
    assert shown["context"]["aligned"]["id"] == "mvl-en/glimmer/1"


def test_stats_count_pairs_per_twinned_document(mirror_vale: None) -> None:
    per_document = json.loads(invoke("stats", "--json"))["per_document"]
    assert {k: v.get("aligned") for k, v in per_document.items() if k.startswith("mvl")} == {"mvl-ru": 6, "mvl-en": 6}
    assert "aligned" not in per_document["lrw"]  # no English original: nothing to count
    assert "Русские документы и английские оригиналы" in invoke("stats")


@pytest.fixture
def originals(build_dir: Path) -> None:
    if not ORIGINALS.is_dir():
        pytest.skip("../shared/english-originals is not there")
    invoke("ingest", "--quiet")
    invoke("ingest", "--quiet", *map(str, sorted(ORIGINALS.glob("*.md"))))


def test_a_discrepancy_is_shown_on_both_entries_and_counted(originals: None) -> None:
    out = invoke("show", "gtc/release-info/note-3")
    assert "Английский оригинал (gtc-en/release-info/note-1)" in out
    assert "Document last modified January 11, 2013" in out
    assert "Расхождения перевода: число: 10 2012 ≠ 11 2013" in out
    assert "Расхождения перевода: число: 10 2012 ≠ 11 2013" in invoke("show", "gtc-en/release-info/note-1")
    per_document = json.loads(invoke("stats", "--json"))["per_document"]
    assert per_document["gtc"]["discrepancies"] == per_document["gtc-en"]["discrepancies"] == 1


def test_the_english_twin_shares_the_verdict_and_proof(originals: None) -> None:
    russian = json.loads(invoke("show", "dtk/megamorph/3", "--json"))["context"]["verification"]
    english = json.loads(invoke("show", "dtk-en/megamorph/4", "--json"))["context"]["verification"]
    assert russian["status"] == "verified"
    assert english["status"] == "verified" and english["shared_from"] == "dtk/megamorph/3"
    assert english["scenarios"] == russian["scenarios"] and english["results"] == russian["results"]
    assert "общие с русским оригиналом dtk/megamorph/3" in invoke("show", "dtk-en/megamorph/4")
    unpaired = json.loads(invoke("show", "dtk-en/bolster/1", "--json"))["context"]["verification"]
    assert unpaired["status"] == "unlinked" and "shared_from" not in unpaired  # no Russian twin, no verdict
