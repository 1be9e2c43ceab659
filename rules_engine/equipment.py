"""Equipment and the equip keyword (rules 301.5, 702.6).

``keywords: [{equip: "{2}"}]`` gives the permanent the activated ability of rule 702.6a: "[Cost]: Attach this
permanent to target creature you control. Activate only as a sorcery." ``{equip: {cost: "{1}", filter: {subtypes:
[Knight]}}}`` restricts the target (702.6c, "Equip Knight {1}"), and a list gives several equip abilities (702.6d).
The ability is derived once the keywords are final (layer 6), so an Equipment that loses its abilities can't equip.
What the Equipment does to the equipped creature is a static ability with ``affects: {attached: true}``.

This module is what layers need (the keyword and its ability); attaching itself, which reads protection and so the
layers, is ``attach`` one floor up.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from rules_engine.objects import AbilityDef, Characteristics

EQUIP = "equip"
ATTACHABLE = ("Aura", "Equipment", "Fortification")


def _as_pairs(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted((k, _as_pairs(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_as_pairs(v) for v in value)
    return value


def _as_python(value: Any) -> Any:
    if isinstance(value, tuple) and value and all(isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str)
                                                  for p in value):
        return {k: _as_python(v) for k, v in value}
    if isinstance(value, tuple):
        return [_as_python(v) for v in value]
    return value


def instances(value: Any) -> list[tuple[str, dict[str, Any]]]:
    """The equip abilities a keyword value describes: (cost, extra target filter) each."""
    out = []
    for item in value if isinstance(value, list) else [value]:
        if isinstance(item, dict):
            out.append((str(item["cost"]), dict(item.get("filter") or {})))
        else:
            out.append((str(item), {}))
    return out


@cache
def _ability(index: int, cost: str, quality: Any) -> AbilityDef:
    filt = {**_as_python(quality), "controller": "you"} if quality else {"controller": "you"}
    name = EQUIP if index == 0 else f"{EQUIP}-{index + 1}"
    spec = {
        "activated": cost,
        "name": name,
        "name_ru": f"Снарядить {cost}",
        "timing": "sorcery",  # rule 702.6a: activate only as a sorcery
        "targets": [{"kind": "creature", "filter": filt}],  # "target creature you control"
        "effect": {"attach": {"what": "self", "to": "target"}},
    }
    return AbilityDef("activated", name, spec, keyword=EQUIP)


def add_equip_abilities(all_chars: Iterable[Characteristics]) -> None:
    """Each permanent with equip gets its equip abilities (rule 702.6a), once its keywords are final (layer 6)."""
    for chars in all_chars:
        if EQUIP not in chars.keywords:
            continue
        for index, (cost, quality) in enumerate(instances(chars.keywords[EQUIP])):
            ability = _ability(index, cost, _as_pairs(quality))
            if ability not in chars.abilities:
                chars.abilities.append(ability)
