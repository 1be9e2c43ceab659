"""Verdicts kept beside the knowledge base, so search can mark and filter rulings without replaying them.

``build/verdicts.json`` holds each entry's verification status and currency (current / obsolete / terms /
unjudged) with the key of what they were computed from: the knowledge base's fingerprint and the size and
modification time of every file under ``data/`` verification reads (cards, scenarios, timeline, not
simulable). A stale or missing file is recomputed by playing the scenarios once, and written atomically.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from kb import paths
from kb.atomic import write_text_atomic

FORMAT = "mtg-rulings-verdicts"
INPUTS = ("cards", "scenarios", "rules", "not_simulable.yaml", "not_simulable_official.yaml")


def cache_path() -> Path:
    return paths.build_dir() / "verdicts.json"


def inputs_key(kb_fingerprint: str, data_dir: Path) -> str:
    """Cheap to compute on every search: names, sizes and mtimes, not contents."""
    digest = hashlib.sha256(kb_fingerprint.encode())
    for name in INPUTS:
        root = data_dir / name
        files = sorted(root.rglob("*")) if root.is_dir() else [root]
        for path in files:
            if path.is_file():
                stat = path.stat()
                digest.update(f"{path.relative_to(data_dir)}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def load(key: str) -> dict[str, dict[str, str]] | None:
    try:
        data = json.loads(cache_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("key") != key:
        return None
    verdicts = data.get("verdicts")
    return verdicts if isinstance(verdicts, dict) else None


def details_path() -> Path:
    return paths.build_dir() / "verdict-details.json"


def details(kb_fingerprint: str, entry_id: str, data_dir: Path | None = None) -> dict[str, Any] | None:
    """One entry's full verdict (``Verdict.to_dict()``: scenarios and their results, no game logs) from the
    cache written with the verdicts, or ``None`` when it is stale or missing (``kb show`` then plays it)."""
    key = inputs_key(kb_fingerprint, data_dir or paths.data_dir())
    try:
        data = json.loads(details_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("key") != key:
        return None
    found = (data.get("details") or {}).get(entry_id)
    return found if isinstance(found, dict) else None


def compute(kb: Any, data_dir: Path, full: dict[str, Any] | None = None) -> dict[str, dict[str, str]]:
    """Every ruling, note and rule excerpt: its status and currency (the engine plays the scenarios once);
    ``full`` receives each one's whole verdict (what ``kb show`` prints)."""
    from kb import verify

    known = verify.catalog(kb)
    db = verify.card_db(data_dir)
    scenarios = verify.collect_scenarios(data_dir, db, known)
    not_simulable = verify.load_not_simulable(data_dir, known)
    ids = [r.id for r in kb.rulings] + [r.id for r in kb.rules]
    found = verify.verdicts(ids, scenarios, db, not_simulable, context=verify.era_context(kb, data_dir))
    out: dict[str, dict[str, str]] = {}
    for entry_id, verdict in found.items():
        if full is not None:
            full[entry_id] = verdict.to_dict()
        row = {"status": verdict.status}
        if verdict.currency is not None:
            row["currency"] = verdict.currency.status
            row["currency_label"] = verdict.currency.label_ru
        out[entry_id] = row
    return out


def ensure(kb: Any, data_dir: Path | None = None) -> dict[str, dict[str, str]]:
    """The verdicts for this knowledge base and data, from the cache when it is fresh."""
    data_dir = data_dir or paths.data_dir()
    key = inputs_key(kb.fingerprint, data_dir)
    cached = load(key)
    if cached is not None:
        return cached
    full: dict[str, Any] = {}
    verdicts = compute(kb, data_dir, full)
    payload = {"format": FORMAT, "key": key, "verdicts": verdicts}
    cache_path().parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(details_path(), json.dumps({"format": FORMAT, "key": key, "details": full}, ensure_ascii=False))
    write_text_atomic(cache_path(), json.dumps(payload, ensure_ascii=False, sort_keys=True))
    return verdicts
