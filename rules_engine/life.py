"""Losing life (rule 119.3) and the "can't" that stops it (119.8: "If an effect says that a player can't lose
life ..."; "your life total can't change" is both that and 119.7's "can't gain life").

Every loss of life an effect or damage causes goes through ``lose_life``, so an extort drain counts only the
life really lost (GTC extort ruling: "based on the total amount of life lost"); paying life (119.4) goes through
``pay``. Both make a ``life_lost`` event (119.3) for triggers and this turn's history."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine import log as narr

if TYPE_CHECKING:
    from rules_engine.objects import GameObject
    from rules_engine.state import GameState as Game


def cant_lose_source(game: Game, player: str) -> GameObject | None:
    """The permanent whose static ``cant_lose_life`` covers ``player`` now, if any."""
    for source in game.battlefield:
        for ability in game.chars(source).abilities:
            if ability.kind != "static" or ability.spec["static"] != "cant_lose_life":
                continue
            which = (ability.spec.get("value") or {}).get("players", "you")
            if which == "each" or (which == "you") == (player == game.controller(source)):
                return source
    return None


def lose_life(game: Game, player: str, n: int) -> int:
    """``player`` loses ``n`` life unless they can't (rule 119.8); the life actually lost."""
    if n <= 0:
        return 0
    source = cant_lose_source(game, player)
    if source is not None:
        game.log(f"{narr.player(player)} не может терять жизнь ({narr.obj(game, source)})")
        return 0
    game.players[player].life -= n
    lost(game, player, n)
    return n


def pay(game: Game, player: str, n: int) -> None:
    """Rule 119.4: paying life subtracts it from the life total — the player loses that much life (the check
    that they have enough is the payer's, before)."""
    if n > 0:
        game.players[player].life -= n
        lost(game, player, n)


def lost(game: Game, player: str, n: int) -> None:
    """The event of a loss of life (rule 119.3): "whenever a player loses life" and this turn's history see it."""
    from rules_engine import triggers
    from rules_engine.events import Event

    triggers.collect(game, Event("life_lost", player=player, amount=n))
