#!/usr/bin/env python
"""Benchmark of `kb export site`: export time, peak memory, site size, the largest page and the
search-index size, for the bundled knowledge base and for larger corpora, with how each cost grows.

Usage: .venv/bin/python scripts/bench_export.py [--entries 1000 10000] [--corpus real|synthetic]
       [--skip-bundled] [--keep DIR]
       .venv/bin/python scripts/bench_export.py --phases BUILD_DIR [--keep DIR]

``--phases BUILD_DIR`` exports the database of ``BUILD_DIR`` (``bench_store.py --keep DIR`` leaves one in
``DIR/n100000``) and prints each step of ``kb export site`` apart (load, verification, page models, pages,
search index, JSON dump, publication) with its wall-clock time split the way the kernel accounts it
(``/proc/self/schedstat``): CPU time, time waiting for a core (the machine's load) and the rest, time blocked
(disk, locks, children). On a shared machine this says whether a gap between wall and CPU time is the load or
the export waiting on something.

Each size runs in a fresh child process, so its peak resident memory (``ru_maxrss``) is its own: the
figure printed is the peak during the whole child and, apart, the part the export added on top of the
loaded knowledge base and verdicts (``+export``).

Corpora: ``real`` (the default) copies the bundled documents' real entries (documents, sections, cards,
rule excerpts, rulings, notes, with their verification verdicts) under new document IDs until the size
is reached, so every kind of page and proof appears in its real proportion; ``synthetic`` is the search
benchmark's generator (``scripts/bench_search.py``: rulings assembled from the seeds' sentences, 5
documents, a section per 40 rulings, no verdicts).
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from ingest.entries import Card, Document, Entry, Ruling, Section, SourceSpan  # noqa: E402
from kb import build as kb_build  # noqa: E402
from kb import paths, store  # noqa: E402
from kb.export import proofs, site  # noqa: E402
from kb.store import KnowledgeBase  # noqa: E402

_ID_FIELDS = ("id", "document_id", "section_id", "aligned")
_ID_TUPLES = ("card_ids", "same_as")


def _renamed(entry: Entry, doc_id: str, copy_id: str) -> Entry:
    """The entry with every ID of its document moved from ``doc_id`` to ``copy_id``."""

    def move(value: str) -> str:
        return copy_id + value[len(doc_id):] if value == doc_id or value.startswith(doc_id + "/") else value

    changes: dict[str, Any] = {}
    names = {f.name for f in dataclasses.fields(entry)}
    for name in _ID_FIELDS:
        if name in names and isinstance(getattr(entry, name), str):
            changes[name] = move(getattr(entry, name))
    for name in _ID_TUPLES:
        if name in names:
            changes[name] = tuple(move(v) for v in getattr(entry, name))
    suffix = copy_id[len(doc_id):]
    if isinstance(entry, Document):
        changes["set_code"] = f"{entry.set_code}{suffix}"
    if suffix and isinstance(entry, Card):  # another set's cards: a corpus of distinct sets, not 24 reprints
        changes["name"] = entry.name + suffix
        changes["name_en"] = entry.name_en + suffix if entry.name_en else None
    if suffix and isinstance(entry, Ruling):
        changes["cards"] = tuple(name + suffix for name in entry.cards)
    return dataclasses.replace(entry, **changes)


def replicated_kb(base: KnowledgeBase, base_proofs: proofs.Proofs, n: int) -> tuple[KnowledgeBase, proofs.Proofs]:
    """Whole copies of the bundled documents' real entries (and verdicts) until there are ``n`` entries."""
    copies = max(1, -(-n // len(base.entries)))
    entries: list[Entry] = []
    summaries: dict[str, dict[str, int]] = {}
    verdicts = {}
    for copy in range(copies):
        for doc in base.documents:
            copy_id = doc.id if copy == 0 else f"{doc.id}-{copy + 1}"
            for entry in base.in_document(doc.id):
                moved = _renamed(entry, doc.id, copy_id)
                entries.append(moved)
                if entry.id in base_proofs.verdicts:
                    verdicts[moved.id] = base_proofs.verdicts[entry.id]
            summaries[copy_id] = dict(base.summaries.get(doc.id, {}))
    kb = KnowledgeBase(entries=entries, summaries=summaries)
    return kb, proofs.Proofs(verdicts, base_proofs.source, [])


def synthetic_kb(n: int, seed: int = 7) -> KnowledgeBase:
    """The search benchmark's synthetic rulings as a knowledge base (documents, sections, rulings)."""
    from bench_search import synthetic_corpus  # the search engineer's generator

    documents: dict[str, Document] = {}
    sections: dict[str, Section] = {}
    rulings: list[Ruling] = []
    for line, doc in enumerate(synthetic_corpus(n, random.Random(seed)), start=1):
        path = f"synthetic/{doc.document}.txt"
        if doc.document not in documents:
            code = doc.document.upper()
            documents[doc.document] = Document(
                doc.document, doc.document, SourceSpan(path, 1, n), f"Синтетический документ {code}", code,
                f"Выпуск {code}", f"Set {code}", "FAQ", None, ("ru",), "0" * 64, "utf-8", "",
            )
        ru, _, en = doc.topic.partition("\n")
        if doc.section not in sections:
            number = len([s for s in sections.values() if s.document_id == doc.document])
            sections[doc.section] = Section(
                doc.section, doc.document, SourceSpan(path, line, line), f"Механика: {ru}", "keyword ability",
                ru, en or None, "ru", number,
            )
        kind = "note" if doc.kind == "note" else "ruling"
        span = SourceSpan(path, line + 1, line + 1)
        rulings.append(Ruling(doc.id, doc.document, span, doc.section, kind, doc.text, "ru"))
    entries: list[Entry] = []
    summaries = {}
    for doc_id, document in documents.items():
        own_sections = [s for s in sections.values() if s.document_id == doc_id]
        own_rulings = [r for r in rulings if r.document_id == doc_id]
        entries += [document, *own_sections, *own_rulings]
        summaries[doc_id] = {
            "sections": len(own_sections), "cards": 0, "rules": 0, "warnings": 0,
            "rulings": sum(r.kind == "ruling" for r in own_rulings),
            "notes": sum(r.kind == "note" for r in own_rulings),
        }
    return KnowledgeBase(entries=entries, summaries=summaries)


def _mib(n: float) -> str:
    return f"{n / 1024 / 1024:.2f} MiB"


def _rss_now() -> int:
    """Resident memory of this process now, in bytes (Linux ``/proc/self/statm``)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * resource.getpagesize()


def _peak_rss() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux


def _base() -> tuple[KnowledgeBase, proofs.Proofs]:
    """The bundled documents as ingested now, and their verdicts."""
    kb = kb_build.build(kb_build.parse_sources(kb_build.bundled_sources()))
    return kb, proofs.collect(kb)


LISTINGS = ("index.html", "cards.html", "rules.html", "changes.html", "search.html")


def measure(label: str, kb: KnowledgeBase, proof_set: proofs.Proofs, out: Path) -> dict[str, Any]:
    """One export, measured: what the parent prints. Runs in the child."""
    rss_before = _rss_now()
    started, cpu_started = time.perf_counter(), time.process_time()
    result = site.export_site(kb, out, proof_set)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    html = [p for p in out.rglob("*.html")]
    largest = max(html, key=lambda p: p.stat().st_size)
    return {
        "label": label, "entries": len(kb.entries), "rulings": len(kb.rulings), "seconds": seconds,
        "cpu_seconds": cpu, "load_average": os.getloadavg()[0],
        "peak_rss": _peak_rss(), "rss_before": rss_before, "bytes": result.bytes, "files": result.files,
        "pages": result.pages, "index_bytes": result.index_bytes, "index_gzip_bytes": result.index_gzip_bytes,
        "largest_page": str(largest.relative_to(out)), "largest_page_bytes": largest.stat().st_size,
        "home_bytes": (out / "index.html").stat().st_size,
        "listings": {name: (out / name).stat().st_size for name in LISTINGS},
    }


def child(args: argparse.Namespace) -> None:
    out = Path(args.out)
    if args.child == 0:
        kb = store.load(paths.kb_path())
        proof_set = proofs.collect(kb)
        row = measure("bundled (kb.json)", kb, proof_set, out)
    elif args.corpus == "synthetic":
        row = measure(f"synthetic {args.child}", synthetic_kb(args.child), proofs.Proofs({}, "none", []), out)
    else:
        kb, proof_set = replicated_kb(*_base(), args.child)
        row = measure(f"real x{len(kb.documents) // 5} ({args.child})", kb, proof_set, out)
    print(json.dumps(row))


def run_child(size: int, corpus: str, out: Path) -> dict[str, Any]:
    command = [sys.executable, __file__, "--child", str(size), "--corpus", corpus, "--out", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"child for {size} failed:\n{done.stderr}")
    row: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return row


def print_row(row: dict[str, Any]) -> None:
    print(
        f"{row['label']:<22} {row['entries']:>7} entries {row['rulings']:>7} rulings  "
        f"export {row['seconds']:7.2f} s ({row['cpu_seconds']:.2f} s CPU, load {row['load_average']:.1f})  "
        f"peak RSS {_mib(row['peak_rss']):>11} "
        f"(+export {_mib(row['peak_rss'] - row['rss_before']):>10})  "
        f"site {_mib(row['bytes']):>10} in {row['files']:>6} files  largest page {_mib(row['largest_page_bytes'])} "
        f"({row['largest_page']})  index {_mib(row['index_bytes'])} ({_mib(row['index_gzip_bytes'])} gzip)",
        flush=True,
    )
    listings = ", ".join(f"{name} {size / 1024:.0f} KiB" for name, size in row["listings"].items())
    print(f"{'':<22} listing pages: {listings}", flush=True)


def print_growth(rows: list[dict[str, Any]]) -> None:
    """Each cost's ratio between consecutive sizes, against the ratio of entries (1.0 per x = linear)."""
    for small, large in itertools.pairwise(rows):
        scale = large["entries"] / small["entries"]
        parts = []
        for key, name in (("seconds", "time"), ("cpu_seconds", "CPU time"), ("bytes", "site bytes"), ("files", "files"),
                          ("largest_page_bytes", "largest page"), ("index_bytes", "index")):
            parts.append(f"{name} x{large[key] / small[key]:.1f}")
        for page in LISTINGS:
            parts.append(f"{page} x{large['listings'][page] / small['listings'][page]:.1f}")
        extra_small = max(small["peak_rss"] - small["rss_before"], 1)
        parts.append(f"peak RSS x{large['peak_rss'] / small['peak_rss']:.1f}")
        parts.append(f"+export RSS x{(large['peak_rss'] - large['rss_before']) / extra_small:.1f}")
        print(f"growth {small['entries']} -> {large['entries']} entries (x{scale:.1f}): " + ", ".join(parts))


def _clock() -> tuple[float, float, float]:
    """(wall, CPU, run-queue wait) seconds of this process so far (Linux ``/proc/self/schedstat``)."""
    cpu, wait, _slices = Path("/proc/self/schedstat").read_text().split()
    return time.perf_counter(), int(cpu) / 1e9, int(wait) / 1e9


def phases(build: Path, out: Path) -> None:
    """``kb export site`` on the database in ``build``, step by step (the steps of ``site.export_site``)."""
    from kb.export import dump, pages, publish, search_index

    os.environ["KB_BUILD_DIR"] = str(build)
    totals = [0.0, 0.0, 0.0]
    last = _clock()

    def step(name: str) -> None:
        nonlocal last
        now = _clock()
        wall, cpu, queued = (now[i] - last[i] for i in range(3))
        for i, value in enumerate((wall, cpu, queued)):
            totals[i] += value
        print(f"{name:<12} wall {wall:7.1f} s  CPU {cpu:7.1f} s  waiting for a core {queued:6.1f} s  "
              f"blocked {wall - cpu - queued:5.1f} s  peak RSS {_mib(_peak_rss()):>11}  load {os.getloadavg()[0]:.1f}",
              flush=True)
        last = _clock()

    kb = store.load(paths.kb_path())
    step("load")
    proof_set = proofs.collect(kb)
    step("verification")
    model = pages.gather(kb, proof_set)
    step("page models")
    site.check_target(out)
    with publish.publish(out) as staging:
        (staging / site.MARKER).write_text(site.MARKER_TEXT)
        writer, env = site._Writer(staging), site.environment()
        for page in model.pages():
            writer.write(page.path, site.render_page(page, env))
        step(f"{writer.done.pages} pages")
        for path, text in search_index.site_index(kb, model):
            writer.write(f"{site.INDEX_DIR}/{path}", [text])
        step("search index")
        writer.write("data/entries.json", dump.render_pieces(kb, model))
        step("JSON dump")
    step("publication")
    wall, cpu, queued = totals
    print(f"{'total':<12} wall {wall:7.1f} s  CPU {cpu:7.1f} s  waiting for a core {queued:6.1f} s  "
          f"blocked {wall - cpu - queued:5.1f} s; {writer.done.files} files, {_mib(writer.done.bytes)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[1])
    parser.add_argument("--entries", type=int, nargs="*", default=[1_000, 10_000], help="corpus sizes (entries)")
    parser.add_argument("--corpus", choices=("real", "synthetic"), default="real")
    parser.add_argument("--skip-bundled", action="store_true")
    parser.add_argument("--keep", type=Path, help="export into this directory instead of a temporary one")
    parser.add_argument("--phases", type=Path, metavar="BUILD_DIR", help="time each step of one export")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        child(args)
        return
    if args.phases is not None:
        target = args.keep or Path(tempfile.mkdtemp(prefix="bench-export-")) / "site"
        try:
            phases(args.phases, target)
        finally:
            if args.keep is None:
                shutil.rmtree(target.parent, ignore_errors=True)
        return
    work = args.keep or Path(tempfile.mkdtemp(prefix="bench-export-"))
    try:
        if not args.skip_bundled and paths.kb_path().exists():
            print_row(run_child(0, args.corpus, work / "bundled"))
        rows = []
        for n in args.entries:
            rows.append(run_child(n, args.corpus, work / f"{args.corpus}-{n}"))
            print_row(rows[-1])
        print_growth(rows)
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
