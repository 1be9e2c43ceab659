"""How many lands a player may play this turn (rule 305.2): one, plus what effects add — Urban Evolution's "You
may play an additional land this turn".

Rule 305.2: a player can normally play one land during their turn; continuous effects may increase this number, and
305.2a: whether a player can play a land compares that number with the lands already played this turn. The effect
only raises the number: the land is still played by the normal rules (305.1: in a main phase of the player's own
turn, with an empty stack, 305.3 — not while the spell resolves), and several such effects add up. The number is
the player's for this turn only: it goes back to one as the next turn begins, so an additional land given during
another player's turn is never used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_engine import log as narr
from rules_engine.interpreter import Context, effect

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game


def allowance(game: Game, player: str) -> int:
    """Rule 305.2: the lands the player may play this turn."""
    return 1 + game.players[player].extra_land_plays


@effect("additional_land")
def _additional_land(ctx: Context, v: Any) -> None:
    """``additional_land: {n}``: the effect's controller may play N more lands this turn (305.2, cumulative)."""
    n = int(v.get("n", 1)) if isinstance(v, dict) else 1
    seat = ctx.game.players[ctx.controller]
    seat.extra_land_plays += n
    ctx.game.log(
        f"{narr.player(ctx.controller)} может сыграть в этом ходу дополнительную землю "
        f"(всего земель за ход: {allowance(ctx.game, ctx.controller)})"
    )
    ctx.game.touch()
