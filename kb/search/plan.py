"""An engine-neutral query plan: what to look for, already analysed by our code.

The query parser and the glossary produce these nodes; an engine (``engine.py``) compiles them into its
own query objects. Keeping the plan free of whoosh types is what lets another engine be plugged in
without touching the analysis, the query language or the CLI.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

TEXT_FIELDS = ("text", "topic", "cards")
# A natural question's words, and the mechanics and terms it names, are looked for in the text and the
# section's topic, not in the card names: «damage» must not rank every ruling of Collateral Damage first.
# A card name the glossary recognises is looked for in the card names only: every ruling about the card then
# weighs the same for it, and the question's other words decide which one answers (quoted phrases search all).
WORD_FIELDS = ("text", "topic")
CARD_NAME_FIELDS = ("cards",)


@dataclass(frozen=True)
class Alt:
    """One position: any of these terms (the normal forms of an ambiguous word)."""

    terms: tuple[str, ...]
    fields: tuple[str, ...] = TEXT_FIELDS
    boost: float = 1.0


@dataclass(frozen=True)
class Phrase:
    """Positions in order, adjacent (stop words are not indexed, so they do not break adjacency)."""

    positions: tuple[tuple[str, ...], ...]
    fields: tuple[str, ...] = TEXT_FIELDS
    boost: float = 1.0
    exact: bool = True  # False: a glossary equivalent, which an engine may approximate by its words


@dataclass(frozen=True)
class Prefix:
    """``упорст*``: any indexed term starting with the prefix."""

    prefix: str
    fields: tuple[str, ...] = TEXT_FIELDS
    boost: float = 1.0


@dataclass(frozen=True)
class AnyOf:
    """Alternatives for the same idea (a word and its glossary equivalents): the best one counts."""

    children: tuple[Node, ...]
    boost: float = 1.0


@dataclass(frozen=True)
class Bool:
    """``must`` all match, ``should`` add to the score (one must match if there is no ``must``)."""

    must: tuple[Node, ...] = ()
    should: tuple[Node, ...] = ()
    must_not: tuple[Node, ...] = ()
    boost: float = 1.0


Node = Alt | Phrase | Prefix | AnyOf | Bool


def walk(node: Node) -> Iterator[Node]:
    """Every node of a plan, depth first."""
    yield node
    if isinstance(node, AnyOf):
        for child in node.children:
            yield from walk(child)
    elif isinstance(node, Bool):
        for child in (*node.must, *node.should):
            yield from walk(child)


def positive_terms(node: Node) -> tuple[set[str], set[str]]:
    """Terms and prefixes a hit may contain (negated parts excluded): what highlighting marks."""
    terms: set[str] = set()
    prefixes: set[str] = set()
    for sub in walk(node):
        if isinstance(sub, Alt):
            terms.update(sub.terms)
        elif isinstance(sub, Phrase):
            for position in sub.positions:
                terms.update(position)
        elif isinstance(sub, Prefix):
            prefixes.add(sub.prefix)
    return terms, prefixes


_last_question: tuple[Node | None, list[frozenset[str]] | None] = (None, None)


def question_units(node: Node | None) -> list[frozenset[str]] | None:
    """A natural question's units (each word with its readings and equivalents) as term sets, or None when
    the plan is not one (a single word, operators, phrases). The reranking and the confidence check of one
    query both ask: the last plan's answer is kept (by identity; the sets are immutable)."""
    global _last_question
    if _last_question[0] is node and node is not None:
        return _last_question[1]
    units = None
    if isinstance(node, Bool) and not node.must and not node.must_not and len(node.should) >= 2:
        units = [frozenset(positive_terms(unit)[0]) for unit in node.should]
    _last_question = (node, units)
    return units
