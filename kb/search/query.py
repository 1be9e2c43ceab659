"""The query language: natural questions, "phrases", AND / OR / NOT, -word, +word, prefix*.

A run of plain words is a natural question: each word adds to the score (none is required), each word
stands for all its normal forms, and glossary hits (RU↔EN terms, old wording, slang, card names) add
their equivalents as alternatives of the same idea. Operators are upper-case English words; ``-word`` /
``NOT word`` excludes, ``+word`` requires, ``word*`` matches a prefix, parentheses group.

A word that matches nothing in the index or the glossary is taken for a typo and retried with the
nearest known word one edit away; the correction is reported so the CLI can say what it searched.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

from kb.search.analysis import Token, fold, tokenize
from kb.search.glossary import CARD_PREFIX, Glossary, Positions, Term
from kb.search.plan import CARD_NAME_FIELDS, TEXT_FIELDS, WORD_FIELDS, Alt, AnyOf, Bool, Node, Phrase, Prefix

EXPANSION_BOOST = 0.8  # a glossary equivalent counts a little less than the user's own word
PHRASE_BOOST = 2.5  # the words of a multi-word term standing together count more than scattered
OPERATORS = {"AND": "AND", "OR": "OR", "NOT": "NOT"}
MIN_TYPO_LENGTH = 4
CARD_CONCEPT = CARD_PREFIX  # the glossary's card names (``card:<english name>``)
# A judge's longest question is a few hundred characters; a pasted page would cost seconds of analysis and
# typo correction (a 10 000-character query took 22 s on 10 000 entries), so longer queries are cut here.
MAX_QUERY_CHARS = 300

_LEX_RE = re.compile(
    r"""
    (?P<phrase>[-+]?["«“„][^"»”“]*["»”“]?)
    | (?P<lpar>[-+]?\()
    | (?P<rpar>\))
    | (?P<chunk>[^\s()"«»“”„]+)
    """,
    re.VERBOSE,
)
_SIGN_RE = re.compile(r"^([-+])(?=[^\d\s])")
_CYRILLIC_RE = re.compile(r"[А-Яа-яЁё]")


def is_dictionary_word(word: str) -> bool:
    from ingest.morphology import analyzer

    return bool(analyzer().word_is_known(fold(word)))


class Lexicon(Protocol):
    """What the query compiler asks the index: is a term known, and which known terms are near it."""

    def known(self, term: str) -> bool: ...

    def near(self, term: str) -> list[tuple[str, int]]:
        """Known terms one edit away, with their document frequency."""
        ...


@dataclass(frozen=True)
class Correction:
    word: str
    suggestion: str


@dataclass
class CompiledQuery:
    plan: Node | None
    corrections: list[Correction] = field(default_factory=list)
    concepts: list[str] = field(default_factory=list)  # glossary concepts recognised (for --json / debug)
    unknown: list[str] = field(default_factory=list)  # words no index field, no glossary term, no typo fix knows


# --- lexing and parsing ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Lexeme:
    kind: str  # phrase | lpar | rpar | word | prefix | op
    text: str
    sign: str = ""  # "-" exclude, "+" require


def lex(query: str) -> list[_Lexeme]:
    out: list[_Lexeme] = []
    for match in _LEX_RE.finditer(query):
        kind = match.lastgroup or "chunk"
        text = match.group(0)
        sign = ""
        if kind in ("phrase", "lpar") and text[0] in "+-":
            sign, text = text[0], text[1:]
        if kind == "phrase":
            out.append(_Lexeme("phrase", text.strip("\"«»“”„"), sign))
        elif kind in ("lpar", "rpar"):
            out.append(_Lexeme(kind, text, sign))
        elif text in OPERATORS:
            out.append(_Lexeme("op", OPERATORS[text]))
        else:
            signed = _SIGN_RE.match(text)
            if signed:
                sign, text = signed.group(1), text[1:]
            if text.endswith("*") and len(text.rstrip("*")) >= 2:
                out.append(_Lexeme("prefix", text.rstrip("*"), sign))
            elif text.strip("*"):
                out.append(_Lexeme("word", text.strip("*"), sign))
    return out


class _Parser:
    """Recursive descent: or := and (OR and)*; and := seq (AND seq)*; seq := item+ (a natural group)."""

    def __init__(self, lexemes: list[_Lexeme], compiler: _Compiler) -> None:
        self.lexemes = lexemes
        self.i = 0
        self.compiler = compiler

    def peek(self) -> _Lexeme | None:
        return self.lexemes[self.i] if self.i < len(self.lexemes) else None

    def parse(self) -> Node | None:
        node = self.parse_or()
        while self.peek() is not None:  # stray ")" — skip it and keep what follows
            self.i += 1
            more = self.parse_or()
            node = _or(node, more)
        return node

    def parse_or(self) -> Node | None:
        node = self.parse_and()
        while (lx := self.peek()) is not None and lx.kind == "op" and lx.text == "OR":
            self.i += 1
            node = _or(node, self.parse_and())
        return node

    def parse_and(self) -> Node | None:
        parts = [self.parse_seq()]
        while (lx := self.peek()) is not None and lx.kind == "op" and lx.text == "AND":
            self.i += 1
            parts.append(self.parse_seq())
        present = [p for p in parts if p is not None]
        if len(present) <= 1:
            return present[0] if present else None
        return Bool(must=tuple(present))

    def parse_seq(self) -> Node | None:
        should: list[Node] = []
        must: list[Node] = []
        must_not: list[Node] = []
        run: list[str] = []

        def flush() -> None:
            if run:
                should.extend(self.compiler.natural(" ".join(run)))
                run.clear()

        while (lx := self.peek()) is not None:
            if lx.kind == "rpar" or (lx.kind == "op" and lx.text in ("AND", "OR")):
                break
            self.i += 1
            sign = lx.sign
            if lx.kind == "op":  # NOT
                flush()
                nxt = self.peek()
                if nxt is None:
                    break
                self.i += 1
                node = self.item(nxt)
                if node is not None:
                    must_not.append(node)
                continue
            if lx.kind == "word" and not sign:
                run.append(lx.text)
                continue
            flush()
            node = self.item(lx)
            if node is None:
                continue
            {"-": must_not, "+": must}.get(sign, should).append(node)
        flush()
        if not must and not must_not and len(should) == 1:
            return should[0]
        if not (must or should or must_not):
            return None
        return Bool(must=tuple(must), should=tuple(should), must_not=tuple(must_not))

    def item(self, lx: _Lexeme) -> Node | None:
        if lx.kind == "phrase":
            return self.compiler.phrase(lx.text)
        if lx.kind == "prefix":
            return Prefix(fold(lx.text))
        if lx.kind == "lpar":
            node = self.parse_or()
            if (close := self.peek()) is not None and close.kind == "rpar":
                self.i += 1
            return node
        if lx.kind == "word":
            units = self.compiler.natural(lx.text)
            return units[0] if len(units) == 1 else (Bool(should=tuple(units)) if units else None)
        return None


def _or(a: Node | None, b: Node | None) -> Node | None:
    if a is None or b is None:
        return a or b
    return Bool(should=(a, b))


# --- compiling words into plan nodes -------------------------------------------------------------------


class _Compiler:
    def __init__(self, glossary: Glossary | None, lexicon: Lexicon | None) -> None:
        self.glossary = glossary
        self.lexicon = lexicon
        self.corrections: list[Correction] = []
        self.concepts: list[str] = []
        self.unknown: list[str] = []

    def known(self, terms: tuple[str, ...]) -> bool:
        if self.lexicon is None:
            return True
        if self.glossary is not None and any(t in self.glossary.vocabulary for t in terms):
            return True
        return any(self.lexicon.known(t) for t in terms)

    def correct(self, tok: Token) -> tuple[str, ...]:
        """The token's terms, or the nearest known term when the word is a typo.

        Only words no dictionary knows are corrected: a Russian word pymorphy3 recognises is a real word
        the index happens not to contain (correcting «убирает» to «умирать» would be wrong), and a Latin
        word is only corrected towards the glossary (mechanic and card names), which we know to be MTG.
        """
        terms = tok.terms("query")
        if tok.kind != "word" or len(tok.surface) < MIN_TYPO_LENGTH or self.known(terms):
            return terms
        cyrillic = bool(_CYRILLIC_RE.search(tok.surface))
        if cyrillic and is_dictionary_word(tok.surface):
            self.unknown.append(tok.surface)
            return terms
        candidates: dict[str, int] = {}
        for term in {*terms, fold(tok.surface)}:
            if self.lexicon is not None and cyrillic:
                for near, freq in self.lexicon.near(term):
                    candidates[near] = max(candidates.get(near, 0), freq)
            if self.glossary is not None:
                for near in _within_one_edit(term, self.glossary.starting_with(term[:1])):
                    candidates.setdefault(near, 0)
        if not candidates:
            self.unknown.append(tok.surface)
            return terms
        best = max(sorted(candidates), key=lambda t: candidates[t])
        self.corrections.append(Correction(tok.surface, best))
        return (best,)

    def natural(self, text: str) -> list[Node]:
        """Units of a natural word run: one per word, or one per glossary hit spanning several words."""
        tokens = tokenize(text)
        alts = [self.correct(tok) if not tok.stop else tok.terms("query") for tok in tokens]
        hits = self.glossary.find(alts) if self.glossary is not None else []
        units: list[Node] = []
        i = 0
        for hit in [*hits, None]:
            stop_at = hit.start if hit is not None else len(tokens)
            units.extend(Alt(alts[k], fields=WORD_FIELDS) for k in range(i, stop_at) if not tokens[k].stop)
            if hit is None:
                break
            self.concepts.append(hit.concept)
            span = [alts[k] for k in range(hit.start, hit.end) if not tokens[k].stop]
            if span:
                fields = CARD_NAME_FIELDS if hit.concept.startswith(CARD_CONCEPT) else WORD_FIELDS
                units.append(self.expanded(tuple(span), hit.alternatives, fields))
            i = hit.end
        return units

    def expanded(
        self, span: tuple[tuple[str, ...], ...], alternatives: tuple[Term, ...], fields: tuple[str, ...] = TEXT_FIELDS
    ) -> Node:
        return _expanded(span, alternatives, fields)

    def phrase(self, text: str, fields: tuple[str, ...] = TEXT_FIELDS) -> Node | None:
        positions = tuple(self.correct(tok) for tok in tokenize(text) if not tok.stop)
        if not positions:
            return None
        if len(positions) == 1:
            return Alt(positions[0], fields=fields)
        return Phrase(positions, fields=fields)


_EXPANDED: dict[tuple[Positions, tuple[Positions, ...], tuple[str, ...]], Node] = {}
_EXPANDED_LIMIT = 4096


def _expanded(span: Positions, alternatives: tuple[Term, ...], fields: tuple[str, ...]) -> Node:
    """A glossary hit's unit (``_Compiler.expanded``), built once per span, wordings and fields: the same mechanic
    comes back in question after question (nodes are values: sharing one is safe)."""
    key = (span, tuple(term.search for term in alternatives), fields)
    found = _EXPANDED.get(key)
    if found is None:
        if len(_EXPANDED) >= _EXPANDED_LIMIT:
            _EXPANDED.pop(next(iter(_EXPANDED)))
        found = _EXPANDED[key] = _expansion(*key)
    return found


def _expansion(span: Positions, wordings: tuple[Positions, ...], fields: tuple[str, ...]) -> Node:
    """The user's words, their phrase, and the glossary's other wordings of the idea: the best one counts."""
    own: Node = (Alt(span[0], fields=fields) if len(span) == 1
                 else Bool(should=tuple(Alt(p, fields=fields) for p in span)))
    children: list[Node] = [own]
    if len(span) > 1:
        children.append(Phrase(span, fields=fields, boost=PHRASE_BOOST, exact=False))
    seen = {span}
    for search in wordings:
        if search in seen:
            continue
        seen.add(search)
        if len(search) == 1:
            children.append(Alt(search[0], fields=fields, boost=EXPANSION_BOOST))
        else:
            children.append(Phrase(search, fields=fields, boost=EXPANSION_BOOST * PHRASE_BOOST, exact=False))
    return AnyOf(tuple(children)) if len(children) > 1 else own


def _within_one_edit(word: str, vocabulary: Iterable[str]) -> list[str]:
    """Vocabulary words at Damerau-Levenshtein distance 1 (the glossary's words of the same first letter)."""
    n = len(word)
    out = []
    for cand in vocabulary:
        m = len(cand)
        if abs(m - n) > 1 or cand == word or cand[:1] != word[:1]:
            continue
        if _one_edit(word, cand):
            out.append(cand)
    return out


def _one_edit(a: str, b: str) -> bool:
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    return a[i:] == b[i + 1 :]


def limit_query(text: str, limit: int = MAX_QUERY_CHARS) -> str:
    """``text`` cut to at most ``limit`` characters, at a space when there is one in the last fifth."""
    if len(text) <= limit:
        return text
    space = text.rfind(" ", limit * 4 // 5, limit + 1)
    return text[: space if space != -1 else limit].rstrip()


def compile_query(text: str, glossary: Glossary | None = None, lexicon: Lexicon | None = None) -> CompiledQuery:
    """Parse and analyse a user query into a plan (``None`` when it holds nothing searchable)."""
    compiler = _Compiler(glossary, lexicon)
    plan = _Parser(lex(text), compiler).parse()
    return CompiledQuery(plan, compiler.corrections, compiler.concepts, compiler.unknown)


def name_filter(
    name: str, field_name: str, glossary: Glossary | None = None, lexicon: Lexicon | None = None
) -> Node | None:
    """A ``--card`` / ``--mechanic`` filter: the name (any language, any case form) within one field."""
    compiler = _Compiler(glossary, lexicon)
    own = compiler.phrase(name, fields=(field_name,))
    if own is None:
        return None
    tokens = tokenize(name)
    alts = [tok.terms("query") for tok in tokens]
    options: list[Node] = [own]
    if glossary is not None:
        for hit in glossary.find(alts):
            if hit.start == 0 and hit.end == len(tokens):
                for term in hit.alternatives:
                    node = (
                        Alt(term.search[0], fields=(field_name,))
                        if len(term.search) == 1
                        else Phrase(term.search, fields=(field_name,))
                    )
                    if node not in options:
                        options.append(node)
    return options[0] if len(options) == 1 else Bool(should=tuple(options))

