"""Block requirements (rule 509.1c): "blocks each combat if able", "target creature blocks [this creature] this
turn if able", "must be blocked if able", "all creatures able to block it do so".

A declaration of blockers is illegal if it obeys fewer requirements than the most that could be obeyed without
breaking a restriction (509.1c). The engine counts the requirements the declared blocks obey and looks for a
legal declaration that obeys more, trying every assignment of the defending players' untapped creatures to the
attackers each of them could block (a creature blocks one attacker: "can block additional creatures" is not
modelled). Restrictions are those of ``combat`` (passed in as ``legal``), so a requirement never makes an
illegal block legal: a creature that can't block a flyer doesn't have to.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules_engine import log as narr
from rules_engine import teams
from rules_engine.errors import IllegalAction
from rules_engine.layers import matches

if TYPE_CHECKING:
    from rules_engine.objects import GameObject
    from rules_engine.state import GameState as Game

Blocks = list[tuple["GameObject", list["GameObject"]]]
MAX_TRIED = 20000  # declarations tried at most; beyond that only the declared one is checked for restrictions


@dataclass(frozen=True)
class Requirement:
    """``blocker`` blocks (``attacker``: that attacker; None: any), or ``attacker`` is blocked (``blocker`` None)."""

    blocker: int | None
    attacker: int | None
    text: str

    def obeyed(self, blocks: dict[int, list[int]]) -> bool:
        if self.blocker is None:
            return any(self.attacker in attacked for attacked in blocks.values())
        attacked = blocks.get(self.blocker, [])
        return bool(attacked) if self.attacker is None else self.attacker in attacked


def _statics(game: Game, obj: GameObject, kind: str) -> list[tuple[GameObject, dict]]:
    out = []
    for source in game.ability_sources():
        for ability in game.chars(source).abilities:
            if ability.kind == "static" and ability.spec["static"] == kind:
                filt = ability.spec.get("affects") or {"self": True}
                if matches(game, obj, game.chars(obj), filt, game.controller(source), source):
                    out.append((source, ability.spec))
    return out


def requirements(game: Game, candidates: list[GameObject], attackers: list[GameObject]) -> list[Requirement]:
    """Every block requirement on the defending players' creatures and on the attackers now (509.1c)."""
    found: list[Requirement] = []
    live_attackers = {a.oid for a in attackers}
    for blocker in candidates:
        name = narr.obj(game, blocker)
        if _statics(game, blocker, "blocks_each_combat"):
            found.append(Requirement(blocker.oid, None, f"{name} блокирует в каждом бою, если может"))
        for effect in game.effects:  # "target creature blocks [target creature] this turn if able"
            if effect.kind == "must_block" and blocker.oid in effect.affected:
                attacker = effect.data.get("attacker")
                if attacker is None:
                    found.append(Requirement(blocker.oid, None, f"{name} блокирует в этом ходу, если может"))
                elif attacker in live_attackers:
                    other = game.find(attacker)
                    found.append(Requirement(
                        blocker.oid, attacker, f"{name} блокирует {narr.obj(game, other) if other else '?'}, если может"
                    ))
    for attacker in attackers:
        name = narr.obj(game, attacker)
        for _, spec in _statics(game, attacker, "must_be_blocked"):
            if (spec.get("value") or {}).get("all"):  # "all creatures able to block it do so"
                found += [
                    Requirement(b.oid, attacker.oid, f"{narr.obj(game, b)} блокирует {name}, если может")
                    for b in candidates
                ]
            else:
                found.append(Requirement(None, attacker.oid, f"{name}: должно быть заблокировано, если возможно"))
        if any(e.kind == "must_be_blocked" and attacker.oid in e.affected for e in game.effects):
            found.append(Requirement(None, attacker.oid, f"{name}: должно быть заблокировано, если возможно"))
    return found


def check_block_requirements(
    game: Game,
    chosen: Blocks,
    legal: Callable[[Blocks], bool],
    may_block: Callable[[GameObject, GameObject | None], bool],
) -> None:
    """Rule 509.1c: reject ``chosen`` if a legal declaration obeys more requirements. ``legal`` checks a whole
    declaration against the restrictions; ``may_block(blocker, None)`` whether a creature may block at all and
    ``may_block(blocker, attacker)`` that one block, so only possible blocks are tried."""
    attackers = [o for o in game.battlefield if o.attacking is not None]
    if not attackers:
        return
    candidates = [
        o
        for o in game.battlefield
        if not teams.is_active(game, game.controller(o)) and game.chars(o).is_("Creature") and may_block(o, None)
    ]
    reqs = requirements(game, candidates, attackers)
    if not reqs:
        return
    declared = {b.oid: [a.oid for a in attacked] for b, attacked in chosen}
    obeyed = sum(r.obeyed(declared) for r in reqs)
    if obeyed == len(reqs):
        return
    options = [[None] + [a for a in attackers if may_block(b, a)] for b in candidates]
    for tried, pick in enumerate(itertools.product(*options)):
        if tried >= MAX_TRIED:
            return
        blocks = {b.oid: [a.oid] for b, a in zip(candidates, pick, strict=True) if a is not None}
        if sum(r.obeyed(blocks) for r in reqs) <= obeyed:
            continue
        trial: Blocks = [(b, [a]) for b, a in zip(candidates, pick, strict=True) if a is not None]
        if legal(trial):
            missed = next(r for r in reqs if r.obeyed(blocks) and not r.obeyed(declared))
            raise IllegalAction(
                f"требование блока не выполнено: {missed.text} (выполнено требований: {obeyed}, "
                f"а можно выполнить {sum(r.obeyed(blocks) for r in reqs)})",
                "509.1c",
            )
