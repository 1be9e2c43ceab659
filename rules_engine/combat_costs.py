"""Costs to attack or block (rules 508.1h, 509.1d): "this creature can't attack or block unless you pay {2}",
"creatures can't block unless their controller pays {1} for each blocking creature they control".

Once the declaration is legal, each player pays the total cost of their declared creatures from their mana pool
(mana abilities may be activated during the declaration, 508.1g / 509.1f: the step's ``pay_with``); one that can't
pay makes the declaration illegal. No requirement obliges a player to pay a cost (508.1d, 509.1c): a creature with a
cost to attack is not under "attacks each combat if able", one with a cost to block is not counted for the block
requirements.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from rules_engine import log as narr
from rules_engine.errors import IllegalAction
from rules_engine.layers import matches
from rules_engine.mana import choose_payment, format_units, parse_cost, take_from_pool

if TYPE_CHECKING:
    from rules_engine.objects import GameObject
    from rules_engine.state import GameState as Game

STATICS = {"attack": ("attack_cost", "attack_or_block_cost"), "block": ("block_cost", "attack_or_block_cost")}
RULES = {"attack": "508.1h", "block": "509.1d"}


def cost_of(game: Game, obj: GameObject, what: str) -> str:
    """The mana ``obj`` costs to attack / block now: every such static ability affecting it, added up."""
    parts = []
    for source in game.ability_sources():
        for ability in game.chars(source).abilities:
            if ability.kind == "static" and ability.spec["static"] in STATICS[what]:
                filt = ability.spec.get("affects") or {"self": True}
                if matches(game, obj, game.chars(obj), filt, game.controller(source), source):
                    parts.append(str(ability.spec["value"]))
    return "".join(parts)


def has_cost(game: Game, obj: GameObject, what: str) -> bool:
    return bool(cost_of(game, obj, what))


def pay(game: Game, declared: list[GameObject], what: str) -> None:
    """Each controller pays the total cost of their declared creatures (508.1h, 509.1d), or the whole declaration
    is illegal and nothing is paid."""
    owed: dict[str, str] = {}
    for obj in declared:
        owed[game.controller(obj)] = owed.get(game.controller(obj), "") + cost_of(game, obj, what)
    payments: list[tuple[str, Counter[str]]] = []
    for player, text in owed.items():
        if not text:
            continue
        pool = game.players[player].mana_pool
        try:
            units = choose_payment(parse_cost(text), pool, None)
        except IllegalAction as exc:
            verb = "атаки" if what == "attack" else "блока"
            raise IllegalAction(
                f"{narr.player(player)} не может оплатить стоимость {verb} {text} из пула {format_units(pool)}",
                RULES[what],
            ) from exc
        payments.append((player, units))
    for player, units in payments:
        take_from_pool(game.players[player].mana_pool, units)
        game.log(f"{narr.player(player)} платит {format_units(units)} за {'атаку' if what == 'attack' else 'блок'}")
