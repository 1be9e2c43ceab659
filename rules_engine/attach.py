"""Attaching an Aura or Equipment (rule 701.3), and whether it can be attached (301.5c, 303.4, 702.16c-d).

Attaching moves the Aura or Equipment onto the object and gives it a new timestamp (701.3c); to an object it can't be
attached to it doesn't move, to the object it is already attached to nothing happens (701.3b), and an object that is
no Aura, Equipment or Fortification doesn't move at all. Control of the equipped creature matters only as the equip
ability is activated and as it resolves (301.5b): the target is "a creature you control" at both times.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine import log as narr
from rules_engine import protection
from rules_engine.equipment import ATTACHABLE
from rules_engine.layers import matches
from rules_engine.objects import GameObject

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game


def can_attach(game: Game, obj: GameObject, host: GameObject) -> str | None:
    """Why ``obj`` can't be attached to ``host`` (rules 301.5c, 303.4, 702.16c, 702.16d), or None if it can."""
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
    if "Aura" in chars.subtypes and not could_enchant(game, obj, host):
        return "Аура не может зачаровывать этот объект (правило 303.4d)"
    return None


def could_enchant(game: Game, aura: GameObject, host: GameObject) -> bool:
    """Rules 303.4a, 303.4d: what the Aura's enchant keyword allows (a creature, or a filter) — an effect can't attach
    it to anything else (it stays where it is, 701.3b), and where it is, the state-based action checks the same."""
    spec = next((a.spec for a in aura.definition.abilities if a.name == "aura"), None)
    if spec is None:
        return True
    enchant = spec["enchant"]
    kind = enchant if isinstance(enchant, str) else enchant.get("kind")
    chars = game.chars(host)
    if kind == "creature" and not chars.is_("Creature"):
        return False
    filt = enchant.get("filter") if isinstance(enchant, dict) else None
    return matches(game, host, chars, filt, game.controller(aura), aura)


def attach(game: Game, obj: GameObject, host: GameObject) -> bool:
    """Rule 701.3: attach ``obj`` to ``host`` if it can be; returns whether it moved."""
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
