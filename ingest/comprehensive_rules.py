"""The official Comprehensive Rules text file → one version's rules and glossary entries.

Every published version has the same layout, which is what this parser relies on::

    Magic: The Gathering Comprehensive Rules        (title; 2009–2013 files write "_Magic: The Gathering_")
    These rules are effective as of <Month D, YYYY>. (2007–2008: "current as of"; the date is the version)
    Introduction …  Contents (a table of contents: parts, chapters, "Glossary", "Credits")
    1. Game Concepts / 100. General / 100.1. … / 100.1a …   (the rules; "Example:" paragraphs follow a rule)
    Glossary  (terms: a line, then its definition lines; blank lines between terms)
    Credits

Files come as UTF-8 (with or without BOM) or Windows-1252, with LF, CRLF or lone CR line ends (the 2026
file mixes CR and CRLF), so line ends are normalised before anything else and line numbers count each
kind once. A file is recognised by its content (the title line), never by its name.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import datetime

from ingest.decode import decode
from ingest.entries import (
    CRGlossary,
    CRRule,
    CRRuleKind,
    CRVersion,
    IngestWarning,
    ParsedRules,
    SourceSpan,
    content_hash,
)
from ingest.errors import IngestError

TITLE_RE = re.compile(r"^_?Magic: The Gathering_? Comprehensive Rules$")
DATE_RE = re.compile(r"^These rules are (?:effective|current) as of (?P<date>[A-Z][a-z]+ \d{1,2}, \d{4})\.$")
LINE_END_RE = re.compile(r"\r\n|\r|\n")
# "1. Game Concepts", "100. General", "100.1. These Magic rules…" / "609.6 In the Teams…", "702.78a Conspire is…"
NUMBERED_RE = re.compile(
    r"^(?:(?P<part>\d)\.|(?P<chapter>\d{3})\.|(?P<rule>\d{3}\.\d+)\.?|(?P<subrule>\d{3}\.\d+[a-z])\.?)\s+(?P<text>\S.*)$"
)
# a misprint of the 2009 file: "702. 37a Storm is…" for "702.37a"
SPACED_NUMBER_RE = re.compile(r"^(\d{3})\. (\d+[a-z]?\.?\s)")
SENTENCE_END_RE = re.compile(r"[.:;!?\"')\]”’]$")
HEAD_LINES = 12  # the title and the date line stand at the top of every version


def looks_like_comprehensive_rules(data: bytes) -> bool:
    """True when the file's first line is the CR title (whatever its encoding or line ends)."""
    head = data[:400].removeprefix(b"\xef\xbb\xbf").decode("utf-8", errors="replace")
    first = next((line.strip() for line in LINE_END_RE.split(head) if line.strip()), "")
    return bool(TITLE_RE.match(first))


def parse_comprehensive_rules(data: bytes, label: str) -> ParsedRules:
    """Parse one CR file; raise ``IngestError`` (file:line) when its layout is not the official one."""
    text, encoding = decode(data, label, legacy="cp1252")
    lines = [line.rstrip() for line in LINE_END_RE.split(text)]
    return _Parser(lines, label, encoding, hashlib.sha256(data).hexdigest()).parse()


def glossary_slug(term: str) -> str:
    """``Bands with Other`` → ``bands-with-other``: the stable tail of a glossary entry's ID."""
    return re.sub(r"[^a-z0-9]+", "-", term.casefold().replace("’", "").replace("'", "")).strip("-") or "term"


@dataclass
class _Pending:
    """A rule being read: its number line, then continuation and example lines until the next number."""

    number: str
    kind: CRRuleKind
    start: int  # 0-based line index
    text: list[str]
    examples: list[str] = field(default_factory=list)


class _Parser:
    def __init__(self, lines: list[str], label: str, encoding: str, sha256: str) -> None:
        self.lines = lines
        self.label = label
        self.encoding = encoding
        self.sha256 = sha256
        self.warnings: list[IngestWarning] = []

    def fail(self, message: str, index: int | None) -> IngestError:
        return IngestError(self.label, message, None if index is None else index + 1)

    def parse(self) -> ParsedRules:
        title_at = next((i for i, line in enumerate(self.lines) if line.strip()), None)
        if title_at is None or not TITLE_RE.match(self.lines[title_at].strip()):
            raise self.fail("не файл Комплексных правил: нет заголовка «Magic: The Gathering Comprehensive Rules»",
                            title_at)
        version, iso_date = self._effective_date(title_at)
        body_at = self._body_start(title_at)
        glossary_at = self._find("Glossary", body_at, "после правил нет заголовка «Glossary»")
        credits_at = self._find("Credits", glossary_at + 1, "после глоссария нет заголовка «Credits»")
        doc_id = f"cr/{version}"
        entry = CRVersion(
            id=doc_id,
            document_id=doc_id,
            source=SourceSpan(self.label, title_at + 1, len(self.lines)),
            version=version,
            date=iso_date,
            title=self.lines[title_at].strip().replace("_", ""),
            sha256=self.sha256,
            encoding=self.encoding,
            content_hash=content_hash(version, self.sha256),
        )
        rules = self._rules(doc_id, version, body_at, glossary_at)
        if not rules:
            raise self.fail("между оглавлением и глоссарием нет пронумерованных правил", body_at)
        glossary = self._glossary(doc_id, version, glossary_at + 1, credits_at)
        return ParsedRules(version=entry, rules=rules, glossary=glossary, warnings=self.warnings)

    def _effective_date(self, title_at: int) -> tuple[str, str]:
        for index in range(title_at + 1, min(title_at + HEAD_LINES, len(self.lines))):
            match = DATE_RE.match(self.lines[index].strip())
            if match:
                try:
                    date = datetime.strptime(match["date"], "%B %d, %Y").date()
                except ValueError:
                    raise self.fail(f"не дата: «{match['date']}»", index) from None
                return date.strftime("%Y%m%d"), date.isoformat()
        raise self.fail("под заголовком нет строки «These rules are effective as of <дата>.»", title_at + 1)

    def _find(self, heading: str, start: int, message: str) -> int:
        for index in range(start, len(self.lines)):
            if self.lines[index].strip() == heading:
                return index
        raise self.fail(message, len(self.lines) - 1)

    def _body_start(self, title_at: int) -> int:
        """The first part heading after the table of contents (which lists the same headings once)."""
        start = title_at + 1
        contents = next((i for i in range(start, len(self.lines)) if self.lines[i].strip() == "Contents"), None)
        if contents is not None:
            start = self._find("Credits", contents + 1, "оглавление не заканчивается строкой «Credits»") + 1
        for index in range(start, len(self.lines)):
            match = NUMBERED_RE.match(self.lines[index].strip())
            if match and match["part"]:
                return index
        raise self.fail("нет правил: нет заголовка части вроде «1. Game Concepts»", start)

    def _rules(self, doc_id: str, version: str, start: int, end: int) -> list[CRRule]:
        rules: list[CRRule] = []
        seen: set[str] = set()
        current: _Pending | None = None
        last = start
        for index in range(start, end):
            line = self.lines[index].strip()
            if not line:
                continue
            if SPACED_NUMBER_RE.match(line):
                line = SPACED_NUMBER_RE.sub(r"\1.\2", line)
                self._warn(index, "номер правила напечатан с пробелом; прочитан как " + line.split()[0])
            match = NUMBERED_RE.match(line)
            if match:
                if current is not None:
                    self._close(current, last, doc_id, version, seen, rules)
                kind: CRRuleKind = next(k for k in ("part", "chapter", "rule", "subrule") if match[k])
                current = _Pending(match[kind], kind, index, [match["text"]])
            elif current is None:
                raise self.fail(f"текст до первого правила: «{line[:60]}»", index)
            elif line.startswith("Example") or current.examples:  # an example's own second paragraph too
                current.examples.append(line)
            else:
                current.text.append(line)
            last = index
        if current is not None:
            self._close(current, last, doc_id, version, seen, rules)
        return rules

    def _close(
        self, pending: _Pending, last: int, doc_id: str, version: str, seen: set[str], rules: list[CRRule]
    ) -> None:
        if pending.number in seen:
            self._warn(pending.start, f"правило {pending.number} встречается дважды; оставлено первое")
            return
        seen.add(pending.number)
        text = "\n".join(pending.text)
        rules.append(
            CRRule(
                id=f"{doc_id}/{pending.number}",
                document_id=doc_id,
                source=SourceSpan(self.label, pending.start + 1, last + 1),
                version=version,
                number=pending.number,
                kind=pending.kind,
                text=text,
                title=_title(pending.kind, text),
                examples=tuple(pending.examples),
                content_hash=content_hash(pending.number, text, *pending.examples),
            )
        )

    def _warn(self, index: int, message: str) -> None:
        self.warnings.append(IngestWarning(self.label, index + 1, message))

    def _glossary(self, doc_id: str, version: str, start: int, end: int) -> list[CRGlossary]:
        terms: list[CRGlossary] = []
        ids: set[str] = set()
        block: list[tuple[int, str]] = []
        for index in [*range(start, end), end]:
            line = self.lines[index].strip() if index < end else ""
            if line:
                block.append((index, line))
                continue
            if not block:
                continue
            (first, term), rest = block[0], block[1:]
            block = []
            if not rest:
                self._warn(first, f"у термина глоссария «{term}» нет определения")
                continue
            slug, counter = glossary_slug(term), 2
            entry_id = f"{doc_id}/glossary/{slug}"
            while entry_id in ids:
                entry_id, counter = f"{doc_id}/glossary/{slug}-{counter}", counter + 1
            ids.add(entry_id)
            text = "\n".join(line for _, line in rest)
            terms.append(
                CRGlossary(
                    id=entry_id,
                    document_id=doc_id,
                    source=SourceSpan(self.label, first + 1, rest[-1][0] + 1),
                    version=version,
                    term=term,
                    text=text,
                    content_hash=content_hash(term, text),
                )
            )
        return terms


def _title(kind: CRRuleKind, text: str) -> str | None:
    """Parts and chapters are headings; so is a rule whose text is a short name ("702.78. Conspire")."""
    if kind in ("part", "chapter"):
        return text
    if kind == "rule" and "\n" not in text and len(text) <= 80 and not SENTENCE_END_RE.search(text):
        return text
    return None
