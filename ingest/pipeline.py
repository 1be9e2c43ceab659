"""One source file → a ``ParsedDocument``: decode, normalise lines, parse structure, build entries.

IDs are readable and stable: ``shm/persist/3`` (3rd ruling bullet of the Persist section),
``shm/persist/note-1`` (an explanatory paragraph), ``dtk/rule/702.36a/ru``, ``gtc/card/agoraphobia``.
A section's slug comes from the mechanic glossary (``data/glossary/mechanics.csv``), else from the card
it is about, else from its transliterated heading.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path

from ingest import limits
from ingest.align import align
from ingest.boilerplate import drop_chrome, dropped_warnings
from ingest.cards import CardBlock, colors_of, mana_value
from ingest.decode import decode
from ingest.entries import (
    Card,
    Document,
    IngestWarning,
    Lang,
    LoyaltyAbility,
    ParsedDocument,
    Rule,
    Ruling,
    Section,
    SectionKind,
    SourceSpan,
    content_hash,
)
from ingest.errors import IngestError
from ingest.glossary import Glossary, fold_name, slugify
from ingest.identity import description_lines, identify
from ingest.lines import Line, from_html, from_markdown, from_text
from ingest.manifest import SourceInfo
from ingest.mentions import CardMentionFinder, english_names, rules_cited
from ingest.morphology import language_of
from ingest.structure import RawItem, RawSection, parse_structure

_KIND_RULES: list[tuple[str, SectionKind]] = [
    (r"информация о релизе|release info|часто задаваемые вопросы|frequently asked|сборник основных правил"
     r"|release notes|заметки к выпуску|правовая информация", "release info"),
    (r"действи[ея] с ключевым словом|keyword action", "keyword action"),
    (r"слово способности|ability word", "ability word"),
    (r"ключев\w* слов|keyword", "keyword ability"),
    (r"тип\w* карт|card type", "card type"),
    (r"^цикл|\bcycle", "cycle"),
    (r"тем[аы]|theme|механик|mechanic|значок|символ|symbol", "theme"),
]
_NO_MECHANIC = ("card notes", "release info")  # their headings name a card or the document, not a mechanic
_KIND_PATTERNS = [(re.compile(p, re.IGNORECASE), kind) for p, kind in _KIND_RULES]
_MONTHS = {
    "январ": 1, "феврал": 2, "март": 3, "апрел": 4, "ма": 5, "июн": 6, "июл": 7, "август": 8,
    "сентябр": 9, "октябр": 10, "ноябр": 11, "декабр": 12, "january": 1, "february": 2, "march": 3,
    "april": 4, "may": 5, "june": 6, "july": 7, "august": 8, "september": 9, "october": 10,
    "november": 11, "december": 12,
}
_UPDATED_RE = re.compile(
    r"(?:Дата внесения последних изменений|Последнее обновление|Last updated|Updated|(?:Document )?last modified"
    r"|Документ изменен)\s*:?\s*(?:on\s+)?"
    r"(?:[A-Za-z]+,?\s+)?(?P<a>\d{1,2}|[A-Za-zА-Яа-яё]+)\s+(?P<b>[A-Za-zА-Яа-яё]+|\d{1,2}),?\s+(?P<year>\d{4})",
    re.IGNORECASE,
)
_FAQ_RE = re.compile(r"часто задаваемые вопросы|frequently asked questions|\bFAQ\b", re.IGNORECASE)


def read_lines(
    path: Path, label: str, warnings: list[IngestWarning] | None = None
) -> tuple[list[Line], str, bytes, str]:
    """Decode a file and normalise it by format (HTML, Markdown or text), within the input limits; also the
    decoded text. An HTML page is recovered the way a browser would; what had to be repaired is added to
    ``warnings``."""
    try:
        size = path.stat().st_size
        if (limit := limits.max_document_bytes()) is not None and size > limit:
            raise IngestError(
                label, f"document too large: {size} bytes, the limit is {limit}", key="err.ingest.too_large",
                values={"size": _mib(size), "limit": _mib(limit)},
            )
        data = path.read_bytes()
    except OSError as exc:
        raise IngestError(label, f"cannot read: {exc.strerror}") from exc
    text, encoding = decode(data, label)
    suffix = path.suffix.lower()
    head = text.lstrip()[:200].lower()
    if suffix in (".html", ".htm") or head.startswith(("<!doctype html", "<html")):
        lines = from_html(text, label, warnings)
        _check_line_length(((line.number, line.text) for line in lines), label)
        return lines, "html", data, text
    _check_line_length(enumerate(text.splitlines(), start=1), label)
    if suffix in (".md", ".markdown"):
        return from_markdown(text), encoding, data, text
    return from_text(text), encoding, data, text


def _mib(size: int) -> str:
    return f"{size / 1024 / 1024:.1f}"


def _check_line_length(lines: Iterable[tuple[int, str]], label: str = "") -> None:
    """Refuse the first line over the limit (a paragraph for HTML): the parser's cost grows with it."""
    if (limit := limits.max_line_chars()) is None:
        return
    for number, text in lines:
        if len(text) > limit:
            raise IngestError(
                label, f"line too long: {len(text)} characters, the limit is {limit}", number,
                key="err.ingest.line_too_long", values={"length": len(text), "limit": limit},
            )


def parse_path(
    path: Path,
    info: SourceInfo | None,
    glossary: Glossary,
    label: str | None = None,
    finder: CardMentionFinder | None = None,
    known_sets: Sequence[SourceInfo] = (),
) -> ParsedDocument:
    """Parse one document. ``label`` is how the file is named in entries and messages.

    Without ``info`` (no manifest lists the file), the document says what it is (``ingest.identity``): its
    set (a set of ``known_sets`` named in its title or release information gives the set code and names),
    language (of its text) and date; its ID is then ``gtc-en`` (set code and language), else the file name.
    """
    label = label or str(path)
    repaired: list[IngestWarning] = []
    lines, encoding, data, text = read_lines(path, label, repaired)
    lines = drop_chrome(lines)
    raw_sections, warnings = parse_structure(lines, label)
    warnings = dropped_warnings(lines, label) + warnings
    if not any(item.kind in ("ruling", "rule", "card") for s in raw_sections for item in s.items) and not any(
        s.heading and s.items for s in raw_sections
    ):
        first = next((line.number for line in lines if line.kind == "text"), 1)
        raise IngestError(label, "no recognisable structure: no headings, rulings, rules or cards", first)
    info = info or self_described(path, text, raw_sections, known_sets)
    builder = _Builder(info, glossary, label, finder or CardMentionFinder.from_glossary(glossary))
    parsed = builder.build(raw_sections, lines, encoding, hashlib.sha256(data).hexdigest())
    parsed.warnings.extend(repaired + warnings)
    if not any(r.kind == "ruling" for r in parsed.rulings):
        first = next((line.number for line in lines if line.kind != "blank"), 1)
        parsed.warnings.append(IngestWarning(label, first, "the document has no rulings", key="warn.no_rulings"))
    return align(parsed)


def self_described(
    path: Path, text: str, raw_sections: Sequence[RawSection], known: Sequence[SourceInfo]
) -> SourceInfo:
    """What a document no manifest lists says of itself: set, names, kind, date, languages, and so its ID."""
    first_heading = next((s.heading for s in raw_sections if s.heading), None)
    identity = identify(text, first_heading)
    by_name = {fold_name(n): k for k in known for n in (k.set_name_en, k.set_name_ru) if n}
    by_code = {k.set_code: k for k in known if k.set_code}
    same = by_name.get(fold_name(identity.set_name or "")) or by_code.get(identity.set_code or "")
    set_code = same.set_code if same else identity.set_code or ""
    languages = languages_of(raw_sections)
    primary = "ru" if "ru" in languages else languages[0]
    date = _date_in(description_lines(text)) or _date_in(_text_lines(raw_sections)) or identity.published
    return SourceInfo(
        file=path.name,
        id=f"{set_code.lower()}-{primary}" if set_code else slugify(path.stem, max_words=3),
        set_code=set_code,
        set_name_ru=same.set_name_ru if same else (identity.set_name or "" if primary == "ru" else ""),
        set_name_en=same.set_name_en if same else (identity.set_name or "" if primary == "en" else ""),
        kind="FAQ" if any(_FAQ_RE.search(t or "") for t in (identity.title, first_heading)) else "",
        date=date,
        languages=tuple(languages),
    )


def languages_of(raw_sections: Sequence[RawSection]) -> list[str]:
    """The languages of a document's items, in order of appearance (Russian when nothing tells)."""
    seen: list[str] = []
    for section in raw_sections:
        for item in section.items:
            if not any(ch.isalpha() for ch in item.text):
                continue  # «{B}» says nothing of the language
            lang = language_of(item.text)
            if lang not in seen:
                seen.append(lang)
    return seen or ["ru"]


def _text_lines(raw_sections: Sequence[RawSection]) -> list[str]:
    return [item.text for section in raw_sections[:3] for item in section.items if item.kind == "note"]


def _date_in(texts: Sequence[str]) -> str | None:
    """The ISO date of the first "last modified" / «Дата внесения последних изменений» statement."""
    for text in texts:
        if match := _UPDATED_RE.search(text):
            a, b = match.group("a"), match.group("b")
            day, month_word = (a, b) if a.isdigit() else (b, a)
            month = next((n for stem, n in _MONTHS.items() if month_word.lower().startswith(stem)), None)
            if month and day.isdigit():
                return f"{match.group('year')}-{month:02d}-{int(day):02d}"
    return None


class _Builder:
    def __init__(self, info: SourceInfo, glossary: Glossary, label: str, finder: CardMentionFinder) -> None:
        self.info = info
        self.glossary = glossary
        self.label = label
        self.finder = finder
        self.doc_id = info.id
        self.used_slugs: set[str] = set()
        self.used_ids: set[str] = set()

    def _unique(self, candidate: str) -> str:
        result, counter = candidate, 2
        while result in self.used_ids:
            result, counter = f"{candidate}-{counter}", counter + 1
        self.used_ids.add(result)
        return result

    def _span(self, first: int, last: int) -> SourceSpan:
        return SourceSpan(self.label, first, last)

    def build(self, raw_sections: Sequence[RawSection], lines: list[Line], encoding: str, sha: str) -> ParsedDocument:
        languages = self.info.languages or self._languages(raw_sections)
        primary = "ru" if "ru" in languages else languages[0]
        faq = any(_FAQ_RE.search(s.heading or "") for s in raw_sections)
        kind = self.info.kind or ("FAQ" if faq else "release notes")
        document = Document(
            id=self.doc_id,
            document_id=self.doc_id,
            source=self._span(1, max((line.number for line in lines), default=1)),
            title=self._title(raw_sections, kind),
            set_code=self.info.set_code,
            set_name_ru=self.info.set_name_ru,
            set_name_en=self.info.set_name_en,
            kind=kind,
            date=self.info.date or self._date(lines),
            languages=tuple(languages),
            sha256=sha,
            encoding=encoding,
            content_hash=content_hash(sha),
        )
        parsed = ParsedDocument(document=document)
        for order, raw in enumerate(raw_sections):
            self._section(parsed, raw, order, primary)
        return parsed

    def _languages(self, raw_sections: Sequence[RawSection]) -> list[str]:
        return languages_of(raw_sections)

    def _title(self, raw_sections: Sequence[RawSection], kind: str) -> str:
        if tuple(self.info.languages) == ("en",) and self.info.set_name_en:  # an English-only document
            return f"{self.info.set_name_en} {'FAQ' if kind == 'FAQ' else 'Release Notes'}"
        if self.info.set_name_ru or self.info.set_name_en:
            kind = "FAQ" if self.info.kind == "FAQ" else "Заметки к выпуску"
            return f"{kind} — {self.info.set_name_ru or self.info.set_name_en}"
        return next((s.heading for s in raw_sections if s.heading), self.info.file)

    def _date(self, lines: list[Line]) -> str | None:
        return _date_in([line.text for line in lines if line.kind == "text"])

    # -- sections -----------------------------------------------------------------------------------------
    def _section(self, parsed: ParsedDocument, raw: RawSection, order: int, primary: str) -> None:
        texts = [item.text for item in raw.items if item.kind in ("ruling", "note", "rule")]
        lang = language_of(" ".join(texts) or raw.heading or "")
        heading = raw.heading or ("Информация о выпуске" if lang == "ru" else "Release information")
        name = heading.rsplit(":", 1)[-1].strip()
        mechanic = self.glossary.mechanic(name) or self.glossary.mechanic(heading)
        card_block = next((item.card for item in raw.items if item.card), None)
        kind: SectionKind
        if raw.heading is None:
            kind, slug = "release info", "release-info"
        elif raw.card_led or (raw.part == "cards" and card_block is not None and mechanic is None):
            kind = "card notes"
            slug = slugify(self._english_name(card_block.name) if card_block else heading, max_words=8)
        else:
            kind = self._kind(heading, mechanic.kind if mechanic else None)
            slug = mechanic.slug if mechanic else ("release-info" if kind == "release info" else slugify(name))
        if lang != primary:
            slug = f"{slug}-{lang}"
        section_id = self._unique(f"{self.doc_id}/{slug}")
        section = Section(
            id=section_id,
            document_id=self.doc_id,
            source=self._span(raw.first_line, raw.last_line),
            heading=heading,
            kind=kind,
            mechanic_ru=mechanic.ru if mechanic else (name if lang == "ru" and kind not in _NO_MECHANIC else None),
            mechanic_en=mechanic.en if mechanic else (name if lang == "en" and kind not in _NO_MECHANIC else None),
            lang="en" if lang == "en" else "ru",
            order=order,
            captions=tuple(item.text for item in raw.items if item.kind == "caption"),
            content_hash=content_hash(heading),
        )
        parsed.sections.append(section)
        rulings = notes = 0
        for item in raw.items:
            if item.kind == "card" and item.card is not None:
                parsed.cards.append(self._card(item.card, section))
            elif item.kind == "rule" and item.number:
                parsed.rules.append(self._rule(item, section))
            elif item.kind == "ruling":
                rulings += 1
                parsed.rulings.append(self._ruling(item, section, f"{section_id}/{rulings}", "ruling"))
            elif item.kind == "note":
                notes += 1
                parsed.rulings.append(self._ruling(item, section, f"{section_id}/note-{notes}", "note"))

    @staticmethod
    def _kind(heading: str, fallback: str | None) -> SectionKind:
        for pattern, kind in _KIND_PATTERNS:
            if pattern.search(heading):
                return kind
        allowed: tuple[SectionKind, ...] = (
            "release info", "keyword ability", "keyword action", "ability word", "card type", "theme", "cycle",
            "card notes",
        )
        return next((k for k in allowed if k == fallback), "theme")

    def _english_name(self, name: str) -> str:
        return self.glossary.english_card_name(name) or name

    # -- entries ------------------------------------------------------------------------------------------
    def _card(self, block: CardBlock, section: Section) -> Card:
        name_en = self.glossary.english_card_name(block.name)
        card_id = self._unique(f"{self.doc_id}/card/{slugify(name_en or block.name, max_words=8)}")
        return Card(
            id=card_id,
            document_id=self.doc_id,
            source=self._span(block.first_line, block.last_line),
            section_id=section.id,
            name=block.name,
            name_en=name_en,
            mana_cost=block.mana_cost,
            colors=colors_of(block.mana_cost),
            mana_value=mana_value(block.mana_cost),
            type_line=block.type_line,
            supertypes=tuple(block.supertypes),
            types=tuple(block.types),
            subtypes=tuple(block.subtypes),
            power=block.power,
            toughness=block.toughness,
            loyalty=block.loyalty,
            rules_text=tuple(block.rules_text),
            reminder_text=tuple(block.reminder_text),
            loyalty_abilities=tuple(LoyaltyAbility(cost, text) for cost, text in block.loyalty_abilities),
            lang="en" if language_of(" ".join([block.type_line, *block.rules_text])) == "en" else "ru",
            content_hash=content_hash(
                block.name, block.mana_cost or "", block.type_line, block.power or "", block.toughness or "",
                *block.rules_text, *block.reminder_text,
            ),
        )

    def _rule(self, item: RawItem, section: Section) -> Rule:
        lang: Lang = "en" if language_of(item.text) == "en" else "ru"
        number = item.number or ""
        return Rule(
            id=self._unique(f"{self.doc_id}/rule/{number}/{lang}"),
            document_id=self.doc_id,
            source=self._span(item.first_line, item.last_line),
            section_id=section.id,
            number=number,
            text=item.text,
            lang=lang,
            rules_cited=rules_cited(item.text),
            content_hash=content_hash(number, item.text),
        )

    def _ruling(self, item: RawItem, section: Section, ruling_id: str, kind: str) -> Ruling:
        mentioned = self.finder.find(item.text)
        return Ruling(
            id=self._unique(ruling_id),
            document_id=self.doc_id,
            source=self._span(item.first_line, item.last_line),
            section_id=section.id,
            kind="ruling" if kind == "ruling" else "note",
            text=item.text,
            lang="en" if language_of(item.text) == "en" else "ru",
            subheading=item.subheading,
            cards=mentioned,
            rules_cited=rules_cited(item.text),
            english_names=english_names(item.text),
            content_hash=content_hash(item.text),
        )


def with_card_links(parsed: list[ParsedDocument]) -> list[ParsedDocument]:
    """Link every ruling to the card entries (of any document) whose names it mentions."""
    by_name: dict[str, list[str]] = {}
    for doc in parsed:
        for card in doc.cards:
            for name in {card.name, card.name_en or card.name}:
                by_name.setdefault(name, []).append(card.id)
    for doc in parsed:
        doc.rulings = [
            replace(r, card_ids=tuple(cid for name in r.cards for cid in by_name.get(name, ()))) for r in doc.rulings
        ]
    return parsed
