"""Russian morphology shared by ingest (card mentions in any case form) and search (lemmatised index).

pymorphy3 with the ``pymorphy3-dicts-ru`` dictionaries, which ship as a PyPI package, so nothing is
fetched at run time. Parsing a word is the costly step, so results are cached per word form.
"""

from __future__ import annotations

import re
from functools import lru_cache

import pymorphy3

WORD_RE = re.compile(r"[0-9A-Za-zА-Яа-яЁё]+(?:[-'][0-9A-Za-zА-Яа-яЁё]+)*")
_CYRILLIC_RE = re.compile(r"[А-Яа-яЁё]")
_LATIN_RE = re.compile(r"[A-Za-z]")


@lru_cache(maxsize=1)
def analyzer() -> pymorphy3.MorphAnalyzer:
    return pymorphy3.MorphAnalyzer(lang="ru")


def fold(word: str) -> str:
    """Lower-case and fold ё to е, as players type and as older documents print."""
    return word.lower().replace("ё", "е")


@lru_cache(maxsize=200_000)
def lemmas(word: str) -> tuple[str, ...]:
    """Every normal form pymorphy3 proposes for a word form (ё folded), most likely first.

    Latin and numeric tokens are returned folded but not lemmatised: English stemming belongs to the
    search analyzer, and ingest only needs Russian forms.
    """
    folded = fold(word)
    if not _CYRILLIC_RE.search(folded):
        return (folded,)
    seen: list[str] = []
    for parse in analyzer().parse(folded):
        normal = fold(parse.normal_form)
        if normal not in seen:
            seen.append(normal)
    return tuple(seen) or (folded,)


def lemma(word: str) -> str:
    """The most likely normal form."""
    return lemmas(word)[0]


def words(text: str) -> list[tuple[int, int, str]]:
    """(start, end, word) for each word of ``text``; hyphenated words stay whole."""
    return [(m.start(), m.end(), m.group(0)) for m in WORD_RE.finditer(text)]


def language_of(text: str) -> str:
    """``"ru"`` or ``"en"`` by the majority script of the letters (``"ru"`` when there are none)."""
    cyrillic = len(_CYRILLIC_RE.findall(text))
    latin = len(_LATIN_RE.findall(text))
    return "en" if latin > cyrillic else "ru"
