"""Combat effects of resolving spells and abilities: "other creatures that player controls can't block this turn"
(rule 509.1b) and "after this phase, there is an additional combat phase" (500.8).

The effect is one continuous effect of no layer lasting this turn (611.2a), on the creatures the reference names as
it resolves (Mark for Death: every creature of that player but the target). ``combat.check_blocker`` reads it as
blockers are declared; a creature already blocking stays blocking (506.4a).
"""

from __future__ import annotations

from typing import Any

from rules_engine import log as narr
from rules_engine import triggers
from rules_engine.effects import objects, players
from rules_engine.events import Event
from rules_engine.interpreter import Context, effect
from rules_engine.objects import ContinuousEffect


@effect("additional_combat_phase")
def _additional_combat(ctx: Context, v: Any) -> None:
    """Rule 500.8: "after this phase, there is an additional combat phase" — it follows the combat phase in progress
    (or the next one this turn); attacking in it is not required."""
    ctx.game.history.extra_combats += 1
    ctx.game.log("После этой фазы следует дополнительная фаза боя (правило 500.8)")


@effect("block_also")
def _block_also(ctx: Context, v: dict[str, Any]) -> None:
    """``{what: REF, attacker: REF}``: an effect makes that creature block that attacking creature too (it is not
    declared, so no restriction is checked). The block triggers see it: "blocks" only if it wasn't blocking
    (509.3a), "becomes blocked" only if the attacker wasn't blocked (509.3c), one "blocks a creature" and "becomes
    blocked by a creature" (509.3b, 509.3d), and "blocks two or more" if it now blocks that many (509.3e)."""
    game = ctx.game
    blockers, attackers = objects(ctx, v["what"]), objects(ctx, v["attacker"])
    if not blockers or not attackers or attackers[0].attacking is None or not game.chars(blockers[0]).is_("Creature"):
        return
    blocker, attacker = blockers[0], attackers[0]
    if attacker.oid in blocker.blocking:
        return
    before, was_blocked = len(blocker.blocking), attacker.blocked
    blocker.blocking = [*blocker.blocking, attacker.oid]
    attacker.blocked = True
    game.touch()
    game.log(f"{narr.obj(game, blocker)} блокирует и {narr.obj(game, attacker)}")
    if before == 0:
        triggers.collect(game, Event("blocks", obj=blocker, player=game.controller(blocker)))
    triggers.collect(game, Event("blocks_creature", obj=blocker, target=attacker))
    if not was_blocked:
        triggers.collect(game, Event("becomes_blocked", obj=attacker, player=game.controller(attacker)))
    triggers.collect(game, Event("becomes_blocked_by", obj=attacker, target=blocker))
    triggers.collect(game, Event("blocking_count", obj=blocker, amount=before + 1, target=before))


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
    """``{what: REF, except: REF}``: those creatures (but the excepted ones) can't block this turn. A group
    (``{all: FILTER}``, "creatures without flying", "creatures target player controls") is read as blockers are
    declared, so a creature that enters or loses flying later is in it (611.2c locks only effects that change
    characteristics or control); a target or another single object is that object."""
    game = ctx.game
    spared = {o.oid for o in objects(ctx, v["except"])} if "except" in v else set()
    what = v.get("what", "target")
    data: dict[str, Any] = {}
    chosen: list[Any] = []
    if isinstance(what, dict) and "all" in what:
        whose = players(ctx, what["of"]) if "of" in what else [ctx.controller]
        if not whose:
            return
        data = {"filter": what["all"], "you": whose[0], "except": sorted(spared)}
        text = "существа группы (состав определяется при объявлении блокирующих)"
    else:
        chosen = [o for o in objects(ctx, what) if o.oid not in spared]
        if not chosen:
            return
        text = ", ".join(narr.obj(game, o) for o in chosen)
    game.effects.append(
        ContinuousEffect(
            layer="combat", kind="cant_block", data=data, timestamp=game.new_timestamp(),
            affected=frozenset(o.oid for o in chosen), duration="end_of_turn", source_oid=ctx.source.oid,
            controller=ctx.controller,
        )
    )
    game.log(f"Не могут блокировать в этом ходу: {text}")
