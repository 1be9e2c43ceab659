"""The entries a document becomes: the contract between ingest and everything downstream.

Ingest produces these; ``kb`` stores, indexes, verifies and exports them. They live here (not in ``kb``)
so that data flows one way: ``ingest`` never imports ``kb``, and ``kb`` imports this module.

Every entry has a stable readable ``id`` and a ``content_hash`` of what it says, so a scenario linked to
a ruling can tell when the ruling's text changed. Entries are plain frozen dataclasses that round-trip
through JSON (``to_dict`` / ``entry_from_dict``).

The Comprehensive Rules' entries (``ingest.cr_entries``) and what parsing a file gives
(``ingest.parsed``: ``ParsedDocument``, ``IngestWarning``…) are part of this model and importable from
here, but built in modules of their own on first use: building a frozen dataclass costs about 0.7 ms,
and ``kb show`` of a ruling needs none of those six.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar, Literal

if TYPE_CHECKING:  # the same model, in modules of their own (``__getattr__`` below gives them at run time)
    from ingest.cr_entries import CRGlossary as CRGlossary
    from ingest.cr_entries import CRRule as CRRule
    from ingest.cr_entries import CRRuleKind as CRRuleKind
    from ingest.cr_entries import CRVersion as CRVersion
    from ingest.parsed import IngestWarning as IngestWarning
    from ingest.parsed import ParsedDocument as ParsedDocument
    from ingest.parsed import ParsedRules as ParsedRules

    ENTRY_TYPES: dict[str, type[Entry]]

Lang = Literal["ru", "en"]
SectionKind = Literal[
    "release info",
    "keyword ability",
    "keyword action",
    "ability word",
    "card type",
    "theme",
    "cycle",
    "card notes",
]
RulingKind = Literal["ruling", "note"]


def content_hash(*parts: str) -> str:
    """Short, stable hash of an entry's meaningful text (not of its position in the file)."""
    import hashlib  # here: loading OpenSSL costs every reader (kb show) a few ms

    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()
    return digest[:16]


@dataclass(frozen=True)
class SourceSpan:
    """Where an entry stands in its source file: 1-based, inclusive line numbers.

    An MTGJSON file is one line of JSON, so there ``start``/``end`` count its cards instead (see
    ``ingest/mtgjson.py``).
    """

    path: str
    start: int
    end: int

    def __str__(self) -> str:
        return f"{self.path}:{self.start}" if self.start == self.end else f"{self.path}:{self.start}-{self.end}"


@dataclass(frozen=True)
class EnglishName:
    """An English name quoted next to a Russian one in a ruling: «Смирить (Humble)»."""

    ru: str
    en: str


@dataclass(frozen=True)
class Entry:
    """Fields every entry shares."""

    entry_type: ClassVar[str] = "entry"

    id: str
    document_id: str
    source: SourceSpan

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["type"] = self.entry_type
        return data


@dataclass(frozen=True)
class Document(Entry):
    entry_type: ClassVar[str] = "document"

    title: str
    set_code: str
    set_name_ru: str
    set_name_en: str
    kind: str  # "release notes" | "FAQ"
    date: str | None  # ISO date where the text (or the manifest) states one
    languages: tuple[str, ...]
    sha256: str  # of the source file's bytes
    encoding: str  # how the file was decoded: utf-8, utf-8-sig, cp1251, html
    content_hash: str


@dataclass(frozen=True)
class Section(Entry):
    entry_type: ClassVar[str] = "section"

    heading: str
    kind: SectionKind
    mechanic_ru: str | None
    mechanic_en: str | None
    lang: Lang
    order: int  # position in the document, from 0
    captions: tuple[str, ...] = ()  # lead-in lines such as «Официальные правила для X звучат так:»
    aligned: str | None = None  # the same section in the other language
    content_hash: str = ""
    unaligned: str | None = None  # why a section of a twinned document has no twin (ingest.bilingual)


@dataclass(frozen=True)
class LoyaltyAbility:
    cost: str  # "+1", "-4", "0", "-X"
    text: str


@dataclass(frozen=True)
class Printing:
    """One printing of a card (MTGJSON): where it was printed and its text as printed, in both languages."""

    set_code: str  # "SHM"
    number: str  # collector number: "91", "278★"
    original_type: str | None = None  # English type line as printed
    original_text: str | None = None  # English rules text as printed (the era's wording)
    name_ru: str | None = None
    type_ru: str | None = None  # Russian type line as printed
    text_ru: str | None = None  # Russian rules text as printed


@dataclass(frozen=True)
class Card(Entry):
    entry_type: ClassVar[str] = "card"

    section_id: str
    name: str  # as printed in the document
    name_en: str | None
    mana_cost: str | None  # "{2}{G}{G}", None for lands and cost-less cards
    colors: tuple[str, ...]  # WUBRG letters, in WUBRG order
    mana_value: int
    type_line: str
    supertypes: tuple[str, ...]
    types: tuple[str, ...]
    subtypes: tuple[str, ...]
    power: str | None
    toughness: str | None
    loyalty: str | None
    rules_text: tuple[str, ...]  # one item per ability line, reminder text removed
    reminder_text: tuple[str, ...]  # the parenthesised reminders, in order
    loyalty_abilities: tuple[LoyaltyAbility, ...]
    lang: Lang
    content_hash: str = ""
    # Filled for cards from MTGJSON set files (ingest/mtgjson.py); empty for document card blocks.
    name_ru: str | None = None
    oracle_text: str | None = None  # today's Oracle text, whole
    printings: tuple[Printing, ...] = ()
    same_as: tuple[str, ...] = ()  # the same card's entries from other sources (document ↔ MTGJSON)
    aligned: str | None = None  # the same card block in the document's other language (ingest.bilingual)
    unaligned: str | None = None  # why it has none, in a twinned document
    discrepancies: tuple[str, ...] = ()  # checkable facts its twin states otherwise: "number: 3 ≠ 4"


@dataclass(frozen=True)
class Rule(Entry):
    entry_type: ClassVar[str] = "rule"

    section_id: str
    number: str  # "702.36a", "502.78"
    text: str
    lang: Lang
    rules_cited: tuple[str, ...] = ()  # other rules this excerpt refers to
    aligned: str | None = None
    content_hash: str = ""
    cr_rule: str | None = None  # the Comprehensive Rules entry of the document's era: "cr/20080501/502.78a"
    cr_today: str | None = None  # that rule's number in the newest ingested CR version: "702.78a"
    unaligned: str | None = None  # why a rule excerpt of a twinned document has no twin
    discrepancies: tuple[str, ...] = ()  # checkable facts its twin states otherwise


@dataclass(frozen=True)
class Ruling(Entry):
    entry_type: ClassVar[str] = "ruling"

    section_id: str
    kind: RulingKind
    text: str  # the bullet with its sub-items (newline-separated), without the leading "* "
    lang: Lang
    subheading: str | None = None  # an in-section heading such as «ПОДТИПЫ МИРОХОДЦЕВ»
    cards: tuple[str, ...] = ()  # card names mentioned (English names where known, else as printed)
    card_ids: tuple[str, ...] = ()  # card entries of the knowledge base it mentions
    rules_cited: tuple[str, ...] = ()  # "409.1b", "409.1f", ...
    english_names: tuple[EnglishName, ...] = ()
    aligned: str | None = None
    content_hash: str = ""
    date: str | None = None  # ISO date of an official (MTGJSON) ruling
    same_as: tuple[str, ...] = ()  # the same ruling elsewhere: a document's ruling ↔ the official one
    unaligned: str | None = None  # why a ruling of a twinned document has no twin (ingest.bilingual)
    discrepancies: tuple[str, ...] = ()  # checkable facts its twin states otherwise: "mana: {W} ≠ {U}"


_DOCUMENT_TYPES: dict[str, type[Entry]] = {cls.entry_type: cls for cls in (Document, Section, Card, Rule, Ruling)}
# the rest of the model, in modules of their own (built only by the commands that use them), given here lazily
_ELSEWHERE = {
    "CRRuleKind": "ingest.cr_entries", "CRVersion": "ingest.cr_entries", "CRRule": "ingest.cr_entries",
    "CRGlossary": "ingest.cr_entries", "IngestWarning": "ingest.parsed", "ParsedDocument": "ingest.parsed",
    "ParsedRules": "ingest.parsed",
}


_ALL_TYPES: dict[str, type[Entry]] = {}


def _entry_types() -> dict[str, type[Entry]]:
    """Every entry type by name (the Comprehensive Rules' imported the first time one is asked for)."""
    if not _ALL_TYPES:
        from ingest.cr_entries import CRGlossary, CRRule, CRVersion

        _ALL_TYPES.update(_DOCUMENT_TYPES)
        _ALL_TYPES.update({cls.entry_type: cls for cls in (CRVersion, CRRule, CRGlossary)})
    return _ALL_TYPES


def __getattr__(name: str) -> Any:
    """``CRRule``, ``ParsedDocument``… and ``ENTRY_TYPES`` (every entry type by name), imported on first use."""
    if name == "ENTRY_TYPES":
        return dict(_entry_types())
    if name in _ELSEWHERE:
        import importlib

        value = getattr(importlib.import_module(_ELSEWHERE[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _tupled(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def entry_from_dict(data: dict[str, Any]) -> Entry:
    """Rebuild an entry from its ``to_dict`` form (as read back from the knowledge base file)."""
    cls = _DOCUMENT_TYPES.get(data["type"]) or _entry_types()[data["type"]]
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            continue
        value = data[f.name]
        if f.name == "source":
            value = SourceSpan(**value)
        elif f.name == "english_names":
            value = tuple(EnglishName(**v) for v in value)
        elif f.name == "loyalty_abilities":
            value = tuple(LoyaltyAbility(**v) for v in value)
        elif f.name == "printings":
            value = tuple(Printing(**v) for v in value)
        else:
            value = _tupled(value)
        kwargs[f.name] = value
    return cls(**kwargs)
