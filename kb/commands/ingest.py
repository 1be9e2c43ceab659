"""``kb ingest``, ``kb stats`` and ``kb show``: build the knowledge base and look at what is in it."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from ingest.entries import Card, Document, Entry, ParsedDocument, Rule, Ruling, Section
from ingest.errors import IngestError
from kb import paths, store
from kb.cli_app import JSON_OPTION, app, console, err_console, fail, print_json

SUMMARY_KEYS = ("sections", "cards", "rules", "rulings", "notes", "warnings")


def load_kb() -> store.KnowledgeBase:
    try:
        return store.load(paths.kb_path())
    except store.KnowledgeBaseError as exc:
        fail(str(exc))


def _summary_table(title: str, per_document: dict[str, dict[str, int]]) -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column("document")
    for key in SUMMARY_KEYS:
        table.add_column(key, justify="right")
    totals = dict.fromkeys(SUMMARY_KEYS, 0)
    for doc_id, summary in per_document.items():
        table.add_row(doc_id, *(str(summary.get(k, 0)) for k in SUMMARY_KEYS))
        for key in SUMMARY_KEYS:
            totals[key] += summary.get(key, 0)
    table.add_section()
    table.add_row("[bold]total[/]", *(f"[bold]{totals[k]}[/]" for k in SUMMARY_KEYS))
    return table


@app.command()
def ingest(
    paths_: list[Path] = typer.Argument(  # noqa: B008
        None, metavar="[PATHS]...", help="Documents to add (text, Markdown or HTML). Default: all bundled sources."
    ),
    dry_run: bool = typer.Option(False, "--dry-run", help="Parse and report; store nothing."),
    as_json: bool = JSON_OPTION,
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    """Parse source documents into the knowledge base (build/kb.json), atomically."""
    from kb import build as kb_build  # the parser's imports (bs4, pymorphy3) only when ingesting

    try:
        sources = [kb_build.Source(p, kb_build.label_for(p)) for p in paths_] if paths_ else kb_build.bundled_sources()
        with Progress(
            TextColumn("[progress.description]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            console=err_console,
            transient=True,
            disable=quiet or as_json,
        ) as progress:
            task = progress.add_task("Разбор документов", total=len(sources))

            def advance(source: kb_build.Source, _doc: ParsedDocument) -> None:
                progress.update(task, advance=1, description=f"Разбор: {source.path.name}")

            parsed = kb_build.parse_sources(sources, on_document=advance)
    except IngestError as exc:
        fail(str(exc))

    per_document = {doc.document.id: doc.summary() for doc in parsed}
    warnings = [str(w) for doc in parsed for w in doc.warnings]
    if not dry_run:
        existing = None
        if paths_ and paths.kb_path().exists():
            existing = load_kb()
        kb = kb_build.merge(existing, parsed) if paths_ else kb_build.build(parsed)
        store.save(kb, paths.kb_path())
        # MTGJSON sets share cards: report what each owns once merged (a reprint counts in its first set)
        per_document.update({k: kb.summaries[k] for k in per_document if k in kb.summaries})
    if as_json:
        totals = {key: sum(s[key] for s in per_document.values()) for key in SUMMARY_KEYS}
        print_json(
            {
                "documents": len(parsed),
                **totals,
                "per_document": per_document,
                "warnings_detail": warnings,
                "stored": None if dry_run else str(paths.kb_path()),
            }
        )
        return
    console.print(_summary_table("Документы" + (" (--dry-run: ничего не сохранено)" if dry_run else ""), per_document))
    for warning in warnings:
        err_console.print(f"[yellow]warning:[/] {warning}", highlight=False)
    if not dry_run:
        console.print(f"База знаний записана: {paths.kb_path()}", highlight=False)


@app.command()
def stats(as_json: bool = JSON_OPTION) -> None:
    """Counts of documents, sections, cards, rules, rulings and notes, per document."""
    kb = load_kb()
    figures = kb.stats()
    if as_json:
        print_json(figures)
        return
    console.print(_summary_table(f"База знаний: {figures['documents']} документов", figures["per_document"]))


def _resolve(kb: store.KnowledgeBase, key: str) -> list[Entry]:
    """An entry ID, or a rule number (``702.36a``: every excerpt with that number), or a card name."""
    if (entry := kb.get(key)) is not None:
        return [entry]
    rules: list[Entry] = [r for r in kb.rules if r.number == key.rstrip(".")]
    if rules:
        return rules
    from kb.card_lookup import find_cards  # English or Russian name, any case form, or a typo

    return list(find_cards(kb, key))


STATUS_LABELS = {
    "verified": "[green]доказано сценарием[/]",
    "failing": "[red]сценарий не проходит[/]",
    "unlinked": "[yellow]не связано со сценарием[/]",
    "not_simulable": "[blue]не моделируется[/]",
}


def _verification(kb: store.KnowledgeBase, entry_id: str) -> dict[str, Any]:
    """Status and scenarios of a ruling; a broken scenario file is reported, not fatal, for ``show``."""
    from kb import verify  # loads the rules engine only when a ruling is shown

    try:
        return verify.verdict_for(kb, entry_id).to_dict()
    except (verify.VerifyError, verify.EngineError) as exc:
        return {"id": entry_id, "status": "error", "error": str(exc)}


def _context(kb: store.KnowledgeBase, entry: Entry) -> dict[str, Any]:
    document = kb.get(entry.document_id)
    section = kb.get(getattr(entry, "section_id", "")) if hasattr(entry, "section_id") else None
    context: dict[str, Any] = {
        "document": {"id": document.id, "title": document.title} if isinstance(document, Document) else None,
        "section": {"id": section.id, "heading": section.heading} if isinstance(section, Section) else None,
    }
    aligned_id = getattr(entry, "aligned", None)
    if aligned_id and (aligned := kb.get(aligned_id)) is not None:
        context["aligned"] = aligned.to_dict()
    cited = getattr(entry, "rules_cited", ())
    context["rules_cited"] = [
        {"number": number, "entries": [r.id for r in kb.rules if r.number == number]} for number in cited
    ]
    if isinstance(entry, Ruling | Rule):
        context["verification"] = _verification(kb, entry.id)
    if isinstance(entry, Ruling) and entry.same_as:  # the same ruling in the other source (document ↔ official)
        context["same_ruling"] = [e.to_dict() for sid in entry.same_as if (e := kb.get(sid)) is not None]
    if isinstance(entry, Ruling):
        context["cards"] = [kb.get(cid).to_dict() for cid in entry.card_ids if kb.get(cid) is not None]  # type: ignore[union-attr]
    if isinstance(entry, Card):
        from kb.card_view import card_context

        context.update(card_context(kb, entry))
    if isinstance(entry, Section):
        context["entries"] = [e.id for e in kb.entries if getattr(e, "section_id", None) == entry.id]
    return context


@app.command()
def show(
    entry_id: str = typer.Argument(..., metavar="ID", help="Entry ID (shm/persist/3), rule number or card name."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Print an entry with its context: document, section, cards, cited rules, translation."""
    kb = load_kb()
    found = _resolve(kb, entry_id)
    if not found:
        close = difflib.get_close_matches(entry_id, list(kb.by_id), n=3, cutoff=0.6)
        hint = f"; did you mean {', '.join(close)}?" if close else "; try `kb search`"
        fail(f"no entry {entry_id!r}{hint}")
    if as_json:
        payload = [{"entry": e.to_dict(), "context": _context(kb, e)} for e in found]
        print_json(payload[0] if len(payload) == 1 else payload)
        return
    for entry in found:
        _print_entry(entry, _context(kb, entry))


def _print_entry(entry: Entry, context: dict[str, Any]) -> None:
    console.rule(f"[bold]{entry.id}[/]  ({entry.entry_type})")
    if context.get("document"):
        console.print(f"Документ: {context['document']['title']} [dim]({context['document']['id']})[/]")
    if context.get("section"):
        console.print(f"Раздел: {context['section']['heading']} [dim]({context['section']['id']})[/]")
    console.print(f"Источник: {entry.source}", style="dim", highlight=False)
    console.print()
    if isinstance(entry, Ruling):
        label = "Разъяснение" if entry.kind == "ruling" else "Пояснение"
        if entry.subheading:
            console.print(f"[italic]{entry.subheading}[/]")
        console.print(f"[bold]{label}[/] ({entry.lang}):", highlight=False)
        console.print(entry.text, highlight=False, markup=False)
        if entry.cards:
            console.print(f"\nКарты: {', '.join(entry.cards)}", highlight=False)
        if entry.english_names:
            console.print("Названия: " + ", ".join(f"{n.ru} = {n.en}" for n in entry.english_names), highlight=False)
    elif isinstance(entry, Rule):
        console.print(f"[bold]{entry.number}[/] {entry.text}", highlight=False)
    elif isinstance(entry, Card) and entry.printings:
        from kb.card_view import print_card

        print_card(console, entry, context, STATUS_LABELS)
    elif isinstance(entry, Card):
        console.print(f"[bold]{entry.name}[/] {entry.mana_cost or ''}  [dim]{entry.name_en or ''}[/]", highlight=False)
        console.print(entry.type_line, highlight=False)
        for line in entry.rules_text:
            console.print(line, highlight=False, markup=False)
        for reminder in entry.reminder_text:
            console.print(f"({reminder})", style="italic", highlight=False, markup=False)
        if entry.power is not None:
            console.print(f"{entry.power}/{entry.toughness}")
        if context.get("rulings"):
            console.print(f"\nРазъяснения о карте: {', '.join(context['rulings'])}", highlight=False)
    elif isinstance(entry, Section):
        console.print(f"[bold]{entry.heading}[/] — {entry.kind}; {entry.mechanic_ru or ''} / {entry.mechanic_en or ''}")
        console.print(f"Записи: {', '.join(context.get('entries', []))}", highlight=False)
    elif isinstance(entry, Document):
        console.print(f"[bold]{entry.title}[/] {entry.set_code} {entry.kind} {entry.date or ''} {entry.languages}")
    if verification := context.get("verification"):
        status = verification["status"]
        label = STATUS_LABELS.get(status, f"[red]{verification.get('error', status)}[/]")
        console.print(f"\nПроверка: {label}", highlight=False)
        if verification.get("reason"):
            console.print(f"  причина: {verification['reason']} — {verification.get('why', '')}", highlight=False)
        for result in verification.get("results", []):
            mark = "PASS" if result["passed"] else "FAIL"
            console.print(f"  {mark} {result['scenario']} — {result['title']}", highlight=False, markup=False)
        if verification.get("results"):
            console.print(f"  подробности: kb verify {entry.id}", style="dim", highlight=False)
    for cited in context.get("rules_cited", []):
        console.print(f"Правило {cited['number']}: {', '.join(cited['entries']) or 'нет в базе'}", highlight=False)
    if aligned := context.get("aligned"):
        console.print(f"\n[bold]Перевод[/] ({aligned['id']}):", highlight=False)
        console.print(aligned.get("text") or aligned.get("heading", ""), highlight=False, markup=False)
    for same in context.get("same_ruling", []):
        dated = f", {same['date']}" if same.get("date") else ""
        console.print(f"\n[bold]То же разъяснение[/] ({same['id']}{dated}):", highlight=False)
        console.print(same.get("text", ""), highlight=False, markup=False)
