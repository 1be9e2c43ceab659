"""The one entry point the CLI and the benchmarks use: query text + filters → ranked, highlighted hits."""

from __future__ import annotations

import re
import time
from collections.abc import Collection
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from kb.search import index as index_mod
from kb.search.analysis import fold, use_vocabulary
from kb.search.card_first import card_first, named_cards, rule_first, rule_numbers
from kb.search.confidence import answered
from kb.search.documents import SEARCHABLE_KINDS
from kb.search.engine import DEFAULT_ENGINE, Filters, Hit, Searcher, get_engine
from kb.search.glossary import Glossary
from kb.search.highlight import match_spans, snippet, text_terms
from kb.search.plan import Node, positive_terms, question_units
from kb.search.query import CompiledQuery, Correction, compile_query, limit_query, name_filter

COORD_BOOST = 0.5
COORD_DEPTH = 20  # hits reranked by coordination (and by the engine's kind prior)


class SearchError(Exception):
    """A request that cannot be served as asked (unknown set, bad kind...); the message says why."""


@dataclass
class SearchRequest:
    query: str
    set: str | None = None
    card: str | None = None
    mechanic: str | None = None
    kind: str | None = None
    lang: str | None = None
    limit: int = 10
    current: bool = False  # only entries proven to hold under today's rules (current, or old terms only)


@dataclass
class Result:
    id: str
    kind: str
    text: str
    score: float
    document: str
    section: str
    lang: str
    section_id: str
    set: str
    document_title: str
    highlights: list[tuple[int, int]]
    snippet: str
    snippet_highlights: list[tuple[int, int]]
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["highlights"] = [list(s) for s in self.highlights]
        data["snippet_highlights"] = [list(s) for s in self.snippet_highlights]
        data["score"] = round(self.score, 4)
        data.update(data.pop("extra"))
        return data


@dataclass
class SearchResponse:
    query: str
    total: int
    results: list[Result]
    corrections: list[Correction] = field(default_factory=list)
    concepts: list[str] = field(default_factory=list)
    seconds: float = 0.0
    total_exact: bool = True
    searched: str = ""  # the query as searched when it was cut to ``MAX_QUERY_CHARS`` ("" when searched whole)
    answered: bool = True  # False: only weak hits (``kb.search.confidence``), none listed
    weak: int = 0  # how many weak hits were withheld

    def to_json(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "query_cut": bool(self.searched),
            "searched": self.searched or self.query,
            "total": self.total,
            "total_exact": self.total_exact,
            "relevant": self.answered,
            "weak_hits": self.weak,
            "results": [r.to_json() for r in self.results],
            "corrections": [{"word": c.word, "suggestion": c.suggestion} for c in self.corrections],
            "glossary": self.concepts,
        }


class SearchSession:
    """An open index generation with its glossary: reuse it for many queries (benchmarks, tests)."""

    def __init__(self, state: index_mod.IndexState) -> None:
        self.state = state
        use_vocabulary(index_mod.read_vocabulary(state.directory))
        self.searcher: Searcher = get_engine(state.meta.get("engine", DEFAULT_ENGINE)).open(state.directory)
        self.glossary = Glossary.from_json((state.directory / "glossary.json").read_text(encoding="utf-8"))
        self.documents: dict[str, dict[str, str]] = state.meta.get("documents", {})
        self._verdicts: dict[str, dict[str, str]] | None = None
        self.verdict_error = ""
        codes = [d.get("set_code") for doc_id, d in self.documents.items() if not doc_id.startswith("mtgjson-")]
        # whether a set has two documents (a Russian one and its English original, ``ingest.bilingual``)
        self.has_twins = len([c for c in codes if c]) != len({c for c in codes if c})

    def close(self) -> None:
        self.searcher.close()

    def verdicts(self, ids: Collection[str] | None = None) -> dict[str, dict[str, str]]:
        """Each entry's status and currency (``kb.verdict_cache``), or at least those of ``ids`` (a search's
        hits, read by key: a cold ``kb search`` reads twenty rows, not thousands): cheap when fresh,
        computed once when not."""
        if self._verdicts is None:
            from kb import paths, verdict_cache

            key = verdict_cache.inputs_key(str(self.state.meta.get("kb_fingerprint", "")), paths.data_dir())
            cached = verdict_cache.load(key, ids)
            if cached is not None and ids is not None:
                return cached
            self._verdicts = cached if cached is not None else self._compute_verdicts()
        return self._verdicts

    def _compute_verdicts(self) -> dict[str, dict[str, str]]:
        """Search still answers when the scenarios can't be played (their data broken or for another knowledge
        base): the results are then shown unmarked, and ``verdict_error`` says why."""
        from kb import paths, store, verdict_cache
        from kb.rules_timeline import TimelineError
        from kb.verify import VerifyError
        from rules_engine.errors import EngineError

        try:
            return verdict_cache.ensure(store.load(paths.kb_path()))
        except (EngineError, VerifyError, TimelineError, store.KnowledgeBaseError, OSError) as exc:
            self.verdict_error = str(exc)
            return {}

    def resolve_sets(self, value: str) -> tuple[str, ...]:
        """Every document of the set: its release notes / FAQ and its MTGJSON card list (``mtgjson-lrw``)."""
        first = self.resolve_set(value)
        code = fold(self.documents.get(first, {}).get("set_code", "") or first)
        return tuple(d for d, info in self.documents.items() if d == first or fold(info.get("set_code", "")) == code)

    def resolve_set(self, value: str) -> str:
        wanted = fold(value.strip())
        for doc_id, info in self.documents.items():
            names = {doc_id, info.get("set_code", ""), info.get("ru", ""), info.get("en", "")}
            if wanted in {fold(n) for n in names if n}:
                return doc_id
        known = ", ".join(f"{info.get('set_code', d)} ({info.get('en', '')})" for d, info in self.documents.items())
        raise SearchError(f"unknown set {value!r}; known sets: {known}")

    def search(self, request: SearchRequest) -> SearchResponse:
        started = time.perf_counter()
        if request.kind and request.kind not in SEARCHABLE_KINDS:
            raise SearchError(f"unknown kind {request.kind!r}; use one of {', '.join(SEARCHABLE_KINDS)}")
        if request.lang and request.lang not in ("ru", "en"):
            raise SearchError(f"unknown language {request.lang!r}; use ru or en")
        text = limit_query(request.query)
        cut = text if text != request.query else ""
        compiled = compile_query(text, self.glossary, self.searcher)
        nodes = []
        for value, field_name in ((request.card, "cards"), (request.mechanic, "topic")):
            if value:
                node = name_filter(value, field_name, self.glossary, self.searcher)
                if node is not None:
                    nodes.append(node)
        filters = Filters(
            documents=self.resolve_sets(request.set) if request.set else (),
            kinds=(request.kind,) if request.kind else (),
            langs=(request.lang,) if request.lang and not self.has_twins else (),  # twins: see one_per_pair
            nodes=tuple(nodes),
        )
        if compiled.plan is None and not (filters.documents or filters.kinds or filters.langs or nodes):
            return SearchResponse(request.query, 0, [], compiled.corrections, compiled.concepts, searched=cut)
        depth = max(request.limit, COORD_DEPTH) * (5 if request.current else 1)  # the filter drops some
        page = self.searcher.search(compiled.plan, filters, depth)
        hits = coordinate(compiled.plan, page.hits)
        hits = rule_first(hits, rule_numbers(text))
        if names := named_cards(compiled.concepts):  # a query naming a card: the card, its rulings, the rest
            hits = card_first(hits, _corrected(text, compiled.corrections), names, self.searcher, self.glossary,
                              filters)
        elif not answered(compiled.plan, hits, self.searcher, off_topic(compiled, self.glossary)):  # weak hits only
            return SearchResponse(request.query, 0, [], compiled.corrections, compiled.concepts,
                                  time.perf_counter() - started, searched=cut, answered=False, weak=page.total)
        verdicts = self.verdicts({i for h in hits for i in (h.id, (h.extra.get("twin") or {}).get("id")) if i})
        if request.current:
            hits = [h for h in hits if h.kind == "card" or _holds_today(verdicts.get(h.id))]
        hits = prefer_current(hits, verdicts)
        hits = one_per_pair(hits, request.lang) if self.has_twins else hits
        hits = distinct_texts(hits, request.limit)
        terms, prefixes = positive_terms(compiled.plan) if compiled.plan is not None else (set(), set())
        results = []
        for hit in hits:
            spans = match_spans(hit.text, terms, prefixes)
            snip, snip_spans = snippet(hit.text, spans)
            extra = dict(hit.extra)
            verdict = verdicts.get(hit.id) or {}
            if verdict:
                extra["verdict"] = verdict.get("status", "")
                extra["currency"] = verdict.get("currency", "")
                extra["currency_label"] = verdict.get("currency_label", "")
            results.append(
                Result(
                    id=hit.id,
                    kind=hit.kind,
                    text=hit.text,
                    score=hit.score,
                    document=hit.document,
                    section=str(extra.pop("section_title", "")),
                    lang=hit.lang,
                    section_id=hit.section,
                    set=str(extra.pop("set", hit.document.upper())),
                    document_title=str(extra.pop("document_title", "")),
                    highlights=spans,
                    snippet=snip,
                    snippet_highlights=snip_spans,
                    extra=extra,
                )
            )
        return SearchResponse(
            request.query,
            page.total,
            results[: request.limit],
            compiled.corrections,
            compiled.concepts,
            time.perf_counter() - started,
            page.exact,
            cut,
        )


def off_topic(compiled: CompiledQuery, glossary: Glossary) -> bool:
    """A word nobody knows, and no card or seeded mechanic named (``confidence.UNKNOWN_WORD_FLOOR``)."""
    return bool(compiled.unknown) and not any(glossary.is_topic(c) for c in compiled.concepts)


def _corrected(text: str, corrections: list[Correction]) -> str:
    """The query as searched: a misspelt card name («агорофобия») is still the whole query (``is_name_only``)."""
    for correction in corrections:
        text = re.sub(rf"(?<!\w){re.escape(correction.word)}(?!\w)", correction.suggestion, text)
    return text


OBSOLETE_PENALTY = 0.9  # an obsolete ruling yields to a current one of about the same relevance


def _holds_today(verdict: dict[str, str] | None) -> bool:
    return verdict is not None and verdict.get("currency") in ("current", "terms")


def prefer_current(hits: list[Hit], verdicts: dict[str, dict[str, str]]) -> list[Hit]:
    """Rank a ruling proven obsolete a little lower; it stays in the results, marked as such."""
    def score(hit: Hit) -> float:
        obsolete = (verdicts.get(hit.id) or {}).get("currency") == "obsolete"
        return hit.score * (OBSOLETE_PENALTY if obsolete else 1.0)

    return sorted(hits, key=lambda h: -score(h))


def one_per_pair(hits: list[Hit], lang: str | None) -> list[Hit]:
    """A Russian entry and its English original are one result (the better-ranked), in ``lang`` if given.

    With ``lang``, a hit in the other language shows its twin's text instead (the query may match either
    text); a hit with no twin in ``lang`` is dropped, as the language filter would have.
    """
    seen: set[str] = set()
    kept: list[Hit] = []
    for hit in hits:
        twin = hit.extra.get("twin") or {}
        if hit.id in seen:
            continue
        seen.update({hit.id, twin.get("id", hit.id)})
        if lang and hit.lang != lang and twin.get("lang") == lang:
            extra = {**hit.extra, "twin": {"id": hit.id, "kind": hit.kind, "lang": hit.lang, "text": hit.text},
                     "section_title": twin.get("section_title", ""),
                     "document_title": twin.get("document_title", "")}
            hit = replace(hit, id=twin["id"], kind=twin.get("kind", hit.kind), lang=lang, text=twin["text"],
                          document=twin["document"], section=twin["section"], extra=extra, context=None)
        if lang is None or hit.lang == lang:
            kept.append(hit)
    return kept


def distinct_texts(hits: list[Hit], limit: int | None = None) -> list[Hit]:
    """One hit per text (the first ``limit`` of them): MTGJSON repeats a keyword's general ruling under every
    card that has it."""
    seen: set[tuple[str, str]] = set()
    kept: list[Hit] = []
    for hit in hits:
        if limit is not None and len(kept) >= limit:
            break
        key = (hit.kind, " ".join(hit.text.split()))
        if key not in seen:
            seen.add(key)
            kept.append(hit)
    return kept


def coordinate(plan: Node | None, hits: list[Hit]) -> list[Hit]:
    """Rerank a natural question's hits by how many of its words (or their equivalents) each one has.

    BM25 sums word scores, so one rare word can outweigh three common ones; a ruling that answers a
    question usually contains most of its words. Score × (1 + ``COORD_BOOST`` × share of the query's
    words found in the text) measurably helps both query sets (see ``scripts/bench_relevance.py``).
    """
    unit_terms = question_units(plan)
    if unit_terms is None:
        return hits

    def coverage(hit: Hit) -> float:
        present = text_terms(hit.text)
        return sum(1 for terms in unit_terms if terms & present) / len(unit_terms)

    for hit in hits:
        hit.score *= 1 + COORD_BOOST * coverage(hit)
    return sorted(hits, key=lambda h: -h.score)


def open_session(rebuild: bool = False) -> SearchSession:
    """Ensure the index is current (building it if needed) and open it.

    A rebuild by another process may retire the generation we resolved; that is retried once. An index this
    version cannot read (an engine's older on-disk format, ``kb.search.engine.ENGINE_FORMATS``, whose inputs
    have not changed since, so the cheap freshness check keeps it) is then rebuilt.
    """
    state = index_mod.ensure_index(rebuild=rebuild)
    try:
        return SearchSession(state)
    except OSError:
        pass
    try:
        return SearchSession(index_mod.ensure_index())
    except OSError:
        return SearchSession(index_mod.ensure_index(rebuild=True))
