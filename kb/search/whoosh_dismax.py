"""whoosh's DisjunctionMax with a working matcher.

whoosh-reloaded 2.7.5's ``DisjunctionMaxMatcher`` scores a document with ``max(a.score(), b.score())``
even when ``a`` and ``b`` sit on different documents, ignores ``tiebreak``, and its ``replace`` drops a
live sub-matcher, so a stock DisMax hands one document's score to another (seen as whole sections
sharing one inflated score). We keep whoosh's query class and tree building and swap the matcher for one
that compares document ids.
"""

from __future__ import annotations

from typing import Any

# The best alternative counts, the others add nothing: what whoosh has always scored (``_tree_matcher`` builds
# the tree with ``util.make_weighted_tree``, which never passes a tiebreak on to the matchers), what the site's
# search mirrors, and what the ranking was measured with. tantivy reads it too, so both backends rank alike
# (with 0.1 there, tantivy's dev-set R@1 was 0.877 against whoosh's 0.916; with 0.0, 0.905, and the same first
# result for 97% of the dev and holdout queries).
DISMAX_TIEBREAK = 0.0


def dismax(queries: list[Any], tiebreak: float = DISMAX_TIEBREAK) -> Any:
    from whoosh import query as q

    if not queries:
        return q.NullQuery
    if len(queries) == 1:
        return queries[0]
    return _dismax_class()(queries, tiebreak=tiebreak)


_DISMAX: Any = None


def _dismax_class() -> Any:
    """The fixed DisjunctionMax query class (built on first use: whoosh is imported lazily)."""
    global _DISMAX
    if _DISMAX is not None:
        return _DISMAX
    from whoosh import matching
    from whoosh import query as q

    class FixedDisMaxMatcher(matching.DisjunctionMaxMatcher):
        def replace(self, minquality: float = 0) -> Any:
            a, b = self.a, self.b
            a_active, b_active = a.is_active(), b.is_active()
            if not (a_active or b_active):
                return matching.NullMatcher()
            if not a_active:
                return b.replace(minquality)
            if not b_active:
                return a.replace(minquality)
            if minquality and self.max_quality() < minquality:
                return matching.NullMatcher()
            na, nb = a.replace(), b.replace()
            if na is not a or nb is not b:
                return self.__class__(na, nb, tiebreak=self.tiebreak)
            return self

        def score(self) -> float:
            a, b = self.a, self.b
            if not a.is_active():
                return float(b.score())
            if not b.is_active():
                return float(a.score())
            ida, idb = a.id(), b.id()
            if ida == idb:
                sa, sb = a.score(), b.score()
                return float(max(sa, sb) + self.tiebreak * min(sa, sb))
            return float(a.score() if ida < idb else b.score())

        def max_quality(self) -> float:
            return float(max(self.a.max_quality(), self.b.max_quality()) * (1 + self.tiebreak))

        def block_quality(self) -> float:
            return float(max(self.a.block_quality(), self.b.block_quality()) * (1 + self.tiebreak))

    class FixedDisMax(q.DisjunctionMax):
        def _matcher(self, subs: Any, searcher: Any, context: Any) -> Any:
            reader = searcher.reader()
            return self._tree_matcher(
                subs, FixedDisMaxMatcher, searcher, context, lambda sub: sub.estimate_size(reader),
                tiebreak=self.tiebreak,
            )

    _DISMAX = FixedDisMax
    return _DISMAX
