"""Limits of what one command accepts, in one place (ingest's own are in ``ingest/limits.py``).

A search query is a question or a few words; the longest of the development and holdout queries is under
100 characters. A pasted page of text would only make the query parser and the scorer slow, so a query
is cut to ``MAX_QUERY_CHARS`` (at a word boundary where there is one) and the user is told: the search
does it (``kb.search.query.limit_query``), for the CLI and ``--json`` alike.
"""

from __future__ import annotations

from ingest.limits import MAX_DOCUMENT_BYTES, MAX_LINE_CHARS, max_document_bytes, max_line_chars
from kb.search.query import MAX_QUERY_CHARS as QUERY_LIMIT

MAX_QUERY_CHARS = QUERY_LIMIT  # the search cuts it (``kb.search.query.limit_query``) and says so

__all__ = [
    "MAX_DOCUMENT_BYTES",
    "MAX_LINE_CHARS",
    "MAX_QUERY_CHARS",
    "max_document_bytes",
    "max_line_chars",
]
