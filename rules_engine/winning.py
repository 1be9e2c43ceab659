"""An effect that says a player wins the game (Biovisionary: "you win the game").

Rule 104.2b: an effect may state that a player wins the game. In a two-player game the opponent loses; in a
multiplayer game such an effect instead makes each of that player's opponents lose (104.3h), and the game ends
when one player or team is left (104.2a): the state-based check that ends the game then names the winner.
"""

from __future__ import annotations

from typing import Any

from rules_engine import log as narr
from rules_engine import teams
from rules_engine.interpreter import Context, effect


@effect("win_game")
def _win_game(ctx: Context, v: Any) -> None:
    """``win_game: you``: the effect's controller wins; every opponent of theirs loses at once (104.2b, 104.3h)."""
    game, winner = ctx.game, ctx.controller
    game.log(f"{narr.player(winner)} выигрывает партию (эффект {narr.obj(game, ctx.source)})")
    for name in teams.opponents(game, winner):
        if not game.players[name].lost:
            game.players[name].lost = True
            game.log(f"{narr.player(name)} проигрывает (его оппонент выигрывает партию, правило 104.2b)")
    alive = [p for p in game.order if not game.players[p].lost]
    if alive and len({teams.team_of(game, p) for p in alive}) == 1 and game.winner is None:
        game.winner = winner  # rule 104.2a: the game is over
    game.touch()
