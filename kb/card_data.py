"""Card data files (MTGJSON) in the build: recognise them among the sources, merge them across ingests,
and link them to the documents' cards and rulings (``ingest/mtgjson.py``, ``ingest/same_as.py``)."""

from __future__ import annotations

from pathlib import Path

from ingest import mtgjson, same_as
from ingest.entries import Entry, ParsedDocument
from ingest.errors import IngestError
from ingest.manifest import load_manifest
from ingest.mentions import CardMentionFinder
from kb import paths
from kb.store import KnowledgeBase


def parse_if_card_data(path: Path, label: str, finder: CardMentionFinder | None) -> list[ParsedDocument] | None:
    """The set documents of an MTGJSON file; ``None`` when the file is not JSON (a document to parse)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise IngestError(label, f"cannot read: {exc.strerror}") from exc
    if not mtgjson.looks_like_json(data):
        return None
    manifest = load_manifest(paths.sources_dir()).values()
    names_ru = {info.set_code: info.set_name_ru for info in manifest if info.set_code}
    return mtgjson.parse_mtgjson(data, label, names_ru, finder)


def is_card_document(document: ParsedDocument) -> bool:
    return document.document.kind == mtgjson.KIND


def carried_over(entry: Entry) -> bool:
    """MTGJSON cards and rulings survive the replacement of their document: another set may print them."""
    return mtgjson.is_card_data(entry)


def finish(kb: KnowledgeBase, kept: list[Entry]) -> KnowledgeBase:
    """``kept`` (stored) and ``kb``'s (new) entries merged into one card per name, then linked across sources."""
    entries = mtgjson.consolidate(kept, kb.entries)
    entries = same_as.link(entries, same_as.load_terms(paths.glossary_dir()))
    present = {e.document_id for e in entries}
    summaries = {k: v for k, v in kb.summaries.items() if k in present}
    summaries.update(mtgjson.summaries(entries, kb.warnings))
    return KnowledgeBase(entries=entries, fingerprint=kb.fingerprint, summaries=summaries, warnings=kb.warnings)
