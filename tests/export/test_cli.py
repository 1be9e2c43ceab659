"""``kb export site`` and ``kb export json`` through typer's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from kb import store
from kb.cli import app
from kb.store import KnowledgeBase


def test_export_site_and_json(build_dir: Path, tmp_path: Path, seed_kb: KnowledgeBase) -> None:
    store.save(seed_kb, build_dir / "kb.sqlite")
    runner = CliRunner()
    result = runner.invoke(app, ["export", "site", str(tmp_path / "site"), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["pages"] > 100 and report["index_bytes"] > 0
    assert (tmp_path / "site" / "index.html").is_file()

    result = runner.invoke(app, ["export", "json", str(tmp_path / "dump")])
    assert result.exit_code == 0, result.output
    dump = json.loads((tmp_path / "dump" / "entries.json").read_text(encoding="utf-8"))
    assert len(dump["entries"]) == len(seed_kb.entries)
    ruling = next(e for e in dump["entries"] if e["id"] == "shm/persist/3")
    assert ruling["url"] == "doc/shm.html#shm/persist/3"
    assert ruling["verification"]["status"] in {"verified", "failing", "unlinked", "not_simulable"}


def test_export_without_knowledge_base_fails_cleanly(build_dir: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["export", "site", str(tmp_path / "site")])
    assert result.exit_code == 1
    assert not (tmp_path / "site").exists()


def test_export_refuses_to_replace_a_directory_that_is_not_an_export(
    build_dir: Path, tmp_path: Path, seed_kb: KnowledgeBase
) -> None:
    store.save(seed_kb, build_dir / "kb.sqlite")
    precious = tmp_path / "checkout"
    precious.mkdir()
    (precious / "README.md").write_text("mine", encoding="utf-8")
    for command in ("site", "json"):
        result = CliRunner().invoke(app, ["export", command, str(precious)])
        assert result.exit_code == 1
        assert "не является прошлым экспортом" in result.stderr
    assert [p.name for p in precious.iterdir()] == ["README.md"]
