"""Creatures put onto the battlefield attacking (rule 508.4): "return it to the battlefield tapped and attacking",
"create a token that's tapped and attacking".

Its controller chooses, as it enters, which defending player or planeswalker a defending player controls it attacks
(508.4; a ``attacking`` decision when there is more than one choice). It was never declared as an attacker: "whenever
a creature attacks" doesn't trigger for it, and the requirements and restrictions of the declaration of attackers
(defender, "can't attack") don't apply to it (508.4c). A noncreature permanent (506.3a), or a creature entering under
a player who isn't attacking (506.3b, which includes any time outside combat), enters but is never attacking.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine import log as narr
from rules_engine import targets as tg
from rules_engine import teams
from rules_engine.errors import IllegalAction

if TYPE_CHECKING:
    from rules_engine.objects import GameObject
    from rules_engine.state import GameState as Game

COMBAT_STEPS = frozenset(
    {"beginning_of_combat", "declare_attackers", "declare_blockers", "first_strike_damage", "combat_damage",
     "end_of_combat"}
)


def enter_attacking(game: Game, obj: GameObject) -> None:
    """Make the permanent that just entered an attacking creature, if it can be one (506.3, 508.4)."""
    controller = game.controller(obj)
    if not game.chars(obj).is_("Creature"):
        game.log(f"{narr.obj(game, obj)} — не существо: оно не атакует (правило 506.3a)")
        return
    if game.step not in COMBAT_STEPS or not teams.is_active(game, controller):
        game.log(f"{narr.obj(game, obj)} входит, но не атакует: его контролер не атакующий игрок (правило 506.3b)")
        return
    defenders = teams.defending_players(game, controller)
    options: list[str | int] = [*defenders]
    options += [
        o.oid for o in game.battlefield if game.controller(o) in defenders and game.chars(o).is_("Planeswalker")
    ]
    if len(options) == 1:
        target = options[0]
    else:
        answer = game.decide("attacking", controller, f"кого атакует {narr.obj(game, obj)}?", obj)
        target = _chosen(game, str(answer), options)
    obj.attacking = target
    whom = narr.player(target) if isinstance(target, str) else narr.obj(game, game.find(target) or obj)
    game.log(f"{narr.obj(game, obj)} входит атакующим: {whom} (не объявлен атакующим, правило 508.4)")


def _chosen(game: Game, answer: str, options: list[str | int]) -> str | int:
    if answer in options:
        return answer
    found = [o.oid for o in tg.find_objects(game, answer, "battlefield") if o.oid in options]
    if not found:
        raise IllegalAction(f"{answer!r}: атаковать можно защищающегося игрока или его мироходца", "508.4")
    return found[0]
