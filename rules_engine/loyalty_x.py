"""A loyalty ability whose cost is [−X] (Ugin, the Spirit Dragon).

Rule 107.3a: the controller chooses and announces X as the ability is activated; while the ability is on the stack
any X in its cost and text is that number. Rule 606.4: the cost is removing that many loyalty counters, and 606.6:
it can't be activated unless the permanent has at least that many. So X is fixed once: the loyalty removed, the
bounds of the effect's filters ("each permanent with mana value X or less") and of its targets are all that
number, and later changes of the permanent's loyalty don't change it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rules_engine import log as narr
from rules_engine.errors import DecisionMissing, IllegalAction

if TYPE_CHECKING:
    from rules_engine.costs import Cost
    from rules_engine.objects import GameObject
    from rules_engine.state import GameState as Game


def announce(
    game: Game, obj: GameObject, cost: Cost, spec: dict[str, Any], params: dict[str, Any]
) -> tuple[Cost, dict[str, Any], int]:
    """The X of ``x:`` (0 or more): the cost becomes removing X loyalty counters, and X is put into the filter
    bounds of the targets and the effect (``mana_value_at_most: X``), as the ability goes on the stack."""
    answer = params.get("x")
    if answer is None:
        raise DecisionMissing(f"нужно объявить X для способности верности {narr.obj(game, obj)} (x:)")
    if isinstance(answer, bool) or not isinstance(answer, int) or answer < 0:
        raise IllegalAction(f"X — целое число не меньше 0, а не {answer!r}", "107.1")
    game.log(f"Для способности −X объекта {narr.obj(game, obj)} объявлено X = {answer}")
    fixed: dict[str, Any] = {key: with_x(spec[key], answer) for key in ("targets", "effect") if key in spec}
    return replace(cost, loyalty=-answer, loyalty_x=False), {**spec, **fixed}, answer


def with_x(node: Any, x: int) -> Any:
    """The announced number in place of X in the filter bounds of a node (``*_at_most`` / ``*_at_least``)."""
    if isinstance(node, dict):
        return {k: x if v == "X" and k.endswith(("_at_most", "_at_least")) else with_x(v, x) for k, v in node.items()}
    if isinstance(node, list):
        return [with_x(v, x) for v in node]
    return node
