"""The CLI's language: Russian by default, English with ``kb --lang en`` or an ``en`` locale; ``-h``,
``--version``; errors under ``--json`` as one JSON object on stdout with the text form's exit code."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from ingest.entries import Document, Entry, Ruling, Section, SourceSpan
from kb import i18n
from kb.cli import app
from kb.cli_app import _scan_global_lang, split_location
from kb.store import KnowledgeBase
from tests.conftest import verify_data

ROOT = Path(__file__).resolve().parent.parent
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
COMMANDS = [
    [], ["ingest"], ["stats"], ["show"], ["search"], ["index"], ["verify"], ["coverage"],
    ["export"], ["export", "site"], ["export", "json"],
]
# sentences the English-only CLI printed in every help; none may be left in the Russian one
OLD_ENGLISH = (
    "Usage:", "Options", "Arguments", "Show this message and exit.", "Print one JSON document instead of the table.",
    "Parse source documents", "Counts of documents", "Print an entry with its context", "Search rulings, notes",
    "Build the search index", "Play the scenarios", "How many rulings per document", "Export the knowledge base",
    "Write the static FAQ site", "Write OUT_DIR/entries.json", "Ruling IDs to verify.", "Rebuild even if",
    "How many results to show.", "Directory to (re)create",
)


def run(*args: str, env: dict[str, str | None] | None = None) -> Any:
    return CliRunner(env=env).invoke(app, list(args))


def flat(text: str) -> str:
    """Help as one line: rich's panels and wrapping removed, so a help sentence reads whole."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def command_tree() -> list[tuple[list[str], Any]]:
    """Every command and group under ``kb`` with its path, as click objects."""
    root = get_command(app)
    found: list[tuple[list[str], Any]] = [([], root)]
    for path, command in found:
        for name, sub in getattr(command, "commands", {}).items():
            found.append(([*path, name], sub))
    return found


# --- help ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "kb")
def test_help_is_russian_by_default(path: list[str]) -> None:
    result = run(*path, "--help")
    assert result.exit_code == 0, result.output
    text = flat(result.stdout)
    assert text.startswith(f"Использование: kb {' '.join(path)}".rstrip())
    assert "Показать эту справку и выйти." in text
    assert CYRILLIC.search(text)
    left = [sentence for sentence in OLD_ENGLISH if sentence in text]
    assert not left, left


def test_every_help_text_is_a_catalogue_key_shown_in_both_languages() -> None:
    """No help string bypasses the catalogue, so none can stay English in Russian (or the reverse)."""
    checked = 0
    for path, command in command_tree():
        keys = [command.help] + [p.help for p in command.params if p.name != "help"]
        assert all(key in i18n.MESSAGES for key in keys), (path, keys)
        for lang in i18n.LANGUAGES:
            shown = flat(run("--lang", lang, *path, "--help").stdout)
            i18n.set_language(lang)
            for key in keys:
                assert flat(i18n.t(key))[:40] in shown, (path, key, lang)
                checked += 1
    assert checked > 2 * 30


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "kb")
def test_help_is_english_with_lang_en_or_an_english_locale(path: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    by_option = run("--lang", "en", *path, "--help")
    assert by_option.exit_code == 0, by_option.output
    assert flat(by_option.stdout).startswith("Usage: kb")
    assert "Show this message and exit." in by_option.stdout
    assert not CYRILLIC.search(by_option.stdout), by_option.stdout
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    by_locale = run(*path, "--help")
    assert by_locale.stdout == by_option.stdout


def test_language_precedence() -> None:
    assert "Usage:" in run("--help", env={"LANG": "en_US.UTF-8"}).stdout
    assert "Usage:" in run("--help", env={"LC_MESSAGES": "en_GB.UTF-8", "LANG": "ru_RU.UTF-8"}).stdout
    assert "Использование:" in run("--help", env={"LC_ALL": "ru_RU.UTF-8", "LANG": "en_US.UTF-8"}).stdout
    assert "Использование:" in run("--help", env={"LC_ALL": "C.UTF-8", "LANG": "en_US.UTF-8"}).stdout
    assert "Использование:" in run("--lang", "ru", "--help", env={"LANG": "en_US.UTF-8"}).stdout
    assert "Usage:" in run("--lang=en", "--help", env={"LANG": "ru_RU.UTF-8"}).stdout
    assert "Usage:" in run("--help", "--lang", "en").stdout  # after --help too: it is read before parsing
    assert "Использование:" in run("--help").stdout  # one --lang en does not stick to the next run


def test_only_the_global_lang_chooses_the_interface() -> None:
    """``kb search … --lang en`` filters entries by language; the interface language is ``kb --lang``."""
    assert _scan_global_lang(["--lang", "en", "search", "x"]) == "en"
    assert _scan_global_lang(["--lang=en", "verify"]) == "en"
    assert _scan_global_lang(["search", "x", "--lang", "en"]) is None
    assert _scan_global_lang(["--json"]) is None


def test_unknown_language_is_a_usage_error() -> None:
    result = run("--lang", "fr", "stats")
    assert result.exit_code == 2
    assert "язык 'fr' не поддерживается: ru или en" in flat(result.stderr)


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "kb")
def test_short_h_is_help(path: list[str]) -> None:
    short, long = run(*path, "-h"), run(*path, "--help")
    assert short.exit_code == long.exit_code == 0
    assert short.stdout == long.stdout and "Использование:" in short.stdout


def test_version_comes_from_the_package_metadata() -> None:
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout.strip() == f"kb {version('mtg-rulings-kb')}"


def test_click_usage_errors_are_translated() -> None:
    unknown = run("nosuch")
    assert unknown.exit_code == 2 and "Нет такой команды 'nosuch'." in flat(unknown.stderr)
    assert "Ошибка" in unknown.stderr and "Справка: 'kb --help'" in flat(unknown.stderr)
    missing = run("show")
    assert missing.exit_code == 2 and "Не указан аргумент" in flat(missing.stderr)
    english = run("--lang", "en", "show")
    assert english.exit_code == 2 and "Missing argument" in flat(english.stderr)


# --- errors under --json -----------------------------------------------------------------------


@pytest.fixture
def no_kb(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KB_BUILD_DIR", str(tmp_path / "build"))
    return tmp_path / "build" / "kb.sqlite"


@pytest.mark.parametrize(
    "args",
    [["stats"], ["show", "shm/persist/1"], ["search", "упорство"], ["index"], ["coverage"],
     ["export", "site", "OUT"], ["export", "json", "OUT"]],
    ids=" ".join,
)
def test_missing_knowledge_base_is_a_json_error_naming_the_file(args: list[str], no_kb: Path, tmp_path: Path) -> None:
    args = [str(tmp_path / "out") if a == "OUT" else a for a in args]
    text = run(*args)
    assert text.exit_code == 1 and text.stdout == ""
    assert text.stderr.startswith("ошибка:") and "сначала выполните `kb ingest`" in text.stderr
    as_json = run(*args, "--json")
    assert as_json.exit_code == text.exit_code
    error = json.loads(as_json.stdout)["error"]
    assert error == {"message": "базы знаний ещё нет; сначала выполните `kb ingest`", "file": str(no_kb), "line": None}
    english = json.loads(run("--lang", "en", *args, "--json").stdout)["error"]
    assert english["message"] == "no knowledge base yet; run `kb ingest` first"


def test_bad_file_is_a_json_error_with_file_and_line(tmp_path: Path, data_dir: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: x\ntitle: t\nrulings: [\n", encoding="utf-8")
    text = run("verify", "--scenario", str(bad))
    assert text.exit_code == 2 and f"ошибка: {bad}:" in flat(text.stderr)
    as_json = run("verify", "--scenario", str(bad), "--json")
    assert as_json.exit_code == text.exit_code
    error = json.loads(as_json.stdout)["error"]
    assert error["file"] == str(bad) and isinstance(error["line"], int) and error["line"] >= 3
    assert error["message"] and not error["message"].startswith(str(bad))


def test_bad_document_is_a_json_error_with_file_and_line(tmp_path: Path, no_kb: Path) -> None:
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("Caf\xe9 d\xe9j\xe0 vu\n".encode("latin-1"))
    text = run("ingest", str(bad), "--dry-run")
    as_json = run("ingest", str(bad), "--dry-run", "--json")
    assert text.exit_code == as_json.exit_code != 0
    error = json.loads(as_json.stdout)["error"]
    assert (error["file"], error["line"]) == (str(bad), 1)


def test_bad_ids_are_json_errors(data_dir: Path) -> None:
    for args, message, code in (  # bad input to verify is never a verdict: 2; an entry not found: 1
        (["verify", "shm/persist/99"], "неизвестные ID разъяснений: shm/persist/99", 2),
        (["verify"], "укажите ID разъяснений, --all или --scenario ПУТЬ", 2),
        (["show", "shm/persist/99"], "нет записи 'shm/persist/99'", 1),
        (["verify", "--scenario", "nope.yaml"], "нет такого файла сценария: nope.yaml", 2),
    ):
        text, as_json = run(*args), run(*args, "--json")
        assert text.exit_code == as_json.exit_code == code, args
        assert message in flat(text.stderr) and text.stdout == ""
        payload = json.loads(as_json.stdout)
        assert set(payload) == {"error"} and set(payload["error"]) == {"message", "file", "line"}
        assert payload["error"]["message"].startswith(message)


def test_usage_errors_under_json_are_json_with_exit_code_2() -> None:
    result = run("search", "упорство", "--limit", "0", "--json")
    assert result.exit_code == 2
    error = json.loads(result.stdout)["error"]
    assert error["file"] is None and "'--limit'" in error["message"] and "не меньше 1" in error["message"]


def test_split_location() -> None:
    assert split_location("data/x.yaml:12: unknown key") == ("data/x.yaml", 12, "unknown key")
    assert split_location("/tmp/a.txt: empty file") == ("/tmp/a.txt", None, "empty file")
    whole = "нет записи 'x'; попробуйте `kb search`"
    assert split_location(whole) == (None, None, whole)
    assert split_location("unknown set 'XYZ': known") == (None, None, "unknown set 'XYZ': known")


# --- statuses in kb verify and kb coverage -------------------------------------------------------



@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """shm/persist/1 verified, /2 failing, /3 unlinked, /4 not simulable (release_info)."""
    span = SourceSpan("x", 1, 1)
    shm = Document(
        id="shm", document_id="shm", source=span, title="Заметки к выпуску — Шэдоумур", set_code="SHM",
        set_name_ru="Шэдоумур", set_name_en="Shadowmoor", kind="release notes", date=None, languages=("ru",),
        sha256="0" * 64, encoding="utf-8", content_hash="x",
    )
    persist = Section(
        id="shm/persist", document_id="shm", source=span, heading="Упорство", kind="keyword ability",
        mechanic_ru="Упорство", mechanic_en="Persist", lang="ru", order=0,
    )
    entries: list[Entry] = [shm, persist]
    entries += [
        Ruling(id=f"shm/persist/{n}", document_id="shm", source=span, section_id="shm/persist", kind="ruling",
               text="t", lang="ru")
        for n in range(1, 5)
    ]
    return verify_data(tmp_path, monkeypatch, KnowledgeBase(entries=entries))


IDS = ["shm/persist/1", "shm/persist/2", "shm/persist/3", "shm/persist/4"]


def test_verify_prints_russian_statuses(data_dir: Path) -> None:
    result = run("verify", *IDS, "--no-log")
    assert result.exit_code == 1
    out = flat(result.stdout)
    for line in (
        "ПРОВЕРЕНО shm/persist/1", "ПРОЙДЕН ok — ок", "НЕ ПРОХОДИТ shm/persist/2", "НЕ ПРОЙДЕН bad — ок",
        "Проверено (ожидалось / на деле):", "НЕ СВЯЗАНО СО СЦЕНАРИЕМ shm/persist/3",
        "НЕ МОДЕЛИРУЕТСЯ shm/persist/4 — сведения о выпуске, датах, турнирах: даты",
        "Итого записей: 4 (проверено — 1, не проходит — 1, не связано со сценарием — 1, не моделируется — 1); "
        "сценариев пройдено: 1 из 2",
    ):
        assert line in out, line
    assert not re.search(r"\b(VERIFIED|FAILING|UNLINKED|NOT_SIMULABLE|PASS|FAIL|release_info)\b", out)


def test_verify_in_english(data_dir: Path) -> None:
    out = flat(run("--lang", "en", "verify", *IDS, "--no-log").stdout)
    for line in (
        "VERIFIED shm/persist/1", "PASS ok", "FAILING shm/persist/2", "FAIL bad", "Checked (expected / actual):",
        "NOT LINKED TO A SCENARIO shm/persist/3",
        "NOT SIMULABLE shm/persist/4 — release, dates and tournament information: даты",
        "4 entries checked: 1 verified, 1 failing, 1 not linked to a scenario, 1 not simulable; "
        "scenarios passing 1 of 2",
    ):
        assert line in out, line


def test_coverage_table_is_russian(data_dir: Path) -> None:
    result = run("coverage")
    assert result.exit_code == 0, result.output
    out = result.stdout
    for word in ("Покрытие разъяснений сценариями", "документ", "разъяснения", "проверено", "проходит", "связано",
                 "моделируется", "итого", "примечания", "правила"):
        assert word in out, word
    assert not re.search(r"\b(verified|failing|unlinked|not_simulable|total|notes|rules|document)\b", out)
    english = run("--lang", "en", "coverage").stdout
    assert "Rulings covered by scenarios" in english and "verified" in english and not CYRILLIC.search(english)


def test_json_payloads_do_not_depend_on_the_language(data_dir: Path) -> None:
    for args in (["coverage", "--json"], ["verify", *IDS, "--json"]):
        ru, en = run(*args), run("--lang", "en", *args)
        assert ru.exit_code == en.exit_code
        assert json.loads(ru.stdout) == json.loads(en.stdout)
    report = json.loads(run("coverage", "--json").stdout)
    assert report["total"] == {"rulings": 4, "verified": 1, "failing": 1, "unlinked": 1, "not_simulable": 1}
    verdicts = json.loads(run("verify", *IDS, "--json").stdout)["verdicts"]
    assert [v["status"] for v in verdicts.values()] == ["verified", "failing", "unlinked", "not_simulable"]
    assert verdicts["shm/persist/4"]["reason"] == "release_info"


def test_show_speaks_russian(data_dir: Path) -> None:
    out = flat(run("show", "shm/persist/1").stdout)
    assert "shm/persist/1 (разъяснение)" in out and "Проверка: проверено" in out and "ПРОЙДЕН ok — ок" in out
    out = flat(run("show", "shm/persist/4").stdout)
    assert "Проверка: не моделируется" in out and "причина: сведения о выпуске, датах, турнирах — даты" in out
    english = flat(run("--lang", "en", "show", "shm/persist/4").stdout)
    assert "Verification: not simulable" in english and "reason: release, dates and tournament information" in english


def test_export_reports_in_russian(data_dir: Path, tmp_path: Path) -> None:
    site = run("export", "site", str(tmp_path / "site"))
    assert site.exit_code == 0, site.output
    out = flat(site.stdout)
    assert re.search(r"site: страниц \d+, файлов \d+, [\d.]+ КиБ, за [\d.]+ с", out), out
    assert "разъяснения: проверено — 1, не проходит — 1, не связано — 1, не моделируется — 1" in out
    assert "(проверка: сценарии в движке правил)" in out
    dump = run("export", "json", str(tmp_path / "dump"))
    assert dump.exit_code == 0 and "entries.json: записей 6" in dump.stdout


# --- the catalogue --------------------------------------------------------------------------------


def test_every_kind_of_entry_has_a_label() -> None:
    from typing import get_args

    from ingest.entries import ENTRY_TYPES, RulingKind, SectionKind

    kinds = {*ENTRY_TYPES, *get_args(SectionKind), *get_args(RulingKind), "release notes", "FAQ"}
    for lang in i18n.LANGUAGES:
        i18n.set_language(lang)
        labels = {kind: i18n.entry_type_label(kind) for kind in kinds}
        assert all(f"type.{kind}" in i18n.MESSAGES for kind in kinds)
        assert len(set(labels.values())) == len(kinds), labels


def test_status_and_reason_labels_are_the_sites_and_the_verifiers() -> None:
    from kb import verify
    from kb.export import proofs

    i18n.set_language("ru")
    assert {s: i18n.status_label(s) for s in proofs.STATUSES} == proofs.STATUS_LABELS
    assert {r: i18n.reason_label(r) for r in verify.REASONS} == verify.REASONS
    i18n.set_language("en")
    assert i18n.status_label("not_simulable") == "not simulable"
    assert set(verify.REASONS) == {key.removeprefix("reason.") for key in i18n.MESSAGES if key.startswith("reason.")}


def test_catalogue_russian_is_russian_and_english_is_english() -> None:
    placeholders = re.compile(r"\{[^}]*\}")
    for key, (ru, en) in i18n.MESSAGES.items():
        assert ru and en, key
        assert not CYRILLIC.search(en), key
        if key not in {"err.os", "version", "verify.summary_part"}:  # only placeholders and punctuation
            assert CYRILLIC.search(ru), key
        assert sorted(placeholders.findall(ru)) == sorted(placeholders.findall(en)), key


def test_cold_start_imports_nothing_heavy() -> None:
    code = (
        "import sys, kb.cli; heavy = ('rules_engine', 'whoosh', 'pymorphy3', 'yaml', 'jinja2', 'bs4', "
        "'importlib.metadata'); print([m for m in sys.modules if m.startswith(heavy)])"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert result.stdout.strip() == "[]"
