"""Putting cards from a hand onto the battlefield as an effect resolves: Ugin, the Spirit Dragon's "put up to seven
permanent cards from your hand onto the battlefield".

``put_from_hand: {n, filter}``: the effect's controller chooses, as it resolves (608.2d), up to N cards of their hand
that match the filter (a ``choose_card`` decision: a list, ``[]`` for none). "Permanent card" is rule 110.4a's
"artifact, battle, creature, enchantment, land, or planeswalker card": a card that isn't one can't be chosen
(110.4a; an instant or sorcery card could never be put onto the battlefield, 110.4). The cards are put onto the
battlefield face up (708.3: only an effect that says "face down" puts a card so; a morph card is a face-up
creature with its printed characteristics, 702.37), under that player's control, as new objects (400.7); putting
a land this way is not playing it (305.1: no land drop is used).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_engine import log as narr
from rules_engine.effects import amount
from rules_engine.errors import IllegalAction
from rules_engine.game import pick
from rules_engine.interpreter import Context, effect
from rules_engine.layers import matches

if TYPE_CHECKING:
    from rules_engine.objects import GameObject

PERMANENT_TYPES = ("Artifact", "Battle", "Creature", "Enchantment", "Land", "Planeswalker")  # rule 110.4


@effect("put_from_hand")
def _put_from_hand(ctx: Context, v: dict[str, Any]) -> None:
    """Rule 608.2d: the choice is made as the effect resolves; "up to N" allows none."""
    game, who = ctx.game, ctx.controller
    n = amount(ctx, v.get("n", 1))
    chosen = _chosen(ctx, who, n, v.get("filter") or {})
    if not chosen:
        game.log(f"{narr.player(who)} не кладет на поле битвы ни одной карты из руки")
    for card in chosen:
        new = game.move(card, "battlefield", controller=who)
        game.log(f"{narr.player(who)} кладет {narr.obj(game, new)} из руки на поле битвы")
        if new.zone == "battlefield":
            ctx.made.append(new)


def _chosen(ctx: Context, who: str, n: int, filt: dict[str, Any]) -> list[GameObject]:
    game = ctx.game
    answer = game.decide("choose_card", who, f"какие карты (не больше {n}) положить из руки на поле битвы?", ctx.source)
    refs = [] if answer in (None, "none") else answer if isinstance(answer, list) else [answer]
    if len(refs) > n:
        raise IllegalAction(f"можно положить не больше {n} карт(ы), не {len(refs)}", "608.2d")
    left = list(game.players[who].hand)
    picked: list[GameObject] = []
    for ref in refs:
        card = pick(game, left, str(ref), "карта руки этого игрока", "608.2d")
        left.remove(card)
        if not is_permanent_card(game, card):
            raise IllegalAction(f"{narr.obj(game, card)} — не карта перманента", "110.4a")
        if filt and not matches(game, card, game.chars(card), filt, who, ctx.source_live()):
            raise IllegalAction(f"{narr.obj(game, card)} не подходит: {filt}", "608.2d")
        picked.append(card)
    return picked


def is_permanent_card(game: Any, card: GameObject) -> bool:
    """Rule 110.4a: an artifact, battle, creature, enchantment, land, or planeswalker card."""
    return any(t in game.chars(card).types for t in PERMANENT_TYPES)
