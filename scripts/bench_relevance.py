#!/usr/bin/env python
"""Relevance benchmark: Recall@1, Recall@5 and MRR of `kb search` on the development query set,
next to two baselines over the same entries (whoosh StandardAnalyzer; Snowball Russian stemmer).

Usage: .venv/bin/python scripts/bench_relevance.py [--kb build/kb.sqlite] [--queries FILE ...] [--verbose]

By default two query sets are measured: tests/search/dev_queries.json (the development set the ranking
was tuned on) and tests/search/holdout_queries.json (written later, for a less flattering check).
--verbose lists every query with the rank of its first relevant hit per system.

--site: also export the site for the same knowledge base, run every query in its in-browser search
(Debian's chromium through Playwright, as tests/export) and print how often its first result (and its top
five) are the CLI's: issue 13 asks for one ranking everywhere.

The knowledge base is read from --kb (default: build/kb.sqlite, or an older kb.json; run `kb ingest`
first). Every index is built in a temporary directory, so the real build/index is never touched.
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
    parser.add_argument("--kb", type=Path, default=ROOT / "build" / "kb.sqlite")
    parser.add_argument(
        "--queries", type=Path, nargs="+",
        default=[ROOT / "tests" / "search" / "dev_queries.json", ROOT / "tests" / "search" / "holdout_queries.json"],
    )
    parser.add_argument("--verbose", "-v", action="store_true")
    parser.add_argument("--site", action="store_true", help="compare the site's in-browser ranking with the CLI's")
    args = parser.parse_args()
    if not args.kb.exists():
        print(f"{args.kb}: no knowledge base; run `kb ingest` first", file=sys.stderr)
        return 1

    workdir = Path(tempfile.mkdtemp(prefix="kb-bench-relevance-"))
    try:
        os.environ["KB_BUILD_DIR"] = str(workdir / "build")
        (workdir / "build").mkdir()
        shutil.copy(args.kb, workdir / "build" / args.kb.name)  # a kb.json is migrated on first open

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
        same_as = relevance.equivalents(kb)  # a RU/EN pair, or one card's entries, are one answer
        for path in args.queries:
            queries = relevance.load_dev_set(path)
            results = [
                relevance.evaluate(
                    "kb search (ours)",
                    lambda q: [r.id for r in session.search(SearchRequest(q, limit=10)).results],
                    queries, same_as=same_as,
                )
            ]
            results += [relevance.evaluate(n, b.rank, queries, same_as=same_as)
                        for n, b in zip(names, baselines, strict=True)]
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
        if args.site:
            site_agreement(kb, session, answerable, workdir / "site", args.verbose)
        for baseline in baselines:
            baseline.close()
        session.close()
        return 0
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _place(result: object) -> str:
    """Where a CLI result lives in the site: a ruling's anchor, a card's or a rule's page."""
    from kb.export import urls

    kind, entry_id = getattr(result, "kind"), getattr(result, "id")  # noqa: B009
    if kind == "card":
        return urls.card_page(entry_id)
    if kind == "rule":
        return urls.rule_page(getattr(result, "document"), str(getattr(result, "extra").get("number", "")))  # noqa: B009
    return entry_id


def _site_place(href: str) -> str:
    path, _, anchor = href.partition("#")
    return anchor or path.lstrip("./")


def site_agreement(kb: object, session: object, queries: list[str], out: Path, verbose: bool) -> None:
    from playwright.sync_api import sync_playwright

    from kb.export import site
    from kb.search.service import SearchRequest

    site.export_site(kb, out)  # type: ignore[arg-type]
    same_first = overlap = same_answer = 0
    rows = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--headless=new", "--no-sandbox"])
        tab = browser.new_page()
        tab.goto((out / "search.html").as_uri())
        tab.wait_for_function("window.KBSearch !== undefined")
        for query in queries:
            found = tab.evaluate("q => KBSearch.ids(q, 5)", query)
            response = session.search(SearchRequest(query, limit=5))  # type: ignore[attr-defined]
            ours = [_place(r) for r in response.results]
            theirs = [_site_place(h) for h in found["urls"]]
            same_first += ours[:1] == theirs[:1]
            overlap += len(set(ours) & set(theirs)) / max(len(ours), len(theirs)) if ours or theirs else 1
            same_answer += response.answered == found["answered"]
            rows.append((ours[:1] == theirs[:1] and set(ours) == set(theirs), query, ours, theirs))
        browser.close()
    n = max(1, len(queries))
    print(f"site vs CLI over {len(queries)} queries: same first result {same_first / n:.3f}, "
          f"top-5 overlap {overlap / n:.3f}, same relevant/nothing-relevant verdict {same_answer / n:.3f}")
    if verbose:
        for same, query, ours, theirs in rows:
            if not same:
                print(f"  {query}: CLI {ours} · site {theirs}")


if __name__ == "__main__":
    raise SystemExit(main())
