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
from typing import Literal

from bs4 import BeautifulSoup, NavigableString, Tag

from ingest import boilerplate
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


def from_html(html: str, path: str) -> list[Line]:
    """An HTML page: headings, paragraphs, lists, ``<br>``-separated card blocks, ``<hr>`` separators.

    Line numbers are those of the HTML source (``sourceline`` of the element the text comes from).
    """
    html, images = boilerplate.html_images(html)  # mana symbols as text; other images are chrome
    soup = BeautifulSoup(html, "html.parser")
    links = boilerplate.html_link_blocks(soup)
    root = soup.body or soup
    lines: list[Line] = []
    _walk(root, lines)
    if not any(line.kind in ("text", "heading") for line in lines):
        raise IngestError(path, "HTML page has no text")
    chrome = [(number, boilerplate.IMAGE) for number in images] + links
    return lines + [Line(number, "blank", dropped=(category,)) for number, category in chrome]


def _line_of(tag: Tag) -> int:
    return tag.sourceline or 1


def _walk(node: Tag, out: list[Line]) -> None:
    for child in node.children:
        if isinstance(child, NavigableString):
            if child.strip() and type(child) is NavigableString:
                out.append(Line(_line_of(node), "text", clean(str(child))))
            continue
        if not isinstance(child, Tag) or child.name in _SKIP_TAGS:
            continue
        name = child.name
        if name in _HEADING_TAGS or _is_bold_only(child):
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
