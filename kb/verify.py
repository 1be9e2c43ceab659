"""Verification: ruling -> scenarios -> rules engine -> verdict.

A ruling is ``verified`` when every scenario naming it passes, ``failing`` when one of them fails,
``not_simulable`` when ``data/not_simulable.yaml`` lists it (with a reason from ``REASONS``), ``unlinked``
otherwise. ``coverage`` counts the verdicts per document over ``* `` rulings (``kind == "ruling"``), with
the figures for notes and rules beside them.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from ingest.glossary import slugify  # light: the search's verdicts import this module
from kb import eras
from rules_engine.cards import CardDB, load_card_db
from rules_engine.errors import EngineError
from rules_engine.objects import CardDef
from rules_engine.options import RulesOptions
from rules_engine.scenario import Scenario, ScenarioResult, load_scenarios, run_scenario
from rules_engine.teams import scenario_players
from rules_engine.yamlload import line_of, load_yaml

REASONS = {
    "release_info": "сведения о выпуске, датах, турнирах",
    "physical_presentation": "внешний вид карт, рамки, раскладка на столе",
    "definition_only": "определение без игровой ситуации, которую можно разыграть",
    "multiplayer_only": "касается только игры с тремя и более игроками",
    "out_of_engine_scope": "механика вне словаря движка",
}
STATUSES = ("verified", "failing", "unlinked", "not_simulable")
OFFICIAL_CARD_PREFIX = "mtgjson/card/"  # ingest.mtgjson.CARD_PREFIX (that module pulls in the morphology)


class VerifyError(Exception):
    """A data file for verification is malformed; the message names file:line."""


@dataclass
class NotSimulable:
    reason: str
    why: str
    where: str


@dataclass
class Verdict:
    id: str
    status: str  # one of STATUSES: the proof under the rules of the ruling's own era
    scenarios: list[str] = field(default_factory=list)
    results: list[ScenarioResult] = field(default_factory=list)
    reason: str | None = None
    why: str | None = None
    era: str | None = None  # the date whose rules the proof was played under (None: today's rules)
    currency: eras.Currency | None = None  # does it still hold under today's rules?
    today_results: list[ScenarioResult] = field(default_factory=list)  # the same scenarios, today's rules
    shared_from: str | None = None  # an English original's verdict is its Russian twin's: that twin's ID

    def to_dict(self, with_log: bool = False, db: CardDB | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "status": self.status, "scenarios": self.scenarios}
        if self.shared_from:
            out["shared_from"] = self.shared_from
        if self.reason:
            out["reason"], out["why"] = self.reason, self.why
        if self.era:
            out["era"] = self.era
        if self.currency is not None:
            out["currency"] = self.currency.to_dict()
        if self.results:
            out["results"] = [result_dict(r, with_log, db) for r in self.results]
        if self.today_results and self.currency is not None and self.currency.status == "obsolete":
            out["today_results"] = [result_dict(r, with_log, db) for r in self.today_results]
        return out


@dataclass
class EraContext:
    """What verification needs to play each ruling in its era: the timeline, document dates, ruling texts."""

    timeline: eras.Timeline
    dates: dict[str, str | None]
    texts: dict[str, str]
    entry_dates: dict[str, str] = field(default_factory=dict)  # an official ruling's own date
    twins: dict[str, str] = field(default_factory=dict)  # English original → its Russian twin (ingest.bilingual)

    def date_of(self, entry_id: str) -> str | None:
        """An official ruling was issued (or last revised) on its own date, and holds under the rules of that
        day; a document's ruling under those of its document's date."""
        own = self.entry_dates.get(entry_id)
        return own if own is not None else self.dates.get(entry_id.split("/", 1)[0])


def era_context(kb: Any, data_dir: Path) -> EraContext:
    dates = {d.id: d.date for d in kb.documents} if hasattr(kb, "documents") else {}
    texts = {e.id: getattr(e, "text", "") for e in kb.entries}
    entry_dates = {e.id: e.date for e in kb.rulings if getattr(e, "date", None)} if hasattr(kb, "rulings") else {}
    twins = {
        e.id: e.aligned for e in kb.entries
        if getattr(e, "lang", None) == "en" and getattr(e, "aligned", None)
        and e.entry_type in ("ruling", "rule") and e.aligned.split("/", 1)[0] != e.document_id
    }
    return EraContext(
        eras.load_timeline(data_dir / "rules" / "timeline.yaml"), dates, texts, entry_dates, twins
    )


def _fold(text: str) -> str:
    """Compare the start of an official ruling's text ignoring quote styles, case and spacing."""
    text = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"').replace("—", "-")
    return " ".join(text.lower().split())


class RulingCatalog:
    """The knowledge base as the scenario loader asks it: known IDs, and a card's official rulings by the
    start of their text (``{card: NAME, official: TEXT}`` in a scenario's ``rulings:``). A ruling belongs to
    the card its ID says (``mtgjson/card/NAME/ruling/N``), not to every card its text mentions."""

    def __init__(self, kb: Any) -> None:
        # a part of the knowledge base (``kb show``) still knows every stored ID
        self.ids: AbstractSet[str] = kb.ids() if hasattr(kb, "ids") else set(kb.by_id)
        self.by_card: dict[str, list[tuple[str, str]]] = {}
        self.texts: list[tuple[str, str]] = []
        for ruling in kb.rulings:
            owner, sep, _ = ruling.id.partition("/ruling/")
            if not sep or not owner.startswith(OFFICIAL_CARD_PREFIX):
                continue
            folded = _fold(ruling.text)
            self.texts.append((ruling.id, folded))
            self.by_card.setdefault(owner, []).append((ruling.id, folded))

    def __contains__(self, ruling_id: object) -> bool:
        return ruling_id in self.ids

    def __iter__(self) -> Iterator[str]:
        return iter(self.ids)

    def official(self, card: str, text: str) -> list[str] | None:
        owner = OFFICIAL_CARD_PREFIX + slugify(card, max_words=10)  # as ingest.mtgjson.card_id
        if owner not in self.by_card:
            return None  # the card's set is not ingested: the scenario plays, unlinked
        start = _fold(text)
        return [rid for rid, body in self.by_card[owner] if body.startswith(start)]

    def official_of_any_card(self, text: str) -> list[str]:
        """Every card's official ruling starting so: the rulings of a keyword printed on each of its cards."""
        start = _fold(text)
        return [rid for rid, body in self.texts if body.startswith(start)]


def catalog(kb: Any) -> RulingCatalog:
    return RulingCatalog(kb)


class Runner:
    """Plays each scenario once per set of rules, so a ruling's two eras and the blame replays share runs."""

    def __init__(self, db: CardDB) -> None:
        self.db = db
        self.cache: dict[tuple[str, RulesOptions], ScenarioResult] = {}

    def run(self, scenario: Scenario, options: RulesOptions | None = None) -> ScenarioResult:
        options = options if options is not None else scenario.options
        key = (scenario.id, options)
        if key not in self.cache:
            played = replace(scenario, options=options) if options != scenario.options else scenario
            try:
                self.cache[key] = run_scenario(played, self.db)
            except EngineError as exc:  # an engine bug must not hide the other verdicts
                self.cache[key] = ScenarioResult(scenario, passed=False, failures=[f"{scenario.where}: {exc}"])
        return self.cache[key]


def result_dict(result: ScenarioResult, with_log: bool = False, db: CardDB | None = None) -> dict[str, Any]:
    """A scenario's result as JSON: verdict, failures, every check made (expected and actual), and with the
    log the cards of the proof (Russian name, cost, type line, text, invented or not)."""
    out: dict[str, Any] = {
        "scenario": result.scenario.id,
        "path": str(result.scenario.path),
        "title": result.scenario.title,
        "passed": result.passed,
        "failures": result.failures,
        "checked": [c.to_dict() for c in result.checked],
    }
    if with_log:
        out["cards"] = [_card_dict(d) for d in proof_cards(result.scenario, db)]
        out["log"] = result.log
    return out


def proof_cards(scenario: Scenario, db: CardDB | None = None) -> list[CardDef]:
    """The distinct cards a scenario plays: those of its setup (each zone, Alice's first), then its own."""
    local = (db or CardDB()).with_extra(scenario.cards)
    names: list[str] = []
    for who in scenario_players(scenario.setup):
        zones = scenario.setup.get(who) or {}
        for zone in ("battlefield", "hand", "graveyard", "library", "exile"):
            for item in zones.get(zone) or []:
                names.append(str(item.get("card") if isinstance(item, dict) else item))
    names += [c.name for c in scenario.cards]
    found = [local.get(n) for n in dict.fromkeys(names)]
    return [d for d in found if d is not None]


def _card_dict(d: CardDef) -> dict[str, Any]:
    from rules_engine import log as narr

    return {
        "name": d.name,
        "name_ru": d.name_ru,
        "cost": str(d.cost) if d.cost is not None else "",
        "type_ru": narr.type_line(d),
        "text_ru": d.text_ru,
        "text_en": d.text_en,
        "invented": d.invented,
        "lines": narr.describe_card(d),
    }


def card_db(data_dir: Path) -> CardDB:
    return load_card_db(data_dir / "cards")


def scenario_paths(data_dir: Path) -> list[Path]:
    return sorted((data_dir / "scenarios").rglob("*.yaml"))


def _as_asked(known_ids: Iterable[str] | RulingCatalog | None) -> RulingCatalog | AbstractSet[str] | None:
    """Known IDs as the loaders ask them: a catalog or a set as it is (never copied), any other iterable once."""
    return known_ids if isinstance(known_ids, RulingCatalog | AbstractSet) or known_ids is None else set(known_ids)


def collect_scenarios(
    data_dir: Path, db: CardDB | None = None, known_ids: Iterable[str] | RulingCatalog | None = None
) -> list[Scenario]:
    """Load every scenario under ``data_dir/scenarios`` (each play of a family apart); unknown ruling IDs and
    official rulings not found are errors when the knowledge base is given (a ``RulingCatalog``, or IDs)."""
    db = db if db is not None else card_db(data_dir)
    known = _as_asked(known_ids)
    scenarios = [s for p in scenario_paths(data_dir) for s in load_scenarios(p, db, known)]
    seen: dict[str, Scenario] = {}
    for s in scenarios:
        if s.id in seen:
            raise VerifyError(f"{s.where}: scenario id {s.id!r} already used in {seen[s.id].where}")
        seen[s.id] = s
    return scenarios


def _not_simulable_spec(spec: Any, where: str) -> NotSimulable:
    if not isinstance(spec, dict) or spec.get("reason") not in REASONS or not spec.get("why"):
        raise VerifyError(f"{where}: need {{reason: one of {', '.join(REASONS)}, why: one line}}")
    return NotSimulable(str(spec["reason"]), str(spec["why"]), where)


def _yaml(path: Path) -> Any:
    try:
        return load_yaml(path)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise VerifyError(f"{path}:{mark.line + 1 if mark else 1}: not valid YAML: {exc}") from exc


def load_not_simulable(
    data_dir: Path, known_ids: Iterable[str] | RulingCatalog | None = None
) -> dict[str, NotSimulable]:
    """``data/not_simulable.yaml``: ``ID: {reason: REASON, why: one line}``; and
    ``data/not_simulable_official.yaml``: ``- {official: START OF TEXT, reason, why}``, one classification for
    the official ruling of every card that prints it (resolved when the knowledge base is given)."""
    out: dict[str, NotSimulable] = {}
    path = data_dir / "not_simulable.yaml"
    known = _as_asked(known_ids)
    if path.exists():
        data = _yaml(path) or {}
        for ruling_id, spec in data.items():
            where = f"{path}:{line_of(data, ruling_id, 1)}"
            entry = _not_simulable_spec(spec, where)
            if known is not None and ruling_id not in known:
                raise VerifyError(f"{where}: unknown ruling id {ruling_id!r}")
            out[str(ruling_id)] = entry
    path = data_dir / "not_simulable_official.yaml"
    if path.exists():
        items = _yaml(path) or []
        if not isinstance(items, list):
            raise VerifyError(f"{path}:1: expected a list of {{official: TEXT, reason: REASON, why: one line}}")
        lines = getattr(items, "item_lines", [1] * len(items))
        for item, line in zip(items, lines, strict=True):
            where = f"{path}:{line}"
            if not isinstance(item, dict) or not isinstance(item.get("official"), str) or set(item) - {
                "official", "reason", "why"
            }:
                raise VerifyError(f"{where}: need {{official: START OF TEXT, reason: REASON, why: one line}}")
            entry = _not_simulable_spec(item, where)
            if isinstance(known, RulingCatalog):  # (none found: its sets are not ingested)
                for ruling_id in known.official_of_any_card(item["official"]):
                    out.setdefault(ruling_id, entry)
    return out


def run_all(
    scenarios: Iterable[Scenario], db: CardDB, context: EraContext | None = None
) -> dict[str, ScenarioResult]:
    """Each scenario under its own rules: an unlinked one under today's (or the ``rules:`` it states), a linked
    one, given a ``context``, under the era of the (first) document whose rulings it proves."""
    runner = Runner(db)
    out = {}
    for s in scenarios:
        options = None
        if context is not None and s.rulings:
            options = eras.options_for(context.timeline, context.date_of(sorted(s.rulings)[0]))
        out[s.id] = runner.run(s, options)
    return out


def verdicts(
    ruling_ids: Iterable[str],
    scenarios: Iterable[Scenario],
    db: CardDB,
    not_simulable: dict[str, NotSimulable] | None = None,
    runner: Runner | None = None,
    context: EraContext | None = None,
) -> dict[str, Verdict]:
    """Verdict per ruling ID; runs only the scenarios that name one of the requested IDs.

    With a ``context``, each ruling is proven under the rules of its document's date and played again under
    today's rules for its currency; without one, every scenario plays under its own rules."""
    ids = list(ruling_ids)
    twins = context.twins if context is not None else {}
    wanted = set(ids) | {twins[i] for i in ids if i in twins}
    linked: dict[str, list[Scenario]] = {}
    for s in scenarios:
        for r in s.rulings:
            if r in wanted:
                linked.setdefault(r, []).append(s)
    runner = runner or Runner(db)
    not_simulable = not_simulable or {}
    out: dict[str, Verdict] = {}
    for ruling_id in ids:
        group = linked.get(ruling_id, [])
        twin = twins.get(ruling_id)
        if not group and ruling_id not in not_simulable and twin is not None and (
            twin in linked or twin in not_simulable
        ):  # the English original says what its Russian twin says: one verdict, one proof
            shared = out.get(twin) or verdicts([twin], linked.get(twin, []), db, not_simulable, runner, context)[twin]
            out[ruling_id] = replace(shared, id=ruling_id, shared_from=twin)
        elif group:
            out[ruling_id] = _proven(ruling_id, group, runner, context)
        elif ruling_id in not_simulable:
            ns = not_simulable[ruling_id]
            currency = eras.Currency("unjudged", why=f"не моделируется ({REASONS[ns.reason]})")
            out[ruling_id] = Verdict(ruling_id, "not_simulable", reason=ns.reason, why=ns.why, currency=currency)
        else:
            currency = eras.Currency("unjudged", why="нет сценария")
            out[ruling_id] = Verdict(ruling_id, "unlinked", currency=currency)
    return out


def _proven(ruling_id: str, group: list[Scenario], runner: Runner, context: EraContext | None) -> Verdict:
    """Play the ruling's scenarios in its era, then under today's rules, and judge whether it still holds."""
    if context is None:
        results = [runner.run(s) for s in group]
        status = "verified" if all(r.passed for r in results) else "failing"
        return Verdict(ruling_id, status, [s.id for s in group], results)
    date = context.date_of(ruling_id)
    era = eras.options_for(context.timeline, date)
    results = [runner.run(s, era) for s in group]
    today = [runner.run(s, eras.TODAY) for s in group]
    status = "verified" if all(r.passed for r in results) else "failing"
    currency = eras.judge(
        ruling_id,
        era,
        status == "verified",
        all(r.passed for r in today),
        lambda options: all(runner.run(s, options).passed for s in group),
        context.timeline,
        context.texts.get(ruling_id, ""),
        date,
    )
    return Verdict(ruling_id, status, [s.id for s in group], results, era=date, currency=currency,
                   today_results=today)


def verdict_for(kb: Any, entry_id: str, data_dir: Path | None = None) -> Verdict:
    """The verdict of one ruling, note or rule excerpt, running only the scenarios that name it."""
    from kb import paths

    data_dir = data_dir or paths.data_dir()
    known = catalog(kb)
    db = card_db(data_dir)
    scenarios = collect_scenarios(data_dir, db, known)
    ns = load_not_simulable(data_dir, known)
    return verdicts([entry_id], scenarios, db, ns, context=era_context(kb, data_dir))[entry_id]


def _zero() -> dict[str, int]:
    return {"rulings": 0, **dict.fromkeys(STATUSES, 0)}


def coverage(kb: Any, data_dir: Path | None = None) -> dict[str, Any]:
    """``{"total": C, "documents": {DOC: C}, ...}``, C = {rulings, verified, failing, unlinked, not_simulable}.

    ``total`` and ``documents`` count ``* `` rulings only; ``notes`` and ``rules`` give the same figures for
    explanatory notes and Comprehensive Rules excerpts, ``sections`` the ruling figures per section.
    """
    from kb import paths

    data_dir = data_dir or paths.data_dir()
    known = catalog(kb)
    db = card_db(data_dir)
    scenarios = collect_scenarios(data_dir, db, known)
    ns = load_not_simulable(data_dir, known)
    entries = [(r.id, r.document_id, r.section_id, r.kind) for r in kb.rulings]
    entries += [(r.id, r.document_id, r.section_id, "rule") for r in kb.rules]
    found = verdicts([e[0] for e in entries], scenarios, db, ns, context=era_context(kb, data_dir))
    report: dict[str, Any] = {
        "total": _zero(),
        "documents": {},
        "notes": _zero(),
        "rules": _zero(),
        "sections": {},
    }
    report["second_opinion"] = _second_opinion(found, scenarios, db, {e[0] for e in entries if e[3] == "ruling"})
    report["currency"] = {"total": dict.fromkeys(eras.CURRENCY, 0), "documents": {}}
    for entry_id, doc_id, section_id, kind in entries:
        status = found[entry_id].status
        currency = found[entry_id].currency
        if kind == "ruling" and currency is not None:
            per_doc = report["currency"]["documents"].setdefault(doc_id, dict.fromkeys(eras.CURRENCY, 0))
            for bucket in (report["currency"]["total"], per_doc):
                bucket[currency.status] += 1
        if kind == "ruling":
            buckets = [
                report["total"],
                report["documents"].setdefault(doc_id, _zero()),
                report["sections"].setdefault(section_id, _zero()),
            ]
        else:
            buckets = [report["notes" if kind == "note" else "rules"]]
        for bucket in buckets:
            bucket["rulings"] += 1
            bucket[status] += 1
    return report


def _second_opinion(
    found: dict[str, Verdict], scenarios: list[Scenario], db: CardDB, rulings: set[str]
) -> dict[str, Any]:
    """How many verified ``* `` rulings phase.rs confirms (``available: false`` without the oracle extra)."""
    from kb import second_opinion

    opinions = second_opinion.default_opinions(scenarios, db)
    if opinions is None:
        return {"available": False}
    both = second_opinion.confirmed(found, opinions) & rulings
    verified = sum(1 for r in rulings if found[r].status == "verified")
    return {
        "available": True,
        "verified": verified,
        "confirmed": len(both),
        "share": round(len(both) / verified, 3) if verified else 0.0,
        "scenarios": second_opinion.summary(opinions),
    }


def benchmark(data_dir: Path, repeat: int = 3, kb: Any = None) -> dict[str, Any]:
    """Scenarios per second over the whole suite (loading included once, running ``repeat`` times). With a
    knowledge base, as ``kb verify --all`` plays them: each linked scenario in its document's era and again
    under today's rules (each play counted), so the figure is plays per second."""
    start = time.perf_counter()
    db = card_db(data_dir)
    known = catalog(kb) if kb is not None else None
    scenarios = collect_scenarios(data_dir, db, known)
    context = era_context(kb, data_dir) if kb is not None else None
    ids = sorted({r for s in scenarios for r in s.rulings})
    loaded = time.perf_counter()
    plays = passed = 0
    for _ in range(repeat):
        if context is None:
            results = run_all(scenarios, db)
            plays, passed = len(results), sum(r.passed for r in results.values())
            continue
        runner = Runner(db)
        found = verdicts(ids, scenarios, db, runner=runner, context=context)
        unlinked = [s for s in scenarios if not s.rulings]
        for s in unlinked:
            runner.run(s)
        plays, passed = len(runner.cache), sum(r.passed for r in runner.cache.values())
        del found
    done = time.perf_counter()
    per_run = (done - loaded) / repeat
    return {
        "scenarios": len(scenarios),
        "plays": plays,
        "passed": passed,
        "load_seconds": round(loaded - start, 4),
        "run_seconds": round(per_run, 4),
        "scenarios_per_second": round(plays / per_run, 1) if per_run else 0.0,
    }
