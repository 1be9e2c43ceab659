"""Relevance measurement: the development query set, Recall@k / MRR, and the two baselines.

Used by ``scripts/bench_relevance.py`` and by the tests. The baselines index exactly the same
``IndexDoc``s (text, section topic and card names in one field) with stock whoosh analysis:
``StandardAnalyzer`` (no morphology) and ``LanguageAnalyzer("ru")`` (Snowball Russian stemmer and
stop list), queried through whoosh's own parser with OR grouping.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kb.search.documents import IndexDoc

Ranker = Callable[[str], list[str]]
DEV_SET = Path(__file__).resolve().parents[2] / "tests" / "search" / "dev_queries.json"


@dataclass(frozen=True)
class DevQuery:
    query: str
    relevant: tuple[str, ...]
    note: str = ""


@dataclass
class Metrics:
    name: str
    recall_at_1: float
    recall_at_5: float
    mrr: float
    ranks: list[int | None] = field(default_factory=list)  # 1-based rank of the first relevant hit

    def row(self) -> str:
        return f"{self.name:<28} {self.recall_at_1:>8.3f} {self.recall_at_5:>8.3f} {self.mrr:>8.3f}"


def load_dev_set(path: Path = DEV_SET) -> list[DevQuery]:
    raw = json.loads(path.read_text(encoding="utf-8"))
    return [DevQuery(item["query"], tuple(item["relevant"]), item.get("note", "")) for item in raw]


def equivalents(kb: Any) -> dict[str, set[str]]:
    """Entries that are one answer, so finding either one counts: a RU/EN pair (shown once, either side),
    every entry of one card (a document's card block and the MTGJSON card with all its printings), a
    document's ruling and the official one the knowledge base links to it (``same_as``, ``ingest.same_as``),
    and the copies of one official ruling printed under several cards (``service.distinct_texts`` shows one
    of them, whichever ranks first)."""
    from ingest.entries import Card, Ruling

    same: dict[str, set[str]] = {}
    cards: dict[str, set[str]] = {}
    texts: dict[str, set[str]] = {}
    for entry in kb.entries:
        aligned = getattr(entry, "aligned", None)
        if aligned:
            same.setdefault(entry.id, set()).add(aligned)
            same.setdefault(aligned, set()).add(entry.id)
        if isinstance(entry, Ruling):
            for other in entry.same_as:
                same.setdefault(entry.id, set()).add(other)
                same.setdefault(other, set()).add(entry.id)
            texts.setdefault(" ".join(entry.text.split()), set()).add(entry.id)
        if isinstance(entry, Card):
            name = (entry.name_en or (entry.name if entry.lang == "en" else "")).lower()
            if name:
                cards.setdefault(name, set()).add(entry.id)
    for group in [*cards.values(), *texts.values()]:
        for entry_id in group:
            same.setdefault(entry_id, set()).update(group - {entry_id})
    for entry_id in list(same):  # a document's ruling is also each printed copy of its official twin
        same[entry_id] |= {c for other in list(same[entry_id]) for c in same.get(other, ())} - {entry_id}
    return same


def evaluate(name: str, ranker: Ranker, queries: Iterable[DevQuery], depth: int = 10,
             same_as: dict[str, set[str]] | None = None) -> Metrics:
    ranks: list[int | None] = []
    for dq in queries:
        ids = ranker(dq.query)[:depth]
        relevant = set(dq.relevant).union(*((same_as or {}).get(r, set()) for r in dq.relevant))
        rank = next((i + 1 for i, hit in enumerate(ids) if hit in relevant), None)
        ranks.append(rank)
    n = max(1, len(ranks))
    return Metrics(
        name,
        sum(1 for r in ranks if r == 1) / n,
        sum(1 for r in ranks if r is not None and r <= 5) / n,
        sum(1 / r for r in ranks if r is not None) / n,
        ranks,
    )


class BaselineIndex:
    """A stock-whoosh index over the same documents, for comparison."""

    def __init__(self, directory: Path, analyzer: Any, docs: Iterable[IndexDoc]) -> None:
        from whoosh import fields, index

        directory.mkdir(parents=True, exist_ok=True)
        schema = fields.Schema(id=fields.ID(stored=True), content=fields.TEXT(analyzer=analyzer))
        ix = index.create_in(str(directory), schema)
        writer = ix.writer()
        for doc in docs:
            writer.add_document(id=doc.id, content="\n".join((doc.text, doc.topic, doc.cards, doc.rules)))
        writer.commit()
        self.ix = ix
        self.searcher = ix.searcher()
        from whoosh.qparser import OrGroup, QueryParser

        self.parser = QueryParser("content", schema, group=OrGroup)

    def rank(self, query: str, limit: int = 10) -> list[str]:
        parsed = self.parser.parse(query)
        return [hit["id"] for hit in self.searcher.search(parsed, limit=limit)]

    def close(self) -> None:
        self.searcher.close()


def standard_analyzer() -> Any:
    from whoosh.analysis import StandardAnalyzer

    return StandardAnalyzer()


def snowball_ru_analyzer() -> Any:
    from whoosh.analysis import LanguageAnalyzer

    return LanguageAnalyzer("ru")
