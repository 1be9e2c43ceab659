"""``kb ingest`` / ``kb stats`` / ``kb show`` through typer's CliRunner, including bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kb.cli import app

runner = CliRunner()
STATS_KEYS = {"documents", "sections", "cards", "rules", "rulings", "notes", "per_document"}


def invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def ingested(build_dir: Path) -> Path:
    code, _out, err = invoke("ingest", "--quiet")
    assert code == 0, err
    return build_dir / "kb.sqlite"


def test_ingest_writes_kb_and_stats_json_has_the_documented_keys(ingested: Path) -> None:
    assert ingested.exists()
    code, out, _ = invoke("stats", "--json")
    assert code == 0
    stats = json.loads(out)
    assert set(stats) >= STATS_KEYS
    assert (stats["documents"], stats["rulings"], stats["rules"], stats["cards"]) == (5, 205, 57, 38)
    assert set(stats["per_document"]) == {"lrw", "dtk", "gtc", "shm", "frf"}
    assert stats["per_document"]["shm"]["rulings"] == 54
    assert sum(d["notes"] for d in stats["per_document"].values()) == stats["notes"]


def test_ingest_twice_is_byte_identical(ingested: Path) -> None:
    first = ingested.read_bytes()
    assert invoke("ingest", "--quiet")[0] == 0
    assert ingested.read_bytes() == first


def test_ingest_table_output_names_every_document(build_dir: Path) -> None:
    code, out, _ = invoke("ingest", "--quiet")
    assert code == 0
    for doc_id in ("lrw", "dtk", "gtc", "shm", "frf"):
        assert doc_id in out
    assert "205" in out


def test_dry_run_json_stores_nothing(build_dir: Path, tmp_path: Path) -> None:
    doc = tmp_path / "new.txt"
    doc.write_text("***Ключевое слово: Упорство***\n\n* Упорство срабатывает.\n* Второе разъяснение.\n", "utf-8")
    code, out, err = invoke("ingest", str(doc), "--dry-run", "--json")
    assert code == 0, err
    payload = json.loads(out)
    assert set(payload) >= STATS_KEYS
    assert payload["rulings"] == 2 and payload["per_document"]["new"]["rulings"] == 2
    assert not (build_dir / "kb.sqlite").exists()


def test_ingest_path_merges_into_existing_kb(ingested: Path, tmp_path: Path) -> None:
    doc = tmp_path / "extra-faq.md"
    doc.write_text("## Keyword Ability: Persist\n\n* Persist triggers when it dies.\n", "utf-8")
    code, _, err = invoke("ingest", str(doc), "--quiet")
    assert code == 0, err
    stats = json.loads(invoke("stats", "--json")[1])
    assert stats["documents"] == 6 and stats["rulings"] == 206
    assert "extra-faq" in stats["per_document"]


def test_show_ruling_with_translation_and_context(ingested: Path) -> None:
    code, out, _ = invoke("show", "shm/conspire/5", "--json")
    assert code == 0
    shown = json.loads(out)
    assert shown["entry"]["id"] == "shm/conspire/5"
    assert shown["context"]["aligned"]["id"] == "shm/conspire-en/5"
    assert shown["context"]["section"]["id"] == "shm/conspire"
    code, out, _ = invoke("show", "shm/conspire/5")
    assert code == 0 and "Stifle" in out and "shm/conspire-en/5" in out


def test_show_by_rule_number_lists_both_languages(ingested: Path) -> None:
    code, out, _ = invoke("show", "502.78a", "--json")
    assert code == 0
    assert {item["entry"]["id"] for item in json.loads(out)} == {"shm/rule/502.78a/en", "shm/rule/502.78a/ru"}


def test_show_unknown_id_suggests(ingested: Path) -> None:
    code, _, err = invoke("show", "shm/persist/33")
    assert code == 1
    assert "нет записи 'shm/persist/33'; может быть, shm/persist/3" in err


def test_commands_without_kb_fail_cleanly(build_dir: Path) -> None:
    code, _, err = invoke("stats")
    assert code == 1 and "kb.sqlite: базы знаний ещё нет; сначала выполните `kb ingest`" in err


BAD_INPUTS: dict[str, bytes] = {
    "empty.txt": b"",
    "blank.txt": b"  \n\n \n",
    "binary.txt": bytes(range(256)) * 4,
    "latin1.txt": "Caf\xe9 d\xe9j\xe0 vu \xfc\xf1\xee\xe7\xf8d\xe9\n".encode("latin-1"),
    "notext.html": b"<html><head><title>x</title><script>var a=1;</script></head><body><div> </div></body></html>",
    "prose.txt": "Просто абзац текста без какой-либо структуры, заканчивающийся точкой.\n".encode(),
}


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_fails_with_one_line_naming_the_file_and_keeps_kb(ingested: Path, tmp_path: Path, name: str) -> None:
    before = ingested.read_bytes()
    bad = tmp_path / name
    bad.write_bytes(BAD_INPUTS[name])
    code, _out, err = invoke("ingest", str(bad))
    assert code != 0
    message = " ".join(err.split())
    assert name in message and message.startswith("ошибка:")
    assert len(err.strip().splitlines()) <= 2  # one logical line (rich may wrap long paths)
    assert ingested.read_bytes() == before


def test_bad_input_among_good_ones_stores_nothing(ingested: Path, tmp_path: Path) -> None:
    before = ingested.read_bytes()
    good = tmp_path / "good.txt"
    good.write_text("***Тема: тест***\n\n* Разъяснение.\n", "utf-8")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"")
    code, _, err = invoke("ingest", str(good), str(bad))
    assert code != 0 and "bad.txt" in err
    assert ingested.read_bytes() == before


def test_undecodable_error_names_the_line(tmp_path: Path, build_dir: Path) -> None:
    bad = tmp_path / "broken.txt"
    bad.write_bytes("***Тема***\n* строка\n".encode() + b"\xff\xfe\x00 tail\n")
    code, _, err = invoke("ingest", str(bad), "--dry-run")
    assert code != 0 and "broken.txt" in err


def test_cp1251_document_is_decoded(tmp_path: Path, build_dir: Path) -> None:
    doc = tmp_path / "cp.txt"
    doc.write_bytes("***Тема: жетоны***\n\n* Жетоны -1/-1 остаются на существе.\n".encode("cp1251"))
    code, out, err = invoke("ingest", str(doc), "--dry-run", "--json")
    assert code == 0, err
    assert json.loads(out)["rulings"] == 1


def test_bullet_before_any_heading_warns_with_file_and_line(tmp_path: Path, build_dir: Path) -> None:
    doc = tmp_path / "early.txt"
    doc.write_text("* Разъяснение до заголовка.\n\n***Тема: тест***\n\n* Второе.\n", "utf-8")
    code, out, _ = invoke("ingest", str(doc), "--dry-run", "--json")
    assert code == 0
    payload = json.loads(out)
    assert payload["warnings"] == 1
    assert any(w.endswith("early.txt:1: ruling before any heading") for w in payload["warnings_detail"])


def test_show_ruling_reports_its_verification(ingested: Path) -> None:
    code, out, _ = invoke("show", "shm/persist/7", "--json")
    assert code == 0
    verification = json.loads(out)["context"]["verification"]
    assert verification["status"] == "verified"
    assert verification["scenarios"] and all(r["passed"] for r in verification["results"])
    code, out, _ = invoke("show", "lrw/release-info/note-1", "--json")
    assert json.loads(out)["context"]["verification"]["status"] == "not_simulable"
