"""Where each entry lives in the exported site, and relative links between pages.

Every URL in the site is relative (the site works from ``file://``, a USB stick or any sub-path of a
host), so links are computed from the linking page's own path. Anchors are the entry IDs themselves:
they are stable across exports, which makes ``doc/shm.html#shm/persist/3`` a permanent link.
"""

from __future__ import annotations

import posixpath
import re
from functools import lru_cache

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def _safe(part: str) -> str:
    return _UNSAFE.sub("-", part).strip("-") or "_"


def document_page(document_id: str) -> str:
    return f"doc/{_safe(document_id)}.html"


def section_page(section_id: str) -> str:
    return "section/" + "/".join(_safe(part) for part in section_id.split("/")) + ".html"


def card_page(card_id: str) -> str:
    doc, _, slug = card_id.partition("/card/")
    return f"card/{_safe(doc)}/{_safe(slug or card_id)}.html"


def rule_page(document_id: str, number: str) -> str:
    return f"rule/{_safe(document_id)}/{_safe(number)}.html"


def in_document(document_id: str, entry_id: str) -> str:
    """The permanent link of an entry: its anchor on its document page."""
    return f"{document_page(document_id)}#{entry_id}"


def relative(from_page: str, target: str) -> str:
    """``target`` (site-root relative, may carry ``#anchor``) as seen from ``from_page``."""
    path, hash_, anchor = target.partition("#")
    if not path or (path == from_page and hash_):
        return f"#{anchor}"
    rel = _relpath(path, posixpath.dirname(from_page))
    return rel + (hash_ + anchor if hash_ else "")


@lru_cache(maxsize=4096)  # pages live in a few directories: the menu's and a section's links repeat from each
def _relpath(path: str, start: str) -> str:
    """``posixpath.relpath`` for two site-root relative paths, without its ``abspath`` (a ``getcwd`` per link:
    a site has millions of links). Anything unusual (``..``, ``//``, absolute) goes to ``posixpath``."""
    parts, base = path.split("/"), start.split("/") if start else []
    if path.startswith("/") or start.startswith("/") or any(p in ("", ".", "..") for p in parts + base):
        return posixpath.relpath(path, start or ".")
    common = 0
    while common < min(len(parts), len(base)) and parts[common] == base[common]:
        common += 1
    return "/".join([".."] * (len(base) - common) + parts[common:]) or "."


def clear_cache() -> None:
    """Forget the memoised relative links (once the pages are written)."""
    _relpath.cache_clear()


def root_of(page: str) -> str:
    """The relative prefix from ``page`` to the site root ("" or "../" …)."""
    depth = page.count("/")
    return "../" * depth
