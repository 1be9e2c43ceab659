"""The dated timeline of Comprehensive Rules changes (``data/rules/timeline.yaml``) and rules eras.

A document's date selects the rules in force when it was written: every modelled behaviour change that took
effect after that date turns its old-behaviour engine option on (``options_for``). The file is loaded
strictly, because a wrong date or option silently changes what a proof proves: any unknown key, malformed
date, unknown engine option or ill-formed ID is a one-line ``file:line`` error. Format: docs/rules-eras.md.

Only ``rules_engine.options`` is imported from the engine, and nothing from ``ingest``: this module is data.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from kb import paths
from rules_engine.options import RulesOptions

FORMAT = "mtg-rules-timeline"
KINDS = ("behaviour", "terms")

_SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_CR_FILE_RE = re.compile(r"^cr-(\d{4})(\d{2})(\d{2})\.txt$")
_ISO_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_RULE_REF_RE = re.compile(r"^(\d{3}(?:\.\d+[a-z]?)?)(?:\s+(\S.*))?$")
_OPTION_RE = re.compile(r"^[a-z][a-z0-9_]*$")
_DOC_RE = re.compile(r"^[a-z0-9]+$")
# Entry IDs of the knowledge base (README "Entries and IDs"): rulings and notes, rule excerpts.
_RULING_ID_RE = re.compile(r"^[a-z0-9]+/[a-z0-9]+(?:-[a-z0-9]+)*/(?:\d+|note-\d+)$")
_RULE_ID_RE = re.compile(r"^[a-z0-9]+/rule/\d{3}(?:\.\d+[a-z]?)?/(?:ru|en)$")

_TOP_KEYS = {"format", "version", "current", "changes"}
_REQUIRED = (
    "id", "effective", "date_certain", "release", "kind", "sources", "rules_before", "rules_after",
    "rules_now", "summary_ru", "summary_en", "option", "touches",
)  # fmt: skip
_OPTIONAL = (
    "between", "modelled", "follows", "glossary_now", "terms", "seed_documents", "seed_pattern", "seed_exclude",
)  # fmt: skip
_TERM_KEYS = ("old_en", "new_en", "old_ru", "new_ru")


class TimelineError(Exception):
    """A malformed timeline file; the message is one line naming ``file:line``."""


@dataclass(frozen=True)
class RuleRef:
    """A rule number in one CR version, with words that must occur in that rule's text there."""

    number: str
    words: str | None

    @property
    def text(self) -> str:
        return f"{self.number} {self.words}" if self.words else self.number


@dataclass(frozen=True)
class TermChange:
    """Old wording and its replacement, in English and in the Russian of our documents (null if unknown)."""

    old_en: str | None
    new_en: str | None
    old_ru: str | None
    new_ru: str | None


@dataclass(frozen=True)
class RulesChange:
    """One change of the Comprehensive Rules: when, what it was before and after, and what it touches."""

    id: str
    effective: dt.date | None
    date_certain: bool
    release: str | None
    kind: str
    before: str
    after: str
    between: tuple[str, str] | None
    rules_before: tuple[RuleRef, ...]
    rules_after: tuple[RuleRef, ...]
    rules_now: tuple[RuleRef, ...]
    summary_ru: str
    summary_en: str
    option: str | None
    modelled: bool
    touches: tuple[str, ...]
    follows: str | None = None
    glossary_now: tuple[str, ...] = ()
    terms: tuple[TermChange, ...] = ()
    seed_documents: tuple[str, ...] = ()
    seed_pattern: re.Pattern[str] | None = None
    seed_exclude: re.Pattern[str] | None = None
    line: int = 0

    @property
    def earliest(self) -> dt.date:
        """The first day the new rule may have been in force: its effective date, or the day after the last
        version that still shows the old rule."""
        return self.effective or cr_date(self.before) + dt.timedelta(days=1)

    @property
    def latest(self) -> dt.date:
        """The day by which the new rule was surely in force."""
        return self.effective or cr_date(self.after)


@dataclass(frozen=True)
class Timeline:
    path: Path
    current: str
    changes: tuple[RulesChange, ...] = field(default_factory=tuple)

    def get(self, change_id: str) -> RulesChange:
        for change in self.changes:
            if change.id == change_id:
                return change
        raise KeyError(change_id)

    def old_rule_in_force(self, change: RulesChange, when: dt.date | str) -> bool | None:
        """Whether ``change``'s old rule applied on ``when``; None when the dates we have can't tell."""
        day = as_date(when)
        if change.follows is not None:
            previous = self.get(change.follows)
            started = self.old_rule_in_force(previous, day)
            if started is None:
                return None
            if started:  # the rule this change replaced had not even begun yet
                return False
        if day < change.earliest:
            return True
        if day >= change.latest:
            return False
        return None

    def changes_since(self, when: dt.date | str) -> list[RulesChange]:
        """Changes (both kinds) whose new rule came, or may have come, after ``when``."""
        day = as_date(when)
        return [c for c in self.changes if day < c.latest]

    def unmodelled_for(self, when: dt.date | str) -> list[RulesChange]:
        """Old behaviours the engine can't play yet that applied (or may have applied) on ``when``."""
        return [
            c for c in self.changes
            if c.kind == "behaviour" and not c.modelled and self.old_rule_in_force(c, when) is not False
        ]  # fmt: skip

    def options_for(self, when: dt.date | str) -> RulesOptions:
        """The engine options of the rules in force on ``when``: each modelled old behaviour still in force."""
        flags = {
            c.option: True
            for c in self.changes
            if c.kind == "behaviour" and c.modelled and c.option and self.old_rule_in_force(c, when)
        }
        return RulesOptions.from_mapping(flags)


def default_path() -> Path:
    return paths.data_dir() / "rules" / "timeline.yaml"


@lru_cache(maxsize=4)
def _load_cached(path: Path, mtime_ns: int) -> Timeline:
    return load(path)


def options_for(when: dt.date | str, path: Path | None = None) -> RulesOptions:
    """The rules options in force on ``when`` according to the bundled (or given) timeline."""
    target = path or default_path()
    return _load_cached(target, target.stat().st_mtime_ns).options_for(when)


def as_date(value: dt.date | str) -> dt.date:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str) and _ISO_DATE_RE.match(value):
        return dt.date.fromisoformat(value)
    raise ValueError(f"not an ISO date (YYYY-MM-DD): {value!r}")


def cr_date(file_name: str) -> dt.date:
    """The date in a CR file name such as ``cr-20090711.txt``."""
    match = _CR_FILE_RE.match(file_name)
    if not match:
        raise ValueError(f"not a CR file name (cr-YYYYMMDD.txt): {file_name!r}")
    return dt.date(int(match[1]), int(match[2]), int(match[3]))


def seed_matches(change: RulesChange, entries: Iterable[tuple[str, str]]) -> list[str]:
    """IDs of ``(id, text)`` entries of the change's seed documents whose text has its old wording."""
    if change.seed_pattern is None:
        return []
    found = []
    for entry_id, text in entries:
        if entry_id.split("/", 1)[0] not in change.seed_documents:
            continue
        if change.seed_exclude is not None:
            text = change.seed_exclude.sub(" ", text)
        if change.seed_pattern.search(text):
            found.append(entry_id)
    return found


# --------------------------------------------------------------------------------------------- loading


def load(path: Path | None = None) -> Timeline:
    """Read and validate a timeline file; raise ``TimelineError`` ("file:line: problem") on any fault."""
    path = path or default_path()
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TimelineError(f"{path}:1: cannot read: {exc}") from None
    return _Parser(path, text).timeline()


class _Parser:
    """Walks the YAML node tree so every problem can name the line it is on."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.text = text

    def fail(self, node: yaml.Node | int, message: str) -> TimelineError:
        line = node if isinstance(node, int) else node.start_mark.line + 1
        return TimelineError(f"{self.path}:{line}: {message}")

    def timeline(self) -> Timeline:
        loader = yaml.SafeLoader(self.text)
        try:
            root = loader.get_single_node()
            if root is None:
                raise self.fail(1, "empty timeline file")
            top = self.mapping(root, "the file", loader)
            unknown = sorted(set(top) - _TOP_KEYS)
            if unknown:
                raise self.fail(
                    top[unknown[0]][0], f"unknown key {unknown[0]!r}; known: {', '.join(sorted(_TOP_KEYS))}"
                )
            for key in sorted(_TOP_KEYS):
                if key not in top:
                    raise self.fail(root, f"missing key {key!r}")
            fmt = self.scalar(top["format"][1], loader)
            if fmt != FORMAT:
                raise self.fail(top["format"][1], f"format must be {FORMAT!r}, not {fmt!r}")
            if self.scalar(top["version"][1], loader) != 1:
                raise self.fail(top["version"][1], "only version 1 is known")
            current = self.cr_file(top["current"][1], loader, "current")
            changes_node = top["changes"][1]
            if not isinstance(changes_node, yaml.SequenceNode):
                raise self.fail(changes_node, "changes must be a list")
            changes: list[RulesChange] = []
            for item in changes_node.value:
                changes.append(self.change(item, loader, changes))
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            line = mark.line + 1 if mark else 1
            raise TimelineError(f"{self.path}:{line}: YAML error: {exc.problem or exc}") from None
        finally:
            loader.dispose()
        return Timeline(self.path, current, tuple(changes))

    # -- node helpers

    def mapping(self, node: yaml.Node, what: str, loader: yaml.SafeLoader) -> dict[str, tuple[int, yaml.Node]]:
        if not isinstance(node, yaml.MappingNode):
            raise self.fail(node, f"{what} must be a mapping")
        out: dict[str, tuple[int, yaml.Node]] = {}
        for key_node, value_node in node.value:
            key = self.scalar(key_node, loader)
            if not isinstance(key, str):
                raise self.fail(key_node, f"key {key!r} in {what} must be a string")
            if key in out:
                raise self.fail(key_node, f"duplicate key {key!r} in {what}")
            out[key] = (key_node.start_mark.line + 1, value_node)
        return out

    def scalar(self, node: yaml.Node, loader: yaml.SafeLoader) -> Any:
        if not isinstance(node, yaml.ScalarNode):
            raise self.fail(node, "expected a single value, not a list or mapping")
        return loader.construct_object(node)

    def string(self, node: yaml.Node, loader: yaml.SafeLoader, what: str, *, null: bool = False) -> str | None:
        value = self.scalar(node, loader)
        if value is None and null:
            return None
        if not isinstance(value, str) or not value.strip():
            raise self.fail(node, f"{what} must be a non-empty string")
        if "\n" in value:
            raise self.fail(node, f"{what} must be one line")
        return value

    def strings(self, node: yaml.Node, loader: yaml.SafeLoader, what: str) -> list[tuple[yaml.Node, str]]:
        if not isinstance(node, yaml.SequenceNode):
            raise self.fail(node, f"{what} must be a list")
        out = []
        for item in node.value:
            value = self.string(item, loader, f"an item of {what}")
            assert value is not None
            out.append((item, value))
        return out

    def boolean(self, node: yaml.Node, loader: yaml.SafeLoader, what: str) -> bool:
        value = self.scalar(node, loader)
        if not isinstance(value, bool):
            raise self.fail(node, f"{what} must be true or false")
        return value

    def cr_file(self, node: yaml.Node, loader: yaml.SafeLoader, what: str) -> str:
        value = self.string(node, loader, what)
        assert value is not None
        try:
            cr_date(value)
        except ValueError:
            raise self.fail(node, f"{what} must name a CR file like cr-20090711.txt, not {value!r}") from None
        return value

    def date(self, node: yaml.Node, loader: yaml.SafeLoader) -> dt.date | None:
        value = self.scalar(node, loader)
        if value is None:
            return None
        if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
            return value
        if isinstance(value, str) and _ISO_DATE_RE.match(value):
            try:
                return dt.date.fromisoformat(value)
            except ValueError:
                pass
        raise self.fail(node, f"effective must be an ISO date (YYYY-MM-DD) or null, not {value!r}")

    def regex(self, node: yaml.Node, loader: yaml.SafeLoader, what: str) -> re.Pattern[str]:
        value = self.string(node, loader, what)
        assert value is not None
        try:
            return re.compile(value, re.IGNORECASE)
        except re.error as exc:
            raise self.fail(node, f"{what} is not a valid regular expression: {exc}") from None

    # -- one change

    def change(self, node: yaml.Node, loader: yaml.SafeLoader, earlier: list[RulesChange]) -> RulesChange:
        entry = self.mapping(node, "a change", loader)
        for key, (line, _value) in entry.items():
            if key not in _REQUIRED and key not in _OPTIONAL:
                raise self.fail(line, f"unknown key {key!r} in a change; known: {', '.join(_REQUIRED + _OPTIONAL)}")
        for key in _REQUIRED:
            if key not in entry:
                raise self.fail(node, f"missing key {key!r} in a change")

        def value(key: str) -> yaml.Node:
            return entry[key][1]

        change_id = self.string(value("id"), loader, "id")
        assert change_id is not None
        if not _SLUG_RE.match(change_id):
            raise self.fail(value("id"), f"id must be a slug (lower-case words joined by '-'), not {change_id!r}")
        if any(c.id == change_id for c in earlier):
            raise self.fail(value("id"), f"duplicate change id {change_id!r}")

        kind = self.string(value("kind"), loader, "kind")
        if kind not in KINDS:
            raise self.fail(value("kind"), f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
        effective = self.date(value("effective"), loader)
        date_certain = self.boolean(value("date_certain"), loader, "date_certain")
        release = self.string(value("release"), loader, "release", null=True)
        if effective is None and date_certain:
            raise self.fail(value("date_certain"), "a change without an effective date can't have date_certain: true")
        if release is None and date_certain:
            raise self.fail(value("release"), "a change with a certain date must name its release")

        sources = self.mapping(value("sources"), "sources", loader)
        if set(sources) != {"before", "after"}:
            raise self.fail(value("sources"), "sources must have exactly the keys before and after")
        before = self.cr_file(sources["before"][1], loader, "sources.before")
        after = self.cr_file(sources["after"][1], loader, "sources.after")
        if cr_date(before) >= cr_date(after):
            raise self.fail(value("sources"), f"sources.before ({before}) must be older than sources.after ({after})")

        last = next((c for c in reversed(earlier) if c.effective is not None), None)
        if effective is not None and last is not None and last.effective is not None and effective < last.effective:
            raise self.fail(
                value("effective"), f"changes are in date order: {effective} comes before {last.id} ({last.effective})"
            )

        between: tuple[str, str] | None = None
        if "between" in entry:
            items = self.strings(value("between"), loader, "between")
            if [v for _n, v in items] != [before, after]:
                raise self.fail(value("between"), f"between must be [{before}, {after}] (the sources)")
            between = (before, after)
            if effective is not None and not cr_date(before) < effective < cr_date(after):
                raise self.fail(value("effective"), f"effective {effective} is not between {before} and {after}")
        elif effective is None:
            raise self.fail(value("effective"), "a change without an effective date must say between which versions")
        elif effective != cr_date(after):
            raise self.fail(
                value("effective"),
                f"effective {effective} is not the date of {after}; add between: [{before}, {after}]",
            )

        refs = {key: self.rule_refs(value(key), loader, key) for key in ("rules_before", "rules_after", "rules_now")}
        glossary = (
            tuple(v for _n, v in self.strings(value("glossary_now"), loader, "glossary_now"))
            if ("glossary_now" in entry)
            else ()
        )
        summary_ru = self.string(value("summary_ru"), loader, "summary_ru")
        summary_en = self.string(value("summary_en"), loader, "summary_en")
        assert summary_ru is not None and summary_en is not None
        if not re.search(r"[А-Яа-яЁё]", summary_ru):
            raise self.fail(value("summary_ru"), "summary_ru must be in Russian")

        option, modelled = self.option(entry, kind, effective, loader)
        follows = self.follows(entry, kind, effective, earlier, loader)
        touches = self.touches(value("touches"), loader)
        terms = self.terms(entry, kind, loader)
        seed_documents, seed_pattern, seed_exclude = self.seed(entry, loader)

        return RulesChange(
            id=change_id, effective=effective, date_certain=date_certain, release=release, kind=kind,
            before=before, after=after, between=between,
            rules_before=refs["rules_before"], rules_after=refs["rules_after"], rules_now=refs["rules_now"],
            summary_ru=summary_ru, summary_en=summary_en, option=option, modelled=modelled, touches=touches,
            follows=follows, glossary_now=glossary, terms=terms, seed_documents=seed_documents,
            seed_pattern=seed_pattern, seed_exclude=seed_exclude, line=node.start_mark.line + 1,
        )  # fmt: skip

    def rule_refs(self, node: yaml.Node, loader: yaml.SafeLoader, what: str) -> tuple[RuleRef, ...]:
        out = []
        for item, text in self.strings(node, loader, what):
            match = _RULE_REF_RE.match(text.strip())
            if not match:
                raise self.fail(
                    item, f"{what}: {text!r} is not a rule number (like 702.78 or 704.5j) with optional words"
                )
            out.append(RuleRef(match[1], match[2]))
        return tuple(out)

    def option(
        self, entry: dict[str, tuple[int, yaml.Node]], kind: str, effective: dt.date | None, loader: yaml.SafeLoader
    ) -> tuple[str | None, bool]:
        node = entry["option"][1]
        option = self.string(node, loader, "option", null=True)
        known = {f.name for f in fields(RulesOptions)}
        if kind == "terms":
            if option is not None or "modelled" in entry:
                raise self.fail(node, "a terms change has option: null and no modelled flag")
            return None, False
        if option is None or not _OPTION_RE.match(option):
            raise self.fail(node, f"a behaviour change needs an option name (snake_case), not {option!r}")
        if "modelled" not in entry:
            raise self.fail(node, "a behaviour change must say modelled: true or false")
        modelled = self.boolean(entry["modelled"][1], loader, "modelled")
        if modelled and option not in known:
            raise self.fail(
                node, f"option {option!r} is not a RulesOptions field ({', '.join(sorted(known))}); "
                "mark it modelled: false until the engine implements it",
            )  # fmt: skip
        if not modelled and option in known:
            raise self.fail(entry["modelled"][1], f"option {option!r} is implemented by the engine: modelled: true")
        if modelled and effective is None:
            raise self.fail(entry["effective"][1], "a modelled change needs an effective date to select eras")
        return option, modelled

    def follows(
        self,
        entry: dict[str, tuple[int, yaml.Node]],
        kind: str,
        effective: dt.date | None,
        earlier: list[RulesChange],
        loader: yaml.SafeLoader,
    ) -> str | None:
        if "follows" not in entry:
            return None
        node = entry["follows"][1]
        target = self.string(node, loader, "follows")
        previous = next((c for c in earlier if c.id == target), None)
        if previous is None:
            raise self.fail(node, f"follows {target!r}: no earlier change has that id")
        if kind != "behaviour" or previous.kind != "behaviour":
            raise self.fail(node, "follows links two behaviour changes")
        if effective is not None and previous.latest > effective:
            raise self.fail(node, f"follows {target!r}, which took effect later ({previous.latest})")
        return target

    def touches(self, node: yaml.Node, loader: yaml.SafeLoader) -> tuple[str, ...]:
        seen: list[str] = []
        for item, entry_id in self.strings(node, loader, "touches"):
            if not (_RULING_ID_RE.match(entry_id) or _RULE_ID_RE.match(entry_id)):
                raise self.fail(
                    item, f"touches: {entry_id!r} is not a ruling, note or rule ID (like lrw/planeswalker/12)"
                )
            if entry_id in seen:
                raise self.fail(item, f"touches: {entry_id!r} is listed twice")
            seen.append(entry_id)
        return tuple(seen)

    def terms(
        self, entry: dict[str, tuple[int, yaml.Node]], kind: str, loader: yaml.SafeLoader
    ) -> tuple[TermChange, ...]:
        if "terms" not in entry:
            return ()
        node = entry["terms"][1]
        if kind != "terms":
            raise self.fail(node, "only a terms change lists terms")
        if not isinstance(node, yaml.SequenceNode):
            raise self.fail(node, "terms must be a list")
        out = []
        for item in node.value:
            pair = self.mapping(item, "a term", loader)
            unknown = sorted(set(pair) - set(_TERM_KEYS))
            if unknown:
                raise self.fail(
                    pair[unknown[0]][0], f"unknown key {unknown[0]!r} in a term; known: {', '.join(_TERM_KEYS)}"
                )
            values = {k: self.string(pair[k][1], loader, k, null=True) if k in pair else None for k in _TERM_KEYS}
            if values["old_en"] is None and values["old_ru"] is None:
                raise self.fail(item, "a term needs old_en or old_ru")
            out.append(TermChange(**values))
        return tuple(out)

    def seed(
        self, entry: dict[str, tuple[int, yaml.Node]], loader: yaml.SafeLoader
    ) -> tuple[tuple[str, ...], re.Pattern[str] | None, re.Pattern[str] | None]:
        documents: tuple[str, ...] = ()
        if "seed_documents" in entry:
            items = self.strings(entry["seed_documents"][1], loader, "seed_documents")
            for item, doc in items:
                if not _DOC_RE.match(doc):
                    raise self.fail(item, f"seed_documents: {doc!r} is not a document ID")
            documents = tuple(doc for _n, doc in items)
        pattern = self.regex(entry["seed_pattern"][1], loader, "seed_pattern") if "seed_pattern" in entry else None
        exclude = self.regex(entry["seed_exclude"][1], loader, "seed_exclude") if "seed_exclude" in entry else None
        if (pattern is None) != (not documents):
            line = entry.get("seed_pattern", entry.get("seed_documents"))
            assert line is not None
            raise self.fail(line[0], "seed_pattern and seed_documents go together")
        if exclude is not None and pattern is None:
            raise self.fail(entry["seed_exclude"][0], "seed_exclude needs a seed_pattern")
        return documents, pattern, exclude
