"""Faults at the input edge (issue 14): encodings with a BOM, input limits, documents without rulings,
two files giving one document ID, and malformed HTML recovered the way a browser recovers it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ingest import limits
from ingest.decode import decode
from ingest.errors import IngestError
from ingest.lines import from_html
from kb import store
from kb.cli import app

runner = CliRunner()
DOC = "***Ключевое слово: Упорство***\n\n* Упорство срабатывает, когда существо умирает.\n* Второе разъяснение.\n"


def invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def dry_run(path: Path) -> dict:
    code, out, err = invoke("ingest", str(path), "--dry-run", "--json")
    assert code == 0, err
    return json.loads(out)


def one_line(err: str) -> str:
    return " ".join(err.split())


# -- encodings ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-8-sig", "utf-32"])
def test_document_with_a_bom_is_decoded(tmp_path: Path, build_dir: Path, encoding: str) -> None:
    doc = tmp_path / "bom.txt"
    data = DOC.encode(encoding)
    if encoding in ("utf-16-le", "utf-16-be"):  # these codecs write no mark: add the one Notepad writes
        data = ("\ufeff" + DOC).encode(encoding)
    doc.write_bytes(data)
    payload = dry_run(doc)
    assert payload["rulings"] == 2
    assert payload["per_document"]["bom"]["rulings"] == 2


def test_utf16_decode_gives_the_text_and_its_byte_order() -> None:
    text, encoding = decode(("\ufeff" + DOC).encode("utf-16-be"), "x.txt")
    assert (text, encoding) == (DOC, "utf-16-be")
    text, encoding = decode(("\ufeff" + DOC).encode("utf-16-le"), "x.txt")
    assert (text, encoding) == (DOC, "utf-16-le")


def test_utf16_without_bom_is_named_not_called_binary(tmp_path: Path, build_dir: Path) -> None:
    doc = tmp_path / "nobom.txt"
    doc.write_bytes(DOC.encode("utf-16-le"))
    code, _, err = invoke("ingest", str(doc), "--dry-run")
    assert code == 1
    message = one_line(err)
    assert message.startswith("ошибка:") and "nobom.txt" in message and "UTF-16 без метки" in message
    assert "двоичный" not in message


def test_utf16_with_a_broken_surrogate_is_refused(tmp_path: Path, build_dir: Path) -> None:
    doc = tmp_path / "broken16.txt"
    doc.write_bytes(("\ufeff" + DOC).encode("utf-16-le") + b"\x00\xd8")  # a lone high surrogate at the end
    code, _, err = invoke("ingest", str(doc), "--dry-run")
    assert code == 1 and "broken16.txt" in err and "UTF-16-LE" in one_line(err)


# -- limits -------------------------------------------------------------------------------------------------
def test_document_over_the_size_limit_is_refused_before_reading(tmp_path: Path, build_dir: Path) -> None:
    assert limits.MAX_DOCUMENT_BYTES == 20 * 1024 * 1024
    doc = tmp_path / "huge.txt"
    with doc.open("wb") as handle:  # a sparse file: its size counts, nothing is read
        handle.write(DOC.encode())
        handle.truncate(limits.MAX_DOCUMENT_BYTES + 1)
    code, _, err = invoke("ingest", str(doc), "--dry-run")
    message = one_line(err)
    assert code == 1 and len(err.strip().splitlines()) <= 2
    assert message.startswith("ошибка:") and "huge.txt" in message
    assert "документ слишком большой: 20.0 МиБ при пределе 20.0 МиБ" in message


def test_size_limit_is_configurable(tmp_path: Path, build_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = tmp_path / "small.txt"
    doc.write_text(DOC, "utf-8")
    monkeypatch.setenv("KB_MAX_DOCUMENT_BYTES", "100")
    code, _, err = invoke("ingest", str(doc), "--dry-run")
    assert code == 1 and "small.txt" in err and "KB_MAX_DOCUMENT_BYTES" in err
    monkeypatch.setenv("KB_MAX_DOCUMENT_BYTES", "0")  # no limit
    assert dry_run(doc)["rulings"] == 2


def test_line_over_the_limit_names_file_and_line(tmp_path: Path, build_dir: Path) -> None:
    doc = tmp_path / "long.txt"
    doc.write_text(DOC + "* " + "очень " * (limits.MAX_LINE_CHARS // 6 + 1) + "\n", "utf-8")
    code, out, _ = invoke("ingest", str(doc), "--dry-run", "--json")
    assert code == 1
    error = json.loads(out)["error"]
    assert error["file"].endswith("long.txt") and error["line"] == 5
    assert error["message"].startswith("строка слишком длинная")
    code, _, err = invoke("ingest", str(doc), "--dry-run")
    assert code == 1 and "long.txt:5: строка слишком длинная" in one_line(err)


def test_line_just_under_the_limit_is_accepted(tmp_path: Path, build_dir: Path) -> None:
    doc = tmp_path / "wide.txt"
    ruling = "* " + ("x" * (limits.MAX_LINE_CHARS - 3)) + "."
    doc.write_text(DOC + ruling + "\n", "utf-8")
    assert len(ruling) == limits.MAX_LINE_CHARS
    assert dry_run(doc)["rulings"] == 3


def test_html_paragraph_over_the_limit_is_refused(tmp_path: Path, build_dir: Path) -> None:
    page = tmp_path / "wide.html"
    page.write_text("<html><body><h3>Тема: тест</h3>\n<ul><li>" + "слово " * limits.MAX_LINE_CHARS
                    + "</li></ul></body></html>", "utf-8")
    code, _, err = invoke("ingest", str(page), "--dry-run")
    assert code == 1 and "wide.html:2: строка слишком длинная" in one_line(err)


# -- a document with no rulings -----------------------------------------------------------------------------
def test_document_without_rulings_is_ingested_with_a_warning(tmp_path: Path, build_dir: Path) -> None:
    doc = tmp_path / "notes-only.txt"
    doc.write_text("***Тема: жетоны***\n\nПросто пояснение к теме без единого разъяснения.\n", "utf-8")
    code, out, err = invoke("ingest", str(doc), "--json")
    assert code == 0, err
    payload = json.loads(out)
    assert payload["rulings"] == 0 and payload["warnings"] == 1
    warning = payload["warnings_detail"][0]
    assert "notes-only.txt:1:" in warning and "нет ни одного разъяснения" in warning
    code, _, err = invoke("ingest", str(doc), "--dry-run")  # the table form prints it
    assert code == 0 and "предупреждение:" in err and "нет ни одного разъяснения" in one_line(err)
    stats = json.loads(invoke("stats", "--json")[1])
    assert stats["per_document"]["notes-only"]["warnings"] == 1
    kb = store.load(build_dir / "kb.sqlite")
    assert any("нет ни одного разъяснения" in w for w in kb.warnings["notes-only"])


def test_document_with_rulings_gets_no_such_warning(tmp_path: Path, build_dir: Path) -> None:
    doc = tmp_path / "fine.txt"
    doc.write_text(DOC, "utf-8")
    assert dry_run(doc)["warnings"] == 0


# -- two files, one document ID -----------------------------------------------------------------------------
def test_second_file_with_the_same_id_is_refused_unless_replace(tmp_path: Path, build_dir: Path) -> None:
    first, second = tmp_path / "a" / "faq.txt", tmp_path / "b" / "faq.md"
    first.parent.mkdir()
    second.parent.mkdir()
    first.write_text(DOC, "utf-8")
    second.write_text("## Тема: другое\n\n* Совсем другое разъяснение.\n", "utf-8")
    assert invoke("ingest", str(first), "--quiet")[0] == 0
    before = store.digest(build_dir / "kb.sqlite")
    code, _, err = invoke("ingest", str(second), "--quiet")
    message = one_line(err)
    assert code == 1 and message.startswith("ошибка:")
    assert "faq.md" in message and "'faq'" in message and str(first) in message and "--replace" in message
    assert store.digest(build_dir / "kb.sqlite") == before
    code, _, err = invoke("ingest", str(second), "--dry-run")
    assert code == 1 and "--replace" in err
    code, _, err = invoke("ingest", str(second), "--replace", "--quiet")
    assert code == 0, err
    stats = json.loads(invoke("stats", "--json")[1])
    assert stats["per_document"]["faq"]["rulings"] == 1


def test_reingesting_the_same_file_after_an_edit_replaces_it(tmp_path: Path, build_dir: Path) -> None:
    doc = tmp_path / "faq.txt"
    doc.write_text(DOC, "utf-8")
    assert invoke("ingest", str(doc), "--quiet")[0] == 0
    doc.write_text(DOC + "* Третье разъяснение.\n", "utf-8")
    code, _, err = invoke("ingest", str(doc), "--quiet")
    assert code == 0, err
    assert json.loads(invoke("stats", "--json")[1])["per_document"]["faq"]["rulings"] == 3


def test_two_files_of_one_command_with_the_same_id(tmp_path: Path, build_dir: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "faq.txt").write_text(DOC, "utf-8")
    (tmp_path / "b" / "faq.txt").write_text(DOC + "* Ещё.\n", "utf-8")
    code, _, err = invoke("ingest", str(tmp_path / "a" / "faq.txt"), str(tmp_path / "b" / "faq.txt"), "--dry-run")
    assert code == 1 and "ID документа 'faq' получается и у другого файла" in one_line(err)


# -- malformed HTML -----------------------------------------------------------------------------------------
WELL_FORMED = (
    "<!DOCTYPE html><html><body><h2>Ключевое слово: Упорство</h2>\n"
    "<ul><li>Упорство срабатывает, когда существо умирает.</li>\n<li>Второе разъяснение.</li></ul>\n"
    "<h2>Тема: жетоны</h2>\n<div><p>Пояснение к жетонам.</p></div>\n<ul><li>Жетоны -1/-1 остаются.</li></ul>\n"
    "</body></html>\n"
)
MALFORMED = {
    "unclosed-h2": WELL_FORMED.replace("Упорство</h2>", "Упорство"),
    # </li> and </p> may be left out (the standard allows it, no warning); an open <b> or <div> may not
    "unclosed-tags": WELL_FORMED.replace("</li>\n<li>", "\n<li>").replace("<li>Жетоны", "<li><b>Жетоны")
    .replace("</body>", "<div></body>"),
    "stray-div": WELL_FORMED.replace("</div>\n", "</div></div>\n").replace("<h2>Тема", "</div><h2>Тема"),
    "misnested": WELL_FORMED.replace("Второе разъяснение.</li>", "<b>Второе <i>разъяснение.</b></i></li>"),
}


def _entries(path: Path) -> list[tuple[str, str]]:
    from kb import build as kb_build

    [parsed] = kb_build.parse_sources([kb_build.Source(path, path.name)])
    return [(r.id, r.text) for r in parsed.rulings]


def test_well_formed_page_has_no_repairs(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text(WELL_FORMED, "utf-8")
    warnings: list = []
    from_html(WELL_FORMED, "page.html", warnings)
    assert warnings == []
    ids = [i for i, _ in _entries(page)]
    assert ids == ["page/persist/1", "page/persist/2", "page/zhetony/note-1", "page/zhetony/1"]


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_html_is_recovered_like_a_browser_with_warnings(tmp_path: Path, build_dir: Path, name: str) -> None:
    good, bad = tmp_path / "page.html", tmp_path / "broken" / "page.html"
    bad.parent.mkdir()
    good.write_text(WELL_FORMED, "utf-8")
    bad.write_text(MALFORMED[name], "utf-8")
    assert _entries(bad) == _entries(good)  # the same rulings, with the same IDs and texts
    payload = dry_run(bad)
    assert payload["rulings"] == 3 and payload["warnings"] >= 1
    assert all(w.startswith(str(bad) + ":") and "HTML прочитан" in w for w in payload["warnings_detail"])


def test_unclosed_h2_names_the_tag_and_its_line() -> None:
    warnings: list = []
    lines = from_html(MALFORMED["unclosed-h2"], "p.html", warnings)
    assert [(line.number, line.text) for line in lines if line.kind == "heading"] == [
        (1, "Ключевое слово: Упорство"), (4, "Тема: жетоны")
    ]
    assert [(w.line, w.key, w.values["tag"]) for w in warnings] == [(4, "warn.html.start_tag", "h2")]


def test_stray_end_tag_warning() -> None:
    warnings: list = []
    from_html(MALFORMED["stray-div"], "p.html", warnings)
    assert {(w.key, w.values["tag"]) for w in warnings} == {("warn.html.end_tag", "div")}
    assert len(warnings) == 2


def test_a_page_full_of_errors_warns_a_bounded_number_of_times() -> None:
    from ingest.lines import MAX_HTML_WARNINGS

    page = WELL_FORMED.replace("</body>", "</div>" * 200 + "</body>")
    warnings: list = []
    from_html(page, "p.html", warnings)
    assert len(warnings) == MAX_HTML_WARNINGS + 1
    assert warnings[-1].key == "warn.html.more" and warnings[-1].values["count"] == 200 - MAX_HTML_WARNINGS


def test_unclosed_html_that_swallows_everything_still_fails_cleanly() -> None:
    with pytest.raises(IngestError) as caught:
        from_html("<html><body><script>", "p.html")
    assert caught.value.key == "err.ingest.html_no_text"


def test_nul_filled_file_is_binary_not_utf16() -> None:
    with pytest.raises(IngestError) as caught:
        decode(bytes(4096), "zeros.txt")
    assert caught.value.key == "err.ingest.binary"
