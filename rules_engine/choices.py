"""Words chosen for an object: a colour, a basic land type, odd or even (rules 614.12, 608.2d, 105.4, 205.3i).

"As this enters, choose a colour" is a replacement effect of the permanent (614.12a: the choice is made before it
enters, ``anchors.as_enters``); "choose a colour" in an effect is made as the effect resolves (608.2d). The abilities
and effects that say "the chosen colour" are written with the word ``chosen``, bound here to the choice: a list
``[chosen]`` becomes the chosen words, a lone ``chosen`` the chosen word. A permanent for which no choice was made (it
became a copy without entering, SHM Lurebound Scarecrow) has no value there: an ability that needs it does nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rules_engine.objects import GameObject, Snapshot

CHOSEN = "chosen"
COLORS = ("W", "U", "B", "R", "G")
BASIC_LAND_TYPES = ("Plains", "Island", "Swamp", "Mountain", "Forest")
# The named option sets of ``choose_as_enters`` and the rule a word outside them breaks.
OPTION_SETS: dict[str, tuple[tuple[str, ...], str]] = {
    "colors": (COLORS, "105.4"),  # "if a player is asked to choose a color, ... one of the five colors"
    "basic_land_types": (BASIC_LAND_TYPES, "205.3i"),  # the five basic land types; Gate is not one
}

def uses_chosen(spec: Any) -> bool:
    if isinstance(spec, str):
        return spec == CHOSEN
    if isinstance(spec, list):
        return any(uses_chosen(v) for v in spec)
    if isinstance(spec, dict):
        return any(uses_chosen(v) for v in spec.values())
    return False


def bind(spec: Any, chosen: tuple[str, ...] | None) -> Any:
    """``spec`` with the word ``chosen`` replaced by the choice; None when it needs a choice that was never made."""
    if chosen is None:
        return None if uses_chosen(spec) else spec
    return bind_to(spec, chosen)


def bind_to(spec: Any, chosen: tuple[str, ...]) -> Any:
    if isinstance(spec, str) and spec == CHOSEN:
        return chosen[0] if len(chosen) == 1 else list(chosen)
    if isinstance(spec, list):
        out: list[Any] = []
        for item in spec:
            if item == CHOSEN:
                out.extend(chosen)
            else:
                out.append(bind_to(item, chosen))
        return out
    if isinstance(spec, dict):
        return {k: bind_to(v, chosen) for k, v in spec.items()}
    return spec


def of_object(obj: GameObject | Snapshot | None) -> tuple[str, ...] | None:
    """What was chosen for a permanent as it entered (614.12), or None."""
    word = getattr(obj, "chosen", None) if obj is not None else None
    return None if word is None else (str(word),)


def options(value: dict[str, Any]) -> tuple[list[str], str]:
    """The words offered by ``choose_as_enters`` (a list, or a named set) and the rule that limits them."""
    offered = value.get("options", [])
    if isinstance(offered, str):
        words, rule = OPTION_SETS[offered]
        return list(words), rule
    return [str(o) for o in offered], str(value.get("rule", "614.12c"))
