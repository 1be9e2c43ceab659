"""Damage divided among targets as a spell is cast or an ability is put on the stack (rules 601.2c, 601.2d, 603.3d).

"Deals 4 damage divided as you choose among any number of targets": the number of targets is chosen with them (a
target spec with ``number: any`` or ``number: {min: 1, max: 2}``, "one or two targets"), and the division is
announced then too (the ``divide:`` of the cast step, or a ``divide`` decision for a triggered ability): one amount per
target, each at least 1, adding up to the spell's ``divide:`` amount, counted as it is cast ("X is the number of
Mountains you control as you cast this spell"). The division never changes (a copy keeps it, 707.10); on resolution
each target still legal is dealt its share, an illegal one nothing (608.2b).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_engine import log as narr
from rules_engine import targets as tg
from rules_engine.errors import IllegalAction, ScriptError
from rules_engine.interpreter import Context, effect, run
from rules_engine.layers import matches

if TYPE_CHECKING:
    from rules_engine.objects import GameObject, Snapshot
    from rules_engine.stackobjects import StackAbility, Target
    from rules_engine.state import GameState as Game


def is_variable(specs: list[Any]) -> bool:
    return any(isinstance(s, dict) and "number" in s for s in specs)


def fix_count(specs: list[Any], chosen: int) -> list[Any]:
    """The target specs for ``chosen`` targets in all: the variable word gets the count the others leave (601.2c)."""
    if not is_variable(specs):
        return specs
    fixed = sum(int(s.get("count", 1)) if isinstance(s, dict) else 1 for s in specs if not _variable(s))
    n = chosen - fixed
    out: list[Any] = []
    for spec in specs:
        if not _variable(spec):
            out.append(spec)
            continue
        low, high = bounds(spec)
        if not low <= n <= high:
            most = "любое число" if high >= 99 else f"от {low} до {high}"
            raise IllegalAction(f"число целей {n}: можно выбрать {most}", "601.2c")
        one = {k: v for k, v in spec.items() if k != "number"}
        if n >= 2:
            out.append({**one, "count": n})
        elif n == 1:
            out.append(one)
    return out


def zero_allowed(specs: list[Any]) -> bool:
    """Rule 115.6: "up to N" / "any number of" targets lets zero be chosen — such a trigger always has a legal choice,
    so a choice the rules reject is the player's error, not a trigger with no legal targets (603.3d)."""
    return bool(specs) and all(_variable(s) and bounds(s)[0] == 0 for s in specs)


def _variable(spec: Any) -> bool:
    return isinstance(spec, dict) and "number" in spec


def bounds(spec: dict[str, Any]) -> tuple[int, int]:
    """How many objects the word may name: "any number" 0 and up, or ``{min, max}``. "For each opponent, up to one
    target creature that player controls" is ``any`` with the ``one_per_player`` relation: one per opponent."""
    number = spec["number"]
    if number == "any":
        return 0, 99
    return int(number.get("min", 0)), int(number.get("max", 99))


def announce(
    game: Game, player: str, source: GameObject | Snapshot, total_expr: Any, shares: Any, targets: int, x: int
) -> tuple[int, ...]:
    """Rule 601.2d: the division announced for ``targets`` targets of an amount counted now (``total_expr``)."""
    total = _total(game, player, source, total_expr, x)
    if shares is None:
        if targets == 0 and total == 0:
            return ()
        raise ScriptError(f"нужно разделить повреждения (всего {total}) между целями (divide: [N, ...])")
    picked = [int(s) for s in (shares if isinstance(shares, list) else [shares])]
    if len(picked) != targets:
        raise IllegalAction(f"распределение {picked}: нужно по числу на каждую из {targets} целей", "601.2d")
    if any(n < 1 for n in picked):
        raise IllegalAction(f"распределение {picked}: каждой цели — хотя бы 1 повреждение", "601.2d")
    if sum(picked) != total:
        raise IllegalAction(f"распределение {picked}: в сумме должно быть {total}", "601.2d")
    if picked:
        game.log(f"{narr.player(player)} делит повреждения (всего {total}) между целями: {', '.join(map(str, picked))}")
    return tuple(picked)


def _total(game: Game, player: str, source: GameObject | Snapshot, expr: Any, x: int) -> int:
    """A number, X, or ``{count: FILTER}``: the permanents matching it now ("the number of Mountains you control")."""
    if expr == "X":
        return x
    if isinstance(expr, dict):
        return sum(1 for o in game.battlefield if matches(game, o, game.chars(o), expr["count"], player, source))
    return int(expr)


def choose_targets(game: Game, item: StackAbility, player: str, source: GameObject | Snapshot) -> list[Target]:
    """A triggered ability's targets as it is put on the stack (603.3d): for "any number of targets" how many is
    part of the ``target`` answer, and the division is a ``divide`` decision (a list, one share per target)."""
    specs = item.spec.get("targets") or []
    scripted = None
    if is_variable(specs):
        scripted = game.decide("target", player, "цели способности (любое их число)", source)
        scripted = scripted if isinstance(scripted, list) else [scripted]
        specs = fix_count(specs, len(scripted))
    return tg.choose(game, specs, scripted, player, source, item) if specs else []


def divide_for_trigger(game: Game, item: StackAbility, player: str, source: GameObject | Snapshot) -> None:
    """Rule 601.2d (603.3d): the division of a triggered ability, a ``divide`` decision, once its targets are chosen."""
    if "divide" not in item.spec:
        return
    shares = game.decide("divide", player, "как разделить повреждения между целями?", source) if item.targets else None
    item.division = announce(game, player, source, item.spec["divide"], shares, len(item.targets), item.x)


@effect("divided_damage")
def _divided_damage(ctx: Context, v: Any) -> None:
    """Each target is dealt the share announced for it; the damage effect deals an illegal one nothing (608.2b)."""
    for i, share in enumerate(ctx.division):
        run(ctx, {"damage": {"amount": share, "to": f"target{i}"}})
