"""Page chrome that is not the document: archive headers, navigation, images, download links, trademarks.

Official release notes and FAQs are read as they are published and archived (magic.wizards.com pages,
their Wayback Machine copies converted to Markdown, text saved from a browser). Around the document such
a page carries things that are no ruling, note or card: a metadata header, "Posted in Feature", author
pictures, "DOC Download Links", the trademark line. They are dropped, never parsed as notes, and counted
in the document's warnings with their line numbers (``dropped_warnings``), so nothing vanishes silently.

Mana symbols drawn as images (``![](…/manasymbols/blue.gif)``, ``<img src="…/symbols/U.gif">``) are not
chrome: they become ``{U}`` text (``mana_image_symbol``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from ingest.entries import IngestWarning

if TYPE_CHECKING:
    from bs4 import BeautifulSoup

    from ingest.lines import Line

ARCHIVE_HEADER = "archive header"
NAVIGATION = "navigation"
IMAGE = "image link"
DOWNLOAD = "download link"
TRADEMARK = "trademark line"
MARKUP = "markup residue"

# The file names mana symbol images have: "blue.gif", "colorless3.gif", "white-black.gif", "x.gif", "U.gif".
_COLOUR_WORDS = {
    "white": "W", "blue": "U", "black": "B", "red": "R", "green": "G", "colorless": "C", "snow": "S",
    "tap": "T", "untap": "Q", "x": "X", "y": "Y", "z": "Z", "phyrexian": "P",
}
_SYMBOL_PATH_RE = re.compile(r"(?:mana)?symbols?/(?P<stem>[A-Za-z0-9_-]+)\.(?:gif|png|svg|jpe?g)", re.IGNORECASE)
_GATHERER_SYMBOL_RE = re.compile(r"[?&]name=(?P<stem>[A-Za-z0-9]+)&(?:amp;)?type=symbol", re.IGNORECASE)


def _half(word: str) -> str | None:
    word = word.lower()
    if word.isdigit():
        return word
    if (match := re.fullmatch(r"colorless(\d+)", word)) is not None:
        return match.group(1)
    if word in _COLOUR_WORDS:
        return _COLOUR_WORDS[word]
    if len(word) == 1 and word.upper() in "WUBRGCSXYZTQP":
        return word.upper()
    return None


def mana_image_symbol(url: str) -> str | None:
    """``{U}`` for a mana symbol image's URL, ``{W/B}`` for a hybrid one; None for any other image."""
    match = _SYMBOL_PATH_RE.search(url) or _GATHERER_SYMBOL_RE.search(url)
    if match is None:
        return None
    stem = match.group("stem").lower().removeprefix("symbol_").removeprefix("mana_")
    halves = [_half(part) for part in re.split(r"[-_]", stem) if part]
    if not halves or len(halves) > 2 or any(h is None for h in halves):
        return None
    return "{" + "/".join(h for h in halves if h) + "}"


_MD_IMAGE_RE = re.compile(r"!\[(?P<alt>[^\]]*)\]\((?P<url>[^)\s]*)(?:\s+\"[^\"]*\")?\)")


def markdown_images(text: str) -> tuple[str, int]:
    """Mana images → ``{X}``, every other image removed; returns the text and how many images were removed."""
    removed = 0

    def substitute(match: re.Match[str]) -> str:
        nonlocal removed
        symbol = mana_image_symbol(match.group("url"))
        if symbol is not None:
            return symbol
        removed += 1
        return ""

    return _MD_IMAGE_RE.sub(substitute, text), removed


_HTML_IMG_RE = re.compile(r"<img\b[^>]*>", re.IGNORECASE)
_HTML_SRC_RE = re.compile(r"""\bsrc\s*=\s*["']?(?P<url>[^"'\s>]+)""", re.IGNORECASE)


def html_images(html: str) -> tuple[str, list[int]]:
    """Mana ``<img>`` → ``{X}`` text; returns the page and the source lines of the other images (dropped)."""
    dropped: list[int] = []

    def substitute(match: re.Match[str]) -> str:
        src = _HTML_SRC_RE.search(match.group(0))
        symbol = mana_image_symbol(src.group("url")) if src else None
        if symbol is not None:
            return symbol
        dropped.append(html.count("\n", 0, match.start()) + 1)
        return match.group(0)

    return _HTML_IMG_RE.sub(substitute, html), dropped


def html_link_blocks(soup: BeautifulSoup) -> list[tuple[int, str]]:
    """Paragraphs made only of links (download links, navigation) are removed; returns their source lines.

    Links to cards (Gatherer, autocard) are kept: a card block may set its name as one.
    """
    from bs4 import NavigableString, Tag

    dropped: list[tuple[int, str]] = []
    for tag in soup.find_all(["p", "li", "div", "td"]):
        if not isinstance(tag, Tag) or tag.find(["p", "div", "ul", "ol", "table", "blockquote"]) is not None:
            continue
        if tag.find_parent(["nav", "footer", "header", "head", "script", "form"]) is not None:
            continue  # never read as text anyway
        links = tag.find_all("a")
        rest = "".join(str(c) for c in tag.children if isinstance(c, NavigableString)).strip(" \n|•·/")
        if not links or rest or any(_CARD_LINK_RE.search(str(a.get("href", ""))) for a in links):
            continue
        if any(isinstance(c, Tag) and c.name not in ("a", "br", "span", "strong", "b") for c in tag.children):
            continue
        hrefs = " ".join(str(a.get("href", "")) for a in links)
        dropped.append((tag.sourceline or 1, DOWNLOAD if _DOWNLOAD_LINK_RE.search(hrefs) else NAVIGATION))
        tag.decompose()
    return dropped


# -- whole lines -----------------------------------------------------------------------------------------------
_MD_LINK_ONLY_RE = re.compile(r"^(?:[\s|•·*_]*\[[^\]]*\]\([^)]*\)[\s|•·*_]*)+$")
# "[_metadata_:author]:- "…"", "[1]: http://…"; not a loyalty ability "[+1]: Look at …"
_MD_REFERENCE_RE = re.compile(r"^\s*\[[^\]]+\]:\s*(?:-\s*\"|<?(?:https?:|/|www\.))")
_CARD_LINK_RE = re.compile(r"gatherer\.wizards\.com|autocard|/cards?/", re.IGNORECASE)
_DOWNLOAD_LINK_RE = re.compile(r"\.(?:doc|docx|pdf|txt|zip)\b|download", re.IGNORECASE)


def markdown_line_category(raw: str) -> str | None:
    """The chrome a raw Markdown line is wholly made of, if it is."""
    stripped = raw.strip().lstrip(">").strip()
    if not stripped:
        return None
    if _MD_REFERENCE_RE.match(stripped):
        return ARCHIVE_HEADER
    without_images, removed = markdown_images(stripped)
    if removed and not without_images.strip(" *_|"):
        return IMAGE
    if _MD_LINK_ONLY_RE.match(without_images) and not _CARD_LINK_RE.search(without_images):
        return DOWNLOAD if _DOWNLOAD_LINK_RE.search(without_images) else NAVIGATION
    return None


_TEXT_RULES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\btrademarks? of Wizards of the Coast|товарн\w* знак\w*.{0,80}Wizards|^©\s*\d{4}\s+Wizards",
                re.IGNORECASE), TRADEMARK),
    (re.compile(r"^(?:DOC|PDF|TXT)?\s*Download Links?\s*:?$|^Скачать(?: документ)?\s*:?$", re.IGNORECASE), DOWNLOAD),
    (re.compile(r"^(?:Posted in \S+(?: on .*)?|on [A-Z][a-z]+ \d{1,2}, \d{4}|By Wizards of the Coast"
                r"|Link to Wayback Machine|Опубликовано в .*)$"), NAVIGATION),
    (re.compile(r"^(?:\s*(?:/?&(?:gt|lt|amp|nbsp);|/?>|</?\w*/?>?|/))+\s*$"), MARKUP),  # "/&gt;": a tag's debris
    # "English | Français | Deutsch": a row of links saved as text (language names, menu items)
    (re.compile(r"^[^\W\d][^|.:;!?\d]{0,24}(?:\s\|\s[^\W\d][^|.:;!?\d]{0,24})+$"), DOWNLOAD),
]


def text_line_category(text: str) -> str | None:
    """The chrome a normalised text line is, whatever the format it came from."""
    if len(text) > 400:
        return None
    return next((category for pattern, category in _TEXT_RULES if pattern.search(text)), None)


def drop_chrome(lines: list[Line]) -> list[Line]:
    """Text lines that are chrome become blank lines that remember what they were."""
    result: list[Line] = []
    for line in lines:
        category = text_line_category(line.text) if line.kind in ("text", "heading") else None
        result.append(replace(line, kind="blank", text="", dropped=(*line.dropped, category)) if category else line)
    return result


def dropped_warnings(lines: Iterable[Line], path: str, extra: Iterable[tuple[int, str]] = ()) -> list[IngestWarning]:
    """One warning per kind of chrome: how many were dropped and where (the first line numbers)."""
    where: dict[str, list[int]] = {}
    for line in lines:
        for category in line.dropped:
            where.setdefault(category, []).append(line.number)
    for number, category in extra:
        where.setdefault(category, []).append(number)
    warnings: list[IngestWarning] = []
    for category, numbers in where.items():
        numbers = sorted(set(numbers))
        shown = ", ".join(str(n) for n in numbers[:12]) + (", …" if len(numbers) > 12 else "")
        warnings.append(IngestWarning(path, numbers[0], f"dropped {len(numbers)} {category}(s): lines {shown}"))
    return warnings


def dropped_count(warnings: Iterable[IngestWarning]) -> int:
    """How many lines of chrome the ``dropped_warnings`` of a document count."""
    total = 0
    for warning in warnings:
        if (match := re.match(r"dropped (\d+) ", warning.message)) is not None:
            total += int(match.group(1))
    return total
