"""``kb show`` of a CR rule reads the versions row by row (``kb.rules_stored``) and answers exactly as the
history of the decoded versions does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kb import rules_stored
from kb.cli import app
from kb.db import connection, read
from kb.rules_history import RulesHistory, VersionIndex
from kb.store import KnowledgeBase, RulesVersionRecord, load
from tests.ingest.cr_fixtures import cr_text, write_cr

CR_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "comprehensive-rules"
runner = CliRunner()


def _ingest(*files: Path) -> None:
    assert runner.invoke(app, ["ingest", "--quiet"]).exit_code == 0
    result = runner.invoke(app, ["ingest", "--quiet", *map(str, files)])
    assert result.exit_code == 0, result.stderr


def _ingest_two_versions(tmp_path: Path) -> None:
    """The bundled documents and two CR versions of other dates, encodings and line endings."""
    old = write_cr(tmp_path / "cr-old.txt", cr_text(date="April 1, 2008", old=True), "cp1252", "\r\n")
    new = write_cr(tmp_path / "cr-new.txt", cr_text(), "utf-8-sig", "\r")
    _ingest(old, new)


def _stored_history(path: Path) -> RulesHistory:
    with connection.reader(path) as conn:
        versions = read.rules_versions(conn, path, eager=False)
    rules_stored.attach(versions)
    assert all(isinstance(record.index, rules_stored.StoredVersion) for record in versions.values())
    return RulesHistory.of(KnowledgeBase(entries=[], rules_versions=versions))


def _same_answers(decoded: VersionIndex, stored: VersionIndex, numbers: list[str]) -> None:
    assert stored.version == decoded.version and stored.entry == decoded.entry
    assert list(stored.rules) == list(decoded.rules)
    assert stored.by_title == decoded.by_title
    assert stored.words == decoded.words
    assert stored.glossary == decoded.glossary
    for number in numbers:
        assert stored.rules.get(number) == decoded.rules.get(number)
        assert (number in stored.rules) == (number in decoded.rules)
        assert stored.anchor(number) == decoded.anchor(number)
        assert stored.title_of(number) == decoded.title_of(number)
        assert stored.subrules_of(number) == decoded.subrules_of(number), number
        assert stored.numbers_under(number) == decoded.numbers_under(number), number


def _compare(path: Path, sample: int) -> int:
    decoded = RulesHistory.of(load(path))
    stored = _stored_history(path)
    assert [v.version for v in stored.versions] == [v.version for v in decoded.versions]
    numbers = sorted({n for v in decoded.versions for n in v.rules})
    step = max(1, len(numbers) // sample)
    picked = [*numbers[::step], "702.78", "702.78a", "502.78", "999.99z", "7"]
    for old, new in zip(decoded.versions, stored.versions, strict=True):
        _same_answers(old, new, picked)
    compared = 0
    for number in picked:
        assert (stored.find(number) or decoded.find(number)) is None or (
            stored.find(number).version == decoded.find(number).version  # type: ignore[union-attr]
        )
        for old, new in zip(decoded.versions, stored.versions, strict=True):
            if number in old.rules:
                assert stored.timeline(new, number) == decoded.timeline(old, number), number
                compared += 1
    return compared


def test_a_stored_version_answers_as_the_decoded_one(build_dir: Path, tmp_path: Path) -> None:
    _ingest_two_versions(tmp_path)
    assert _compare(build_dir / "kb.sqlite", sample=100) > 20


def test_the_official_versions_stored_answer_as_decoded(build_dir: Path) -> None:
    files = sorted(CR_DIR.glob("cr-*.txt"))
    if len(files) < 3:
        pytest.skip("the official CR files are not here")
    _ingest(*files[-3:])
    assert _compare(build_dir / "kb.sqlite", sample=60) > 100


def test_show_of_a_rule_decodes_no_version_whole(
    build_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _ingest_two_versions(tmp_path)
    keys = ("702.78a", "502.78", "702.78", "cr/20080401/502.78", "cr/20260116/glossary/plotwork")
    with monkeypatch.context() as decoded:  # the history of the versions decoded whole, as before
        decoded.setattr(rules_stored, "attach", lambda versions: None)
        expected = {key: runner.invoke(app, ["show", key, "--json"]).stdout for key in keys}
        text = runner.invoke(app, ["show", "702.78a"]).stdout

    def whole(record: RulesVersionRecord) -> Any:
        raise AssertionError("a whole CR version decoded")

    monkeypatch.setattr(RulesVersionRecord, "entries", property(whole))
    for key, before in expected.items():
        shown = runner.invoke(app, ["show", key, "--json"])
        assert shown.exit_code == 0, shown.stderr
        assert shown.stdout == before
        assert json.loads(shown.stdout)["history"]
    assert runner.invoke(app, ["show", "702.78a"]).stdout == text


def test_a_rule_and_the_stats_print_the_same_plain_as_through_rich(
    build_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kb import plain

    _ingest_two_versions(tmp_path)
    keys = ["702.78a", "702.78", "502.78", "cr/20080401/502.78", "cr/20260116/glossary/plotwork", "cr/20260116"]
    for args in [["show", key] for key in keys] + [["stats"]]:
        plain_run = runner.invoke(app, args)
        with monkeypatch.context() as patched:
            patched.setattr(plain, "is_plain", lambda stream: False)  # rich's console, uncoloured (not a tty)
            rich_run = runner.invoke(app, args)
        assert plain_run.exit_code == rich_run.exit_code == 0, args
        assert plain_run.stdout == rich_run.stdout, args
    assert "[-play-] {+cast+}" in runner.invoke(app, ["show", "702.78a"]).stdout
