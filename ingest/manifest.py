"""The sources manifest: what the text of a document does not always say (set, kind, date)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ingest.errors import IngestError

MANIFEST_NAME = "manifest.yaml"


@dataclass(frozen=True)
class SourceInfo:
    file: str
    id: str
    set_code: str = ""
    set_name_ru: str = ""
    set_name_en: str = ""
    kind: str = ""
    date: str | None = None
    languages: tuple[str, ...] = field(default_factory=tuple)


def load_manifest(directory: Path) -> dict[str, SourceInfo]:
    """File name → what the manifest says of it; an absent manifest is an empty one."""
    path = directory / MANIFEST_NAME
    if not path.exists():
        return {}
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise IngestError(str(path), f"invalid YAML: {exc}", mark.line + 1 if mark else None) from exc
    result: dict[str, SourceInfo] = {}
    for number, item in enumerate(data.get("documents", []), start=1):
        if not isinstance(item, dict) or "file" not in item or "id" not in item:
            raise IngestError(str(path), f"document #{number} needs at least 'file' and 'id'")
        item = dict(item)
        item["languages"] = tuple(item.get("languages") or ())
        item["date"] = str(item["date"]) if item.get("date") else None
        result[item["file"]] = SourceInfo(**item)
    return result
