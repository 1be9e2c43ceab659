"""An optional reveal cost and its bonus: "As an additional cost to cast this spell, you may reveal a Dragon card
from your hand" with "if you revealed a Dragon card or controlled a Dragon as you cast this spell, ..." (DTK).

Revealing is an additional cost (rule 118.8), optional, chosen as the spell is announced (601.2b) and paid with
the total cost (601.2h): one card of the hand matching the filter, never the spell itself. Whether the caster
controlled such a permanent is looked at once, as casting finishes (601.2i): losing the only one while casting
(sacrificed for mana) loses the bonus, losing it after the spell is cast does not. The spell remembers both
(``paid_additional``) and hands them to the permanent it becomes; a copy of the spell (707.10) copies the paid
additional cost but was never cast, so only a revealed card gives the copy the bonus.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_engine import log as narr
from rules_engine.errors import IllegalAction
from rules_engine.layers import matches

if TYPE_CHECKING:
    from rules_engine.objects import GameObject
    from rules_engine.state import GameState as Game

REVEALED = "revealed"  # the reveal cost was paid (a choice made for the spell: a copy keeps it, 707.10)
CONTROLLED = "controlled_as_cast"  # the caster controlled a matching permanent as casting finished (601.2i)
CONDITION = "revealed_or_controlled"  # the condition key of a trigger, an effect's if, an "enters with"


def spec_of(card_obj: GameObject) -> dict[str, Any] | None:
    """The card's ``reveal_cost: {filter, or_control}``, or None."""
    for ability in card_obj.definition.abilities:
        if ability.kind == "cost" and ability.name == "reveal_cost":
            return dict(ability.spec)
    return None


def choose(game: Game, player: str, card_obj: GameObject, ref: Any) -> GameObject | None:
    """The card ``reveal: REF`` names, checked before anything is paid (601.2b, 601.2h)."""
    if ref is None:
        return None
    spec = spec_of(card_obj)
    if spec is None:
        raise IllegalAction(f"у {narr.obj(game, card_obj)} нет дополнительной стоимости «показать карту»", "118.8")
    if isinstance(ref, list):  # the cost is one card: revealing more multiplies nothing (DTK Dragon rulings)
        if len(ref) != 1:
            raise IllegalAction("в качестве этой дополнительной стоимости показывают одну карту", "118.8")
        ref = ref[0]
    found = [
        o for o in game.players[player].hand if str(ref) in (o.card.ref, o.card.definition.name) and o is not card_obj
    ]
    if not found:
        raise IllegalAction(f"в руке игрока {narr.player(player)} нет карты {ref!r}, чтобы ее показать", "118.8")
    card = found[0]
    if not matches(game, card, game.chars(card), spec.get("filter"), player, card_obj):
        raise IllegalAction(f"{narr.obj(game, card)} не подходит для дополнительной стоимости", "118.8")
    return card


def finish(game: Game, player: str, spell: GameObject, revealed: GameObject | None) -> None:
    """Pay the reveal (601.2h) and note, as casting finishes (601.2i), whether the caster controls a matching
    permanent."""
    spec = spec_of(spell)
    if spec is None:
        return
    if revealed is not None:
        spell.paid_additional += (REVEALED,)
        game.log(f"{narr.player(player)} показывает {narr.obj(game, revealed)} (дополнительная стоимость)")
    wanted = spec.get("or_control")
    if wanted is not None and any(
        game.controller(o) == player and matches(game, o, game.chars(o), dict(wanted), player, spell)
        for o in game.battlefield
    ):
        spell.paid_additional += (CONTROLLED,)


def copied(paid: tuple[str, ...]) -> tuple[str, ...]:
    """What a copy of a spell keeps (707.10): the costs paid for it, not what held as it was cast."""
    return tuple(p for p in paid if p != CONTROLLED)


def holds(obj: Any) -> bool:
    """``revealed_or_controlled: true``: a card was revealed for the spell (or the spell it was), or its caster
    controlled a matching permanent as it was cast."""
    if obj is None:
        return False
    paid = getattr(obj, "paid_additional", ())
    return REVEALED in paid or CONTROLLED in paid
