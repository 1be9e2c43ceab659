"""Equipment, equip and attaching (rules 301.5, 702.6, 701.3).

``keywords: [{equip: "{2}"}]`` gives the permanent the activated ability of rule 702.6a: "[Cost]: Attach this
permanent to target creature you control. Activate only as a sorcery." ``{equip: {cost: "{1}", filter: {subtypes:
[Knight]}}}`` restricts the target (702.6c, "Equip Knight {1}"), and a list gives several equip abilities (702.6d).
The ability is derived once the keywords are final (layer 6), so an Equipment that loses its abilities can't equip.
What the Equipment does to the equipped creature is a static ability with ``affects: {attached: true}``.

Attaching (701.3) moves the Aura or Equipment onto the object and gives it a new timestamp (701.3c); to an object it
can't be attached to it doesn't move, to the object it is already attached to nothing happens (701.3b), and an object
that is no Aura, Equipment or Fortification doesn't move at all. Control of the equipped creature matters only as
the equip ability is activated and as it resolves (301.5b): the target is "a creature you control" at both times.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING, Any

from rules_engine.objects import AbilityDef, Characteristics, GameObject

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game

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


def can_attach(game: Game, obj: GameObject, host: GameObject) -> str | None:
    """Why ``obj`` can't be attached to ``host`` (rules 301.5c, 303.4, 702.16c, 702.16d), or None if it can."""
    from rules_engine import protection  # it reads layers, which derive the equip abilities from this module

    chars = game.chars(obj)
    if host.zone != "battlefield" or host.oid == obj.oid:
        return "к себе или к объекту вне поля битвы не прикрепить (правило 301.5c)"
    if "Equipment" in chars.subtypes:
        if chars.is_("Creature"):
            return "Снаряжение, являющееся существом, не может ничего снаряжать (правило 301.5c)"
        if not game.chars(host).is_("Creature"):
            return "Снаряжение может снаряжать только существо (правило 301.5c)"
    if protection.protection_from(game, game.chars(host), obj) is not None:
        return "у перманента Защита от этого объекта (правило 702.16d)"
    return None


def attach(game: Game, obj: GameObject, host: GameObject) -> bool:
    """Rule 701.3: attach ``obj`` to ``host`` if it can be; returns whether it moved."""
    from rules_engine import log as narr

    chars = game.chars(obj)
    if not any(sub in chars.subtypes for sub in ATTACHABLE):
        game.log(f"{narr.obj(game, obj)} — не Аура и не Снаряжение: он не перемещается (правило 701.3b)")
        return False
    if obj.attached_to == host.oid:
        game.log(f"{narr.obj(game, obj)} уже прикреплен к {narr.obj(game, host)}: ничего не происходит (701.3b)")
        return False
    why = can_attach(game, obj, host)
    if why is not None:
        game.log(f"{narr.obj(game, obj)} не перемещается: {why}")
        return False
    obj.attached_to = host.oid
    obj.timestamp = game.new_timestamp()  # rule 701.3c
    game.touch()
    game.log(f"{narr.obj(game, obj)} прикрепляется к {narr.obj(game, host)}")
    return True
