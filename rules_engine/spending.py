"""Mana that can be spent only on some things (rule 106.6: "Spend this mana only to cast creature spells").

A mana ability with ``spend_only:`` adds its mana to the player's ``restricted_mana`` instead of the free pool: each
mana keeps its type (106.6: the restriction doesn't change it) and the restriction it was made with. A payment sees
the free pool plus the restricted mana whose restriction allows what is being paid for (a ``Purpose``), and spends
the restricted mana first: it can pay for less than free mana can, so spending it first never takes a choice away.
Restricted mana empties with the pool (500.4).

What a restriction may allow (any of them):
  ``spells: FILTER``       casting a spell matching the filter, its total cost: mana cost, additional and
                           alternative costs (601.2f; a face-down spell is a nameless 2/2 creature, 708.2)
  ``abilities: FILTER``    activating an ability of a permanent on the battlefield matching the filter
  ``x_costs: true``        a cost that contains {X}, any part of it, even with X = 0 (Rosheen Meanderer)
  ``face_down_spells: true``  casting a face-down spell (morph, 702.37c)
  ``morph_costs: true``    the morph cost of turning a permanent face up (a special action, 702.37e, not an ability)
  ``manifest_face_up: true``  the mana cost of turning a manifested creature face up (701.40a)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules_engine.layers import matches
from rules_engine.mana import ManaCost, format_units, scripted_payment
from rules_engine.objects import FACE_DOWN, GameObject

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game

RESTRICTIONS = frozenset({"spells", "abilities", "x_costs", "face_down_spells", "morph_costs", "manifest_face_up"})


@dataclass(frozen=True)
class Purpose:
    """What a payment is for: ``spell`` (cast ``obj``), ``ability`` (of the permanent ``obj``), ``morph`` or
    ``manifest`` (turning ``obj`` face up); ``has_x`` when the cost contains {X}."""

    kind: str
    obj: GameObject | None = None
    has_x: bool = False
    face_down: bool = False


def allows(game: Game, player: str, only: dict[str, Any], purpose: Purpose) -> bool:
    """Whether mana with this restriction may pay for this purpose (rule 106.6)."""
    if only.get("x_costs") and purpose.has_x:
        return True
    obj = purpose.obj
    if purpose.kind == "spell" and obj is not None:
        if purpose.face_down and only.get("face_down_spells"):
            return True
        if "spells" in only:
            chars = game.chars(obj)
            if purpose.face_down:  # rule 708.2: a face-down spell is a 2/2 creature with no name, types or colour
                chars = _face_down_chars(chars)
            return matches(game, obj, chars, only["spells"], player, None)
    if purpose.kind == "ability" and obj is not None and "abilities" in only:
        # "activate abilities of Elementals": of such permanents only, not of cards in other zones (106.6)
        return obj.zone == "battlefield" and matches(game, obj, game.chars(obj), only["abilities"], player, None)
    if purpose.kind == "morph":
        return bool(only.get("morph_costs"))
    if purpose.kind == "manifest":
        return bool(only.get("manifest_face_up"))
    return False


def _face_down_chars(chars: Any) -> Any:
    from dataclasses import replace

    return replace(
        chars, name="", types=set(FACE_DOWN.types), subtypes=set(), supertypes=set(), colors=set(), power=2,
        toughness=2, keywords={}, abilities=[],
    )


def usable(game: Game, player: str, purpose: Purpose) -> tuple[Counter[str], Counter[str]]:
    """The free pool and the restricted mana that may pay for ``purpose``, by type."""
    p = game.players[player]
    allowed: Counter[str] = Counter()
    for unit, only, _source in p.restricted_mana:
        if allows(game, player, only, purpose):
            allowed[unit] += 1
    return Counter(p.mana_pool), allowed


def pay(game: Game, player: str, cost: ManaCost, purpose: Purpose, pay_param: object | None) -> Counter[str]:
    """Choose the mana for ``cost`` (the step's ``pay:`` or the only way) from the free pool and the restricted mana
    allowed here, and spend it: the restricted mana first. Returns the units spent, by type."""
    free, allowed = usable(game, player, purpose)
    units = scripted_payment(cost, free + allowed, pay_param)
    spend(game, player, units, purpose)
    return units


def spend(game: Game, player: str, units: Counter[str], purpose: Purpose) -> None:
    """Take ``units`` out of the pools: restricted mana this purpose allows first, then free mana."""
    p = game.players[player]
    left = Counter(units)
    kept = []
    used: Counter[str] = Counter()
    for entry in p.restricted_mana:
        unit, only, _source = entry
        if left[unit] > 0 and allows(game, player, only, purpose):
            left[unit] -= 1
            used[unit] += 1
        else:
            kept.append(entry)
    p.restricted_mana[:] = kept
    p.mana_pool.subtract(left)
    for unit in [u for u, n in p.mana_pool.items() if n <= 0]:
        del p.mana_pool[unit]
    if used:
        game.log(f"Потрачена мана с ограничением траты {format_units(used)} (правило 106.6)")


def add(game: Game, player: str, units: Counter[str], only: dict[str, Any], source_name: str) -> None:
    """Mana with a spending restriction goes to the player's restricted mana, one entry per mana (106.6)."""
    for unit, n in units.items():
        for _ in range(n):
            game.players[player].restricted_mana.append((unit, only, source_name))
