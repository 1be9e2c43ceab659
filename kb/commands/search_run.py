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


def _console() -> Any:
    from rich.console import Console

    return Console()


def _err_console() -> Any:
    from rich.console import Console

    return Console(stderr=True)


def _print_results(response: SearchResponse) -> None:
    from rich.text import Text

    console = _console()
    if response.searched:
        from kb.search.query import MAX_QUERY_CHARS

        used, length = len(response.searched), len(response.query)
        console.print(Text(t("search.query_cut", limit=MAX_QUERY_CHARS, used=used, length=length), style="yellow"))
    for correction in response.corrections:
        console.print(Text(t("search.instead", suggestion=correction.suggestion, word=correction.word), style="dim"))
    if not response.answered:
        console.print(Text(t("search.nothing_relevant", query=response.searched or response.query, weak=response.weak)))
        console.print(Text(t("search.nothing_relevant_hint"), style="dim"))
        return
    if not response.results:
        console.print(Text(t("search.nothing", query=response.searched or response.query)))
        console.print(Text(t("search.nothing_hint"), style="dim"))
        return
    shown = len(response.results)
    query = response.searched or response.query
    console.print(Text(t("search.found", total=response.total, query=query, shown=shown), style="bold"))
    for number, result in enumerate(response.results, start=1):
        console.print()
        console.print(_header(number, result))
        console.print(_highlighted(result))
    console.print()
    console.print(Text(t("search.full_entry", id=response.results[0].id), style="dim"))


def _header(number: int, result: Result) -> Any:
    from rich.text import Text


    where = " · ".join(part for part in (result.set, result.section) if part)
    status = str(result.extra.get("verdict", ""))
    currency = str(result.extra.get("currency", ""))
    marks: list[tuple[str, str]] = []
    if status == "verified":
        label = str(result.extra.get("currency_label", ""))
        style = {"obsolete": "bold red", "terms": "yellow", "current": "green"}.get(currency, "dim")
        marks = [("  " + status_label(status), "green"), (f" · {label}" if label else "", style)]
    elif status:
        marks = [("  " + status_label(status), "dim")]
    return Text.assemble(
        (f"{number:>2}. ", "bold"),
        (result.id, "bold cyan"),
        (f"  [{entry_type_label(result.kind)}, {result.lang}]  ", "dim"),
        (where, "green"),
        *marks,
        ("  " + t("search.score", score=result.score), "dim"),
    )


def _highlighted(result: Result) -> Any:
    """The snippet with the matched words, as written in the entry, in bold yellow."""
    from rich.padding import Padding
    from rich.text import Text


    text = Text(result.snippet)
    for start, end in result.snippet_highlights:
        text.stylize("bold yellow", start, end)
    return Padding(text, (0, 0, 0, 4))


