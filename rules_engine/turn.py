"""Turn structure and priority (rules 500-514, 117): steps, turn-based actions, passing priority.

Before a player receives priority the game "settles": state-based actions are checked until none apply,
then waiting triggered abilities go on the stack, and this repeats (rule 117.5).

This module is the top of the rules procedures: importing it imports ``effects``, whose handlers the
interpreter (``interpreter.run``) finds by name whenever anything resolves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine import (
    colorchoice,  # noqa: F401  (registers "choose a color", rule 608.2d, with the interpreter)
    combat,
    combat_effects,  # noqa: F401  (registers "can't block this turn", rule 509.1b, with the interpreter)
    eachtarget,  # noqa: F401  (registers "for each target ...", rules 601.2c, 608.2b, with the interpreter)
    edicts,  # noqa: F401  (registers the edict effect, rule 701.21a, with the interpreter)
    effects,
    fromhand,  # noqa: F401  (registers "put up to N permanent cards from your hand onto the battlefield", 110.4a)
    granted,  # noqa: F401  (registers "target creature gains [an ability]", rule 613.1f)
    handreveal,  # noqa: F401  (registers "pay any amount of life", "reveals N cards from their hand", 119.4, 701.20a)
    ifyoudo,  # noqa: F401  (registers "you may sacrifice it. If you do", rule 608.2c, with the interpreter)
    layers,
    looking,  # noqa: F401  (registers look_at_top and reveal_until, rules 608.2c, 701.20a)
    maydiscard,  # noqa: F401  (registers "you may discard a card. If you do, ...", rule 608.2c)
    ontop,  # noqa: F401  (registers "put ... on top of your library", rule 401.4, with the interpreter)
    sba,
    spare,  # noqa: F401  (registers "chooses up to two creatures, then sacrifices the rest", rule 701.21a)
    stack,
    tapping,
    teams,
    triggers,
    winning,  # noqa: F401  (registers "you win the game", rule 104.2b)
)
from rules_engine import log as narr
from rules_engine.errors import EngineLoop, IllegalAction, ScriptError
from rules_engine.events import Event, TurnHistory
from rules_engine.vocabulary import STEPS

if TYPE_CHECKING:
    from rules_engine.objects import GameObject
    from rules_engine.state import GameState as Game



def settle(game: Game) -> None:
    for obj in game.battlefield:  # who has controlled it (a hideaway card may be looked at by them)
        obj.seen_by.add(game.controller(obj))
    for _ in range(100):
        sba.check(game)
        triggers.collect_state_triggers(game)  # rule 603.8
        if not triggers.put_on_stack(game):
            return
    raise EngineLoop("triggered abilities did not settle (rule 117.5)")


def give_priority(game: Game, player: str) -> None:
    settle(game)
    game.priority = player


def take_priority(game: Game, player: str) -> None:
    """An action by ``player``: the holder passing first is implied if ``player`` has not passed yet."""
    if game.priority == player:
        return
    if player in game.passed or game.priority is None:
        raise IllegalAction(f"у игрока {narr.player(player)} нет приоритета", "117.1")
    game.passed.add(game.priority)
    game.priority = player


def after_action(game: Game, player: str) -> None:
    """Rule 117.3c: after casting or activating, the same player receives priority."""
    game.passed.clear()
    give_priority(game, player)


def pass_priority(game: Game, player: str) -> None:
    take_priority(game, player)
    game.passed.add(player)
    others = [p for p in game.apnap() if p not in game.passed and not game.players[p].lost]  # 800.4a
    if others:
        game.priority = others[0]
        return
    game.passed.clear()
    if game.stack:
        stack.resolve_top(game)
        give_priority(game, game.active)
    else:
        advance_step(game)


PHASES = {
    "untap": "beginning",
    "upkeep": "beginning",
    "draw": "beginning",
    "main1": "main1",
    "beginning_of_combat": "combat",
    "declare_attackers": "combat",
    "declare_blockers": "combat",
    "first_strike_damage": "combat",
    "combat_damage": "combat",
    "end_of_combat": "combat",
    "main2": "main2",
    "end": "ending",
    "cleanup": "ending",
}


def empty_pools(game: Game, current: str, nxt: str) -> None:
    """Rule 500.4: mana empties at the end of each step and phase. Under the pre-2009 rules (the ``mana_burn``
    option) pools emptied only when a phase ended, and each unused mana cost 1 life (rule 300.3 of the time)."""
    if game.options.mana_burn and PHASES[current] == PHASES[nxt]:
        return
    for p in game.players.values():
        unused = sum(p.mana_pool.values()) + len(p.restricted_mana)
        if unused and game.options.mana_burn:
            p.life -= unused
            game.log(f"Ожог маны: {narr.player(p.name)} теряет {unused} жизни (жизнь: {p.life})")
        p.mana_pool.clear()
        p.restricted_mana.clear()  # rule 106.6 mana empties as any other (500.4)


def advance_step(game: Game) -> None:
    """Go to the next step and perform its turn-based actions (rule 500.2)."""

    current = game.step
    nxt = STEPS[(STEPS.index(current) + 1) % len(STEPS)]
    if nxt == "declare_attackers":
        forced = combat.must_attack(game, game.active)
        if forced:  # rule 508.1d: declaring no attackers disobeys an "attacks each combat if able" requirement
            raise IllegalAction(
                f"{narr.obj(game, forced[0])} атакует в каждом бою, если может: объявите атаку", "508.1d"
            )
    if current == "declare_attackers" and not any(o.attacking is not None for o in game.battlefield):
        nxt = "end_of_combat"  # rule 508.8
    elif current == "declare_attackers":
        combat.check_requirements(game, [])  # rule 509.1c: declaring no blockers may disobey a block requirement
    if nxt == "first_strike_damage" and not combat.has_first_strike_step(game):
        nxt = "combat_damage"
    if current == "end_of_combat" and game.history.extra_combats:  # rule 500.8: an added phase follows this one
        game.history.extra_combats -= 1
        empty_pools(game, current, "main2")  # a phase ends (the 2007 rules emptied pools between phases only)
        combat.end_combat(game)
        game.log("Начинается дополнительная фаза боя (правило 500.8)")
        enter_step(game, "beginning_of_combat")
        triggers.collect(game, Event("step", step="beginning_of_combat", player=game.active))
        give_priority(game, game.active)
        return
    empty_pools(game, current, nxt)
    if current == "end_of_combat":
        combat.end_combat(game)
    if current == "cleanup":
        _new_turn(game)
        return
    enter_step(game, nxt)
    if nxt == "cleanup":
        _cleanup(game)
        return
    triggers.collect(game, Event("step", step=nxt, player=game.active))  # "that player": whose step it is
    give_priority(game, game.active)


def enter_step(game: Game, step: str) -> None:
    game.step = step
    game.touch()  # "unblocked" begins with the declare blockers step (509.1h): characteristics may change
    game.log(f"— {narr.STEP_NAMES[step]} ({narr.player(game.active)}) —")
    if step == "draw":  # rule 504.1; each player of the active team draws (805.4b), in APNAP order (805.6a)
        for player in teams.active_players(game):
            if teams.in_game(game, player):
                effects.draw_card(game, player)
    elif step == "first_strike_damage":
        game.first_strike_step = True
        combat.combat_damage(game, first=True, split=True)
    elif step == "combat_damage":
        combat.combat_damage(game, first=False, split=game.first_strike_step)
    elif step == "end_of_combat":
        game.first_strike_step = False
        game.first_strikers = set()


def _cleanup(game: Game) -> None:
    """Rule 514: damage wears off and "until end of turn" effects end."""
    for obj in game.battlefield:
        obj.damage = 0
        obj.deathtouch_damage = False
        obj.regeneration_shields = 0
    layers.end_of_turn_cleanup(game)
    game.log("Повреждения удалены со всех перманентов, эффекты «до конца хода» закончились")
    settle(game)
    if game.stack:  # rule 514.3a: something triggered; players get priority and another cleanup follows
        give_priority(game, game.active)
        return
    advance_step(game)


def _new_turn(game: Game) -> None:
    game.active = teams.next_turn(game)  # the next player (team, 805.4) in turn order still in the game
    game.turn += 1
    game.loyalty_used.clear()
    game.history = TurnHistory()  # conditions on "this turn" look at the new turn only
    layers.end_until_next_turn(game)  # rule 611.2a: "until your next turn"
    # delayed triggers with a stated duration "this turn" end with it (rule 603.7b)
    game.delayed_triggers = [d for d in game.delayed_triggers if not d.this_turn]
    for p in game.players.values():
        p.land_plays = 0
        p.extra_land_plays = 0  # rule 305.2: an effect "this turn" ends with the turn
    game.step = "untap"
    game.log(f"=== Ход {game.turn}: {narr.player(game.active)} ===")
    for obj in game.battlefield:  # rule 502.3: each active player untaps their permanents (805.4)
        if teams.is_active(game, game.controller(obj)):
            if obj.skips_next_untap:  # "doesn't untap during its controller's next untap step": this one (502.3)
                obj.skips_next_untap = False
                game.log(f"{narr.obj(game, obj)} не разворачивается")
            elif _static_keeps_tapped(game, obj):
                game.log(f"{narr.obj(game, obj)} не разворачивается (статическая способность)")
            else:
                tapping.untap(game, obj)
            obj.steady_controller = game.controller(obj)
    game.touch()
    advance_step(game)


def _static_keeps_tapped(game: Game, obj: GameObject) -> bool:
    """A static ability "enchanted creature doesn't untap during its controller's untap step" (rules 502.3,
    611.3a): it applies as long as its source is on the battlefield and the permanent matches, checked anew at
    each untap step, and it uses nothing up (unlike the one-shot ``doesnt_untap``). So does a lasting effect of a
    resolved ability ("for as long as you control Icefall Regent", 611.2b: ended ones are gone from the game)."""
    game.chars(obj)  # lapsed "for as long as" effects end as the characteristics are computed (aslong)
    lasting = any(e.layer == "untap" and e.kind == "doesnt_untap" and obj.oid in e.affected for e in game.effects)
    return lasting or bool(combat.statics_affecting(game, obj, "doesnt_untap"))


def advance_to(game: Game, step: str) -> None:
    """Everyone passes until ``step`` begins (resolving whatever is on the stack on the way)."""
    if step not in STEPS:
        raise ScriptError(f"нет шага {step!r}")
    if game.step == step:
        return
    for _ in range(200):
        pass_priority(game, game.priority or game.active)
        if game.step == step:
            return
    raise ScriptError(f"не удалось дойти до шага {step}")
