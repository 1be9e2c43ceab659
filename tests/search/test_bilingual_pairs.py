"""With the English originals ingested, a Russian entry and its English twin are one search result, and
``--lang`` chooses which text it shows (skipped when ``../shared/english-originals`` is absent)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kb.cli import app

ORIGINALS = Path(__file__).resolve().parents[2] / ".." / "shared" / "english-originals"
runner = CliRunner()


def search(*args: str) -> list[dict[str, object]]:
    result = runner.invoke(app, ["search", *args, "--json"])
    assert result.exit_code == 0, result.stderr
    results: list[dict[str, object]] = json.loads(result.stdout)["results"]
    return results


@pytest.fixture
def twinned(build_dir: Path) -> None:
    if not ORIGINALS.is_dir():
        pytest.skip("../shared/english-originals is not there")
    assert runner.invoke(app, ["ingest", "--quiet"]).exit_code == 0
    assert runner.invoke(app, ["ingest", "--quiet", *map(str, sorted(ORIGINALS.glob("*.md")))]).exit_code == 0


@pytest.mark.parametrize("query", ["жетон +1/+1 мегаоборотень", "megamorph counter face up", "Шифр копия изгнание",
                                   "cipher encoded copy exile", "Агорафобия"])
def test_a_pair_is_one_result(twinned: None, query: str) -> None:
    top = search(query, "--limit", "5")
    assert top
    ids = {str(r["id"]) for r in top}
    twins = {str(r["twin"]["id"]) for r in top if isinstance(r.get("twin"), dict)}  # type: ignore[index]
    assert not ids & twins, (query, ids & twins)


def test_lang_chooses_the_text_shown(twinned: None) -> None:
    russian = search("megamorph counter face up", "--lang", "ru", "--limit", "5")
    english = search("мегаоборотень жетон", "--lang", "en", "--limit", "5")
    assert russian and all(r["lang"] == "ru" for r in russian)
    assert english and all(r["lang"] == "en" for r in english)
    shown = {str(r["id"]): r for r in english}
    assert "dtk-en/megamorph/3" in shown  # the English text of the Russian note dtk/megamorph/note-2
    assert shown["dtk-en/megamorph/3"]["twin"]["id"] == "dtk/megamorph/note-2"  # type: ignore[index]
    assert str(shown["dtk-en/megamorph/3"]["text"]).startswith("With the exception of putting a +1/+1 counter")
