"""The search engine behind a small interface of our own.

``Engine.build`` indexes ``IndexDoc``s into a directory; ``Engine.open`` returns a ``Searcher`` that runs
an engine-neutral plan (``plan.py``) with filters and answers lexicon questions for typo correction.
Analysis is ours (``analysis.py``): the engine only stores what our analyzer produced, and queries reach
it already analysed, so another engine can replace ``whoosh_engine.WhooshEngine`` without touching
parsing, glossary, highlighting or the CLI.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from kb.search.plan import Node
from kb.search.query import Lexicon

if TYPE_CHECKING:
    from kb.search.documents import IndexDoc


@dataclass(frozen=True)
class Filters:
    """Restrictions that do not affect the score."""

    documents: tuple[str, ...] = ()  # document ids (set codes lower-cased)
    kinds: tuple[str, ...] = ()
    langs: tuple[str, ...] = ()
    nodes: tuple[Node, ...] = ()  # --card / --mechanic, compiled by the query layer


@dataclass
class Hit:
    id: str
    kind: str
    document: str
    section: str
    lang: str
    text: str
    score: float
    extra: dict[str, Any] = field(default_factory=dict)
    # the terms of the hit's context as the index stored them (space-separated, ``confidence.context_terms``
    # of ``confidence.context_of(extra)``), or None: analysed when asked
    context: str | None = None


@dataclass
class Page:
    total: int
    hits: list[Hit]
    exact: bool = True  # False: ``total`` is the engine's estimate (very large indexes)


class Searcher(Lexicon, Protocol):
    def search(self, plan: Node | None, filters: Filters, limit: int) -> Page: ...

    def frequency(self, term: str) -> int: ...

    def doc_count(self) -> int: ...

    def close(self) -> None: ...


class Engine(Protocol):
    name: str

    def build(self, docs: Iterable[IndexDoc], directory: Path) -> int: ...

    def open(self, directory: Path) -> Searcher: ...


DEFAULT_ENGINE = "whoosh"  # the design's engine; tantivy is the optional fast one (``.[tantivy]``)
ENGINES = ("whoosh", "tantivy")
# An engine's own on-disk format, part of the index fingerprint (``kb.search.index.fingerprint``): a change
# rebuilds that engine's indexes only (``tantivy_engine.FORMAT``, kept here so tantivy is not imported).
ENGINE_FORMATS = {"tantivy": "4", "whoosh": "2"}  # whoosh 2: impact lists with positions (``whoosh_topk.FORMAT``)


class EngineUnavailable(Exception):
    """The engine asked for is not installed (the message says how to install it)."""


def get_engine(name: str = DEFAULT_ENGINE) -> Engine:
    """The engine registered under ``name`` (the index records which one built it)."""
    if name == "whoosh":
        from kb.search.lean_imports import prepare_whoosh

        prepare_whoosh()
        from kb.search.whoosh_engine import WhooshEngine

        return WhooshEngine()
    if name == "tantivy":
        try:
            import tantivy  # noqa: F401
        except ImportError as exc:
            raise EngineUnavailable("tantivy") from exc
        from kb.search.tantivy_engine import TantivyEngine

        return TantivyEngine()
    raise ValueError(f"unknown search engine {name!r}")
