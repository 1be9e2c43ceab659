"""kb.verify (verdicts, coverage) and the `kb verify` / `kb coverage` commands, on a small temporary data dir."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ingest.entries import Ruling, SourceSpan
from kb import verify as kv
from kb.store import KnowledgeBase
from tests.conftest import VERIFY_PASSING, verify_data

ROOT = Path(__file__).resolve().parents[2]



def _ruling(rid: str, kind: str = "ruling") -> Ruling:
    return Ruling(
        id=rid,
        document_id="shm",
        source=SourceSpan("x", 1, 1),
        section_id="shm/persist",
        kind=kind,
        text="t",
        lang="ru",
    )  # type: ignore[arg-type]


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    kb = KnowledgeBase(
        entries=[_ruling(f"shm/persist/{n}") for n in range(1, 6)] + [_ruling("shm/persist/note-1", "note")]
    )
    return verify_data(tmp_path, monkeypatch, kb)


def test_verdicts_and_coverage(data_dir: Path) -> None:
    from kb.store import load

    kb = load(data_dir.parent / "build" / "kb.sqlite")
    report = kv.coverage(kb, data_dir)
    assert report["total"] == {"rulings": 5, "verified": 1, "failing": 1, "unlinked": 2, "not_simulable": 1}
    assert report["documents"]["shm"]["rulings"] == 5
    assert report["notes"]["unlinked"] == 1


def test_not_simulable_needs_a_known_reason(data_dir: Path) -> None:
    (data_dir / "not_simulable.yaml").write_text(
        "shm/persist/4: {reason: boring, why: x}\n", encoding="utf-8"
    )
    with pytest.raises(kv.VerifyError, match=r"not_simulable.yaml:1"):
        kv.load_not_simulable(data_dir)


def _run(*args: str) -> Any:
    from kb.cli_app import app
    from kb.commands import verify as _verify  # noqa: F401  (registers the commands)

    return CliRunner().invoke(app, list(args))


def test_cli_verify_pass_and_fail(data_dir: Path) -> None:
    ok = _run("verify", "shm/persist/1")
    assert ok.exit_code == 0, ok.output
    assert "ПРОВЕРЕНО shm/persist/1" in ok.output and "ПРОЙДЕН ok" in ok.output and "Шок" in ok.output
    bad = _run("verify", "shm/persist/2", "--json")
    assert bad.exit_code == 1
    payload = json.loads(bad.output)
    assert payload["verdicts"]["shm/persist/2"]["status"] == "failing"
    assert "ожидалось 17" in payload["verdicts"]["shm/persist/2"]["results"][0]["failures"][0]


def test_cli_verify_all_and_scenario_and_coverage(data_dir: Path) -> None:
    assert _run("verify", "--all").exit_code == 1
    scenario = _run("verify", "--scenario", str(data_dir / "scenarios" / "ok.yaml"))
    assert scenario.exit_code == 0 and "ПРОЙДЕН ok" in scenario.output
    cov = _run("coverage", "--json")
    assert cov.exit_code == 0
    assert json.loads(cov.output)["total"]["verified"] == 1


def test_cli_rejects_unknown_ruling_id_in_a_scenario(data_dir: Path) -> None:
    (data_dir / "scenarios" / "ghost.yaml").write_text(
        VERIFY_PASSING.replace("id: ok", "id: ghost").replace("shm/persist/1", "shm/persist/99"), encoding="utf-8"
    )
    result = _run("verify", "--all")
    assert result.exit_code == 2
    assert "ghost.yaml:4: unknown ruling id 'shm/persist/99'" in result.output
