"""Player actions a scenario can script, each checked for legality before anything changes.

``perform(game, kind, player, params)`` raises ``IllegalAction`` when the action breaks a rule (and leaves
the game as it was), ``DecisionMissing`` when the game needed a decision the scenario did not script.
"""

from __future__ import annotations

from typing import Any

from rules_engine import combat, copies, landplays, playfrom, spending, stack, teams, triggers, turn
from rules_engine import log as narr
from rules_engine import targets as tg
from rules_engine.errors import DecisionMissing, IllegalAction, ScriptError
from rules_engine.events import Event
from rules_engine.game import Game
from rules_engine.mana import parse_cost

ACTIONS = (
    "cast",
    "activate",
    "mana",
    "play_land",
    "turn_face_up",
    "attack",
    "block",
    "pass",
    "resolve",
    "advance",
)


def perform(game: Game, kind: str, player: str | None, params: dict[str, Any]) -> None:
    if game.winner is not None:
        raise ScriptError("игра окончена")
    if kind == "pass":
        turn.pass_priority(game, player or game.priority or game.active)
    elif kind == "resolve":
        _resolve(game, params.get("resolve"))
    elif kind == "advance":
        turn.advance_to(game, str(params["advance"]))
    elif kind == "cast":
        who = _who(game, player)
        turn.take_priority(game, who)
        stack.cast(game, who, str(params["cast"]), params)
        turn.after_action(game, who)
    elif kind in ("activate", "mana"):
        who = _who(game, player)
        turn.take_priority(game, who)
        stack.activate(game, who, str(params[kind]), params)
        if kind == "activate":
            turn.after_action(game, who)
    elif kind == "play_land":
        who = _who(game, player)
        _play_land(game, who, str(params["play_land"]))
        turn.after_action(game, who)
    elif kind == "turn_face_up":
        who = _who(game, player)
        turn.take_priority(game, who)
        _turn_face_up(game, who, str(params["turn_face_up"]), params)
        turn.after_action(game, who)
    elif kind == "attack":
        _attack(game, _who(game, player), params["attack"], params.get("pay_with"))
    elif kind == "block":
        _block(game, _who(game, player), params["block"], params.get("pay_with"))
    else:
        raise ScriptError(f"unknown action {kind!r}")


def _who(game: Game, player: str | None) -> str:
    return player or game.priority or game.active


def _resolve(game: Game, count: Any) -> None:
    """Everyone passes in succession until the top object (``count`` objects, or ``all``) has resolved."""
    if not game.stack:
        raise ScriptError("стек пуст: разрешать нечего")
    times = 1 if count is None or isinstance(count, bool) else (10**6 if count == "all" else int(count))
    for _ in range(times):
        if not game.stack:
            if count == "all":
                return
            raise ScriptError("стек пуст: разрешать нечего")
        top = game.stack[-1]
        for _ in range(len(game.order) + 1):
            turn.pass_priority(game, game.priority or game.active)
            if not any(item is top for item in game.stack):
                break


def _play_land(game: Game, player: str, ref: str) -> None:
    hand = [o for o in game.players[player].hand if ref in (o.card.ref, o.card.definition.name)]
    if not hand:  # "you may play lands from among cards exiled with ...": the normal rules of 305.1-305.2 apply
        exiled = playfrom.find(game, player, ref)
        if exiled is None:
            playfrom.refuse(game, player, ref, land=True)  # rule 305.1: a land elsewhere needs a permission
            raise ScriptError(f"нет карты {ref!r} в руке")
        hand = [exiled[0]]
    if not game.chars(hand[0]).is_("Land"):
        raise IllegalAction(f"{narr.obj(game, hand[0])} — не земля: ее нельзя сыграть как землю", "305.1")
    if not teams.is_active(game, player):  # 805.4c: each player of the active team
        raise IllegalAction("землю можно сыграть только в свой ход", "305.3")
    if not stack.sorcery_timing(game, player):
        raise IllegalAction("землю играют в свою главную фазу при пустом стеке", "305.1")
    if game.players[player].land_plays >= landplays.allowance(game, player):
        raise IllegalAction("в этом ходу земля уже сыграна", "305.2")
    game.players[player].land_plays += 1
    game.log(f"{narr.player(player)} играет землю {narr.obj(game, hand[0])}")
    new = game.move(hand[0], "battlefield", controller=player)
    new.steady_controller = None


def _turn_face_up(game: Game, player: str, ref: str, params: dict[str, Any]) -> None:
    """Special action (rules 702.36d, 701.31b): pay the morph cost, or a manifested creature card's mana cost.

    It does not use the stack and can't be responded to; the permanent stays the same object, keeps its tapped
    status and effects on it, and nothing "enters the battlefield".
    """
    found = [o for o in tg.find_objects(game, ref, "battlefield") if o.face_down]
    if not found and tg.find_objects(game, ref):  # a face-down spell, a card in another zone: not a permanent
        raise IllegalAction(f"{ref!r} — не перманент рубашкой вверх на поле битвы", "702.37e")
    if not found:
        raise ScriptError(f"нет перманента {ref!r} рубашкой вверх")
    if game.controller(found[0]) != player:
        raise IllegalAction(f"{narr.player(player)} не контролирует {narr.obj(game, found[0])}", "116.2b")
    obj = found[0]
    # 707.3, 708.10: it turns up as what its copy effects made it (a face-down copy of a morph has that morph)
    definition = copies.copiable_values(game, obj, face_down=False)
    morph_cost = definition.keywords.get("morph") or definition.keywords.get("megamorph")
    lost = _lost_abilities(game, obj)
    ways = []
    if morph_cost is not None and not lost:  # DTK ruling: without its abilities it has no morph cost
        ways.append("morph")
    if obj.manifested and "Creature" in definition.types and definition.cost is not None:
        ways.append("mana_cost")
    if not ways:
        raise IllegalAction(f"{narr.obj(game, obj)} нельзя перевернуть рубашкой вниз", _face_up_rule(obj))
    via = params.get("via")
    if via is None:
        if len(ways) > 1:
            raise DecisionMissing(
                "перевернуть за стоимость Оборотня или за мана-стоимость? (via: morph|mana_cost)"
            )
        via = ways[0]
    if via not in ways:
        raise IllegalAction(f"так перевернуть нельзя: {via}", _face_up_rule(obj))
    cost = parse_cost(str(morph_cost)) if via == "morph" else definition.cost
    assert cost is not None
    # rule 106.6: turning face up is a special action (116.2b), not an ability: only mana allowed for it pays
    purpose = spending.Purpose("morph" if via == "morph" else "manifest", obj)
    units = spending.pay(game, player, cost, purpose, params.get("pay"))
    obj.face_down = False
    obj.transformed = False  # a manifested double-faced card turns its front face up
    obj.manifested = False
    if via == "morph" and "megamorph" in definition.keywords:
        obj.counters["+1/+1"] += 1
    game.touch()
    game.log(f"{narr.player(player)} переворачивает рубашкой вниз {narr.obj(game, obj)} (особое действие)")
    megamorph = via == "morph" and "megamorph" in definition.keywords
    game.log(narr.payment(player, "стоимость Мегаоборотня" if megamorph else narr.ALTERNATIVES[via], cost, units))
    if via == "morph" and "megamorph" in definition.keywords:
        game.log(f"На {narr.obj(game, obj)} кладется жетон +1/+1 (Мегаоборотень)")
    # "when this is turned face up" triggers on the face-up permanent, which now has its abilities (rule 708.8:
    # nothing "enters the battlefield")
    triggers.collect(game, Event("turned_face_up", obj=obj, player=player))


def _face_up_rule(obj: Any) -> str:
    """A manifested permanent turns face up by 701.40b (a creature card, for its mana cost), a morph by 702.37e."""
    return "701.40b" if obj.manifested else "702.37e"


def _lost_abilities(game: Game, obj: Any) -> bool:
    return any(e.kind == "lose_abilities" and obj.oid in e.affected for e in game.effects)


def _mana_for_costs(game: Game, refs: Any) -> None:
    """Rules 508.1g, 509.1f: mana abilities activated during the declaration, to pay its costs (508.1h, 509.1d);
    each permanent's controller activates its mana ability."""
    for ref in refs or []:
        found = tg.find_objects(game, str(ref), "battlefield")
        if not found:
            raise ScriptError(f"нет перманента {ref!r} на поле битвы")
        stack.activate(game, game.controller(found[0]), str(ref), {})


def _attack(game: Game, player: str, attacks: dict[str, Any], pay_with: Any = None) -> None:
    if game.stack or game.step not in ("main1", "beginning_of_combat"):
        raise IllegalAction("объявить атакующих можно в начале боя при пустом стеке", "508.1")
    if game.step == "main1":
        turn.advance_step(game)  # beginning of combat; triggers there would need to be dealt with first
        if game.stack:
            raise ScriptError("в начале боя что-то сработало: сначала разрешите это")
    turn.empty_pools(game, game.step, "declare_attackers")
    turn.enter_step(game, "declare_attackers")
    _mana_for_costs(game, pay_with)
    combat.declare_attackers(game, player, attacks)
    game.passed.clear()
    turn.give_priority(game, game.active)


def _block(game: Game, player: str, blocks: dict[str, Any], pay_with: Any = None) -> None:
    if game.stack or game.step != "declare_attackers":
        raise IllegalAction("блокирующих объявляют после шага объявления атакующих при пустом стеке", "509.1")
    _mana_for_costs(game, pay_with)
    combat.declare_blockers(game, player, blocks)
    turn.empty_pools(game, game.step, "declare_blockers")
    turn.enter_step(game, "declare_blockers")
    game.passed.clear()
    turn.give_priority(game, game.active)
