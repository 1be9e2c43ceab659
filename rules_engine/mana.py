"""Mana symbols, costs, pools and payment.

A payment is a multiset of mana units (``"W" "U" "B" "R" "G" "C"``). The spell remembers the units spent,
so "if {B} was spent to cast it" can be answered later. When the scenario does not say how to pay, the
engine pays only if exactly one multiset of the pool pays the cost (a forced choice, not a default).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass

from rules_engine.errors import DecisionMissing, EngineError, IllegalAction

COLORS = "WUBRG"
UNITS = "WUBRGC"
_SYMBOL = re.compile(r"\{([^}]+)\}")


@dataclass(frozen=True)
class Symbol:
    """One mana symbol: ``kind`` is generic, colored, colorless, hybrid, mono_hybrid, phyrexian or x.

    A Phyrexian symbol (rule 107.4f: ``{W/P}``, hybrid ``{G/U/P}``) is coloured, counts 1 in the mana value
    (202.3g) and is paid with one mana of its colour(s) or 2 life, as announced when the cost is (601.2b)."""

    kind: str
    colors: tuple[str, ...] = ()
    amount: int = 0

    def __str__(self) -> str:
        if self.kind == "generic":
            return f"{{{self.amount}}}"
        if self.kind == "x":
            return "{X}"
        if self.kind == "hybrid":
            return "{" + "/".join(self.colors) + "}"
        if self.kind == "mono_hybrid":
            return f"{{{self.amount}/{self.colors[0]}}}"
        if self.kind == "phyrexian":
            return "{" + "/".join(self.colors) + "/P}"
        return f"{{{self.colors[0] if self.colors else 'C'}}}"


@dataclass(frozen=True)
class ManaCost:
    symbols: tuple[Symbol, ...] = ()

    @property
    def mana_value(self) -> int:
        total = 0
        for s in self.symbols:
            if s.kind == "generic":
                total += s.amount
            elif s.kind == "mono_hybrid":
                total += max(s.amount, 1)
            elif s.kind != "x":
                total += 1
        return total

    @property
    def colors(self) -> frozenset[str]:
        return frozenset(c for s in self.symbols for c in s.colors if c in COLORS)

    @property
    def has_x(self) -> bool:
        return any(s.kind == "x" for s in self.symbols)

    def with_x(self, x: int) -> ManaCost:
        """The cost with X replaced by a number (rule 601.2f)."""
        out = [Symbol("generic", amount=x) if s.kind == "x" else s for s in self.symbols]
        return ManaCost(tuple(out))

    def __add__(self, other: ManaCost) -> ManaCost:
        return ManaCost(self.symbols + other.symbols)

    def __str__(self) -> str:
        return "".join(str(s) for s in self.symbols) or "{0}"


def parse_symbol(text: str) -> Symbol:
    t = text.upper()
    if t.isdigit():
        return Symbol("generic", amount=int(t))
    if t == "X":
        return Symbol("x")
    if t == "C":
        return Symbol("colorless", ("C",))
    if t in COLORS:
        return Symbol("colored", (t,))
    parts = t.split("/")
    if len(parts) in (2, 3) and parts[-1] == "P" and all(p in COLORS for p in parts[:-1]):
        return Symbol("phyrexian", tuple(parts[:-1]))  # rule 107.4f
    if len(parts) == 2 and all(p in COLORS for p in parts):
        return Symbol("hybrid", (parts[0], parts[1]))
    if len(parts) == 2 and parts[0].isdigit() and parts[1] in COLORS:
        return Symbol("mono_hybrid", (parts[1],), amount=int(parts[0]))
    raise EngineError(f"unknown mana symbol {{{text}}}")


def parse_cost(text: str | None) -> ManaCost:
    """``"{2}{B/R}{B/R}"`` -> ManaCost; ``{T}`` / ``{Q}`` are not mana and are rejected here."""
    if not text:
        return ManaCost()
    symbols = _SYMBOL.findall(text)
    if "".join(f"{{{s}}}" for s in symbols) != text.replace(" ", ""):
        raise EngineError(f"malformed mana cost {text!r}")
    return ManaCost(tuple(parse_symbol(s) for s in symbols if s != "0"))


def parse_units(text: str) -> Counter[str]:
    """``"{B}{B}{R}"`` or ``"BBR"`` -> Counter of mana units."""
    cleaned = text.replace("{", "").replace("}", "").replace(" ", "").upper()
    bad = [c for c in cleaned if c not in UNITS]
    if bad:
        raise EngineError(f"unknown mana unit(s) {''.join(bad)!r} in {text!r}")
    return Counter(cleaned)


def pays(cost: ManaCost, units: Counter[str]) -> bool:
    """Whether exactly these units pay exactly this cost (no mana left over)."""
    # a Phyrexian symbol still in the cost is to be paid with mana (its life payment was announced apart)
    fixed = [s for s in cost.symbols if s.kind in ("colored", "colorless", "hybrid", "mono_hybrid", "phyrexian")]
    generic = sum(s.amount for s in cost.symbols if s.kind == "generic")

    def walk(i: int, left: Counter[str]) -> bool:
        if i == len(fixed):
            return sum(left.values()) == generic
        s = fixed[i]
        for colour in s.colors:
            if left[colour] > 0:
                left[colour] -= 1
                ok = walk(i + 1, left)
                left[colour] += 1
                if ok:
                    return True
        if s.kind == "mono_hybrid":
            # {2/B}: two generic mana instead of the colour; the generic part is checked at the end
            nonlocal_generic = s.amount
            if sum(left.values()) >= nonlocal_generic:
                return walk_generic(i + 1, left, nonlocal_generic)
        return False

    def walk_generic(i: int, left: Counter[str], extra: int) -> bool:
        nonlocal generic
        generic += extra
        try:
            return walk(i, left)
        finally:
            generic -= extra

    return walk(0, Counter(units))


def choose_payment(cost: ManaCost, pool: Counter[str], spend: Counter[str] | None) -> Counter[str]:
    """The units to spend: the scripted ones (checked), or the only multiset of the pool that pays."""
    if spend is not None:
        if any(pool[u] < n for u, n in spend.items()):
            raise IllegalAction(f"пул маны {format_units(pool)} не содержит {format_units(spend)}", "118.3")
        if not pays(cost, spend):
            raise IllegalAction(f"мана {format_units(spend)} не оплачивает стоимость {cost}", "601.2h")
        return Counter(spend)
    candidates = []
    keys = [u for u in UNITS if pool[u] > 0]
    for counts in itertools.product(*(range(pool[u] + 1) for u in keys)):
        units = Counter({u: n for u, n in zip(keys, counts, strict=True) if n})
        if pays(cost, units):
            candidates.append(units)
    if not candidates:
        raise IllegalAction(f"нельзя оплатить {cost} из пула {format_units(pool)}", "118.3")
    if len(candidates) > 1:
        options = ", ".join(format_units(c) for c in candidates)
        raise DecisionMissing(f"как оплатить {cost}? Возможно: {options} (укажите pay:)")
    return candidates[0]


def scripted_payment(cost: ManaCost, pool: Counter[str], pay: object | None) -> Counter[str]:
    """The units a step's ``pay:`` names (checked against pool and cost), or the only way the pool pays."""
    return choose_payment(cost, pool, parse_units(str(pay)) if pay is not None else None)


def take_from_pool(pool: Counter[str], units: Counter[str]) -> None:
    """Spend ``units``: the pool keeps only the kinds of mana it still has."""
    pool.subtract(units)
    for unit in [u for u, n in pool.items() if n <= 0]:
        del pool[unit]


def format_units(units: Counter[str]) -> str:
    text = "".join(f"{{{u}}}" * units[u] for u in UNITS if units[u] > 0)
    return text or "{0}"
