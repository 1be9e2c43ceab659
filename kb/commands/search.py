"""``kb search`` and ``kb index``: full-text search over the knowledge base and its index lifecycle.

Heavy imports (whoosh, pymorphy3, the knowledge base) happen inside the commands, so ``kb --help`` and
every other command stay fast; ``kb search`` opens the existing index without rebuilding it when
nothing changed.
"""

from __future__ import annotations

from typing import Any

import typer

from kb.cli_app import JSON_OPTION, app, console, fail, print_json
from kb.i18n import t


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
    from kb.commands.search_run import run

    run(query, set_, card, mechanic, kind, lang, limit, current, as_json)


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
    from kb.commands.search_run import refresh_sources

    refresh_sources(quiet)
