#!/usr/bin/env bash
# Set up and run the whole test suite, with lint and type checks. Fails when no test ran.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check .
.venv/bin/mypy
status=0
.venv/bin/pytest "$@" || status=$?
if [ "$status" = 5 ]; then
  echo "error: pytest collected no tests" >&2
  exit 1
fi
exit "$status"
