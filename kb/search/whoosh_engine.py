"""The whoosh implementation of the engine interface (``engine.py``).

Ranking is BM25F over the text fields; field weights are applied at query time so that a query naming a
mechanic (``topic``) or a card (``cards``) lifts that section's entries above passing mentions, and a
small prior per kind puts rulings before the card or rule they discuss. Up to ``TOPK_LIMIT`` documents
(the bundled data) queries compile into whoosh queries (DisMax over a word's readings and glossary
equivalents, glossary phrases as phrases). Above it (10 000 or 100 000 entries) the index also carries
impact-ordered postings and forward records, and the same plan is answered by the threshold algorithm
over them (``whoosh_topk``), which scores a few thousand documents where whoosh's matchers walked millions
of postings. An index above ``EXACT_TOTAL_LIMIT`` without those files (written by another version) falls
back to a cheaper whoosh plan: ``_fast_unit``, ``_soft_or``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from kb.search import highlight
from kb.search.documents import IndexDoc
from kb.search.engine import Filters, Hit, Page
from kb.search.plan import Alt, AnyOf, Bool, Node, Phrase, Prefix, walk
from kb.search.whoosh_dismax import dismax
from kb.search.whoosh_require import require

FIELD_BOOSTS = {"text": 1.0, "topic": 1.0, "cards": 2.0, "rules": 3.0}
# A player asking a question wants the ruling; the card or the rule it rests on is the next best answer.
KIND_PRIOR = {"ruling": 1.0, "note": 1.0, "rule": 0.9, "card": 0.75}
RERANK_DEPTH = 20
# Up to this many documents one unoptimised pass scores and counts every match (an exact total). Above it,
# whoosh's block-quality skipping keeps p95 low and the total becomes whoosh's estimate.
EXACT_TOTAL_LIMIT = 20_000
# Above this many documents the index also carries impact lists and forward records, and queries are answered
# from them (``whoosh_topk``): the plan's exact top hits at a fraction of whoosh's cost (the total becomes a
# lower bound). The bundled data stays below it, on whoosh's own plan.
TOPK_LIMIT = 8_000
COMMON_FRACTION = 0.02
# whoosh builds a DisMax of three or more queries with ``make_weighted_tree``, which drops the tiebreak, and
# ``_tree_matcher`` does that for two as well: the small-index plan's DisMax is the best score alone (the
# ranking the development set was tuned on). The impact-list path (``whoosh_topk``) ranks the same way.
WHOOSH_TIEBREAK = 0.0



def whoosh_schema() -> Any:
    from whoosh import fields

    from kb.search.analysis import mtg_analyzer

    analyzer = mtg_analyzer()
    return fields.Schema(
        id=fields.ID(stored=True, unique=True),
        kind=fields.ID(stored=True),
        document=fields.ID(stored=True),
        section=fields.ID(stored=True),
        lang=fields.ID(stored=True),
        text=fields.TEXT(analyzer=analyzer, stored=True, phrase=True),
        topic=fields.TEXT(analyzer=analyzer, phrase=True),
        cards=fields.TEXT(analyzer=analyzer, phrase=True),
        rules=fields.TEXT(analyzer=analyzer, phrase=False),
        extra=fields.STORED(),
        analysis=fields.STORED(),
    )


class WhooshEngine:
    name = "whoosh"

    def build(self, docs: Iterable[IndexDoc], directory: Path) -> int:
        from whoosh import index

        directory.mkdir(parents=True, exist_ok=True)
        ix = index.create_in(str(directory), whoosh_schema())
        writer = ix.writer(limitmb=256)
        count = 0
        try:
            for doc in docs:
                writer.add_document(
                    id=doc.id,
                    kind=doc.kind,
                    document=doc.document,
                    section=doc.section,
                    lang=doc.lang,
                    text=doc.text,
                    topic=doc.topic,
                    cards=doc.cards,
                    rules=doc.rules,
                    extra=json.dumps(doc.extra, ensure_ascii=False),
                    analysis=highlight.encode(doc.text),
                )
                count += 1
        except BaseException:
            writer.cancel()
            raise
        writer.commit()
        if count > TOPK_LIMIT:
            from kb.search import whoosh_topk

            whoosh_topk.write(directory, ix, bm25_weighting())
        return count

    def open(self, directory: Path) -> WhooshSearcher:
        from whoosh import index

        return WhooshSearcher(index.open_dir(str(directory)), directory)


def bm25_weighting() -> Any:
    """whoosh's BM25F with the BM25 idf, ln(1 + (N − df + 0.5) / (df + 0.5)), instead of whoosh's own
    log(N / (df + 1)) + 1: the formula tantivy (and Lucene) use, so both backends rank alike."""
    import math

    from whoosh import scoring

    class BM25(scoring.BM25F):
        def idf(self, searcher: Any, fieldname: str, text: str) -> float:
            parent = searcher.get_parent()
            n = parent.doc_frequency(fieldname, text)
            return math.log(1 + (parent.doc_count_all() - n + 0.5) / (n + 0.5))

    return BM25()


class WhooshSearcher:
    def __init__(self, ix: Any, directory: Path | None = None) -> None:
        self.ix = ix
        self.searcher = ix.searcher(weighting=bm25_weighting())
        self.reader = self.searcher.reader()
        # On a large index, queries are compiled into plain term unions (no DisMax, no phrase matching for
        # glossary equivalents), which whoosh can prune by block quality; see ``compile``.
        self.fast = self.reader.doc_count_all() > EXACT_TOTAL_LIMIT
        self.strict = False  # set while compiling the all-words-required first try (large indexes)
        self._present: dict[tuple[str, str], bool] = {}
        self.topk: Any = None  # the impact lists of a large index (``whoosh_topk``), when it has them
        if directory is not None and self.reader.doc_count_all() > TOPK_LIMIT:
            from kb.search import whoosh_topk

            if (directory / whoosh_topk.LEXICON).exists():
                try:
                    self.topk = whoosh_topk.TopK(directory)
                except whoosh_topk.StaleFormat:
                    self.topk = None  # written by another version: whoosh's own plan answers

    def has(self, field_name: str, term: str) -> bool:
        """Is ``term`` indexed in ``field_name``? Memoised: compilation asks the same questions often."""
        key = (field_name, term)
        found = self._present.get(key)
        if found is None:
            if self.topk is not None and field_name in FIELD_BOOSTS:
                found = self.topk.tid(field_name, term) is not None
            else:
                found = key in self.reader
            self._present[key] = found
        return found

    def close(self) -> None:
        if self.topk is not None:
            self.topk.close()
        self.searcher.close()

    # Lexicon
    def known(self, term: str) -> bool:
        return any(self.has(f, term) for f in FIELD_BOOSTS)

    def near(self, term: str) -> list[tuple[str, int]]:
        found: dict[str, int] = {}
        for f in ("text", "topic", "cards"):
            if self.topk is not None:  # whoosh builds a Levenshtein automaton per call (~18 ms): scan our lexicon
                for cand, frequency in self.topk.within_one_edit(f, term):
                    found[cand] = max(found.get(cand, 0), frequency)
                continue
            for cand in self.reader.terms_within(f, term, 1, prefix=1):
                if cand != term:
                    found[cand] = max(found.get(cand, 0), self.reader.doc_frequency(f, cand))
        return sorted(found.items(), key=lambda kv: (-kv[1], kv[0]))

    def doc_count(self) -> int:
        return int(self.reader.doc_count())

    def frequency(self, term: str) -> int:
        """Documents holding ``term`` in the field where it is most frequent."""
        if self.topk is not None:  # the impact lists' lengths: no whoosh term-info lookups
            return max((self.topk.counts[t] for f in FIELD_BOOSTS if (t := self.topk.tid(f, term)) is not None),
                       default=0)
        return max(int(self.reader.doc_frequency(f, term)) for f in FIELD_BOOSTS)

    # Compilation
    def compile(self, node: Node) -> Any:
        from whoosh import query as q

        if self.fast and isinstance(node, Alt | AnyOf):
            return self._fast_unit(node)
        if isinstance(node, Alt):
            per_term = []
            for term in node.terms:
                fields_ = [q.Term(f, term, boost=FIELD_BOOSTS.get(f, 1.0)) for f in node.fields
                           if self.has(f, term)]
                if _is_rule(term) and self.has("rules", term) and "rules" not in node.fields:
                    fields_.append(q.Term("rules", term, boost=FIELD_BOOSTS["rules"]))
                if fields_:
                    per_term.append(fields_[0] if len(fields_) == 1 else _union(fields_))
            return _boosted(dismax(per_term), node.boost)
        if isinstance(node, Phrase):
            # whoosh scores a Sequence with a near-constant figure, so the phrase only filters (Require)
            # and the score comes from its words (BM25F, with the field weight).
            # An ambiguous word's readings share one position: the phrase matches on any of them (Or) but
            # scores each position by its best reading (DisMax), as ``Alt`` does, not by their sum.
            per_field = []
            for f in node.fields:
                seq, best = [], []
                for position in node.positions:
                    present = [t for t in position if self.has(f, t)]
                    if not present:
                        break
                    seq.append(q.Term(f, present[0]) if len(present) == 1 else _union([q.Term(f, t) for t in present]))
                    best.append(q.Term(f, present[0]) if len(present) == 1 else dismax([q.Term(f, t) for t in present]))
                else:
                    scoring = _union(best, FIELD_BOOSTS.get(f, 1.0))
                    per_field.append(require(scoring, q.Sequence(seq)))
            # A phrase is one idea: its words' scores are averaged, not summed, so «поле битвы» weighs
            # like «battlefield» and a three-word glossary equivalent cannot outweigh the user's own words.
            return _boosted(dismax(per_field), node.boost / max(1, len(node.positions)))
        if isinstance(node, Prefix):
            return _boosted(
                _union([q.Prefix(f, node.prefix, boost=FIELD_BOOSTS.get(f, 1.0)) for f in node.fields]), node.boost
            )
        if isinstance(node, AnyOf):
            children = [c for c in (self.compile(c) for c in node.children) if not _null(c)]
            return _boosted(dismax(children), node.boost)
        if isinstance(node, Bool):
            must = [self.compile(c) for c in node.must]
            should_pairs = [(n, c) for n, c in ((n, self.compile(n)) for n in node.should) if not _null(c)]
            should = [c for _, c in should_pairs]
            must_not = [c for c in (self.compile(c) for c in node.must_not) if not _null(c)]
            if any(_null(m) for m in must):
                return q.NullQuery
            if must:
                base: Any = must[0] if len(must) == 1 else q.And(must)
                if should:
                    base = q.AndMaybe(base, should[0] if len(should) == 1 else _union(should))
            elif should:
                base = self._soft_or(should_pairs)
            elif must_not:
                base = q.Every()
            else:
                return q.NullQuery
            if must_not:
                base = q.AndNot(base, must_not[0] if len(must_not) == 1 else _union(must_not))
            return _boosted(base, node.boost)
        raise TypeError(f"unknown plan node {node!r}")

    def _fast_unit(self, node: Alt | AnyOf) -> Any:
        """One query word (with its readings and glossary equivalents) as a flat union of distinct terms.

        Used on large indexes, where whoosh's per-posting cost dominates: no DisMax tree, each
        (field, term) once, and alternatives found in more than ``COMMON_FRACTION`` of the documents are
        dropped unless they are the most likely reading of the user's own word (which already matches
        those documents). Glossary phrases stay phrases when one of their words is rare, else are dropped.
        """
        from whoosh import query as q

        cutoff = COMMON_FRACTION * self.reader.doc_count_all()
        weights: dict[tuple[str, str], float] = {}
        phrases: list[Any] = []
        primary: set[str] = set()
        first = node.children[0] if isinstance(node, AnyOf) else node
        for sub in walk(first):
            if isinstance(sub, Alt) and sub.terms:
                primary.add(sub.terms[0])
        units = node.children if isinstance(node, AnyOf) else (node,)
        for unit in units:
            for sub in walk(unit):
                if isinstance(sub, Phrase):
                    rarest = min(max(self.reader.doc_frequency(f, t) for f in sub.fields for t in p)
                                 for p in sub.positions)
                    if rarest <= cutoff:
                        phrases.append(self.compile(sub))
                    continue
                if not isinstance(sub, Alt):
                    continue
                for term in sub.terms:
                    fields_ = list(sub.fields) + (["rules"] if _is_rule(term) else [])
                    for f in fields_:
                        if not self.has(f, term):
                            continue
                        if term not in primary and self.reader.doc_frequency(f, term) > cutoff:
                            continue
                        boost = FIELD_BOOSTS.get(f, 1.0) * sub.boost * node.boost
                        weights[(f, term)] = max(weights.get((f, term), 0.0), boost)
        parts = [q.Term(f, t, boost=b) for (f, t), b in weights.items()] + phrases
        if not parts:
            return q.NullQuery
        return parts[0] if len(parts) == 1 else _union(parts)

    def _soft_or(self, pairs: list[tuple[Node, Any]]) -> Any:
        """OR of a natural question's words; on a large index, the common-terms strategy.

        On more than ``EXACT_TOTAL_LIMIT`` documents, words found in over ``COMMON_FRACTION`` of them
        («существо», «карта») only add to the score of documents that match a rarer word of the query
        (AndMaybe), so whoosh walks the short posting lists instead of half the index. The bundled data
        is far below the limit and keeps the plain OR.
        """
        compiled = [c for _, c in pairs]
        if len(compiled) == 1:
            return compiled[0]
        total = self.reader.doc_count_all()
        if total <= EXACT_TOTAL_LIMIT:
            return _union(compiled)
        from whoosh import query as q

        cutoff = COMMON_FRACTION * total
        rare = [c for n, c in pairs if self._doc_frequency(n) <= cutoff]
        common = [c for n, c in pairs if self._doc_frequency(n) > cutoff]
        if not rare and self.strict:
            return q.And(compiled)
        if not rare or not common:
            return _union(compiled)
        rare_q = rare[0] if len(rare) == 1 else _union(rare)
        common_q = common[0] if len(common) == 1 else _union(common)
        return q.AndMaybe(rare_q, common_q)

    def _doc_frequency(self, node: Node) -> int:
        """Documents a query word matches: the largest posting list of the user's own word's terms.

        For a word with glossary equivalents only the word itself counts (``AnyOf``'s first child): an
        equivalent's common English word must not make a rare Russian word look common.
        """
        best = 0
        own = node.children[0] if isinstance(node, AnyOf) and node.children else node
        for sub in walk(own):
            terms: tuple[str, ...] = ()
            if isinstance(sub, Alt):
                terms = sub.terms
            elif isinstance(sub, Phrase):
                terms = tuple(t for position in sub.positions[:1] for t in position)
            for term in terms:
                best = max(best, *(self.reader.doc_frequency(f, term) for f in FIELD_BOOSTS))
        return best

    def filter_query(self, filters: Filters) -> Any:
        from whoosh import query as q

        parts: list[Any] = []
        for name, values in (("document", filters.documents), ("kind", filters.kinds), ("lang", filters.langs)):
            if values:
                terms = [q.Term(name, v) for v in values]
                parts.append(terms[0] if len(terms) == 1 else _union(terms))
        parts.extend(self.compile(node) for node in filters.nodes)
        if not parts:
            return None
        return parts[0] if len(parts) == 1 else q.And(parts)

    def search(self, plan: Node | None, filters: Filters, limit: int) -> Page:
        from whoosh import query as q

        if self.topk is not None:
            page = self._search_topk(plan, filters, limit)
            if page is not None:
                return page
        fq = self.filter_query(filters)
        if fq is not None and _null(fq):
            return Page(0, [])
        exact = not self.fast
        depth = max(limit, RERANK_DEPTH)
        results = None
        if self.fast and plan is not None:  # common words only: try them all together first
            self.strict = True
            wq = self.compile(plan)
            self.strict = False
            if not _null(wq):
                results = self.searcher.search(wq, filter=fq, limit=depth, optimize=True)
                if results.scored_length() < limit:
                    results = None
        if results is None:
            if plan is not None:
                wq = self.compile(plan)
            elif fq is not None:  # filters only (a card by name): walk their postings, not every document
                wq, fq = q.ConstantScoreQuery(fq, 1.0), None
            else:
                wq = q.Every()
            if _null(wq):
                return Page(0, [])
            if exact:
                # one unoptimised pass that scores and counts every match; replace=0 stops whoosh from
                # rebuilding the matcher tree every ten documents, which only pays off when skipping
                collector = self.searcher.collector(limit=depth, optimize=False, filter=fq)
                inner = collector
                while inner is not None:
                    if hasattr(inner, "replace"):
                        inner.replace = 0
                    inner = getattr(inner, "child", None)
                self.searcher.search_with_collector(wq, collector)
                results = collector.results()
            else:
                results = self.searcher.search(wq, filter=fq, limit=depth, optimize=True)
        ranked = sorted(
            results[: max(limit, RERANK_DEPTH)],
            key=lambda h: (-(h.score or 0.0) * KIND_PRIOR.get(h["kind"], 1.0), h.rank),
        )
        hits = [self._hit(hit.fields(), hit.score or 0.0) for hit in ranked[:limit]]
        total = len(results) if exact else max(results.scored_length(), results.estimated_length())
        return Page(total, hits, exact)

    def _search_topk(self, plan: Node | None, filters: Filters, limit: int) -> Page | None:
        """The plan's exact top hits from the impact lists (``whoosh_topk``); the total is a lower bound."""
        from kb.search import whoosh_topk

        compiler = whoosh_topk.Compiler(self.topk, FIELD_BOOSTS, WHOOSH_TIEBREAK, _is_rule)
        found = whoosh_topk.search(self.topk, plan, filters, max(limit, RERANK_DEPTH), compiler)
        if found is None:
            return None
        kinds = {doc: self.topk.label(doc, 0) for _, doc in found.docs}
        ranked = sorted(enumerate(found.docs), key=lambda r: (-r[1][0] * KIND_PRIOR.get(kinds[r[1][1]], 1.0), r[0]))
        hits = []
        for _, (score, doc) in ranked[:limit]:
            stored = self.reader.stored_fields(doc)
            hits.append(self._hit(stored, score))
        return Page(found.estimate, hits, False)

    @staticmethod
    def _hit(stored: dict[str, Any], score: float) -> Hit:
        highlight.remember(stored["text"], stored.get("analysis") or "")
        return Hit(
            id=stored["id"],
            kind=stored["kind"],
            document=stored["document"],
            section=stored.get("section", ""),
            lang=stored["lang"],
            text=stored["text"],
            score=float(score) * KIND_PRIOR.get(stored["kind"], 1.0),
            extra=json.loads(stored.get("extra") or "{}"),
        )


def _union(queries: list[Any], boost: float = 1.0) -> Any:
    """An Or that always builds whoosh's lazy binary union tree.

    On indexes under 5 000 documents whoosh's automatic choice preloads every posting of every clause
    into arrays (``ArrayUnionMatcher``), which made short queries on the bundled data slower than on a
    100 000-ruling corpus.
    """
    from whoosh import query as q

    union = q.Or(queries, boost=boost)
    union.matcher_type = q.Or.DEFAULT_MATCHER
    return union


def _is_rule(term: str) -> bool:
    return len(term) > 4 and term[:3].isdigit() and term[3] == "."


def _null(query: Any) -> bool:
    from whoosh import query as q

    return query is q.NullQuery or isinstance(query, q.qcore._NullQuery)


def _boosted(query: Any, boost: float) -> Any:
    """Scale a freshly compiled query's boost in place (compile never shares query objects)."""
    if boost != 1.0 and not _null(query):
        query.boost = query.boost * boost
    return query
