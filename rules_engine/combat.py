"""Combat: declaring attackers and blockers with their restrictions, and combat damage (rule 506-511).

Creatures attack a player or a planeswalker. Damage assignment among several blockers, or with trample, is
a scripted decision (``assign``); a creature with 0 or less power assigns no combat damage.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rules_engine import (
    combat_costs,
    costs,
    defending,
    protection,
    replacement,
    requirements,
    tapping,
    teams,
    triggers,
)
from rules_engine import log as narr
from rules_engine import targets as tg
from rules_engine.errors import IllegalAction, ScriptError
from rules_engine.events import Event
from rules_engine.layers import matches
from rules_engine.objects import GameObject

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game


def statics_affecting(game: Game, obj: GameObject, *kinds: str) -> list[tuple[GameObject, dict[str, Any]]]:
    """The static abilities of those kinds that apply to ``obj`` now, with their sources (rule 604.1)."""
    out = []
    for source in game.ability_sources():  # permanents and emblems (rule 114.4)
        for ability in game.chars(source).abilities:
            if ability.kind != "static" or ability.spec["static"] not in kinds:
                continue
            filt = ability.spec.get("affects") or {"self": True}
            if matches(game, obj, game.chars(obj), filt, game.controller(source), source):
                out.append((source, ability.spec))
    return out


def _restricted(game: Game, obj: GameObject, what: str) -> bool:
    """Static abilities such as "creatures your opponents control with counters on them can't attack"; with
    ``value: {unless_control: FILTER}``, "... unless you control another Giant" (checked as it is declared only)."""
    return any(
        not _controls(game, source, (spec.get("value") or {}).get("unless_control"))
        for source, spec in statics_affecting(game, obj, f"cant_{what}", "cant_attack_or_block")
    )


def _controls(game: Game, source: GameObject, filt: dict[str, Any] | None) -> bool:
    """Whether the controller of ``source`` controls a permanent matching ``filt`` (None: never)."""
    if filt is None:
        return False
    you = game.controller(source)
    return any(
        game.controller(o) == you and matches(game, o, game.chars(o), filt, you, source) for o in game.battlefield
    )


def find_one(game: Game, ref: str, zone: str = "battlefield") -> GameObject:
    found = tg.find_objects(game, ref, zone)
    if len(found) != 1:
        raise ScriptError(f"{ref!r}: " + ("нет такого перманента" if not found else "неоднозначно"))
    return found[0]


def declare_attackers(game: Game, player: str, attacks: dict[str, Any]) -> None:
    """Rule 508.1: validate the whole declaration, then tap attackers and trigger "whenever attacks"."""

    if not teams.is_active(game, player):
        raise IllegalAction("атакует только активный игрок", "508.1")
    chosen: list[tuple[GameObject, str | int]] = []
    for ref, target in attacks.items():
        obj = find_one(game, ref)
        # the active team has one combined attack (805.10b): either of its players' creatures
        attacker = game.controller(obj) if teams.is_active(game, game.controller(obj)) else player
        defenders = teams.defending_players(game, attacker)
        if str(target) in game.players:  # rule 508.1b / 802.3: a defending player for each attacking creature
            if str(target) not in defenders:
                raise IllegalAction(f"{narr.player(str(target))} — не защищающийся игрок: атаковать нельзя", "508.1b")
            defender = str(target)
            attacked: str | int = defender
        else:
            walker = find_one(game, str(target))
            defender = game.controller(walker)
            if defender not in defenders or not game.chars(walker).is_("Planeswalker"):
                raise IllegalAction(f"{target!r} нельзя атаковать", "508.1b")
            attacked = walker.oid
        problem = _cant_attack(game, obj, attacker, defender)
        if problem is not None:
            raise problem
        chosen.append((obj, attacked))
    _check_alone(game, [obj for obj, _ in chosen], "attack")
    declared = {obj.oid for obj, _ in chosen}
    for obj in must_attack(game, player):  # rule 508.1d: the requirements obeyed must be as many as possible
        if obj.oid not in declared:
            raise IllegalAction(f"{narr.obj(game, obj)} атакует в каждом бою, если может", "508.1d")
    combat_costs.pay(game, [obj for obj, _ in chosen], "attack")  # rule 508.1h, once the declaration is legal
    for obj, target in chosen:
        obj.attacking = target
        game.touch()  # "attacking creatures you control have lifelink": a filter reads the combat status
        if "vigilance" not in game.chars(obj).keywords:
            tapping.tap(game, obj)
        whom = narr.player(target) if isinstance(target, str) else narr.obj(game, game.find(target) or obj)
        game.log(f"{narr.obj(game, obj)} атакует: {whom}")
    for obj, _ in chosen:
        triggers.collect(game, Event("attacks", obj=obj))


def _despite_defender(game: Game, obj: GameObject) -> bool:
    """ "Can attack this turn as though it didn't have defender" applies to this very object (702.3b)."""
    return any(e.kind == "attack_despite_defender" and obj.oid in e.affected for e in game.effects)


def _cant_attack(game: Game, obj: GameObject, player: str, defender: str) -> IllegalAction | None:
    """Why ``obj`` can't attack ``defender`` (rules 508.1a, 508.1c), or None when it can."""
    chars = game.chars(obj)
    if game.controller(obj) != player or not chars.is_("Creature"):
        return IllegalAction(f"{narr.obj(game, obj)} не может атаковать: это не ваше существо", "508.1a")
    if obj.tapped:
        return IllegalAction(f"{narr.obj(game, obj)} повернут и не может атаковать", "508.1a")
    if costs.summoning_sick(game, obj):
        return IllegalAction(f"{narr.obj(game, obj)} не может атаковать: «болезнь вызова»", "302.6")
    if "defender" in chars.keywords:
        despite = _despite_defender(game, obj)  # "as though it didn't have defender": this turn only
        if not despite:
            return IllegalAction(f"{narr.obj(game, obj)} не может атаковать: Защитник", "702.3b")
    if _restricted(game, obj, "attack"):
        return IllegalAction(f"{narr.obj(game, obj)} не может атаковать", "508.1c")
    # rule 508.1c: "can't attack you or planeswalkers you control" (you: the controller of that ability)
    if any(game.controller(src) == defender for src, _ in statics_affecting(game, obj, "cant_attack_you")):
        return IllegalAction(
            f"{narr.obj(game, obj)} не может атаковать игрока {narr.player(defender)} и его мироходцев", "508.1c"
        )
    return None


def must_attack(game: Game, player: str) -> list[GameObject]:
    """Rule 508.1d: the creatures of the attacking player (team) with "attacks each combat if able" that are
    able to attack some defending player."""
    return [
        o
        for o in game.battlefield
        if teams.is_active(game, game.controller(o))
        and statics_affecting(game, o, "attacks_each_combat")
        and not combat_costs.has_cost(game, o, "attack")  # no requirement obliges a player to pay (508.1d)
        and any(
            _cant_attack(game, o, game.controller(o), d) is None
            for d in teams.defending_players(game, game.controller(o))
        )
    ]


def defending_player_of(game: Game, attacker: GameObject) -> str | None:
    """The player an attacking creature attacks, or the controller of the planeswalker it attacks (802.2a)."""
    return defending.player_attacked(game, attacker.attacking)


def may_block(game: Game, blocker_controller: str, attacker: GameObject) -> bool:
    """Rule 802.4a: a defending player's creatures block only creatures attacking that player or their
    planeswalkers; in a shared-turns game the defending team blocks any attacker (805.10d)."""
    defender = defending_player_of(game, attacker)
    return defender is not None and defender in teams.team_of(game, blocker_controller)


def declare_blockers(game: Game, player: str, blocks: dict[str, Any]) -> None:
    """Rule 509.1: the defending players' blocks, checked as a whole (805.10d: the defending team has one
    combined block; 802.4: each defending player blocks what attacks them), then the block triggers (509.3)."""
    chooser = block_chooser(game)
    if chooser is not None and player != chooser:  # "you choose how those creatures block" (Brutal Hordechief)
        raise IllegalAction(f"как блокируют существа оппонентов, выбирает {narr.player(chooser)}", "509.1")
    if chooser is None and teams.is_active(game, player):
        raise IllegalAction("блокирует защищающийся игрок", "509.1")
    chosen: list[tuple[GameObject, list[GameObject]]] = []
    for ref, attacker_refs in blocks.items():
        attackers = [
            find_one(game, str(a))
            for a in (attacker_refs if isinstance(attacker_refs, list) else [attacker_refs])
        ]
        chosen.append((find_one(game, ref), attackers))
    check_blocks(game, chosen)
    check_requirements(game, chosen)
    combat_costs.pay(game, [blocker for blocker, attackers in chosen if attackers], "block")  # rule 509.1d
    for blocker, attackers in chosen:
        blocker.blocking = [a.oid for a in attackers]
        for attacker in attackers:
            attacker.blocked = True
            game.log(f"{narr.obj(game, blocker)} блокирует {narr.obj(game, attacker)}")
    _block_triggers(game, chosen)


def block_chooser(game: Game) -> str | None:
    """The attacking player who chooses how the defending players' creatures block this turn ("you choose how
    those creatures block", ``choose_blocks``; the latest such effect), or None: the defending players do (509.1)."""
    choosers = [
        e for e in game.effects if e.kind == "choose_blocks" and teams.is_active(game, e.controller)
    ]
    return max(choosers, key=lambda e: e.timestamp).controller if choosers else None


def _block_triggers(game: Game, chosen: list[tuple[GameObject, list[GameObject]]]) -> None:
    """Rule 509.3: "blocks" once per blocker (509.3a), "blocks a creature" once per attacker it blocks (509.3b),
    "becomes blocked" once per attacker (509.3c), "becomes blocked by a creature" once per blocker (509.3d)."""
    blocked: dict[int, GameObject] = {}
    for blocker, attackers in chosen:
        triggers.collect(game, Event("blocks", obj=blocker, player=game.controller(blocker)))
        triggers.collect(game, Event("blocking_count", obj=blocker, amount=len(attackers), target=0))  # 509.3e
        for attacker in attackers:
            triggers.collect(game, Event("blocks_creature", obj=blocker, target=attacker))
            blocked.setdefault(attacker.oid, attacker)
    for attacker in blocked.values():
        triggers.collect(game, Event("becomes_blocked", obj=attacker, player=game.controller(attacker)))
        for blocker, attackers in chosen:
            if attacker in attackers:
                triggers.collect(game, Event("becomes_blocked_by", obj=attacker, target=blocker))


def check_requirements(game: Game, chosen: list[tuple[GameObject, list[GameObject]]]) -> None:
    """Rule 509.1c: the declaration (``[]``: no blocks at all) obeys as many block requirements as it can."""

    def legal(trial: list[tuple[GameObject, list[GameObject]]]) -> bool:
        return _allowed(lambda: check_blocks(game, trial))

    def may(blocker: GameObject, attacker: GameObject | None) -> bool:
        if combat_costs.has_cost(game, blocker, "block"):  # a requirement never obliges paying a cost (509.1c)
            return False
        if attacker is None:
            return _allowed(lambda: check_blocker(game, blocker))
        return _allowed(lambda: check_block(game, blocker, attacker))

    requirements.check_block_requirements(game, chosen, legal, may)


def _allowed(check: Callable[[], None]) -> bool:
    try:
        check()
    except IllegalAction:
        return False
    return True


def check_blocks(game: Game, chosen: list[tuple[GameObject, list[GameObject]]]) -> None:
    """Rules 509.1a-b: each block is legal, and so are the numbers of blockers (menace, "except by N or more")."""
    for blocker, attackers in chosen:
        check_blocker(game, blocker)
        for attacker in attackers:
            check_block(game, blocker, attacker)
        _check_blocked_number(game, blocker, attackers)
    _check_alone(game, [blocker for blocker, attackers in chosen if attackers], "block")
    _check_blocker_counts(game, chosen)


def _check_alone(game: Game, declared: list[GameObject], what: str) -> None:
    """Rules 506.5, 508.1c, 509.1b: "can't attack or block alone" — a creature that would be the only one
    declared as an attacker (or blocker) can't be; two such creatures may be declared together. Checked only
    as they are declared: what happens to the other creature afterwards doesn't matter."""
    if len(declared) != 1:
        return
    alone = declared[0]
    if statics_affecting(game, alone, f"cant_{what}_alone", "cant_attack_or_block_alone"):
        verb = "атаковать" if what == "attack" else "блокировать"
        raise IllegalAction(f"{narr.obj(game, alone)} не может {verb} в одиночку", "506.5")


def _check_blocked_number(game: Game, blocker: GameObject, attackers: list[GameObject]) -> None:
    """Rule 509.1a: each blocker blocks one attacking creature, unless an ability lets it block more ("can block
    an additional creature each combat": ``can_block_additional`` {n}; "can block any number of creatures")."""
    if len(attackers) <= 1 or statics_affecting(game, blocker, "can_block_any_number"):
        return
    allowed = 1 + sum(int(spec["value"]["n"]) for _, spec in statics_affecting(game, blocker, "can_block_additional"))
    if len(attackers) > allowed:
        raise IllegalAction(
            f"{narr.obj(game, blocker)} не может блокировать больше атакующих существ: "
            f"можно {allowed}, объявлено {len(attackers)}",
            "509.1a",
        )


def check_blocker(game: Game, blocker: GameObject) -> None:
    """Rule 509.1a: an untapped creature of a defending player, not under a "can't block" (509.1b)."""
    chars = game.chars(blocker)
    if teams.is_active(game, game.controller(blocker)) or not chars.is_("Creature"):
        raise IllegalAction(f"{narr.obj(game, blocker)} не может блокировать", "509.1a")
    if blocker.tapped:
        raise IllegalAction(f"{narr.obj(game, blocker)} повернут и не может блокировать", "509.1a")
    if _restricted(game, blocker, "block") or any(  # "other creatures that player controls can't block this turn"
        e.kind == "cant_block" and _forbidden(game, e.data, e.affected, blocker) for e in game.effects
    ):
        raise IllegalAction(f"{narr.obj(game, blocker)} не может блокировать", "509.1b")


def _forbidden(game: Game, data: dict[str, Any], affected: frozenset[int], blocker: GameObject) -> bool:
    """Whether a "can't block this turn" effect covers ``blocker`` now: its objects, or its group read now."""
    filt = data.get("filter")
    if filt is None:
        return blocker.oid in affected
    return blocker.oid not in data["except"] and matches(game, blocker, game.chars(blocker), filt, data["you"])


def check_block(game: Game, blocker: GameObject, attacker: GameObject) -> None:
    """Rules 509.1a-b: ``blocker`` may block ``attacker`` (evasion and block restrictions)."""
    chars = game.chars(blocker)
    owner_of_block = game.controller(blocker)
    if attacker.attacking is None:
        raise IllegalAction(f"{narr.obj(game, attacker)} не атакует", "509.1a")
    if not may_block(game, owner_of_block, attacker):
        raise IllegalAction(
            f"{narr.obj(game, blocker)} не может блокировать {narr.obj(game, attacker)}: оно атакует "
            "другого игрока",
            "802.4a",
        )
    achars = game.chars(attacker)
    akw = achars.keywords
    if "fear" in akw and not (chars.is_("Artifact") or "B" in chars.colors):
        raise IllegalAction(f"{narr.obj(game, blocker)} не может блокировать существо со Страхом", "702.36b")
    if "intimidate" in akw and not (chars.is_("Artifact") or chars.colors & game.chars(attacker).colors):
        raise IllegalAction(
            f"{narr.obj(game, blocker)} не может блокировать существо с Устрашением", "702.13b"
        )
    if ("shadow" in akw) != ("shadow" in chars.keywords):  # rule 702.28b: shadow blocks and is blocked by shadow
        raise IllegalAction(
            f"{narr.obj(game, blocker)} не может блокировать {narr.obj(game, attacker)} (Тень)", "702.28b"
        )
    if "skulk" in akw and (chars.power or 0) > (achars.power or 0):  # rule 702.118b: not by greater power
        raise IllegalAction(
            f"{narr.obj(game, blocker)} не может блокировать существо со Скрытностью: его сила больше", "702.118b"
        )
    walk = akw.get("landwalk")
    attacked = defending_player_of(game, attacker)  # the player it attacks (805.10e, 802.2a)
    if walk and any(  # landwalk looks at the land type, not the name (GTC dual lands 2)
        game.controller(o) == attacked and game.chars(o).is_("Land") and walk in game.chars(o).subtypes
        for o in game.battlefield
    ):
        raise IllegalAction(
            f"{narr.obj(game, attacker)} не может быть заблокировано "
            f"(Знание земель: {narr.subtypes_text([str(walk)])})",
            "702.14c",
        )
    if "flying" in akw and not ({"flying", "reach"} & set(chars.keywords)):
        raise IllegalAction(f"{narr.obj(game, blocker)} не может блокировать летающее существо", "702.9b")
    quality = protection.protection_from(game, game.chars(attacker), blocker)
    if quality is not None:  # rule 702.16f: not by creatures that have the stated quality
        raise IllegalAction(
            f"{narr.obj(game, blocker)} не может блокировать {narr.obj(game, attacker)} "
            f"({narr.protection_text(quality)})",
            "702.16f",
        )
    _check_block_restrictions(game, blocker, attacker, owner_of_block)


def _check_block_restrictions(game: Game, blocker: GameObject, attacker: GameObject, player: str) -> None:
    """Rule 509.1b: "can't be blocked [by FILTER]" on the attacker, "can block only FILTER" on the blocker."""
    for source, spec in statics_affecting(game, attacker, "cant_be_blocked"):
        by = (spec.get("value") or {}).get("by")
        if by is None or matches(game, blocker, game.chars(blocker), by, game.controller(source), source):
            raise IllegalAction(f"{narr.obj(game, attacker)} не может быть заблокировано", "509.1b")
    for source, spec in statics_affecting(game, blocker, "can_block_only"):
        only = spec["value"]["filter"]
        if not matches(game, attacker, game.chars(attacker), only, game.controller(source), source):
            raise IllegalAction(
                f"{narr.obj(game, blocker)} не может блокировать {narr.obj(game, attacker)}: ограничение блока",
                "509.1b",
            )


def _check_blocker_counts(game: Game, chosen: list[tuple[GameObject, list[GameObject]]]) -> None:
    """Menace (rule 702.111b) and "can't be blocked except by N or more / by more than N creatures" (509.1b)."""
    counts: dict[int, int] = {}
    by_id: dict[int, GameObject] = {}
    for _, attackers in chosen:
        for one in attackers:
            counts[one.oid] = counts.get(one.oid, 0) + 1
            by_id[one.oid] = one
    for oid, n in counts.items():
        attacker = by_id[oid]
        if "menace" in game.chars(attacker).keywords and n < 2:
            raise IllegalAction(
                f"{narr.obj(game, attacker)} (Угроза) не может быть заблокировано менее чем двумя существами",
                "702.111b",
            )
        for _, spec in statics_affecting(game, attacker, "min_blockers"):
            if n < int(spec["value"]["n"]):
                raise IllegalAction(
                    f"{narr.obj(game, attacker)} не может быть заблокировано менее чем {spec['value']['n']} существами",
                    "509.1b",
                )
        for _, spec in statics_affecting(game, attacker, "max_blockers"):
            if n > int(spec["value"]["n"]):
                raise IllegalAction(
                    f"{narr.obj(game, attacker)} не может быть заблокировано более чем {spec['value']['n']} "
                    "существами",
                    "509.1b",
                )


def remove_from_combat(game: Game, obj: GameObject) -> None:
    """Rule 506.4: it stops being an attacking, blocking, blocked or unblocked creature. The creatures it blocked
    stay blocked (509.1h) and those blocking it stay blocking creatures, but no combat damage passes between them."""
    if obj.attacking is None and not obj.blocking:
        return
    obj.attacking = None
    obj.blocking = []
    obj.blocked = False
    game.touch()
    game.touch()
    game.log(f"{narr.obj(game, obj)} удаляется из боя")


def has_first_strike_step(game: Game) -> bool:
    return any(
        ({"first_strike", "double_strike"} & set(game.chars(o).keywords))
        for o in game.battlefield
        if o.attacking is not None or o.blocking
    )


def _deals_in_step(game: Game, obj: GameObject, first: bool, split: bool) -> bool:
    """Rule 510.4: in the second step, the creatures that had neither first strike nor double strike as the first
    step began, and those that have double strike now. Gaining first strike after the first step does not stop a
    creature from dealing damage in the second; losing it does not let it deal damage twice (702.7c)."""
    kw = game.chars(obj).keywords
    if not split:
        return True
    if first:
        return "first_strike" in kw or "double_strike" in kw
    return obj.oid not in game.first_strikers or "double_strike" in kw


def combat_damage(game: Game, first: bool, split: bool) -> None:
    """Rule 510: assign all combat damage, then deal it simultaneously."""
    assignments: list[tuple[GameObject, Any, int]] = []
    if first:
        game.first_strikers = {
            o.oid
            for o in game.battlefield
            if (o.attacking is not None or o.blocking) and _deals_in_step(game, o, first=True, split=True)
        }
    for attacker in [o for o in game.battlefield if o.attacking is not None]:
        if not _deals_in_step(game, attacker, first, split):
            continue
        power = damage_value(game, attacker)
        if power <= 0:
            continue
        blockers = [b for b in game.battlefield if attacker.oid in b.blocking]
        defender: Any = attacker.attacking
        target_walker = game.find(defender) if isinstance(defender, int) else None
        if isinstance(defender, int) and (target_walker is None or target_walker.zone != "battlefield"):
            target_walker = None
        if isinstance(defender, str) and game.players[defender].left:
            continue  # rule 800.4e: no combat damage is assigned to a player who has left the game
        if not attacker.blocked:
            if isinstance(defender, str):
                assignments.append((attacker, defender, power))
            elif target_walker is not None:
                assignments.append((attacker, target_walker, power))
            continue
        trample = "trample" in game.chars(attacker).keywords
        if not blockers and not trample:
            continue
        if not blockers:  # rule 702.19d: all its damage to the player or planeswalker it attacks (no choice)
            recipient = defender if isinstance(defender, str) else target_walker
            if recipient is not None:
                assignments.append((attacker, recipient, power))
            continue
        if len(blockers) == 1 and not trample:
            assignments.append((attacker, blockers[0], power))
            continue
        answer = game.decide(
            "assign",
            game.controller(attacker),
            f"распределение {power} боевых повреждений {narr.obj(game, attacker)}",
            attacker,
        )
        assignments += _parse_assignment(
            game, attacker, answer, blockers, power, trample, defender, target_walker
        )
    for blocker in [o for o in game.battlefield if o.blocking]:
        if not _deals_in_step(game, blocker, first, split):
            continue
        power = damage_value(game, blocker)
        # rule 506.4: an attacker removed from combat is no longer one this creature deals combat damage to
        attackers = [a for a in game.battlefield if a.oid in blocker.blocking and a.attacking is not None]
        if power > 0 and len(attackers) == 1:
            assignments.append((blocker, attackers[0], power))
        elif power > 0 and attackers:
            assignments += _blocker_assignment(game, blocker, attackers, power)
    with game.simultaneously():
        for source, recipient, amount in assignments:
            replacement.deal_damage(game, source, recipient, amount, combat=True)


def damage_value(game: Game, obj: GameObject) -> int:
    """Rule 510.1a: a creature assigns combat damage equal to its power — or to its toughness under "each creature
    [you control] assigns combat damage equal to its toughness rather than its power" (its power is unchanged)."""
    chars = game.chars(obj)
    by_toughness = statics_affecting(game, obj, "assigns_damage_by_toughness")
    return (chars.toughness if by_toughness else chars.power) or 0


def _blocker_assignment(
    game: Game, blocker: GameObject, attackers: list[GameObject], power: int
) -> list[tuple[GameObject, Any, int]]:
    """Rule 510.1d: a creature blocking several attackers divides its combat damage among them (an ``assign``
    decision of its controller: a mapping attacker → damage summing to its power)."""
    answer = game.decide(
        "assign", game.controller(blocker), f"распределение {power} боевых повреждений {narr.obj(game, blocker)}",
        blocker,
    )
    if not isinstance(answer, dict) or sum(int(v) for v in answer.values()) != power:
        raise IllegalAction(f"распределение должно быть отображением с суммой {power}", "510.1d")
    out: list[tuple[GameObject, Any, int]] = []
    for ref, n in answer.items():
        hit = [a for a in attackers if ref in (a.card.ref, a.card.definition.name)]
        if not hit:
            raise IllegalAction(f"{narr.obj(game, blocker)} не блокирует {ref!r}", "510.1d")
        out.append((blocker, hit[0], int(n)))
    return out


def _parse_assignment(
    game: Game,
    attacker: GameObject,
    answer: Any,
    blockers: list[GameObject],
    power: int,
    trample: bool,
    defender: Any,
    walker: GameObject | None,
) -> list[tuple[GameObject, Any, int]]:
    if not isinstance(answer, dict) or sum(int(v) for v in answer.values()) != power:
        raise IllegalAction(f"распределение должно быть отображением с суммой {power}", "510.1a")
    out: list[tuple[GameObject, Any, int]] = []
    for ref, n in answer.items():
        if ref == defender or (walker is not None and ref in (walker.card.ref, walker.definition.name)):
            if not trample:
                raise IllegalAction("без Пробивного удара повреждения не достаются игроку", "510.1c")
            # rule 702.19c: lethal damage to every blocker first; with deathtouch, 1 damage is lethal (702.2c)
            deathtouch = "deathtouch" in game.chars(attacker).keywords
            left = [max(0, (game.chars(b).toughness or 0) - b.damage) for b in blockers]
            needed = sum(min(n, 1) if deathtouch else n for n in left)
            given = sum(int(v) for r, v in answer.items() if r != ref)
            if given < needed:
                raise IllegalAction("Пробивной удар: сначала смертельные повреждения блокирующим", "702.19b")
            out.append((attacker, walker if walker is not None else defender, int(n)))
            continue
        if ref in game.players:
            raise IllegalAction("существо, атакующее мироходца, не может нанести боевые повреждения игроку", "510.1b")
        hit = [b for b in blockers if ref in (b.card.ref, b.card.definition.name)]
        if not hit:
            raise IllegalAction(f"{ref!r} не блокирует {narr.obj(game, attacker)}", "510.1c")
        out.append((attacker, hit[0], int(n)))
    return out


def end_combat(game: Game) -> None:
    for obj in game.battlefield:
        obj.attacking = None
        obj.blocking = []
        obj.blocked = False
    game.touch()
