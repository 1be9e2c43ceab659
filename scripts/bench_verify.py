"""Benchmark: scenarios per second for the whole scenario suite (what `kb verify --all` runs).

Usage: .venv/bin/python scripts/bench_verify.py [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kb import paths, store
from kb.verify import benchmark


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    kb = store.load(paths.kb_path()) if paths.kb_path().exists() else None  # eras need the documents' dates
    figures = benchmark(paths.data_dir(), args.repeat, kb)
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"{figures['scenarios']} scenarios, {figures['plays']} plays (each linked scenario in its era and "
              f"today; {figures['passed']} pass), loaded in {figures['load_seconds']} s, run in "
              f"{figures['run_seconds']} s: {figures['scenarios_per_second']} plays/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
