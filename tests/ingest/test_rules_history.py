"""CR versions in the knowledge base: `kb ingest CRFILE`, `kb show NUMBER`, history, cross-links."""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ingest.comprehensive_rules import parse_comprehensive_rules
from ingest.entries import Rule, Ruling
from kb import build as kb_build
from kb.cli import app
from kb.freshness import refresh_if_stale
from kb.rules_history import RulesHistory, citations, word_diff
from kb.store import KnowledgeBase, load
from tests.ingest.cr_fixtures import cr_text, write_cr

CR_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "comprehensive-rules"
runner = CliRunner()


def invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def cr_files(tmp_path: Path) -> tuple[Path, Path]:
    """An old version in force at the SHM document's date (2008-04-04) and a new one."""
    old = write_cr(tmp_path / "cr-old.txt", cr_text(date="April 1, 2008", old=True), "cp1252", "\r\n")
    new = write_cr(tmp_path / "cr-new.txt", cr_text(), "utf-8-sig", "\r")
    return old, new


@pytest.fixture
def kb_with_cr(build_dir: Path, cr_files: tuple[Path, Path]) -> Path:
    assert invoke("ingest", "--quiet")[0] == 0
    code, _, err = invoke("ingest", "--quiet", *map(str, cr_files))
    assert code == 0, err
    return build_dir / "kb.sqlite"


def show_json(key: str) -> dict:
    code, out, err = invoke("show", key, "--json")
    assert code == 0, err
    return json.loads(out)


def test_ingest_adds_versions_and_keeps_the_documents_stats(kb_with_cr: Path) -> None:
    stats = json.loads(invoke("stats", "--json")[1])
    assert (stats["documents"], stats["rules"], stats["rulings"]) == (5, 57, 205)  # documents' own counts
    assert stats["comprehensive_rules"] == {
        "20080401": {"rules": 11, "headings": 6, "glossary": 3, "warnings": 0},
        "20260116": {"rules": 14, "headings": 8, "glossary": 3, "warnings": 0},
    }
    code, out, _ = invoke("stats")
    assert code == 0 and "Комплексные правила" in out and "2008-04-01" in out


def test_show_number_gives_today_history_renumbering_and_diff(kb_with_cr: Path) -> None:
    shown = show_json("702.78a")
    assert shown["today"]["id"] == "cr/20260116/702.78a" and "When you cast this spell" in shown["today"]["text"]
    old, new = shown["history"]
    assert (old["version"], old["number"], old["status"]) == ("20080401", "502.78a", "first")
    assert (new["number"], new["status"], new["renumbered_from"]) == ("702.78a", "changed", "502.78a")
    assert "[-play-] {+cast+}" in new["diff"]
    assert show_json("702.78")["subrules"] == ["702.78a", "702.78b"]
    heading = show_json("702.78")["cited_by"]["rules"]  # a heading is cited by its subrules' excerpts too
    assert heading == [f"shm/rule/502.78{sub}/{lang}" for lang in ("en", "ru") for sub in ("", "a", "b")]
    code, out, _ = invoke("show", "702.78a")
    assert code == 0
    assert "перенумеровано: 502.78a → 702.78a; текст изменён" in out and "[-play-]" in out
    assert "Текст сегодня (КП от 2026-01-16)" in out


def test_a_number_reused_by_another_rule_is_not_its_history(kb_with_cr: Path) -> None:
    today_502 = show_json("502.78")  # today's 502.78 is an untap-step rule, not the old keyword
    assert today_502["today"]["id"] == "cr/20260116/502.78"
    assert [step["status"] for step in today_502["history"]] == ["absent", "first"]
    assert today_502["history"][0]["number_used_by"] == "502.78 (Plotwork)"
    assert today_502["same_number_elsewhere"] == [
        {"id": f"shm/rule/502.78/{lang}", "cr_rule": "cr/20080401/502.78", "cr_today": "702.78"}
        for lang in ("en", "ru")
    ]
    old = show_json("cr/20080401/502.78")
    assert old["rule"]["title"] == "Plotwork" and old["today"]["number"] == "702.78"


def test_document_excerpts_are_cross_linked_to_their_era_and_today(kb_with_cr: Path) -> None:
    shown = show_json("shm/rule/502.78a/ru")
    assert shown["entry"]["cr_rule"] == "cr/20080401/502.78a"
    assert shown["entry"]["cr_today"] == "702.78a"
    cited = show_json("702.78a")["cited_by"]["rules"]
    assert cited == ["shm/rule/502.78a/en", "shm/rule/502.78a/ru"]
    code, out, _ = invoke("show", "shm/rule/502.78a/ru")
    assert code == 0 and "По КП эпохи документа: cr/20080401/502.78a; номер сегодня: 702.78a" in out
    lrw = show_json("lrw/rule/502.73/ru")["entry"]  # LRW (2007-10-20) has no version in force here
    assert (lrw["cr_rule"], lrw["cr_today"]) == (None, None)


def test_show_glossary_and_version_and_other_ids_as_before(kb_with_cr: Path) -> None:
    term = show_json("cr/20260116/glossary/plotwork")
    assert term["term"] == "Plotwork" and [s["status"] for s in term["history"]] == ["first", "changed"]
    assert "[-502.78,-] {+702.78,+}" in term["history"][1]["diff"]
    assert show_json("cr/20080401")["summary"]["rules"] == 11
    assert show_json("shm/persist/3")["entry"]["id"] == "shm/persist/3"
    code, _, err = invoke("show", "cr/20990101/100.1")
    assert code == 1 and "нет версии КП от 2099-01-01" in err


def test_reingest_is_byte_identical_and_a_rebuild_keeps_the_versions(
    kb_with_cr: Path, cr_files: tuple[Path, Path]
) -> None:
    first = kb_with_cr.read_bytes()
    assert invoke("ingest", "--quiet", str(cr_files[1]))[0] == 0
    assert kb_with_cr.read_bytes() == first
    assert invoke("ingest", "--quiet")[0] == 0  # bundled sources only: the CR versions stay
    assert kb_with_cr.read_bytes() == first
    text = load(kb_with_cr).to_json()  # the canonical JSON round-trips through the database unchanged
    assert KnowledgeBase.from_json(text).to_json() == text


def test_same_version_is_replaced(kb_with_cr: Path, tmp_path: Path) -> None:
    changed = cr_text().replace("does nothing at all", "does nothing whatsoever")
    assert invoke("ingest", "--quiet", str(write_cr(tmp_path / "again.txt", changed)))[0] == 0
    assert "whatsoever" in show_json("702.77a")["today"]["text"]
    assert set(json.loads(invoke("stats", "--json")[1])["comprehensive_rules"]) == {"20080401", "20260116"}


def test_malformed_cr_file_fails_on_one_line_and_stores_nothing(kb_with_cr: Path, tmp_path: Path) -> None:
    before = kb_with_cr.read_bytes()
    bad = write_cr(tmp_path / "bad-cr.txt", cr_text(date_line=False))
    code, _, err = invoke("ingest", str(bad))
    assert code == 1
    assert f"{bad}:2: под заголовком нет строки «These rules are effective as of <дата>.»" in err.replace("\n", "")
    assert kb_with_cr.read_bytes() == before


def test_rulings_citing_an_old_number_are_found_through_the_renumbering(
    seed_kb: KnowledgeBase, cr_files: tuple[Path, Path]
) -> None:
    ruling = next(r for r in seed_kb.rulings if r.document_id == "shm" and r.lang == "ru")
    entries = [replace(e, rules_cited=("502.78b",)) if e.id == ruling.id else e for e in seed_kb.entries]
    kb = KnowledgeBase(entries=entries, summaries=seed_kb.summaries)
    parsed = [parse_comprehensive_rules(p.read_bytes(), p.name) for p in cr_files]
    kb = kb_build.with_rules(kb, parsed)
    history = RulesHistory.of(kb)
    assert history.era(kb, "shm").version == "20080401"  # type: ignore[union-attr]
    newest = history.newest
    assert newest is not None
    steps = history.timeline(newest, "702.78b")
    assert citations(kb, history, steps)["rulings"] == [ruling.id]
    assert citations(kb, history, history.timeline(newest, "702.77a"))["rulings"] == []
    linked = [e for e in kb.entries if isinstance(e, Rule) and e.cr_rule]
    assert {e.document_id for e in linked} == {"shm"}
    assert isinstance(kb.get(ruling.id), Ruling)


def test_word_diff_marks_only_what_changed() -> None:
    old = "one two three four five six seven eight nine ten eleven twelve play thirteen"
    new = "one two three four five six seven eight nine ten eleven twelve cast thirteen"
    assert word_diff(old, new) == "… seven eight nine ten eleven twelve [-play-] {+cast+} thirteen"
    assert word_diff("a b", "a b") == "a b"


# --- the official files, when present ----------------------------------------------------------------

def test_conspire_history_across_the_official_versions(build_dir: Path) -> None:
    files = [CR_DIR / f"cr-{v}.txt" for v in ("20071001", "20080501", "20090711", "20130201", "20150327", "20260116")]
    if not all(f.exists() for f in files):
        pytest.skip("the official CR files are not here")
    assert invoke("ingest", "--quiet")[0] == 0
    code, _, err = invoke("ingest", "--quiet", str(files[-1]))  # its time: scripts/bench_ingest.py
    assert code == 0, err
    assert invoke("ingest", "--quiet", *map(str, files[:-1]))[0] == 0
    shown = show_json("702.78")
    assert shown["today"]["title"] == "Conspire"
    numbers = {step["version"]: step["number"] for step in shown["history"]}
    assert numbers == {"20071001": None, "20080501": "502.78", "20090711": "702.75", "20130201": "702.76",
                       "20150327": "702.77", "20260116": "702.78"}
    assert shown["history"][3]["number_used_by"] == "702.78 (Wither)"
    sub = show_json("702.78a")["history"]
    assert "[-play-] {+cast+}" in sub[2]["diff"]  # Magic 2010: "play" a spell became "cast"
    assert show_json("702.78a")["cited_by"]["rules"] == ["shm/rule/502.78a/en", "shm/rule/502.78a/ru"]
    persist = show_json("shm/rule/502.79a/ru")["entry"]
    assert (persist["cr_rule"], persist["cr_today"]) == ("cr/20080501/502.79a", "702.79a")
    fear = show_json("702.36b")  # today Fear; in DTK's rules (2015-03-27, its era: first to know megamorph) Morph
    assert fear["today"]["text"].startswith("A creature with fear")
    assert fear["same_number_elsewhere"] == [
        {"id": "dtk/rule/702.36b/ru", "cr_rule": "cr/20150327/702.36b", "cr_today": "702.37b"}
    ]
    gtc = show_json("gtc/rule/702.97a/ru")["entry"]  # Cipher: GTC's rules update of 2013-02-01
    assert (gtc["cr_rule"], gtc["cr_today"]) == ("cr/20130201/702.97a", "702.99a")


def test_refresh_after_a_source_edit_keeps_the_versions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cr_files: tuple[Path, Path]
) -> None:
    data = tmp_path / "data"
    project_data = Path(__file__).resolve().parents[2] / "data"
    shutil.copytree(project_data / "sources", data / "sources")
    shutil.copytree(project_data / "glossary", data / "glossary")
    shutil.copytree(project_data / "rules", data / "rules")
    monkeypatch.setenv("KB_DATA_DIR", str(data))
    monkeypatch.setenv("KB_BUILD_DIR", str(tmp_path / "build"))
    assert invoke("ingest", "--quiet", *map(str, cr_files))[0] == 0  # CR first: no documents yet
    assert invoke("ingest", "--quiet")[0] == 0
    assert show_json("shm/rule/502.78a/ru")["entry"]["cr_rule"] == "cr/20080401/502.78a"
    source = data / "sources" / "003_b683e8ca89d81121.txt"
    source.write_text(source.read_text("utf-8") + "\n* Новое разъяснение.\n", "utf-8")
    later = (tmp_path / "build" / "kb.sqlite").stat().st_mtime_ns + 10**9
    os.utime(source, ns=(later, later))
    assert refresh_if_stale() == ["shm"]
    stats = json.loads(invoke("stats", "--json")[1])
    assert set(stats["comprehensive_rules"]) == {"20080401", "20260116"}
    assert show_json("shm/rule/502.78a/ru")["entry"]["cr_today"] == "702.78a"
