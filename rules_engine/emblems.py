"""Emblems (rule 114): "[player] gets an emblem with [ability]".

An emblem is put into the command zone, owned and controlled by that player (114.2). It has no characteristics
but the abilities the effect gives it — no types, no mana cost, no colour (114.3) — and its abilities function in
the command zone (114.4: ``Game.ability_sources``). It is neither a card nor a permanent (114.5): nothing that
affects permanents or cards touches it, and no effect of the vocabulary removes it. It does not depend on the
object that created it: the planeswalker may leave, the emblem stays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_engine import log as narr
from rules_engine.objects import Card, CardDef

if TYPE_CHECKING:
    from rules_engine.interpreter import Context
    from rules_engine.objects import GameObject


def create(ctx: Context, spec: dict[str, Any], player: str) -> GameObject:
    """Put an emblem with the abilities of ``spec`` into ``player``'s command zone."""
    from rules_engine.cards import parse_ability

    game = ctx.game
    source = ctx.source.card.definition
    where = spec.get("_where", source.source)
    abilities = tuple(
        parse_ability(raw, f"emblem#{i + 1}", where) for i, raw in enumerate(spec.get("abilities") or [])
    )
    ref = f"{ctx.source.card.ref} emblem"
    name_ru = f"Эмблема ({source.name_ru})"
    definition = CardDef(
        name=ref, name_ru=name_ru, cost=None, types=frozenset(), abilities=abilities,
        source=where, text_ru=str(spec.get("text_ru", "")), text_en=str(spec.get("text_en", "")),
    )
    card = Card(ref=ref, definition=definition, owner=player)
    obj = game.new_object(card, "command", player)
    game.log(f"{narr.player(player)} получает {narr.obj(game, obj)} в командную зону (правило 114.2)")
    return obj
