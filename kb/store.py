"""The knowledge base: every entry, addressable by ID, and where it is kept.

The store is ``build/kb.sqlite`` (``kb/db/``, tables and views in ``docs/database.md``): written in one
transaction per ingest, read whole by the commands that need everything (verify, export, the search index)
and by index by the ones that need a few rows (``kb show``, ``kb stats``: ``for_show``, ``stats``).

``KnowledgeBase.to_json`` is still the canonical, diffable form of the whole thing, and the format of the
earlier store ``build/kb.json`` (imported automatically the first time the database is opened)::

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
(``RulesVersionRecord.entries``).

Entries keep document order (documents in manifest order; inside a document: document, sections,
cards, rules, rulings as parsed), in the database too (``entries.position``), so loading it gives back
exactly what was saved: the same ``to_json`` text, byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ingest.entries import Card, Document, Entry, Rule, Ruling, Section, entry_from_dict
from kb.errors import KnowledgeBaseError  # re-exported: ``kb.store.KnowledgeBaseError``

if TYPE_CHECKING:
    from ingest.parsed import ParsedDocument, ParsedRules

FORMAT = "mtg-rulings-kb"
VERSION = 1

E = TypeVar("E", bound=Entry)


@dataclass
class RulesVersionRecord:
    """One ingested Comprehensive Rules version as stored: counts, warnings and (lazily) its entries."""

    summary: dict[str, int]
    warnings: list[str]
    raw: list[dict[str, Any]] | None = None
    decoded: list[Entry] | None = field(default=None, repr=False)
    digest: str | None = None  # of the stored payload, when read from the database (unchanged: not rewritten)
    loader: Callable[[], list[dict[str, Any]]] | None = field(default=None, repr=False)  # reads ``raw`` lazily
    stored_at: tuple[Path, str] | None = field(default=None, repr=False, compare=False)  # (db, version): read lazily
    # the version read row by row where it is stored (``kb.rules_stored.StoredVersion``): what ``kb show`` asks of
    # the history without decoding every version (``kb.rules_stored.attach``)
    index: Any = field(default=None, repr=False, compare=False)

    def _raw(self) -> list[dict[str, Any]] | None:
        if self.raw is None and self.loader is not None:
            self.raw = self.loader()
        return self.raw

    @classmethod
    def from_parsed(cls, parsed: ParsedRules) -> RulesVersionRecord:
        return cls(parsed.summary(), [str(w) for w in parsed.warnings], decoded=parsed.entries())

    @property
    def entries(self) -> list[Entry]:
        if self.decoded is None:
            self.decoded = [entry_from_dict(item) for item in self._raw() or []]
        return self.decoded

    def to_payload(self) -> dict[str, Any]:
        raw = self._raw() if self.decoded is None else self.raw
        items = raw if raw is not None else [entry.to_dict() for entry in self.entries]
        return {"summary": self.summary, "warnings": self.warnings, "entries": items}


@dataclass
class KnowledgeBase:
    """All entries, addressable by ID, in document order."""

    entries: list[Entry]
    fingerprint: str = ""
    summaries: dict[str, dict[str, int]] = field(default_factory=dict)
    warnings: dict[str, list[str]] = field(default_factory=dict)
    rules_versions: dict[str, RulesVersionRecord] = field(default_factory=dict)  # by version: "20260116"
    # a part of the stored knowledge base (``for_show``): every stored ID, though only some entries are here
    known: Collection[str] | None = field(default=None, repr=False, compare=False)
    by_id: dict[str, Entry] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.by_id = {entry.id: entry for entry in self.entries}

    def ids(self) -> Collection[str]:
        """Every entry ID of the knowledge base (the stored ones when this holds only a part of it)."""
        return self.known if self.known is not None else self.by_id.keys()

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


def _is_json(path: Path) -> bool:
    return path.suffix == ".json"


def save(kb: KnowledgeBase, path: Path) -> int:
    """Store ``kb`` at ``path``: the database in one transaction (a ``.json`` path: the canonical JSON file,
    written atomically). Returns the rows changed (for JSON: 1)."""
    if _is_json(path):
        from kb.atomic import write_text_atomic  # tempfile, shutil: writers only

        write_text_atomic(path, kb.to_json())
        return 1
    with transaction(path, fresh_if_invalid=True) as tx:
        return tx.save(kb)


def load(path: Path) -> KnowledgeBase:
    """The whole knowledge base (a ``.json`` path: the earlier store's file)."""
    if _is_json(path):
        if not path.exists():
            raise KnowledgeBaseError(f"{path}: no knowledge base yet; run `kb ingest` first")
        return KnowledgeBase.from_json(path.read_text(encoding="utf-8"), origin=str(path))
    from kb.db import connection, read

    with connection.reader(path) as conn:
        return read.load_all(conn, path)


def exists(path: Path) -> bool:
    """A knowledge base is stored at ``path`` (an earlier ``kb.json`` beside it is migrated first)."""
    from kb.db import connection

    connection.migrate_legacy(path)
    return path.exists()


class Transaction:
    """Read–merge–write under the database's write lock: what ``kb ingest`` does, so no writer loses another's."""

    def __init__(self, conn: Any, path: Path, has_data: bool) -> None:
        self.conn, self.path, self.has_data = conn, path, has_data
        self.changed = 0
        from kb.db.read import StoredRows

        self.stored = StoredRows()  # filled by ``existing``: what ``save`` compares against

    def existing(self) -> KnowledgeBase | None:
        """The stored knowledge base as of this transaction (``None`` when there is none yet)."""
        from kb.db import read

        if not self.has_data:
            return None
        return read.load_all(self.conn, self.path, eager_rules=True, stored=self.stored)

    def save(self, kb: KnowledgeBase) -> int:
        from kb.db import write

        self.changed = write.write(self.conn, kb, self.stored)
        self.has_data = True
        return self.changed


@contextmanager
def transaction(path: Path, fresh_if_invalid: bool = False) -> Iterator[Transaction]:
    """One write transaction (``BEGIN IMMEDIATE``): committed at the end of the block, rolled back on error.

    ``fresh_if_invalid``: a file that is not a knowledge base is set aside and a new one started."""
    from kb.db import connection

    connection.clean_leftovers(path)
    with connection.write_transaction(path, fresh_if_invalid) as (conn, has_data):
        yield Transaction(conn, path, has_data)


def stats(path: Path) -> dict[str, Any]:
    """``KnowledgeBase.stats()`` of the stored knowledge base, from its summary tables alone."""
    if _is_json(path):
        return load(path).stats()
    from kb.db import connection, read

    with connection.reader(path) as conn:
        return read.stats(conn)


def digest(path: Path) -> str:
    """A digest of the stored content: equal for equal knowledge bases, whatever the file's bytes."""
    from kb.db import connection, read

    with connection.reader(path) as conn:
        return read.meta(conn).get("digest", "")


def for_show(
    path: Path, key: str, cr_numbers: Callable[[dict[str, RulesVersionRecord], str], set[str] | None]
) -> KnowledgeBase:
    """The part of the stored knowledge base that ``kb show KEY`` reads (``kb.db.lookup``); ``cr_numbers``
    gives a CR key's numbers across the versions (``kb.rules_view.cited_numbers``)."""
    if _is_json(path):
        return load(path)
    from kb.db import lookup

    return lookup.for_show(path, key, cr_numbers)


__all__ = [
    "Card",
    "Document",
    "KnowledgeBase",
    "KnowledgeBaseError",
    "Rule",
    "RulesVersionRecord",
    "Ruling",
    "Section",
    "Transaction",
    "digest",
    "exists",
    "for_show",
    "load",
    "save",
    "stats",
    "transaction",
]
