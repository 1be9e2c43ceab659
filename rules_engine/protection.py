"""Protection (rule 702.16): what has the stated quality can't Damage, Enchant or Equip, Block or Target it.

A permanent's ``protection`` keyword holds a list of qualities, one per instance (rule 702.16g): a mapping of
colours, card types and subtypes (each listed value is a protection of its own), a mana value at least N,
``multicolored`` (two or more colours, 105.4), or
``everything`` (702.16j).
The rules that consult it: targeting (702.16b, ``targets``), Auras and Equipment (702.16c-d, ``sba``), damage
(702.16e, ``replacement``) and blocking (702.16f, ``combat``). How a proof names a quality is narration
(``log.protection_text``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_engine.layers import has_subtype
from rules_engine.objects import Characteristics, GameObject, Snapshot

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game


def qualities(chars: Characteristics) -> list[Any]:
    value = chars.keywords.get("protection")
    return list(value) if isinstance(value, list) else []


def has_quality(source: Characteristics, quality: Any) -> bool:
    """Rule 702.16a: a colour, or a card type / subtype of the source (on the battlefield or not)."""
    if quality == "everything" or (isinstance(quality, dict) and quality.get("everything")):
        return True  # rule 702.16j: protection from each object regardless of its characteristics
    if not isinstance(quality, dict):
        return False
    if set(quality.get("colors", ())) & source.colors:
        return True
    if quality.get("multicolored") and len(source.colors) > 1:  # rules 105.4, 702.16a: "from multicolored"
        return True
    if set(quality.get("types", ())) & source.types:
        return True
    # "protection from mana value 3 or greater": a spell on the stack counts its X (202.3e), a face-down one is 0
    if "mana_value_at_least" in quality and source.mana_value >= int(quality["mana_value_at_least"]):
        return True
    return any(has_subtype(source, s) for s in quality.get("subtypes", ()))


def protection_from(game: Game, protected: Characteristics, source: GameObject | Snapshot | None) -> Any | None:
    """The first quality of ``protected``'s protection that ``source`` has (None: not protected from it)."""
    found = qualities(protected)
    if not found or source is None:
        return None
    source_chars = game.source_chars(source)[0]
    return next((q for q in found if has_quality(source_chars, q)), None)
