"""Faults of ``kb export`` (issue 14): relative targets, world-readable files, no staging left behind (also
after SIGKILL), pages written as they are rendered, and a site whose pages do not grow with the corpus."""

from __future__ import annotations

import os
import re
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kb import store
from kb.cli import app
from kb.export import dump, pages, proofs, publish, site
from kb.store import KnowledgeBase
from scripts.bench_export import replicated_kb

PROJECT_ROOT = Path(__file__).resolve().parents[2]
NO_PROOFS = proofs.Proofs({}, "none", [])


def _snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _ours(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if ".kb-staging-" in p.name or ".kb-old-" in p.name)


@pytest.fixture
def kb_json(build_dir: Path, seed_kb: KnowledgeBase, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The seeds stored for the CLI; verification is skipped (these tests are about files, not verdicts)."""
    store.save(seed_kb, build_dir / "kb.json")
    monkeypatch.setattr(proofs, "collect", lambda *_: NO_PROOFS)
    return build_dir / "kb.json"


# -- relative targets ---------------------------------------------------------------------------------------
def test_export_site_dot_in_an_empty_folder(kb_json: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    here = tmp_path / "empty"
    here.mkdir()
    monkeypatch.chdir(here)
    inode = os.stat(".").st_ino
    for _ in range(2):  # the second run replaces the first export in place
        result = CliRunner().invoke(app, ["export", "site", "."])
        assert result.exit_code == 0, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert "Traceback" not in result.output
        assert os.stat(".").st_ino == inode  # the folder the shell stands in is still this folder
        assert Path("index.html").is_file() and Path(site.MARKER).is_file() and Path("static/site.css").is_file()
        assert _ours(here) == [] and _ours(tmp_path) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["build", "empty"]


def test_export_site_to_a_relative_path(kb_json: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for target in ("out", "nested/dir/site"):
        result = CliRunner().invoke(app, ["export", "site", target, "--json"])
        assert result.exit_code == 0, result.output
        assert (tmp_path / target / "index.html").is_file()
    assert _ours(tmp_path) == [] and _ours(tmp_path / "nested" / "dir") == []


def test_export_json_dot(kb_json: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    here = tmp_path / "dump"
    here.mkdir()
    monkeypatch.chdir(here)
    result = CliRunner().invoke(app, ["export", "json", "."])
    assert result.exit_code == 0, result.output
    assert (here / "entries.json").is_file() and _ours(here) == [] and _ours(tmp_path) == []


def test_dot_in_a_folder_that_is_not_an_export_is_refused_and_untouched(
    kb_json: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    here = tmp_path / "checkout"
    here.mkdir()
    (here / "README.md").write_text("mine", "utf-8")
    monkeypatch.chdir(here)
    result = CliRunner().invoke(app, ["export", "site", "."])
    assert result.exit_code == 1 and "не является прошлым экспортом" in result.stderr
    assert [p.name for p in here.iterdir()] == ["README.md"]


# -- permissions ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("command", ["site", "json"])
def test_exported_files_are_world_readable_whatever_the_umask(
    kb_json: Path, tmp_path: Path, command: str
) -> None:
    out = tmp_path / "public"
    previous = os.umask(0o077)
    try:
        result = CliRunner().invoke(app, ["export", command, str(out)])
    finally:
        os.umask(previous)
    assert result.exit_code == 0, result.output
    modes = {p.relative_to(tmp_path).as_posix(): stat.S_IMODE(p.stat().st_mode) for p in [out, *out.rglob("*")]}
    assert modes["public"] == 0o755
    assert all(mode == (0o755 if (tmp_path / path).is_dir() else 0o644) for path, mode in modes.items()), modes


# -- no staging left behind --------------------------------------------------------------------------------
def test_failed_export_into_dot_leaves_the_previous_site_and_no_staging(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exported: Path, seed_kb: KnowledgeBase
) -> None:
    here = tmp_path / "site"
    here.mkdir()
    monkeypatch.chdir(here)
    site.export_site(seed_kb, Path("."), NO_PROOFS)
    before = _snapshot(here)

    def boom(*_: object) -> str:
        raise RuntimeError("index builder crashed")

    monkeypatch.setattr(site.search_index, "site_index", boom)
    with pytest.raises(RuntimeError):
        site.export_site(seed_kb, Path("."), NO_PROOFS)
    assert _snapshot(here) == before and _ours(here) == [] and _ours(tmp_path) == []


_KILLED_EXPORT = """
import sys, time
from pathlib import Path
from kb import store
from kb.export import proofs, site

kb = store.load(Path(sys.argv[1]))
real, count = site.render_page, [0]

def slow(page, env):
    count[0] += 1
    if count[0] == 30:  # some pages are written: say so, then wait to be killed
        Path(sys.argv[3]).write_text("ready")
        time.sleep(120)
    return real(page, env)

site.render_page = slow
site.export_site(kb, Path(sys.argv[2]), proofs.Proofs({}, "none", []))
"""


def _killed_export(kb_json: Path, target: Path, flag: Path) -> int:
    """Start an export in a child process, SIGKILL it half-way; return its PID."""
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    child = subprocess.Popen([sys.executable, "-c", _KILLED_EXPORT, str(kb_json), str(target), str(flag)], env=env)
    deadline = time.monotonic() + 120
    while not flag.exists():
        assert child.poll() is None, "the export child ended before it was killed"
        assert time.monotonic() < deadline, "the export child never got half-way"
        time.sleep(0.05)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    return child.pid


def test_sigkilled_export_keeps_the_previous_site_and_the_next_run_cleans_up(
    kb_json: Path, tmp_path: Path, seed_kb: KnowledgeBase
) -> None:
    out = tmp_path / "site"
    site.export_site(seed_kb, out, NO_PROOFS)
    before = _snapshot(out)
    pid = _killed_export(kb_json, out, tmp_path / "ready")
    left = _ours(tmp_path)
    assert left and all(name.startswith(f".site.kb-staging-{pid}-") for name in left)  # the kill left it
    assert any((tmp_path / left[0]).rglob("*.html"))  # with pages already written in it
    assert _snapshot(out) == before  # the previous site is whole and readable
    live = tmp_path / f".site.kb-staging-{os.getpid()}-live"  # a running export's staging is not touched
    live.mkdir()
    site.export_site(seed_kb, out, NO_PROOFS)
    assert _ours(tmp_path) == [live.name]
    assert _snapshot(out) == before  # the same knowledge base: the same site


def test_sigkilled_export_into_dot_is_cleaned_up(
    kb_json: Path, tmp_path: Path, seed_kb: KnowledgeBase, monkeypatch: pytest.MonkeyPatch
) -> None:
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    site.export_site(seed_kb, Path("."), NO_PROOFS)
    before = _snapshot(here)
    pid = _killed_export(kb_json, Path("."), tmp_path / "ready")
    assert [n for n in _ours(here) if n.startswith(f".kb-staging-{pid}-")]
    assert {k: v for k, v in _snapshot(here).items() if not publish.is_ours(k.split("/")[0])} == before
    site.export_site(seed_kb, Path("."), NO_PROOFS)
    assert _ours(here) == [] and _snapshot(here) == before


def test_clean_leftovers_ignores_other_names(tmp_path: Path) -> None:
    (tmp_path / ".site.kb-staging-notapid-x").mkdir()
    (tmp_path / ".site.something").mkdir()
    assert publish.clean_leftovers(tmp_path / "site") == []


# -- streaming ----------------------------------------------------------------------------------------------
def test_each_page_is_written_before_the_next_is_rendered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed_kb: KnowledgeBase
) -> None:
    out = tmp_path / "site"
    real = site.render_page
    seen: list[str] = []

    def checking(page: pages.Page, env: object) -> object:
        if seen:
            [staging] = [p for p in tmp_path.iterdir() if p.name.startswith(".site.kb-staging-")]
            written = staging / seen[-1]
            assert written.is_file() and written.read_text("utf-8").rstrip().endswith("</html>")
        seen.append(page.path)
        return real(page, env)  # type: ignore[arg-type]

    monkeypatch.setattr(site, "render_page", checking)
    report = site.export_site(seed_kb, out, NO_PROOFS)
    assert len(seen) == report.pages > 100


def test_streamed_pages_and_dump_are_the_same_bytes(seed_kb: KnowledgeBase, seed_proofs: proofs.Proofs) -> None:
    model = pages.gather(seed_kb, seed_proofs)
    assert "".join(dump.render_pieces(seed_kb, model)) == dump.render(seed_kb, model)
    env = site.environment()
    page = next(p for p in model.pages() if p.path == "doc/shm.html")
    assert "".join(site.render_page(page, env)) == env.get_template(page.template).render(
        page=page, url=site.partial(site.urls.relative, page.path), root=site.urls.root_of(page.path)
    )


# -- the site grows linearly ----------------------------------------------------------------------------------
def test_site_grows_linearly_and_no_page_repeats_the_corpus(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed_kb: KnowledgeBase, seed_proofs: proofs.Proofs
) -> None:
    """Three copies of the seeds give three times the site, and every page but the home page (a line per
    document) stays the size it was: listings and «Что изменилось» are cut into pages."""
    monkeypatch.setattr(pages, "LISTING_LINES_PER_PAGE", 20)
    monkeypatch.setattr(pages, "CHANGES_PER_PAGE", 1)
    monkeypatch.setattr(pages, "CHANGED_LINES_PER_PAGE", 3)
    measured = {}
    for copies in (1, 3):
        kb, proof_set = replicated_kb(seed_kb, seed_proofs, copies * len(seed_kb.entries))
        assert len(kb.entries) == copies * len(seed_kb.entries)
        out = tmp_path / f"x{copies}"
        report = site.export_site(kb, out, proof_set)
        # the search index's word forms, glossary and lexicon shards grow with the vocabulary, not the entries
        vocabulary = sum(p.stat().st_size for d in ("f", "g", "l") for p in (out / "static/search" / d).rglob("*"))
        html = {p.relative_to(out).as_posix(): p.stat().st_size for p in out.rglob("*.html")}
        measured[copies] = report.bytes - vocabulary, html
    (one, pages1), (three, pages3) = measured[1], measured[3]
    assert 2.8 < three / one < 3.2

    def largest(sizes: dict[str, int]) -> dict[str, int]:  # per page family: changes-7.html is a changes.html
        families: dict[str, int] = {}
        for path, size in sizes.items():
            family = re.sub(r"-\d+\.html$", ".html", path)
            families[family] = max(families.get(family, 0), size)
        return families

    family1, family3 = largest(pages1), largest(pages3)
    grown = {f: size / family1[f] for f, size in family3.items() if f in family1 and size > 1.1 * family1[f]}
    assert set(grown) == {"index.html"}, grown
    assert grown["index.html"] < 3.2
    assert max(pages3.values()) <= 1.1 * max(pages1.values())
    assert "changes-2.html" in pages1 and "cards-2.html" in pages1 and "rules-2.html" in pages1
