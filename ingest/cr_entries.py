"""The Comprehensive Rules' entries: a version, its numbered rules, its glossary terms.

Part of the entry model (``ingest.entries`` gives them under their usual names): a module of their own so
that a command reading only documents' entries (``kb show``, ``kb search``) does not build their classes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from ingest.entries import Entry

CRRuleKind = Literal["part", "chapter", "rule", "subrule"]


@dataclass(frozen=True)
class CRVersion(Entry):
    """One ingested version of the Comprehensive Rules; its effective date is the version."""

    entry_type: ClassVar[str] = "cr_version"

    version: str  # "20260116": the effective date, as used in IDs
    date: str  # ISO: "2026-01-16"
    title: str
    sha256: str
    encoding: str
    content_hash: str = ""


@dataclass(frozen=True)
class CRRule(Entry):
    """A numbered rule of one CR version: a part ("7."), chapter ("702."), rule ("702.78.") or subrule."""

    entry_type: ClassVar[str] = "cr_rule"

    version: str  # "20260116"
    number: str  # "702.78a", "702.78", "702", "7" (no trailing dot)
    kind: CRRuleKind
    text: str  # the rule's own text; a heading's text is its title
    title: str | None = None  # set for headings: "Conspire" for "702.78. Conspire"
    examples: tuple[str, ...] = ()  # the "Example:" paragraphs that follow the rule
    content_hash: str = ""


@dataclass(frozen=True)
class CRGlossary(Entry):
    """A glossary term of one CR version."""

    entry_type: ClassVar[str] = "cr_glossary"

    version: str
    term: str
    text: str
    content_hash: str = ""
