"""The one error ingest raises for bad input: it always names the file, and the line where it applies.

``key`` and ``values`` name the message in the CLI's catalogue (``kb/i18n.py``), so the user reads it in
the interface language; ``message`` is the same text in English, for code that reads ingest directly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class IngestError(Exception):
    def __init__(
        self,
        path: str,
        message: str,
        line: int | None = None,
        *,
        key: str | None = None,
        values: Mapping[str, Any] | None = None,
    ) -> None:
        self.path = path
        self.line = line
        self.message = message
        self.key = key
        self.values = dict(values or {})
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"
