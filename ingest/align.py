"""Bilingual alignment: an English rule or ruling is linked to its Russian counterpart.

Rules pair by number. Sections pair by mechanic (same English mechanic name, other language), and
their rulings pair by order, kind by kind: the k-th English bullet ↔ the k-th Russian bullet.
"""

from __future__ import annotations

from dataclasses import replace

from ingest.entries import ParsedDocument, Ruling


def align(parsed: ParsedDocument) -> ParsedDocument:
    links: dict[str, str] = {}

    rules_by_number: dict[str, dict[str, str]] = {}
    for rule in parsed.rules:
        rules_by_number.setdefault(rule.number, {}).setdefault(rule.lang, rule.id)
    for by_lang in rules_by_number.values():
        if "en" in by_lang and "ru" in by_lang:
            links[by_lang["en"]] = by_lang["ru"]
            links[by_lang["ru"]] = by_lang["en"]

    for english in (s for s in parsed.sections if s.lang == "en" and s.mechanic_en):
        russian = next(
            (s for s in parsed.sections if s.lang == "ru" and s.mechanic_en == english.mechanic_en), None
        )
        if russian is None:
            continue
        links[english.id] = russian.id
        links[russian.id] = english.id
        for kind in ("ruling", "note"):
            ours = _of(parsed.rulings, english.id, kind)
            theirs = _of(parsed.rulings, russian.id, kind)
            for en_ruling, ru_ruling in zip(ours, theirs, strict=False):
                links[en_ruling.id] = ru_ruling.id
                links[ru_ruling.id] = en_ruling.id

    parsed.rules = [replace(r, aligned=links.get(r.id)) for r in parsed.rules]
    parsed.sections = [replace(s, aligned=links.get(s.id)) for s in parsed.sections]
    parsed.rulings = [replace(r, aligned=links.get(r.id)) for r in parsed.rulings]
    return parsed


def _of(rulings: list[Ruling], section_id: str, kind: str) -> list[Ruling]:
    return [r for r in rulings if r.section_id == section_id and r.kind == kind]
