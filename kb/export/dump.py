"""``kb export json``: every entry as machine-readable JSON, with its verification status and site URL.

Why a separate dump when ``build/kb.sqlite`` exists: that file is the store's internal format; the dump is
the published one (one flat list, each entry with the page that shows it and, for rulings, the verdict
and scenario IDs), so other tools can consume the FAQ without our code. Sorted keys, no timestamps.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ingest.entries import Card, Document, Entry, Rule, Ruling, Section
from kb.export import urls
from kb.export.pages import SiteModel
from kb.export.publish import publish
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


def item_of(entry: Entry, site: SiteModel) -> dict[str, Any]:
    item = entry.to_dict()
    item["url"] = page_of(entry)
    if isinstance(entry, Ruling):
        verdict = site.proofs.of(entry.id)
        item["verification"] = {
            "status": verdict.status,
            "reason": verdict.reason,
            "scenarios": [s.id for s in verdict.scenarios],
        }
    return item


def _head(kb: KnowledgeBase, site: SiteModel) -> dict[str, Any]:
    return {
        "format": DUMP_FORMAT,
        "version": DUMP_VERSION,
        "fingerprint": kb.fingerprint,
        "coverage": site.coverage,
        "documents": {doc_id: summary for doc_id, summary in kb.summaries.items()},
    }


def payload(kb: KnowledgeBase, site: SiteModel) -> dict[str, Any]:
    return {**_head(kb, site), "entries": [item_of(entry, site) for entry in kb.entries]}


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, indent=1)


def render(kb: KnowledgeBase, site: SiteModel) -> str:
    return _dumps(payload(kb, site)) + "\n"


_SLOT = "\u0000entries\u0000"


def render_pieces(kb: KnowledgeBase, site: SiteModel) -> Iterator[str]:
    """``render``'s text, entry by entry: the dump of 100,000 entries is never one string in memory.

    The frame is ``render`` of the payload with a placeholder for the list; each entry is dumped alone and
    indented to the list's depth, which is what ``json.dumps(indent=1)`` writes for it (a test compares).
    """
    if not kb.entries:
        yield render(kb, site)
        return
    before, after = _dumps({**_head(kb, site), "entries": [_SLOT]}).split(json.dumps(_SLOT))
    yield before
    for number, entry in enumerate(kb.entries):
        yield (",\n  " if number else "") + _dumps(item_of(entry, site)).replace("\n", "\n  ")
    yield after + "\n"


def export_json(kb: KnowledgeBase, site: SiteModel, out_dir: Path) -> Path:
    """Write ``OUT_DIR/entries.json`` (the directory is replaced atomically, like the site)."""
    from kb.export.site import MARKER, MARKER_TEXT, check_target

    check_target(out_dir)
    with publish(out_dir) as staging:
        (staging / MARKER).write_text(MARKER_TEXT)
        with (staging / DUMP_FILE).open("w", encoding="utf-8") as handle:
            handle.writelines(render_pieces(kb, site))
    return out_dir / DUMP_FILE
