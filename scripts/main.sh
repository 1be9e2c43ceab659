#!/usr/bin/env bash
# The main job on the bundled documents: set up, build the knowledge base, its search index, verify every
# linked ruling in the rules engine, and export the static FAQ site.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
kb=.venv/bin/kb
$kb ingest
# The official Comprehensive Rules files are not bundled (see README, Sources); ingest those given, if any.
cr_dir="${KB_CR_DIR:-../shared/comprehensive-rules}"
if compgen -G "$cr_dir/*.txt" >/dev/null; then
  $kb ingest --quiet "$cr_dir"/*.txt
fi
$kb index
echo
$kb verify --all --no-log | tail -n 1
$kb coverage
$kb export site build/site
echo
echo "Try: $kb search \"может ли мироходец атаковать\"   ·   open build/site/index.html"
