"""Benchmark: scenarios per second for the whole scenario suite (what `kb verify --all` runs).

Usage: .venv/bin/python scripts/bench_verify.py [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kb import paths
from kb.verify import benchmark


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = benchmark(paths.data_dir(), args.repeat)
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"{figures['scenarios']} scenarios ({figures['passed']} pass), loaded in {figures['load_seconds']} s, "
              f"run in {figures['run_seconds']} s: {figures['scenarios_per_second']} scenarios/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
