#!/usr/bin/env python
"""Where a `kb search` query's time goes: a per-stage profile of the whole path on a large corpus.

Usage: .venv/bin/python scripts/profile_search.py [--size 100000] [--backend tantivy] [--dir DIR]
       [--queries 300] [--seed 7] [--slowest 10] [--repeat 3] [--bench]

The corpus and the queries are ``scripts/bench_search.py --scale``'s (same generator, same seed). The index
is built once into ``--dir`` (default ``/tmp/kb-profile-<backend>-<size>``) and reused by later runs while
the index formats are unchanged (a stamp file records them): a 100 000-entry build costs minutes of CPU.

Each stage of ``SearchSession.search`` (and of the engine's search around the native call) is wrapped with
a timer that records its *exclusive* CPU time (``time.process_time``: on a machine shared with other work
the wall clock measures the others too), so the stages add up to the whole query. Printed: p50 / p95 /
mean per stage over all queries and over the slowest 5 %, the Python part (everything but the engine's
native search) per query, and the slowest queries with their dominant stages. The timers cost a few µs a
call, so the whole path is also timed once unwrapped.

``--bench``: instead, run ``bench_search.py``'s own query measurement (``--child-query``) on the built index
and print its figures: the benchmark's numbers without rebuilding the corpus.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import bench_search  # noqa: E402


def stamp(backend: str) -> dict[str, str]:
    """What the built index depends on besides the corpus: a change of any of these rebuilds it."""
    from kb.search.analysis import ANALYZER_VERSION
    from kb.search.engine import ENGINE_FORMATS
    from kb.search.index import INDEX_FORMAT

    return {"engine": backend, "format": ENGINE_FORMATS.get(backend, ""), "index": INDEX_FORMAT,
            "analyzer": ANALYZER_VERSION}


def ensure_built(size: int, backend: str, directory: Path, seed: int) -> None:
    stamp_file = directory / "profile-stamp.json"
    wanted = {**stamp(backend), "size": str(size), "seed": str(seed)}
    if stamp_file.exists() and json.loads(stamp_file.read_text("utf-8")) == wanted:
        return
    import shutil

    shutil.rmtree(directory, ignore_errors=True)
    print(f"building {backend} at {size} entries into {directory} ...", flush=True)
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench_search.py"), "--child-build", str(size),
                          backend, str(directory), "--seed", str(seed)], cwd=ROOT, check=True, capture_output=True,
                         text=True)
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    print(f"built in {figures['build_s']:.1f} s (CPU {figures['build_cpu_s']:.1f} s)", flush=True)
    stamp_file.write_text(json.dumps(wanted), "utf-8")


class Stages:
    """Exclusive CPU time per stage label, per query (nested wrapped calls are subtracted from their caller)."""

    def __init__(self) -> None:
        self.stack: list[float] = []  # child time accumulated by each open call
        self.current: dict[str, float] = defaultdict(float)

    def wrap(self, fn: Callable[..., Any], label: str) -> Callable[..., Any]:
        clock, stack, stages = time.process_time, self.stack, self

        def timed(*args: Any, **kwargs: Any) -> Any:
            stack.append(0.0)
            started = clock()
            try:
                return fn(*args, **kwargs)
            finally:
                elapsed = clock() - started
                children = stack.pop()
                stages.current[label] += elapsed - children
                if stack:
                    stack[-1] += elapsed

        return timed

    def patch(self, owner: Any, name: str, label: str) -> None:
        """Wrap ``owner.name`` if it exists (the script profiles older versions of the code too)."""
        if hasattr(owner, name):
            setattr(owner, name, self.wrap(getattr(owner, name), label))

    def take(self) -> dict[str, float]:
        out, self.current = dict(self.current), defaultdict(float)
        return {k: v * 1000 for k, v in out.items()}


class _Proxy:
    """Stands in for an object whose methods cannot be replaced (a Rust class): wraps the named ones."""

    def __init__(self, target: Any, stages: Stages, methods: dict[str, str]) -> None:
        self._target = target
        for name, label in methods.items():
            setattr(self, name, stages.wrap(getattr(target, name), label))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._target, name)


NATIVE = ("engine: native search", "engine: fast field", "engine: whoosh")  # not the Python path's


def instrument(session: Any, backend: str) -> Stages:
    from kb.search import card_first, confidence, glossary, highlight, query, service

    st = Stages()
    for name, label in (
        ("compile_query", "query: parse + analysis"), ("name_filter", "query: name filter"),
        ("coordinate", "rerank: coordinate"), ("rule_first", "rerank: rule first"),
        ("rule_numbers", "rerank: rule numbers"), ("named_cards", "card first"), ("card_first", "card first"),
        ("answered", "confidence"), ("off_topic", "confidence"), ("prefer_current", "rerank: current/pairs"),
        ("one_per_pair", "rerank: current/pairs"), ("distinct_texts", "rerank: current/pairs"),
        ("positive_terms", "highlight"), ("match_spans", "highlight"), ("snippet", "snippet"),
        ("text_terms", "text terms"),
    ):
        st.patch(service, name, label)
    st.patch(confidence, "text_terms", "text terms")
    st.patch(confidence, "_context_terms", "context terms")
    st.patch(confidence, "_hit_context", "context terms")
    st.patch(card_first, "is_name_only", "card first")
    st.patch(query._Compiler, "correct", "query: typo check")
    st.patch(query._Compiler, "expanded", "query: glossary expansion")
    st.patch(glossary.Glossary, "find", "query: glossary find")
    st.patch(highlight, "remember", "engine: remember")
    st.patch(confidence, "remember", "engine: remember")
    searcher = session.searcher
    st.patch(session, "verdicts", "verdicts")
    st.patch(searcher, "search", "engine: python")
    st.patch(searcher, "near", "query: near (typo)")
    if backend == "tantivy":
        st.patch(searcher, "compile", "engine: plan → tantivy")
        st.patch(searcher, "filter_clauses", "engine: plan → tantivy")
        searcher.searcher = _Proxy(searcher.searcher, st, {"search": "engine: native search",
                                                           "fast_field_values": "engine: fast field"})
        st.patch(searcher.rows, "get", "engine: row fetch")
    else:
        st.patch(searcher, "compile", "engine: whoosh")
        st.patch(searcher, "_search_topk", "engine: whoosh")
    st.patch(session, "search", "search (rest)")
    return st


def forget_texts() -> None:
    """Empty the caches keyed by a hit's text or context (a repeated query would find its hits there)."""
    from kb.search import confidence, highlight

    for module in (highlight, confidence):
        for name in ("_analysed", "_term_sets", "_stored"):
            cache = getattr(module, name, None)
            if isinstance(cache, dict):
                cache.clear()
        for name in ("_context_terms", "_stored_terms"):
            cached = getattr(module, name, None)
            if hasattr(cached, "cache_clear"):
                cached.cache_clear()


def percentile(values: list[float], pct: float) -> float:
    return bench_search.percentile(values, pct)


def profile(args: argparse.Namespace, directory: Path) -> None:
    from kb.search.index import IndexState
    from kb.search.service import SearchRequest, SearchSession

    queries = bench_search.scale_queries(bench_search.real_corpus(min(args.size, 5000), args.seed), args.seed,
                                         args.queries)
    meta = json.loads((directory / "meta.json").read_text("utf-8"))
    session = SearchSession(IndexState(directory, "bench", False, 0.0, args.size, meta))
    session._verdicts = {}

    def run(q: str) -> None:
        session.search(SearchRequest(q, limit=10))

    plain: list[float] = []
    bench_search.timed(run, queries, plain)  # unwrapped first: the clean figure
    lean = Stages()  # then only the native calls wrapped: the Python part without the timers' own cost
    searcher = session.searcher
    if args.backend == "tantivy":
        native = searcher.searcher
        searcher.searcher = _Proxy(native, lean, {"search": NATIVE[0], "fast_field_values": NATIVE[1]})
    else:
        lean.patch(searcher, "search", NATIVE[2])
    lean_python: list[float] = []
    lean_total: list[float] = []
    for q in queries:  # the least of ``--repeat`` runs, each with the per-text caches emptied (a new query's)
        best, best_total = float("inf"), float("inf")
        for _ in range(args.repeat):
            forget_texts()
            started = time.process_time()
            run(q)
            total = (time.process_time() - started) * 1000
            best, best_total = min(best, total - sum(lean.take().values())), min(best_total, total)
        lean_python.append(best)
        lean_total.append(best_total)
    if args.backend == "tantivy":
        searcher.searcher = native
    else:
        del searcher.search  # the instance attribute: the class's method again
    st = instrument(session, args.backend)
    for q in queries[:10]:
        run(q)
    st.take()
    per_query: list[dict[str, float]] = []
    for q in queries:  # per stage, the least of ``--repeat`` runs
        runs = []
        for _ in range(args.repeat):
            forget_texts()
            started = time.process_time()
            run(q)
            stages = st.take()
            stages["(total, wrapped)"] = (time.process_time() - started) * 1000
            runs.append(stages)
        per_query.append({k: min(r.get(k, 0.0) for r in runs) for k in runs[0]})
    session.close()

    def python_part(s: dict[str, float]) -> float:
        return s["(total, wrapped)"] - sum(s.get(n, 0.0) for n in NATIVE)

    python = [python_part(s) for s in per_query]
    order = sorted(range(len(queries)), key=lambda i: -lean_python[i])
    slow = order[: max(1, len(order) // 20)]
    labels = sorted({k for s in per_query for k in s}, key=lambda k: -sum(s.get(k, 0.0) for s in per_query))
    print(f"{args.backend} at {args.size} entries, {len(queries)} queries (CPU ms; exclusive per stage)")
    print(f"whole path unwrapped: p50 {percentile(plain, 50):.2f}  p95 {percentile(plain, 95):.2f}  "
          f"max {max(plain):.2f}")
    print(f"least of {args.repeat} runs: whole path p50 {percentile(lean_total, 50):.2f}  "
          f"p95 {percentile(lean_total, 95):.2f}  max {max(lean_total):.2f}")
    print(f"python part (all but the engine's native calls, unwrapped): p50 {percentile(lean_python, 50):.3f}  "
          f"p95 {percentile(lean_python, 95):.3f}  max {max(lean_python):.3f}"
          + ("  (whoosh: all but the engine's search)" if args.backend != "tantivy" else ""))
    print(f"python part (wrapped, minus the engine's native search): p50 {percentile(python, 50):.3f}  "
          f"p95 {percentile(python, 95):.3f}  max {max(python):.3f}")
    print(f"{'stage':<32}{'p50':>8}{'p95':>8}{'mean':>8}{'max':>8}   slowest 5 % (Python part): {'mean':>7}{'max':>8}")
    for label in labels:
        values = [s.get(label, 0.0) for s in per_query]
        slow_values = [per_query[i].get(label, 0.0) for i in slow]
        print(f"{label:<32}{percentile(values, 50):>8.3f}{percentile(values, 95):>8.3f}"
              f"{sum(values) / len(values):>8.3f}{max(values):>8.3f}   {'':>12}"
              f"{sum(slow_values) / len(slow_values):>7.3f}{max(slow_values):>8.3f}")
    print(f"\nslowest {args.slowest} queries by the Python part:")
    for i in order[: args.slowest]:
        top = sorted(((v, k) for k, v in per_query[i].items() if not k.startswith("(")), reverse=True)[:4]
        wrapped = per_query[i]["(total, wrapped)"]
        print(f"  {lean_python[i]:6.2f} ms (wrapped total {wrapped:6.2f})  {queries[i][:60]!r}")
        print("           " + ", ".join(f"{k} {v:.2f}" for v, k in top))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--backend", default="tantivy")
    parser.add_argument("--dir", type=Path)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--slowest", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3, help="runs per query for the least-of figures")
    parser.add_argument("--bench", action="store_true", help="bench_search.py's query figures on the built index")
    args = parser.parse_args()
    directory = args.dir or Path(f"/tmp/kb-profile-{args.backend}-{args.size}")
    ensure_built(args.size, args.backend, directory, args.seed)
    if args.bench:
        out = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench_search.py"), "--child-query",
                              str(args.size), args.backend, str(directory), "--seed", str(args.seed), "--queries",
                              str(args.queries)], cwd=ROOT, check=True, capture_output=True, text=True)
        f = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"{args.size:>7} {args.backend:<8} {int(f['queries'])} queries: wall p50 {f['p50']:.2f}  "
              f"p95 {f['p95']:.2f}  max {f['max']:.2f} ms; engine alone p50 {f['engine_p50']:.2f}  "
              f"p95 {f['engine_p95']:.2f} ms; "
              f"CPU p50 {f['cpu_p50']:.2f}  p95 {f['cpu_p95']:.2f}  max {f['cpu_max']:.2f} ms")
        return 0
    profile(args, directory)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
