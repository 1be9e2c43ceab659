"""What a document says of itself: its title, set, date, when no manifest says it.

A page saved from magic.wizards.com, or its archived Markdown conversion, names itself in several places:
a metadata header (``[_metadata_:title]:- "Fate Reforged Release Notes"``, ``publish_date``), the HTML
``<title>`` and ``<meta>`` tags, the heading, "Document last modified November 24, 2014", "The *Gatecrash*
set contains 249 cards", download links (``EN_MTGGTC_FAQ.doc``). ``identify`` reads them all, so
``kb ingest PATH`` of a user's own copy gets its set code, language and date from the document itself.
"""

from __future__ import annotations

import html as html_lib
import re
from collections.abc import Mapping
from dataclasses import dataclass

from ingest.glossary import fold_name

_MD_META_RE = re.compile(r'^\s*\[_?metadata_?:(?P<key>[a-z_]+)\]:\s*-?\s*"(?P<value>[^"]*)"', re.MULTILINE)
_HTML_TITLE_RE = re.compile(r"<title[^>]*>(?P<value>.*?)</title>", re.IGNORECASE | re.DOTALL)
_HTML_META_RE = re.compile(
    r"""<meta\s+[^>]*?(?:name|property)\s*=\s*["'](?P<key>[^"']+)["'][^>]*?content\s*=\s*["'](?P<value>[^"']*)["']""",
    re.IGNORECASE,
)
_ISO_DATE_RE = re.compile(r"(?P<date>\d{4}-\d{2}-\d{2})")
_TITLE_SET_RES = [
    re.compile(r"^(?P<set>.+?)\s+(?:Release Notes|FAQ|Frequently Asked Questions|Update Bulletin)\b", re.IGNORECASE),
    re.compile(r"(?:Заметки к выпуску|по выпуску|выпуска)\s+«(?P<set>[^»]+)»", re.IGNORECASE),
    re.compile(r"^(?P<set>[^:]{3,40}):\s+(?:часто задаваемые вопросы|заметки к выпуску)", re.IGNORECASE),
]
_BODY_SET_RES = [
    re.compile(r"\bThe \*?(?P<set>[A-Z][^*\n]{2,40}?)\*? set (?:contains|includes|features)\b"),
    re.compile(r"Выпуск\s+«(?P<set>[^»]+)»\s+(?:содержит|включает)"),
]
_DOWNLOAD_CODE_RE = re.compile(r"\b[A-Z]{2}_(?:MTG)?(?P<code>[A-Z0-9]{3})_(?:FAQ|Release|RN|UB)", re.IGNORECASE)
_GENERIC_TITLES = {"frequently asked questions", "release notes", "faq", "часто задаваемые вопросы"}


@dataclass(frozen=True)
class Identity:
    title: str | None = None  # the page's own title: metadata, <title> or first heading
    set_name: str | None = None  # as the document names its set: "Gatecrash", «Незваные Гости»
    set_code: str | None = None  # "GTC": stated by the document, or its set name looked up in ``known_sets``
    published: str | None = None  # ISO date the page was published (metadata), a fallback for the date


def _clean_title(value: str) -> str:
    title = html_lib.unescape(re.sub(r"<[^>]+>", "", value)).strip()
    return re.split(r"\s+[|–-]\s+(?=MAGIC|Magic|Wizards)", title)[0].strip()


def _metadata(text: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for match in _MD_META_RE.finditer(text[:20000]):
        found.setdefault(match.group("key").lower(), match.group("value").strip())
    for match in _HTML_META_RE.finditer(text[:20000]):
        key = match.group("key").lower().split(":")[-1]
        found.setdefault({"published_time": "publish_date"}.get(key, key), html_lib.unescape(match.group("value")))
    if (title := _HTML_TITLE_RE.search(text[:20000])) is not None:
        found.setdefault("title", _clean_title(title.group("value")))
    return found


def set_name_in(title: str | None, body: str) -> str | None:
    """The set a title ("Fate Reforged Release Notes") or the release information ("The *Gatecrash* set …") names."""
    for pattern in _TITLE_SET_RES:
        if title and (match := pattern.search(title.strip("*_ "))) is not None:
            name = match.group("set").strip(" *_«»\"")
            if fold_name(name) not in _GENERIC_TITLES and len(name) <= 40:
                return name.title() if name.isupper() else name
    for pattern in _BODY_SET_RES:
        if (match := pattern.search(body)) is not None:
            return match.group("set").strip(" *_")
    return None


def identify(text: str, first_heading: str | None, known_sets: Mapping[str, str] | None = None) -> Identity:
    """Read the document's own statements of what it is; ``known_sets``: folded set name → set code."""
    meta = _metadata(text)
    title = meta.get("title") or first_heading
    name = set_name_in(title, text) or set_name_in(first_heading, text)
    code = None
    if name and known_sets:
        code = known_sets.get(fold_name(name))
    if code is None and (download := _DOWNLOAD_CODE_RE.search(text)) is not None:
        code = download.group("code").upper()
    published = None
    if (date := _ISO_DATE_RE.search(meta.get("publish_date", ""))) is not None:
        published = date.group("date")
    return Identity(title=title, set_name=name, set_code=code, published=published)


def description_lines(text: str) -> list[str]:
    """Metadata values that state a date ("Document last modified January 11, 2013"), to read it from."""
    meta = _metadata(text)
    return [value for key, value in meta.items() if key in ("description", "last_modified", "modified")]
