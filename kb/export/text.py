"""Tokens and index terms for the in-browser search, mirrored one-to-one by ``static/search.js``.

Why not reuse the whoosh analyzer of ``kb.search``: the browser must analyse the query with exactly the
same tokenizer as the export used on the corpus, so the regular expression and the stop list live here,
next to their JavaScript copy (``TOKEN_SOURCE`` is written into the index, so the two cannot drift).
Russian words become every normal form pymorphy3 proposes; Latin words their Porter2 stem; mana symbols,
P/T and rule numbers stay whole (a rule number also stands for its parent rule: 702.36d → 702.36).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ingest.morphology import fold, lemmas

# Character classes are spelled out (no \w) so Python and JavaScript read them identically.
_L = "0-9A-Za-zА-Яа-яЁё_"
TOKEN_SOURCE = (
    r"(\{[0-9A-Za-zА-Яа-я/]{1,5}\})"  # 1: mana and other symbols {2/B} {Q} {T}
    rf"|((?<![{_L}/.])[+-]?(?:\d+|[XxХх*])/[+-]?(?:\d+|[XxХх*])(?![{_L}/]))"  # 2: P/T and counters -1/-1
    rf"|((?<![{_L}.])\d{{3}}\.\d+[a-z]?(?![0-9]))"  # 3: rule numbers 702.36d
    r"|([0-9A-Za-zА-Яа-яЁё]+)"  # 4: words (hyphenated words split into parts)
)
TOKEN_RE = re.compile(TOKEN_SOURCE)
KINDS = ("symbol", "pt", "rule", "word")
_CYRILLIC_RE = re.compile(r"[А-Яа-яЁё]")
_LATIN_RE = re.compile(r"[A-Za-z]")
_RULE_PARENT_RE = re.compile(r"^(\d{3}\.\d+)[a-z]$")

# Function words only: rulings hinge on не, может, один, два, три, каждый, все, если, когда.
_STOP_TEXT = """
    а и в во на с со к ко о об обо от ото до по из изо за для у при про через же ли бы ведь вот то
    это этот эта эти этого этой этих этому тот та те того той тех как так также тоже что чтобы или либо
    его ее их им ими ему ей он она оно они я мы ты вы меня мне нас нам вас вам себя себе
    такой такая такие такое будет будут был была было были быть
    a an the of to in on at by for with is are was were be been being it its this that these those and
    or as from into than then there their they them he she his her you your i we our do does did what
    which who whom whose will would
"""
STOP_WORDS = frozenset(_STOP_TEXT.split())


@dataclass(frozen=True, slots=True)
class Token:
    """One token: where it stands in the text, how it is written, and what kind it is."""

    start: int
    end: int
    surface: str
    kind: str

    @property
    def key(self) -> str:
        """The folded surface: what the browser looks up in its form table."""
        return fold(self.surface)

    @property
    def stop(self) -> bool:
        return self.kind == "word" and self.key in STOP_WORDS


def tokenize(text: str) -> list[Token]:
    tokens = []
    for match in TOKEN_RE.finditer(text):
        index = match.lastindex or 4
        tokens.append(Token(match.start(), match.end(), match.group(0), KINDS[index - 1]))
    return tokens


@lru_cache(maxsize=100_000)
def english_stem(word: str) -> str:
    from whoosh.lang.porter2 import stem

    return str(stem(word))


@lru_cache(maxsize=300_000)
def word_terms(key: str) -> tuple[str, ...]:
    """Index terms of one folded word: Russian normal forms, an English stem, or the word itself."""
    if _CYRILLIC_RE.search(key):
        return lemmas(key)
    if _LATIN_RE.search(key):
        return (english_stem(key),)
    return (key,)


def token_terms(token: Token, for_index: bool = True) -> tuple[str, ...]:
    key = token.key
    if token.kind == "word":
        return word_terms(key)
    if token.kind == "rule":
        parent = _RULE_PARENT_RE.match(key)
        return (key, parent.group(1)) if parent and for_index else (key,)
    if token.kind == "pt":
        return (key.replace("х", "x"),)
    return (key,)


def is_cyrillic(word: str) -> bool:
    return bool(_CYRILLIC_RE.search(word))


def is_latin(word: str) -> bool:
    return bool(_LATIN_RE.search(word)) and not is_cyrillic(word)
