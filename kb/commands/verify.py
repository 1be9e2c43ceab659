"""``kb verify`` and ``kb coverage``: prove rulings by playing their scenarios in the rules engine."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.markup import escape
from rich.table import Table

from kb import paths, store
from kb.cli_app import JSON_OPTION, app, console, fail, load_kb, print_json, warn
from kb.i18n import reason_label, status_label, t

if TYPE_CHECKING:  # the rules engine is imported only by the commands that run it
    from kb import verify as kv
    from rules_engine.scenario import ScenarioResult

STATUS_STYLE = {"verified": "green", "failing": "red", "unlinked": "yellow", "not_simulable": "cyan"}


def _kb_or_none() -> store.KnowledgeBase | None:
    try:
        return store.load(paths.kb_path())
    except store.KnowledgeBaseError:
        return None


def _print_result(result: ScenarioResult, show_log: bool, db: Any = None) -> None:
    """One scenario's proof: the cards it plays and the game log (always on FAIL), then every check made."""
    from kb import verify as kv
    from rules_engine import log as narr

    mark = f"[green]{t('verify.passed')}[/]" if result.passed else f"[red]{t('verify.failed')}[/]"
    console.print(
        f"  {mark} {result.scenario.id} — {result.scenario.title} ({result.scenario.path})",
        highlight=False,
        soft_wrap=True,
    )
    if show_log or not result.passed:
        cards = narr.describe_cards(kv.proof_cards(result.scenario, db))
        if cards:
            console.print(f"    {t('verify.cards')}", highlight=False)
            for line in cards:
                console.print(f"      {line}", highlight=False, markup=False, soft_wrap=True)
        console.print(f"    {t('verify.log')}", highlight=False)
        for line in result.log:
            console.print(f"      {line}", highlight=False, markup=False, soft_wrap=True)
    if result.checked:
        console.print(f"    {t('verify.checked')}", highlight=False)
    for check in result.checked:
        sign = "[green]✓[/]" if check.passed else "[red]✗[/]"
        console.print(
            "      " + sign + " " + escape(t("verify.check", what=check.description, expected=check.expected,
                                           actual=check.actual)),
            highlight=False,
            soft_wrap=True,
        )
    shown = {c.failure for c in result.checked}
    for failure in result.failures:
        if failure not in shown:
            console.print(f"    [red]{t('verify.error')}[/] {escape(failure)}", highlight=False, soft_wrap=True)



def _warn_unresolved(scenarios: list[Any]) -> None:
    """An official ruling a scenario names but the knowledge base lacks (another MTGJSON version) is said, once."""
    for where in dict.fromkeys(w.split(": ", 1)[0] for s in scenarios for w in s.unresolved):
        warn(t("warn.unresolved_official", where=where))

@app.command(help="cmd.verify")
def verify(
    ids: list[str] = typer.Argument(None, metavar="[ID]...", help="arg.verify.ids"),  # noqa: B008
    all_: bool = typer.Option(False, "--all", help="opt.verify.all"),
    scenario: list[Path] = typer.Option(None, "--scenario", metavar="PATH", help="opt.verify.scenario"),  # noqa: B008
    as_json: bool = JSON_OPTION,
    log: bool = typer.Option(True, "--log/--no-log", help="opt.verify.log"),
    second_opinion: bool = typer.Option(False, "--second-opinion", help="opt.verify.second_opinion"),
) -> None:
    """Play the scenarios linked to rulings and print each verdict with the game log (exit 1 on any failure)."""
    from kb import second_opinion as so
    from kb import verify as kv
    from kb.eras import EraError
    from rules_engine.errors import EngineError
    from rules_engine.scenario import load_scenarios

    if second_opinion and not so.available():
        fail(t("err.no_oracle"), 2)
    data_dir = paths.data_dir()
    try:
        db = kv.card_db(data_dir)
        if scenario:
            # ``--scenario a.yaml b.yaml`` (a shell glob): the paths after the first arrive as positional arguments
            paths_given = [*scenario, *(Path(i) for i in ids or [])]
            missing = [str(p) for p in paths_given if not p.is_file()]
            if missing:
                fail(t("err.no_scenario_file", paths=", ".join(missing)), 2)
            kb = _kb_or_none()
            known_ids = kv.catalog(kb) if kb is not None else None
            context = kv.era_context(kb, data_dir) if kb is not None else None
            loaded = [s for p in paths_given for s in load_scenarios(p, db, known_ids)]
            _warn_unresolved(loaded)
            results = kv.run_all(loaded, db, context)
            ok = all(r.passed for r in results.values())
            opinions = _opinions(loaded, db) if second_opinion else None
            if as_json:
                out: dict[str, Any] = {"passed": ok, "results": [kv.result_dict(r, True, db) for r in results.values()]}
                if opinions is not None:
                    out["second_opinion"] = _opinions_dict(opinions)
                print_json(out)
            else:
                for r in results.values():
                    _print_result(r, log, db)
                if opinions is not None:
                    _print_opinions(opinions)
            raise typer.Exit(0 if ok else 1)
        kb = _kb_or_none()
        known = kv.catalog(kb) if kb is not None else None
        scenarios = kv.collect_scenarios(data_dir, db, known)
        _warn_unresolved(scenarios)
        ns = kv.load_not_simulable(data_dir, known)
        context = kv.era_context(kb, data_dir) if kb is not None else None
    except (EngineError, kv.VerifyError, EraError) as exc:
        fail(str(exc), 2)  # bad input is never a verdict
    if all_:
        wanted = sorted({r for s in scenarios for r in s.rulings} | set(ids or []))
    elif ids:
        wanted = list(ids)
    else:
        fail(t("err.verify_what"), 2)
    if known is not None:
        unknown = [i for i in wanted if i not in known]
        if unknown:
            fail(t("err.unknown_ids", ids=", ".join(unknown)), 2)
    found = kv.verdicts(wanted, scenarios, db, ns, context=context)
    ok = all(v.status in ("verified", "not_simulable") for v in found.values())
    opinions = None
    if second_opinion:
        played = set().union(*(v.scenarios for v in found.values())) if found else set()
        opinions = _opinions([s for s in scenarios if s.id in played], db)
    if as_json:
        out = {"passed": ok, "verdicts": {k: v.to_dict(with_log=True, db=db) for k, v in found.items()}}
        if opinions is not None:
            out["second_opinion"] = _opinions_dict(opinions)
        print_json(out)
        raise typer.Exit(0 if ok else 1)
    for ruling_id, verdict in found.items():
        style = STATUS_STYLE[verdict.status]
        line = f"[bold {style}]{status_label(verdict.status).upper()}[/] {ruling_id}"
        if verdict.reason:
            line += f" — {reason_label(verdict.reason)}: {escape(verdict.why or '')}"
        if verdict.era:
            line += " [dim]" + escape(t("verify.era", date=verdict.era)) + "[/]"
        if verdict.shared_from:
            line += " [dim]· " + escape(t("verify.shared", id=verdict.shared_from)) + "[/]"
        if verdict.currency is not None and verdict.status == "verified":
            line += " · " + escape(t("verify.today", label=verdict.currency.label_ru))
        console.print(line, highlight=False, soft_wrap=True)
        if verdict.currency is not None and verdict.currency.explanation_ru and verdict.status == "verified":
            console.print(f"  [dim]{escape(verdict.currency.explanation_ru)}[/]", highlight=False, soft_wrap=True)
        for result in verdict.results:
            _print_result(result, log, db)
    if opinions is not None:
        _print_opinions(opinions)
    _print_summary(found)  # the last line, after the second opinion's: scripts tail it
    raise typer.Exit(0 if ok else 1)


def _opinions(scenarios: list[Any], db: Any) -> list[Any]:
    """phase.rs's second opinion on each scenario (card data from the MTGJSON set files, cached in build/)."""
    from kb import second_opinion as so

    return so.compare_all(scenarios, db, so.printed_faces(so.mtgjson_dir(), paths.build_dir()))


def _fact_value(kind: str, value: str) -> str:
    """A fact's value as the reader's language says it (zones, players, yes/no, none)."""
    from kb.i18n import language

    if language() == "en":
        return value
    from rules_engine.glossary import PLAYER_NAMES, ZONE_WHERE

    if kind == "zone" and value in ZONE_WHERE:
        return ZONE_WHERE[value]
    words = {"true": "да", "false": "нет", "none": "нет", **PLAYER_NAMES}
    return words.get(value, value)


def _opinions_dict(opinions: list[Any]) -> dict[str, Any]:
    from kb import second_opinion as so

    return {"summary": so.summary(opinions), "scenarios": [o.to_dict() for o in opinions]}


def _print_opinions(opinions: list[Any]) -> None:
    """Per scenario: agrees / disagrees (each fact, ours and theirs) / not comparable (why); then one summary line."""
    from kb import second_opinion as so

    style = {"agrees": "green", "disagrees": "red", "not_comparable": "cyan"}
    console.print(f"\n[bold]{t('opinion.title')}[/]", highlight=False)
    for o in opinions:
        status = f"[{style[o.status]}]{t('opinion.' + o.status)}[/]"
        line = t("opinion.line", status="@@", scenario=o.scenario, compared=o.compared, ms=round(o.ms))
        console.print("  " + escape(line).replace("@@", status, 1), highlight=False, soft_wrap=True)
        if o.reason:
            why = f"{t('opinion.reason.' + o.reason)}: {o.why}"
            console.print("    " + escape(why), highlight=False, soft_wrap=True)
        for d in o.differences:
            kind, _, what = d.fact.partition(" ")
            fact = t("opinion.fact." + kind) + (f" {what}" if what else "")
            ours, theirs = _fact_value(kind, d.ours), _fact_value(kind, d.theirs)
            console.print("    " + escape(t("opinion.diff", fact=fact, ours=ours, theirs=theirs)),
                          highlight=False, soft_wrap=True)
    found = so.summary(opinions)
    reasons = "; ".join(f"{t('opinion.reason.' + r)} — {n}" for r, n in found["not_comparable_by_reason"].items())
    text = t("opinion.summary", reasons=f" ({reasons})" if reasons else "",
             **{k: v for k, v in found.items() if k != "not_comparable_by_reason"})
    console.print(f"[bold]{escape(text)}[/]", highlight=False, soft_wrap=True)


def _print_summary(found: dict[str, kv.Verdict]) -> None:
    from kb.verify import STATUSES

    """One closing line: how many rulings ended in each status, how many scenario runs passed."""
    counts = {status: sum(v.status == status for v in found.values()) for status in STATUSES}
    runs = {r.scenario.id: r.passed for v in found.values() for r in v.results}
    parts = ", ".join(t("verify.summary_part", label=status_label(s), count=counts[s]) for s in STATUSES if counts[s])
    summary = t("verify.summary", count=len(found), parts=parts, passed=sum(runs.values()), runs=len(runs))
    console.print(f"\n[bold]{summary}[/]", highlight=False, soft_wrap=True)  # one line: scripts tail it


@app.command(help="cmd.coverage")
def coverage(as_json: bool = JSON_OPTION) -> None:
    """How many rulings per document are verified, failing, not linked to a scenario, or not simulable."""
    from kb import verify as kv
    from kb.eras import EraError
    from rules_engine.errors import EngineError

    kb = load_kb()
    try:
        report = kv.coverage(kb)
    except (EngineError, kv.VerifyError, EraError) as exc:
        fail(str(exc))
    if as_json:
        print_json(report)
        return
    table = Table(title=t("coverage.title"), title_justify="left")
    columns = ("rulings", *kv.STATUSES)
    table.add_column(t("col.document"))
    for col in columns:
        header = t("col.rulings") if col == "rulings" else status_label(col, short=True)
        widest = max(map(len, header.split()))  # headers wrap at spaces, so the table fits 80 columns
        table.add_column(header, justify="right", min_width=widest, max_width=widest)
    rows: list[tuple[str, dict[str, Any]]] = list(report["documents"].items())
    for doc_id, counts in rows:
        table.add_row(doc_id, *(str(counts[c]) for c in columns))
    table.add_section()
    table.add_row(f"[bold]{t('col.total')}[/]", *(f"[bold]{report['total'][c]}[/]" for c in columns))
    table.add_row(t("col.notes"), *(str(report["notes"][c]) for c in columns))
    table.add_row(t("col.rules"), *(str(report["rules"][c]) for c in columns))
    console.print(table)
    _print_currency(report["currency"])
    both = report.get("second_opinion") or {}
    if both.get("available"):
        console.print(t("coverage.confirmed", confirmed=both["confirmed"], verified=both["verified"],
                        share=round(100 * both["share"])), highlight=False)
    else:
        console.print(t("coverage.no_second_opinion"), style="dim", highlight=False)


def _print_currency(currency: dict[str, Any]) -> None:
    """Whether the rulings still hold today: current, obsolete, old terms, not judged, per document."""
    from kb.eras import CURRENCY

    table = Table(title=t("coverage.currency_title"), title_justify="left")
    table.add_column(t("col.document"))
    for status in CURRENCY:
        header = t(f"currency.{status}")
        widest = max(map(len, header.split()))
        table.add_column(header, justify="right", min_width=widest, max_width=widest)
    for doc_id, counts in currency["documents"].items():
        table.add_row(doc_id, *(str(counts[c]) for c in CURRENCY))
    table.add_section()
    table.add_row(f"[bold]{t('col.total')}[/]", *(f"[bold]{currency['total'][c]}[/]" for c in CURRENCY))
    console.print(table)
