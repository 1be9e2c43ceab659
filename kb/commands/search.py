"""``kb search`` and ``kb index``: full-text search over the knowledge base and its index lifecycle.

Heavy imports (whoosh, pymorphy3, the knowledge base) happen inside the commands, so ``kb --help`` and
every other command stay fast; ``kb search`` opens the existing index without rebuilding it when
nothing changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from kb.cli_app import JSON_OPTION, app, console, err_console, fail, print_json

if TYPE_CHECKING:
    from kb.search.service import Result, SearchResponse


@app.command()
def search(
    query: str = typer.Argument(
        ...,
        help='Question or keywords, Russian or English. "phrase", AND, OR, NOT / -word, +word, prefix*.',
    ),
    set_: str = typer.Option(None, "--set", help="Only this set: code (LRW), id (lrw) or name."),
    card: str = typer.Option(None, "--card", help="Only entries about this card (Russian or English name)."),
    mechanic: str = typer.Option(None, "--mechanic", help="Only entries of this mechanic's sections."),
    kind: str = typer.Option(None, "--kind", help="ruling | note | rule | card"),
    lang: str = typer.Option(None, "--lang", help="ru | en"),
    limit: int = typer.Option(10, "--limit", "-n", min=1, max=500, help="How many results to show."),
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
        request = SearchRequest(query, set_, card, mechanic, kind, lang, limit)
        response = session.search(request)
    except SearchError as exc:
        fail(str(exc))
    finally:
        session.close()
    if as_json:
        print_json(response.to_json())
        return
    if session.state.built:
        err_console.print(f"[dim]index built: {session.state.doc_count} entries in {session.state.seconds:.2f} s[/]")
    _print_results(response)


def _print_results(response: SearchResponse) -> None:
    from rich.text import Text

    for correction in response.corrections:
        console.print(
            Text.assemble(("searched for ", "dim"), (correction.suggestion, "bold"),
                          (f" instead of «{correction.word}»", "dim"))
        )
    if not response.results:
        console.print(f"Nothing found for «{response.query}».")
        console.print("[dim]Try fewer words, another form, or the English/Russian term.[/]")
        return
    shown = len(response.results)
    console.print(Text(f"{response.total} found for «{response.query}», showing {shown}:", style="bold"))
    for number, result in enumerate(response.results, start=1):
        console.print()
        console.print(_header(number, result))
        console.print(_highlighted(result))
    console.print()
    console.print(Text(f"Full entry: kb show {response.results[0].id}", style="dim"))


def _header(number: int, result: Result) -> Any:
    from rich.text import Text

    where = " · ".join(part for part in (result.set, result.section) if part)
    return Text.assemble(
        (f"{number:>2}. ", "bold"),
        (result.id, "bold cyan"),
        (f"  [{result.kind}, {result.lang}]  ", "dim"),
        (where, "green"),
        (f"  score {result.score:.2f}", "dim"),
    )


def _highlighted(result: Result) -> Any:
    """The snippet with the matched words, as written in the entry, in bold yellow."""
    from rich.padding import Padding
    from rich.text import Text

    text = Text(result.snippet)
    for start, end in result.snippet_highlights:
        text.stylize("bold yellow", start, end)
    return Padding(text, (0, 0, 0, 4))


@app.command()
def index(
    rebuild: bool = typer.Option(False, "--rebuild", help="Rebuild even if nothing changed."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Build the search index if it is missing or stale (``--rebuild`` forces it) and report on it."""
    from kb.search.index import IndexError_, ensure_index, index_size

    _refresh_sources(quiet=as_json)
    try:
        state = ensure_index(rebuild=rebuild)
    except IndexError_ as exc:
        fail(str(exc))
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
    verb = f"built in {state.seconds:.2f} s" if state.built else "up to date"
    console.print(f"index {verb}: {state.doc_count} entries, {size / 1024:.0f} KiB")
    console.print(f"[dim]{state.directory}[/]")


def _refresh_sources(quiet: bool) -> None:
    """Re-ingest edited bundled sources first, so the index is never built from a stale knowledge base."""
    from ingest.errors import IngestError
    from kb.freshness import refresh_if_stale

    try:
        refreshed = refresh_if_stale()
    except IngestError as exc:
        fail(f"sources changed but cannot be re-ingested: {exc}")
    if refreshed and not quiet:
        err_console.print(f"[dim]sources changed: re-ingested {', '.join(refreshed)}[/]")
