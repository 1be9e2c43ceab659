"""MTGJSON v5 set files → card and official-ruling entries.

MTGJSON (mtgjson.com) is the format Magic tooling exchanges card data in. A set file is
``{"meta": {"version": "5.x"}, "data": {"code", "name", "cards": [...]}}``; an AllPrintings-style file
holds several sets: ``{"meta", "data": {"LRW": set, "SHM": set, ...}}``. Both are recognised by content.

What each set becomes (IDs are set-independent, so a reprint is one card):

- a document ``mtgjson-lrw`` (kind ``MTGJSON``) with one section ``mtgjson-lrw/cards``;
- one card entry per card name, ``mtgjson/card/murderous-redcap``: Oracle fields (cost, colours, mana value,
  type line, P/T, loyalty, ``text``), the English and Russian names, and one ``Printing`` per printing (set,
  collector number, English text and type as printed, Russian name, text and type as printed);
- one ruling entry per official ruling, ``mtgjson/card/murderous-redcap/ruling/1`` (in the card's order),
  English, dated, linked to its card.

The printings of one name inside a file (basic lands' several numbers) merge here; across files and
across ingests ``consolidate`` merges them, so ``kb ingest DTK.json`` after ``LRW.json`` adds DTK's
printings to the same card entries. The card (and its rulings) belongs to the document of its earliest
set. A JSON file has one line, so an entry's ``source`` counts the cards of ``data.cards`` (1-based)
instead of lines; messages name the card.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ingest.cards import COLOR_ORDER, LOYALTY_ABILITY_RE
from ingest.entries import (
    Card,
    Document,
    Entry,
    IngestWarning,
    LoyaltyAbility,
    ParsedDocument,
    Printing,
    Ruling,
    Section,
    SourceSpan,
    content_hash,
)
from ingest.errors import IngestError
from ingest.glossary import slugify
from ingest.mentions import CardMentionFinder, rules_cited

KIND = "MTGJSON"
SUPPORTED_MAJOR = 5
CARD_PREFIX = "mtgjson/card/"
SECTION_HEADING = "Карты и официальные разъяснения"


def looks_like_json(data: bytes) -> bool:
    """Cheap content sniff: a document starting with ``{`` or ``[`` is JSON, whatever its file name says."""
    return data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (b"{", b"[")


def card_id(name: str) -> str:
    return CARD_PREFIX + slugify(name, max_words=10)


def is_card_data(entry: Entry) -> bool:
    """A card or ruling entry made from MTGJSON (what ``consolidate`` merges across sets)."""
    return isinstance(entry, Card | Ruling) and entry.id.startswith(CARD_PREFIX)


def parse_mtgjson(
    data: bytes,
    label: str,
    set_names_ru: Mapping[str, str] | None = None,
    finder: CardMentionFinder | None = None,
) -> list[ParsedDocument]:
    """One ``ParsedDocument`` per set of the file; ``IngestError`` for a file that is not usable MTGJSON."""
    try:
        payload = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise IngestError(label, f"not UTF-8 ({exc.reason} at byte {exc.start})") from exc
    except json.JSONDecodeError as exc:
        raise IngestError(label, f"not valid JSON: {exc.msg} (column {exc.colno})", exc.lineno) from exc
    sets = _sets_of(payload, label)
    sha = hashlib.sha256(data).hexdigest()
    docs = [_parse_set(s, label, sha, payload["meta"], set_names_ru or {}, finder) for s in sets]
    return [docs[i] for i in sorted(range(len(docs)), key=lambda i: _set_rank(docs[i].document))]


def _sets_of(payload: Any, label: str) -> list[dict[str, Any]]:
    if not isinstance(payload, dict) or not isinstance(payload.get("data"), dict) or not isinstance(
        payload.get("meta"), dict
    ):
        raise IngestError(label, 'not an MTGJSON file: expected {"meta": {...}, "data": {...}}')
    version = str(payload["meta"].get("version") or "")
    major = version.split(".", 1)[0]
    if not major.isdigit():
        raise IngestError(label, f"not an MTGJSON file: meta.version is {version or 'missing'!r}")
    if int(major) != SUPPORTED_MAJOR:
        raise IngestError(label, f"MTGJSON version {version}: only version {SUPPORTED_MAJOR}.x set files are supported")
    data = payload["data"]
    if "cards" in data:
        sets = [data]
    else:
        sets = [value for value in data.values() if isinstance(value, dict) and "cards" in value]
        if not sets:
            raise IngestError(label, "MTGJSON file holds no set: data has neither cards nor sets with cards")
    for item in sets:
        if not isinstance(item.get("code"), str) or not item["code"]:
            raise IngestError(label, "MTGJSON set without a code")
        if not isinstance(item["cards"], list):
            raise IngestError(label, f"set {item['code']}: cards is not a list")
    return sets


def _set_rank(document: Document) -> tuple[str, str]:
    return (document.date or "9999", document.set_code)


def _russian(card: dict[str, Any]) -> dict[str, Any]:
    for item in card.get("foreignData") or ():
        if isinstance(item, dict) and item.get("language") == "Russian":
            return item
    return {}


def _printing(card: dict[str, Any], set_code: str) -> Printing:
    ru = _russian(card)
    return Printing(
        set_code=set_code,
        number=str(card.get("number") or ""),
        original_type=card.get("originalType"),
        original_text=card.get("originalText"),
        name_ru=ru.get("name"),
        type_ru=ru.get("type"),
        text_ru=ru.get("text"),
    )


def _parse_set(
    data: dict[str, Any],
    label: str,
    sha: str,
    meta: dict[str, Any],
    set_names_ru: Mapping[str, str],
    finder: CardMentionFinder | None,
) -> ParsedDocument:
    code = str(data["code"]).upper()
    doc_id = f"mtgjson-{code.lower()}"
    name_en = str(data.get("name") or code)
    name_ru = set_names_ru.get(code) or str((data.get("translations") or {}).get("Russian") or "")
    cards = data["cards"]
    document = Document(
        id=doc_id,
        document_id=doc_id,
        source=SourceSpan(label, 1, max(1, len(cards))),
        title=f"Карты и официальные разъяснения — {name_ru or name_en} (MTGJSON)",
        set_code=code,
        set_name_ru=name_ru,
        set_name_en=name_en,
        kind=KIND,
        date=data.get("releaseDate"),
        languages=("en", "ru"),
        sha256=sha,
        encoding="utf-8",
        content_hash=content_hash(sha, code),
    )
    section = Section(
        id=f"{doc_id}/cards",
        document_id=doc_id,
        source=document.source,
        heading=SECTION_HEADING,
        kind="card notes",
        mechanic_ru=None,
        mechanic_en=None,
        lang="en",
        order=0,
        content_hash=content_hash(SECTION_HEADING, code),
    )
    parsed = ParsedDocument(document=document, sections=[section])
    by_name: dict[str, list[tuple[int, dict[str, Any]]]] = defaultdict(list)
    for position, card in enumerate(cards, start=1):
        if not isinstance(card, dict):
            raise IngestError(label, f"set {code}: card #{position} is not an object")
        name = card.get("name")
        if not isinstance(name, str) or not name.strip():
            number = card.get("number", "?")
            raise IngestError(label, f"set {code}: card #{position} (number {number}) has no name")
        by_name[name.strip()].append((position, card))
    slugs: dict[str, str] = {}
    for name, printings in by_name.items():
        cid = card_id(name)
        if slugs.setdefault(cid, name) != name:
            raise IngestError(label, f"set {code}: cards {slugs[cid]!r} and {name!r} would share the ID {cid}")
        parsed.cards.append(_card(cid, name, printings, section, label, code))
        parsed.rulings.extend(_rulings(cid, name, printings, section, label, parsed.warnings, finder))
    return parsed


def _card(
    cid: str, name: str, printings: list[tuple[int, dict[str, Any]]], section: Section, label: str, code: str
) -> Card:
    position, first = printings[0]
    text = first.get("text") or ""
    lines = tuple(line for line in text.split("\n") if line)
    types = tuple(first.get("types") or ())
    loyalty_abilities: tuple[LoyaltyAbility, ...] = ()
    if "Planeswalker" in types:
        loyalty_abilities = tuple(
            LoyaltyAbility(m.group("cost").replace("−", "-"), m.group("text"))
            for line in lines
            if (m := LOYALTY_ABILITY_RE.match(line))
        )
    russian = next((r for _, c in printings if (r := _russian(c)).get("name")), {})
    colors = tuple(c for c in COLOR_ORDER if c in (first.get("colors") or ()))
    all_printings = tuple(_printing(card, code) for _, card in printings)
    return Card(
        id=cid,
        document_id=section.document_id,
        source=SourceSpan(label, position, printings[-1][0]),
        section_id=section.id,
        name=name,
        name_en=name,
        mana_cost=first.get("manaCost") or None,
        colors=colors,
        mana_value=int(first.get("manaValue") or first.get("convertedManaCost") or 0),
        type_line=str(first.get("type") or ""),
        supertypes=tuple(first.get("supertypes") or ()),
        types=types,
        subtypes=tuple(first.get("subtypes") or ()),
        power=first.get("power"),
        toughness=first.get("toughness"),
        loyalty=first.get("loyalty"),
        rules_text=lines,
        reminder_text=(),
        loyalty_abilities=loyalty_abilities,
        lang="en",
        content_hash=_card_hash(name, first, all_printings),
        name_ru=russian.get("name"),
        oracle_text=text or None,
        printings=all_printings,
    )


def _card_hash(name: str, card: Card | dict[str, Any], printings: Sequence[Printing]) -> str:
    """What the card says: Oracle fields and every printing's printed texts (not where it was read from)."""
    if isinstance(card, Card):
        fields = [card.mana_cost, card.type_line, card.oracle_text, card.power, card.toughness, card.loyalty]
    else:
        fields = [card.get(k) for k in ("manaCost", "type", "text", "power", "toughness", "loyalty")]
    parts = [name, *(str(f or "") for f in fields)]
    for p in printings:
        parts += [p.set_code, p.number, p.original_type or "", p.original_text or "", p.name_ru or "",
                  p.type_ru or "", p.text_ru or ""]
    return content_hash(*parts)


def _rulings(
    cid: str,
    name: str,
    printings: list[tuple[int, dict[str, Any]]],
    section: Section,
    label: str,
    warnings: list[IngestWarning],
    finder: CardMentionFinder | None,
) -> list[Ruling]:
    seen: set[tuple[str | None, str]] = set()
    rulings: list[Ruling] = []
    for position, card in printings:
        raw = card.get("rulings") or []
        if not isinstance(raw, list):
            warnings.append(IngestWarning(label, position, f"card {name!r}: rulings is not a list; ignored"))
            continue
        for number, item in enumerate(raw, start=1):
            text = item.get("text") if isinstance(item, dict) else None
            if not isinstance(text, str) or not text.strip():
                warnings.append(IngestWarning(label, position, f"card {name!r}: ruling {number} has no text; skipped"))
                continue
            date = item.get("date") or None
            if not isinstance(date, str) or not date:
                warnings.append(IngestWarning(label, position, f"card {name!r}: ruling {number} has no date"))
                date = None
            key = (date, text.strip())
            if key in seen:
                continue
            seen.add(key)
            mentioned = finder.find(text) if finder else ()
            rulings.append(
                Ruling(
                    id=f"{cid}/ruling/{len(rulings) + 1}",
                    document_id=section.document_id,
                    source=SourceSpan(label, position, position),
                    section_id=section.id,
                    kind="ruling",
                    text=text.strip(),
                    lang="en",
                    cards=tuple(dict.fromkeys((name, *mentioned))),
                    card_ids=(cid,),
                    rules_cited=rules_cited(text),
                    content_hash=content_hash(text.strip()),
                    date=date,
                )
            )
    return rulings


# -- across sets and ingests ------------------------------------------------------------------------------
def consolidate(old: Sequence[Entry], new: Sequence[Entry]) -> list[Entry]:
    """Merge MTGJSON card data of ``old`` (stored) and ``new`` (just parsed) entries into one card per name.

    Printings of a set in ``new`` replace that set's printings in ``old``; Oracle fields come from the
    card's earliest set; rulings are the union of all versions' (earliest set's first). Each card (with its rulings,
    renumbered in order) moves to the document of its earliest set. Entries that are not MTGJSON card
    data pass through in order, with
    MTGJSON documents and sections of ``new`` replacing those of ``old``.
    """
    new_docs = {e.id for e in new if isinstance(e, Document) and e.kind == KIND}
    passthrough: list[Entry] = []
    cards: dict[str, list[tuple[bool, Card]]] = defaultdict(list)
    rulings: dict[str, list[tuple[bool, Ruling]]] = defaultdict(list)
    for is_new, entries in ((False, old), (True, new)):
        for entry in entries:
            if isinstance(entry, Card) and is_card_data(entry):
                cards[entry.id].append((is_new, entry))
            elif isinstance(entry, Ruling) and is_card_data(entry):
                rulings[entry.card_ids[0] if entry.card_ids else entry.id].append((is_new, entry))
            elif is_new or entry.document_id not in new_docs:
                passthrough.append(entry)
    documents = sorted(
        (e for e in passthrough if isinstance(e, Document) and e.kind == KIND), key=_set_rank
    )
    if not cards and not documents:
        return list(passthrough)
    doc_by_set = {d.set_code: d.id for d in documents}
    rank = {d.set_code: i for i, d in enumerate(documents)}
    new_sets = {d.set_code for d in documents if d.id in new_docs}
    owned_cards: dict[str, list[Card]] = defaultdict(list)
    owned_rulings: dict[str, list[Ruling]] = defaultdict(list)
    for cid, versions in cards.items():
        fresh = [c for is_new, c in versions if is_new]
        printings = [p for is_new, c in versions if not is_new for p in c.printings if p.set_code not in new_sets]
        printings += [p for c in fresh for p in c.printings]
        printings = list(dict.fromkeys(p for p in printings if p.set_code in doc_by_set))
        if not printings:
            continue  # every set that printed it was re-ingested without it
        printings.sort(key=lambda p: rank[p.set_code])
        # the card as its earliest set's file has it (re-ingested or stored): the same entry whatever order
        # the sets were ingested in
        owner_set = printings[0].set_code
        holders = [c for c in fresh if any(p.set_code == owner_set for p in c.printings)]
        holders = holders or [c for _, c in versions if any(p.set_code == owner_set for p in c.printings)]
        base = holders[-1]
        doc_id = doc_by_set[printings[0].set_code]
        section_id = f"{doc_id}/cards"
        card = replace(
            base, document_id=doc_id, section_id=section_id, printings=tuple(printings), same_as=(),
            content_hash=_card_hash(base.name, base, printings),
        )
        owned_cards[doc_id].append(card)
        group = rulings.get(cid, [])
        # every ruling any version lists (MTGJSON rulings are per Oracle card, so sets agree); a ruling dropped
        # upstream stays until a full rebuild: that keeps the entries independent of the ingestion order
        chosen = sorted((r for _, r in group), key=lambda r: (r.source.path != base.source.path, _ruling_order(r)))
        by_text: dict[tuple[str | None, str], Ruling] = {}
        for ruling in chosen:
            by_text.setdefault((ruling.date, ruling.text), ruling)
        for _, ruling in group:  # one entry per ruling, as read from the card's own file where that has it
            key = (ruling.date, ruling.text)
            if key in by_text and ruling.source.path == base.source.path:
                by_text[key] = ruling
        unique = list(by_text.values())
        for number, ruling in enumerate(unique, start=1):
            owned_rulings[doc_id].append(
                replace(ruling, id=f"{cid}/ruling/{number}", document_id=doc_id, section_id=section_id, same_as=())
            )
    owners = set(doc_by_set.values())
    result = [e for e in passthrough if not (isinstance(e, Document | Section) and e.document_id in owners)]
    for document in documents:
        result.append(document)
        result.extend(e for e in passthrough if isinstance(e, Section) and e.document_id == document.id)
        # by ID: the same entries in the same order whatever order the sets were ingested in
        result.extend(sorted(owned_cards.get(document.id, []), key=lambda c: c.id))
        result.extend(sorted(owned_rulings.get(document.id, []), key=_ruling_order))
    return result


def _ruling_order(ruling: Entry) -> tuple[str, int]:
    card, _, number = ruling.id.rpartition("/ruling/")
    return (card, int(number))


def summaries(entries: Sequence[Entry], warnings: Mapping[str, Sequence[str]]) -> dict[str, dict[str, int]]:
    """Per MTGJSON document: the cards and rulings it owns after ``consolidate`` (reprints counted once)."""
    counts: dict[str, dict[str, int]] = {}
    for entry in entries:
        if isinstance(entry, Document) and entry.kind == KIND:
            counts[entry.id] = {
                "sections": 0, "cards": 0, "rules": 0, "rulings": 0, "notes": 0,
                "warnings": len(warnings.get(entry.id, ())),
            }
    for entry in entries:
        summary = counts.get(entry.document_id)
        if summary is None:
            continue
        key = {"section": "sections", "card": "cards", "ruling": "rulings"}.get(entry.entry_type)
        if key:
            summary[key] += 1
    return counts
