"""``kb show`` and ``kb stats``: what is in the knowledge base, read by index, answered in a few milliseconds.

Kept apart from ``kb/commands/ingest.py`` (which registers them on the typer app) so that the console
script's fast path (``kb.cli``) runs them without importing typer, and, when stdout is not a terminal,
without rich's console either (``kb.plain``): at 100,000 entries the answer takes a few milliseconds, the
imports many times that. The entry model, the store and the messages are all they import up front.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ingest.entries import Card, Document, Entry, Rule, Ruling, Section
from kb import paths, plain, store
from kb.i18n import entry_type_label, reason_label, status_label, t

if TYPE_CHECKING:
    from rich.table import Table

SUMMARY_KEYS = ("sections", "cards", "rules", "rulings", "notes", "warnings")
SHORT_HEADERS = frozenset({"rulings", "notes"})


_escape = plain.escape  # ``rich.markup.escape`` without importing rich


def stored_kb_path() -> Path:
    """The knowledge base's path once it is known to exist (an earlier ``kb.json`` migrated), else an error."""
    path = paths.kb_path()
    try:
        if not store.exists(path):
            plain.fail(t("err.no_kb"), file=str(path))
    except store.KnowledgeBaseError as exc:
        plain.fail(str(exc))
    return path


def _table(title: str, plain_: bool) -> Any:
    """A table as rich draws it: ``kb.plain.PlainTable`` off a terminal (rich's tables cost ~0.6 ms a row)."""
    if plain_:
        return plain.PlainTable(title=title, title_justify="left")
    from rich.table import Table

    return Table(title=title, title_justify="left")


def summary_table(title: str, per_document: dict[str, dict[str, int]], plain_: bool = False) -> Table:
    """The per-document counts ``kb ingest`` and ``kb stats`` print."""
    table = _table(title, plain_)
    table.add_column(t("col.document"), no_wrap=True)  # an ID whole (what ``kb show`` takes): the counts wrap
    for key in SUMMARY_KEYS:  # short headers: the table fits 80 columns whole, not cut with "…"
        table.add_column(t(f"col.{key}.short" if key in SHORT_HEADERS else f"col.{key}"), justify="right")
    totals = dict.fromkeys(SUMMARY_KEYS, 0)
    for doc_id, summary in per_document.items():
        table.add_row(doc_id, *(str(summary.get(k, 0)) for k in SUMMARY_KEYS))
        for key in SUMMARY_KEYS:
            totals[key] += summary.get(key, 0)
    table.add_section()
    table.add_row(f"[bold]{t('col.total')}[/]", *(f"[bold]{totals[k]}[/]" for k in SUMMARY_KEYS))
    return table


def stats(as_json: bool = False) -> None:
    """Counts of documents, sections, cards, rules, rulings and notes, per document (the summary tables)."""
    plain.Run.json = as_json
    try:
        figures = store.stats(stored_kb_path())  # the summary tables, not the entries
    except store.KnowledgeBaseError as exc:
        plain.fail(str(exc))
    if as_json:
        plain.print_json(figures)
        return
    console = plain.console()
    flat = isinstance(console, plain.PlainConsole)
    console.print(summary_table(t("stats.title", count=figures["documents"]), figures["per_document"], flat))
    if any("aligned" in summary for summary in figures["per_document"].values()):
        console.print(_alignment_table(figures["per_document"], flat))
    if figures["comprehensive_rules"]:
        from kb import rules_view

        console.print(rules_view.rules_table(figures["comprehensive_rules"], flat))


ALIGNMENT_KEYS = ("aligned", "unaligned", "discrepancies")


def _alignment_table(per_document: dict[str, dict[str, int]], plain_: bool) -> Table:
    """Per twinned document: entries with their other-language twin, without one, with discrepancies."""
    table = _table(t("stats.alignment_title"), plain_)
    table.add_column(t("col.document"), no_wrap=True)
    for key in ALIGNMENT_KEYS:
        table.add_column(t(f"col.{key}"), justify="right")
    for doc_id, summary in per_document.items():
        if "aligned" in summary:
            table.add_row(doc_id, *(str(summary.get(k, 0)) for k in ALIGNMENT_KEYS))
    return table


def _resolve(kb: store.KnowledgeBase, key: str) -> list[Entry]:
    """An entry ID, or a rule number (``702.36a``: every excerpt with that number), or a card name."""
    if (entry := kb.get(key)) is not None:
        return [entry]
    rules: list[Entry] = [r for r in kb.rules if r.number == key.rstrip(".")]
    if rules:
        return rules
    from kb.card_lookup import find_cards  # English or Russian name, any case form, or a typo

    return list(find_cards(kb, key))


STATUS_STYLE = {"verified": "green", "failing": "red", "unlinked": "yellow", "not_simulable": "blue"}


CURRENCY_STYLE = {"current": "green", "obsolete": "red", "terms": "yellow", "unjudged": "dim"}


def _verification(kb: store.KnowledgeBase, entry_id: str) -> dict[str, Any]:
    """Status and scenarios of a ruling; a broken scenario file is reported, not fatal, for ``show``."""
    from kb import verdict_cache

    cached = verdict_cache.details(kb.fingerprint, entry_id)  # the verdicts table of build/kb.sqlite, when fresh
    if cached is not None:
        return cached
    from kb import verify  # loads the rules engine only when a ruling is shown and the cache is stale

    try:
        return verify.verdict_for(kb, entry_id).to_dict()
    except (verify.VerifyError, verify.EngineError, verify.eras.EraError) as exc:
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


def cr_numbers(versions: dict[str, store.RulesVersionRecord], key: str) -> set[str] | None:
    """``kb.rules_view.cited_numbers``, imported only for a key that may name a CR rule; the versions are read
    by index from then on (``kb.rules_stored``), not decoded whole."""
    from kb import rules_stored, rules_view

    rules_stored.attach(versions)

    return rules_view.cited_numbers(versions, key)


def show(entry_id: str, as_json: bool = False) -> None:
    """Print an entry with its context: document, section, cards, cited rules, translation."""
    plain.Run.json = as_json
    try:
        kb = store.for_show(stored_kb_path(), entry_id, cr_numbers)  # the entry and its context, by index
    except store.KnowledgeBaseError as exc:
        plain.fail(str(exc))
    from kb.db.lookup import CR_KEY_RE  # imported by ``for_show`` already

    if kb.rules_versions and CR_KEY_RE.match(entry_id.rstrip(".")):
        from kb import rules_view  # the rules' history: only for a key that may name a CR rule

        if rules_view.wants(kb, entry_id):
            rules_view.show(kb, entry_id, as_json)
            return
    found = _resolve(kb, entry_id)
    if not found:
        import difflib  # only for a key that names nothing

        close = difflib.get_close_matches(entry_id, list(kb.ids()), n=3, cutoff=0.6)
        hint = t("err.no_entry.close", close=", ".join(close)) if close else t("err.no_entry.search")
        plain.fail(t("err.no_entry", id=entry_id) + hint)
    if as_json:
        payload = [{"entry": e.to_dict(), "context": _context(kb, e)} for e in found]
        plain.print_json(payload[0] if len(payload) == 1 else payload)
        return
    for entry in found:
        _print_entry(entry, _context(kb, entry))


def _discrepancy(found: str) -> str:
    """``number: 10 ≠ 11`` in the interface language: the fact's kind is a stable code."""
    kind, _, values = found.partition(": ")
    return f"{t('disc.' + kind)}: {values}" if kind in ("number", "mana", "rule", "card") else found


def _twin_text(twin: dict[str, Any]) -> str:
    """The other language's text of an entry, as ``kb show`` prints it: a card whole, a rule with its number."""
    if twin.get("type") == "card":
        pt = f"{twin['power']}/{twin['toughness']}" if twin.get("power") is not None else ""
        lines = [f"{twin['name']} {twin.get('mana_cost') or ''}".strip(), twin.get("type_line", ""),
                 *twin.get("rules_text", ()), pt]
        return "\n".join(line for line in lines if line)
    if twin.get("type") == "rule":
        return f"{twin['number']} {twin['text']}"
    return str(twin.get("text") or twin.get("heading", ""))


def _print_entry(entry: Entry, context: dict[str, Any]) -> None:
    console = plain.console()
    kind = entry.kind if isinstance(entry, Ruling) else entry.entry_type
    console.rule(f"[bold]{entry.id}[/]  ({entry_type_label(kind)})")
    if context.get("document"):
        console.print(f"{t('show.document')}: {context['document']['title']} [dim]({context['document']['id']})[/]")
    if context.get("section"):
        console.print(f"{t('show.section')}: {context['section']['heading']} [dim]({context['section']['id']})[/]")
    console.print(f"{t('show.source')}: {entry.source}", style="dim", highlight=False)
    console.print()
    if isinstance(entry, Ruling):
        label = entry_type_label(entry.kind).capitalize()
        if entry.subheading:
            console.print(f"[italic]{entry.subheading}[/]")
        console.print(f"[bold]{label}[/] ({entry.lang}):", highlight=False)
        console.print(entry.text, highlight=False, markup=False)
        if entry.cards:
            console.print(f"\n{t('show.cards')}: {', '.join(entry.cards)}", highlight=False)
        if entry.english_names:
            names = ", ".join(f"{n.ru} = {n.en}" for n in entry.english_names)
            console.print(f"{t('show.names')}: {names}", highlight=False)
    elif isinstance(entry, Rule):
        console.print(f"[bold]{entry.number}[/] {entry.text}", highlight=False)
        if entry.cr_rule:
            today = entry.cr_today or "правила нет"
            console.print(f"По КП эпохи документа: {entry.cr_rule}; номер сегодня: {today}", highlight=False)
    elif isinstance(entry, Card) and entry.printings:
        from kb.card_view import print_card

        print_card(console, entry, context, {status: status_label(status) for status in STATUS_STYLE})
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
            console.print(f"\n{t('show.card_rulings')}: {', '.join(context['rulings'])}", highlight=False)
    elif isinstance(entry, Section):
        mechanic = f"{entry.mechanic_ru or ''} / {entry.mechanic_en or ''}"
        console.print(f"[bold]{entry.heading}[/] — {entry_type_label(entry.kind)}; {mechanic}")
        console.print(f"{t('show.entries')}: {', '.join(context.get('entries', []))}", highlight=False)
    elif isinstance(entry, Document):
        doc_kind = entry_type_label(entry.kind)
        console.print(f"[bold]{entry.title}[/] {entry.set_code} {doc_kind} {entry.date or ''} {entry.languages}")
    if verification := context.get("verification"):
        status = verification["status"]
        if status in STATUS_STYLE:
            label = f"[{STATUS_STYLE[status]}]{_escape(status_label(status))}[/]"
        else:
            label = f"[red]{_escape(str(verification.get('error', status)))}[/]"
        console.print(f"\n{t('show.check')}: {label}", highlight=False)
        if verification.get("era"):
            console.print("  " + _escape(t("verify.era", date=verification["era"])), style="dim", highlight=False)
        if verification.get("shared_from"):
            console.print("  " + _escape(t("verify.shared", id=verification["shared_from"])), style="dim",
                          highlight=False)
        if currency := verification.get("currency"):
            style = CURRENCY_STYLE.get(currency["status"], "")
            console.print(f"{t('show.today')}: [{style}]{_escape(currency['label_ru'])}[/]", highlight=False)
            if currency.get("explanation_ru"):
                console.print(f"  {_escape(currency['explanation_ru'])}", highlight=False)
            for change in currency.get("changes", []):
                if change.get("rules_now"):
                    console.print("  " + _escape(t("show.rules_now", rules=", ".join(change["rules_now"]))),
                                  highlight=False)
        if verification.get("reason"):
            reason = reason_label(verification["reason"])
            console.print(f"  {t('show.reason')}: {reason} — {verification.get('why', '')}", highlight=False)
        for result in verification.get("results", []):
            mark = t("verify.passed" if result["passed"] else "verify.failed")
            console.print(f"  {mark} {result['scenario']} — {result['title']}", highlight=False, markup=False)
        for result in verification.get("today_results", []):  # the other proof: the same play, today's rules
            mark = t("verify.passed" if result["passed"] else "verify.failed")
            console.print(f"  {t('show.today_run')}: {mark} {result['scenario']}", highlight=False, markup=False)
        if verification.get("results"):
            console.print("  " + t("show.details", id=entry.id), style="dim", highlight=False)
    for cited in context.get("rules_cited", []):
        found = ", ".join(cited["entries"]) or t("show.rule_missing")
        console.print(f"{t('show.rule', number=cited['number'])}: {found}", highlight=False)
    if aligned := context.get("aligned"):
        other = aligned.get("lang")
        label = t("show.original_en") if other == "en" else t("show.translation_ru") if other == "ru" else t(
            "show.translation")
        if aligned.get("document_id") == entry.document_id:
            label = t("show.translation")  # the other language inside one document (Shadowmoor's Conspire)
        console.print(f"\n[bold]{label}[/] ({aligned['id']}):", highlight=False)
        console.print(_twin_text(aligned), highlight=False, markup=False)
    if flagged := tuple(getattr(entry, "discrepancies", None) or ()):
        console.print(f"[bold yellow]{t('show.discrepancies')}[/]: {'; '.join(map(_discrepancy, flagged))}",
                      highlight=False)
    if why := getattr(entry, "unaligned", None):
        console.print(f"\n{t('show.unaligned')}: {t('align.' + why)}", style="dim", highlight=False)
    for same in context.get("same_ruling", []):
        dated = f", {same['date']}" if same.get("date") else ""
        console.print(f"\n[bold]То же разъяснение[/] ({same['id']}{dated}):", highlight=False)
        console.print(same.get("text", ""), highlight=False, markup=False)
