"""What ``kb search`` does, without typer: the console script calls ``run`` directly (``kb.cli``).

``kb search`` is the command a judge runs most, and its cold start counts (issue 13: < 0.3 s): typer and
rich cost about a tenth of a second to import. Here ``--json`` imports neither, the text output imports
only rich, and an error goes through ``kb.cli_app.fail`` (typer is imported then, when speed no longer
matters). ``kb.commands.search`` registers the same function on the typer app.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any, NoReturn

from kb.i18n import entry_type_label, status_label, t

if TYPE_CHECKING:
    from kb.search.service import Result, SearchResponse


def run(
    query: str,
    set_: str | None = None,
    card: str | None = None,
    mechanic: str | None = None,
    kind: str | None = None,
    lang: str | None = None,
    limit: int = 10,
    current: bool = False,
    as_json: bool = False,
) -> None:
    from kb.search.index import IndexError_
    from kb.search.service import SearchError, SearchRequest, open_session

    refresh_sources(quiet=as_json, as_json=as_json)
    try:
        session = open_session()
    except IndexError_ as exc:
        _fail(str(exc), as_json)
    try:
        request = SearchRequest(query, set_, card, mechanic, kind, lang, limit, current)
        response = session.search(request)
    except SearchError as exc:
        _fail(str(exc), as_json)
    finally:
        session.close()
    if as_json:
        sys.stdout.write(json.dumps(response.to_json(), ensure_ascii=False, indent=2) + "\n")
        return
    if session.state.built:
        built = t("search.index_built", count=session.state.doc_count, seconds=session.state.seconds)
        _err_console().print(built, style="dim", highlight=False, markup=False)
    _print_results(response)


def _fail(message: str, as_json: bool) -> NoReturn:
    from kb import cli_app

    cli_app._Run.json = cli_app._Run.json or as_json
    cli_app.fail(message)


def refresh_sources(quiet: bool, as_json: bool = False) -> None:
    """Re-ingest edited bundled sources first, so the index is never built from a stale knowledge base."""
    from ingest.errors import IngestError
    from kb import paths
    from kb.freshness import refresh_if_stale

    if not paths.kb_path().exists():  # none yet, or an earlier kb.json to migrate: the full check says which
        from kb import cli_app

        cli_app._Run.json = cli_app._Run.json or as_json
        cli_app.stored_kb_path()  # a one-line error when there is none (an earlier kb.json is migrated first)
    try:
        refreshed = refresh_if_stale()
    except IngestError as exc:
        _fail(t("err.sources_stale", error=exc), as_json)
    if refreshed and not quiet:
        _err_console().print(t("search.reingested", ids=", ".join(refreshed)), style="dim", highlight=False,
                             markup=False)


def _err_console() -> Any:
    from kb import plain

    return plain.console(stderr=True)


Part = tuple[str, str]  # text, rich style


def _lines(response: SearchResponse) -> list[tuple[str, Any]]:
    """What ``kb search`` prints, before any console: ``("line", parts)``, ``("blank", None)`` or
    ``("snippet", result)`` (the snippet indented by four, its matched words highlighted)."""
    out: list[tuple[str, Any]] = []
    if response.searched:
        from kb.search.query import MAX_QUERY_CHARS

        used, length = len(response.searched), len(response.query)
        out.append(("line", [(t("search.query_cut", limit=MAX_QUERY_CHARS, used=used, length=length), "yellow")]))
    for correction in response.corrections:
        out.append(("line", [(t("search.instead", suggestion=correction.suggestion, word=correction.word), "dim")]))
    query = response.searched or response.query
    if not response.answered:
        out.append(("line", [(t("search.nothing_relevant", query=query, weak=response.weak), "")]))
        out.append(("line", [(t("search.nothing_relevant_hint"), "dim")]))
        return out
    if not response.results:
        out.append(("line", [(t("search.nothing", query=query), "")]))
        out.append(("line", [(t("search.nothing_hint"), "dim")]))
        return out
    found = "search.found" if response.total_exact else "search.found_at_least"  # a large index: a lower bound
    out.append(("line", [(t(found, total=response.total, query=query, shown=len(response.results)), "bold")]))
    for number, result in enumerate(response.results, start=1):
        out += [("blank", None), ("line", _header(number, result)), ("snippet", result)]
    out += [("blank", None), ("line", [(t("search.full_entry", id=response.results[0].id), "dim")])]
    return out


def _print_results(response: SearchResponse, console: Any = None) -> None:
    """Through rich in a terminal; where rich would print no colour (a pipe, a file), the same characters
    without importing rich's console (``kb.plain``): a tenth of ``kb search``'s cold start."""
    from kb import plain

    console = console or plain.console()
    if isinstance(console, plain.PlainConsole):
        _print_plain(_lines(response), console)
    else:
        _print_rich(_lines(response), console)


def _print_plain(lines: list[tuple[str, Any]], console: Any) -> None:
    from kb import plain

    for kind, value in lines:
        if kind == "blank":
            console.print()
        elif kind == "line":
            console.print("".join(text for text, _ in value), markup=False, emoji=False)
        else:  # rich's Padding(text, (0, 0, 0, 4)): wrapped four columns narrower, each line padded to the width
            from rich.cells import cell_len

            size = plain.width() - SNIPPET_INDENT
            text = value.snippet.translate(plain.CONTROL)
            text = text.expandtabs(8) if "\t" in text else text
            console.file.write("".join(
                " " * SNIPPET_INDENT + line + " " * (size - cell_len(line)) + "\n" for line in plain.wrapped(text, size)
            ))


def _print_rich(lines: list[tuple[str, Any]], console: Any) -> None:
    from rich.padding import Padding
    from rich.text import Text

    for kind, value in lines:
        if kind == "blank":
            console.print()
        elif kind == "line":
            console.print(Text.assemble(*value))
        else:
            text = Text(value.snippet)
            for start, end in value.snippet_highlights:
                text.stylize("bold yellow", start, end)
            console.print(Padding(text, (0, 0, 0, SNIPPET_INDENT)))


SNIPPET_INDENT = 4


def _header(number: int, result: Result) -> list[Part]:
    where = " · ".join(part for part in (result.set, result.section) if part)
    status = str(result.extra.get("verdict", ""))
    currency = str(result.extra.get("currency", ""))
    marks: list[Part] = []
    if status == "verified":
        label = str(result.extra.get("currency_label", ""))
        style = {"obsolete": "bold red", "terms": "yellow", "current": "green"}.get(currency, "dim")
        marks = [("  " + status_label(status), "green"), (f" · {label}" if label else "", style)]
    elif status:
        marks = [("  " + status_label(status), "dim")]
    return [
        (f"{number:>2}. ", "bold"),
        (result.id, "bold cyan"),
        (f"  [{entry_type_label(result.kind)}, {result.lang}]  ", "dim"),
        (where, "green"),
        *marks,
        ("  " + t("search.score", score=result.score), "dim"),
    ]
