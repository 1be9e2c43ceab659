"""The entries ``kb show KEY`` needs, found by index: the entry and its context, never the whole corpus.

``for_show`` returns a ``KnowledgeBase`` holding only those entries (with ``known`` answering for every
stored ID), so the command's code reads it exactly as it reads a whole one. What it gathers mirrors what the
command looks at: the entry's document, section, translation, the cards and rules it names, the rulings
saying the same; for a section its entries; for a card every ruling about it (``kb.card_lookup``); for a
Comprehensive Rules rule the rule excerpts and rulings citing its number in some version (the numbers its
history gives it), with their documents and those documents' sections (a document's era is read from its
mechanics): the CR versions themselves are read whole (the history matches rules across them), the
documents' entries by index.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from pathlib import Path

from ingest.entries import Card, Entry, Ruling
from ingest.names import fold_name
from kb.db import read
from kb.db.connection import reader
from kb.store import KnowledgeBase, RulesVersionRecord

CR_KEY_RE = re.compile(r"^(?:cr/.*|\d(?:\d\d(?:\.\d+[a-z]?)?)?)$")  # rules_view.wants decides for real


# a CR key and the stored CR versions → the numbers its rule had across them (the history's: ``kb.rules_view``,
# above ``kb.db``), an empty set when no document entry is needed, None when the key names no CR rule
CRNumbers = Callable[[dict[str, RulesVersionRecord], str], set[str] | None]


def for_show(path: Path, key: str, cr_numbers: CRNumbers) -> KnowledgeBase:
    with reader(path) as conn:
        versions = read.rules_versions(conn, path, eager=False)
        numbers = cr_numbers(versions, key) if versions and CR_KEY_RE.match(key.rstrip(".")) else None
        ids = _citing(conn, numbers) if numbers is not None else _closure(conn, _found(conn, key))
        entries = read.entries(conn, ids)
        summaries, warnings = read.summaries(conn, {e.document_id for e in entries})
        return KnowledgeBase(
            entries=entries,
            fingerprint=read.meta(conn).get("fingerprint", ""),
            summaries=summaries,
            warnings=warnings,
            rules_versions=versions,
            known=read.StoredIds(path),
        )


def _citing(conn: sqlite3.Connection, numbers: set[str]) -> set[str]:
    """What ``rules_history.citations`` may pick for these numbers (a superset it then filters): rule excerpts
    and rulings citing one of them or, for a heading (``702.78``), one of its subrules (``702.78a``)."""
    ids = set(read.in_column(conn, "number", numbers, kind="rule"))
    ids |= set(read.linking_to(conn, "rule", numbers))
    for heading in (n for n in numbers if "." in n and n[-1].isdigit()):
        bounds = [f"{heading}a", f"{heading}{{"]  # the letters between: its subrules
        ids |= set(read.ids_where(
            conn, "SELECT id FROM entries WHERE type = 'rule' AND number >= ? AND number < ?", bounds))
        ids |= set(read.ids_where(
            conn, "SELECT entry_id FROM links WHERE relation = 'rule' AND target >= ? AND target < ?", bounds))
    documents = {e.document_id for e in read.entries(conn, ids)}
    sections = read.in_column(conn, "document_id", documents, kind="section")  # the documents' eras
    return ids | documents | set(sections)


def _found(conn: sqlite3.Connection, key: str) -> list[Entry]:
    """What ``kb show`` resolves KEY to: an entry ID, a rule number's excerpts, or cards by name."""
    direct = read.entries(conn, [key])
    if direct:
        return direct
    rules = read.entries(conn, read.in_column(conn, "number", [key.rstrip(".")], kind="rule"))
    if rules:
        return rules
    folded = fold_name(key)
    if not folded:
        return []
    named = read.ids_where(conn, "SELECT card_id FROM card_names WHERE name = ?", [folded])
    if named:
        return read.entries(conn, named)
    from kb.card_lookup import find_cards  # another case form or a typo: compare with every card's names

    cards = read.entries(conn, read.ids_where(conn, "SELECT id FROM entries WHERE type = 'card'"))
    return list(find_cards(KnowledgeBase(entries=cards), key))


def _closure(conn: sqlite3.Connection, found: list[Entry]) -> set[str]:
    ids: set[str] = set()
    for entry in found:
        ids |= _context_ids(conn, entry)
        if isinstance(entry, Card):
            ids |= _card_ids(conn, entry)
        if entry.entry_type == "section":
            ids |= set(read.in_column(conn, "section_id", [entry.id]))
    # the documents of everything gathered (titles, dates for the era of a ruling)
    rows = read.entries(conn, ids)
    return ids | {e.document_id for e in rows}


def _context_ids(conn: sqlite3.Connection, entry: Entry) -> set[str]:
    ids = {entry.id, entry.document_id}
    for name in ("section_id", "aligned"):
        if value := getattr(entry, name, None):
            ids.add(value)
    ids |= set(getattr(entry, "same_as", ()))
    ids |= set(getattr(entry, "card_ids", ()))
    if cited := getattr(entry, "rules_cited", ()):
        ids |= set(read.in_column(conn, "number", cited, kind="rule"))
    return ids


def _card_ids(conn: sqlite3.Connection, card: Card) -> set[str]:
    """Every entry ``kb.card_lookup.card_rulings`` may pick for this card: a superset it then filters."""
    related = [card, *(c for c in read.entries(conn, card.same_as) if isinstance(c, Card))]
    ids = {c.id for c in related}
    names = {fold_name(n) for c in related for n in (c.name, c.name_en, c.name_ru) if n}
    own_sections = {c.section_id for c in related if not c.printings}
    ids |= own_sections
    rulings = set(read.linking_to(conn, "card", ids))
    rulings |= set(read.linking_to(conn, "card_name", names))
    rulings |= set(read.in_column(conn, "section_id", own_sections, kind="ruling"))
    official = [r for r in rulings if r.startswith("mtgjson/")]
    rulings |= set(read.linking_to(conn, "same_as", official))
    found = read.entries(conn, rulings)
    return ids | rulings | {e.document_id for e in found if isinstance(e, Ruling)}
