#!/usr/bin/env python
"""Speed benchmark: index build and query latency of `kb search` on a large synthetic corpus, with
tantivy indexing the same pre-analysed tokens as a reference point, and on the bundled data.

Usage: .venv/bin/python scripts/bench_search.py [--rulings 100000] [--queries 300] [--seed 7]
       [--skip-synthetic] [--skip-bundled] [--cold-start 5]
       .venv/bin/python scripts/bench_search.py --cold [--runs 15]

       .venv/bin/python scripts/bench_search.py --scale [1000,10000,100000] [--backends whoosh,tantivy]
       [--index-dir DIR] [--rounds 1]

``--scale``: corpora of each size generated from the real entries (build/kb.sqlite, else the seeds): each
entry a real one's topic, cards, kind and language with its text's sentences mixed with another real
entry's of the same language, so vocabulary and posting lengths grow as a real archive's would. Per size
and backend, in separate processes (so memory is each one's own): build time, index size, peak memory of
the build and of a search process, and query latency p50/p95/max through the whole ``kb search`` path
(parse, glossary, typo check, ranking, highlight) over the development queries, random 1–3-word queries,
quoted phrases and prefixes, as wall clock and as the process's CPU time (on a machine shared with other
work the wall clock measures the others too; the CPU time stays close to a quiet machine's figures).
Above ``whoosh_engine.TOPK_LIMIT`` entries the whoosh build also writes the impact lists and forward
records its queries are answered from (``kb/search/whoosh_topk.py``): they count in its build time and size.
At 100 000 entries each backend's p95 is checked against issue 13's target (tantivy 2 ms, whoosh 20 ms).
``--rounds N`` runs the queries N times, each in a new process (every query a first one, as in a single
round), and prints the median figures with each round's p95: on a shared machine one round's p95 moves by a
quarter from run to run.

``--cold``: only the cold start of the installed ``kb`` command on the built knowledge base (build/, as
``scripts/main.sh`` leaves it: index and verdicts up to date): ``kb search`` and ``kb show``, each run in a
new process, interleaved with ``python -c pass`` in the same run, so the figures are comparable on a busy
machine, with each process's CPU time (user + system) beside the wall clock. Bytecode is compiled first
(a cold process, not a first run after install).

Synthetic corpus: rulings assembled from the seeds' sentences (data/sources/*.txt), each 1–4 sentences
drawn at random, with a random card name of the five sets (data/glossary/card-names-en-ru.csv), a random
P/T, counter or rule number mixed in, and a random section mechanic — varied enough that posting lists
have realistic lengths. Queries are 1–3 words drawn from the corpus vocabulary.

Prints: build time and rulings/s, index size, query latency p50/p95 per word count for our engine
(the full in-process path: parse, glossary, typo check, BM25F, highlight) and for tantivy over the same
analysed tokens (positions preserved), with the ratio; then p50/p95 on the bundled knowledge base
(build/kb.sqlite) and the cold-start time of `kb search` as a subprocess.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.search.analysis import analyze, analyze_spans, tokenize  # noqa: E402
from kb.search.documents import IndexDoc  # noqa: E402

KINDS = ("ruling", "ruling", "ruling", "note", "rule")


def seed_sentences() -> list[str]:
    sentences: list[str] = []
    for path in sorted((ROOT / "data" / "sources").glob("*.txt")):
        text = path.read_text(encoding="utf-8", errors="replace")
        for line in text.splitlines():
            line = line.strip().lstrip("*").strip()
            for sentence in re.split(r"(?<=[.!?])\s+", line):
                if len(sentence) >= 25 and not sentence.startswith(("|", "-")):
                    sentences.append(sentence)
    return sentences


def card_names() -> list[str]:
    with (ROOT / "data" / "glossary" / "card-names-en-ru.csv").open(encoding="utf-8") as handle:
        return sorted({row["name_ru"] for row in csv.DictReader(handle) if row.get("name_ru")})


def mechanics() -> list[tuple[str, str]]:
    path = ROOT / "data" / "glossary" / "mechanics.csv"
    if not path.exists():
        return [("Упорство", "Persist"), ("Оборотень", "Morph")]
    with path.open(encoding="utf-8") as handle:
        return [(row["ru"], row["en"]) for row in csv.DictReader(handle)]


def synthetic_corpus(n: int, rng: random.Random) -> Iterator[IndexDoc]:
    sentences, names, mechs = seed_sentences(), card_names(), mechanics()
    extras = ["+1/+1", "-1/-1", "2/2", "3/3", "{Q}", "{T}", "{2/B}", "{W/U}"]
    for i in range(n):
        parts = rng.sample(sentences, rng.randint(1, 4))
        name = rng.choice(names)
        if rng.random() < 0.5:
            parts.append(f"Например, {name} получает жетон {rng.choice(extras)}.")
        if rng.random() < 0.2:
            parts.append(f"См. правило {rng.randint(100, 799)}.{rng.randint(1, 99)}{rng.choice('abcdef')}.")
        ru, en = rng.choice(mechs)
        doc_id = f"syn{i % 5}"
        yield IndexDoc(
            id=f"{doc_id}/s{i // 40}/{i}", kind=rng.choice(KINDS), document=doc_id, section=f"{doc_id}/s{i // 40}",
            lang="ru", text=" ".join(parts), topic=f"{ru}\n{en}", cards=name, rules="", order=i,
            extra={"section_title": ru, "set": doc_id.upper()},
        )


def sample_queries(docs: list[IndexDoc], count: int, rng: random.Random) -> dict[int, list[str]]:
    vocabulary = sorted({
        tok.surface for doc in docs[:2000] for tok in tokenize(doc.text)
        if tok.kind == "word" and not tok.stop and len(tok.surface) >= 4 and not tok.surface.isdigit()
    })
    return {k: [" ".join(rng.sample(vocabulary, k)) for _ in range(count)] for k in (1, 2, 3)}


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1)))]


def timed(fn: Callable[[str], object], queries: list[str], cpu: list[float] | None = None) -> list[float]:
    """Wall-clock milliseconds per query; ``cpu`` receives the process's CPU milliseconds (a busy machine
    inflates the wall clock far more than the CPU time)."""
    for q in queries[:10]:  # warm caches
        fn(q)
    out = []
    for q in queries:
        started, cpu_started = time.perf_counter(), time.process_time()
        fn(q)
        out.append((time.perf_counter() - started) * 1000)
        if cpu is not None:
            cpu.append((time.process_time() - cpu_started) * 1000)
    return out


def dir_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def open_ours(directory: Path, engine: str = "whoosh") -> object:
    """A SearchSession over an index directory built outside the usual lifecycle."""
    from kb.search import glossary as glossary_mod
    from kb.search.index import IndexState
    from kb.search.service import SearchSession

    (directory / "glossary.json").write_text(glossary_mod.load(ROOT / "data" / "glossary").to_json(), "utf-8")
    meta = {"doc_count": 0, "documents": {}, "engine": engine}
    (directory / "meta.json").write_text(json.dumps(meta), "utf-8")
    return SearchSession(IndexState(directory, "bench", False, 0.0, 0, meta))


def build_tantivy(docs: list[IndexDoc], directory: Path) -> tuple[object, float, float]:
    import tantivy

    started = time.perf_counter()
    analysed = []
    for doc in docs:
        tokens = []
        for pos, (start, end, terms) in enumerate(analyze_spans(doc.text)):
            tokens.extend(tantivy.Token(t, pos, start, end) for t in terms)
        topic = [tantivy.Token(t, p, 0, 0) for p, terms in enumerate(analyze(doc.topic + " " + doc.cards))
                 for t in terms]
        analysed.append((doc.id, doc.text, tokens, topic))
    analysis_seconds = time.perf_counter() - started

    builder = tantivy.SchemaBuilder()
    builder.add_text_field("id", stored=True, tokenizer_name="raw")
    builder.add_text_field("text", stored=True, tokenizer_name="raw")
    builder.add_text_field("topic", tokenizer_name="raw")
    schema = builder.build()
    directory.mkdir(parents=True, exist_ok=True)
    index = tantivy.Index(schema, path=str(directory))
    started = time.perf_counter()
    writer = index.writer(heap_size=256_000_000, num_threads=1)
    for doc_id, text, tokens, topic in analysed:
        doc = tantivy.Document()
        doc.add_text("id", doc_id)
        doc.add_pre_tokenized_text("text", tantivy.PreTokenizedString(text, tokens))
        doc.add_pre_tokenized_text("topic", tantivy.PreTokenizedString("", topic))
        writer.add_document(doc)
    writer.commit()
    writer.wait_merging_threads()
    index.reload()
    return (index, schema), analysis_seconds, time.perf_counter() - started


def tantivy_search(handle: object, query: str) -> list[str]:
    import tantivy

    index, schema = handle  # type: ignore[misc]
    clauses = []
    for terms in analyze(query, "query"):
        for field, boost in (("text", 1.0), ("topic", 2.5)):
            for term in terms:
                q = tantivy.Query.term_query(schema, field, term)
                clauses.append((tantivy.Occur.Should, tantivy.Query.boost_query(q, boost)))
    if not clauses:
        return []
    searcher = index.searcher()
    result = searcher.search(tantivy.Query.boolean_query(clauses), 10)
    return [searcher.doc(address)["id"][0] for _, address in result.hits]


def synthetic(args: argparse.Namespace) -> None:
    from kb.search.service import SearchRequest
    from kb.search.whoosh_engine import WhooshEngine

    rng = random.Random(args.seed)
    workdir = Path(tempfile.mkdtemp(prefix="kb-bench-search-"))
    try:
        docs = list(synthetic_corpus(args.rulings, rng))
        words = sum(len(d.text.split()) for d in docs)
        print(f"synthetic corpus: {len(docs)} rulings, {words} words ({words / len(docs):.0f} per ruling)")

        started = time.perf_counter()
        WhooshEngine().build(docs, workdir / "whoosh")
        whoosh_build = time.perf_counter() - started
        session = open_ours(workdir / "whoosh")

        handle, analysis_s, tantivy_build = build_tantivy(docs, workdir / "tantivy")

        print()
        print(f"{'':<34}{'kb search (whoosh)':>20}{'tantivy':>14}{'ratio':>9}")
        print(f"{'build, s (incl. our analysis)':<34}{whoosh_build:>20.1f}{analysis_s + tantivy_build:>14.1f}"
              f"{whoosh_build / (analysis_s + tantivy_build):>9.1f}")
        print(f"{'  of which tantivy indexing, s':<34}{'':>20}{tantivy_build:>14.1f}")
        print(f"{'rulings/s':<34}{len(docs) / whoosh_build:>20.0f}{len(docs) / (analysis_s + tantivy_build):>14.0f}")
        ws, ts = dir_size(workdir / "whoosh"), dir_size(workdir / "tantivy")
        print(f"{'index size, MiB':<34}{ws / 2**20:>20.1f}{ts / 2**20:>14.1f}{ws / ts:>9.1f}")

        queries = sample_queries(docs, args.queries, rng)
        ours_fn = lambda q: session.search(SearchRequest(q, limit=10))  # type: ignore[attr-defined]  # noqa: E731
        for k, qs in queries.items():
            ours = timed(ours_fn, qs)
            theirs = timed(lambda q: tantivy_search(handle, q), qs)
            for label, pct in (("p50", 50), ("p95", 95)):
                a, b = percentile(ours, pct), percentile(theirs, pct)
                print(f"{f'{k}-word query latency {label}, ms':<34}{a:>20.2f}{b:>14.2f}{a / b:>9.1f}")
        session.close()  # type: ignore[attr-defined]
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def bundled(args: argparse.Namespace) -> None:
    kb_file = ROOT / "build" / "kb.sqlite"
    if not kb_file.exists():
        print("\nbundled data: build/kb.sqlite missing; run `kb ingest` first")
        return
    workdir = Path(tempfile.mkdtemp(prefix="kb-bench-bundled-"))
    try:
        os.environ["KB_BUILD_DIR"] = str(workdir)
        shutil.copy(kb_file, workdir / "kb.sqlite")
        from kb.search.index import ensure_index, index_size
        from kb.search.relevance import load_dev_set
        from kb.search.service import SearchRequest, open_session

        started = time.perf_counter()
        state = ensure_index(rebuild=True)
        build = time.perf_counter() - started
        session = open_session()
        rng = random.Random(args.seed)
        dev = [q.query for q in load_dev_set()]
        from kb.store import load

        texts = [getattr(e, "text", "") for e in load(kb_file).rulings]
        vocabulary = sorted({t.surface for text in texts for t in tokenize(text) if t.kind == "word" and not t.stop})
        randoms = [" ".join(rng.sample(vocabulary, rng.randint(1, 3))) for _ in range(args.queries)]
        latencies = timed(lambda q: session.search(SearchRequest(q, limit=10)), dev + randoms)
        session.close()
        print(f"\nbundled data: {state.doc_count} entries, index built in {build:.2f} s, "
              f"{index_size(state.directory) / 2**20:.1f} MiB")
        print(f"query latency over {len(dev)} dev + {len(randoms)} random queries: "
              f"p50 {percentile(latencies, 50):.2f} ms, p95 {percentile(latencies, 95):.2f} ms, "
              f"max {max(latencies):.2f} ms")
        if args.cold_start:
            runs = []
            env = {**os.environ, "KB_BUILD_DIR": str(workdir)}
            for _ in range(args.cold_start):
                started = time.perf_counter()
                subprocess.run([sys.executable, "-m", "kb", "search", "может ли мироходец атаковать", "--json"],
                               cwd=ROOT, env=env, check=True, capture_output=True)
                runs.append(time.perf_counter() - started)
            print(f"`kb search` cold start (new process, index up to date), {len(runs)} runs: "
                  f"median {statistics.median(runs):.2f} s, max {max(runs):.2f} s")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def real_documents() -> list[IndexDoc]:
    """The real entries as index documents: build/kb.sqlite when built, else the bundled seeds."""
    from kb.search import glossary as glossary_mod
    from kb.search.documents import index_documents
    from kb.search.index import _mechanic_names
    from kb.store import load

    kb_file = ROOT / "build" / "kb.sqlite"
    if kb_file.exists():
        kb = load(kb_file)
    else:  # not built yet: the bundled documents ingested into a scratch build directory, as `kb ingest` does
        with tempfile.TemporaryDirectory(prefix="bench-search-kb-") as scratch:
            kb_bin = str(Path(sys.executable).with_name("kb"))
            subprocess.run([kb_bin, "ingest", "--quiet"], env={**os.environ, "KB_BUILD_DIR": scratch}, check=True)
            kb = load(Path(scratch) / "kb.sqlite")
    glossary = ROOT / "data" / "glossary"
    return list(index_documents(kb, glossary_mod.card_name_pairs(glossary), _mechanic_names(glossary)))


_SENTENCE_RE = re.compile(r"(?<=[.!?])\s+")


def real_corpus(n: int, seed: int) -> list[IndexDoc]:
    """``n`` entries generated from the real ones (see ``--scale``); deterministic for a seed."""
    rng = random.Random(seed)
    real = [d for d in real_documents() if d.text.strip()]
    by_lang: dict[str, list[IndexDoc]] = {}
    for doc in real:
        by_lang.setdefault(doc.lang, []).append(doc)
    out = []
    for i in range(n):
        base = real[i % len(real)] if i < len(real) else rng.choice(real)
        other = rng.choice(by_lang[base.lang])
        mine, theirs = _SENTENCE_RE.split(base.text), _SENTENCE_RE.split(other.text)
        text = base.text if i < len(real) else " ".join(
            rng.sample(mine, max(1, len(mine) - 1)) + rng.sample(theirs, min(len(theirs), rng.randint(0, 2)))
        )
        doc_id = f"{base.document}/syn/{i}"
        out.append(IndexDoc(
            id=doc_id, kind=base.kind, document=base.document, section=base.section, lang=base.lang, text=text,
            topic=base.topic, cards=base.cards, rules=base.rules, order=i, extra=base.extra,
        ))
    return out


def scale_queries(docs: list[IndexDoc], seed: int, count: int) -> list[str]:
    from kb.search.relevance import load_dev_set

    rng = random.Random(seed)
    dev = [q.query for q in load_dev_set() + load_dev_set(ROOT / "tests" / "search" / "holdout_queries.json")]
    words = sorted({t.surface for d in docs[:3000] for t in tokenize(d.text)
                    if t.kind == "word" and not t.stop and len(t.surface) >= 3 and not t.surface.isdigit()})
    randoms = [" ".join(rng.sample(words, rng.randint(1, 3))) for _ in range(count)]
    phrases = []
    for doc in rng.sample(docs, count // 4):
        ws = [t.surface for t in tokenize(doc.text) if t.kind == "word" and not t.stop]
        if len(ws) >= 3:
            k = rng.randrange(len(ws) - 1)
            phrases.append('"' + " ".join(ws[k : k + 2]) + '"')
    prefixes = [w[: max(3, len(w) - 3)] + "*" for w in rng.sample(words, count // 4)]
    return dev + randoms + phrases + prefixes


def _rss_mib() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child_build(size: int, backend: str, directory: Path, seed: int) -> dict[str, float]:
    from kb.search import glossary as glossary_mod
    from kb.search.analysis import vocabulary_of
    from kb.search.engine import get_engine
    from kb.search.index import write_vocabulary

    docs = real_corpus(size, seed)
    started, cpu_started = time.perf_counter(), time.process_time()
    get_engine(backend).build(docs, directory)
    gloss = glossary_mod.load(ROOT / "data" / "glossary")
    (directory / "glossary.json").write_text(gloss.to_json(), "utf-8")
    write_vocabulary(directory, vocabulary_of(t for d in docs for t in (d.text, d.topic, d.cards)))
    (directory / "meta.json").write_text(json.dumps({"engine": backend, "doc_count": len(docs)}), "utf-8")
    seconds = time.perf_counter() - started
    return {"build_s": seconds, "build_cpu_s": time.process_time() - cpu_started, "bytes": dir_size(directory),
            "build_rss": _rss_mib()}


def child_query(size: int, backend: str, directory: Path, seed: int, count: int) -> dict[str, float]:
    from kb.search.index import IndexState
    from kb.search.service import SearchRequest, SearchSession

    queries = scale_queries(real_corpus(min(size, 5000), seed), seed, count)
    rss_before = _rss_mib()
    started = time.perf_counter()
    meta = json.loads((directory / "meta.json").read_text("utf-8"))
    session = SearchSession(IndexState(directory, "bench", False, 0.0, size, meta))
    session._verdicts = {}  # no verdicts for a synthetic corpus
    open_s = time.perf_counter() - started
    engine_ms = [0.0]
    engine_search = session.searcher.search

    def timed_engine(*a: object) -> object:  # the engine's own share: run the compiled plan, fetch the hits
        t0 = time.perf_counter()
        try:
            return engine_search(*a)  # type: ignore[arg-type]
        finally:
            engine_ms[0] += (time.perf_counter() - t0) * 1000

    session.searcher.search = timed_engine  # type: ignore[method-assign]
    engine: list[float] = []

    def run(q: str) -> None:
        engine_ms[0] = 0.0
        session.search(SearchRequest(q, limit=10))
        engine.append(engine_ms[0])

    cpu: list[float] = []
    latencies = timed(run, queries, cpu)
    engine = engine[-len(queries):]
    figures = {"open_s": open_s, "queries": len(queries), "p50": percentile(latencies, 50),
               "p95": percentile(latencies, 95), "max": max(latencies), "query_rss": _rss_mib() - rss_before,
               "engine_p50": percentile(engine, 50), "engine_p95": percentile(engine, 95),
               "cpu_p50": percentile(cpu, 50), "cpu_p95": percentile(cpu, 95), "cpu_max": max(cpu)}
    if backend == "tantivy":
        figures.update(common_words_agreement(session, queries))
    session.close()
    return figures


def common_words_agreement(session: object, queries: list[str]) -> dict[str, float]:
    """How often leaving the common words out of a question (``tantivy_engine.COMMON_TERM_FRACTION``) keeps the
    whole plan's answer: the share of queries with the same first hit, and the mean overlap of the top ten."""
    from kb.search import tantivy_engine
    from kb.search.service import SearchRequest, SearchSession

    assert isinstance(session, SearchSession)

    def ids(q: str) -> list[str]:
        return [r.id for r in session.search(SearchRequest(q, limit=10)).results]

    capped = {q: ids(q) for q in queries}
    saved = tantivy_engine.COMMON_TERM_FRACTION
    tantivy_engine.COMMON_TERM_FRACTION = 1.0  # nothing is more frequent than every document
    try:
        whole = {q: ids(q) for q in queries}
    finally:
        tantivy_engine.COMMON_TERM_FRACTION = saved
    first = sum(capped[q][:1] == whole[q][:1] for q in queries) / len(queries)
    overlap = sum(len(set(capped[q]) & set(whole[q])) / len(whole[q]) if whole[q] else float(not capped[q])
                  for q in queries) / len(queries)
    return {"common_first": first, "common_top10": overlap}


def scale(args: argparse.Namespace) -> int:
    sizes = [int(s) for s in args.scale.split(",")]
    backends = args.backends.split(",")
    keep = args.index_dir is not None  # indexes kept there and reused by the next run (same seed)
    workdir = args.index_dir or Path(tempfile.mkdtemp(prefix="kb-bench-scale-"))
    rows = []
    try:
        for size in sizes:
            for backend in backends:
                directory = workdir / f"{backend}-{size}-seed{args.seed}"
                figures = _kept_build(directory, backend) if keep else {}
                if not figures:
                    figures = _child("build", size, backend, directory, args)
                    if keep:
                        (directory / BUILD_FIGURES).write_text(json.dumps({**figures, "code": _code(backend)}))
                rounds = [_child("query", size, backend, directory, args) for _ in range(args.rounds)]
                figures.update({k: statistics.median(r[k] for r in rounds) for k in rounds[0]})
                rows.append((size, backend, figures))
                f = figures
                print(f"{size:>7} {backend:<8} build {f['build_s']:7.1f} s (CPU {f.get('build_cpu_s', 0):6.1f} s)  "
                      f"{f['bytes'] / 2**20:7.1f} MiB  "
                      f"build RSS {f['build_rss']:6.0f} MiB  search +{f['query_rss']:5.0f} MiB  "
                      f"open {f['open_s'] * 1000:6.0f} ms  {int(f['queries'])} queries: p50 {f['p50']:7.2f}  "
                      f"p95 {f['p95']:7.2f}  max {f['max']:8.2f} ms; engine alone p50 {f['engine_p50']:6.2f}  "
                      f"p95 {f['engine_p95']:6.2f} ms; CPU p50 {f['cpu_p50']:7.2f}  p95 {f['cpu_p95']:7.2f}  "
                      f"max {f['cpu_max']:8.2f} ms", flush=True)
                if len(rounds) > 1:
                    print(f"{'':>16}median of {len(rounds)} query rounds (each a new process); p95 per round: "
                          + ", ".join(f"{r['p95']:.2f}" for r in rounds) + " ms, CPU "
                          + ", ".join(f"{r['cpu_p95']:.2f}" for r in rounds) + " ms", flush=True)
                if "common_first" in f:
                    print(f"{'':>16}common words left out of questions: the whole plan's first hit kept for "
                          f"{f['common_first']:.1%} of the queries, its top ten {f['common_top10']:.1%}", flush=True)
                target = P95_TARGETS.get((size, backend))
                if target is not None:
                    verdict = "under" if f["p95"] < target else "OVER"
                    print(f"{'':>16}p95 {f['p95']:.2f} ms (CPU {f['cpu_p95']:.2f} ms): {verdict} the {target:g} ms "
                          f"target of {backend} at {size:,} entries (issue 13)", flush=True)
                if not keep:
                    shutil.rmtree(directory, ignore_errors=True)
    finally:
        if not keep:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0


BUILD_FIGURES = "bench-build.json"  # the build's figures, beside a kept index (``--index-dir``)
P95_TARGETS = {(100_000, "tantivy"): 2.0, (100_000, "whoosh"): 20.0}  # ms, the whole path (issue 13)


def _code(backend: str) -> str:
    """What the index depends on besides the corpus: an index kept by another version is built again."""
    from kb.search.index import code_version

    return code_version(backend)


def _kept_build(directory: Path, backend: str) -> dict[str, float]:
    """The figures of a kept index's build, or {} when there is none or this version writes another format."""
    try:
        figures = json.loads((directory / BUILD_FIGURES).read_text())
    except (OSError, ValueError):
        return {}
    if figures.pop("code", None) != _code(backend):
        shutil.rmtree(directory, ignore_errors=True)
        return {}
    return dict(figures)


def _child(step: str, size: int, backend: str, directory: Path, args: argparse.Namespace) -> dict[str, float]:
    """One step (``child_build`` / ``child_query``) in a new process: its memory and caches are its own."""
    out = subprocess.run(
        [sys.executable, __file__, f"--child-{step}", str(size), backend, str(directory), "--seed", str(args.seed),
         "--queries", str(args.queries)],
        cwd=ROOT, check=True, capture_output=True, text=True,
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


COLD_COMMANDS = (
    ("python -c pass", [sys.executable, "-c", "pass"]),
    ("kb search (text)", ["search", "может ли мироходец атаковать"]),
    ("kb search --json", ["search", "Murderous Redcap", "--json"]),
    ("kb show (ruling)", ["show", "shm/persist/3"]),
    ("kb show --json", ["show", "lrw/planeswalker/note-6", "--json"]),
)
COLD_TARGET = 0.3  # seconds, issue 13


def cold(args: argparse.Namespace) -> int:
    import compileall

    kb = Path(sys.executable).with_name("kb")
    if not (ROOT / "build" / "kb.sqlite").exists() or not kb.exists():
        print("error: run `bash scripts/main.sh` first (needs build/kb.sqlite and the installed kb)", file=sys.stderr)
        return 2
    for package in ("kb", "ingest", "rules_engine"):
        compileall.compile_dir(str(ROOT / package), quiet=1)
    for _, argv in COLD_COMMANDS[1:]:  # warm the OS cache and bring the index and verdicts up to date
        subprocess.run([str(kb), *argv], cwd=ROOT, check=True, capture_output=True)
    import resource

    def cpu() -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    times: dict[str, list[float]] = {label: [] for label, _ in COLD_COMMANDS}
    cpus: dict[str, list[float]] = {label: [] for label, _ in COLD_COMMANDS}
    for _ in range(args.runs):
        for label, argv in COLD_COMMANDS:
            command = argv if label.startswith("python") else [str(kb), *argv]
            started, cpu_started = time.perf_counter(), cpu()
            subprocess.run(command, cwd=ROOT, check=True, capture_output=True)
            times[label].append(time.perf_counter() - started)
            cpus[label].append(cpu() - cpu_started)
    base = statistics.median(times[COLD_COMMANDS[0][0]])
    cpu_base = statistics.median(cpus[COLD_COMMANDS[0][0]])
    print(f"cold start, {args.runs} runs each, interleaved (seconds; CPU: the process's user + system time,")
    print("which other work on a busy machine does not inflate as much as the wall clock)")
    print(f"{'':<20}{'median':>8}{'min':>8}{'max':>8}{'− python':>10}{'CPU':>8}{'− python':>10}")
    worst = 0.0
    for label, values in times.items():
        median, cpu_median = statistics.median(values), statistics.median(cpus[label])
        if not label.startswith("python"):
            worst = max(worst, median)
        print(f"{label:<20}{median:>8.3f}{min(values):>8.3f}{max(values):>8.3f}{median - base:>10.3f}"
              f"{cpu_median:>8.3f}{cpu_median - cpu_base:>10.3f}")
    print(f"slowest median {worst:.3f} s: {'under' if worst < COLD_TARGET else 'OVER'} the {COLD_TARGET} s target")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulings", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=300, help="queries per word count")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--skip-synthetic", action="store_true")
    parser.add_argument("--skip-bundled", action="store_true")
    parser.add_argument("--cold-start", type=int, default=5, help="subprocess runs of `kb search` (0: skip)")
    parser.add_argument("--cold", action="store_true", help="only the cold start of kb search / kb show")
    parser.add_argument("--runs", type=int, default=15, help="runs per command with --cold")
    parser.add_argument("--scale", nargs="?", const="1000,10000,100000", help="corpus sizes, comma-separated")
    parser.add_argument("--backends", default="whoosh,tantivy")
    parser.add_argument("--index-dir", type=Path, help="with --scale: keep the built indexes here and reuse them "
                        "(the build figures are those of the run that built them; an index of another format is "
                        "built again; empty it after `kb ingest`)")
    parser.add_argument("--rounds", type=int, default=1, help="with --scale: query rounds per index, each in a new "
                        "process; the figures are their medians (a busy machine's noise, not a warmer cache)")
    for step in ("build", "query"):
        parser.add_argument(f"--child-{step}", nargs=3, metavar=("SIZE", "BACKEND", "DIR"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_build or args.child_query:
        size, backend, directory = args.child_build or args.child_query
        if args.child_build:
            result = child_build(int(size), backend, Path(directory), args.seed)
        else:
            result = child_query(int(size), backend, Path(directory), args.seed, args.queries)
        print(json.dumps(result))
        return 0
    if args.scale:
        return scale(args)
    if args.cold:
        return cold(args)
    if not args.skip_synthetic:
        try:
            import tantivy  # noqa: F401  (the reference point of the synthetic benchmark)
        except ImportError:
            print("error: tantivy is not installed; run: .venv/bin/pip install -e '.[bench]'", file=sys.stderr)
            return 2
        synthetic(args)
    if not args.skip_bundled:
        bundled(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
