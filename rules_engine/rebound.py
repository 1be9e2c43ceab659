"""Rebound (rule 702.88a): a spell cast from its owner's hand is exiled as it resolves and may be cast again.

"Rebound" means "If this spell was cast from your hand, instead of putting it into your graveyard as it resolves,
exile it and, at the beginning of your next upkeep, you may cast this card from exile without paying its mana
cost." Only a spell that resolves is exiled: a countered spell, or one whose targets are all illegal, goes to the
graveyard as usual; a copy was never cast from a hand; the card cast again from exile goes to the graveyard.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_engine import interpreter

if TYPE_CHECKING:
    from rules_engine.objects import GameObject
    from rules_engine.state import GameState as Game

# the delayed triggered ability (603.7a) about the exiled card: "that" card while it stays in exile (603.7c)
RECAST: dict[str, Any] = {
    "delayed_trigger": {
        "when": "beginning_of_step",
        "filter": {"step": "upkeep", "whose": "you"},
        "about": "made",
        "name": "rebound",
        "name_ru": "Отскок: в начале вашего следующего шага поддержки вы можете разыграть эту карту из изгнания",
        "effect": {"cast_without_paying": "that"},
    }
}


def applies(game: Game, spell: GameObject) -> bool:
    return (
        "rebound" in game.chars(spell).keywords
        and not spell.is_copy
        and spell.cast_from == "hand"
        and spell in game.stack
    )


def exile(game: Game, spell: GameObject) -> None:
    """Instead of the graveyard, exile; then the delayed ability for the next upkeep."""
    controller = game.controller(spell)
    ctx = interpreter.Context(game, controller, spell, [], [], spell.x, None, spell)
    game.log(f"Отскок: {game.describe_stack_item(spell)} изгоняется вместо кладбища")
    ctx.made.append(game.move(spell, "exile"))
    interpreter.run(ctx, RECAST)
