"""The genre's structure: sections, card blocks, rule excerpts, ruling bullets and explanatory notes.

Reads the uniform line stream of ``ingest.lines`` and returns raw sections (no IDs yet). It is written
for release notes and FAQs in general, not for five files: headings may be starred, Markdown/HTML
headings, or plain title lines after a separator; card blocks may have blank lines between their lines;
English and Russian may alternate in one file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from ingest.cards import (
    LOYALTY_LINE_RE,
    PT_RE,
    CardBlock,
    brace_rules_line,
    is_mana_cost,
    is_type_line,
    normalise_cost,
    split_type_line,
)
from ingest.entries import IngestWarning
from ingest.lines import Line

ItemKind = Literal["ruling", "note", "rule", "card", "caption"]

RULE_RE = re.compile(r"^(?P<number>\d{3}\.\d+[a-z]?)\.?\s+(?P<text>\S.*)$")
SUB_ITEM_RE = re.compile(r"^(?:[—–]\s|-{1,2}\s|•\s|\d{1,2}\)\s|[a-zа-я]\)\s)")
PART_RE = re.compile(r"(ЗАМЕЧАНИЯ|NOTES)", re.IGNORECASE)
# Part headings as web pages write them, in any case: "General Notes", "Card-Specific Notes".
NAMED_PART_RE = re.compile(
    r"^(?:general notes|card[- ]specific notes|notes on (?:specific|individual) cards|общие замечания"
    r"|отдельные замечания по картам|замечания по отдельным картам)$",
    re.IGNORECASE,
)
# Who compiled the document and when: a byline under the title, never a heading of its own.
BYLINE_RE = re.compile(r"^(?:compiled by|составител|last updated|updated|дата внесения|последнее обновление)",
                       re.IGNORECASE)
# "Kitchen Finks {1}{G/W}{G/W}": a card's name and mana cost on one line.
NAME_COST_RE = re.compile(r"^(?P<name>\S.*?)\s+(?P<cost>(?:\{[0-9A-Za-z/]+\})+)$")
BARE_LOYALTY_RE = re.compile(r"^(?:\d+|X)$")
# "Keyword Ability: Persist", «Ключевое слово Орзовов: Вымогательство»: a labelled heading is one wherever it stands.
HEADING_LABEL_RE = re.compile(
    r"^[^:]{0,40}\b(?:ключев\w* слов|слово способности|действи\w* с ключевым словом|тип карты|цикл|тема"
    r"|keyword|ability word|card type|cycle|theme|mechanic)\w*[^:]{0,30}:\s*\S",
    re.IGNORECASE,
)
# "Prerelease events: January 26–27, 2013", «Релизные выходные: 1–3 февраля»: release information, no title.
DATED_LABEL_RE = re.compile(r"^[^:]{1,40}:\s.*\d")
TRAILING_PT_RE = re.compile(r"\s(?P<power>\d+|\*)/(?P<toughness>\d+|\*)$")
TITLE_NOTES_RE = re.compile(r"release notes|заметки к выпуску", re.IGNORECASE)
CARD_PART_RE = re.compile(r"(КАРТ|CARD)", re.IGNORECASE)
CAPTION_RE = re.compile(r"(правил|rules?\b).{0,80}:$", re.IGNORECASE)  # «Официальные правила … звучат так:»
TERMINAL_PUNCTUATION = (".", ":", ";", "!", "?", ",", "—", "–")
MAX_TITLE_LENGTH = 100
MAX_CARD_NAME_LENGTH = 60


@dataclass
class RawItem:
    kind: ItemKind
    first_line: int
    last_line: int
    text: str = ""
    subheading: str | None = None
    number: str | None = None  # rule number
    card: CardBlock | None = None


@dataclass
class RawSection:
    heading: str | None  # None: an implicit release-information section
    first_line: int
    part: str | None  # "general" | "cards" | None
    card_led: bool = False  # headed by a card block rather than a heading
    items: list[RawItem] = field(default_factory=list)

    @property
    def last_line(self) -> int:
        return max([self.first_line, *(item.last_line for item in self.items)])


def is_bullet(text: str) -> bool:
    return text == "*" or text.startswith("* ")


def is_caps(text: str) -> bool:
    letters = [ch for ch in text if ch.isalpha()]
    return len(letters) >= 4 and all(ch.isupper() for ch in letters)


def is_title_like(text: str) -> bool:
    """A short line that reads as a title: no sentence punctuation at its end, starts like a name."""
    return (
        0 < len(text) <= MAX_TITLE_LENGTH
        and not text.endswith(TERMINAL_PUNCTUATION)
        and not is_bullet(text)
        and not RULE_RE.match(text)
        and not SUB_ITEM_RE.match(text)
        and not BYLINE_RE.match(text)
        and not DATED_LABEL_RE.match(text)
        and (text[0].isupper() or text[0] in "«\"“")
    )


def is_labelled_heading(text: str) -> bool:
    return is_title_like(text) and bool(HEADING_LABEL_RE.match(text))


def is_part_heading(text: str) -> bool:
    """«ОБЩИЕ ЗАМЕЧАНИЯ», «ОТДЕЛЬНЫЕ ЗАМЕЧАНИЯ ПО КАРТАМ», "GENERAL NOTES", "CARD-SPECIFIC NOTES", "General Notes".

    Not a document title in capitals: "DRAGONS OF TARKIR RELEASE NOTES" names the document, not a part.
    """
    if TITLE_NOTES_RE.search(text):
        return False
    return (is_caps(text) and bool(PART_RE.search(text)) and len(text) <= 60) or bool(NAMED_PART_RE.match(text))


class StructureParser:
    """One pass over the lines; state: current section, part, subheading, whether a break just passed."""

    def __init__(self, lines: list[Line], path: str) -> None:
        self.lines = lines
        self.path = path
        self.sections: list[RawSection] = []
        self.warnings: list[IngestWarning] = []
        self.current: RawSection | None = None
        self.part: str | None = None
        self.subheading: str | None = None
        self.after_break = True

    # -- navigation -------------------------------------------------------------------------------------
    def _next_content(self, index: int) -> int | None:
        """Index of the next non-blank line at or after ``index``."""
        while index < len(self.lines):
            if self.lines[index].kind != "blank":
                return index
            index += 1
        return None

    def _text_at(self, index: int | None) -> str | None:
        if index is None or self.lines[index].kind != "text":
            return None
        return self.lines[index].text

    # -- sections ---------------------------------------------------------------------------------------
    def _start(self, heading: str | None, line: int, card_led: bool = False) -> RawSection:
        section = RawSection(heading=heading, first_line=line, part=self.part, card_led=card_led)
        self.sections.append(section)
        self.current = section
        self.subheading = None
        self.after_break = False
        return section

    def _ensure_section(self, line: int) -> RawSection:
        if self.current is not None:
            return self.current
        previous = self.sections[-1] if self.sections else None
        if previous is not None and previous.heading is None and previous.part == self.part:
            self.current = previous  # consecutive untitled blocks of release information stay together
            return previous
        return self._start(None, line)

    def _add(self, item: RawItem) -> None:
        section = self._ensure_section(item.first_line)
        item.subheading = self.subheading
        section.items.append(item)
        self.after_break = False

    # -- main loop --------------------------------------------------------------------------------------
    def parse(self) -> tuple[list[RawSection], list[IngestWarning]]:
        index = 0
        while index < len(self.lines):
            index = self._step(index)
        return [s for s in self.sections if s.items or s.heading], self.warnings

    def _step(self, index: int) -> int:
        line = self.lines[index]
        if line.kind == "blank":
            return index + 1
        if line.kind == "separator":
            self.current = None
            self.after_break = True
            return index + 1
        text = line.text
        if line.kind == "heading":
            return self._heading(index, text)
        if is_part_heading(text):
            return self._heading(index, text)
        if match := RULE_RE.match(text):
            return self._rule(index, match)
        if is_bullet(text):
            return self._bullet(index)
        if (card_end := self._card_block_end(index)) is not None:
            return self._card(index, card_end)
        if is_caps(text) and is_title_like(text) and self.current is not None and not self.after_break:
            self.subheading = text
            return index + 1
        if is_title_like(text) and (
            self.after_break or self.current is None or self._directly_followed(index) or is_labelled_heading(text)
        ):
            self._start(text, line.number)
            return index + 1
        return self._paragraph(index)

    def _heading(self, index: int, text: str) -> int:
        line = self.lines[index]
        if is_part_heading(text):
            self.part = "cards" if CARD_PART_RE.search(text) else "general"
            self.current = None
            self.after_break = True
            return index + 1
        if line.kind == "heading" and (card_end := self._card_block_end(index)) is not None:
            return self._card(index, card_end)  # a card name set in bold: "**Kitchen Finks**"
        if line.kind == "heading" and text.endswith(":") and self.current is not None:
            return self._paragraph(index)  # a bold lead-in: "**The official rules for clash are as follows:**"
        if is_caps(text) and self.current is not None and not self.after_break:
            self.subheading = text
            return index + 1
        self._start(text, line.number)
        return index + 1

    def _directly_followed(self, index: int) -> bool:
        """A title line glued to the text under it («Сборник основных правил…» / «Составитель: …»)."""
        if index + 1 >= len(self.lines):
            return False
        following = self.lines[index + 1]
        return following.kind == "text" and not is_bullet(following.text) and not RULE_RE.match(following.text)

    def _rule(self, index: int, match: re.Match[str]) -> int:
        line = self.lines[index]
        number, text = match.group("number"), match.group("text").strip()
        is_heading_rule = not number[-1].isalpha() and is_title_like(text) and len(text) <= 60
        if is_heading_rule and (self.current is None or self.after_break):
            self._start(text, line.number)
        self._add(RawItem("rule", line.number, line.number, text=text, number=number))
        return index + 1

    def _bullet(self, index: int) -> int:
        line = self.lines[index]
        if self.current is None and not self.sections:
            self.warnings.append(IngestWarning(self.path, line.number, "ruling before any heading"))
        parts = [line.text[1:].strip()]
        last = line.number
        cursor = index + 1
        while (nxt := self._next_content(cursor)) is not None:
            candidate = self.lines[nxt]
            if candidate.kind != "text" or not SUB_ITEM_RE.match(candidate.text):
                break
            parts.append(candidate.text)
            last = candidate.number
            cursor = nxt + 1
        self._add(RawItem("ruling", line.number, last, text="\n".join(p for p in parts if p)))
        return cursor

    def _paragraph(self, index: int) -> int:
        line = self.lines[index]
        text = line.text
        following = self._text_at(self._next_content(index + 1))
        if len(text) <= 120 and CAPTION_RE.search(text) and (
            following is None or RULE_RE.match(following) or self._card_block_end_at(following, index)
        ):
            self._add(RawItem("caption", line.number, line.number, text=text))
            return index + 1
        parts, last, cursor = [text], line.number, index + 1
        while cursor < len(self.lines) and self.lines[cursor].kind == "text":
            candidate = self.lines[cursor].text
            if not SUB_ITEM_RE.match(candidate):
                break
            parts.append(candidate)
            last = self.lines[cursor].number
            cursor += 1
        self._add(RawItem("note", line.number, last, text="\n".join(parts)))
        return cursor

    def _card_block_end_at(self, _text: str, index: int) -> bool:
        nxt = self._next_content(index + 1)
        return nxt is not None and self._card_block_end(nxt) is not None

    # -- card blocks ------------------------------------------------------------------------------------
    def _card_block_end(self, index: int) -> int | None:
        """If a card block starts at ``index``, the index after its header (name, cost, type); else None."""
        name = self.lines[index].text
        if self.lines[index].kind not in ("text", "heading") or not is_title_like(name) or is_caps(name):
            return None
        following = self._next_content(index + 1)
        following_text = self._text_at(following)
        if following is None or following_text is None:
            return None
        if (named := NAME_COST_RE.match(name)) is not None and len(named.group("name")) <= MAX_CARD_NAME_LENGTH:
            return following + 1 if is_type_line(following_text) else None
        if len(name) > MAX_CARD_NAME_LENGTH:
            return None
        if is_mana_cost(following_text):
            type_index = self._next_content(following + 1)
            type_text = self._text_at(type_index)
            if type_index is not None and type_text is not None and is_type_line(type_text):
                return type_index + 1
            return None
        if is_type_line(following_text):
            return following + 1
        return None

    def _card(self, index: int, header_end: int) -> int:
        name_line = self.lines[index]
        header = [self.lines[i] for i in range(index + 1, header_end) if self.lines[i].kind == "text"]
        if name_line.kind == "heading":  # a page puts a blank after any heading: look at the lines under it
            first = self._next_content(index + 1) or index + 1
            spaced = any(self.lines[i].kind == "blank" for i in range(first + 1, min(header_end + 1, len(self.lines))))
        else:
            spaced = self.lines[index + 1].kind == "blank"
        block = CardBlock(name=name_line.text, first_line=name_line.number, last_line=header[-1].number)
        bare, first_body = False, True
        if (named := NAME_COST_RE.match(name_line.text)) is not None and not is_mana_cost(header[0].text):
            block.name, block.mana_cost = named.group("name"), named.group("cost")
        elif (cost := normalise_cost(header[0].text)) is not None:
            block.mana_cost = cost
            bare = "{" not in header[0].text  # "5W": the page prints every cost in bare letters
        block.type_line = header[-1].text
        if (glued := TRAILING_PT_RE.search(block.type_line)) is not None:  # "Creature — Ogre Warrior 3/5"
            block.type_line = block.type_line[: glued.start()].rstrip()
            block.power, block.toughness = glued.group("power"), glued.group("toughness")
            first_body = False
        split = split_type_line(block.type_line)
        assert split is not None  # guaranteed by _card_block_end
        block.supertypes, block.types, block.subtypes = split
        cursor = header_end
        blanks = 0
        while cursor < len(self.lines):
            line = self.lines[cursor]
            if line.kind == "blank":
                blanks += 1
                if not spaced and not name_line.quoted:
                    break
                cursor += 1
                continue
            if name_line.quoted and not line.quoted:
                break  # a quoted card block ends with its quote
            if spaced and not name_line.quoted and blanks >= 2:
                break  # its lines stand one blank apart; a wider gap ends the block
            blanks = 0
            if line.kind != "text" or self._ends_card_text(line.text, cursor):
                break
            text = brace_rules_line(line.text) if bare else line.text
            if first_body and (pt := PT_RE.match(text)):
                block.power, block.toughness = pt.group("power"), pt.group("toughness")
            elif block.loyalty is None and (loyalty := LOYALTY_LINE_RE.match(text)):
                block.loyalty = loyalty.group("value")  # "Loyalty: 3", wherever the block prints it
            elif first_body and "Planeswalker" in block.types and BARE_LOYALTY_RE.match(text):
                block.loyalty = text  # a bare loyalty line under the type line: "3"
            else:
                block.add_text_line(text)
            first_body = False
            block.last_line = line.number
            cursor += 1
        card_notes = self.part == "cards" and self.current is not None and (
            self.current.card_led or self._group_heading(self.current, block.name)
        )
        if self.current is None or self.after_break or card_notes:  # in card-specific notes, one card each
            self._start(block.name, block.first_line, card_led=True)
        self._add(RawItem("card", block.first_line, block.last_line, text=block.name, card=block))
        return cursor

    @staticmethod
    def _group_heading(section: RawSection, card_name: str) -> bool:
        """A heading over several cards in the card notes ("White", «Артефакты»): a section of its own, empty."""
        return section.heading is not None and section.heading != card_name and not section.items

    def _ends_card_text(self, text: str, index: int) -> bool:
        if is_bullet(text) or RULE_RE.match(text) or is_part_heading(text):
            return True
        if text.endswith(":") and not re.match(r"^[+−–-]?\d+:|^\[", text):
            return True  # «Официальные правила для … звучат так:»
        return self._card_block_end(index) is not None


def parse_structure(lines: list[Line], path: str) -> tuple[list[RawSection], list[IngestWarning]]:
    return StructureParser(lines, path).parse()
