#!/usr/bin/env bash
# Create .venv and install the project with its development tools. Idempotent; needs python3 >= 3.11.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "error: Python >= 3.11 is required ($("$PYTHON" --version 2>&1))" >&2
  exit 1
fi
if [ ! -x .venv/bin/python ]; then
  if ! "$PYTHON" -m venv .venv 2>/dev/null; then
    # Debian's python3 ships venv separately.
    if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
      apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
      rm -rf .venv && "$PYTHON" -m venv .venv
    else
      echo "error: '$PYTHON -m venv' failed; install python3-venv" >&2
      exit 1
    fi
  fi
fi
# KB_EXTRAS: the optional extras to install besides dev, e.g. KB_EXTRAS=oracle (the phase.rs second opinion; CI).
extras="dev${KB_EXTRAS:+,$KB_EXTRAS}"
stamp=.venv/.installed-$( (cat pyproject.toml; echo "$extras") | sha256sum | cut -c1-16)
if [ ! -f "$stamp" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e ".[$extras]"
  rm -f .venv/.installed-* && touch "$stamp"
fi
