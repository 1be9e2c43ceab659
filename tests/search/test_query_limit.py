"""``kb search`` cuts an overlong query (kb/limits.py) with a notice instead of failing or crawling."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from kb.cli import app
from kb.limits import MAX_QUERY_CHARS, cut_query

runner = CliRunner()


def test_cut_query_keeps_short_queries_and_cuts_at_a_word() -> None:
    assert cut_query("упорство") == ("упорство", False)
    exact = "а" * MAX_QUERY_CHARS
    assert cut_query(exact) == (exact, False)
    words = "мироходец " * 100  # 1000 characters
    cut, was_cut = cut_query(words)
    assert was_cut and len(cut) <= MAX_QUERY_CHARS and cut.split() == ["мироходец"] * len(cut.split())
    assert cut_query("x" * 2000) == ("x" * MAX_QUERY_CHARS, True)  # one endless word: cut where it must be


def test_overlong_query_is_cut_with_a_notice(kb_dir: Path) -> None:
    query = "может ли мироходец атаковать " + "жетоны " * 2000
    result = runner.invoke(app, ["search", query, "--json", "--limit", "1"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["query"].startswith("может ли мироходец атаковать") and len(payload["query"]) <= MAX_QUERY_CHARS
    assert "предупреждение:" in result.stderr and f"длиннее {MAX_QUERY_CHARS} символов" in result.stderr


def test_query_within_the_limit_has_no_notice(kb_dir: Path) -> None:
    result = runner.invoke(app, ["search", "упорство", "--json", "--limit", "1"])
    assert result.exit_code == 0 and "предупреждение" not in result.stderr
