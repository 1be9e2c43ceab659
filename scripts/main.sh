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
# MTGJSON set files (every card of the five sets with its official rulings) are data kept outside the
# repository; ingest them when they are there (README: "Cards and official rulings (MTGJSON)").
mtgjson_dir="${KB_MTGJSON_DIR:-../shared/mtgjson}"
if compgen -G "$mtgjson_dir/*.json" >/dev/null; then
  $kb ingest --quiet "$mtgjson_dir"/*.json
else
  echo "MTGJSON: $mtgjson_dir has no set files; skipping the cards and official rulings (see README)"
fi
# The English originals of the seeds (release notes / FAQs as archived, README: "English originals") are
# kept outside the repository too; ingest them when they are there: they are aligned to the Russian seeds.
english_dir="${KB_ENGLISH_DIR:-../shared/english-originals}"
if compgen -G "$english_dir/*.md" >/dev/null; then
  $kb ingest --quiet "$english_dir"/*.md
else
  echo "English originals: $english_dir has no documents; skipping (see README)"
fi
$kb index
echo
# With the optional extra installed (README: "A second opinion"), the same run replays every scenario in the
# independent phase.rs engine too; its summary line comes just before the verification's.
if .venv/bin/python -c 'import phase' 2>/dev/null; then
  $kb verify --all --no-log --second-opinion | tail -n 3
else
  echo "Второе мнение: движок phase.rs не установлен (pip install -e '.[oracle]'); пропускаю"
  $kb verify --all --no-log | tail -n 1
fi
$kb coverage
$kb export site build/site
echo
echo "Try: $kb search \"может ли мироходец атаковать\"   ·   open build/site/index.html"
