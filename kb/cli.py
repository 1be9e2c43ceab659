"""Entry point of the ``kb`` command: imports every command module so each registers on the app."""

from __future__ import annotations

from kb.cli_app import app
from kb.commands import export as _export  # noqa: F401  (registers export site / json)
from kb.commands import ingest as _ingest  # noqa: F401  (registers ingest, stats, show)
from kb.commands import search as _search  # noqa: F401  (registers search, index)
from kb.commands import verify as _verify  # noqa: F401  (registers verify, coverage)

__all__ = ["app"]
