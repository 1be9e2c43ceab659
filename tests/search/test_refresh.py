"""Search never lags behind the sources: an edited source is re-ingested before the query runs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kb.cli import app

DATA = Path(__file__).resolve().parents[2] / "data"
runner = CliRunner()


@pytest.fixture
def data_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    data = tmp_path / "data"
    shutil.copytree(DATA / "sources", data / "sources")
    shutil.copytree(DATA / "glossary", data / "glossary")
    monkeypatch.setenv("KB_DATA_DIR", str(data))
    monkeypatch.setenv("KB_BUILD_DIR", str(tmp_path / "build"))
    return data


def search_ids(query: str) -> list[str]:
    result = runner.invoke(app, ["search", query, "--json"])
    assert result.exit_code == 0, result.stderr
    return [r["id"] for r in json.loads(result.stdout)["results"]]


def test_edited_source_is_reingested_before_search(data_copy: Path) -> None:
    assert runner.invoke(app, ["ingest", "--quiet"]).exit_code == 0
    assert "shm/wither/6" not in search_ids("квазиувядание")
    source = data_copy / "sources" / "003_b683e8ca89d81121.txt"
    text = source.read_text(encoding="utf-8")
    marker = "* На игроков и мироходцев повреждения от источников с Увяданием действуют как обычно.\n"
    assert marker in text
    source.write_text(text.replace(marker, marker + "\n* Квазиувядание — проверочное разъяснение.\n"), "utf-8")
    assert search_ids("квазиувядание")[0] == "shm/wither/6"
    result = runner.invoke(app, ["search", "квазиувядание"])
    assert result.exit_code == 0  # the second search finds nothing stale: no re-ingest note
    assert "re-ingested" not in result.stderr


def test_broken_source_fails_search_cleanly_and_keeps_kb(data_copy: Path) -> None:
    assert runner.invoke(app, ["ingest", "--quiet"]).exit_code == 0
    stored = (data_copy.parent / "build" / "kb.sqlite").read_bytes()
    (data_copy / "sources" / "999_broken.txt").write_bytes(b"")
    result = runner.invoke(app, ["search", "упорство"])
    assert result.exit_code == 1
    assert "999_broken.txt" in result.stderr and "empty file" in result.stderr
    assert (data_copy.parent / "build" / "kb.sqlite").read_bytes() == stored
