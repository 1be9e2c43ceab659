"""The knowledge base file: one versioned JSON document holding every entry.

Format (``format: "mtg-rulings-kb"``, ``version: 1``)::

    {
      "format": "mtg-rulings-kb",
      "version": 1,
      "fingerprint": "<sha256 of the sources and glossary it was built from>",
      "documents": {"lrw": {"summary": {...}, "warnings": ["file:line: message", ...]}, ...},
      "entries": [{"type": "document" | "section" | "card" | "rule" | "ruling", "id": ..., ...}, ...],
      "comprehensive_rules": {"20260116": {"summary": {...}, "warnings": [...],
                              "entries": [{"type": "cr_version" | "cr_rule" | "cr_glossary", ...}, ...]}, ...}
    }

The Comprehensive Rules versions are kept apart from ``entries``: they are not documents (no rulings,
not searched, not exported), and they are decoded into entries only when asked for
(``RulesVersionRecord.entries``): every other command pays only for reading their JSON.

Entries keep document order (documents in manifest order; inside a document: document, sections,
cards, rules, rulings as parsed). The file is written with sorted keys and no timestamps, so
re-ingesting unchanged sources gives byte-identical output, and it is written atomically (temp file +
rename), so a failed ingest leaves the previous knowledge base untouched.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from ingest.entries import (
    Card,
    Document,
    Entry,
    ParsedDocument,
    ParsedRules,
    Rule,
    Ruling,
    Section,
    entry_from_dict,
)
from kb.atomic import write_text_atomic

FORMAT = "mtg-rulings-kb"
VERSION = 1

E = TypeVar("E", bound=Entry)


class KnowledgeBaseError(Exception):
    """The knowledge base file is missing, unreadable or of another format."""


@dataclass
class RulesVersionRecord:
    """One ingested Comprehensive Rules version as stored: counts, warnings and (lazily) its entries."""

    summary: dict[str, int]
    warnings: list[str]
    raw: list[dict[str, Any]] | None = None
    decoded: list[Entry] | None = field(default=None, repr=False)

    @classmethod
    def from_parsed(cls, parsed: ParsedRules) -> RulesVersionRecord:
        return cls(parsed.summary(), [str(w) for w in parsed.warnings], decoded=parsed.entries())

    @property
    def entries(self) -> list[Entry]:
        if self.decoded is None:
            self.decoded = [entry_from_dict(item) for item in self.raw or []]
        return self.decoded

    def to_payload(self) -> dict[str, Any]:
        items = self.raw if self.raw is not None else [entry.to_dict() for entry in self.entries]
        return {"summary": self.summary, "warnings": self.warnings, "entries": items}


@dataclass
class KnowledgeBase:
    """All entries, addressable by ID, in document order."""

    entries: list[Entry]
    fingerprint: str = ""
    summaries: dict[str, dict[str, int]] = field(default_factory=dict)
    warnings: dict[str, list[str]] = field(default_factory=dict)
    rules_versions: dict[str, RulesVersionRecord] = field(default_factory=dict)  # by version: "20260116"
    by_id: dict[str, Entry] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.by_id = {entry.id: entry for entry in self.entries}

    def of_type(self, cls: type[E]) -> list[E]:
        return [entry for entry in self.entries if isinstance(entry, cls)]

    @property
    def documents(self) -> list[Document]:
        return self.of_type(Document)

    @property
    def sections(self) -> list[Section]:
        return self.of_type(Section)

    @property
    def cards(self) -> list[Card]:
        return self.of_type(Card)

    @property
    def rules(self) -> list[Rule]:
        return self.of_type(Rule)

    @property
    def rulings(self) -> list[Ruling]:
        """Both kinds: ``* `` rulings and explanatory notes (see ``Ruling.kind``)."""
        return self.of_type(Ruling)

    def get(self, entry_id: str) -> Entry | None:
        return self.by_id.get(entry_id)

    def in_document(self, document_id: str) -> Iterator[Entry]:
        return (entry for entry in self.entries if entry.document_id == document_id)

    def stats(self) -> dict[str, Any]:
        """The figures ``kb stats --json`` prints."""
        totals = {"documents": len(self.documents)}
        for key in ("sections", "cards", "rules", "rulings", "notes", "warnings"):
            totals[key] = sum(summary.get(key, 0) for summary in self.summaries.values())
        order = [doc.id for doc in self.documents]
        per_document = {doc_id: self.summaries[doc_id] for doc_id in order if doc_id in self.summaries}
        versions = {version: self.rules_versions[version].summary for version in sorted(self.rules_versions)}
        return {**totals, "per_document": per_document, "comprehensive_rules": versions}

    @classmethod
    def from_parsed(cls, parsed: Iterable[ParsedDocument], fingerprint: str = "") -> KnowledgeBase:
        entries: list[Entry] = []
        summaries: dict[str, dict[str, int]] = {}
        warnings: dict[str, list[str]] = {}
        for doc in parsed:
            entries.extend(doc.entries())
            summaries[doc.document.id] = doc.summary()
            warnings[doc.document.id] = [str(w) for w in doc.warnings]
        return cls(entries=entries, fingerprint=fingerprint, summaries=summaries, warnings=warnings)

    def to_json(self) -> str:
        payload = {
            "format": FORMAT,
            "version": VERSION,
            "fingerprint": self.fingerprint,
            "documents": {
                doc_id: {"summary": self.summaries[doc_id], "warnings": self.warnings.get(doc_id, [])}
                for doc_id in self.summaries
            },
            "entries": [entry.to_dict() for entry in self.entries],
            "comprehensive_rules": {
                version: self.rules_versions[version].to_payload() for version in sorted(self.rules_versions)
            },
        }
        return json.dumps(payload, ensure_ascii=False, sort_keys=True, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str, origin: str = "<string>") -> KnowledgeBase:
        try:
            payload = json.loads(text)
        except json.JSONDecodeError as exc:
            raise KnowledgeBaseError(f"{origin}:{exc.lineno}: not valid JSON ({exc.msg})") from exc
        if not isinstance(payload, dict) or payload.get("format") != FORMAT:
            raise KnowledgeBaseError(f"{origin}: not a knowledge base file (format != {FORMAT!r})")
        if payload.get("version") != VERSION:
            raise KnowledgeBaseError(
                f"{origin}: knowledge base version {payload.get('version')} is not {VERSION}; run `kb ingest`"
            )
        documents = payload.get("documents", {})
        return cls(
            entries=[entry_from_dict(item) for item in payload["entries"]],
            fingerprint=payload.get("fingerprint", ""),
            summaries={doc_id: info["summary"] for doc_id, info in documents.items()},
            warnings={doc_id: info.get("warnings", []) for doc_id, info in documents.items()},
            rules_versions={
                version: RulesVersionRecord(info["summary"], info.get("warnings", []), raw=info["entries"])
                for version, info in payload.get("comprehensive_rules", {}).items()
            },
        )


def save(kb: KnowledgeBase, path: Path) -> None:
    """Write atomically: the previous file stays whole until the new one is complete."""
    write_text_atomic(path, kb.to_json())


def load(path: Path) -> KnowledgeBase:
    if not path.exists():
        raise KnowledgeBaseError(f"{path}: no knowledge base yet; run `kb ingest` first")
    return KnowledgeBase.from_json(path.read_text(encoding="utf-8"), origin=str(path))


__all__ = [
    "Card",
    "Document",
    "KnowledgeBase",
    "KnowledgeBaseError",
    "Rule",
    "RulesVersionRecord",
    "Ruling",
    "Section",
    "load",
    "save",
]
