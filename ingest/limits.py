"""Input limits: what one document may be, so a bad file fails in a second instead of eating the machine.

A 50 MB one-line document once took 71 s and 2.2 GB to be refused by the structure parser; the largest
real document (a set's release notes) is well under 1 MB, its longest line (one ruling) a few thousand
characters. The limits are far above both and are checked before any parsing. Each can be moved by an
environment variable (a whole number; ``0`` turns the limit off).
"""

from __future__ import annotations

import os

MAX_DOCUMENT_BYTES = 20 * 1024 * 1024
"""Default largest document (20 MiB); ``KB_MAX_DOCUMENT_BYTES`` overrides it."""

MAX_LINE_CHARS = 20_000
"""Default longest line of a text or Markdown document, or paragraph of an HTML page; ``KB_MAX_LINE_CHARS``."""


def _setting(variable: str, default: int) -> int | None:
    """The limit in force: the variable when it is a whole number, else the default; 0 means no limit."""
    raw = os.environ.get(variable, "").strip()
    value = int(raw) if raw.isdigit() else default
    return value or None


def max_document_bytes() -> int | None:
    return _setting("KB_MAX_DOCUMENT_BYTES", MAX_DOCUMENT_BYTES)


def max_line_chars() -> int | None:
    return _setting("KB_MAX_LINE_CHARS", MAX_LINE_CHARS)
