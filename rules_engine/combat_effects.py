"""Combat effects of resolving spells and abilities: "other creatures that player controls can't block this turn"
(rule 509.1b) and "after this phase, there is an additional combat phase" (500.8).

The effect is one continuous effect of no layer lasting this turn (611.2a), on the creatures the reference names as
it resolves (Mark for Death: every creature of that player but the target). ``combat.check_blocker`` reads it as
blockers are declared; a creature already blocking stays blocking (506.4a).
"""

from __future__ import annotations

from typing import Any

from rules_engine import log as narr
from rules_engine.effects import objects
from rules_engine.interpreter import Context, effect
from rules_engine.objects import ContinuousEffect


@effect("additional_combat_phase")
def _additional_combat(ctx: Context, v: Any) -> None:
    """Rule 500.8: "after this phase, there is an additional combat phase" — it follows the combat phase in progress
    (or the next one this turn); attacking in it is not required."""
    ctx.game.history.extra_combats += 1
    ctx.game.log("После этой фазы следует дополнительная фаза боя (правило 500.8)")


@effect("choose_blocks")
def _choose_blocks(ctx: Context, v: Any) -> None:
    """ "You choose how those creatures block" this turn: the controller declares the blocks of the defending
    players' creatures — all of them, those that weren't on the battlefield as this resolved too; every block must
    still be legal, and the requirements and restrictions are the same (509.1)."""
    game = ctx.game
    game.effects.append(
        ContinuousEffect(
            layer="combat", kind="choose_blocks", data={}, timestamp=game.new_timestamp(),
            duration="end_of_turn", source_oid=ctx.source.oid, controller=ctx.controller,
        )
    )
    game.log(f"В этом ходу {narr.player(ctx.controller)} выбирает, как блокируют существа оппонентов")


@effect("cant_block")
def _cant_block(ctx: Context, v: dict[str, Any]) -> None:
    """``{what: REF, except: REF}``: those creatures (but the excepted ones) can't block this turn."""
    game = ctx.game
    spared = {o.oid for o in objects(ctx, v["except"])} if "except" in v else set()
    chosen = [o for o in objects(ctx, v.get("what", "target")) if o.oid not in spared]
    if not chosen:
        return
    game.effects.append(
        ContinuousEffect(
            layer="combat", kind="cant_block", data={}, timestamp=game.new_timestamp(),
            affected=frozenset(o.oid for o in chosen), duration="end_of_turn", source_oid=ctx.source.oid,
            controller=ctx.controller,
        )
    )
    game.log(f"Не могут блокировать в этом ходу: {', '.join(narr.obj(game, o) for o in chosen)}")
