"""Casting spells, activating abilities, copies, and resolving the top of the stack (rules 601, 602, 608)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rules_engine import (
    copies,
    costs,
    dash,
    delve,
    divide,
    history,
    interpreter,
    loyalty_x,
    next_spell,
    phyrexian,
    playfrom,
    produce,
    rebound,
    reveal,
    spending,
    tapping,
    teams,
    triggers,
)
from rules_engine import life as lifetotal
from rules_engine import log as narr
from rules_engine import targets as tg
from rules_engine.cipher import encode
from rules_engine.errors import DecisionMissing, IllegalAction, ScriptError
from rules_engine.events import Event
from rules_engine.mana import ManaCost, format_units, parse_cost, scripted_payment
from rules_engine.objects import AbilityDef, Card, GameObject
from rules_engine.stackobjects import StackAbility

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game

SORCERY_STEPS = ("main1", "main2")
_ZONE_FROM = {"exile": "изгнание", "graveyard": "кладбище", "library": "библиотека"}


def spell_ability(obj: GameObject) -> AbilityDef | None:
    return next((a for a in obj.definition.abilities if a.kind == "spell"), None)


def spell_spec(obj: GameObject) -> dict[str, Any]:
    """The part of the spell that resolves: its effect and targets (of the chosen mode if modal)."""
    ability = spell_ability(obj)
    if ability is None:
        return {}
    if "modes" in ability.spec and obj.modes:
        return combine_modes([ability.spec["modes"][i] for i in obj.modes])
    if "modes" in ability.spec:
        return dict(ability.spec["modes"][obj.mode or 0])
    return dict(ability.spec)


def combine_modes(modes: list[dict[str, Any]]) -> dict[str, Any]:
    """Several chosen modes as one spec: targets concatenated, effects in printed order (re-indexed)."""
    targets: list[Any] = []
    effect: list[Any] = []
    for mode in modes:
        offset = len(targets)
        targets.extend(mode.get("targets", []))
        effect.append(_shift_targets(mode["effect"], offset))
    return {"targets": targets, "effect": effect}


def _shift_targets(spec: Any, offset: int) -> Any:
    if isinstance(spec, str) and spec.startswith("target") and (spec == "target" or spec[6:].isdigit()):
        return f"target{int(spec[6:] or 0) + offset}"
    if isinstance(spec, list):
        return [_shift_targets(item, offset) for item in spec]
    if isinstance(spec, dict):
        return {k: _shift_targets(v, offset) for k, v in spec.items()}
    return spec


def sorcery_timing(game: Game, player: str) -> bool:
    return teams.is_active(game, player) and game.step in SORCERY_STEPS and not game.stack  # 805.5a


WITHOUT_PAYING_NO_ALTERNATIVE = "разыгрывая «без уплаты мана-стоимости», нельзя заплатить альтернативную стоимость"


def cast(game: Game, player: str, ref: str, params: dict[str, Any]) -> GameObject:
    """Cast a spell from hand (rule 601.2): validate everything first, then move, pay and announce."""
    hand = [o for o in game.players[player].hand if ref in (o.card.ref, o.card.definition.name)]
    if hand:
        return cast_object(game, player, hand[0], params)
    exiled = playfrom.find(game, player, ref)  # "you may play that card": from exile, by the normal rules
    if exiled is None:
        playfrom.refuse(game, player, ref)  # rule 601.3: a card elsewhere needs a permission
        raise ScriptError(f"у игрока {narr.player(player)} нет в руке карты {ref!r}")
    card_obj, permission = exiled
    playfrom.check_spell_limit(game, player, card_obj, permission)
    spell = cast_object(game, player, card_obj, params)
    playfrom.note_cast(game, permission)
    return spell


def _check_x_floor(card_obj: GameObject, x: int, without_paying: bool) -> None:
    """ "X can't be 0" (``x_at_least``): such a value can't be announced (601.2b); cast without paying its mana
    cost, the only legal X is 0 (107.3b), so the spell can't be cast at all (Mind Grind 2)."""
    for ability in card_obj.definition.abilities:
        if ability.kind == "cost" and ability.name == "x_at_least" and x < int(ability.spec["n"]):
            if without_paying:
                raise IllegalAction("без уплаты мана-стоимости X может быть только 0, а здесь X не может быть 0",
                                    "107.3b")
            raise IllegalAction(f"X не может быть меньше {ability.spec['n']}", "601.2b")


def cast_object(
    game: Game, player: str, card_obj: GameObject, params: dict[str, Any], during_resolution: bool = False
) -> GameObject:
    """Cast ``card_obj`` from its zone; ``during_resolution``: as part of an effect (hideaway, cipher), when the
    timing permissions of its card type do not apply (LRW hideaway 4, GTC cipher 7)."""
    half = _chosen_half(game, card_obj, params)
    if half is None:
        return _cast(game, player, card_obj, params, during_resolution)
    # rule 709.3: the half is chosen before the spell goes on the stack, and only that half is evaluated to see if
    # it can be cast (709.3a): timing, costs, cost modifiers and targets see the half's characteristics alone
    card_obj.half = half
    game.touch()
    try:
        return _cast(game, player, card_obj, params, during_resolution)
    finally:
        card_obj.half = None  # the card left (a new object on the stack) or stays where it was, whole again (709.4)
        game.touch()


def _chosen_half(game: Game, card_obj: GameObject, params: dict[str, Any]) -> int | None:
    """The index of the half of a split card named by ``half:`` (709.3); None for any other card."""
    halves = card_obj.card.definition.halves
    name = params.get("half")
    if not halves:
        if name is not None:
            raise ScriptError(f"{narr.obj(game, card_obj)} не двойная (split) карта: половину выбрать нельзя")
        return None
    if name is None:
        names = ", ".join(h.name for h in halves)
        raise DecisionMissing(f"нужно выбрать, какую половину {narr.obj(game, card_obj)} разыграть (half: {names})")
    found = [i for i, h in enumerate(halves) if str(name) in (h.name, h.name_ru)]
    if not found:
        raise ScriptError(f"у {narr.obj(game, card_obj)} нет половины {name!r}")
    return found[0]


def _cast(
    game: Game, player: str, card_obj: GameObject, params: dict[str, Any], during_resolution: bool
) -> GameObject:
    chars = game.chars(card_obj)
    face_down = bool(params.get("face_down"))
    if chars.is_("Land"):
        raise IllegalAction("землю не разыгрывают как заклинание", "305.9")
    instant_speed = chars.is_("Instant") or "flash" in chars.keywords or during_resolution
    if (face_down or not instant_speed) and not sorcery_timing(game, player):
        raise IllegalAction(
            f"{narr.obj(game, card_obj)} можно разыграть только в свою главную фазу при пустом стеке", "117.1a"
        )
    if not casting_allowed_now(game, card_obj):
        raise IllegalAction(f"{narr.obj(game, card_obj)} можно разыграть только во время боя", "601.3")
    ability = spell_ability(card_obj)
    mode = None
    modes: tuple[int, ...] = ()
    if ability is not None and "modes" in ability.spec and not face_down:
        chosen = params.get("mode")
        if chosen is None:
            raise DecisionMissing(f"нужно выбрать режим заклинания {narr.obj(game, card_obj)} (mode:)")
        count = int(ability.spec.get("choose", 1))
        picked = [int(c) - 1 for c in (chosen if isinstance(chosen, list) else [chosen])]
        if len(picked) != count or len(set(picked)) != count:
            raise IllegalAction(f"нужно выбрать ровно {count} разных режима(ов)", "700.2a")
        if any(not 0 <= m < len(ability.spec["modes"]) for m in picked):
            raise ScriptError(f"нет режима {chosen}")
        if count == 1:
            mode = picked[0]
        else:
            modes = tuple(sorted(picked))  # rule 700.2: modes take effect in printed order
    # cost (601.2f): mana cost or an alternative cost, plus additional costs, X chosen
    if face_down and params.get("without_paying"):  # morph's {3} is an alternative cost (rule 118.9a)
        raise IllegalAction(WITHOUT_PAYING_NO_ALTERNATIVE, "118.9a")
    if face_down:
        if "morph" not in chars.keywords and "megamorph" not in chars.keywords:
            raise IllegalAction("рубашкой вверх можно разыграть только карту с Оборотнем", "702.37c")
        cost: ManaCost = parse_cost("{3}")
    elif params.get("without_paying"):
        if params.get("alternative"):  # rule 118.9a: no alternative cost when casting without paying
            raise IllegalAction(WITHOUT_PAYING_NO_ALTERNATIVE, "118.9a")
        # rule 107.3b: paying neither the mana cost nor a cost with X, the only legal choice for X is 0
        if chars.cost is not None and chars.cost.has_x and params.get("x") not in (None, 0):
            raise IllegalAction(f"без уплаты мана-стоимости X может быть только 0, не {params['x']}", "107.3b")
        cost = ManaCost()
    elif params.get("alternative") == "dash":  # rule 702.109a: an alternative cost
        if "dash" not in chars.keywords:
            raise IllegalAction("у этой карты нет Рывка", "702.109a")
        cost = parse_cost(str(chars.keywords["dash"]))
    elif params.get("alternative") == "evoke":
        if "evoke" not in chars.keywords:
            raise IllegalAction("у этой карты нет Вызывания", "702.74a")
        cost = parse_cost(str(chars.keywords["evoke"]))
    elif params.get("alternative"):
        alt = _named_cost(card_obj, "alternative_costs", str(params["alternative"]))
        cost = parse_cost(alt.get("cost"))
    else:
        cost = chars.cost or ManaCost()
    x = 0
    purpose = spending.Purpose("spell", card_obj, has_x=cost.has_x, face_down=face_down)  # rule 106.6
    if cost.has_x:
        if params.get("x") is None:
            raise DecisionMissing(f"нужно выбрать X для {narr.obj(game, card_obj)} (x:)")
        x = int(params["x"])
        cost = cost.with_x(x)
        # rules 601.2a-c, 202.3e: the card is already the spell, with X chosen, as its targets are chosen
        # ("protection from mana value 3 or greater" sees the X); a rejected cast restores the whole game
        card_obj.x = x
        game.touch()
    _check_x_floor(card_obj, x, bool(params.get("without_paying")))
    # rule 601.2f: the total cost includes the additional costs ("As an additional cost to cast this spell, ...")
    extra = None if face_down else additional_cost(card_obj)
    if extra is not None:
        cost = cost + extra.mana
    # rule 601.2b: how each Phyrexian symbol will be paid is announced before the total cost is determined
    announced = cost
    cost, life = phyrexian.announce(
        cost, params.get("phyrexian"), game.players[player].life, game.players[player].mana_pool, params.get("pay"),
        modified=any(cost_modifiers(game, player, card_obj, face_down, alternative=params.get("alternative"))),
    )
    probe = GameObject(
        oid=-1,
        card=card_obj.card,
        zone="stack",
        controller=player,
        timestamp=0,
        mode=mode,
        face_down=face_down,
        modes=modes,
        half=card_obj.half,
    )
    specs = [] if face_down else spell_spec(probe).get("targets", [])
    if divide.is_variable(specs):  # rule 601.2c: "any number of targets": as many as are chosen
        specs = divide.fix_count(specs, len(params.get("targets") or []))
    chosen_targets = tg.choose(game, specs, params.get("targets"), player, card_obj, None) if specs else []
    division: tuple[int, ...] = ()
    if not face_down and "divide" in spell_spec(probe):  # rule 601.2d: the division is announced with the targets
        division = divide.announce(
            game, player, card_obj, spell_spec(probe)["divide"], params.get("divide"), len(chosen_targets), x
        )
    elif params.get("divide") is not None:
        raise ScriptError(f"{narr.obj(game, card_obj)} ничего не распределяет (divide:)")
    if params.get("targets") and not specs:
        raise ScriptError(f"у {narr.obj(game, card_obj)} нет целей")
    # rule 601.2f after 601.2c: the total cost is determined once the targets are chosen ("spells that target you")
    cost = total_cost(game, player, card_obj, cost, params.get("hybrid"), face_down, chosen_targets,
                      params.get("alternative"))
    cost, delved = delve.reduce(game, player, card_obj, cost, params.get("delve"))  # rule 702.66a
    conspirators = _conspire(game, player, card_obj, params.get("conspire"))
    revealed = reveal.choose(game, player, card_obj, params.get("reveal"))  # an optional additional cost (118.8)
    free, allowed = spending.usable(game, player, purpose)  # mana "spend only to cast ..." where it may (106.6)
    units = scripted_payment(cost, free + allowed, params.get("pay"))
    if extra is not None:  # rule 118.3: without what the additional cost needs, the spell can't be cast
        costs.check(game, extra, card_obj, player)
    # everything checked: do it
    spending.spend(game, player, units, purpose)
    delve.exile(game, player, card_obj, delved)
    if card_obj.is_copy:  # a copy cast from exile (cipher) is not a card: it just goes on the stack
        game.zone_list(card_obj).remove(card_obj)
        spell = game.new_object(card_obj.card, "stack", player, is_copy=True)
        game.touch()
    else:
        cast_from = card_obj.zone
        spell = game.move(card_obj, "stack", controller=player, face_down=face_down)
        spell.cast_from = cast_from
        spell.half = card_obj.half  # rule 709.3b: on the stack only the half being cast exists
        game.touch()
    spell.mode, spell.x, spell.targets, spell.mana_spent = mode, x, chosen_targets, Counter(units)
    spell.modes = modes
    spell.division = division
    game.touch()  # rule 202.3e: its mana value on the stack counts the X chosen
    if params.get("alternative"):
        spell.paid_additional += (str(params["alternative"]),)
    for index, creatures in conspirators:
        for creature in creatures:
            tapping.tap(game, creature)
        spell.paid_additional += ("conspire" if index == 1 else f"conspire#{index}",)
    what = "копию заклинания" if spell.is_copy else "заклинание"
    where = f" из зоны «{_ZONE_FROM.get(card_obj.zone, card_obj.zone)}»" if card_obj.zone != "hand" else ""
    paid = " без уплаты мана-стоимости" if params.get("without_paying") else ""
    game.log(
        f"{narr.player(player)} разыгрывает {what} {narr.obj(game, spell)}{where}{paid}"
        + _targets_text(game, chosen_targets)
    )
    if not params.get("without_paying") or units:
        game.log(narr.payment(player, narr.cost_kind(params, face_down, card_obj.definition), cost, units))
    if life:  # rule 119.4: paying life is losing it
        lifetotal.pay(game, player, life)
        game.log(phyrexian.log_text(narr.player(player), announced, life))
    if extra is not None:  # rule 601.2h: the non-mana parts are paid with the rest of the total cost
        game.log(f"{narr.player(player)} платит дополнительную стоимость: {narr.cost_text(additional_text(card_obj))}")
        costs.pay_nonmana(game, extra, spell, player)
    for _index, creatures in conspirators:
        game.log(
            f"{narr.player(player)} платит дополнительную стоимость Заговора: поворачивает "
            + " и ".join(narr.obj(game, c) for c in creatures)
        )
    reveal.finish(game, player, spell, revealed)  # rule 601.2i: what holds as casting finishes
    next_spell.used_up(game, player)  # "the next spell you cast this turn costs {1} less": this was it
    triggers.collect(game, Event("cast", obj=spell, player=player))
    triggers.targeted(game, chosen_targets, player)
    return spell


def total_cost(
    game: Game, player: str, card_obj: GameObject, cost: ManaCost, hybrid: Any, face_down: bool = False,
    targets: list[Any] | None = None, alternative: str | None = None,
) -> ManaCost:
    """Rule 601.2f: the total cost is the mana cost or alternative cost plus increases, minus reductions.

    When a reduction or increase applies to a cost with hybrid symbols, the way each one will be paid must be
    chosen first (``hybrid: [G, R, 2]``, in the order of the symbols): a reduction of coloured (generic) mana
    then applies only if that choice includes the colour (generic mana) — SHM hybrid 3, monocolored hybrid 4.
    """
    from rules_engine.mana import Symbol

    increases, reductions = cost_modifiers(game, player, card_obj, face_down, targets, alternative)
    if not increases and not reductions:
        return cost
    symbols = list(cost.symbols)
    hybrids = [i for i, s in enumerate(symbols) if s.kind in ("hybrid", "mono_hybrid")]
    if hybrids:
        if hybrid is None:
            raise DecisionMissing("стоимость изменяется: укажите, как будет оплачен каждый гибридный символ (hybrid:)")
        chosen = [str(c).upper() for c in (hybrid if isinstance(hybrid, list) else [hybrid])]
        if len(chosen) != len(hybrids):
            raise ScriptError(f"hybrid: нужно {len(hybrids)} значения(й)")
        for i, pick in zip(hybrids, chosen, strict=True):
            s = symbols[i]
            if pick in s.colors:
                symbols[i] = Symbol("colored", (pick,))
            elif s.kind == "mono_hybrid" and pick == str(s.amount):
                symbols[i] = Symbol("generic", amount=s.amount)
            else:
                raise IllegalAction(f"символ {s} нельзя оплатить как {pick}", "107.4e")
    for extra in increases:
        symbols += list(extra.symbols)
    generic = sum(s.amount for s in symbols if s.kind == "generic")
    others = [s for s in symbols if s.kind != "generic"]
    for less in reductions:
        for s in less.symbols:
            if s.kind == "generic":
                generic = max(0, generic - s.amount)
            else:
                hit = next((o for o in others if o.kind in ("colored", "colorless") and o.colors == s.colors), None)
                if hit is not None:
                    others.remove(hit)
    total = ManaCost(((Symbol("generic", amount=generic),) if generic else ()) + tuple(others))
    game.log(f"Итоговая стоимость {narr.obj(game, card_obj)} с увеличениями и уменьшениями: {total}")
    return total


def cost_modifiers(
    game: Game, player: str, card_obj: GameObject, face_down: bool = False, targets: list[Any] | None = None,
    alternative: str | None = None,
) -> tuple[list[ManaCost], list[ManaCost]]:
    """The cost increases and reductions of static abilities that apply to casting ``card_obj`` (601.2f).

    Rule 708.4: a spell cast face down is turned face down before it is put onto the stack, so they see only the
    face-down spell's characteristics (708.2a: no name, no subtypes, no mana cost), never the card's.
    ``targets_you_or_yours`` ("spells that target you or a permanent you control") and ``targets_self`` ("spells
    that target [this permanent]") read the targets chosen (601.2c, before 601.2f); once per spell however many of
    its targets match. Without targets (``None``: not chosen yet) such a modifier is counted, so that the question
    "is the cost modified?" is asked safely. ``alternative: dash`` applies only while that alternative cost is paid
    ("Dash costs you pay cost {2} less", Warbringer, 601.2f); "the next spell you cast this turn costs {1} less" is
    a reduction of the turn (``next_spell``) that the player's next spell uses up."""
    from rules_engine.layers import matches

    if face_down:
        card_obj = GameObject(oid=-1, card=card_obj.card, zone="stack", controller=player, timestamp=0, face_down=True)

    increases: list[ManaCost] = []
    reductions: list[ManaCost] = []
    for source in game.ability_sources():  # permanents and emblems (rule 114.4)
        for ability in game.chars(source).abilities:
            kind = ability.spec.get("static") if ability.kind == "static" else None
            if kind not in ("cost_increase", "cost_reduction"):
                continue
            filt = dict(ability.spec.get("affects") or {})
            whose = filt.pop("controller", None)
            owner = game.controller(source)
            if (whose == "you" and player != owner) or (whose == "opponent" and player == owner):
                continue
            if filt.pop("targets_you_or_yours", False) and targets is not None and not _targets_player_or_theirs(
                game, targets, owner
            ):
                continue
            if filt.pop("targets_self", False) and targets is not None and not any(
                getattr(t, "oid", None) == source.oid for t in targets
            ):
                continue  # "spells that target Icefall Regent": once however many of its targets it is (601.2f)
            if "alternative" in filt and filt.pop("alternative") != alternative:
                continue  # "dash costs you pay": only the cost being paid is one (601.2b, 601.2f)
            if not matches(game, card_obj, game.chars(card_obj), filt, player, source):
                continue
            (increases if kind == "cost_increase" else reductions).append(parse_cost(str(ability.spec["value"])))
    reductions += next_spell.reductions(game, player)
    return increases, reductions


def _targets_player_or_theirs(game: Game, targets: list[Any], player: str) -> bool:
    """Whether a chosen target is ``player`` or a permanent that player controls ("you or yours")."""
    for t in targets:
        if getattr(t, "player", None) == player:
            return True
        obj = game.find(t.oid) if getattr(t, "oid", None) is not None else None
        if obj is not None and obj.zone == "battlefield" and game.controller(obj) == player:
            return True
    return False


def additional_text(card_obj: GameObject) -> str:
    """The additional costs of a spell as one cost string (``additional_costs: ["sacrifice a creature"]``)."""
    parts = [str(c) for a in card_obj.definition.abilities if a.kind == "cost" and a.name == "additional_costs"
             for c in a.spec["costs"]]
    return ", ".join(parts)


def additional_cost(card_obj: GameObject) -> costs.Cost | None:
    """Rule 118.8: what must be paid with the mana cost, parsed as the engine reads every cost."""
    text = additional_text(card_obj)
    return costs.parse(text) if text else None


def casting_allowed_now(game: Game, card_obj: GameObject) -> bool:
    """Restrictions other than the card type's timing: "cast this spell only during combat"."""
    from rules_engine.cards import COMBAT_STEPS

    restricted = any(a.kind == "cost" and a.name == "restriction" for a in card_obj.definition.abilities)
    return not restricted or game.step in COMBAT_STEPS


def _named_cost(obj: GameObject, key: str, name: str) -> dict[str, Any]:
    for ability in obj.definition.abilities:
        if ability.kind == "cost" and ability.name == key:
            for item in ability.spec["costs"]:
                if item.get("name") == name:
                    return dict(item)
    raise ScriptError(f"у {obj.definition.name} нет альтернативной стоимости {name!r}")


def _conspire(game: Game, player: str, card_obj: GameObject, refs: Any) -> list[tuple[int, list[GameObject]]]:
    """Conspire payments: ``[A, B]`` pays the first instance; ``[[A, B], [], [C, D]]`` pays instances one by one
    (rule 502.78b of the time: each instance is paid separately and triggers on its own payment)."""
    if not refs:
        return []
    chars = game.chars(card_obj)
    instances = chars.keyword_count("conspire") + _granted_to_spells(game, player, card_obj, "conspire")
    if not instances:
        raise IllegalAction("у заклинания нет Заговора", "702.78a")
    groups = refs if all(isinstance(r, list) for r in refs) else [refs]
    if len(groups) > instances:
        raise IllegalAction(f"у заклинания {instances} способност(и) Заговора, оплат указано {len(groups)}", "702.78b")
    used: list[GameObject] = []
    payments = []
    for index, group in enumerate(groups, start=1):
        if not group:
            continue
        chosen = []
        for ref in group:
            found = [o for o in tg.find_objects(game, str(ref), "battlefield") if game.controller(o) == player]
            if not found or found[0].tapped or found[0] in chosen or found[0] in used:
                raise IllegalAction(f"{ref!r}: нужно неповернутое существо под вашим контролем", "702.78a")
            if not (game.chars(found[0]).colors & chars.colors):
                raise IllegalAction(f"{ref!r} не имеет общего цвета с заклинанием", "702.78a")
            chosen.append(found[0])
        if len(chosen) != 2:
            raise IllegalAction("Заговор: нужно повернуть ровно два существа", "702.78a")
        used += chosen
        payments.append((index, chosen))
    return payments


def _granted_to_spells(game: Game, player: str, card_obj: GameObject, keyword: str) -> int:
    """Instances of ``keyword`` that static abilities give the spells their controller casts ("each red or green
    instant or sorcery spell you cast has conspire": a ``grant`` with ``affects: {zone: stack, ...}``). The card
    is already a spell on the stack as its costs are paid (601.2a, 601.2h), so such an instance can be paid for;
    whether it then triggers is read from the spell once it has become cast (Wort's sacrifice as a cost)."""
    from rules_engine.layers import matches

    if card_obj.zone == "stack":
        return 0  # already counted among its own characteristics
    count = 0
    for source in game.ability_sources():
        for ability in game.chars(source).abilities:
            if ability.kind != "static" or ability.spec.get("static") != "grant":
                continue
            filt = dict(ability.spec.get("affects") or {})
            granted = (ability.spec.get("value") or {}).get("keywords", [])
            if filt.pop("zone", None) != "stack" or keyword not in granted:
                continue
            whose = filt.pop("controller", None)
            owner = game.controller(source)
            if (whose == "you" and player != owner) or (whose == "opponent" and player == owner):
                continue
            if matches(game, card_obj, game.chars(card_obj), filt, player, source):
                count += 1
    return count


def _targets_text(game: Game, chosen: list[tg.Target]) -> str:
    if not chosen:
        return ""
    return "; цели: " + ", ".join(target_name(game, t) for t in chosen)


def target_name(game: Game, t: tg.Target) -> str:
    if t.player is not None:
        return narr.player(t.player)
    obj = game.find(t.oid) if t.oid is not None else None
    if obj is not None:
        return narr.obj(game, obj)
    snap = game.lki.get(t.oid) if t.oid is not None else None
    return narr.obj(game, snap) if snap is not None else "?"


def find_ability(game: Game, obj: GameObject, which: Any) -> AbilityDef:
    activated = [
        a
        for a in game.chars(obj).abilities
        if a.kind == "activated" and a.spec.get("zone", "battlefield") == obj.zone
    ]
    if which is None:
        if len(activated) == 1:
            return activated[0]
        raise DecisionMissing(f"у {narr.obj(game, obj)} несколько способностей: укажите ability:")
    if isinstance(which, int):
        if 1 <= which <= len(activated):
            return activated[which - 1]
    else:
        for a in activated:
            if a.name == which:
                return a
    raise ScriptError(f"у {narr.obj(game, obj)} нет способности {which!r}")


def activate(game: Game, player: str, ref: str, params: dict[str, Any]) -> None:
    """Activate an ability (rule 602); mana abilities resolve at once without the stack (rule 605)."""

    found = tg.find_objects(game, ref, "battlefield")
    if not found:  # abilities that work from the hand, such as bloodrush
        found = [
            o
            for o in tg.find_objects(game, ref, "hand")
            if o.owner == player
            and any(a.kind == "activated" and a.spec.get("zone") == "hand" for a in game.chars(o).abilities)
        ]
    if not found and tg.find_objects(game, ref):  # rule 113.6: a permanent's abilities work on the battlefield
        raise IllegalAction(f"способности {ref!r} действуют только на поле битвы", "113.6")
    if not found:
        raise ScriptError(f"нет перманента {ref!r} на поле битвы")
    obj = found[0]
    if obj.zone == "battlefield" and game.controller(obj) != player:
        raise IllegalAction(f"{narr.player(player)} не контролирует {narr.obj(game, obj)}", "602.2")
    ability = find_ability(game, obj, params.get("ability"))
    spec = ability.spec
    cost = costs.parse(str(spec.get("activated", "")))
    loyalty_x_value = None
    if cost.loyalty_x:  # "[−X]": X announced, then paid as that many loyalty counters removed (107.3a, 606.4)
        cost, spec, loyalty_x_value = loyalty_x.announce(game, obj, cost, spec, params)
    is_mana = "mana" in spec
    if cost.loyalty is not None or spec.get("timing") == "sorcery":
        if not sorcery_timing(game, player):
            rule = "606.3" if cost.loyalty is not None else "602.5d"
            raise IllegalAction("эту способность можно активировать только как волшебство", rule)
        if cost.loyalty is not None and obj.oid in game.loyalty_used:
            raise IllegalAction("способность верности этого мироходца уже активирована в этом ходу", "606.3")
    # rule 602.5b: "Activate only during your turn": at any time in it, with priority — in response too
    if spec.get("timing") == "your_turn" and not teams.is_active(game, player):
        raise IllegalAction("эту способность можно активировать только во время своего хода", "602.5b")
    # rule 602.5b: "Activate only if ..." (formidable: creatures you control have total power 8 or greater)
    if spec.get("condition") and not triggers.check_condition(game, spec["condition"], obj, None):
        raise IllegalAction("условие активации этой способности не выполнено", "602.5b")
    x = loyalty_x_value if loyalty_x_value is not None else 0
    if any(part.variable for part in cost.objects):  # "remove one or more counters": X announced first (601.2b)
        cost, spec, x = _announce_counter_x(cost, spec, params)
    costs.check(game, cost, obj, player)
    mana = cost.mana
    if mana.has_x:
        if params.get("x") is None:
            raise DecisionMissing("нужно выбрать X (x:)")
        x = int(params["x"])
        mana = mana.with_x(x)
    pool = game.players[player].mana_pool
    announced = mana  # rule 602.2b, 601.2b: Phyrexian symbols of an activation cost are announced the same way
    mana, life = phyrexian.announce(
        mana, params.get("phyrexian"), game.players[player].life, pool, params.get("pay"), modified=False,
        other_life=cost.pay_life,
    )
    specs = spec.get("targets", [])
    if divide.is_variable(specs):  # rules 602.2b, 601.2c: "up to two target cards": as many as are announced
        specs = divide.fix_count(specs, len(params.get("targets") or []))
    chosen = tg.choose(game, specs, params.get("targets"), player, obj, None) if specs else []
    purpose = spending.Purpose("ability", obj, has_x=cost.mana.has_x)  # rule 106.6
    units = spending.pay(game, player, mana, purpose, params.get("pay"))
    if life:
        lifetotal.pay(game, player, life)
        game.log(phyrexian.log_text(narr.player(player), announced, life))
    snap = game.snapshot(obj)
    if cost.loyalty is not None:
        game.loyalty_used.add(obj.oid)
    costs.pay_nonmana(game, cost, obj, player)
    if cost.discard_self:
        game.log(f"{narr.player(player)} сбрасывает {narr.obj(game, obj)} (стоимость)")
        game.move(obj, "graveyard")
    if cost.sacrifice_self:
        game.log(f"{narr.player(player)} приносит в жертву {narr.obj(game, obj)} (стоимость)")
        game.move(obj, "graveyard")
    if is_mana:
        if "mana_times" in spec:  # rule 106.1, 605.1a: "Add {G} for each ...": counted as the mana is added
            added = _mana_times(game, player, obj, snap, spec)
        else:
            added = produce.produced(game, player, spec["mana"], snap)
        if cost.tap:  # rule 106.12: tapped for mana — replacement effects on the mana produced (106.12b)
            added = produce.tapped_for_mana(game, player, game.find(obj.oid) or obj, added)
        if "spend_only" in spec:  # rule 106.6: "Spend this mana only to cast creature spells"
            spending.add(game, player, added, spec["spend_only"], narr.obj(game, snap))
        else:
            game.players[player].mana_pool.update(added)
        game.log(
            f"{narr.player(player)} активирует способность маны {narr.obj(game, snap)} "
            f"({narr.cost_text(str(spec.get('activated', '')))}): {format_units(added)}"
        )
        if units:
            game.log(narr.payment(player, "стоимость способности", mana, units))
        return
    item = StackAbility(
        sid=game.new_id(),
        ability=ability,
        controller=player,
        source=snap,
        source_oid=obj.oid,
        targets=chosen,
        x=x,
        spec=spec,
    )
    game.stack.append(item)
    game.log(
        f"{narr.player(player)} активирует способность «{narr.ability_label(ability)}» объекта {narr.obj(game, snap)}"
        + _targets_text(game, chosen)
    )
    game.log(narr.payment(player, "стоимость способности", narr.cost_text(str(spec.get("activated", ""))), units))
    triggers.targeted(game, chosen, player)
    # rule 602.2: the ability is activated once its costs are paid (a mana ability never gets here, 605.3b): the
    # source as it is now ("an ability of equipped creature": still equipped, not sacrificed for the cost)
    live = game.find(obj.oid)
    triggers.collect(game, Event("activated", obj=live, lki=snap, player=player, target=item))


def copy_ability(game: Game, original: StackAbility, controller: str) -> StackAbility:
    """Rule 707.10: a copy of an activated or triggered ability goes on the stack with the original's choices (its
    targets, X) unless new targets are chosen (707.10c); it isn't activated, and whoever copies it controls it."""
    copy = replace(original, sid=game.new_id(), controller=controller, targets=list(original.targets))
    specs = original.spec.get("targets", [])
    if specs:
        answer = game.decide("new_targets", controller, "новые цели для копии (или same)", original.source)
        if answer not in ("same", None):
            source = game.find(original.source_oid) or original.source
            copy.targets = tg.choose(game, specs, answer, controller, source, None)
    game.stack.append(copy)
    game.log(
        f"Создается копия способности «{narr.ability_label(original.ability)}» объекта "
        f"{narr.obj(game, original.source)} под контролем игрока {narr.player(controller)}"
        + _targets_text(game, copy.targets)
    )
    return copy


def copy_spell(
    game: Game, spell: GameObject, controller: str, exceptions: dict[str, Any] | None = None
) -> GameObject:
    """A copy of a spell on the stack (rule 707.10): not cast, same choices unless new targets are chosen. It is
    defined by the spell's copiable values (613.1, 707.2; a copy of a copy copies the copy), with the copy
    effect's exceptions ("except the copy is red", 707.9b)."""
    values = copies.with_exceptions(copies.copiable_values(game, spell), exceptions)
    card = Card(ref=f"{spell.card.ref} (copy)", definition=values, owner=controller)
    copy = game.new_object(card, "stack", controller, is_copy=True)
    copy.mode, copy.x, copy.targets, copy.modes = spell.mode, spell.x, list(spell.targets), spell.modes
    copy.division = spell.division  # rule 707.10: the number of targets and the division can't be changed
    copy.half = spell.half  # a copy of a half of a split card is that half (707.10, 709.3b)
    copy.mana_spent = Counter()  # no mana was spent to cast a copy (SHM hybrid-bonus ruling 4)
    copy.paid_additional = reveal.copied(spell.paid_additional)  # 707.10: costs paid, not the cast itself
    specs = divide.fix_count(spell_spec(copy).get("targets", []), len(spell.targets))  # the same number (707.10)
    if specs:
        answer = game.decide("new_targets", controller, "новые цели для копии (или same)", spell)
        if answer not in ("same", None):
            copy.targets = tg.choose(game, specs, answer, controller, spell, None)
    game.log(f"Создается копия заклинания {narr.obj(game, spell)}" + _targets_text(game, copy.targets))
    return copy


def resolve_top(game: Game) -> None:
    """Resolve the top object of the stack (rule 608)."""
    item = game.stack[-1]
    if isinstance(item, GameObject):
        _resolve_spell(game, item)
    else:
        _resolve_ability(game, item)
    game.touch()


def _legal_targets(
    game: Game, specs: list[Any], chosen: list[tg.Target], controller: str, source: tg.Source
) -> list[bool]:
    return tg.legal_flags(game, specs, chosen, controller, source)


def _resolve_spell(game: Game, spell: GameObject) -> None:
    controller = game.controller(spell)
    spec = {} if spell.face_down else spell_spec(spell)
    specs = divide.fix_count(spec.get("targets", []), len(spell.targets))
    legal = _legal_targets(game, specs, spell.targets, controller, spell)
    game.log(f"Разрешается заклинание {narr.obj(game, spell)}")
    if specs and not any(legal):
        game.log(f"Все цели заклинания {narr.obj(game, spell)} недопустимы: оно не производит эффекта")
        _finish_spell(game, spell, "graveyard")
        return
    chars = game.chars(spell)
    if chars.types & {"Creature", "Artifact", "Enchantment", "Planeswalker", "Land"}:
        if spell.is_copy:
            game.stack.remove(spell)
            token_card = spell.card.__class__(spell.card.ref, spell.card.definition, spell.card.owner, True)
            game.new_object(token_card, "battlefield", controller)
            return
        paid = spell.paid_additional
        new = game.move(
            spell, "battlefield", controller=controller, face_down=spell.face_down, paid=paid, spell_x=spell.x
        )
        dash.on_resolve(game, spell, new)
        if "enchant" in spec and spell.targets and legal and legal[0]:
            new.attached_to = spell.targets[0].oid
        return
    ctx = interpreter.Context(game, controller, spell, list(spell.targets), legal, spell.x, None, spell)
    ctx.division = spell.division
    if "effect" in spec:
        interpreter.run(ctx, spec["effect"])
    cipher = "cipher" in chars.keywords and not spell.is_copy and spell in game.stack
    if cipher and encode(game, spell, controller):
        return
    if rebound.applies(game, spell):
        rebound.exile(game, spell)
        return
    _finish_spell(game, spell, "graveyard")


def _finish_spell(game: Game, spell: GameObject, zone: str) -> None:
    if spell.zone != "stack" or spell not in game.stack:
        return
    if spell.is_copy:
        game.stack.remove(spell)
        game.touch()
        return
    game.move(spell, zone)


def _resolve_ability(game: Game, item: StackAbility) -> None:
    game.stack.remove(item)
    game.touch()
    source_live = game.find(item.source_oid)
    game.log(f"Разрешается {game.describe_stack_item(item)}")
    if item.triggered and not triggers.check_condition(
        game, item.spec.get("condition"), item.source, item.event
    ):
        game.log("Условие «если» больше не выполняется: способность ничего не делает")
        return
    specs = divide.fix_count(item.spec.get("targets", []), len(item.targets))
    legal = _legal_targets(game, specs, item.targets, item.controller, source_live or item.source)
    if specs and not any(legal):
        game.log("Все цели способности недопустимы: она не производит эффекта")
        return
    history.note_resolution(game, item.source_oid, item.ability)  # it resolves now (608.2), "may" or not
    ctx = interpreter.Context(game, item.controller, item.source, list(item.targets), legal, item.x, item.event)
    ctx.about = item.about
    ctx.ability = item.ability
    ctx.division = item.division
    if item.spec.get("optional"):
        answer = game.decide(
            "may", item.controller, f"использовать «{narr.ability_label(item.ability)}»?", item.source
        )
        if answer not in (True, "yes"):
            game.log(f"{narr.player(item.controller)} решает не использовать способность")
            return
    interpreter.run(ctx, item.spec["effect"])


def _mana_times(game: Game, player: str, obj: GameObject, snap: Any, spec: dict[str, Any]) -> Counter[str]:
    """ "Add {G} for each +1/+1 counter on this": the ``add_mana`` effect with ``times``, run at once (a mana
    ability doesn't use the stack, 605.3a) on the source as it is (as it last existed, if its cost moved it).
    The mana is taken back out of the pool and returned: the caller adds it like any mana ability's, free or kept
    apart by a spending restriction (106.6)."""
    pool = game.players[player].mana_pool
    before = Counter(pool)
    ctx = interpreter.Context(game, player, obj if obj.zone == "battlefield" else snap)
    interpreter.run(ctx, {"add_mana": {"mana": spec["mana"], "times": spec["mana_times"]}})
    added = Counter(pool) - before
    pool -= added
    return added


def _announce_counter_x(cost: Any, spec: dict[str, Any], params: dict[str, Any]) -> tuple[Any, dict[str, Any], int]:
    """Rules 601.2b, 602.2b: "remove one or more +1/+1 counters" — the player announces how many (X, at least one)
    before targets are chosen; "the number of counters removed this way" in a target's filter is that X, so the
    ability on the stack keeps its filters with X put in (checked again as it resolves, 608.2b)."""
    from dataclasses import replace

    if params.get("x") is None:
        raise DecisionMissing("нужно выбрать, сколько жетонов убрать (x:)")
    x = int(params["x"])
    if x < 1:
        raise IllegalAction("нужно убрать один или более жетонов", "601.2b")
    parts = tuple(replace(p, n=x, variable=False) if p.variable else p for p in cost.objects)
    if "targets" in spec:
        spec = {**spec, "targets": _with_x(spec["targets"], x)}
    return replace(cost, objects=parts), spec, x


def _with_x(node: Any, x: int) -> Any:
    """The value X put into the filters of the targets ("power less than or equal to X")."""
    if isinstance(node, dict):
        return {k: x if v == "X" and k.endswith(("_at_most", "_at_least")) else _with_x(v, x) for k, v in node.items()}
    if isinstance(node, list):
        return [_with_x(v, x) for v in node]
    return node
