"""An earlier ``build/kb.json`` works with whatever command comes first: it is migrated, then answered from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kb import store
from kb.cli import app
from kb.store import KnowledgeBase

runner = CliRunner()


@pytest.mark.parametrize(
    "args",
    [["stats", "--json"], ["show", "shm/persist/3", "--json"], ["search", "упорство", "--json"], ["index", "--json"]],
)
def test_the_first_command_migrates_kb_json(seed_kb: KnowledgeBase, build_dir: Path, args: list[str]) -> None:
    build_dir.mkdir()
    store.save(seed_kb, build_dir / "kb.json")
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.stdout + result.stderr
    json.loads(result.stdout)
    assert not (build_dir / "kb.json").exists()
    assert store.load(build_dir / "kb.sqlite").to_json() == seed_kb.to_json()
