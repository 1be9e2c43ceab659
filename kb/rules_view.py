"""``kb show`` for the Comprehensive Rules: a rule today, its history across versions, who cites it.

Kept out of ``kb/commands/ingest.py`` so the shared command module only delegates: ``wants`` says
whether a key is a CR rule number or a ``cr/…`` ID, ``show`` prints it (Russian) or its JSON payload.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from kb import plain
from kb.plain import escape, fail, print_json
from kb.rules_history import RulesHistory, VersionIndex, citations, word_diff
from kb.store import KnowledgeBase, RulesVersionRecord

if TYPE_CHECKING:  # rich is imported when a rule is printed in a terminal, not when ``kb show`` asks ``wants``
    from rich.console import Console
    from rich.table import Table

    from ingest.entries import CRGlossary, CRRule

NUMBER_RE = re.compile(r"^\d(?:\d\d(?:\.\d+[a-z]?)?)?$")
CR_ID_RE = re.compile(r"^cr/(?P<version>\d{8})(?:/(?P<glossary>glossary/)?(?P<rest>[^/]+))?$")
DIFF_RE = re.compile(r"\[-(.*?)-\]|\{\+(.*?)\+\}", re.DOTALL)
VERBATIM: dict[str, Any] = {"highlight": False, "emoji": False}  # what printing a ``rich.text.Text`` implies
STATUS_RU = {
    "first": "впервые",
    "same": "текст не изменился",
    "changed": "текст изменён",
    "absent": "отсутствует",
}


def rules_table(versions: dict[str, dict[str, int]], flat: bool = False) -> Table:
    """The per-version counts that ``kb ingest`` and ``kb stats`` print under the documents' table (``flat``:
    a ``kb.plain.PlainTable``, for ``kb.plain.PlainConsole``)."""
    if flat:
        table: Any = plain.PlainTable(title="Комплексные правила (КП)", title_justify="left")
    else:
        from rich.table import Table

        table = Table(title="Комплексные правила (КП)", title_justify="left")
    for column in ("версия", "правил", "заголовков", "терминов глоссария", "предупреждений"):
        table.add_column(column, justify="left" if column == "версия" else "right")
    for version, summary in versions.items():
        table.add_row(
            _iso(version),
            *(str(summary.get(k, 0)) for k in ("rules", "headings", "glossary", "warnings")),
        )
    return table


def cited_numbers(versions: dict[str, RulesVersionRecord], key: str) -> set[str] | None:
    """The numbers a CR key's rule has across the versions (``_payload``'s history), for ``kb.db.lookup`` to
    read the entries citing them by index; an empty set for a CR version or glossary term (no document entry
    is read), None when the key names no CR rule."""
    history = RulesHistory.of(KnowledgeBase(entries=[], rules_versions=versions))
    match = CR_ID_RE.match(key)
    if key.startswith("cr/"):
        version = history.by_version.get(match["version"]) if match else None
        if version is None or match is None or match["glossary"] or match["rest"] not in version.rules:
            return set()  # a version, a glossary term or an error: ``rules_view`` needs no document entry
        number = match["rest"]
    else:
        number = key.rstrip(".")
        version = history.find(number)
        if version is None:
            return None
    return {step["number"] for step in history.timeline(version, number) if step["number"]}


def wants(kb: KnowledgeBase, key: str) -> bool:
    """A ``cr/…`` ID, or a rule number some ingested CR version has."""
    if not kb.rules_versions:
        return False
    if key.startswith("cr/"):
        return True
    number = key.rstrip(".")
    return bool(NUMBER_RE.match(number)) and RulesHistory.of(kb).find(number) is not None


def _console() -> Console:
    """The console ``kb show`` of a rule prints with: rich's in a terminal, ``kb.plain.PlainConsole`` off one."""
    found: Console = plain.console()
    return found


def show(kb: KnowledgeBase, key: str, as_json: bool) -> None:
    history = RulesHistory.of(kb)
    payload = _payload(kb, history, key)
    if as_json:
        print_json(payload)
        return
    console = _console()
    if payload["type"] == "cr_glossary":
        _print_glossary(console, payload)
    elif payload["type"] == "cr_version":
        console.print(f"[bold]{payload['id']}[/] — Комплексные правила от {payload['date']}", highlight=False)
        console.print(rules_table({payload["version"]: payload["summary"]}, isinstance(console, plain.PlainConsole)))
    else:
        _print_rule(console, payload)


def _payload(kb: KnowledgeBase, history: RulesHistory, key: str) -> dict[str, Any]:
    match = CR_ID_RE.match(key)
    if key.startswith("cr/") and not match:
        fail(f"нет записи {key!r}; ID Комплексных правил: cr/20260116/702.78a или cr/20260116/glossary/conspire")
    if match:
        version = history.by_version.get(match["version"])
        if version is None:
            known = ", ".join(_iso(v.version) for v in history.versions)
            fail(f"в базе нет версии КП от {_iso(match['version'])} (загружены: {known})")
        if match["rest"] is None:
            record = kb.rules_versions[version.version]
            return {"type": "cr_version", "id": key, "version": version.version, "date": version.entry.date,
                    "source": str(version.entry.source), "summary": record.summary, "warnings": record.warnings}
        if match["glossary"]:
            return _glossary_payload(history, version, match["rest"])
        if match["rest"] not in version.rules:
            fail(f"в КП от {version.entry.date} нет правила {match['rest']}")
        return _rule_payload(kb, history, version, match["rest"])
    number = key.rstrip(".")
    found = history.find(number)
    assert found is not None  # wants() checked it
    return _rule_payload(kb, history, found, number)


def _rule_payload(kb: KnowledgeBase, history: RulesHistory, version: VersionIndex, number: str) -> dict[str, Any]:
    rule = version.rules[number]
    steps = history.timeline(version, number)
    for step in steps:
        taken = history.by_version[step["version"]].rules.get(number)
        if taken is not None and step["number"] != number:
            step["number_used_by"] = _describe(history.by_version[step["version"]], taken)
    newest = history.newest
    today_number = history.match(version, number, newest) if newest else None
    today = newest.rules.get(today_number) if newest and today_number else None
    cited = citations(kb, history, steps)
    # the same number in a document that meant another rule in the document's era (702.36b: Morph in 2015)
    elsewhere = [
        {"id": e.id, "cr_rule": e.cr_rule, "cr_today": e.cr_today}
        for e in kb.rules
        if e.number == number and e.id not in cited["rules"]
    ]
    return {
        "type": "cr_rule",
        "asked": {"version": version.version, "number": number, "id": rule.id},
        "today": _rule_dict(today) if today else None,
        "rule": _rule_dict(rule),
        "subrules": _subrules(newest if today and newest else version, (today or rule).number),
        "history": steps,
        "cited_by": cited,
        "same_number_elsewhere": elsewhere,
        "eras": _eras(kb, history, [*cited["rules"], *cited["rulings"], *(str(e["id"]) for e in elsewhere)]),
    }


def _eras(kb: KnowledgeBase, history: RulesHistory, ids: list[str]) -> dict[str, str]:
    """The CR version of each document these entries stand in: what their numbers above were read under."""
    documents = {entry.document_id for i in ids if (entry := kb.get(i)) is not None}
    return {doc.id: era.version for doc in kb.documents if doc.id in documents and (era := history.era(kb, doc.id))}


def _subrules(version: VersionIndex, number: str) -> list[str]:
    """``702.78a``, ``702.78b`` of ``702.78``: what a heading's reader looks at next."""
    return version.numbers_under(number)


def _rule_dict(rule: CRRule) -> dict[str, Any]:
    return {"id": rule.id, "version": rule.version, "number": rule.number, "kind": rule.kind,
            "title": rule.title, "text": rule.text, "examples": list(rule.examples), "source": str(rule.source)}


def _describe(version: VersionIndex, rule: CRRule) -> str:
    anchor = version.anchor(rule.number)
    title = version.rules[anchor].title if anchor else None
    return f"{rule.number} ({title})" if title else rule.number


def _glossary_payload(history: RulesHistory, version: VersionIndex, slug: str) -> dict[str, Any]:
    from ingest.comprehensive_rules import glossary_slug

    entry = version.glossary.get(f"cr/{version.version}/glossary/{slug}")
    if entry is None:
        fail(f"в глоссарии КП от {version.entry.date} нет термина {slug!r}")
    steps: list[dict[str, Any]] = []
    previous: CRGlossary | None = None
    for other in history.versions:
        same = next((g for g in other.glossary.values() if glossary_slug(g.term) == slug), None)
        step: dict[str, Any] = {"version": other.version, "date": other.entry.date, "id": same.id if same else None}
        if same is None:
            step["status"] = "absent"
        elif previous is None:
            step["status"] = "first"
        elif previous.text == same.text:
            step["status"] = "same"
        else:
            step["status"] = "changed"
            step["diff"] = word_diff(previous.text, same.text)
        steps.append(step)
        previous = same or previous
    return {"type": "cr_glossary", "id": entry.id, "term": entry.term, "text": entry.text,
            "version": version.version, "history": steps}


def _print_rule(console: Console, payload: dict[str, Any]) -> None:
    shown = payload["today"] or payload["rule"]
    console.rule(f"[bold]{shown['number']}[/]  (Комплексные правила)")
    if payload["today"] is None:
        console.print(
            f"[yellow]В новейшей версии КП этого правила нет.[/] Последняя версия с ним — {_iso(shown['version'])}:",
            highlight=False,
        )
    else:
        console.print(f"Текст сегодня (КП от {_iso(shown['version'])}):", highlight=False)
    console.print(f"[bold]{escape(shown['number'] + ' ')}[/]{escape(shown['text'])}", **VERBATIM)
    for example in shown["examples"]:
        console.print(f"[italic]{escape(example)}[/]", **VERBATIM)
    if payload["subrules"]:
        console.print(f"Подпункты: {', '.join(payload['subrules'])}", highlight=False)
    console.print(f"Источник: {shown['source']}", style="dim", highlight=False)
    console.print("\n[bold]История по версиям КП[/]:")
    for step in payload["history"]:
        _print_step(console, step)
    cited = payload["cited_by"]
    console.print("\n[bold]Ссылаются в документах[/] (по номеру правила в КП эпохи документа):")
    console.print(f"  выдержки правил: {', '.join(cited['rules']) or 'нет'}", highlight=False)
    console.print(f"  разъяснения: {', '.join(cited['rulings']) or 'нет'}", highlight=False)
    for other in payload["same_number_elsewhere"]:
        meaning = f"по КП эпохи документа {other['cr_rule']}, сегодня {other['cr_today'] or 'правила нет'}"
        if other["cr_rule"] is None:
            meaning = "КП эпохи документа не загружены"
        console.print(f"  [yellow]тот же номер, другое правило[/]: {other['id']} ({meaning})", highlight=False)
    if payload["eras"]:
        eras = ", ".join(f"{doc} — {_iso(v)}" for doc, v in payload["eras"].items())
        console.print(f"  эпохи документов: {eras}", style="dim", highlight=False)


def _styled(text: str, style: str) -> str:
    """``text`` (escaped) in ``style`` as markup: what ``Text.append(text, style)`` prints."""
    return f"[{style}]{escape(text)}[/]" if style and text else escape(text)


def _print_step(console: Console, step: dict[str, Any]) -> None:
    line = escape(f"  {step['date']}  ")
    line += _styled(f"{step['number'] or '—':<9}", "bold" if step["number"] else "dim")
    status = STATUS_RU[step["status"]]
    if step.get("renumbered_from"):
        status = f"перенумеровано: {step['renumbered_from']} → {step['number']}; {status}"
    line += _styled(status, "yellow" if step["status"] == "changed" else "")
    if step.get("number_used_by"):
        line += _styled(f"  (номер {step['number_used_by']} здесь другое правило)", "dim")
    console.print(line, **VERBATIM)
    if step.get("diff"):
        console.print(_diff_text(step["diff"], indent="      "), **VERBATIM)


def _diff_text(diff: str, indent: str) -> str:
    """``[-old-]{+new+}`` markers as red struck-out / green text (the markers stay: readable uncoloured)."""
    text = escape(indent)
    position = 0
    for found in DIFF_RE.finditer(diff):
        text += escape(diff[position:found.start()].replace("\n", "\n" + indent))
        text += _styled(found.group(0), "red" if found.group(1) is not None else "green")
        position = found.end()
    return text + escape(diff[position:].replace("\n", "\n" + indent))


def _print_glossary(console: Console, payload: dict[str, Any]) -> None:
    console.rule(f"[bold]{payload['term']}[/]  (глоссарий КП от {_iso(payload['version'])})")
    console.print(payload["text"], markup=False, **VERBATIM)
    console.print("\n[bold]История по версиям КП[/]:")
    for step in payload["history"]:
        console.print(f"  {step['date']}  {STATUS_RU[step['status']]}", markup=False, **VERBATIM)
        if step.get("diff"):
            console.print(_diff_text(step["diff"], indent="      "), **VERBATIM)


def _iso(version: str) -> str:
    return f"{version[:4]}-{version[4:6]}-{version[6:]}"


__all__ = ["rules_table", "show", "wants"]
