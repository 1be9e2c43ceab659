"""The one place where the export meets verification: per-ruling verdicts and their proofs.

``kb.verify`` is written in parallel with the export, so this adapter reads it defensively: when the
module is missing, or has no verdict for a ruling, the ruling is shown as "not linked" (не связано со
сценарием). Everything the templates need is copied into plain frozen dataclasses here, so a change in
the verification API touches this module only.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kb import paths
from kb.export import scenario_text
from kb.store import KnowledgeBase
from rules_engine.teams import scenario_players

STATUSES = ("verified", "failing", "unlinked", "not_simulable")
STATUS_LABELS = {
    "verified": "проверено",
    "failing": "не проходит",
    "unlinked": "не связано со сценарием",
    "not_simulable": "не моделируется",
}


@dataclass(frozen=True)
class ScenarioProof:
    """One scenario played for a ruling: what was set up, done and expected, and the engine's log."""

    id: str
    title: str
    passed: bool | None
    setup: tuple[str, ...] = ()
    actions: tuple[str, ...] = ()
    expectations: tuple[str, ...] = ()
    log: tuple[str, ...] = ()
    failures: tuple[str, ...] = ()
    source: str = ""
    cards: tuple[str, ...] = ()  # the cards of the proof: name, cost, type line, text (the CLI's lines)
    checked: tuple[CheckLine, ...] = ()  # every check made, with expected and actual values


@dataclass(frozen=True)
class CheckLine:
    """One check of a scenario as the site shows it (the same words as ``kb verify``)."""

    description: str
    expected: str
    actual: str
    passed: bool


@dataclass(frozen=True)
class Change:
    """A rules change a ruling's currency rests on, as the site tells it."""

    release: str
    since: str  # ISO date, or the CR version by which it was in force
    summary: str
    rules_now: tuple[str, ...] = ()


@dataclass(frozen=True)
class Verdict:
    status: str  # one of STATUSES
    reason: str = ""
    scenarios: tuple[ScenarioProof, ...] = ()
    era: str = ""  # the date whose rules the proof was played under
    currency: str = ""  # current | obsolete | terms | unjudged ("" when unknown)
    currency_label: str = ""  # «актуально», «устарело с 2018», «термины устарели», «не оценено»
    currency_why: str = ""  # what changed, or why it can't be judged
    changes: tuple[Change, ...] = ()
    today: tuple[ScenarioProof, ...] = ()  # the same scenarios under today's rules (shown when obsolete)
    confirmed: bool = False  # phase.rs, an independent engine, agrees on every scenario (kb.second_opinion)

    @property
    def label(self) -> str:
        return STATUS_LABELS.get(self.status, self.status)


UNLINKED = Verdict("unlinked")


@dataclass
class Proofs:
    """Verdicts by ruling ID, plus what went wrong while asking for them (shown in the export report)."""

    verdicts: dict[str, Verdict]
    source: str  # "kb.verify" or "none"
    warnings: list[str]

    def of(self, ruling_id: str) -> Verdict:
        return self.verdicts.get(ruling_id, UNLINKED)

    def coverage(self, ruling_ids: Iterable[str]) -> dict[str, int]:
        counts = dict.fromkeys(STATUSES, 0)
        for ruling_id in ruling_ids:
            counts[self.of(ruling_id).status] += 1
        return counts


def _lines(value: Any) -> tuple[str, ...]:
    """Scenario parts may come as strings, lists of strings or lists of mappings: make them lines."""
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(line for line in value.splitlines() if line.strip())
    if isinstance(value, Mapping):
        return tuple(f"{key}: {_flat(val)}" for key, val in value.items())
    if isinstance(value, Iterable):
        return tuple(_flat(item) for item in value)
    return (str(value),)


def _flat(value: Any) -> str:
    if isinstance(value, Mapping):
        return ", ".join(f"{key}: {_flat(val)}" for key, val in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_flat(item) for item in value)
    return str(value)


def _get(obj: Any, *names: str) -> Any:
    for name in names:
        if isinstance(obj, Mapping) and name in obj:
            return obj[name]
        if hasattr(obj, name):
            return getattr(obj, name)
    return None


def scenario_proof(raw: Any) -> ScenarioProof:
    """Copy one scenario report (an object or a mapping) into a ``ScenarioProof``."""
    passed = _get(raw, "passed", "ok")
    return ScenarioProof(
        id=str(_get(raw, "id", "scenario_id") or ""),
        title=str(_get(raw, "title") or ""),
        passed=None if passed is None else bool(passed),
        setup=_lines(_get(raw, "setup", "setup_text", "setup_ru")),
        actions=_lines(_get(raw, "actions", "actions_text", "actions_ru")),
        expectations=_lines(_get(raw, "expectations", "expect", "expectations_ru")),
        log=_lines(_get(raw, "log", "game_log")),
        failures=_lines(_get(raw, "failures")),
        source=str(_get(raw, "source", "where", "path") or ""),
    )


def verdict_from(raw: Any) -> Verdict:
    status = str(_get(raw, "status", "verdict") or "unlinked").lower().replace(" ", "_").replace("-", "_")
    if status not in STATUSES:
        status = {"pass": "verified", "passed": "verified", "fail": "failing", "failed": "failing"}.get(
            status, "unlinked"
        )
    scenarios = _get(raw, "scenarios", "results") or ()
    return Verdict(
        status=status,
        reason=str(_get(raw, "reason") or ""),
        scenarios=tuple(scenario_proof(item) for item in scenarios),
    )


def collect(kb: KnowledgeBase, data_dir: Path | None = None) -> Proofs:
    """Ask ``kb.verify`` for every ruling's verdict; without it, every ruling is "not linked"."""
    try:
        verify = importlib.import_module("kb.verify")
    except ImportError:
        return Proofs({}, "none", [])
    data_dir = data_dir or paths.data_dir()
    try:
        return Proofs(_from_verify(verify, kb, data_dir), "kb.verify", [])
    except Exception as exc:  # broken scenario data must not take the whole FAQ site down
        message = f"verification unavailable ({type(exc).__name__}: {exc}); rulings shown as not linked"
        return Proofs({}, "none", [message])


def _from_verify(verify: Any, kb: KnowledgeBase, data_dir: Path) -> dict[str, Verdict]:
    """Run the scenarios through ``kb.verify`` and copy each verdict with Russian scenario descriptions."""
    db = verify.card_db(data_dir)
    known = verify.catalog(kb)
    scenarios = verify.collect_scenarios(data_dir, db, known)
    not_simulable = verify.load_not_simulable(data_dir, known)
    ids = [r.id for r in kb.rulings] + [r.id for r in kb.rules]  # rule excerpts are backed by scenarios too
    context = verify.era_context(kb, data_dir) if hasattr(verify, "era_context") else None
    found = verify.verdicts(ids, scenarios, db, not_simulable, context=context)
    if context is not None:  # every verdict of the stored knowledge base: kept for search and ``kb show``
        from kb import verdict_cache

        verdict_cache.record(kb, found, data_dir)
    both: set[str] = set()
    try:
        from kb import second_opinion

        opinions = second_opinion.default_opinions(scenarios, db)
        both = second_opinion.confirmed(found, opinions) if opinions is not None else set()
    except ImportError:
        pass
    base = str(data_dir.resolve().parent) + "/"
    reasons = getattr(verify, "REASONS", {})
    out: dict[str, Verdict] = {}
    for ruling_id, raw in found.items():
        reason = ""
        if raw.reason:
            reason = reasons.get(raw.reason, raw.reason) + (f" — {raw.why}" if raw.why else "")
        currency = getattr(raw, "currency", None)
        obsolete = currency is not None and currency.status == "obsolete"
        out[ruling_id] = Verdict(
            status=raw.status if raw.status in STATUSES else "unlinked",
            reason=reason,
            scenarios=tuple(_scenario(result, db, base) for result in raw.results),
            era=getattr(raw, "era", None) or "",
            currency=currency.status if currency is not None else "",
            currency_label=currency.label_ru if currency is not None else "",
            currency_why=currency.explanation_ru if currency is not None else "",
            changes=tuple(_change(c) for c in currency.changes) if currency is not None else (),
            today=tuple(_scenario(r, db, base) for r in raw.today_results) if obsolete else (),
            confirmed=ruling_id in both,
        )
    return out


def _change(change: Any) -> Change:
    since = change.effective.isoformat() if change.effective else change.latest.isoformat()
    return Change(
        release=change.release or "",
        since=since,
        summary=change.summary_ru,
        rules_now=tuple(r.number for r in change.rules_now),
    )


def _ability_named(cards: Any, wanted: str) -> Any:
    """An ability of the scenario's cards by its name, nested ones too (a copy exception's "except it has ...")."""
    from rules_engine.objects import AbilityDef

    def walk(node: Any) -> Any:
        if isinstance(node, AbilityDef):
            return node if node.name == wanted else walk(node.spec)
        if isinstance(node, dict):
            kinds = [k for k in ("triggered", "activated", "static") if k in node]
            if kinds and node.get("name") == wanted:
                return AbilityDef(kinds[0], wanted, node)
            return next((found for v in node.values() if (found := walk(v)) is not None), None)
        if isinstance(node, list | tuple):
            return next((found for v in node if (found := walk(v)) is not None), None)
        return None

    for card in cards or ():
        found = walk(list(card.abilities))
        if found is not None:
            return found
        if card.back is not None and (found := walk(list(card.back.abilities))) is not None:
            return found
    return None


def _scenario(result: Any, db: Any, base: str) -> ScenarioProof:
    from rules_engine import log as narr

    scenario = result.scenario
    local = db.with_extra(scenario.cards) if hasattr(db, "with_extra") else db
    refs: dict[str, str] = {}  # the setup's refs -> their card names, numbered as the engine's log numbers them
    for who in scenario_players(scenario.setup):
        for zone in ("library", "hand", "graveyard", "exile", "battlefield"):
            for item in (scenario.setup.get(who) or {}).get(zone) or []:
                card_name = str(item.get("card") if isinstance(item, dict) else item)
                refs[str(item.get("ref", card_name)) if isinstance(item, dict) else card_name] = card_name
    numbers = narr.number_refs(refs.items())
    verify = importlib.import_module("kb.verify")
    played = verify.proof_cards(scenario, db) if hasattr(verify, "proof_cards") else []
    tokens = _token_names(played)

    def card(ref: str) -> str | None:
        definition = local.get(refs.get(ref, ref)) if hasattr(local, "get") else None
        if definition is None:
            return f"фишка «{tokens[ref]}»" if ref in tokens else None
        label = f"«{definition.name_ru or definition.name}»"
        return f"{label} №{numbers[ref]}" if ref in numbers else label

    def name(ref: str) -> str:
        head, slash, tail = ref.partition("/")
        copy = head.endswith(" (copy)")  # a copy, or an ability of a copy ("Wall of Omens (copy)/draw")
        if copy:
            head = head[: -len(" (copy)")]
        label = card(head)
        if label is None:
            return ref  # not a card: a counter kind, P/T, a player's choice value
        if copy:
            label = f"{label} (копия)"
        if not slash:
            return label
        definition = local.get(refs.get(head, head))
        ability = next((a for a in definition.abilities if a.name == tail), None) if definition else None
        if ability is None and not tail.isdigit():  # an ability it copied from another card (rule 707.2)
            ability = _ability_named(scenario.cards, tail)
        if ability is None and tail.isdigit() and definition is not None:
            activated = [a for a in definition.abilities if a.kind == "activated"]
            ability = activated[int(tail) - 1] if 0 < int(tail) <= len(activated) else None
        if ability is not None:
            what = f"«{narr.ability_label(ability)}»"
        else:  # an ability the engine adds for a keyword (evoke's sacrifice, persist's return)
            what = f"«{narr.ability(tail)}»" if narr.ability(tail) != tail else ""
        return f"способность {what} объекта {label}".replace("  ", " ")

    def rel(text: str) -> str:
        return text.replace(base, "")

    cards = narr.describe_cards(played)
    checked = tuple(
        CheckLine(c.description, c.expected, c.actual, bool(c.passed)) for c in getattr(result, "checked", ())
    )
    return ScenarioProof(
        id=scenario.id,
        title=scenario.title,
        passed=bool(result.passed),
        setup=tuple(scenario_text.setup_lines(scenario.setup, name)),
        actions=tuple(scenario_text.step_line(step.kind, step.params, name) for step in scenario.steps),
        expectations=tuple(scenario_text.expectation_line(e.kind, e.value, name) for e in scenario.expectations),
        log=tuple(rel(line) for line in result.log),
        failures=tuple(rel(line) for line in result.failures),
        source=rel(str(Path(scenario.path).resolve())) + f":{scenario.line}",
        cards=tuple(cards),
        checked=checked,
    )


def _token_names(definitions: Iterable[Any]) -> dict[str, str]:
    """The tokens the cards of a proof create (``create_token: {ref, token: {name, name_ru}}``): name, ref: name_ru."""
    found: dict[str, str] = {}

    def walk(node: Any) -> None:
        if isinstance(node, Mapping):
            token = node.get("token")
            if isinstance(token, Mapping) and token.get("name"):
                found[str(token["name"])] = str(token.get("name_ru") or token["name"])
                if node.get("ref"):  # the ref a scenario names the created token by
                    found[str(node["ref"])] = found[str(token["name"])]
            for value in node.values():
                walk(value)
        elif isinstance(node, list | tuple):
            for value in node:
                walk(value)

    for d in definitions:
        for ability in getattr(d, "abilities", ()):
            walk(ability.spec)
    return found
