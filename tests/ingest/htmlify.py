"""Test helper: render a plain-text FAQ / release-notes document as a web page (HTML) or a web archive (Markdown).

The rendering follows what web FAQ pages do: a full ``<html>`` page with ``<head>``, navigation, scripts and a
footer around the article; section headings as ``<h3>`` (or ``<p><strong>``), part headings as ``<h2>``,
paragraphs as ``<p>``, ruling bullets as ``<ul><li>`` with their sub-items inside the ``<li>`` (``<br>`` or a
nested list), a card block as one ``<p>`` with ``<br>``-separated lines (or one ``<p>`` per line), ``-----`` as
``<hr>``; all text HTML-escaped.

The only thing taken from the text parser is *which lines are headings* (what a page's markup encodes and a
plain-text extraction loses) and where one block (bullet, card, paragraph) ends. Parsing the result still
goes through ``ingest.lines.from_html`` / ``from_markdown`` and the structure parser, like any page.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Literal

from ingest.lines import Line, from_text
from ingest.structure import RawItem, is_part_heading, parse_structure

BlockKind = Literal["part", "heading", "subheading", "separator", "ruling", "note", "rule", "card", "caption"]
HeadingStyle = Literal["h", "strong"]
SubItems = Literal["br", "nested"]
CardLines = Literal["br", "p"]


@dataclass(frozen=True)
class Block:
    kind: BlockKind
    lines: tuple[str, ...]


def blocks_of(text: str, path: str = "<text>") -> list[Block]:
    """The document as a sequence of blocks, in source order, as a page would mark them up."""
    lines = from_text(text)
    sections, _ = parse_structure(lines, path)
    items: dict[int, RawItem] = {}
    covered: set[int] = set()
    for section in sections:
        for item in section.items:
            items[item.first_line] = item
            covered.update(range(item.first_line, item.last_line + 1))
    by_number: dict[int, Line] = {line.number: line for line in lines}
    blocks: list[Block] = []
    number = 1
    last = max(by_number, default=0)
    while number <= last:
        line = by_number[number]
        if number in items:
            item = items[number]
            span = [by_number[n] for n in range(item.first_line, item.last_line + 1)]
            texts = tuple(entry.text for entry in span if entry.kind in ("text", "heading") and entry.text)
            blocks.append(Block(item.kind, texts))
            number = item.last_line + 1
            continue
        if line.kind == "separator":
            blocks.append(Block("separator", ()))
        elif line.kind in ("text", "heading") and number not in covered:
            blocks.append(Block(_heading_kind(line.text, blocks), (line.text,)))
        number += 1
    return blocks


def _heading_kind(text: str, before: list[Block]) -> BlockKind:
    if is_part_heading(text):
        return "part"
    letters = [ch for ch in text if ch.isalpha()]
    caps = len(letters) >= 4 and all(ch.isupper() for ch in letters)
    previous = next((b for b in reversed(before)), None)
    if caps and previous is not None and previous.kind not in ("separator", "part"):
        return "subheading"
    return "heading"


# -- HTML ---------------------------------------------------------------------------------------------------
_PAGE_HEAD = """<!DOCTYPE html>
<html lang="{lang}">
<head>
  <meta charset="utf-8">
  <title>{title} | Magic: The Gathering</title>
  <link rel="stylesheet" href="/static/site.css">
  <script>window.dataLayer = window.dataLayer || []; var banner = "<p>Not content</p>";</script>
  <style>p.note {{ color: #333; }}</style>
</head>
<body class="article-page">
<nav class="site-nav">
  <ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/rules">Rules</a></li></ul>
</nav>
<script src="/static/analytics.js"></script>
<div id="content">
<article class="faq">
<!-- article body starts here -->
"""
_PAGE_FOOT = """<div class="share"><button type="button">Share</button></div>
</article>
</div>
<footer><p>&copy; Wizards of the Coast LLC. All rights reserved.</p></footer>
<script>document.querySelectorAll("li").forEach(function (e) {{ e.dataset.seen = "1"; }});</script>
</body>
</html>
"""
_REMINDER_RE = re.compile(r"(\([^()]*\))")


def _esc(text: str) -> str:
    return html.escape(text, quote=False)


def _card_line(text: str) -> str:
    """Card text as pages print it: reminder text in italics."""
    return "".join(f"<i>{_esc(part)}</i>" if _REMINDER_RE.fullmatch(part) else _esc(part)
                   for part in _REMINDER_RE.split(text))


def to_html(
    text: str,
    *,
    title: str = "Release Notes",
    lang: str = "ru",
    heading_style: HeadingStyle = "h",
    sub_items: SubItems = "br",
    card_lines: CardLines = "br",
) -> str:
    """A full web page for the text document."""
    out: list[str] = [_PAGE_HEAD.format(lang=lang, title=_esc(title))]
    in_list = False
    for block in blocks_of(text):
        if block.kind != "ruling" and in_list:
            out.append("</ul>")
            in_list = False
        if block.kind == "ruling":
            if not in_list:
                out.append('<ul class="rulings">')
                in_list = True
            out.append(_li(block.lines, sub_items))
        elif block.kind == "separator":
            out.append("<hr>")
        elif block.kind == "part":
            out.append(f"<h2>{_esc(block.lines[0])}</h2>")
        elif block.kind == "heading":
            out.append(f"<h3>{_esc(block.lines[0])}</h3>" if heading_style == "h"
                       else f"<p><strong>{_esc(block.lines[0])}</strong></p>")
        elif block.kind == "subheading":
            out.append(f"<h4>{_esc(block.lines[0])}</h4>" if heading_style == "h"
                       else f"<p><b>{_esc(block.lines[0])}</b></p>")
        elif block.kind == "card":
            if card_lines == "br":
                out.append('<p class="card">' + "<br>\n".join(_card_line(t) for t in block.lines) + "</p>")
            else:
                out.extend(f"<p>{_card_line(t)}</p>" for t in block.lines)
        else:
            out.append("<p>" + "<br>\n".join(_esc(t) for t in block.lines) + "</p>")
    if in_list:
        out.append("</ul>")
    out.append(_PAGE_FOOT.format())
    return "\n".join(out)


def _li(lines: tuple[str, ...], sub_items: SubItems) -> str:
    first, rest = lines[0], lines[1:]
    body = _esc(first.removeprefix("*").strip())
    if not rest:
        return f"<li>{body}</li>"
    if sub_items == "br":
        return "<li>" + "<br>\n".join([body, *(_esc(t) for t in rest)]) + "</li>"
    nested = "".join(f"<li>{_esc(t)}</li>" for t in rest)
    return f"<li>{body}\n<ul>{nested}</ul></li>"


# -- Markdown -----------------------------------------------------------------------------------------------
_MD_SPECIAL_RE = re.compile(r"([\\`*_\[\]])")
_MD_LINE_START_RE = re.compile(r"^(#|[-+](?=\s)|>)")


def _md_esc(text: str) -> str:
    return _MD_LINE_START_RE.sub(r"\\\1", _MD_SPECIAL_RE.sub(r"\\\1", text))


def to_markdown(text: str, *, heading_style: Literal["#", "**"] = "#", bullet: Literal["*", "-"] = "*") -> str:
    """Markdown as web archives (html2text and the like) produce it from such a page."""
    out: list[str] = []
    for block in blocks_of(text):
        if block.kind == "separator":
            out.append("---")
        elif block.kind == "part":
            out.append(f"## {_md_esc(block.lines[0])}")
        elif block.kind == "heading":
            out.append(f"### {_md_esc(block.lines[0])}" if heading_style == "#" else f"**{_md_esc(block.lines[0])}**")
        elif block.kind == "subheading":
            out.append(f"#### {_md_esc(block.lines[0])}" if heading_style == "#"
                       else f"**{_md_esc(block.lines[0])}**")
        elif block.kind == "ruling":
            first, rest = block.lines[0], block.lines[1:]
            out.append("\n".join([f"{bullet} {_md_esc(first.removeprefix('*').strip())}",
                                  *(f"  {_md_esc(t)}" for t in rest)]))
        else:  # paragraphs and card blocks: one line each, joined by hard line breaks
            out.append("  \n".join(_md_esc(t) for t in block.lines))
        out.append("")
    return "\n".join(out)
