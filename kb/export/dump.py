"""``kb export json``: every entry as machine-readable JSON, with its verification status and site URL.

Why a separate dump when ``build/kb.sqlite`` exists: that file is the store's internal format; the dump is
the published one (one flat list, each entry with the page that shows it and, for rulings, the verdict
and scenario IDs), so other tools can consume the FAQ without our code. Sorted keys, no timestamps.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from json.encoder import encode_basestring
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


_FIELDS: dict[type, tuple[str, ...]] = {}


def _plain(value: Any) -> Any:
    """``dataclasses.asdict``'s answer (what ``Entry.to_dict`` gives) without its deep copy of every leaf: the
    values are only read, to be dumped."""
    cls = type(value)
    if cls is str or cls is int or value is None or cls is bool:
        return value
    names = _FIELDS.get(cls)
    if names is None and dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(value))
    if names is not None:
        return {name: _plain(getattr(value, name)) for name in names}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


def _entry_dict(entry: Entry) -> dict[str, Any]:
    """``entry.to_dict()``, faster (a dump of 100,000 entries spent seconds deep-copying strings)."""
    item: dict[str, Any] = _plain(entry)
    item["type"] = entry.entry_type
    return item


def item_of(entry: Entry, site: SiteModel) -> dict[str, Any]:
    item = _entry_dict(entry)
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


def _indented(value: Any, indent: str = "\n") -> str:
    """``_dumps(value)`` for the JSON an entry holds (strings, numbers, booleans, null, lists, string-keyed
    objects), one function call per value: ``json.dumps`` with an indent runs the pure-Python encoder, a
    generator per container, the slow half of a large dump. Anything else goes to ``_dumps`` itself."""
    cls = type(value)
    if cls is str:
        return str(encode_basestring(value))
    if value is None:
        return "null"
    if cls is bool:
        return "true" if value else "false"
    if cls is int:
        return int.__repr__(value)
    inner = indent + " "
    if cls is list or cls is tuple:
        if not value:
            return "[]"
        return "[" + inner + ("," + inner).join(_indented(item, inner) for item in value) + indent + "]"
    if cls is dict and all(type(key) is str for key in value):
        if not value:
            return "{}"
        items = sorted(value.items())
        return "{" + inner + ("," + inner).join(
            f"{encode_basestring(key)}: {_indented(item, inner)}" for key, item in items) + indent + "}"
    return _dumps(value).replace("\n", indent)


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
        yield (",\n  " if number else "") + _indented(item_of(entry, site), "\n  ")
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
