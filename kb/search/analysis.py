"""Text analysis shared by indexing and querying: MTG-aware tokens, Russian lemmas, English stems.

Why our own tokenizer: rulings hinge on tokens a generic analyzer destroys — mana symbols (``{2/B}``,
``{Q}``), counters and P/T (``-1/-1``, ``2/2``), rule numbers (``702.36d``) — and on words a stock stop
list drops (не, может, один, два, три). Russian words are replaced by *every* normal form pymorphy3
proposes, all at the same position, so an ambiguous form («стали»: стать / сталь) matches either reading
and still works inside phrases. ё is folded to е. Latin words are Porter2-stemmed.

This module is pickled by reference into the whoosh index (``MtgTokenizer``): keep its import path and
class names stable, and bump ``ANALYZER_VERSION`` whenever the produced terms change (the index is then
rebuilt automatically).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

ANALYZER_VERSION = "4"

# Order matters: the first alternative that matches wins at a given position.
_TOKEN_RE = re.compile(
    r"""
    (?P<symbol>\{[0-9A-Za-zА-Яа-я/]{1,5}\})                        # {2/B} {Q} {T} {W/U} {X}
    | (?P<pt>(?<![\w/.])[+-]?(?:\d+|[XxХх*])/[+-]?(?:\d+|[XxХх*])(?![\w/]))  # -1/-1 +1/+1 2/2 X/X -5/-0
    | (?P<rule>(?<![\w.])\d{3}\.\d+[a-z]?(?![0-9]))                 # 702.36d 702.36 104.5
    | (?P<signed>(?<![\w/])[+-]\d+(?![\w/]))                          # loyalty costs: +1 -4
    | (?P<word>[0-9A-Za-zА-Яа-яЁё]+(?:['’][A-Za-z]+)?)               # words; hyphens split parts
    """,
    re.VERBOSE,
)
_CYRILLIC_RE = re.compile(r"[А-Яа-яЁё]")
_LATIN_RE = re.compile(r"[A-Za-z]")
_RULE_PARENT_RE = re.compile(r"^(\d{3}\.\d+)[a-z]$")

# Our own stop list: function words only. Deliberately kept (rulings hinge on them): не, ни, нет, без,
# может/можно, только, один/два/три, каждый, все, если, когда.
def _wordlist(text: str) -> frozenset[str]:
    return frozenset(text.split())


RUSSIAN_STOPS = _wordlist(
    """
    а и в во на с со к ко о об обо от ото до по из изо за для у при про через же ли бы ведь вот то
    это этот эта эти этого этой этих этому тот та те того той тех как так также тоже что чтобы или либо
    его ее её их им ими ему ей он она оно они я мы ты вы меня мне нас нам вас вам себя себе
    такой такая такие такое ли-то будет будут был была было были быть
    """
)
ENGLISH_STOPS = _wordlist(
    """
    a an the of to in on at by for with is are was were be been being it its this that these those and
    or as from into than then there their they them he she his her you your i we our do does did what
    which who whom whose will would
    """
)
STOPS = RUSSIAN_STOPS | ENGLISH_STOPS


def fold(word: str) -> str:
    """Lower-case, ё → е (the same folding as ``ingest.morphology.fold``, without importing pymorphy3)."""
    return word.lower().replace("ё", "е")


# The corpus' word forms with their terms (Russian normal forms, English stems), computed at index time and
# stored with the index (``vocabulary.json``): a search looks words up here, and loads pymorphy3 or the stemmer
# only for a word it has never seen.
_VOCABULARY: dict[str, tuple[str, ...]] = {}


def use_vocabulary(vocabulary: dict[str, tuple[str, ...]]) -> None:
    """Answer ``word_terms`` for these word forms without pymorphy3 (what the index was built with)."""
    global _VOCABULARY
    _VOCABULARY = vocabulary
    word_terms.cache_clear()
    _WORD_TERMS.clear()


def russian_lemmas(folded: str) -> tuple[str, ...]:
    """Every normal form of a folded Russian word: from the stored vocabulary, else pymorphy3."""
    found = _VOCABULARY.get(folded)
    if found is not None:
        return found
    from ingest.morphology import lemmas

    return lemmas(folded)


def vocabulary_of(texts: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Every word form of ``texts`` (folded) → its terms, what ``use_vocabulary`` takes: a Russian word's normal
    forms, an English word's stem (whoosh's Porter2 is pure Python: 20–40 µs a new word, a tenth of a query)."""
    words = {fold(m.group(0)) for text in texts for m in _TOKEN_RE.finditer(text) if m.lastgroup == "word"}
    vocabulary: dict[str, tuple[str, ...]] = {}
    for word in sorted(words):
        if _CYRILLIC_RE.search(word):
            vocabulary[word] = russian_lemmas(word)
        elif _LATIN_RE.search(word):
            latin = _latin_form(word)
            vocabulary[latin] = (english_stem(latin),)
    return vocabulary


@dataclass(frozen=True, slots=True)
class Token:
    """One token of a text: its span in the text, its surface form and the terms it stands for."""

    start: int
    end: int
    surface: str
    kind: str  # symbol | pt | rule | signed | word
    stop: bool

    def terms(self, mode: str = "index") -> tuple[str, ...]:
        return token_terms(self.kind, self.surface, mode)


@lru_cache(maxsize=100_000)
def english_stem(word: str) -> str:
    from whoosh.lang.porter2 import stem

    return str(stem(word))


@lru_cache(maxsize=300_000)
def word_terms(word: str) -> tuple[str, ...]:
    """Terms for one word: all Russian normal forms, an English stem, or the folded form."""
    folded = fold(word)
    if _CYRILLIC_RE.search(folded):
        return russian_lemmas(folded)
    if _LATIN_RE.search(folded):
        latin = _latin_form(folded)
        return _VOCABULARY.get(latin) or (english_stem(latin),)
    return (folded,)


def _latin_form(folded: str) -> str:
    """A folded Latin word as it is stemmed: one apostrophe, no possessive «'s»."""
    folded = folded.replace("’", "'")
    return folded[:-2] if folded.endswith("'s") else folded


def token_terms(kind: str, surface: str, mode: str = "index") -> tuple[str, ...]:
    """The terms a token is indexed (or searched) under.

    A rule number is indexed under itself and its parent rule (``702.36d`` → ``702.36``) so that a
    search for ``702.36`` finds the sub-rules; a query for ``702.36d`` stays exact.
    """
    if kind == "word":
        return word_terms(surface)
    if kind == "rule":
        number = surface.lower()
        parent = _RULE_PARENT_RE.match(number)
        if parent and mode == "index":
            return (number, parent.group(1))
        return (number,)
    if kind == "pt":
        return (fold(surface).replace("х", "x"),)
    return (fold(surface),)


def tokenize(text: str) -> list[Token]:
    """Split text into tokens, marking stop words (callers decide whether to drop them)."""
    tokens: list[Token] = []
    for match in _TOKEN_RE.finditer(text):
        kind = match.lastgroup or "word"
        surface = match.group(0)
        stop = kind == "word" and fold(surface) in STOPS
        tokens.append(Token(match.start(), match.end(), surface, kind, stop))
    return tokens


def analyze(text: str, mode: str = "index") -> list[tuple[str, ...]]:
    """Positions of ``text`` without stop words; each position lists its alternative terms."""
    return [terms for _, _, terms in analyze_spans(text, mode)]


def analyze_spans(text: str, mode: str = "index") -> Iterator[tuple[int, int, tuple[str, ...]]]:
    """(start, end, terms) for each non-stop token: what highlighting needs to map terms back to text.

    The hot path of search (every hit's text is analysed for highlighting and coordination): it reads the
    regular expression's matches directly and memoises each word's terms, with no ``Token`` per word,
    which made it ten times slower at 100 000 entries. Same output as ``tokenize`` + ``Token.terms``.
    """
    words = _WORD_TERMS
    for match in _TOKEN_RE.finditer(text):
        kind = match.lastgroup or "word"
        surface = match.group(0)
        if kind == "word":
            terms = words.get(surface)
            if terms is None:
                if len(words) >= _WORD_TERMS_LIMIT:
                    words.clear()
                terms = words[surface] = () if fold(surface) in STOPS else word_terms(surface)
            if terms:
                yield match.start(), match.end(), terms
        else:
            yield match.start(), match.end(), token_terms(kind, surface, mode)


# surface form → its terms, () for a stop word (``analyze_spans``); cleared with the vocabulary
_WORD_TERMS: dict[str, tuple[str, ...]] = {}
_WORD_TERMS_LIMIT = 300_000


# --- whoosh adapter --------------------------------------------------------------------------------

from kb.search.lean_imports import prepare_whoosh  # noqa: E402  (kept below the pure-Python core)

prepare_whoosh()  # whoosh without urllib.request, asyncio and its English morphology (~45 ms)

from whoosh.analysis import Token as _WhooshToken  # noqa: E402
from whoosh.analysis import Tokenizer as _WhooshTokenizer  # noqa: E402


class MtgTokenizer(_WhooshTokenizer):
    """The whoosh face of ``analyze``: every alternative term of a position shares that position."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MtgTokenizer)

    def __hash__(self) -> int:
        return hash(MtgTokenizer)

    def __call__(
        self,
        value: str,
        positions: bool = False,
        chars: bool = False,
        keeporiginal: bool = False,
        removestops: bool = True,
        start_pos: int = 0,
        start_char: int = 0,
        tokenize: bool = True,
        mode: str = "",
        **kwargs: object,
    ) -> Iterator[_WhooshToken]:
        analysis_mode = "query" if mode == "query" else "index"
        token = _WhooshToken(positions, chars, removestops=removestops, mode=mode, **kwargs)
        pos = start_pos
        for start, end, terms in analyze_spans(value or "", analysis_mode):
            for term in terms:
                token.text = term
                token.boost = 1.0
                token.stopped = False
                if keeporiginal:
                    token.original = value[start:end]
                if positions:
                    token.pos = pos
                if chars:
                    token.startchar = start_char + start
                    token.endchar = start_char + end
                yield token
            pos += 1


def mtg_analyzer() -> MtgTokenizer:
    """The analyzer every text field of our index uses."""
    return MtgTokenizer()
