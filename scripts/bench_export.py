#!/usr/bin/env python
"""Benchmark of `kb export site`: export time, site size, search-index size and the gzip size of the home
page plus search, for the bundled knowledge base and for a large synthetic corpus.

Usage: .venv/bin/python scripts/bench_export.py [--rulings 20000 100000] [--skip-bundled] [--keep DIR]

The synthetic corpus is the search benchmark's (``scripts/bench_search.py``: rulings assembled from the
seeds' sentences, card names and mechanics), turned into knowledge-base entries: 5 documents, a section
per 40 rulings. Verification is not run for it (every ruling "not linked"); for the bundled data it is.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from ingest.entries import Document, Entry, Ruling, Section, SourceSpan  # noqa: E402
from kb import paths, store  # noqa: E402
from kb.export import proofs, site  # noqa: E402
from kb.store import KnowledgeBase  # noqa: E402


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


def report(label: str, kb: KnowledgeBase, out: Path, proof_set: proofs.Proofs | None) -> None:
    rulings = len(kb.rulings)
    started = time.perf_counter()
    result = site.export_site(kb, out, proof_set)
    seconds = time.perf_counter() - started
    print(
        f"{label:<22} {rulings:>7} rulings  export {seconds:7.2f} s ({rulings / seconds:8.0f} rulings/s)  "
        f"site {_mib(result.bytes):>10} in {result.files} files  "
        f"index {_mib(result.index_bytes):>10} ({_mib(result.index_gzip_bytes)} gzip)  "
        f"home+search {_mib(result.home_search_gzip_bytes)} gzip",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rulings", type=int, nargs="*", default=[20_000], help="synthetic corpus sizes")
    parser.add_argument("--skip-bundled", action="store_true")
    parser.add_argument("--keep", type=Path, help="export into this directory instead of a temporary one")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="bench-export-"))
    try:
        if not args.skip_bundled:
            kb = store.load(paths.kb_path())
            started = time.perf_counter()
            proof_set = proofs.collect(kb)
            print(f"verification for the bundled data: {time.perf_counter() - started:.2f} s ({proof_set.source})")
            report("bundled (5 documents)", kb, work / "bundled", proof_set)
        for n in args.rulings:
            started = time.perf_counter()
            kb = synthetic_kb(n)
            print(f"synthetic corpus of {n} rulings generated in {time.perf_counter() - started:.1f} s", flush=True)
            report(f"synthetic {n}", kb, work / f"synthetic-{n}", proofs.Proofs({}, "none", []))
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
