"""The greatest value among objects: "the greatest power among creatures you control" (CR 208.1, 208.3: a
creature's power as the layers leave it) and "each creature with the highest mana value" (CR 202.3; an {X} off
the stack counts 0, 202.3e).

An amount ``{greatest_power: FILTER}`` is counted when the effect uses it — as the spell or ability resolves, or as
a permanent enters with counters — and not again afterwards (608.2h: "the value of X is determined when it
resolves"); no object matching the filter gives 0. The filter key ``greatest_mana_value: true`` keeps, of the
objects matching the rest of the filter, those whose mana value no other one exceeds (ties: all of them); a static
ability with it is checked continuously (611.3a), in the layer of its effect.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from rules_engine.objects import Characteristics, GameObject, Snapshot

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game


def greatest_power(
    game: Game, filt: dict[str, Any], you: str, source: GameObject | Snapshot | None, exclude: int | None = None
) -> int:
    """CR 208.1: the greatest power among the permanents matching ``filt`` (0 when none; a negative greatest
    power is a calculation, 107.1b, so it counts as 0). ``exclude``: an object entering now, not yet there."""
    from rules_engine.layers import matches

    powers = [
        chars.power
        for o in game.battlefield
        if o.oid != exclude and (chars := game.chars(o)).power is not None
        and matches(game, o, chars, filt, you, source)
    ]
    return max(0, max(powers, default=0))


def keep_greatest_mana_value(
    found: Iterable[GameObject], chars_of: dict[int, Characteristics] | None, game: Game
) -> list[GameObject]:
    """CR 202.3: of ``found``, those with the highest mana value (all of them on a tie). ``chars_of``: the
    characteristics as the layers have them so far (inside the layer system), else the finished ones."""
    pool = list(found)

    def value(o: GameObject) -> int:
        return (chars_of[o.oid] if chars_of is not None else game.chars(o)).mana_value

    top = max((value(o) for o in pool), default=None)
    return [o for o in pool if value(o) == top]
