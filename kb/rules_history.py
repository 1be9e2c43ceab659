"""A rule across the ingested Comprehensive Rules versions: renumberings, text changes, absences.

Rule numbers are not identities: Conspire is 502.78 in 2008, 702.75 in 2009 and 702.78 today, while
702.78 was Wither in 2013. A rule is matched across versions through its *anchor*, the nearest heading
at or above it ("702.78. Conspire", "100. General"): the anchor is found in the other version by its
title, and the rule by its position under it (``a`` of ``702.78a``), checked against the text so an
inserted subrule does not shift the match onto a neighbour.

A document's *era* is the CR version its rulings were written under: the version in force on the
document's date, or, when that version does not know a mechanic the document explains (a section of
kind keyword ability, keyword action, ability word or card type, by its English name) (release notes
appear weeks before their set's rules update), the first later version within ``ERA_GRACE`` that does;
an undated document gets the first version that knows every mechanic it explains.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ingest.entries import CRGlossary, CRRule, CRVersion, Document, Entry, Rule, Ruling

if TYPE_CHECKING:
    from kb.store import KnowledgeBase

ERA_GRACE = timedelta(days=90)
MECHANIC_KINDS = ("keyword ability", "keyword action", "ability word", "card type")  # rules terms, not themes
DIFF_CONTEXT = 6  # unchanged words kept on each side of a change
SIMILAR = 0.5  # below this, a positional match is checked against the anchor's other subrules
_QUOTES = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'", "–": "-", "_": None})
_TOKEN_RE = re.compile(r"\n|[^\s]+")


def normalise(text: str) -> str:
    """What a rules text says, without typography: curly quotes, en dashes, ``_italics_`` markup, spacing."""
    return re.sub(r"[ \t]+", " ", text.translate(_QUOTES)).strip()


def parent(number: str) -> str | None:
    """``702.78a`` → ``702.78`` → ``702`` → ``7`` → None."""
    if number[-1].isalpha():
        return number.rstrip("abcdefghijklmnopqrstuvwxyz")
    if "." in number:
        return number.split(".")[0]
    return number[0] if len(number) == 3 else None


def word_diff(old: str, new: str, context: int = DIFF_CONTEXT) -> str:
    """A word-level diff readable in a terminal: ``[-removed-]{+added+}``, like ``git diff --word-diff``.

    Unchanged runs longer than twice ``context`` words are cut to their ends around a ``…``.
    """
    a, b = _TOKEN_RE.findall(old), _TOKEN_RE.findall(new)
    out: list[str] = []
    opcodes = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    for index, (op, i1, i2, j1, j2) in enumerate(opcodes):
        if op == "equal":
            words = a[i1:i2]
            head = words[:context] if index > 0 else []
            tail = words[-context:] if index < len(opcodes) - 1 else []
            if len(opcodes) > 1 and len(words) > len(head) + len(tail) + 1:
                words = [*head, "…", *tail]
            out.append(" ".join(words))
            continue
        if i2 > i1:
            out.append("[-" + " ".join(a[i1:i2]) + "-]")
        if j2 > j1:
            out.append("{+" + " ".join(b[j1:j2]) + "+}")
    return " ".join(out).replace(" \n ", "\n")


@dataclass
class VersionIndex:
    """One CR version, indexed for matching."""

    entry: CRVersion
    rules: Mapping[str, CRRule]
    glossary: Mapping[str, CRGlossary]
    by_title: dict[str, list[str]] = field(default_factory=dict)
    # ``knows`` per term: each document asks for its mechanics, and a hundred documents share the same few
    known: dict[str, bool] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        for rule in self.rules.values():
            if rule.title is not None:
                self.by_title.setdefault(normalise(rule.title).casefold(), []).append(rule.number)

    @property
    def version(self) -> str:
        return self.entry.version

    @cached_property
    def words(self) -> str:
        """Every title, rule and glossary term, lower-cased: what "knows a mechanic" searches."""
        parts = [r.text for r in self.rules.values()] + [g.term for g in self.glossary.values()]
        return "\n".join(parts).casefold()

    def knows(self, term: str) -> bool:
        folded = term.casefold()
        if folded not in self.known:
            # the cheap test first: most misses never reach the regex (a search of the whole version's text)
            self.known[folded] = folded in self.words and (
                re.search(r"(?<!\w)" + re.escape(folded) + r"(?!\w)", self.words) is not None)
        return self.known[folded]

    def anchor(self, number: str) -> str | None:
        current: str | None = number
        while current is not None:
            rule = self.rules.get(current)
            if rule is not None and rule.title is not None:
                return current
            current = parent(current)
        return None

    def title_of(self, number: str | None) -> str | None:
        rule = self.rules.get(number) if number else None
        return normalise(rule.title).casefold() if rule and rule.title else None

    def subrules_of(self, anchor: str) -> list[str]:
        """The subrules directly under ``anchor`` (``702.78a``, ``702.78b`` of ``702.78``), in order."""
        return [n for n, r in self.rules.items() if r.kind == "subrule" and parent(n) == anchor]

    def numbers_under(self, number: str) -> list[str]:
        """Every number that is ``number`` and letters (``702.78a`` of ``702.78``), in order."""
        return [n for n in self.rules if n.startswith(number) and n[len(number):].isalpha()]


def full_text(rule: CRRule) -> str:
    return "\n".join([normalise(rule.text), *(normalise(e) for e in rule.examples)])


class RulesHistory:
    """Every ingested CR version, oldest first, and the matching of rules between them."""

    def __init__(self, versions: Iterable[Iterable[Entry]], indexes: Iterable[VersionIndex] = ()) -> None:
        found = list(indexes)
        for entries in versions:
            items = list(entries)
            head = next(e for e in items if isinstance(e, CRVersion))
            rules = {e.number: e for e in items if isinstance(e, CRRule)}
            glossary = {e.id: e for e in items if isinstance(e, CRGlossary)}
            found.append(VersionIndex(head, rules, glossary))
        self.versions = sorted(found, key=lambda v: v.version)
        self.by_version = {v.version: v for v in self.versions}
        self._eras: dict[str, str | None] = {}

    @classmethod
    def of(cls, kb: KnowledgeBase) -> RulesHistory:
        """The history of the ingested versions: read row by row from the database where they are stored
        and not yet decoded (``kb show``: ``kb.rules_stored``), else from their entries."""
        records = list(kb.rules_versions.values())
        if records and all(record.index is not None for record in records):
            return cls((), (record.index for record in records if record.index is not None))
        return cls(record.entries for record in records)

    @property
    def newest(self) -> VersionIndex | None:
        return self.versions[-1] if self.versions else None

    def match(self, source: VersionIndex, number: str, target: VersionIndex) -> str | None:
        """The number ``source``'s rule ``number`` has in ``target``, or None where it is absent."""
        if source is target:
            return number if number in target.rules else None
        anchor = source.anchor(number)
        if anchor is None:
            return None
        title = source.title_of(anchor)
        candidates = target.by_title.get(title or "", [])
        if not candidates:
            return None
        if len(candidates) > 1:
            upper = source.title_of(source.anchor(parent(anchor) or ""))
            same_number = [c for c in candidates if c == anchor]
            same_upper = [c for c in candidates if target.title_of(target.anchor(parent(c) or "")) == upper]
            candidates = same_number or same_upper or candidates
        found = candidates[0] + number[len(anchor):]
        return self._closest(source.rules[number], found, candidates[0], target)

    def _closest(self, rule: CRRule, found: str, anchor: str, target: VersionIndex) -> str | None:
        """Keep the positional match unless its text is unlike the rule and a sibling's is alike."""
        text = full_text(rule)
        at = target.rules.get(found)
        if rule.title is not None or (at is not None and _ratio(text, full_text(at)) >= SIMILAR):
            return found if at is not None else None
        if rule.kind != "subrule":
            return found if at is not None else None
        siblings = target.subrules_of(anchor)
        best = max(siblings, key=lambda n: _ratio(text, full_text(target.rules[n])), default=None)
        if best is not None and _ratio(text, full_text(target.rules[best])) >= SIMILAR:
            return best
        return found if at is not None else None

    def timeline(self, source: VersionIndex, number: str) -> list[dict[str, Any]]:
        """One step per ingested version: the rule's number there and what changed since the last one."""
        steps: list[dict[str, Any]] = []
        previous: CRRule | None = None
        for version in self.versions:
            matched = self.match(source, number, version)
            rule = version.rules.get(matched) if matched else None
            step: dict[str, Any] = {
                "version": version.version,
                "date": version.entry.date,
                "number": matched,
                "id": rule.id if rule else None,
            }
            if rule is None:
                step["status"] = "absent"
            elif previous is None:
                step["status"] = "first"
            else:
                old, new = full_text(previous), full_text(rule)
                step["status"] = "same" if old == new else "changed"
                if previous.number != rule.number:
                    step["renumbered_from"] = previous.number
                if old != new:
                    step["diff"] = word_diff(old, new)
            steps.append(step)
            previous = rule or previous
        return steps

    def era(self, kb: KnowledgeBase, document_id: str) -> VersionIndex | None:
        """The CR version a document's rulings were written under (see the module docstring)."""
        if document_id not in self._eras:
            self._eras[document_id] = self._era(kb, document_id)
        found = self._eras[document_id]
        return self.by_version[found] if found else None

    def _era(self, kb: KnowledgeBase, document_id: str) -> str | None:
        document = kb.get(document_id)
        if not isinstance(document, Document) or not self.versions:
            return None
        mechanics = {
            s.mechanic_en
            for s in kb.sections
            if s.document_id == document_id and s.mechanic_en and s.kind in MECHANIC_KINDS
        }

        def knows_all(version: VersionIndex) -> bool:
            return all(version.knows(m) for m in mechanics)

        if document.date is None:
            return next((v.version for v in self.versions if knows_all(v)), None)
        day = date.fromisoformat(document.date)
        in_force = [v for v in self.versions if date.fromisoformat(v.entry.date) <= day]
        if in_force and knows_all(in_force[-1]):
            return in_force[-1].version
        soon = [v for v in self.versions if day < date.fromisoformat(v.entry.date) <= day + ERA_GRACE]
        later = next((v for v in soon if knows_all(v)), None)
        if later is not None:
            return later.version
        return in_force[-1].version if in_force else None

    def find(self, number: str) -> VersionIndex | None:
        """The newest version that has a rule with this number."""
        return next((v for v in reversed(self.versions) if number in v.rules), None)


def _ratio(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a.split(), b.split(), autojunk=False).ratio()


def link_excerpts(kb: KnowledgeBase) -> KnowledgeBase:
    """Give each document rule excerpt its era's CR rule and today's number (None without CR versions)."""
    from kb.store import KnowledgeBase as KB

    history = RulesHistory.of(kb)
    newest = history.newest
    entries: list[Entry] = []
    for entry in kb.entries:
        if isinstance(entry, Rule):
            era = history.era(kb, entry.document_id)
            cr_rule = era.rules.get(entry.number) if era else None
            today = history.match(era, entry.number, newest) if era and cr_rule and newest else None
            entry = replace(entry, cr_rule=cr_rule.id if cr_rule else None, cr_today=today)
        entries.append(entry)
    return KB(
        entries=entries,
        fingerprint=kb.fingerprint,
        summaries=kb.summaries,
        warnings=kb.warnings,
        rules_versions=kb.rules_versions,
    )


def citations(kb: KnowledgeBase, history: RulesHistory, steps: list[dict[str, Any]]) -> dict[str, list[str]]:
    """The documents' rule excerpts and rulings that cite the rule, each under its document's era number.

    A heading (``702.78``) is also cited by whatever cites its subrules (``502.78a``).
    """
    by_version = {step["version"]: step["number"] for step in steps if step["number"]}
    excerpts: list[str] = []
    rulings: list[str] = []

    def cites(number: str, wanted: str) -> bool:
        return number == wanted or ("." in wanted and wanted[-1].isdigit() and parent(number) == wanted)

    for entry in kb.entries:
        if not isinstance(entry, Rule | Ruling):
            continue
        era = history.era(kb, entry.document_id)
        wanted = by_version.get(era.version) if era else None
        if wanted is None:
            continue
        if isinstance(entry, Rule) and cites(entry.number, wanted):
            excerpts.append(entry.id)
        elif isinstance(entry, Ruling) and any(cites(n, wanted) for n in entry.rules_cited):
            rulings.append(entry.id)
    return {"rules": excerpts, "rulings": rulings}

