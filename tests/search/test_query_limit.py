"""``kb search`` cuts an overlong query (kb/search/query.py) with a notice instead of failing or crawling."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from kb.cli import app
from kb.limits import MAX_QUERY_CHARS
from kb.search.query import limit_query

runner = CliRunner()


def test_limit_query_keeps_short_queries_and_cuts_at_a_word() -> None:
    assert limit_query("упорство") == "упорство"
    exact = "а" * MAX_QUERY_CHARS
    assert limit_query(exact) == exact
    cut = limit_query("мироходец " * 100)  # 1000 characters
    assert len(cut) <= MAX_QUERY_CHARS and cut.split() == ["мироходец"] * len(cut.split())
    assert limit_query("x" * 2000) == "x" * MAX_QUERY_CHARS  # one endless word: cut where it must be


def test_overlong_query_is_cut_with_a_notice(kb_dir: Path) -> None:
    query = "может ли мироходец атаковать " + "жетоны " * 2000
    result = runner.invoke(app, ["search", query, "--json", "--limit", "1"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["query_cut"] and payload["searched"].startswith("может ли мироходец атаковать")
    assert len(payload["searched"]) <= MAX_QUERY_CHARS
    text = runner.invoke(app, ["search", query, "--limit", "1"])
    assert text.exit_code == 0 and f"длиннее {MAX_QUERY_CHARS} символов" in " ".join(text.stdout.split())


def test_query_within_the_limit_has_no_notice(kb_dir: Path) -> None:
    result = runner.invoke(app, ["search", "упорство", "--json", "--limit", "1"])
    assert result.exit_code == 0 and not json.loads(result.stdout)["query_cut"]
