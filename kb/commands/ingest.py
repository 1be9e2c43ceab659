"""``kb ingest``, ``kb stats`` and ``kb show``: build the knowledge base and look at what is in it.

``kb show`` and ``kb stats`` are registered here and run in ``kb/commands/show.py`` (no typer, no rich
console there: the console script calls them directly, ``kb.cli``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from ingest.entries import ParsedDocument
from ingest.errors import IngestError
from kb import paths, rules_view, store
from kb.cli_app import JSON_OPTION, app, console, err_console, fail, print_json, warn
from kb.commands import show as show_cmd
from kb.commands.show import SUMMARY_KEYS, summary_table
from kb.i18n import localized, t


@app.command(help="cmd.ingest")
def ingest(
    paths_: list[Path] = typer.Argument(None, metavar="[PATHS]...", help="arg.ingest.paths"),  # noqa: B008
    dry_run: bool = typer.Option(False, "--dry-run", help="opt.ingest.dry_run"),
    as_json: bool = JSON_OPTION,
    quiet: bool = typer.Option(False, "--quiet", "-q", help="opt.ingest.quiet"),
    replace: bool = typer.Option(False, "--replace", help="opt.ingest.replace"),
) -> None:
    """Parse source documents into the knowledge base (build/kb.sqlite), in one transaction."""
    from kb import build as kb_build  # the parser's imports (bs4, pymorphy3) only when ingesting

    try:
        sources = [kb_build.Source(p, kb_build.label_for(p)) for p in paths_] if paths_ else kb_build.bundled_sources()
        sources, rule_sources = kb_build.split_rules(sources) if paths_ else (sources, [])
        with Progress(
            TextColumn("[progress.description]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            console=err_console,
            transient=True,
            disable=quiet or as_json,
        ) as progress:
            task = progress.add_task(t("ingest.progress"), total=len(sources))

            def advance(source: kb_build.Source, _doc: ParsedDocument) -> None:
                progress.update(task, advance=1, description=t("ingest.progress_file", name=source.path.name))

            parsed = kb_build.parse_sources(sources, on_document=advance) if sources or not paths_ else []
            rules = kb_build.parse_rules_sources(rule_sources)
    except IngestError as exc:
        fail(localized(exc))
    # a real ingest checks inside its write transaction (below), where a concurrent one can't slip past
    dry_conflicts = kb_build.same_id_conflicts(_stored_kb(strict=False), parsed) if dry_run and paths_ else []
    if dry_conflicts and not replace:
        fail(localized(dry_conflicts[0]))

    per_document = {doc.document.id: doc.summary() for doc in parsed}
    per_version = {r.version.version: r.summary() for r in rules}
    warnings = [str(w) for doc in parsed for w in doc.warnings] + [str(w) for r in rules for w in r.warnings]
    if not dry_run:
        try:
            kb = _store(kb_build, parsed, rules, bool(paths_), replace)
        except store.KnowledgeBaseError as exc:
            fail(str(exc))
        except IngestError as exc:  # a second file with a taken document ID
            fail(localized(exc))
        # MTGJSON sets share cards: report what each owns once merged (a reprint counts in its first set)
        per_document.update({k: kb.summaries[k] for k in per_document if k in kb.summaries})
    if as_json:
        totals = {key: sum(s[key] for s in per_document.values()) for key in SUMMARY_KEYS}
        print_json(
            {
                "documents": len(parsed),
                **totals,
                "per_document": per_document,
                "comprehensive_rules": per_version,
                "warnings_detail": warnings,
                "stored": None if dry_run else str(paths.kb_path()),
            }
        )
        return
    if per_document or not per_version:
        console.print(summary_table(t("ingest.title_dry_run" if dry_run else "ingest.title"), per_document))
    if per_version:
        console.print(rules_view.rules_table(per_version))
    for warning in warnings:
        warn(warning)
    if not dry_run:
        console.print(t("ingest.written", path=paths.kb_path()), highlight=False)


def _stored_kb(strict: bool) -> store.KnowledgeBase | None:
    """The knowledge base a path ingest adds to (None before the first ingest); a broken one is an error
    when it would be written to (``strict``), and simply absent for ``--dry-run``."""
    if not paths.kb_path().exists():
        return None
    try:
        return store.load(paths.kb_path())
    except store.KnowledgeBaseError as exc:
        if strict:
            fail(str(exc))
        return None


def _store(
    kb_build: Any, parsed: list[ParsedDocument], rules: list[Any], by_path: bool, replace: bool = False
) -> store.KnowledgeBase:
    """Read, merge and write in one write transaction: a concurrent ``kb ingest`` waits, then merges into
    this one's result, so neither loses the other's documents (nor slips a taken document ID past the check).
    A rebuild (no paths) needs nothing stored but the CR versions, so an unreadable file is set aside rather
    than fatal."""
    with store.transaction(paths.kb_path(), fresh_if_invalid=not by_path) as tx:
        try:
            existing = tx.existing()
        except store.KnowledgeBaseError:
            if by_path:
                raise
            existing = None
        if by_path and not replace and (conflicts := kb_build.same_id_conflicts(existing, parsed)):
            raise conflicts[0]
        if not by_path:
            kb = kb_build.build(parsed)
        else:
            kb = kb_build.merge(existing, parsed) if parsed or existing is None else existing
        kb = kb_build.with_rules(kb, rules, kept=existing)
        tx.save(kb)
    result: store.KnowledgeBase = kb
    return result




@app.command(help="cmd.stats")
def stats(as_json: bool = JSON_OPTION) -> None:
    """Counts of documents, sections, cards, rules, rulings and notes, per document."""
    show_cmd.stats(as_json)


@app.command(help="cmd.show")
def show(
    entry_id: str = typer.Argument(..., metavar="ID", help="arg.show.id"),
    as_json: bool = JSON_OPTION,
) -> None:
    """Print an entry with its context: document, section, cards, cited rules, translation."""
    show_cmd.show(entry_id, as_json)
