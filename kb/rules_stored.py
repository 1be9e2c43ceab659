"""A Comprehensive Rules version read row by row from ``build/kb.sqlite``, for ``kb show`` of a rule.

Decoding a whole version (thousands of rules and glossary terms) costs ~130 ms; ``kb show 702.78a`` reads
of each version only what the history asks (``kb.rules_history``): which numbers it has, its headings'
titles (the anchors rules are matched by), the few rules it compares, the subrules under one heading, and,
for a document's era, the rules' texts (columns of the ``rules_entries`` table, no JSON decoded). A rule
is decoded when it is looked at, the glossary when a term is shown. ``StoredVersion`` is a
``VersionIndex`` answering the same questions the same way (``tests/ingest/test_rules_stored.py``).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping
from functools import cached_property
from pathlib import Path
from typing import Any

from ingest.entries import CRGlossary, CRRule, CRVersion, entry_from_dict
from kb.rules_history import VersionIndex, normalise, parent

_LAST = "\U0010ffff"  # sorts after every character: ``number < prefix + _LAST`` bounds the numbers with a prefix


class _Rows:
    """One connection per database for every version read from it (opened on first use)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn: sqlite3.Connection | None = None

    def query(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        if self._conn is None:
            from kb.db.connection import _open

            self._conn = _open(self.path, create=False)
        return self._conn.execute(sql, params).fetchall()


class StoredRules(Mapping[str, CRRule]):
    """A version's rules by number, each decoded when asked for; iterated, every number in order."""

    def __init__(self, rows: _Rows, version: str) -> None:
        self.rows, self.version = rows, version
        self._decoded: dict[str, CRRule | None] = {}

    def _fetch(self, number: str) -> CRRule | None:
        if number not in self._decoded:
            found = self.rows.query(
                "SELECT json FROM rules_entries WHERE number = ? AND version = ? AND type = 'cr_rule'",
                (number, self.version),
            )
            rule = entry_from_dict(json.loads(found[0][0])) if found else None
            self._decoded[number] = rule if isinstance(rule, CRRule) else None
        return self._decoded[number]

    def __getitem__(self, number: str) -> CRRule:
        rule = self._fetch(number)
        if rule is None:
            raise KeyError(number)
        return rule

    def __contains__(self, number: object) -> bool:
        return isinstance(number, str) and self._fetch(number) is not None

    @cached_property
    def _numbers(self) -> list[str]:
        rows = self.rows.query(
            "SELECT number FROM rules_entries WHERE version = ? AND type = 'cr_rule' ORDER BY position", (self.version,)
        )
        return [number for (number,) in rows]

    def __iter__(self) -> Iterator[str]:
        return iter(self._numbers)

    def __len__(self) -> int:
        return len(self._numbers)


class StoredVersion(VersionIndex):
    """``VersionIndex`` of a stored version, its rows read by index as the history asks for them."""

    def __init__(self, rows: _Rows, version: str) -> None:  # not the dataclass's: nothing decoded up front
        self.rows, self._version = rows, version
        self.rules = StoredRules(rows, version)
        self.known = {}

    @property
    def version(self) -> str:
        return self._version

    @cached_property
    def entry(self) -> CRVersion:  # type: ignore[override]
        (text,) = self.rows.query(
            "SELECT json FROM rules_entries WHERE version = ? AND type = 'cr_version'", (self._version,)
        )[0]
        head = entry_from_dict(json.loads(text))
        assert isinstance(head, CRVersion)
        return head

    @cached_property
    def _titles(self) -> dict[str, str]:
        """Number → title of every heading: what ``anchor`` and ``title_of`` look at."""
        rows = self.rows.query(
            "SELECT number, title FROM rules_entries WHERE version = ? AND type = 'cr_rule' AND title IS NOT NULL"
            " ORDER BY position",
            (self._version,),
        )
        return dict(rows)

    @cached_property
    def by_title(self) -> dict[str, list[str]]:  # type: ignore[override]
        found: dict[str, list[str]] = {}
        for number, title in self._titles.items():
            found.setdefault(normalise(title).casefold(), []).append(number)
        return found

    @cached_property
    def glossary(self) -> dict[str, CRGlossary]:  # type: ignore[override]
        rows = self.rows.query(
            "SELECT json FROM rules_entries WHERE version = ? AND type = 'cr_glossary' ORDER BY position",
            (self._version,),
        )
        terms = [entry_from_dict(json.loads(text)) for (text,) in rows]
        return {term.id: term for term in terms if isinstance(term, CRGlossary)}

    @cached_property
    def words(self) -> str:
        rules = self.rows.query(
            "SELECT text FROM rules_entries WHERE version = ? AND type = 'cr_rule' ORDER BY position", (self._version,)
        )
        terms = self.rows.query(
            "SELECT term FROM rules_entries WHERE version = ? AND type = 'cr_glossary' ORDER BY position",
            (self._version,),
        )
        return "\n".join([text for (text,) in rules] + [term for (term,) in terms]).casefold()

    def anchor(self, number: str) -> str | None:
        current: str | None = number
        while current is not None:
            if current in self._titles:
                return current
            current = parent(current)
        return None

    def title_of(self, number: str | None) -> str | None:
        title = self._titles.get(number) if number else None
        return normalise(title).casefold() if title else None

    def _with_prefix(self, prefix: str, kind: str | None = None) -> list[str]:
        rows = self.rows.query(
            "SELECT number FROM rules_entries WHERE number > ? AND number < ? AND version = ? AND type = 'cr_rule'"
            + (" AND kind = ?" if kind else "") + " ORDER BY position",
            (prefix, prefix + _LAST, self._version, *((kind,) if kind else ())),
        )
        return [number for (number,) in rows]

    def subrules_of(self, anchor: str) -> list[str]:
        return [n for n in self._with_prefix(anchor, "subrule") if parent(n) == anchor]

    def numbers_under(self, number: str) -> list[str]:
        return [n for n in self._with_prefix(number) if n[len(number):].isalpha()]


def attach(versions: Mapping[str, Any]) -> None:
    """Give each lazily read version record (``kb.db.read.rules_versions``) its ``StoredVersion``, so
    ``RulesHistory.of`` reads it by index instead of decoding it (one connection per database)."""
    rows: dict[Path, _Rows] = {}
    for record in versions.values():
        if record.index is None and record.stored_at is not None and record.raw is None and record.decoded is None:
            path, version = record.stored_at
            record.index = StoredVersion(rows.setdefault(path, _Rows(path)), version)
