"""Dash (rule 702.109a): an alternative cost, haste while the dash cost was paid, and a delayed return.

"Dash [cost]" means "You may cast this card by paying [cost] rather than its mana cost," "If this spell's dash
cost was paid, return the permanent this spell becomes to its owner's hand at the beginning of the next end
step," and "As long as this permanent's dash cost was paid, it has haste." The spell remembers the paid cost
(``paid_additional``) and hands it to the permanent it becomes, so a copy of that permanent (a new object that
was never cast) has neither the haste nor the return.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_engine import interpreter
from rules_engine.objects import Characteristics, ContinuousEffect, GameObject

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game

DASH = "dash"

# the delayed triggered ability the resolving spell creates (603.7a): it returns that very permanent (603.7c)
RETURN: dict[str, Any] = {
    "delayed_trigger": {
        "when": "beginning_of_step",
        "filter": {"step": "end", "whose": "each"},
        "about": "made",
        "name": "dash",
        "name_ru": "В начале следующего заключительного шага верните этот перманент в руку его владельца",
        "effect": {"return_to_hand": "that"},
    }
}


def paid(obj: GameObject) -> bool:
    return DASH in obj.paid_additional


def on_resolve(game: Game, spell: GameObject, permanent: GameObject) -> None:
    """The permanent a spell cast for its dash cost became gets its delayed return (702.109a)."""
    if not paid(spell) or DASH not in game.chars(spell).keywords:
        return
    ctx = interpreter.Context(game, game.controller(spell), spell, [], [], spell.x, None, spell)
    ctx.made.append(permanent)
    interpreter.run(ctx, RETURN)


def haste(source: GameObject, chars: Characteristics) -> ContinuousEffect | None:
    """"As long as this permanent's dash cost was paid, it has haste": a layer-6 effect of its own dash."""
    if not paid(source) or DASH not in chars.keywords:
        return None
    return ContinuousEffect(
        layer="6",
        kind="grant",
        data={"keywords": ["haste"]},
        timestamp=source.timestamp,
        duration="static",
        source_oid=source.oid,
        controller=chars.controller,
        filter={"self": True},
    )
