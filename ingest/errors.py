"""The one error ingest raises for bad input: it always names the file, and the line where it applies."""

from __future__ import annotations


class IngestError(Exception):
    def __init__(self, path: str, message: str, line: int | None = None) -> None:
        self.path = path
        self.line = line
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"
