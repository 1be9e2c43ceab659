"""Every input format becomes one stream of lines with the same conventions.

The structure parser (``ingest.structure``) reads only this stream, so text, Markdown and HTML versions
of one document yield the same entries. Conventions of the stream:

- ``kind="blank"`` separates paragraphs, ``kind="separator"`` separates sections (``-----``, ``<hr>``);
- ``kind="heading"`` is an explicit heading (``***Title***``, ``## Title``, ``<h3>``); headings written
  as plain lines ("Цикл: Монументы") arrive as ``text`` and are recognised by the parser;
- a ruling bullet is a text line starting with ``"* "`` (``<li>`` and Markdown ``- `` become that);
- ``number`` is the line in the source file, for warnings and source spans;
- ``quoted`` marks a line of a ``> `` block quote (how archived pages set card blocks and rule excerpts);
- ``dropped`` names the page chrome removed from the line (``ingest.boilerplate``), to be counted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Literal

import html5lib
from bs4 import BeautifulSoup, NavigableString, Tag
from bs4.builder._html5lib import HTML5TreeBuilder

from ingest import boilerplate
from ingest.entries import IngestWarning
from ingest.errors import IngestError

LineKind = Literal["text", "blank", "heading", "separator"]


@dataclass(frozen=True)
class Line:
    number: int
    kind: LineKind
    text: str = ""
    quoted: bool = False
    dropped: tuple[str, ...] = ()


_SEPARATOR_RE = re.compile(r"^\s*(?:-{3,}|_{3,}|={3,}|\*\s*\*\s*\*[\s*]*)\s*$")
_NOISE_RE = re.compile(r"^\s*[|¦]+\s*$")
_STARRED_HEADING_RE = re.compile(r"^\s*\*{2,3}\s*(?P<title>[^*].*?)\s*\*{2,3}\s*$")
_MD_HEADING_RE = re.compile(r"^\s{0,3}#{1,6}\s+(?P<title>.+?)\s*#*\s*$")
_MD_BULLET_RE = re.compile(r"^\s{0,3}[-+*]\s+(?P<body>.*)$")
_MD_LINK_RE = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_MD_ESCAPE_RE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|>])")
_MD_EMPHASIS_RE = re.compile(r"(?<![\w*\\])(\*{1,2}|_{1,2})(?=\S)(.+?)(?<=[^\s\\])\1(?![\w*])")  # not \*escaped\*
_WS_RE = re.compile(r"[ \t\u00a0\u2009\u202f]+")


def clean(text: str) -> str:
    """Fold runs of white space (incl. no-break spaces) and trim."""
    return _WS_RE.sub(" ", text).strip()


def from_text(text: str) -> list[Line]:
    """Plain text as extracted from web pages, with its noise (``|`` lines, ``-----``, ``***Title***``)."""
    lines: list[Line] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or _NOISE_RE.match(raw):
            lines.append(Line(number, "blank"))
        elif _SEPARATOR_RE.match(raw):
            lines.append(Line(number, "separator"))
        elif match := _STARRED_HEADING_RE.match(raw):
            lines.append(Line(number, "heading", clean(match.group("title"))))
        else:
            lines.append(Line(number, "text", clean(raw)))
    return lines


def from_markdown(text: str) -> list[Line]:
    """Markdown as web archives produce it: ``#``/setext headings, ``-``/``*`` bullets, ``**bold**`` headings.

    A front-matter header (``---`` … ``---`` at the top), link reference lines, image-only and link-only
    lines are page chrome (``ingest.boilerplate``); mana symbol images become ``{U}``. Inside a ``> `` quote
    (a card block), list items are the card's modes (``• …``), not rulings.
    """
    raws = text.splitlines()
    header_end = _front_matter_end(raws)
    lines: list[Line] = []
    for number, raw in enumerate(raws, start=1):
        quoted = raw.lstrip().startswith(">")
        body = _QUOTE_RE.sub("", raw) if quoted else raw
        stripped = body.strip()
        if number <= header_end:
            lines.append(Line(number, "blank", dropped=(boilerplate.ARCHIVE_HEADER,) if stripped else ()))
        elif category := boilerplate.markdown_line_category(raw):
            lines.append(Line(number, "blank", dropped=(category,)))
        elif not stripped or _NOISE_RE.match(body):
            lines.append(Line(number, "blank"))
        elif _SETEXT_RE.match(raw) and lines and lines[-1].kind == "text" and lines[-1].number == number - 1:
            lines[-1] = replace(lines[-1], kind="heading")  # "Title" over "=====": a heading, not a separator
            lines.append(Line(number, "blank"))
        elif _SEPARATOR_RE.match(body):
            lines.append(Line(number, "separator"))
        elif (match := _MD_HEADING_RE.match(body)) or (match := _STARRED_HEADING_RE.match(body)):
            title, images = _md_inline(match.group("title").replace("*", " "))
            lines.append(_md_line(number, "heading", title, images, quoted))
        elif match := _MD_BULLET_RE.match(body):
            item, images = _md_inline(match.group("body"))
            marker = "• " if quoted else "* "
            lines.append(_md_line(number, "text", marker + item, images, quoted) if item else Line(number, "blank"))
        else:
            text_line, images = _md_inline(stripped)
            lines.append(_md_line(number, "text", text_line, images, quoted))
    return lines


_QUOTE_RE = re.compile(r"^\s*(?:>\s?)+")
_SETEXT_RE = re.compile(r"^\s{0,3}={3,}\s*$")  # "---" under text stays a separator, as pages mean it


def _front_matter_end(raws: list[str]) -> int:
    """Last line of a ``---`` … ``---`` metadata header opening the file (0: none)."""
    first = next((i for i, raw in enumerate(raws) if raw.strip()), None)
    if first is None or raws[first].strip() != "---":
        return 0
    for index in range(first + 1, min(len(raws), first + 60)):
        if raws[index].strip() == "---":
            return index + 1
    return 0


def _md_line(number: int, kind: LineKind, text: str, images: int, quoted: bool) -> Line:
    dropped = (boilerplate.IMAGE,) if images else ()
    if not text:
        return Line(number, "blank", dropped=dropped)
    return Line(number, kind, text, quoted=quoted, dropped=dropped)


def _md_inline(text: str) -> tuple[str, int]:
    """Inline Markdown → plain text, and how many (non-mana) images it had."""
    text, images = boilerplate.markdown_images(text)
    text = _MD_LINK_RE.sub(r"\1", text)
    text = _MD_EMPHASIS_RE.sub(r"\2", text)
    text = _MD_ESCAPE_RE.sub(r"\1", text)
    return clean(text.rstrip("\\")), images


_HEADING_TAGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
_BLOCK_TAGS = {"p", "div", "section", "article", "main", "blockquote", "pre", "td", "th", "dd", "dt", "center"}
_SKIP_TAGS = {"script", "style", "noscript", "template", "head", "nav", "footer", "form", "button", "svg"}
_LIST_TAGS = {"ul", "ol"}


MAX_HTML_WARNINGS = 20  # a badly broken page: the first repairs, then one line saying how many more


class _RecoveringBuilder(HTML5TreeBuilder):
    """html5lib's tree builder, keeping the parse errors html5lib recovered from (bs4 drops them).

    html5lib implements the WHATWG parsing algorithm, so a broken page gets the tree a browser would build:
    an unclosed ``<h2>`` ends at the next heading, a stray ``</div>`` is ignored, misnested tags are
    re-nested. Each repair is reported (position, html5lib's error code) so ingest can warn about it.
    """

    def feed(self, markup: Any) -> None:
        parser = html5lib.HTMLParser(tree=self.create_treebuilder)
        self.underlying_builder.parser = parser
        document = parser.parse(markup)
        document.original_encoding = None
        self.parse_errors: list[tuple[tuple[int, int], str, dict[str, Any]]] = list(parser.errors)
        self.underlying_builder.parser = None


def parse_html(html: str) -> tuple[BeautifulSoup, list[tuple[int, str, dict[str, Any]]]]:
    """The page's tree as a browser builds it, and the repairs made: (line, html5lib error code, details)."""
    builder = _RecoveringBuilder()
    soup = BeautifulSoup(html, builder=builder)
    repairs = [
        (position[0], code, dict(details or {}))
        for position, code, details in getattr(builder, "parse_errors", [])
        if not code.startswith(_IGNORED_HTML_ERRORS)
    ]
    return soup, repairs


# A missing doctype changes nothing for a document's text; so do the pedantic tokenizer notes below.
_IGNORED_HTML_ERRORS = ("expected-doctype-but-got", "unknown-doctype", "non-void-element-with-trailing-solidus")


def _repair_warning(path: str, line: int, code: str, details: dict[str, Any]) -> IngestWarning:
    """A repair as a warning: the catalogue key by what was wrong, html5lib's code for the rest."""
    name = str(details.get("expectedName") or details.get("name") or "")
    if code.startswith(("expected-closing-tag-but-got-eof", "eof-in-", "expected-one-end-tag-but-got-another")):
        key, english = "warn.html.unclosed", f"unclosed <{name}> (HTML recovered as a browser would)"
    elif code.startswith(("unexpected-end-tag", "end-tag-too-early")):
        key, english = "warn.html.end_tag", f"</{name}> out of place: stray, or closing open tags (HTML recovered)"
    elif code.startswith("adoption-agency"):
        key, english = "warn.html.misnested", f"misnested <{name}> re-nested (HTML recovered as a browser would)"
    elif code == "unexpected-start-tag":
        key, english = "warn.html.start_tag", f"<{name}> where it cannot be: the open tag before it closed"
    else:
        key, english = "warn.html.other", f"HTML error {code} (recovered as a browser would)"
    return IngestWarning(path, max(line, 1), english, key=key, values={"tag": name, "code": code})


def from_html(html: str, path: str, warnings: list[IngestWarning] | None = None) -> list[Line]:
    """An HTML page: headings, paragraphs, lists, ``<br>``-separated card blocks, ``<hr>`` separators.

    Line numbers are those of the HTML source (``sourceline`` of the element the text comes from). A
    malformed page is parsed the way a browser parses it (``parse_html``); each repair goes to ``warnings``.
    """
    html, images = boilerplate.html_images(html)  # mana symbols as text; other images are chrome
    soup, repairs = parse_html(html)
    if warnings is not None:
        shown = repairs[:MAX_HTML_WARNINGS]
        warnings.extend(_repair_warning(path, line, code, details) for line, code, details in shown)
        if len(repairs) > MAX_HTML_WARNINGS:
            more = len(repairs) - MAX_HTML_WARNINGS
            warnings.append(IngestWarning(path, repairs[MAX_HTML_WARNINGS][0] or 1, f"{more} more HTML repairs",
                                          key="warn.html.more", values={"count": more}))
    links = boilerplate.html_link_blocks(soup)
    root = soup.body or soup
    lines: list[Line] = []
    _walk(root, lines)
    if not any(line.kind in ("text", "heading") for line in lines):
        raise IngestError(path, "HTML page has no text", key="err.ingest.html_no_text")
    chrome = [(number, boilerplate.IMAGE) for number in images] + links
    return lines + [Line(number, "blank", dropped=(category,)) for number, category in chrome]


def _line_of(tag: Tag) -> int:
    return tag.sourceline or 1


def _walk(node: Tag, out: list[Line], children: list[Any] | None = None) -> None:
    for child in node.children if children is None else children:
        if isinstance(child, NavigableString):
            if child.strip() and type(child) is NavigableString:
                out.append(Line(_line_of(node), "text", clean(str(child))))
            continue
        if not isinstance(child, Tag) or child.name in _SKIP_TAGS:
            continue
        name = child.name
        if name in _HEADING_TAGS and _has_block_children(child):
            _unclosed_heading(child, out)
        elif name in _HEADING_TAGS or _is_bold_only(child):
            title = clean(child.get_text(" "))
            if title:
                out.append(Line(_line_of(child), "heading", title.strip("*").strip()))
                out.append(Line(_line_of(child), "blank"))
        elif name == "hr":
            out.append(Line(_line_of(child), "separator"))
        elif name in _LIST_TAGS:
            _list(child, out)
            out.append(Line(_line_of(child), "blank"))
        elif name in _BLOCK_TAGS and _has_block_children(child):
            _walk(child, out)
        elif name in _BLOCK_TAGS or name == "li":
            for text in _br_lines(child):
                out.append(Line(_line_of(child), "text", text))
            out.append(Line(_line_of(child), "blank"))
        elif name == "br":
            out.append(Line(_line_of(child), "blank"))
        else:
            _walk(child, out)


def _unclosed_heading(tag: Tag, out: list[Line]) -> None:
    """A heading left open swallows what follows (``<h2>Тема<ul>…``), as in a browser's tree.

    Its own text up to the first block is the heading; the blocks after it are read as the section's body.
    """
    title_parts: list[str] = []
    children = list(tag.children)
    for index, child in enumerate(children):
        if isinstance(child, Tag) and child.name in _BLOCK_TAGS | _HEADING_TAGS | _LIST_TAGS | {"hr"}:
            rest = children[index:]
            break
        if isinstance(child, Tag):
            title_parts.append(child.get_text(" "))
        elif type(child) is NavigableString:
            title_parts.append(str(child))
    else:
        rest = []
    title = clean(" ".join(title_parts))
    if title:
        out.append(Line(_line_of(tag), "heading", title.strip("*").strip()))
        out.append(Line(_line_of(tag), "blank"))
    _walk(tag, out, rest)


def _list(tag: Tag, out: list[Line]) -> None:
    """Each ``<li>`` is a ruling bullet; its further lines (``<br>``, a nested list) are its sub-items.

    A list nested straight in the list (``<ul><li>…</li><ul><li>…</li></ul></ul>``, as some pages have it)
    holds sub-items of the bullet before it; stray text in the list is kept as a line of its own.
    """
    for child in tag.children:
        if isinstance(child, Tag) and child.name == "li":
            for index, text in enumerate(_br_lines(child)):
                out.append(Line(_line_of(child), "text", ("* " if index == 0 else "") + text))
        elif isinstance(child, Tag) and child.name not in _SKIP_TAGS:
            out.extend(Line(_line_of(child), "text", text) for text in _br_lines(child))
        elif type(child) is NavigableString and child.strip():
            out.append(Line(_line_of(tag), "text", clean(str(child))))


def _has_block_children(tag: Tag) -> bool:
    return any(
        isinstance(c, Tag) and (c.name in _BLOCK_TAGS | _HEADING_TAGS | _LIST_TAGS | {"hr"})
        for c in tag.children
    )


def _is_bold_only(tag: Tag) -> bool:
    """``<p><strong>Title</strong></p>`` is how many FAQ pages write section headings."""
    if tag.name != "p":
        return False
    children = [c for c in tag.children if not (isinstance(c, NavigableString) and not c.strip())]
    return (
        len(children) == 1
        and isinstance(children[0], Tag)
        and children[0].name in ("strong", "b")
        and bool(children[0].get_text(strip=True))
    )


_LINE_BREAK_TAGS = {"br", "li", "p", "div", "tr", "dd", "dt"} | _LIST_TAGS | _HEADING_TAGS


def _br_lines(tag: Tag) -> list[str]:
    """The element's text split at ``<br>``: one card-block line each.

    A nested list or paragraph inside the element (a ruling's sub-items as ``<li><ul><li>…``) also starts a
    new line; scripts, buttons and the like inside it are not text.
    """
    parts: list[str] = []
    current: list[str] = []

    def visit(node: Tag) -> None:
        nonlocal current
        for piece in node.children:
            if isinstance(piece, Tag):
                if piece.name in _SKIP_TAGS:
                    continue
                if piece.name in _LINE_BREAK_TAGS:
                    parts.append("".join(current))
                    current = []
                visit(piece)
                if piece.name in _LINE_BREAK_TAGS - {"br"}:
                    parts.append("".join(current))
                    current = []
            elif type(piece) is NavigableString:
                current.append(str(piece))

    visit(tag)
    parts.append("".join(current))
    return [text for text in (clean(p) for p in parts) if text]
