"""``kb search`` and ``kb index``: full-text search over the knowledge base and its index lifecycle.

Heavy imports (whoosh, pymorphy3, the knowledge base) happen inside the commands, so ``kb --help`` and
every other command stay fast; ``kb search`` opens the existing index without rebuilding it when
nothing changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from kb.cli_app import JSON_OPTION, app, console, err_console, fail, print_json
from kb.i18n import entry_type_label, status_label, t

if TYPE_CHECKING:
    from kb.search.service import Result, SearchResponse


@app.command(help="cmd.search")
def search(
    query: str = typer.Argument(..., help="arg.search.query"),
    set_: str = typer.Option(None, "--set", help="opt.search.set"),
    card: str = typer.Option(None, "--card", help="opt.search.card"),
    mechanic: str = typer.Option(None, "--mechanic", help="opt.search.mechanic"),
    kind: str = typer.Option(None, "--kind", metavar="ruling|note|rule|card", help="opt.search.kind"),
    lang: str = typer.Option(None, "--lang", metavar="ru|en", help="opt.search.lang"),
    limit: int = typer.Option(10, "--limit", "-n", min=1, max=500, help="opt.search.limit"),
    current: bool = typer.Option(False, "--current", help="opt.search.current"),
    as_json: bool = JSON_OPTION,
) -> None:
    """Search rulings, notes, rules and cards (Russian morphology, RU↔EN glossary, typo tolerance)."""
    from kb.search.index import IndexError_
    from kb.search.service import SearchError, SearchRequest, open_session

    _refresh_sources(quiet=as_json)
    try:
        session = open_session()
    except IndexError_ as exc:
        fail(str(exc))
    try:
        request = SearchRequest(query, set_, card, mechanic, kind, lang, limit, current)
        response = session.search(request)
    except SearchError as exc:
        fail(str(exc))
    finally:
        session.close()
    if as_json:
        print_json(response.to_json())
        return
    if session.state.built:
        built = t("search.index_built", count=session.state.doc_count, seconds=session.state.seconds)
        err_console.print(built, style="dim", highlight=False, markup=False)
    _print_results(response)


def _print_results(response: SearchResponse) -> None:
    from rich.text import Text

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


@app.command(help="cmd.index")
def index(
    rebuild: bool = typer.Option(False, "--rebuild", help="opt.index.rebuild"),
    backend: str = typer.Option(None, "--backend", metavar="whoosh|tantivy", help="opt.index.backend"),
    as_json: bool = JSON_OPTION,
) -> None:
    """Build the search index if it is missing or stale (``--rebuild`` forces it) and report on it."""
    from kb.search.index import IndexError_, ensure_index, index_size

    _refresh_sources(quiet=as_json)
    try:
        state = ensure_index(rebuild=rebuild, backend=backend)
    except IndexError_ as exc:
        fail(str(exc))
    from kb.search.service import SearchSession

    session = SearchSession(state)  # warms the verdicts search marks its results with (build/verdicts.json)
    try:
        session.verdicts()
    finally:
        session.close()
    size = index_size(state.directory)
    payload: dict[str, Any] = {
        "directory": str(state.directory),
        "fingerprint": state.fingerprint,
        "built": state.built,
        "seconds": round(state.seconds, 3),
        "entries": state.doc_count,
        "bytes": size,
        "engine": state.meta.get("engine"),
        "analyzer": state.meta.get("analyzer"),
    }
    if as_json:
        print_json(payload)
        return
    key = "index.built" if state.built else "index.current"
    console.print(t(key, seconds=state.seconds, count=state.doc_count, kib=size / 1024), highlight=False)
    console.print(str(state.directory), style="dim", highlight=False, markup=False, soft_wrap=True)


def _refresh_sources(quiet: bool) -> None:
    """Re-ingest edited bundled sources first, so the index is never built from a stale knowledge base."""
    from ingest.errors import IngestError
    from kb.cli_app import stored_kb_path
    from kb.freshness import refresh_if_stale

    stored_kb_path()  # a one-line error when there is none (an earlier kb.json is migrated first)

    try:
        refreshed = refresh_if_stale()
    except IngestError as exc:
        fail(t("err.sources_stale", error=exc))
    if refreshed and not quiet:
        err_console.print(t("search.reingested", ids=", ".join(refreshed)), style="dim", highlight=False, markup=False)
