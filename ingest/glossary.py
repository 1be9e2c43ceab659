"""The RU↔EN data ingest needs: mechanic names (for section IDs and kinds) and card names.

Read from ``data/glossary/``: ``mechanics.csv`` (ru, en, slug, kind), ``card-names-en-ru.csv`` (every
card of the five sets, from MTGJSON) and ``extra-cards.csv`` (older cards the rulings name).
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from pathlib import Path

from ingest.names import fold_name

_TRANSLIT = dict(
    zip(
        "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
        [
            "a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p", "r", "s",
            "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya",
        ],
        strict=True,
    )
)


def slugify(text: str, max_words: int = 6) -> str:
    """ASCII slug for IDs: English kept, Russian transliterated: «Цикл: Монументы» → ``tsikl-monumenty``."""
    text = "".join(_TRANSLIT.get(ch, ch) for ch in text.lower())
    words = re.findall(r"[a-z0-9]+", text)
    return "-".join(words[:max_words]) or "section"


@dataclass(frozen=True)
class Mechanic:
    ru: str
    en: str
    slug: str
    kind: str


@dataclass
class Glossary:
    mechanics: dict[str, Mechanic] = field(default_factory=dict)  # folded ru or en name → mechanic
    card_en_by_ru: dict[str, str] = field(default_factory=dict)  # folded Russian name → English name
    card_ru_by_en: dict[str, str] = field(default_factory=dict)  # folded English name → Russian name
    card_en_by_en: dict[str, str] = field(default_factory=dict)  # folded English name → as printed
    basic_lands: set[str] = field(default_factory=set)  # folded names, never treated as mentions

    def mechanic(self, name: str) -> Mechanic | None:
        return self.mechanics.get(fold_name(name))

    def english_card_name(self, name: str) -> str | None:
        folded = fold_name(name)
        return self.card_en_by_en.get(folded) or self.card_en_by_ru.get(folded)

    def card_pairs(self) -> list[tuple[str, str]]:
        """(english, russian) for every known card, in a stable order."""
        return sorted({(en, self.card_ru_by_en[fold_name(en)]) for en in self.card_en_by_ru.values()})


def load_glossary(directory: Path) -> Glossary:
    glossary = Glossary()
    mechanics_file = directory / "mechanics.csv"
    if mechanics_file.exists():
        with mechanics_file.open(encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle):
                mechanic = Mechanic(row["ru"], row["en"], row["slug"], row["kind"])
                glossary.mechanics.setdefault(fold_name(row["ru"]), mechanic)
                glossary.mechanics.setdefault(fold_name(row["en"]), mechanic)
    for name in ("card-names-en-ru.csv", "extra-cards.csv"):
        path = directory / name
        if not path.exists():
            continue
        with path.open(encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle):
                en, ru = row["name_en"].strip(), row["name_ru"].strip()
                if not en or not ru:
                    continue
                glossary.card_en_by_ru.setdefault(fold_name(ru), en)
                glossary.card_ru_by_en.setdefault(fold_name(en), ru)
                glossary.card_en_by_en.setdefault(fold_name(en), en)
                if row.get("type_en", "").startswith("Basic Land"):
                    glossary.basic_lands.update({fold_name(en), fold_name(ru)})
    return glossary
