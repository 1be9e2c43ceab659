"""An amount "the greatest power among creatures you control" (CR 208.1, 208.3: a creature's power as the layers
leave it), ``{greatest_power: FILTER}``.

It is counted when the effect uses it — as the spell or ability resolves, or as a permanent enters with counters —
and not again afterwards (608.2h: "the value of X is determined when it resolves"); no object matching the filter
gives 0.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_engine.layers import matches
from rules_engine.objects import GameObject, Snapshot

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game


def greatest_power(
    game: Game, filt: dict[str, Any], you: str, source: GameObject | Snapshot | None, exclude: int | None = None
) -> int:
    """CR 208.1: the greatest power among the permanents matching ``filt`` (0 when none; a negative greatest
    power is a calculation, 107.1b, so it counts as 0). ``exclude``: an object entering now, not yet there."""
    powers = [
        chars.power
        for o in game.battlefield
        if o.oid != exclude and (chars := game.chars(o)).power is not None
        and matches(game, o, chars, filt, you, source)
    ]
    return max(0, max(powers, default=0))
