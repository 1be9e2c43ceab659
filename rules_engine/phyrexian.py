"""Phyrexian mana (rule 107.4f): each ``{W/P}`` is paid with one mana of its colour or with 2 life.

The way each Phyrexian symbol will be paid is announced with the rest of the cost (rule 601.2b), before the
total cost is determined (601.2f) and paid (601.2h): ``phyrexian: [life, W]`` on the step, one answer per
Phyrexian symbol in the order of the cost. Without it the engine pays only when a single way can pay (a forced
choice, as for mana): two ways that both work are a missing decision, never a default. Paying life needs a life
total at least that large (119.4); a life payment is a loss of life.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

from rules_engine.errors import DecisionMissing, IllegalAction, ScriptError
from rules_engine.mana import ManaCost, Symbol, choose_payment, parse_units

LIFE = "life"
LIFE_PER_SYMBOL = 2  # rule 107.4f
_MANA = "mana"


def has_phyrexian(cost: ManaCost) -> bool:
    return any(s.kind == "phyrexian" for s in cost.symbols)


def _apply(cost: ManaCost, answers: list[str]) -> tuple[ManaCost, int]:
    """The cost left for mana once each Phyrexian symbol is answered (``life`` or a colour), and the life."""
    out: list[Symbol] = []
    life = 0
    it = iter(answers)
    for s in cost.symbols:
        if s.kind != "phyrexian":
            out.append(s)
            continue
        pick = next(it)
        if pick == LIFE:
            life += LIFE_PER_SYMBOL
        elif pick == _MANA:  # with mana, whichever of its colours the pool pays it with
            out.append(Symbol("hybrid", s.colors) if len(s.colors) > 1 else Symbol("colored", s.colors))
        elif pick in s.colors:
            out.append(Symbol("colored", (pick,)))
        else:
            raise IllegalAction(f"символ {s} нельзя оплатить как {pick}: только {'/'.join(s.colors)} или 2 жизни",
                                "107.4f")
    return ManaCost(tuple(out)), life


def _payable(cost: ManaCost, pool: Counter[str], pay: Any) -> bool:
    """Whether the pool (or the scripted ``pay:``) can pay this mana cost at all."""
    try:
        choose_payment(cost, pool, parse_units(str(pay)) if pay is not None else None)
    except DecisionMissing:
        return True  # several ways: payable
    except IllegalAction:
        return False
    return True


def announce(
    cost: ManaCost, answer: Any, life: int, pool: Counter[str], pay: Any, modified: bool, other_life: int = 0
) -> tuple[ManaCost, int]:
    """Rule 601.2b: how each Phyrexian symbol will be paid. Returns the mana cost still to pay and the life.

    ``life`` is the player's life total, ``other_life`` what the rest of the cost already asks ("pay 1 life");
    ``modified``: cost increases or reductions apply, so the total cost depends on the answer and the answer must
    be scripted (as for hybrid symbols)."""
    symbols = [s for s in cost.symbols if s.kind == "phyrexian"]
    if not symbols:
        if answer is not None:
            raise ScriptError("phyrexian: в стоимости нет фирексийской маны")
        return cost, 0
    if answer is not None:
        answers = [LIFE if str(a).lower() == LIFE else str(a).upper()
                   for a in (answer if isinstance(answer, list) else [answer])]
        if len(answers) != len(symbols):
            raise ScriptError(f"phyrexian: нужно {len(symbols)} значения(й), по одному на каждый символ")
        rest, paid = _apply(cost, answers)
        if paid + other_life > life:  # rule 119.4: only with a life total at least that large
            raise IllegalAction(f"нельзя заплатить {paid + other_life} жизни при {life} жизни", "119.4")
        return rest, paid
    if modified:
        raise DecisionMissing("стоимость изменяется: укажите, как будет оплачен каждый фирексийский символ "
                              "(phyrexian: [life, W])")
    plans: dict[tuple[ManaCost, int], None] = {}
    for combo in itertools.product((LIFE, _MANA), repeat=len(symbols)):
        rest, paid = _apply(cost, list(combo))
        if paid + other_life <= life and _payable(rest, pool, pay):
            key = (ManaCost(tuple(sorted(rest.symbols, key=str))), paid)
            plans.setdefault(key)
    if not plans:
        raise IllegalAction(f"стоимость {cost} нечем оплатить: ни маной из пула, ни жизнью", "118.3")
    if len(plans) > 1:
        raise DecisionMissing(f"как оплатить фирексийскую ману в {cost}: маной или 2 жизнями? (phyrexian: [life, W])")
    (rest, paid), = plans
    return rest, paid


def log_text(who_ru: str, cost: ManaCost, life: int) -> str:
    """«Алиса платит 4 жизни за фирексийскую ману стоимости {1}{W/P}{W/P}»."""
    return f"{who_ru} платит {life} жизни за фирексийскую ману стоимости {cost}"
