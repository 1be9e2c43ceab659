#!/usr/bin/env bash
# The main job on the bundled documents: set up, build the knowledge base, show its summary.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/kb ingest
.venv/bin/kb stats
