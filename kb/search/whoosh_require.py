"""whoosh's Require (score from one query, match required of another) with a matcher that cannot crash.

whoosh-reloaded 2.7.5's ``RequireMatcher.skip_to_quality`` skips its scoring matcher and then asks the
intersection to move on with ``_find_next``, which asserts that the two sides stand on different
documents; when the skip lands on the very document the required side is on, the assertion fails. That
is the ``AssertionError`` every quoted phrase query raised on a large index, where whoosh skips by block
quality. The fixed matcher moves the intersection only when the sides disagree (they already match
otherwise), and its ``replace`` keeps the replaced required side rather than the old one.
"""

from __future__ import annotations

from typing import Any


def require(scoring: Any, required: Any) -> Any:
    """``scoring``'s score for the documents that also match ``required``."""
    return _require_class()(scoring, required)


_REQUIRE: Any = None


def _require_class() -> Any:
    """The fixed Require query class (built on first use: whoosh is imported lazily)."""
    global _REQUIRE
    if _REQUIRE is not None:
        return _REQUIRE
    from whoosh import matching
    from whoosh import query as q
    from whoosh.matching import wrappers

    class FixedRequireMatcher(wrappers.RequireMatcher):
        def skip_to_quality(self, minquality: float) -> int:
            skipped = int(self.a.skip_to_quality(minquality))
            if self.a.is_active() and self.b.is_active() and self.a.id() != self.b.id():
                self.child._find_next()
            return skipped

        def replace(self, minquality: float = 0) -> Any:
            if not self.child.is_active() or (minquality and self.a.max_quality() < minquality):
                return matching.NullMatcher()
            new_a, new_b = self.a.replace(minquality), self.b.replace()
            if not (new_a.is_active() and new_b.is_active()):
                return matching.NullMatcher()
            if new_a is not self.a or new_b is not self.b:
                return self.__class__(new_a, new_b)
            return self

    class FixedRequire(q.Require):
        matcherclass = FixedRequireMatcher

        def matcher(self, searcher: Any, context: Any = None) -> Any:
            scored = self.a.matcher(searcher, context)
            required = self.b.matcher(searcher, searcher.boolean_context())
            return self.matcherclass(scored, required)

    _REQUIRE = FixedRequire
    return _REQUIRE
