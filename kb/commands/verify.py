"""``kb verify`` and ``kb coverage``: prove rulings by playing their scenarios in the rules engine."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.table import Table

from kb import paths, store
from kb.cli_app import JSON_OPTION, app, console, fail, print_json

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

    mark = "[green]PASS[/]" if result.passed else "[red]FAIL[/]"
    console.print(
        f"  {mark} {result.scenario.id} — {result.scenario.title} ({result.scenario.path})",
        highlight=False,
        soft_wrap=True,
    )
    if show_log or not result.passed:
        cards = narr.describe_cards(kv.proof_cards(result.scenario, db))
        if cards:
            console.print("    Карты этого доказательства:", highlight=False)
            for line in cards:
                console.print(f"      {line}", highlight=False, markup=False, soft_wrap=True)
        console.print("    Журнал партии:", highlight=False)
        for line in result.log:
            console.print(f"      {line}", highlight=False, markup=False, soft_wrap=True)
    if result.checked:
        console.print("    Проверено (ожидалось / на деле):", highlight=False)
    for check in result.checked:
        sign = "[green]✓[/]" if check.passed else "[red]✗[/]"
        console.print(
            f"      {sign} {_esc(check.description)}: ожидалось {_esc(check.expected)}, на деле {_esc(check.actual)}",
            highlight=False,
            soft_wrap=True,
        )
    shown = {c.failure for c in result.checked}
    for failure in result.failures:
        if failure not in shown:
            console.print(f"    [red]ошибка:[/] {_esc(failure)}", highlight=False, soft_wrap=True)


def _esc(text: str) -> str:
    from rich.markup import escape

    return escape(text)


@app.command()
def verify(
    ids: list[str] = typer.Argument(None, metavar="[ID]...", help="Ruling IDs to verify."),  # noqa: B008
    all_: bool = typer.Option(False, "--all", help="Verify every ruling that has scenarios."),
    scenario: list[Path] = typer.Option(  # noqa: B008
        None,
        "--scenario",
        help="Run scenario files from anywhere (not linked to any ruling); more paths may follow it.",
    ),
    as_json: bool = JSON_OPTION,
    log: bool = typer.Option(True, "--log/--no-log", help="Print the game log of passing scenarios too."),
) -> None:
    """Play the scenarios linked to rulings and print PASS / FAIL with the game log (exit 1 on any failure)."""
    from kb import verify as kv
    from rules_engine.errors import EngineError
    from rules_engine.scenario import load_scenario

    data_dir = paths.data_dir()
    try:
        db = kv.card_db(data_dir)
        if scenario:
            # ``--scenario a.yaml b.yaml`` (a shell glob): the paths after the first arrive as positional arguments
            paths_given = [*scenario, *(Path(i) for i in ids or [])]
            missing = [str(p) for p in paths_given if not p.is_file()]
            if missing:
                fail(f"no such scenario file: {', '.join(missing)}")
            results = kv.run_all([load_scenario(p, db) for p in paths_given], db)
            ok = all(r.passed for r in results.values())
            if as_json:
                print_json({"passed": ok, "results": [kv.result_dict(r, True, db) for r in results.values()]})
            else:
                for r in results.values():
                    _print_result(r, log, db)
            raise typer.Exit(0 if ok else 1)
        kb = _kb_or_none()
        known = set(kb.by_id) if kb is not None else None
        scenarios = kv.collect_scenarios(data_dir, db, known)
        ns = kv.load_not_simulable(data_dir, known)
    except (EngineError, kv.VerifyError) as exc:
        fail(str(exc))
    if all_:
        wanted = sorted({r for s in scenarios for r in s.rulings} | set(ids or []))
    elif ids:
        wanted = list(ids)
    else:
        fail("give ruling IDs, --all or --scenario PATH")
    if known is not None:
        unknown = [i for i in wanted if i not in known]
        if unknown:
            fail(f"unknown ruling id(s): {', '.join(unknown)}")
    found = kv.verdicts(wanted, scenarios, db, ns)
    ok = all(v.status in ("verified", "not_simulable") for v in found.values())
    if as_json:
        print_json({"passed": ok, "verdicts": {k: v.to_dict(with_log=True, db=db) for k, v in found.items()}})
        raise typer.Exit(0 if ok else 1)
    for ruling_id, verdict in found.items():
        style = STATUS_STYLE[verdict.status]
        line = f"[bold {style}]{verdict.status.upper()}[/] {ruling_id}"
        if verdict.reason:
            line += f" — {verdict.reason}: {verdict.why}"
        console.print(line, highlight=False)
        for result in verdict.results:
            _print_result(result, log, db)
    _print_summary(found)
    raise typer.Exit(0 if ok else 1)


def _print_summary(found: dict[str, kv.Verdict]) -> None:
    from kb.verify import STATUSES

    """One closing line: how many rulings ended in each status, how many scenario runs passed."""
    counts = {status: sum(v.status == status for v in found.values()) for status in STATUSES}
    runs = {r.scenario.id: r.passed for v in found.values() for r in v.results}
    parts = ", ".join(f"{counts[s]} {s}" for s in STATUSES if counts[s])
    console.print(
        f"\n[bold]{len(found)} entries checked:[/] {parts}; scenarios passing {sum(runs.values())} of {len(runs)}",
        highlight=False,
    )


@app.command()
def coverage(as_json: bool = JSON_OPTION) -> None:
    """How many rulings per document are verified, failing, not linked to a scenario, or not simulable."""
    from kb import verify as kv
    from rules_engine.errors import EngineError

    try:
        kb = store.load(paths.kb_path())
        report = kv.coverage(kb)
    except store.KnowledgeBaseError as exc:
        fail(str(exc))
    except (EngineError, kv.VerifyError) as exc:
        fail(str(exc))
    if as_json:
        print_json(report)
        return
    table = Table(title="Покрытие разъяснений сценариями", title_justify="left")
    columns = ("rulings", *kv.STATUSES)
    table.add_column("document")
    for col in columns:
        table.add_column(col, justify="right")
    rows: list[tuple[str, dict[str, Any]]] = list(report["documents"].items())
    for doc_id, counts in rows:
        table.add_row(doc_id, *(str(counts[c]) for c in columns))
    table.add_section()
    table.add_row("[bold]total[/]", *(f"[bold]{report['total'][c]}[/]" for c in columns))
    table.add_row("notes", *(str(report["notes"][c]) for c in columns))
    table.add_row("rules", *(str(report["rules"][c]) for c in columns))
    console.print(table)
