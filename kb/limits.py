"""Limits of what one command accepts, in one place (ingest's own are in ``ingest/limits.py``).

A search query is a question or a few words; the longest of the development and holdout queries is under
100 characters. A pasted page of text would only make the query parser and the scorer slow, so a query
is cut to ``MAX_QUERY_CHARS`` (at a word boundary where there is one) and the user is told.
"""

from __future__ import annotations

from ingest.limits import MAX_DOCUMENT_BYTES, MAX_LINE_CHARS, max_document_bytes, max_line_chars

MAX_QUERY_CHARS = 500

__all__ = [
    "MAX_DOCUMENT_BYTES",
    "MAX_LINE_CHARS",
    "MAX_QUERY_CHARS",
    "cut_query",
    "max_document_bytes",
    "max_line_chars",
]


def cut_query(query: str, limit: int = MAX_QUERY_CHARS) -> tuple[str, bool]:
    """``(query, False)`` when it fits; else its first ``limit`` characters, ending at a word, and True."""
    if len(query) <= limit:
        return query, False
    head = query[:limit]
    if not query[limit].isspace() and " " in head:
        head = head.rsplit(" ", 1)[0]
    return head.rstrip(), True
