"""Rules eras: which rules a ruling is played under, and whether it still holds under today's.

A ruling is proven under the rules in force on its document's date (the document's era), then played again
under today's rules: the same outcome makes it ``current``, a different one ``obsolete``, and the rules
change to blame is found by playing the era's rules with one changed rule at a time set to today's. Old
wording (terms and rule numbers since renamed) makes a current ruling ``terms``. Nothing here is a
hand-written list of rulings: each status comes from playing the scenarios.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

from rules_engine.options import RulesOptions

TODAY = RulesOptions()  # the engine's defaults are today's Comprehensive Rules
CURRENCY = ("current", "obsolete", "terms", "unjudged")


@dataclass(frozen=True)
class Change:
    """One dated rules change the engine can play both ways (``option`` models the old rule), or a change of
    wording only (``patterns`` find the old words in a ruling's text)."""

    id: str
    effective: str
    summary_ru: str
    option: str | None = None
    rules_after: tuple[str, ...] = ()
    patterns: tuple[re.Pattern[str], ...] = ()


@dataclass
class Timeline:
    changes: list[Change] = field(default_factory=list)

    def options_for(self, date: str | None) -> RulesOptions:
        """The rules in force on ``date``: each modelled change that took effect later is still the old rule."""
        if date is None:
            return TODAY
        old = {c.option: True for c in self.changes if c.option and c.effective > date}
        return replace(TODAY, **old)

    def by_option(self, option: str) -> list[Change]:
        return [c for c in self.changes if c.option == option]

    def old_terms(self, text: str, date: str | None) -> list[Change]:
        """Wording changes made after ``date`` whose old words the text still uses."""
        return [
            c
            for c in self.changes
            if c.patterns and (date is None or c.effective > date) and any(p.search(text) for p in c.patterns)
        ]


def differing_options(era: RulesOptions, today: RulesOptions = TODAY) -> list[str]:
    return [f.name for f in fields(RulesOptions) if getattr(era, f.name) != getattr(today, f.name)]


def blame(era: RulesOptions, passes: Callable[[RulesOptions], bool]) -> list[str]:
    """The options whose change alone, from the era's rules to today's, changes the outcome. When no single
    change does it (two changes only together), all the changed options share the blame."""
    changed = differing_options(era)
    alone = [name for name in changed if not passes(replace(era, **{name: getattr(TODAY, name)}))]
    return alone or changed


@dataclass
class Currency:
    """Whether a ruling still holds today, and why (the changes, with their dates and today's rules)."""

    status: str  # one of CURRENCY
    changes: list[Change] = field(default_factory=list)
    why: str = ""

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"status": self.status}
        if self.changes:
            out["changes"] = [
                {"id": c.id, "effective": c.effective, "summary_ru": c.summary_ru, "rules_now": list(c.rules_after)}
                for c in self.changes
            ]
        if self.why:
            out["why"] = self.why
        return out

    @property
    def label_ru(self) -> str:
        """The badge a reader sees: «актуально», «устарело с 2018: …», «термины устарели»."""
        if self.status == "current":
            return "актуально"
        if self.status == "obsolete":
            first = min((c.effective for c in self.changes), default="")
            what = "; ".join(c.summary_ru for c in self.changes)
            return f"устарело с {first[:4]}: {what}" if first else "устарело"
        if self.status == "terms":
            return "термины устарели: " + "; ".join(c.summary_ru for c in self.changes)
        return "не оценено: " + self.why if self.why else "не оценено"


def judge(
    era: RulesOptions,
    era_passed: bool,
    today_passed: bool,
    passes: Callable[[RulesOptions], bool],
    timeline: Timeline,
    text: str,
    date: str | None,
) -> Currency:
    """The currency of one proven ruling from its two plays; ``passes`` replays it under other rules."""
    if not era_passed:
        return Currency("unjudged", why="не доказано по правилам своей эпохи")
    if not today_passed:
        options = blame(era, passes)
        changes = [c for name in options for c in timeline.by_option(name)]
        return Currency("obsolete", changes)
    worded = timeline.old_terms(text, date)
    if worded:
        return Currency("terms", worded)
    return Currency("current")


def eras_of(ruling_ids: Iterable[str], dates: dict[str, str | None], timeline: Timeline) -> dict[str, RulesOptions]:
    """The rules options of each ruling's document (the first part of its ID)."""
    return {rid: timeline.options_for(dates.get(rid.split("/", 1)[0])) for rid in ruling_ids}


def load_timeline(path: Path) -> Timeline:
    """``data/rules/timeline.yaml``: the dated rules changes (format in ``docs/rules-eras.md``)."""
    from rules_engine.yamlload import load_yaml

    if not path.exists():
        raise EraError(f"{path}:1: the timeline of rules changes is missing")
    data = load_yaml(path) or {}
    items = data.get("changes", []) if isinstance(data, dict) else data
    known = {f.name for f in fields(RulesOptions)}
    changes = []
    for item in items:
        where = f"{path}:{getattr(item, 'line', 1)}"
        if not isinstance(item, dict) or "id" not in item or "effective" not in item:
            raise EraError(f"{where}: a change needs at least id and effective (ISO date)")
        option = item.get("option") if item.get("modelled", True) else None
        if option is not None and option not in known:
            raise EraError(f"{where}: unknown rules option {option!r}; known: {', '.join(sorted(known))}")
        after = item.get("rules_after") or []
        changes.append(
            Change(
                id=str(item["id"]),
                effective=str(item["effective"]),
                summary_ru=str(item.get("summary_ru", "")),
                option=option,
                rules_after=tuple(str(r) for r in (after if isinstance(after, list) else [after])),
                patterns=tuple(re.compile(p, re.IGNORECASE) for p in item.get("old_terms_ru") or []),
            )
        )
    return Timeline(sorted(changes, key=lambda c: c.effective))


class EraError(Exception):
    """The timeline file is malformed; the message names file:line."""
