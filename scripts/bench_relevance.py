#!/usr/bin/env python
"""Relevance benchmark: Recall@1, Recall@5 and MRR of `kb search` on the development query set,
next to two baselines over the same entries (whoosh StandardAnalyzer; Snowball Russian stemmer).

Usage: .venv/bin/python scripts/bench_relevance.py [--kb build/kb.json] [--queries FILE ...] [--verbose]

By default two query sets are measured: tests/search/dev_queries.json (the development set the ranking
was tuned on) and tests/search/holdout_queries.json (written later, for a less flattering check).
--verbose lists every query with the rank of its first relevant hit per system.

The knowledge base is read from --kb (default: build/kb.json; run `kb ingest` first). Every index is
built in a temporary directory, so the real build/index is never touched.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kb", type=Path, default=ROOT / "build" / "kb.json")
    parser.add_argument(
        "--queries", type=Path, nargs="+",
        default=[ROOT / "tests" / "search" / "dev_queries.json", ROOT / "tests" / "search" / "holdout_queries.json"],
    )
    parser.add_argument("--verbose", "-v", action="store_true")
    args = parser.parse_args()
    if not args.kb.exists():
        print(f"{args.kb}: no knowledge base; run `kb ingest` first", file=sys.stderr)
        return 1

    workdir = Path(tempfile.mkdtemp(prefix="kb-bench-relevance-"))
    try:
        os.environ["KB_BUILD_DIR"] = str(workdir / "build")
        (workdir / "build").mkdir()
        shutil.copy(args.kb, workdir / "build" / "kb.json")

        from kb import paths
        from kb.search import glossary as glossary_mod
        from kb.search import relevance
        from kb.search.documents import index_documents
        from kb.search.index import _mechanic_names
        from kb.search.service import SearchRequest, open_session
        from kb.store import load

        session = open_session(rebuild=True)
        kb = load(paths.kb_path())
        docs = list(
            index_documents(
                kb, glossary_mod.card_name_pairs(paths.glossary_dir()), _mechanic_names(paths.glossary_dir())
            )
        )
        baselines = [
            relevance.BaselineIndex(workdir / "standard", relevance.standard_analyzer(), docs),
            relevance.BaselineIndex(workdir / "snowball", relevance.snowball_ru_analyzer(), docs),
        ]
        names = ("whoosh StandardAnalyzer", "Snowball Russian stemmer")
        for path in args.queries:
            queries = relevance.load_dev_set(path)
            results = [
                relevance.evaluate(
                    "kb search (ours)",
                    lambda q: [r.id for r in session.search(SearchRequest(q, limit=10)).results],
                    queries,
                )
            ]
            results += [relevance.evaluate(n, b.rank, queries) for n, b in zip(names, baselines, strict=True)]
            print(f"{path.name}: {len(queries)} queries over {len(docs)} indexed entries ({args.kb})")
            print(f"{'system':<28} {'R@1':>8} {'R@5':>8} {'MRR':>8}")
            for metrics in results:
                print(metrics.row())
            if args.verbose:
                print(f"{'ours':>5} {'std':>5} {'snow':>5}  query")
                for i, dq in enumerate(queries):
                    cells = [str(m.ranks[i]) if m.ranks[i] else "-" for m in results]
                    print(f"{cells[0]:>5} {cells[1]:>5} {cells[2]:>5}  {dq.query}")
            print()
        # "Nothing relevant" (kb.search.confidence): never for a question with an answer, as often as it can
        # be for one about a mechanic the corpus does not have.
        outside = json.loads((ROOT / "tests" / "search" / "out_of_corpus_queries.json").read_text("utf-8"))
        answerable = [q.query for path in args.queries for q in relevance.load_dev_set(path)]
        withheld = [q for q in outside if not session.search(SearchRequest(q)).results]
        wrongly = [q for q in answerable if not session.search(SearchRequest(q)).answered]
        print(f"nothing relevant: {len(withheld)} of {len(outside)} out-of-corpus questions, "
              f"{len(wrongly)} of {len(answerable)} answerable ones{': ' + '; '.join(wrongly) if wrongly else ''}")
        if args.verbose:
            for q in outside:
                print(f"  {'withheld' if q in withheld else 'LISTED  '}  {q}")
        for baseline in baselines:
            baseline.close()
        session.close()
        return 0
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
