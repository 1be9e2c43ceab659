"""The shared typer application and the conventions every ``kb`` command follows.

- ``--json`` prints one JSON document on stdout and nothing else there;
- errors are one line on stderr, naming the file (and line) where that applies, with exit code 1;
- progress and tables go to stderr/stdout through rich, never mixed into JSON output.
"""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import typer
from rich.console import Console

app = typer.Typer(
    name="kb",
    help="База разъяснений Magic: The Gathering — ingest, search, verify and export official rulings.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

console = Console()
err_console = Console(stderr=True)

JSON_OPTION = typer.Option(False, "--json", help="Print one JSON document instead of the table.")


def print_json(payload: Any) -> None:
    sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2, sort_keys=False) + "\n")


def fail(message: str, code: int = 1) -> NoReturn:
    """Print a one-line error and exit non-zero."""
    err_console.print(f"[bold red]error:[/] {message}", highlight=False, markup=True, soft_wrap=True)
    raise typer.Exit(code)
