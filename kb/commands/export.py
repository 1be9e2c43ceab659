"""``kb export site OUT_DIR`` and ``kb export json OUT_DIR``: publish the knowledge base without a server."""

from __future__ import annotations

from pathlib import Path

import typer

from kb import store
from kb.cli_app import JSON_OPTION, KbTyper, app, console, fail, load_kb, print_json, warn
from kb.i18n import MESSAGES, status_label, t

export_app = KbTyper(name="export", help="cmd.export", no_args_is_help=True)
app.add_typer(export_app, name="export", help="cmd.export")

OUT_DIR = typer.Argument(..., help="arg.export.out_dir")


def _load() -> store.KnowledgeBase:
    kb: store.KnowledgeBase = load_kb()
    return kb


def _kib(n: int) -> str:
    return t("unit.kib", value=n / 1024)


@export_app.command("site", help="cmd.export.site")
def site_command(out_dir: Path = OUT_DIR, as_json: bool = JSON_OPTION) -> None:
    """Write the static FAQ site (open OUT_DIR/index.html in a browser, also from file://)."""
    from kb.export import site

    kb = _load()
    try:
        report = site.export_site(kb, out_dir)
    except site.ExportError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(str(exc.strerror or exc), file=str(out_dir))
    for warning in report.warnings:
        warn(warning)
    if as_json:
        print_json(report.to_dict())
        return
    cov = report.coverage
    site_line = t(
        "export.site", out=report.out_dir, pages=report.pages, files=report.files, size=_kib(report.bytes),
        seconds=report.seconds,
    )
    console.print(site_line, highlight=False, markup=False, soft_wrap=True)
    index_line = t(
        "export.index", size=_kib(report.index_bytes), gzip=_kib(report.index_gzip_bytes),
        home=_kib(report.home_search_gzip_bytes),
    )
    console.print(index_line, highlight=False, markup=False, soft_wrap=True)
    statuses = ("verified", "failing", "unlinked", "not_simulable")
    parts = ", ".join(t("verify.summary_part", label=status_label(s, short=True), count=cov[s]) for s in statuses)
    source_key = f"export.source.{report.verification}"
    source = t(source_key) if source_key in MESSAGES else report.verification
    rulings_line = t("export.rulings", parts=parts, source=source)
    console.print(rulings_line, highlight=False, markup=False, soft_wrap=True)


@export_app.command("json", help="cmd.export.json")
def json_command(out_dir: Path = OUT_DIR, as_json: bool = JSON_OPTION) -> None:
    """Write OUT_DIR/entries.json: every entry with its page URL and, for rulings, the verification verdict."""
    from kb.export import dump, pages, proofs, site

    try:
        site.check_target(out_dir)
    except site.ExportError as exc:
        fail(str(exc))
    kb = _load()
    proof_set = proofs.collect(kb)
    for warning in proof_set.warnings:
        warn(warning)
    try:
        path = dump.export_json(kb, pages.gather(kb, proof_set), out_dir)
    except site.ExportError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(str(exc.strerror or exc), file=str(out_dir))
    if as_json:
        print_json({"path": str(path), "entries": len(kb.entries), "bytes": path.stat().st_size})
    else:
        console.print(t("export.json", path=path, count=len(kb.entries)), highlight=False, markup=False, soft_wrap=True)
