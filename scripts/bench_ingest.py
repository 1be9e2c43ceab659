#!/usr/bin/env python
"""Benchmark of ingesting the real input data of ``../shared/``: one Comprehensive Rules text parsed, one CR
version ingested into the knowledge base, the five MTGJSON set files ingested, each beside the bundled
documents' ``kb ingest`` measured in the same run (the ratio says what the real files cost against it).

Usage: .venv/bin/python scripts/bench_ingest.py [--repeat 3]

Each ``kb`` command runs in a fresh process in a temporary build directory (what a user waits for: wall and
CPU time of the child). The figures were tests' time limits once; timed tests fail on a loaded machine, so
they are printed here instead. Skips what ``../shared/`` does not hold.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
SETS = [SHARED / "mtgjson" / f"{code}.json" for code in ("LRW", "SHM", "GTC", "FRF", "DTK")]
CR_TODAY = SHARED / "comprehensive-rules" / "cr-20260116.txt"


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(args: list[str], build: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one child process (``kb`` or python)."""
    env = {**os.environ, "KB_BUILD_DIR": str(build)}
    cpu, wall = _child_cpu(), time.perf_counter()
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
    wall, cpu = time.perf_counter() - wall, _child_cpu() - cpu
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)}: exit {done.returncode}: {done.stderr.strip()[-300:]}")
    return wall, cpu


def best(step: str, make: list[list[str]], measured: list[str], repeat: int) -> tuple[float, float]:
    """Best of ``repeat`` runs of ``measured``, each in a fresh build prepared by the ``make`` commands."""
    figures = []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory(prefix="bench-ingest-") as tmp:
            for command in make:
                run(command, Path(tmp))
            figures.append(run(measured, Path(tmp)))
    wall, cpu = min(figures, key=lambda f: f[1])
    print(f"{step:<44} {wall:7.2f} s wall {cpu:7.2f} s CPU", flush=True)
    return wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    kb = str(Path(sys.executable).with_name("kb"))
    bundled = [kb, "ingest", "--quiet"]
    print(f"best of {args.repeat}, load average {os.getloadavg()[0]:.1f}")
    _, base = best("kb ingest (bundled documents): baseline", [], bundled, args.repeat)
    if CR_TODAY.exists():
        parse = [sys.executable, "-c", "import sys; from ingest.comprehensive_rules import "
                 "parse_comprehensive_rules as p; p(open(sys.argv[1], 'rb').read(), sys.argv[1])", str(CR_TODAY)]
        _, cpu = best(f"parse {CR_TODAY.name} (python process)", [], parse, args.repeat)
        print(f"{'':<44} ratio to baseline {cpu / base:5.2f}")
        _, cpu = best(f"kb ingest {CR_TODAY.name}", [bundled], [kb, "ingest", "--quiet", str(CR_TODAY)], args.repeat)
        print(f"{'':<44} ratio to baseline {cpu / base:5.2f}")
    else:
        print(f"skipped: {CR_TODAY} is not here")
    if all(path.exists() for path in SETS):
        _, cpu = best("kb ingest the five MTGJSON sets", [bundled], [kb, "ingest", "--quiet", *map(str, SETS)],
                      args.repeat)
        print(f"{'':<44} ratio to baseline {cpu / base:5.2f}")
    else:
        print("skipped: the MTGJSON set files are not in ../shared/mtgjson/")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
