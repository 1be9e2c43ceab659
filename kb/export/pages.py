"""Gather: turn the knowledge base into page models (what each page shows, in what order, linking where).

All decisions about content and links are made here, in plain Python that tests can inspect; the
templates only lay the models out. Paths are site-root relative (see ``urls.py``); each page's
template turns them into links relative to itself.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from ingest.entries import Card, Document, Entry, Rule, Ruling, Section
from kb.card_lookup import card_rulings
from kb.export import urls
from kb.export.proofs import Proofs, Verdict
from kb.store import KnowledgeBase

KIND_LABELS = {"ruling": "Разъяснение", "note": "Примечание", "rule": "Правило", "card": "Карта"}
SECTION_KIND_LABELS = {
    "release info": "информация о выпуске",
    "keyword ability": "способность с ключевым словом",
    "keyword action": "действие с ключевым словом",
    "ability word": "слово способности",
    "card type": "тип карты",
    "theme": "тема",
    "cycle": "цикл",
    "card notes": "примечания к карте",
}
SUMMARY_KEYS = ("sections", "cards", "rules", "rulings", "notes", "warnings")
_TYPE_RANK = {"section": 0, "card": 1, "rule": 2, "ruling": 3}


def worded_discrepancies(found: tuple[str, ...]) -> list[str]:
    """Translation discrepancies on checkable facts, worded in Russian: «число: 10 2012 ≠ 11 2013»."""
    from kb.i18n import MESSAGES

    worded = []
    for fact in found:
        kind, _, values = fact.partition(": ")
        label = MESSAGES.get(f"disc.{kind}", (kind, kind))[0]
        worded.append(f"{label}: {values}")
    return worded


@dataclass(frozen=True)
class Link:
    label: str
    target: str | None  # site-root relative path (may carry #anchor); None: plain text


@dataclass
class RulingView:
    ruling: Ruling
    document: Document
    section: Section
    verdict: Verdict
    permalink: str
    cards: list[Link]
    rules: list[Link]
    aligned: Link | None
    original: Ruling | None = None  # the same ruling in the other language's document (ingest.bilingual)

    @property
    def anchor(self) -> str:
        return self.ruling.id

    @property
    def discrepancies(self) -> list[str]:
        return worded_discrepancies(self.ruling.discrepancies)

    @property
    def lead(self) -> str:
        return self.ruling.text.split("\n", 1)[0]

    @property
    def sub_items(self) -> list[str]:
        return self.ruling.text.split("\n")[1:]

    @property
    def show_badge(self) -> bool:
        """Notes (explanatory paragraphs) carry a badge only once a scenario says something about them."""
        return self.ruling.kind == "ruling" or self.verdict.status != "unlinked"


@dataclass
class RuleView:
    rule: Rule
    page: str  # the rule's own page (both languages side by side)
    verdict: Verdict


@dataclass
class RulePair:
    """One rule number of one document: the Russian and the English excerpt where both exist."""

    document: Document
    number: str
    section: Section | None
    ru: Rule | None = None
    en: Rule | None = None
    verdicts: dict[str, Verdict] = field(default_factory=dict)

    @property
    def page(self) -> str:
        return urls.rule_page(self.document.id, self.number)

    @property
    def rules(self) -> list[Rule]:
        return [rule for rule in (self.ru, self.en) if rule is not None]


@dataclass
class CardView:
    card: Card
    page: str
    section: Section | None
    rulings: list[RulingView] = field(default_factory=list)
    original: CardView | None = None  # the same card block in the other language's document (ingest.bilingual)

    @property
    def discrepancies(self) -> list[str]:
        return worded_discrepancies(self.card.discrepancies)

    @property
    def type_line(self) -> str:
        return self.card.type_line.replace("_", " ")

    @property
    def stats(self) -> str | None:
        if self.card.power is not None and self.card.toughness is not None:
            return f"{self.card.power}/{self.card.toughness}"
        return None


@dataclass
class Block:
    """One item of a document page, in the source's order."""

    kind: str  # section | caption | subheading | rule | card | ruling | separator
    value: Any


@dataclass
class SectionView:
    section: Section
    document: Document
    page: str
    blocks: list[Block]
    aligned: Link | None
    counts: dict[str, int]

    @property
    def title(self) -> str:
        return self.section.mechanic_ru or self.section.heading

    @property
    def kind_label(self) -> str:
        return SECTION_KIND_LABELS.get(self.section.kind, self.section.kind)


@dataclass
class DocumentView:
    document: Document
    page: str
    sections: list[SectionView]
    blocks: list[Block]
    summary: dict[str, int]
    coverage: dict[str, int]
    cards: list[CardView]

    @property
    def lang(self) -> str:
        return "ru" if "ru" in self.document.languages else "en"


@dataclass
class Page:
    path: str
    template: str
    lang: str
    title: str
    context: dict[str, Any]


CHANGES_PER_PAGE = 20  # obsolete rulings (each with two proofs) per «Что изменилось» page
CHANGED_LINES_PER_PAGE = 500  # and lines of the short lists (terms changed, unjudged)
HOME_SECTIONS = 12  # sections listed per document on the home page; the document page lists them all
LISTING_LINES_PER_PAGE = 1000  # cards or rule excerpts per page of «Карты» / «Выдержки из правил»


PAGER_REACH = 3  # page links shown either side of the current one (plus the first and the last)


@dataclass
class Paged:
    """Page ``number`` of ``pages`` (site-root paths, in order), with what its pager links to."""

    number: int
    pages: list[str]

    @property
    def previous(self) -> str | None:
        return self.pages[self.number - 2] if self.number > 1 else None

    @property
    def next(self) -> str | None:
        return self.pages[self.number] if self.number < len(self.pages) else None

    @property
    def window(self) -> list[tuple[int, str | None]]:
        """(number, path) for the links to show, (0, None) for a gap: bounded whatever the page count."""
        shown: list[tuple[int, str | None]] = []
        for number, path in enumerate(self.pages, start=1):
            if number in (1, len(self.pages)) or abs(number - self.number) <= PAGER_REACH:
                if shown and shown[-1][0] not in (0, number - 1):
                    shown.append((0, None))
                shown.append((number, path))
        return shown


@dataclass
class Listing(Paged):
    """One page of a listing (cards, rule excerpts): whole documents' groups, about a page's worth.

    A listing of every card of 100,000 entries would be megabytes on one page; it is cut between
    documents once a page holds ``LISTING_LINES_PER_PAGE`` lines (a document is never split).
    """

    groups: list[tuple[DocumentView, list[Any]]] = field(default_factory=list)


def paged_path(first: str, number: int) -> str:
    """``cards.html``, ``cards-2.html``, …"""
    stem, _, suffix = first.rpartition(".")
    return first if number == 1 else f"{stem}-{number}.{suffix}"


def _listing_pages(
    first: str, template: str, title: str, groups: list[tuple[DocumentView, list[Any]]], site: SiteModel
) -> list[Page]:
    chunks: list[list[tuple[DocumentView, list[Any]]]] = [[]]
    lines = 0
    for group in groups:
        if chunks[-1] and lines + len(group[1]) > LISTING_LINES_PER_PAGE:
            chunks.append([])
            lines = 0
        chunks[-1].append(group)
        lines += len(group[1])
    paths = [paged_path(first, n) for n in range(1, len(chunks) + 1)]
    return [
        Page(path, template, "ru", title + ("" if number == 1 else f" — страница {number}"),
             {"site": site, "listing": Listing(number, paths, chunk)})
        for number, (path, chunk) in enumerate(zip(paths, chunks, strict=True), start=1)
    ]


@dataclass
class ChangesView(Paged):
    """One page of «Что изменилось с тех пор»: a slice of the obsolete rulings, with both proofs each.

    Paged so that no page repeats a growing share of the corpus: at 100,000 entries one page holding
    every obsolete ruling's two proofs would be tens of megabytes. Page N shows the N-th slice of each
    list: obsolete rulings (``CHANGES_PER_PAGE``), and the one-line lists of rulings whose terms changed
    and of unjudged ones (``CHANGED_LINES_PER_PAGE``).
    """

    obsolete: list[RulingView] = field(default_factory=list)
    obsolete_total: int = 0
    terms: list[RulingView] = field(default_factory=list)
    terms_total: int = 0
    unjudged: list[RulingView] = field(default_factory=list)
    unjudged_total: int = 0


def changes_page(number: int) -> str:
    return paged_path("changes.html", number)


@dataclass
class SiteModel:
    documents: list[DocumentView]
    sections: list[SectionView]
    cards: list[CardView]
    rule_pairs: list[RulePair]
    rulings: dict[str, RulingView]
    coverage: dict[str, int]
    proofs: Proofs

    def pages(self) -> list[Page]:
        pages = [
            Page("index.html", "home.html.j2", "ru", "База разъяснений Magic: The Gathering",
                 {"site": self, "home_sections": HOME_SECTIONS}),
            Page("search.html", "search.html.j2", "ru", "Поиск", {"site": self}),
        ]
        pairs_by_doc: dict[str, list[RulePair]] = defaultdict(list)
        for pair in self.rule_pairs:
            pairs_by_doc[pair.document.id].append(pair)
        card_groups = [(doc, doc.cards) for doc in self.documents if doc.cards]
        rule_groups = [(doc, pairs_by_doc[doc.document.id]) for doc in self.documents if pairs_by_doc[doc.document.id]]
        pages.extend(_listing_pages("cards.html", "cards.html.j2", "Карты", card_groups, self))
        pages.extend(_listing_pages("rules.html", "rules.html.j2", "Правила", rule_groups, self))
        pages.extend(self.changes_pages())
        for doc in self.documents:
            pages.append(Page(doc.page, "document.html.j2", doc.lang, doc.document.title, {"doc": doc}))
        for sec in self.sections:
            title = f"{sec.title} — {sec.document.set_name_ru}"
            pages.append(Page(sec.page, "section.html.j2", sec.section.lang, title, {"sec": sec}))
        for card in self.cards:
            pages.append(Page(card.page, "card.html.j2", card.card.lang, card.card.name, {"card": card}))
        for pair in self.rule_pairs:
            lang = "ru" if pair.ru else "en"
            title = f"Правило {pair.number} — {pair.document.set_code}"
            pages.append(Page(pair.page, "rule.html.j2", lang, title, {"pair": pair}))
        return pages

    def changes_pages(self) -> list[Page]:
        views = list(self.rulings.values())
        obsolete = [v for v in views if v.verdict.currency == "obsolete"]
        terms = [v for v in views if v.verdict.currency == "terms"]
        unjudged = [v for v in views if v.verdict.status == "verified" and v.verdict.currency == "unjudged"]
        count = max(
            1, -(-len(obsolete) // CHANGES_PER_PAGE), -(-max(len(terms), len(unjudged)) // CHANGED_LINES_PER_PAGE)
        )
        paths = [changes_page(n) for n in range(1, count + 1)]
        result = []
        for number, path in enumerate(paths, start=1):

            def part(items: list[RulingView], size: int, n: int = number) -> list[RulingView]:
                return items[(n - 1) * size : n * size]

            view = ChangesView(
                number, paths, part(obsolete, CHANGES_PER_PAGE), len(obsolete),
                part(terms, CHANGED_LINES_PER_PAGE), len(terms), part(unjudged, CHANGED_LINES_PER_PAGE), len(unjudged),
            )
            title = "Что изменилось с тех пор" + ("" if number == 1 else f" — страница {number}")
            result.append(Page(path, "changes.html.j2", "ru", title, {"site": self, "changes": view}))
        return result


class _RulingsNaming:
    """Rulings that name a card: linked by ingest, quoting its name, or in the card's own notes section.

    Indexed once by card ID, name and notes section, so finding them for every card costs the rulings
    that match, not a pass over all rulings per card (which grew as cards × rulings).
    """

    def __init__(self, rulings: list[RulingView]) -> None:
        self.position = {id(view): number for number, view in enumerate(rulings)}
        self.by_card: dict[str, list[RulingView]] = defaultdict(list)
        self.by_name: dict[str, list[RulingView]] = defaultdict(list)
        self.by_notes_section: dict[str, list[RulingView]] = defaultdict(list)
        for view in rulings:
            for card_id in dict.fromkeys(view.ruling.card_ids):
                self.by_card[card_id].append(view)
            for name in dict.fromkeys(view.ruling.cards):
                self.by_name[name].append(view)
            if view.section.kind == "card notes":
                self.by_notes_section[view.ruling.section_id].append(view)

    def __call__(self, card: Card) -> list[RulingView]:
        found = {id(v): v for v in self.by_card.get(card.id, [])}
        for name in {n for n in (card.name, card.name_en) if n}:
            found.update((id(v), v) for v in self.by_name.get(name, []))
        found.update((id(v), v) for v in self.by_notes_section.get(card.section_id, []))
        return sorted(found.values(), key=lambda view: self.position[id(view)])


def gather(kb: KnowledgeBase, proofs: Proofs) -> SiteModel:
    """Build every page model from the knowledge base and the verification verdicts."""
    documents = {doc.id: doc for doc in kb.documents}
    sections = {sec.id: sec for sec in kb.sections}
    cards = {card.id: card for card in kb.cards}

    pairs: dict[tuple[str, str], RulePair] = {}
    for rule in kb.rules:
        key = (rule.document_id, rule.number)
        pair = pairs.setdefault(key, RulePair(documents[rule.document_id], rule.number, sections.get(rule.section_id)))
        if rule.lang == "en":
            pair.en = pair.en or rule
        else:
            pair.ru = pair.ru or rule
        pair.verdicts[rule.id] = proofs.of(rule.id)
        if pair.section is None or rule.lang == "ru":
            pair.section = sections.get(rule.section_id) or pair.section
    rule_targets: dict[str, dict[str, str]] = defaultdict(dict)
    for (doc_id, number), pair in pairs.items():
        rule_targets[number][doc_id] = pair.page

    def rule_link(number: str, doc_id: str) -> Link:
        targets = rule_targets.get(number, {})
        target = targets.get(doc_id) or (targets[min(targets)] if targets else None)
        return Link(number, target)

    ruling_views: dict[str, RulingView] = {}
    for ruling in kb.rulings:
        doc = documents[ruling.document_id]
        aligned = kb.get(ruling.aligned) if ruling.aligned else None
        ruling_views[ruling.id] = RulingView(
            ruling=ruling,
            document=doc,
            section=sections[ruling.section_id],
            verdict=proofs.of(ruling.id),
            permalink=urls.in_document(doc.id, ruling.id),
            cards=[Link(cards[cid].name, urls.card_page(cid)) for cid in ruling.card_ids if cid in cards],
            rules=[rule_link(number, doc.id) for number in ruling.rules_cited],
            aligned=Link(
                "English" if isinstance(aligned, Ruling) and aligned.lang == "en" else "по-русски",
                urls.in_document(aligned.document_id, aligned.id),
            )
            if isinstance(aligned, Ruling)
            else None,
            original=aligned if isinstance(aligned, Ruling) and aligned.document_id != ruling.document_id else None,
        )
    rulings_naming = _RulingsNaming(list(ruling_views.values()))

    card_views = {
        card.id: CardView(card, urls.card_page(card.id), sections.get(card.section_id)) for card in kb.cards
    }
    for card_view in card_views.values():
        twin = card_views.get(card_view.card.aligned or "")
        if twin is not None and twin.card.document_id != card_view.card.document_id:
            card_view.original = twin
        # an MTGJSON card's section is its whole set: its rulings are the card's own and the linked ones
        card_view.rulings = [] if card_view.card.printings else rulings_naming(card_view.card)
        if card_view.card.printings or card_view.card.same_as:  # every ruling of the card, in every source
            named = {v.ruling.id for v in card_view.rulings}
            card_view.rulings += [
                ruling_views[r.id] for r in card_rulings(kb, card_view.card) if r.id not in named
            ]

    all_rulings = kb.rulings
    rulings_by_section: dict[str, list[Ruling]] = defaultdict(list)
    for ruling in all_rulings:
        rulings_by_section[ruling.section_id].append(ruling)
    sections_by_doc: dict[str, list[Section]] = defaultdict(list)
    for sec in sections.values():
        sections_by_doc[sec.document_id].append(sec)
    entries_by_doc: dict[str, list[Entry]] = defaultdict(list)  # one pass, not one per document
    for entry in kb.entries:
        entries_by_doc[entry.document_id].append(entry)
    rulings_by_doc: dict[str, list[str]] = defaultdict(list)
    for ruling in all_rulings:
        if ruling.kind == "ruling":
            rulings_by_doc[ruling.document_id].append(ruling.id)
    cards_by_doc: dict[str, list[CardView]] = defaultdict(list)
    for card_view in card_views.values():
        cards_by_doc[card_view.card.document_id].append(card_view)
    section_views: dict[str, SectionView] = {}
    doc_views: list[DocumentView] = []
    for doc in kb.documents:
        entries = sorted(
            (e for e in entries_by_doc.get(doc.id, []) if not isinstance(e, Document)),
            key=lambda e: (e.source.start, _TYPE_RANK[e.entry_type], e.id),
        )
        blocks_by_section: dict[str, list[Block]] = defaultdict(list)
        doc_blocks: list[Block] = []
        sections_with_rules = {e.section_id for e in entries if isinstance(e, Rule)}
        captions_done: set[str] = set()
        last_subheading: dict[str, str | None] = {}
        for entry in entries:
            if isinstance(entry, Rule) and entry.section_id not in captions_done:
                captions_done.add(entry.section_id)
                for text in sections[entry.section_id].captions:
                    doc_blocks.append(Block("caption", text))
                    blocks_by_section[entry.section_id].append(Block("caption", text))
            for block in _blocks_for(entry, ruling_views, card_views, pairs, sections_with_rules, last_subheading):
                doc_blocks.append(block)
                owner = entry.id if isinstance(entry, Section) else getattr(entry, "section_id", "")
                if block.kind != "section":
                    blocks_by_section[owner].append(block)
        doc_sections = []
        for sec in sorted(sections_by_doc.get(doc.id, []), key=lambda s: s.order):
            aligned = sections.get(sec.aligned) if sec.aligned else None
            view = SectionView(
                section=sec,
                document=doc,
                page=urls.section_page(sec.id),
                blocks=blocks_by_section.get(sec.id, []),
                aligned=Link(aligned.heading, urls.section_page(aligned.id)) if aligned else None,
                counts=proofs.coverage(r.id for r in rulings_by_section.get(sec.id, []) if r.kind == "ruling"),
            )
            section_views[sec.id] = view
            doc_sections.append(view)
        doc_views.append(
            DocumentView(
                document=doc,
                page=urls.document_page(doc.id),
                sections=doc_sections,
                blocks=doc_blocks,
                summary={**dict.fromkeys(SUMMARY_KEYS, 0), **kb.summaries.get(doc.id, {})},
                coverage=proofs.coverage(rulings_by_doc.get(doc.id, [])),
                cards=cards_by_doc.get(doc.id, []),
            )
        )
    return SiteModel(
        documents=doc_views,
        sections=list(section_views.values()),
        cards=list(card_views.values()),
        rule_pairs=list(pairs.values()),
        rulings=ruling_views,
        coverage=proofs.coverage(r.id for r in all_rulings if r.kind == "ruling"),
        proofs=proofs,
    )


def _blocks_for(
    entry: Entry,
    rulings: dict[str, RulingView],
    cards: dict[str, CardView],
    pairs: dict[tuple[str, str], RulePair],
    sections_with_rules: set[str],
    last_subheading: dict[str, str | None],
) -> list[Block]:
    """The blocks one entry contributes to its document page, in source order.

    A section's captions («Официальные правила … звучат так:») introduce its rules excerpt, so they go
    just before the section's first rule (or under the heading when the section quotes no rule).
    """
    if isinstance(entry, Section):
        blocks = [Block("section", entry)]
        if entry.id not in sections_with_rules:
            blocks.extend(Block("caption", text) for text in entry.captions)
        return blocks
    if isinstance(entry, Card):
        return [Block("card", cards[entry.id])]
    if isinstance(entry, Rule):
        pair = pairs[(entry.document_id, entry.number)]
        return [Block("rule", RuleView(entry, pair.page, pair.verdicts[entry.id]))]
    if isinstance(entry, Ruling):
        blocks = []
        previous = last_subheading.get(entry.section_id)
        if entry.subheading and entry.subheading != previous:
            blocks.append(Block("subheading", entry.subheading))
        last_subheading[entry.section_id] = entry.subheading
        blocks.append(Block("ruling", rulings[entry.id]))
        return blocks
    return []
