"""Delve (rule 702.66a): "For each generic mana in this spell's total cost, you may exile a card from your graveyard
rather than pay that mana." The exiled cards are a way of paying the total cost, chosen and paid with it (601.2g-h):
they pay generic mana only, never more than the generic part, and the spell's mana cost and mana value don't change
(702.66b). It is not an alternative cost, so it works with one (FRF delve rulings)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_engine import log as narr
from rules_engine.errors import IllegalAction, ScriptError
from rules_engine.mana import ManaCost, Symbol

if TYPE_CHECKING:
    from rules_engine.objects import GameObject
    from rules_engine.state import GameState as Game


def reduce(
    game: Game, player: str, card_obj: GameObject, cost: ManaCost, refs: Any
) -> tuple[ManaCost, list[GameObject]]:
    """The total cost left to pay in mana once the cards ``refs`` (``delve: [REF, ...]``) pay generic mana, and
    those cards; checked before anything is paid, nothing moves here."""
    if not refs:
        return cost, []
    if "delve" not in game.chars(card_obj).keywords:
        raise IllegalAction(f"у {narr.obj(game, card_obj)} нет Выкапывания", "702.66a")
    graveyard = game.players[player].graveyard
    cards: list[GameObject] = []
    for ref in refs:
        found = [o for o in graveyard if ref in (o.card.ref, o.card.definition.name) and o not in cards]
        if not found:
            raise ScriptError(f"на кладбище игрока {narr.player(player)} нет карты {ref!r} для Выкапывания")
        cards.append(found[0])
    generic = sum(s.amount for s in cost.symbols if s.kind == "generic")
    if len(cards) > generic:
        raise IllegalAction(
            f"Выкапыванием можно оплатить только неокрашенную ману: {generic}, а не {len(cards)}", "702.66a"
        )
    left = generic - len(cards)
    others = tuple(s for s in cost.symbols if s.kind != "generic")
    return ManaCost(((Symbol("generic", amount=left),) if left else ()) + others), cards


def exile(game: Game, player: str, card_obj: GameObject, cards: list[GameObject]) -> None:
    """Pay with the chosen cards: exile them as the rest of the cost is paid (601.2h)."""
    for card in cards:
        what = f"{narr.obj(game, card)} с кладбища (Выкапывание {narr.obj(game, card_obj)})"
        game.log(f"{narr.player(player)} изгоняет {what}")
        game.move(card, "exile")
