"""``kb export json``: every entry as machine-readable JSON, with its verification status and site URL.

Why a separate dump when ``build/kb.sqlite`` exists: that file is the store's internal format; the dump is
the published one (one flat list, each entry with the page that shows it and, for rulings, the verdict
and scenario IDs), so other tools can consume the FAQ without our code. Sorted keys, no timestamps.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ingest.entries import Card, Document, Entry, Rule, Ruling, Section
from kb.atomic import replace_directory
from kb.export import urls
from kb.export.pages import SiteModel
from kb.store import KnowledgeBase

DUMP_FORMAT = "mtg-rulings-kb-export"
DUMP_VERSION = 1
DUMP_FILE = "entries.json"


def page_of(entry: Entry) -> str:
    """The site page that shows an entry (with its anchor where the page holds many)."""
    if isinstance(entry, Document):
        return urls.document_page(entry.id)
    if isinstance(entry, Section):
        return urls.section_page(entry.id)
    if isinstance(entry, Card):
        return urls.card_page(entry.id)
    if isinstance(entry, Rule):
        return urls.rule_page(entry.document_id, entry.number)
    return urls.in_document(entry.document_id, entry.id)


def payload(kb: KnowledgeBase, site: SiteModel) -> dict[str, Any]:
    entries = []
    for entry in kb.entries:
        item = entry.to_dict()
        item["url"] = page_of(entry)
        if isinstance(entry, Ruling):
            verdict = site.proofs.of(entry.id)
            item["verification"] = {
                "status": verdict.status,
                "reason": verdict.reason,
                "scenarios": [s.id for s in verdict.scenarios],
            }
        entries.append(item)
    return {
        "format": DUMP_FORMAT,
        "version": DUMP_VERSION,
        "fingerprint": kb.fingerprint,
        "coverage": site.coverage,
        "documents": {doc_id: summary for doc_id, summary in kb.summaries.items()},
        "entries": entries,
    }


def render(kb: KnowledgeBase, site: SiteModel) -> str:
    return json.dumps(payload(kb, site), ensure_ascii=False, sort_keys=True, indent=1) + "\n"


def export_json(kb: KnowledgeBase, site: SiteModel, out_dir: Path) -> Path:
    """Write ``OUT_DIR/entries.json`` (the directory is replaced atomically, like the site)."""
    from kb.export.site import MARKER, check_target

    check_target(out_dir)
    with replace_directory(out_dir) as staging:
        (staging / MARKER).write_text("Written by `kb export`; this directory is replaced on each export.\n")
        (staging / DUMP_FILE).write_text(render(kb, site), encoding="utf-8")
    return out_dir / DUMP_FILE
