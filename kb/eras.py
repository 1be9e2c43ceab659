"""Rules eras: which rules a ruling is played under, and whether it still holds under today's.

A ruling is proven under the rules in force on its document's date (the document's era), then played again
under today's rules: the same outcome makes it ``current``, a different one ``obsolete``, and the rules
change to blame is found by playing the era's rules with one changed rule at a time set to today's. Old
wording (terms and rule numbers since renamed) makes a current ruling ``terms``. Nothing here is a
hand-written list of rulings: each status comes from playing the scenarios.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

from kb import rules_timeline
from rules_engine.options import RulesOptions

TODAY = RulesOptions()  # the engine's defaults are today's Comprehensive Rules
CURRENCY = ("current", "obsolete", "terms", "unjudged")
Timeline = rules_timeline.Timeline
Change = rules_timeline.RulesChange


def options_for(timeline: Timeline, date: str | None) -> RulesOptions:
    """The rules in force on a document's date (today's when the document has none)."""
    return TODAY if date is None else timeline.options_for(date)


def differing_options(era: RulesOptions, today: RulesOptions = TODAY) -> list[str]:
    return [f.name for f in fields(RulesOptions) if getattr(era, f.name) != getattr(today, f.name)]


def blame(era: RulesOptions, passes: Callable[[RulesOptions], bool]) -> list[str]:
    """The options whose change alone, from the era's rules to today's, changes the outcome. When no single
    change does it (two changes only together), all the changed options share the blame."""
    changed = differing_options(era)
    alone = [name for name in changed if not passes(replace(era, **{name: getattr(TODAY, name)}))]
    return alone or changed


def _since(change: Change) -> str:
    return change.effective.isoformat() if change.effective else change.latest.isoformat()


@dataclass
class Currency:
    """Whether a ruling still holds today, and why (the changes, with their dates and today's rules)."""

    status: str  # one of CURRENCY
    changes: list[Change] = field(default_factory=list)
    why: str = ""

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"status": self.status, "label_ru": self.label_ru}
        if self.changes:
            out["changes"] = [
                {
                    "id": c.id,
                    "effective": c.effective.isoformat() if c.effective else None,
                    "between": list(c.between) if c.between else None,
                    "release": c.release,
                    "summary_ru": c.summary_ru,
                    "summary_en": c.summary_en,
                    "rules_now": [r.number for r in c.rules_now],
                }
                for c in self.changes
            ]
        if self.why:
            out["why"] = self.why
        if self.explanation_ru:
            out["explanation_ru"] = self.explanation_ru
        return out

    @property
    def since(self) -> str:
        return min((_since(c) for c in self.changes), default="")

    @property
    def label_ru(self) -> str:
        """The badge a reader sees: «актуально», «устарело с 2018», «термины устарели»."""
        if self.status == "current":
            return "актуально"
        if self.status == "obsolete":
            return f"устарело с {self.since[:4]}" if self.since else "устарело"
        if self.status == "terms":
            return "термины устарели"
        return "не оценено"

    @property
    def explanation_ru(self) -> str:
        """One line on what changed: the changes' own summaries, or why it can't be judged."""
        if self.changes:
            return "; ".join(f"{c.release or _since(c)}: {c.summary_ru}" for c in self.changes)
        return self.why


def judge(
    ruling_id: str,
    era: RulesOptions,
    era_passed: bool,
    today_passed: bool,
    passes: Callable[[RulesOptions], bool],
    timeline: Timeline,
    text: str,
    date: str | None,
) -> Currency:
    """The currency of one ruling from its two plays; ``passes`` replays it under other rules."""
    if not era_passed:
        return Currency("unjudged", why="не доказано по правилам своей эпохи")
    if date is not None:
        unplayable = [c for c in timeline.unmodelled_for(date) if ruling_id in c.touches]
        if unplayable:  # the outcome may hang on an old rule the engine can't play yet
            return Currency("unjudged", unplayable, why="старое правило этой эпохи движок пока не моделирует")
    if not today_passed:
        blamed = set(blame(era, passes))
        return Currency("obsolete", [c for c in timeline.changes if c.modelled and c.option in blamed])
    if date is not None:
        worded = [
            c
            for c in timeline.changes
            if c.kind == "terms"
            and timeline.old_rule_in_force(c, date) is not False
            and (
                rules_timeline.seed_matches(c, [(ruling_id, text)])
                # a renumbering has no words to find: the timeline lists what it touches, checked against the CR
                or (c.seed_pattern is None and ruling_id in c.touches)
            )
        ]
        if worded:
            return Currency("terms", worded)
    return Currency("current")


def load_timeline(path: Path) -> Timeline:
    """``data/rules/timeline.yaml`` (format in ``docs/rules-eras.md``)."""
    return rules_timeline.load(path)


EraError = rules_timeline.TimelineError
