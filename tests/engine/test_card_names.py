"""Card definitions use the official Russian names, so logs and proofs match the documents."""

from __future__ import annotations

import csv
from pathlib import Path

import yaml

DATA = Path(__file__).resolve().parents[2] / "data"


def official_names() -> dict[str, str]:
    names: dict[str, str] = {}
    for name in ("card-names-en-ru.csv", "extra-cards.csv"):
        with (DATA / "glossary" / name).open(encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle):
                names.setdefault(row["name_en"], row["name_ru"])
    return names


def test_card_definitions_use_official_russian_names() -> None:
    official = official_names()
    checked, wrong = 0, []
    for path in sorted((DATA / "cards").glob("*.yaml")):
        for name, spec in (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).items():
            if isinstance(spec, dict) and name in official:
                checked += 1
                if spec.get("name_ru") != official[name]:
                    wrong.append(f"{path.name}: {name}: {spec.get('name_ru')!r} != {official[name]!r}")
    assert checked >= 30
    assert not wrong, "\n".join(wrong)
