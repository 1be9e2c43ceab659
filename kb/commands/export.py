"""``kb export site OUT_DIR`` and ``kb export json OUT_DIR``: publish the knowledge base without a server."""

from __future__ import annotations

from pathlib import Path

import typer

from kb import paths, store
from kb.cli_app import JSON_OPTION, app, console, err_console, fail, print_json

export_app = typer.Typer(
    name="export",
    help="Export the knowledge base: a static offline FAQ site, or a JSON dump of all entries.",
    no_args_is_help=True,
)
app.add_typer(export_app, name="export")

OUT_DIR = typer.Argument(..., help="Directory to (re)create; replaced atomically when the export succeeds.")


def _load() -> store.KnowledgeBase:
    try:
        return store.load(paths.kb_path())
    except store.KnowledgeBaseError as exc:
        fail(str(exc))


def _kib(n: int) -> str:
    return f"{n / 1024:.1f} KiB"


@export_app.command("site")
def site_command(out_dir: Path = OUT_DIR, as_json: bool = JSON_OPTION) -> None:
    """Write the static FAQ site (open OUT_DIR/index.html in a browser, also from file://)."""
    from kb.export import site

    kb = _load()
    try:
        report = site.export_site(kb, out_dir)
    except site.ExportError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"{out_dir}: {exc.strerror or exc}")
    for warning in report.warnings:
        err_console.print(f"[yellow]warning:[/] {warning}", highlight=False)
    if as_json:
        print_json(report.to_dict())
        return
    cov = report.coverage
    console.print(
        f"[bold]{report.out_dir}[/]: {report.pages} pages, {report.files} files, {_kib(report.bytes)} "
        f"in {report.seconds:.2f} s",
        highlight=False,
    )
    console.print(
        f"search index {_kib(report.index_bytes)} ({_kib(report.index_gzip_bytes)} gzip); "
        f"home + search {_kib(report.home_search_gzip_bytes)} gzip",
        highlight=False,
    )
    console.print(
        f"rulings: {cov['verified']} verified, {cov['failing']} failing, {cov['unlinked']} not linked, "
        f"{cov['not_simulable']} not simulable (verification: {report.verification})",
        highlight=False,
    )


@export_app.command("json")
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
        err_console.print(f"[yellow]warning:[/] {warning}", highlight=False)
    try:
        path = dump.export_json(kb, pages.gather(kb, proof_set), out_dir)
    except site.ExportError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"{out_dir}: {exc.strerror or exc}")
    if as_json:
        print_json({"path": str(path), "entries": len(kb.entries), "bytes": path.stat().st_size})
    else:
        console.print(f"{path}: {len(kb.entries)} entries", highlight=False)
