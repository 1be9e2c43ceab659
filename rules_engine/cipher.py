"""Cipher (rule 702.99): as a cipher spell resolves, its card may be exiled encoded on a creature.

The encoded card grants that creature a triggered ability while both stay where they are; the copy it makes
when the creature deals combat damage to a player is an effect (``cast_encoded_copy``). Like ``dash`` and
``rebound``, the keyword's resolution step lives in its own module, called by ``stack`` as the spell resolves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine import log as narr
from rules_engine.game import pick as _pick
from rules_engine.objects import AbilityDef, ContinuousEffect, GameObject

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game


def encode(game: Game, spell: GameObject, controller: str) -> bool:
    """As a cipher spell finishes resolving: you may exile it encoded on a creature you control (a scripted
    ``cipher`` choice: REF or no; not a target). The exiled card grants that creature, while both stay where
    they are, "whenever this creature deals combat damage to a player, you may copy the encoded card and you
    may cast the copy without paying its mana cost"."""
    creatures = [
        o for o in game.battlefield if game.controller(o) == controller and game.chars(o).is_("Creature")
    ]
    if not creatures:
        game.log("Нет существа под вашим контролем: Шифр не кодирует карту")
        return False
    answer = game.decide("cipher", controller, "на каком существе закодировать карту (или no)?", spell)
    if answer in (None, False, "no"):
        return False
    creature = _pick(game, creatures, answer, "закодировать можно только на существе под вашим контролем", "702.99a")
    card = game.move(spell, "exile")
    ability = AbilityDef(
        "triggered",
        "cipher",
        {"triggered": "deals_combat_damage_to_player", "effect": {"cast_encoded_copy": card.oid}},
        keyword="cipher",
    )
    game.effects.append(
        ContinuousEffect(
            layer="6",
            kind="grant_ability",
            data={"ability": ability, "while_in_exile": card.oid},
            timestamp=game.new_timestamp(),
            affected=frozenset({creature.oid}),
            duration="permanent",
            source_oid=card.oid,
            controller=controller,
        )
    )
    game.touch()
    game.log(f"{narr.obj(game, card)} кодируется на {narr.obj(game, creature)} (Шифр)")
    return True


def encoded_on(game: Game, card: GameObject) -> GameObject | None:
    """The creature a card in exile is encoded on, if any (rule 702.97c)."""
    if card.zone != "exile":
        return None
    for e in game.effects:
        if e.kind == "grant_ability" and e.data.get("while_in_exile") == card.oid:
            for oid in e.affected:
                host = game.find(oid)
                if host is not None and host.zone == "battlefield":
                    return host
    return None
