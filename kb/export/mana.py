"""Mana and tap symbols drawn as symbols (CSS circles, inline SVG for {T}/{Q}); all other text escaped.

Why a filter rather than ``|safe``: source text must never become markup (the seeds contain
``<MagicTheGathering.com>``), so the text around each symbol is escaped here and only the symbol spans
we build ourselves are trusted.
"""

from __future__ import annotations

import re
from functools import lru_cache

from markupsafe import Markup, escape

SYMBOL_RE = re.compile(r"\{([0-9A-Za-zХх/]{1,5})\}")
_COLORS = {"W": "w", "U": "u", "B": "b", "R": "r", "G": "g", "C": "c", "S": "s"}
_NAMES = {
    "W": "белая мана",
    "U": "синяя мана",
    "B": "черная мана",
    "R": "красная мана",
    "G": "зеленая мана",
    "C": "бесцветная мана",
    "S": "снежная мана",
}
_TAP_SVG = (
    '<svg viewBox="0 0 16 16" aria-hidden="true" focusable="false"><path d="M4 12.5V6.2L2.6 7.6 1.5 6.5 4.8 3.2'
    ' 8.1 6.5 7 7.6 5.6 6.2v4.8h7v1.5z" fill="currentColor"/></svg>'
)
_UNTAP_SVG = (
    '<svg viewBox="0 0 16 16" aria-hidden="true" focusable="false"><path d="M12 3.5v6.3l1.4-1.4 1.1 1.1-3.3 3.3'
    '-3.3-3.3 1.1-1.1 1.4 1.4V5H3.5V3.5z" fill="currentColor"/></svg>'
)


def _part_class(part: str) -> str:
    return _COLORS.get(part, "n")


@lru_cache(maxsize=1024)
def symbol(code: str) -> Markup:
    """One symbol such as ``U``, ``2/B``, ``G/W``, ``X``, ``T``, ``Q`` as an accessible span (a few dozen codes
    recur across a whole site: each is built once, ``Markup.format`` being the costly part of a page)."""
    code_up = code.upper().replace("Х", "X")
    title = "{" + code_up + "}"
    if code_up == "T":
        return Markup('<span class="ms ms-tap" role="img" title="{{T}}" aria-label="повернуть">{}</span>').format(
            Markup(_TAP_SVG)
        )
    if code_up == "Q":
        return Markup('<span class="ms ms-untap" role="img" title="{{Q}}" aria-label="развернуть">{}</span>').format(
            Markup(_UNTAP_SVG)
        )
    parts = code_up.split("/")
    if len(parts) == 2:
        a, b = parts
        label = f"гибридная мана: {_NAMES.get(a, a)} или {_NAMES.get(b, b)}"
        return Markup(
            '<span class="ms ms-hybrid ms-{a}-{b}" role="img" title="{title}" aria-label="{label}">'
            '<span class="ms-half ms-top">{ta}</span><span class="ms-half ms-bot">{tb}</span></span>'
        ).format(a=_part_class(a), b=_part_class(b), title=title, label=label, ta=a, tb=b)
    if code_up in _COLORS:
        return Markup('<span class="ms ms-{c}" role="img" title="{t}" aria-label="{n}">{s}</span>').format(
            c=_COLORS[code_up], t=title, n=_NAMES[code_up], s=code_up
        )
    return Markup('<span class="ms ms-n" role="img" title="{t}" aria-label="{t}">{s}</span>').format(
        t=title, s=code_up
    )


def with_symbols(text: str | None) -> Markup:
    """Escape ``text`` and draw every ``{…}`` symbol in it."""
    if not text:
        return Markup("")
    if "{" not in text:
        return escape(text)
    out: list[str] = []
    last = 0
    for match in SYMBOL_RE.finditer(text):
        out.append(str(escape(text[last : match.start()])))
        out.append(str(symbol(match.group(1))))
        last = match.end()
    out.append(str(escape(text[last:])))
    return Markup("".join(out))


def mana_cost(cost: str | None) -> Markup:
    """A card's mana cost drawn as a row of symbols (an empty string for cost-less cards)."""
    if not cost:
        return Markup("")
    return Markup('<span class="cost">{}</span>').format(with_symbols(cost))
