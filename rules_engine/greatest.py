""""Each creature with the highest mana value" (CR 202.3; an {X} off the stack counts 0, 202.3e).

The filter key ``greatest_mana_value: true`` keeps, of the objects matching the rest of the filter, those whose
mana value no other one exceeds (ties: all of them); a static ability with it is checked continuously (611.3a), in
the layer of its effect. Below the layer system, which asks it with the characteristics computed so far; "the
greatest power among" (an amount, which needs the finished characteristics) is ``power_among``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from rules_engine.objects import Characteristics, GameObject

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game


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


def top_toughness(game: Game) -> int:
    """CR 208.1: the greatest toughness among all creatures on the battlefield, whoever controls them, as they are
    now ("if you control the creature with the greatest toughness or tied for the greatest toughness")."""
    return max((game.chars(o).toughness or 0 for o in game.battlefield if game.chars(o).is_("Creature")), default=0)
