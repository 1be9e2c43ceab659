"""Errors raised where importing the module that owns them would cost a cold start.

``KnowledgeBaseError`` belongs to ``kb.store`` (which re-exports it), but ``kb.store`` imports the whole
entry model (``ingest.entries``, ~12 ms); the database layer raises it too, and a search that only reads
the stored verdicts of its hits should not pay for the model.
"""

from __future__ import annotations


class KnowledgeBaseError(Exception):
    """The knowledge base file is missing, unreadable or of another format."""
