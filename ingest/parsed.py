"""What parsing one file gives: its entries, counts and warnings (``ParsedDocument``, ``ParsedRules``).

Part of the entry model (``ingest.entries`` gives them under their usual names): a module of their own
because only ingest builds them, so readers of the stored entries do not build their classes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ingest.cr_entries import CRGlossary, CRRule, CRVersion
    from ingest.entries import Card, Document, Entry, Rule, Ruling, Section


@dataclass
class IngestWarning:
    """Something ingest could not place cleanly; always names file:line."""

    path: str
    line: int
    message: str
    key: str | None = None  # the message in the CLI's catalogue (kb/i18n.py), with ``values``
    values: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


@dataclass
class ParsedDocument:
    """Everything one source file became."""

    document: Document
    sections: list[Section] = field(default_factory=list)
    cards: list[Card] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    rulings: list[Ruling] = field(default_factory=list)
    warnings: list[IngestWarning] = field(default_factory=list)

    def entries(self) -> list[Entry]:
        return [self.document, *self.sections, *self.cards, *self.rules, *self.rulings]

    def summary(self) -> dict[str, int]:
        """The per-document counts that ``kb stats --json`` and ``kb ingest --json`` print."""
        return {
            "sections": len(self.sections),
            "cards": len(self.cards),
            "rules": len(self.rules),
            "rulings": sum(1 for r in self.rulings if r.kind == "ruling"),
            "notes": sum(1 for r in self.rulings if r.kind == "note"),
            "warnings": len(self.warnings),
        }


@dataclass
class ParsedRules:
    """Everything one Comprehensive Rules file became: its version, rules and glossary."""

    version: CRVersion
    rules: list[CRRule] = field(default_factory=list)
    glossary: list[CRGlossary] = field(default_factory=list)
    warnings: list[IngestWarning] = field(default_factory=list)

    def entries(self) -> list[Entry]:
        return [self.version, *self.rules, *self.glossary]

    def summary(self) -> dict[str, int]:
        """What ``kb stats`` prints per CR version (kept apart from the documents' counts)."""
        return {
            "rules": len(self.rules),
            "headings": sum(1 for r in self.rules if r.title is not None),
            "glossary": len(self.glossary),
            "warnings": len(self.warnings),
        }
