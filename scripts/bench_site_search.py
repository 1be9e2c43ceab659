#!/usr/bin/env python
"""What one query of the site's in-browser search downloads, on a large synthetic corpus.

Usage: .venv/bin/python scripts/bench_site_search.py [--entries 100000] [--queries 100] [--seed 7] [--keep DIR]

The corpus is ``bench_search.py --scale``'s: entries generated from the real ones (build/kb.sqlite, else the
seeds), each a real entry's topic, cards, kind and language with its sentences mixed with another's. The
site's search index is built from it exactly as ``kb export site`` builds it (``kb.export.search_index``),
beside a bare search page, and Debian's chromium (Playwright, ``/usr/bin/chromium``, from file://) runs the
development and holdout queries and random 1–3-word queries of the corpus' words, each on a fresh shard
cache: the bytes of the shard files each query loaded (meta.js included) are what it downloads.

Prints: build time, files and total size of the index, and per query the bytes downloaded (median, p95,
max) and the browser's time per query (median, p95), with the heaviest queries.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

BUDGET = 1024 * 1024
PAGE = """<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>bench</title>
<script src="search.js" defer></script></head><body data-root="" data-index="search/meta.js"></body></html>
"""


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1)))]


def build(entries: int, seed: int, out: Path) -> tuple[float, int, int]:
    from bench_search import real_corpus

    from kb import paths
    from kb.export import search_index
    from kb.export.search_index import Place
    from kb.search import glossary as glossary_mod

    docs = real_corpus(entries, seed)
    glossary = glossary_mod.load(paths.glossary_dir())
    started = time.perf_counter()
    target = out / "search"
    files = size = 0
    for path, text in search_index.build_files(docs, lambda d: Place(f"#{d.id}", d.document.upper()), glossary,
                                               has_twins=False):
        file = target / path
        file.parent.mkdir(parents=True, exist_ok=True)
        data = text.encode("utf-8")
        file.write_bytes(data)
        files += 1
        size += len(data)
    seconds = time.perf_counter() - started
    shutil.copy(ROOT / "kb" / "export" / "static" / "search.js", out / "search.js")
    (out / "search.html").write_text(PAGE, encoding="utf-8")
    return seconds, files, size


def queries(entries: int, seed: int, count: int) -> list[str]:
    from bench_search import real_corpus

    from kb.search.analysis import tokenize
    from kb.search.relevance import DEV_SET, load_dev_set

    rng = random.Random(seed)
    dev = [q.query for q in load_dev_set() + load_dev_set(DEV_SET.with_name("holdout_queries.json"))]
    docs = real_corpus(min(entries, 3000), seed)
    words = sorted({t.surface for d in docs for t in tokenize(d.text)
                    if t.kind == "word" and not t.stop and len(t.surface) >= 3 and not t.surface.isdigit()})
    return dev + [" ".join(rng.sample(words, rng.randint(1, 3))) for _ in range(count)]


def measure(out: Path, texts: list[str]) -> list[tuple[int, float, str]]:
    from playwright.sync_api import sync_playwright

    search_dir = out / "search"
    meta = (search_dir / "meta.js").stat().st_size
    rows = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--headless=new", "--no-sandbox"])
        tab = browser.new_page()
        tab.goto((out / "search.html").as_uri())
        tab.wait_for_function("window.KBSearch !== undefined")
        tab.evaluate("KBSearch.ids('мироходец', 1)")  # meta.js loaded once, as on a page
        for text in texts:
            tab.evaluate("KBSearch.reset()")
            started = time.perf_counter()
            tab.evaluate("q => KBSearch.ids(q, 10)", text)
            seconds = time.perf_counter() - started
            names = tab.evaluate("KBSearch.loaded()")
            loaded = meta + sum((search_dir / f"{name}.js").stat().st_size for name in names)
            rows.append((loaded, seconds, text))
        browser.close()
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=100, help="random queries besides the dev and holdout sets")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", type=Path, help="write the index here (kept) instead of a temporary directory")
    args = parser.parse_args()
    out = args.keep or Path(tempfile.mkdtemp(prefix="kb-bench-site-"))
    try:
        seconds, files, size = build(args.entries, args.seed, out)
        print(f"{args.entries} entries: index built in {seconds:.1f} s, {files} files, {size / 2**20:.1f} MiB")
        rows = measure(out, queries(args.entries, args.seed, args.queries))
        loaded = [r[0] for r in rows]
        times = [r[1] * 1000 for r in rows]
        print(f"{len(rows)} queries: downloaded per query median {statistics.median(loaded) / 1024:.0f} KiB, "
              f"p95 {percentile(loaded, 95) / 1024:.0f} KiB, max {max(loaded) / 1024:.0f} KiB "
              f"(budget {BUDGET / 1024:.0f} KiB); browser time median {statistics.median(times):.0f} ms, "
              f"p95 {percentile(times, 95):.0f} ms")
        for size_, _, text in sorted(rows, reverse=True)[:5]:
            print(f"  {size_ / 1024:6.0f} KiB  {text}")
        over = [r for r in rows if r[0] >= BUDGET]
        if over:
            print(f"{len(over)} queries over the budget")
        return 1 if over else 0
    finally:
        if not args.keep:
            shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
