"""How two spellings of a name are compared: the one function ``kb show`` needs of the glossary (without
its CSV reader and tables, which ``ingest.glossary`` loads)."""

from __future__ import annotations

import re

_QUOTES_RE = re.compile(r"[«»\"“”„'’‘]")


def fold_name(text: str) -> str:
    """Compare names ignoring case, ё/е, quotes and spacing."""
    text = _QUOTES_RE.sub("", text.lower().replace("ё", "е"))
    return " ".join(text.replace("_", " ").split())
