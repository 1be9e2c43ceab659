"""Replacement and prevention effects (CR 614-616) as one framework, and the events they modify.

An event is proposed before it happens (``Proposed``: damage, destruction, a zone change, how a permanent enters,
counters put on an object or given to a player, life gained, a card draw). ``replace`` finds the replacement and
prevention effects that apply to it (``Replacement``: static abilities of permanents, shields and one-shot effects
of resolved spells, the self-replacement effects of the resolving effect itself, the rules' own prevention by
protection) and applies them one at a time: self-replacement effects first (614.15, 616.1a), then the one the
affected player or the controller of the affected object chooses (616.1e: a scripted ``replacement`` decision),
each at most once to an event and the events it becomes (614.5), until none is left (616.1f). "Can't" effects are
not replacements (614.17): an event that can't happen does not happen. What is left is what happens:
``deal_damage`` then gives the damage its results (rule 120.3: wither and infect as -1/-1 counters, infect to a
player as poison counters, damage to a planeswalker as loss of loyalty).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from dataclasses import replace as copy_event
from functools import partial
from typing import TYPE_CHECKING, Any

from rules_engine import interpreter, life, protection, reveal, tapping, teams, triggers
from rules_engine import life as lifetotal
from rules_engine import log as narr
from rules_engine.errors import EngineError, IllegalAction
from rules_engine.events import Event
from rules_engine.layers import matches
from rules_engine.objects import AbilityDef, GameObject, Snapshot
from rules_engine.triggers import _snap_matches

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game

Recipient = str | GameObject  # a player name or a permanent
MAX_STEPS = 200  # replacements applied to one event; more means one applies itself again (614.5)


@dataclass
class Proposed:
    """An event that is about to happen (rule 614.1: replacement effects watch for it and modify it)."""

    kind: str  # damage, destroy, zone_change, enter, counters, gain_life, draw
    affected: Recipient  # the player or object the event affects (616.1: who chooses the order)
    source: GameObject | Snapshot | None = None  # of damage
    amount: int = 0  # damage, counters, life
    combat: bool = False
    counter: str = ""  # the kind of counter (counters events)
    from_zone: str = ""
    to_zone: str = ""
    shuffle: bool = False  # a zone change into a library that shuffles it ("shuffle it into its owner's library")
    tapped: bool = False  # how a permanent enters (614.1c-d)
    counters: Counter[str] = field(default_factory=Counter)  # the counters it enters with (122.6)
    unpreventable: bool = False  # "can't be prevented" (615.12)
    no_regeneration: bool = False  # "can't be regenerated" (701.19c)
    instead: str | None = None  # a self-replacement of the resolving effect: "put it into ZONE instead" (614.15)
    reason: str = ""  # why a permanent is destroyed, for the log
    applied: set[Hashable] = field(default_factory=set)  # the effects already applied to it (614.5)

    def but(self, **changes: Any) -> Proposed:
        """The modified event (614.6): a copy that remembers which effects were applied to its origin."""
        changes.setdefault("counters", Counter(self.counters))
        return copy_event(self, applied=set(self.applied), **changes)


@dataclass
class Replacement:
    """One applicable replacement or prevention effect."""

    key: Hashable  # its identity: it applies once to an event (614.5)
    refs: frozenset[str]  # what a scripted ``replacement`` decision names: its source card's ref and name
    label: str  # Russian, for the log and the question
    apply: Callable[[Game, Proposed], list[Proposed]]  # the modified event(s); [] when nothing happens
    self_replacement: bool = False  # 614.15: applied before the others (616.1a)
    order_free: bool = False  # it commutes with every other effect on the event: no choice is needed
    sig: Hashable = None  # effects of one signature give the same result in either order


# -- the procedure (rule 616.1) --------------------------------------------------------------------------------
def replace(game: Game, event: Proposed) -> list[Proposed]:
    """Apply every applicable effect to ``event`` (616.1a-f); the events that then happen, in order."""
    if (why := _forbidden(game, event)) is not None:  # 614.17: an event that can't happen is not replaced
        game.log(why)
        return []
    done: list[Proposed] = []
    queue = [event]
    steps = 0
    while queue:
        ev = queue.pop(0)
        if ev.kind in ("damage", "counters", "gain_life") and ev.amount <= 0:
            continue  # 614.7a: no damage (no counters, no life) is no event
        candidates = [r for r in _candidates(game, ev) if r.key not in ev.applied]
        if not candidates:
            done.append(ev)
            continue
        steps += 1
        if steps > MAX_STEPS:
            raise EngineError(f"эффекты замены не прекращают применяться к событию (правило 614.5): {ev.kind}")
        chosen = _choose(game, ev, candidates)
        ev.applied.add(chosen.key)
        queue[:0] = chosen.apply(game, ev)
    return done


def _choose(game: Game, ev: Proposed, candidates: list[Replacement]) -> Replacement:
    """Rule 616.1: a self-replacement effect first (616.1a); then the affected player (or the controller of the
    affected object) chooses (616.1e), unless the order can't change the outcome."""
    own = [r for r in candidates if r.self_replacement]
    pool = own or candidates
    free = [r for r in pool if r.order_free]
    if free:
        return free[0]
    if len({r.sig if r.sig is not None else r.key for r in pool}) == 1:
        return pool[0]  # identical effects: either order gives the same event
    who = chooser(game, ev)
    labels = "; ".join(f"{r.label} ({sorted(r.refs)[0]})" for r in pool)
    answer = game.decide("replacement", who, f"какой эффект замены применить первым: {labels}?")
    for r in pool:
        if answer in r.refs:
            game.log(f"{narr.player(who)} выбирает, какой эффект замены применить первым: {r.label}")
            return r
    raise IllegalAction(f"{answer!r}: не применимый к этому событию эффект замены (применимы: {labels})", "616.1")


def chooser(game: Game, ev: Proposed) -> str:
    """Rule 616.1: the affected player, or the affected object's controller (its owner if it has none)."""
    affected = ev.affected
    if isinstance(affected, str):
        return affected
    return game.controller(affected) if affected.zone in ("battlefield", "stack") else affected.owner


def cant_have_counters(game: Game, obj: GameObject, kind: str) -> bool:
    """Rule 614.17 (122.6): a "can't have counters put on it" effect forbids putting such counters on it, so a
    cost that puts them there can't be paid with it (118.3)."""
    return _forbidden(game, Proposed("counters", obj, amount=1, counter=kind)) is not None


def _forbidden(game: Game, ev: Proposed) -> str | None:
    """Rule 614.17: "can't" effects; the reason (for the log) the event can't happen, else None."""
    if ev.kind == "counters":
        if isinstance(ev.affected, str):
            for source, ability in _statics(game, "cant_get_counters"):
                value = ability.spec.get("value") or {}
                whose = value.get("players", "you")
                if _player_matches(game, whose, ev.affected, game.controller(source), team=True) and (
                    value.get("kind") in (None, ev.counter)
                ):
                    return (f"{narr.player(ev.affected)} не может получить {narr.counter(ev.counter, ev.amount)} "
                            f"({narr.obj(game, source)})")
            return None
        for source, ability in _statics(game, "cant_have_counters"):
            if _affects(game, ability, source, ev.affected) and (
                (ability.spec.get("value") or {}).get("kind") in (None, ev.counter)
            ):
                return (f"На {narr.obj(game, ev.affected)} нельзя положить {narr.counter(ev.counter, ev.amount)} "
                        f"({narr.obj(game, source)})")
    if ev.kind == "gain_life":
        assert isinstance(ev.affected, str)
        team = teams.team_of(game, ev.affected)  # rule 810.9g
        if any(d["kind"] == "cant_gain_life" and d["player"] in team for d in game.delayed):
            return f"{narr.player(ev.affected)} не может получать жизнь в этом ходу"
        for source, ability in _statics(game, "cant_gain_life"):
            players = (ability.spec.get("value") or {}).get("players", "each")
            if _player_matches(game, players, ev.affected, game.controller(source), team=True):
                return f"{narr.player(ev.affected)} не может получать жизнь ({narr.obj(game, source)})"
    return None


def _candidates(game: Game, ev: Proposed) -> list[Replacement]:
    return list(_FINDERS[ev.kind](game, ev))


# -- where effects come from -----------------------------------------------------------------------------------
def _statics(game: Game, kind: str) -> Iterator[tuple[GameObject, AbilityDef]]:
    for source in game.ability_sources():  # permanents and emblems (rule 114.4)
        for ability in game.chars(source).abilities:
            if ability.kind == "static" and ability.spec["static"] == kind:
                yield source, ability


def _affects(game: Game, ability: AbilityDef, source: GameObject, obj: GameObject, default_self: bool = True) -> bool:
    """The static ability's ``affects`` filter (default: the permanent itself) matches ``obj``."""
    filt = ability.spec.get("affects", {"self": True} if default_self else {})
    return matches(game, obj, game.chars(obj), filt, game.controller(source), source)


def _source_matches(game: Game, ability: AbilityDef, holder: GameObject, source: GameObject | Snapshot) -> bool:
    """A filter on a source of damage: the live object, else its last known information."""

    filt = ability.spec.get("affects", {"self": True})
    you = game.controller(holder)
    live = game.find(source.oid)
    if live is not None and live.zone in ("battlefield", "stack"):
        return matches(game, live, game.chars(live), filt, you, holder)
    if filt.get("self"):
        return source.oid == holder.oid
    snap = source if isinstance(source, Snapshot) else game.snapshot(source)
    return _snap_matches(game, snap, filt, you, holder)


def _player_matches(game: Game, which: str, player: str, you: str, team: bool = False) -> bool:
    """``you`` / ``opponent`` (rule 102.3: not on your team) / ``each`` against a player. With ``team``: a "can't"
    about you holds for your whole Two-Headed Giant team (810.9g: can't gain life; 810.10c: can't get poison)."""
    if which == "each":
        return True
    if which == "you":
        return player in teams.team_of(game, you) if team else player == you
    return teams.is_opponent(game, you, player)


def _refs(obj: GameObject | Snapshot | None, *extra: str) -> frozenset[str]:
    names = {obj.card.ref, obj.card.definition.name} if obj is not None else set()
    return frozenset(names | set(extra))


def _shield_refs(game: Game, shield: dict[str, Any], *extra: str) -> frozenset[str]:
    return frozenset({str(shield.get("ref", "")), str(shield.get("name", "")), *extra} - {""})


def recipient_label(game: Game, recipient: Recipient) -> str:
    return narr.player(recipient) if isinstance(recipient, str) else narr.obj(game, recipient)


# -- damage (rules 120, 609.7, 614.9, 615, 702.16e) --------------------------------------------------------------
def _damage_effects(game: Game, ev: Proposed) -> Iterator[Replacement]:
    recipient = ev.affected
    assert ev.source is not None
    for shield in game.delayed:
        if shield["kind"] in ("prevent", "redirect") and _matches_recipient(game, shield, recipient, ev.source):
            maker = _prevent_shield if shield["kind"] == "prevent" else _redirect_shield
            yield maker(game, shield, id(shield))
    if not isinstance(recipient, str):
        quality = protection.protection_from(game, game.chars(recipient), ev.source)
        if quality is not None:  # rule 702.16e: damage from a source with the stated quality is prevented
            yield Replacement(
                ("protection", recipient.oid),
                _refs(recipient, "protection"),
                f"защита ({narr.protection_text(quality)})",
                partial(_prevent, limit=None, why=f" ({narr.protection_text(quality)})"),
                sig=("prevent", None),
            )
        for holder, ability in _statics(game, "prevent_damage"):  # 615.10: "prevent N of that damage"
            if _affects(game, ability, holder, recipient):
                value = ability.spec.get("value") or {}
                n = value.get("n", "all")
                limit = None if n == "all" else int(n)
                then = value.get("then")
                after = None if then is None else partial(_static_then, holder=holder, then=then)
                yield Replacement(
                    (holder.oid, id(ability.spec)),
                    _refs(holder),
                    f"предотвращение {narr.obj(game, holder)}",
                    partial(_prevent, limit=limit, why="", after=after),
                    sig=("prevent", limit) if then is None else ("prevent", holder.oid, id(ability.spec)),
                )
    for holder, ability in _statics(game, "modify_damage"):  # "it deals double that damage ... instead"
        if _source_matches(game, ability, holder, ev.source):
            change = ability.spec.get("value") or {}
            yield Replacement(
                (holder.oid, id(ability.spec)),
                _refs(holder),
                f"изменение повреждений {narr.obj(game, holder)}",
                partial(_modify_damage, change=change, holder=holder),
                sig=("modify", tuple(sorted(change.items()))),
            )


def _matches_recipient(game: Game, shield: dict[str, Any], recipient: Recipient, source: GameObject | Snapshot) -> bool:
    """Whether the shield applies to damage from ``source`` to ``recipient``. ``by``: a filter on the source, read
    as the damage would be dealt (615.8: Burrenton Forge-Tender's "red source" that turned blue is no longer one;
    Channel Harm's "sources you don't control"); ``to_all``: the permanents it protects, also read then (an effect
    that doesn't change characteristics is not locked to the objects of its resolution, 611.2c)."""
    if "by" in shield and not _filter_matches_source(game, shield["by"], shield["controller"], source):
        return False
    if "from" in shield:  # a shield on the damage's source, whoever is dealt it (615.1a)
        return bool(shield["from"] == source.oid)
    if isinstance(recipient, str):
        return bool(shield.get("to") == recipient)
    protected = "to_all" in shield and recipient.zone == "battlefield" and matches(
        game, recipient, game.chars(recipient), shield["to_all"], shield["controller"], None
    )
    return protected or bool(shield.get("to") == recipient.oid)


def _filter_matches_source(game: Game, filt: dict[str, Any], you: str, source: GameObject | Snapshot) -> bool:
    """A filter on a source of damage: the live object (on the battlefield or the stack), else as it last existed."""
    live = game.find(source.oid)
    if live is not None and live.zone in ("battlefield", "stack"):
        return matches(game, live, game.chars(live), filt, you, None)
    snap = source if isinstance(source, Snapshot) else game.snapshot(source)
    return _snap_matches(game, snap, filt, you, None)


def _prevent_shield(game: Game, shield: dict[str, Any], key: int) -> Replacement:
    def apply(g: Game, ev: Proposed) -> list[Proposed]:
        if ev.unpreventable:  # rule 615.12: the shield applies, prevents nothing and is not reduced
            g.log(f"Повреждения для {recipient_label(g, ev.affected)} не могут быть предотвращены: щит не уменьшается")
            return [ev]
        prevented = ev.amount if shield["n"] is None else min(ev.amount, shield["n"])
        if shield["n"] is not None:  # rule 615.7: each 1 damage prevented reduces the shield by 1
            shield["n"] -= prevented
            if shield["n"] <= 0 and shield in g.delayed:
                g.delayed.remove(shield)
        g.log(f"Предотвращено {prevented} повр., которые были бы нанесены {recipient_label(g, ev.affected)}")
        if shield.get("then") is not None:
            _shield_then(g, shield, ev, prevented)
        return [ev.but(amount=ev.amount - prevented)] if ev.amount > prevented else []

    sig = ("prevent", shield["n"]) if shield.get("then") is None else ("prevent", key)
    return Replacement(key, _shield_refs(game, shield, "prevent"), "щит предотвращения", apply, sig=sig)


AfterPrevention = Callable[["Game", Proposed, int], None]


def _prevent(
    game: Game, ev: Proposed, limit: int | None, why: str, after: AfterPrevention | None = None
) -> list[Proposed]:
    """A prevention effect that is not a shield (615.10, 702.16e): all of the damage, or ``limit`` of it;
    ``after``: what the effect does with the damage it prevented (615.5)."""
    if ev.unpreventable:  # rule 615.12
        game.log(f"Повреждения для {recipient_label(game, ev.affected)} не могут быть предотвращены{why}")
        return [ev]
    prevented = ev.amount if limit is None else min(limit, ev.amount)
    assert ev.source is not None
    game.log(
        f"Предотвращено {prevented} повр. от {narr.obj(game, ev.source)}, которые были бы нанесены "
        f"{recipient_label(game, ev.affected)}{why}"
    )
    if after is not None:
        after(game, ev, prevented)
    return [ev.but(amount=ev.amount - prevented)] if ev.amount > prevented else []


def _prevented_event(game: Game, ev: Proposed, prevented: int) -> Event:
    """Rule 615.5: what a prevention effect's follow-up reads: "that much" (``event_amount``), the source's
    controller (``event_player``; as it last existed, its owner for a card in another zone: Swans of Bryn Argoll),
    the recipient (``event_target``)."""
    assert ev.source is not None
    live = game.find(ev.source.oid)
    if live is not None and live.zone in ("battlefield", "stack"):
        controller = game.controller(live)
    elif live is not None:
        controller = live.owner
    else:
        controller = game.source_chars(ev.source)[1]
    snap = ev.source if isinstance(ev.source, Snapshot) else game.snapshot(ev.source)
    return Event("damage_prevented", lki=snap, target=ev.affected, amount=prevented, player=controller)


def _static_then(game: Game, ev: Proposed, prevented: int, holder: GameObject, then: Any) -> None:
    """Rule 615.5: a static prevention effect's "... prevent that damage. [Then] EFFECT" is part of the prevention:
    done at once, by the permanent's controller, not a triggered ability (Swans of Bryn Argoll)."""
    ctx = interpreter.Context(game, game.controller(holder), holder, event=_prevented_event(game, ev, prevented))
    interpreter.run(ctx, then)


def _shield_then(game: Game, shield: dict[str, Any], ev: Proposed, prevented: int) -> None:
    """Rule 615.5: a shield's "If damage is prevented this way, EFFECT" — done as part of the prevention by the
    spell's controller, with the spell's targets as chosen on casting and not checked again (Channel Harm); the
    spell, gone to the graveyard, is the new damage's source (its last known information)."""
    ctx = interpreter.Context(
        game, shield["controller"], shield["source"], targets=list(shield.get("targets", [])),
        x=int(shield.get("x", 0)), event=_prevented_event(game, ev, prevented),
    )
    interpreter.run(ctx, shield["then"])


def _redirect_shield(game: Game, shield: dict[str, Any], key: int) -> Replacement:
    """Rule 614.9: damage dealt to one player or permanent is dealt to another instead (``n``: only the next N;
    the rest still reaches the first); nothing happens if the new one is gone."""

    def apply(g: Game, ev: Proposed) -> list[Proposed]:
        if shield in g.delayed:
            g.delayed.remove(shield)
        new = shield["new"]
        target: Recipient | None = new if isinstance(new, str) else g.find(new)
        if target is None or (not isinstance(target, str) and target.zone != "battlefield"):
            return [ev]
        if shield.get("n") is None:
            g.log(f"Повреждения перенаправлены: {recipient_label(g, target)} вместо {recipient_label(g, ev.affected)}")
            return [ev.but(affected=target)]
        n = min(int(shield["n"]), ev.amount)
        g.log(f"{n} повр. перенаправлены: {recipient_label(g, target)} вместо {recipient_label(g, ev.affected)}")
        return [ev.but(affected=target, amount=n), ev.but(amount=ev.amount - n)]

    return Replacement(key, _shield_refs(game, shield, "redirect"), "перенаправление повреждений", apply,
                       sig=("redirect", key))


def _modify_damage(game: Game, ev: Proposed, change: dict[str, int], holder: GameObject) -> list[Proposed]:
    new = _changed(ev.amount, change)
    game.log(f"{narr.obj(game, holder)}: {ev.amount} повр. становятся {new} (эффект замены)")
    return [ev.but(amount=new)]


def _changed(n: int, change: dict[str, int]) -> int:
    if "times" in change:
        return n * int(change["times"])
    if "plus" in change:
        return n + int(change["plus"])
    return max(0, n - int(change.get("minus", 0)))


def _unpreventable(game: Game, source: GameObject | Snapshot) -> bool:
    """Rule 615.12: "damage can't be prevented" this turn, or from sources a static ability names."""
    if any(d["kind"] == "damage_cant_be_prevented" for d in game.delayed):
        return True
    return any(
        _source_matches(game, ability, holder, source) for holder, ability in _statics(game, "damage_cant_be_prevented")
    )


def _as_wither(game: Game, source: GameObject | Snapshot) -> bool:
    """Rule 702.80a: "all damage is dealt as though its source had wither": every source, or those ``affects``
    names (a filter on the source, as for ``damage_cant_be_prevented``)."""
    return any(
        "affects" not in ability.spec or _source_matches(game, ability, holder, source)
        for holder, ability in _statics(game, "damage_as_though_wither")
    )


def deal_damage(
    game: Game,
    source: GameObject | Snapshot,
    recipient: Recipient,
    amount: int,
    combat: bool = False,
    cant_be_prevented: bool = False,
) -> int:
    """Deal damage with every replacement and prevention effect applied; returns the damage dealt."""
    if amount <= 0:  # rule 614.7a
        return 0
    recipient = _old_redirection(game, source, recipient, combat)
    event = Proposed(
        "damage", recipient, source=source, amount=amount, combat=combat,
        unpreventable=cant_be_prevented or _unpreventable(game, source),
    )
    return sum(_dealt(game, ev) for ev in replace(game, event))


def _dealt(game: Game, ev: Proposed) -> int:
    """Rule 120.3: the results of the damage that is dealt, and the events triggered abilities watch."""

    source, recipient, amount = ev.source, ev.affected, ev.amount
    assert source is not None
    chars, source_controller = game.source_chars(source)
    who = narr.obj(game, source)
    infect = "infect" in chars.keywords  # rules 702.90b-c (702.90d: last known information)
    if isinstance(recipient, str):
        if infect:  # rule 120.3b: poison counters instead of loss of life
            game.log(f"{who} (Заражение) наносит {amount} повр. игроку {narr.player(recipient)} в виде жетонов яда")
            game.give_counters(recipient, "poison", amount)
        else:  # rule 120.3a (119.8: the damage is dealt, but a player who can't lose life loses none)
            life.lose_life(game, recipient, amount)
            game.log(
                f"{who} наносит {amount} повр. игроку {narr.player(recipient)} (жизнь: {game.players[recipient].life})"
            )
    else:
        rchars = game.chars(recipient)
        if rchars.is_("Planeswalker"):  # rule 120.3c
            game.log(
                f"{who} наносит {amount} повр. мироходцу {narr.obj(game, recipient)}: он теряет столько же верности"
            )
            game.remove_counters(recipient, "loyalty", amount)
        if rchars.is_("Creature"):
            if "wither" not in chars.keywords and _as_wither(game, source):  # "as though its source had wither"
                chars = copy_event(chars, keywords={**chars.keywords, "wither": 1})
            if "wither" in chars.keywords or infect:  # rule 120.3d
                game.log(
                    f"{who} ({'Заражение' if infect else 'Увядание'}) наносит {amount} повр. "
                    f"{narr.to_creature(game, recipient)} в виде жетонов -1/-1"
                )
                game.put_counters(recipient, "-1/-1", amount)
            else:  # rule 120.3e
                recipient.damage += amount
                game.log(f"{who} наносит {amount} повр. {narr.to_creature(game, recipient)}")
            if "deathtouch" in chars.keywords:
                recipient.deathtouch_damage = True
    lifelink = "lifelink" in chars.keywords and not game.options.lifelink_triggered  # static since 2009 (702.15b)
    if lifelink and game.gain_life(source_controller, amount):
        game.log(f"Цепь жизни: {narr.player(source_controller)} получает {amount} жизни")
    lki = source if isinstance(source, Snapshot) else game.snapshot(source)
    # "that player" of "whenever this deals damage to a player" is the player dealt damage (the event's player)
    dealt = recipient if isinstance(recipient, str) else None
    batch = game.batch_serial if game._batch is not None else 0  # damage dealt at once is one event (510.2)
    triggers.collect(
        game,
        Event("damage", lki=lki, target=recipient, amount=amount, combat=ev.combat, player=dealt, batch=batch),
    )
    if ev.combat and isinstance(recipient, str):
        triggers.collect(
            game,
            Event("combat_damage_to_player", lki=lki, target=recipient, amount=amount, combat=True, player=dealt),
        )
    return amount


def _old_redirection(game: Game, source: GameObject | Snapshot, recipient: Recipient, combat: bool) -> Recipient:
    """Rule 306.7 until 2018: noncombat damage to a player may be dealt to their planeswalker instead, at the
    choice of the source's controller (the whole of it or none)."""
    if game.options.planeswalker_redirection and not combat and isinstance(recipient, str):
        _, controller = game.source_chars(source)
        walkers = [
            o
            for o in game.battlefield
            if game.controller(o) == recipient and game.chars(o).is_("Planeswalker")
        ]
        # 212.9g of 2007: only a planeswalker the damaged player controls, never a teammate's (LRW planeswalker 15)
        if teams.is_opponent(game, controller, recipient) and walkers:
            answer = game.decide(
                "redirect", controller, "перенаправить повреждения на мироходца? (no или мироходец)", source
            )
            if answer not in (None, False, "no"):
                if not isinstance(answer, str):  # the old rule moves all of that damage or none of it
                    raise IllegalAction(f"{answer!r}: повреждения перенаправляются целиком, не частями", "306.7")
                chosen = [w for w in walkers if w.card.ref == answer or w.card.definition.name == answer]
                if not chosen:
                    raise IllegalAction(
                        f"{answer!r}: не мироходец игрока {narr.player(recipient)} — перенаправить нельзя", "306.7"
                    )
                game.log(f"Правило 306.7 (старое): повреждения перенаправлены на {narr.obj(game, chosen[0])}")
                return chosen[0]
    return recipient


# -- destruction and regeneration (rules 701.8, 701.19, 614.8) ---------------------------------------------------
def _destroy_effects(game: Game, ev: Proposed) -> Iterator[Replacement]:
    obj = ev.affected
    assert isinstance(obj, GameObject)
    if ev.no_regeneration:  # rule 701.19c: the shields are not applied
        return
    for i in range(obj.regeneration_shields):
        yield Replacement(("regenerate", obj.oid, i), _refs(obj, "regenerate"), "регенерация", _regenerate,
                          sig=("regenerate",))


def _regenerate(game: Game, ev: Proposed) -> list[Proposed]:
    """Rule 701.19a: instead remove all damage marked on it, tap it, remove it from combat."""
    obj = ev.affected
    assert isinstance(obj, GameObject)
    obj.regeneration_shields -= 1
    obj.damage = 0
    obj.deathtouch_damage = False
    tapping.tap(game, obj)
    obj.attacking = None
    obj.blocking = []
    game.touch()
    game.log(f"{narr.obj(game, obj)} регенерирует: повреждения убраны, он повернут{ev.reason}")
    return []


def destroy(
    game: Game, obj: GameObject, reason: str = "", *, no_regeneration: bool = False, instead: str | None = None
) -> GameObject | None:
    """Destroy a permanent (rule 701.8) unless it is indestructible or a replacement effect such as regeneration
    replaces the destruction; ``instead``: the destroying effect's own "put it into ZONE instead" (614.15)."""
    chars = game.chars(obj)
    if "indestructible" in chars.keywords:  # rule 702.12b: a "can't" (614.17), not a replacement
        game.log(f"{narr.obj(game, obj)} неразрушим{reason}")
        return None
    if no_regeneration and obj.regeneration_shields:
        game.log(f"{narr.obj(game, obj)} не может быть регенерирован (правило 701.19c)")
    event = Proposed("destroy", obj, reason=reason, no_regeneration=no_regeneration)
    if not replace(game, event):
        return None
    game.log(f"{narr.obj(game, obj)} уничтожается{reason}")
    return game.move(obj, "graveyard", instead=instead)


# -- zone changes (rules 614.1a, 614.6) --------------------------------------------------------------------------
def _zone_effects(game: Game, ev: Proposed) -> Iterator[Replacement]:
    obj = ev.affected
    assert isinstance(obj, GameObject)
    if ev.instead is not None and ev.to_zone == "graveyard":  # 614.15: the resolving effect's own "instead"
        yield Replacement("self", frozenset({"self"}), f"собственный эффект замены: {narr.ZONE_INTO[ev.instead]}",
                          partial(_to_zone, zone=ev.instead, why="эффект самозамены", shuffle=False),
                          self_replacement=True)
    if ev.to_zone != "graveyard":
        return
    for shield in game.delayed:  # "if a spell cast this way would be put into a graveyard this turn" (614.1a)
        if shield["kind"] == "exile_if_graveyard" and shield["oid"] == obj.oid:
            yield Replacement(id(shield), _shield_refs(game, shield), "изгнание вместо кладбища",
                              partial(_to_zone, zone="exile", why="эффект замены"), sig=("to", "exile"))
    dies = ev.from_zone == "battlefield" and game.chars(obj).is_("Creature")
    for holder, ability in _statics(game, "exile_instead_of_graveyard"):
        if _exile_instead_matches(game, holder, ability, obj):
            yield Replacement((holder.oid, id(ability.spec)), _refs(holder),
                              f"изгнание вместо кладбища ({narr.obj(game, holder)})",
                              partial(_to_zone, zone="exile", why=f"эффект замены {narr.obj(game, holder)}"),
                              sig=("to", "exile"))
    if dies:
        for holder, ability in _statics(game, "instead_of_dying"):
            if _affects(game, ability, holder, obj):
                zone = str((ability.spec.get("value") or {}).get("zone", "exile"))
                yield Replacement((holder.oid, id(ability.spec)), _refs(holder),
                                  f"вместо смерти: {narr.ZONE_INTO[zone]} ({narr.obj(game, holder)})",
                                  partial(_to_zone, zone=zone, why=f"эффект замены {narr.obj(game, holder)}"),
                                  sig=("to", zone))
        for shield in game.delayed:
            if shield["kind"] == "exile_if_dies" and shield["oid"] == obj.oid:
                yield Replacement(id(shield), _shield_refs(game, shield), "изгнание вместо смерти",
                                  partial(_to_zone, zone="exile", why="эффект замены"), sig=("to", "exile"))


def _exile_instead_matches(game: Game, holder: GameObject, ability: AbilityDef, obj: GameObject) -> bool:
    filt = {k: v for k, v in (ability.spec.get("affects") or {}).items() if k != "zone"}
    owner_rule = filt.pop("owner", None)
    controller = game.controller(holder)
    if owner_rule == "opponent" and obj.owner == controller:
        return False
    if owner_rule == "you" and obj.owner != controller:
        return False
    return matches(game, obj, game.chars(obj), filt, controller, holder)


def _to_zone(game: Game, ev: Proposed, zone: str, why: str, shuffle: bool = True) -> list[Proposed]:
    """The card goes to ``zone`` instead of a graveyard; "into its owner's library" shuffles it in unless the
    effect puts it on top."""
    assert isinstance(ev.affected, GameObject)
    game.log(f"{narr.obj(game, ev.affected)} перемещается {narr.ZONE_INTO[zone]} вместо кладбища ({why})")
    return [ev.but(to_zone=zone, shuffle=shuffle and zone == "library")]


def zone_destination(game: Game, obj: GameObject, to_zone: str, instead: str | None = None) -> tuple[str, bool]:
    """Where a moving object really goes (the zone, and whether that library is then shuffled)."""
    if to_zone != "graveyard":  # the vocabulary has replacements only for moves to a graveyard
        return to_zone, False
    event = Proposed("zone_change", obj, from_zone=obj.zone, to_zone=to_zone, instead=instead)
    finals = replace(game, event)
    return (finals[0].to_zone, finals[0].shuffle) if finals else (to_zone, False)


# -- entering the battlefield (rules 614.1c-d, 614.12, 122.6) ---------------------------------------------------
def _enter_effects(game: Game, ev: Proposed) -> Iterator[Replacement]:
    """How a permanent enters: each of these commutes with the others (they only add), so none needs a choice."""
    new = ev.affected
    assert isinstance(new, GameObject)
    chars = game.chars(new)
    if "hideaway" in chars.keywords:  # rule 502.75a of the time: "This permanent enters tapped"
        yield Replacement(("hideaway", new.oid), _refs(new), "Тайник: входит повернутым", _enters_tapped,
                          order_free=True)
    for ability in chars.abilities:  # "As this enters, you may pay 2 life. If you don't, it enters tapped"
        if ability.kind == "static" and ability.spec["static"] == "enters_tapped_unless_pay":
            life = int((ability.spec.get("value") or {}).get("life", 2))
            yield Replacement((new.oid, id(ability.spec)), _refs(new), "входит повернутым, если не заплатить жизнь",
                              partial(_pay_life_or_tapped, life=life), order_free=True)
    if chars.loyalty is not None:  # rule 306.5b: "this permanent enters with its printed loyalty" (614.1c)
        loyalty = Counter({"loyalty": chars.loyalty})
        yield Replacement(("loyalty", new.oid), _refs(new), "входит с жетонами верности",
                          partial(_enters_with, counters=loyalty), order_free=True)
    for holder, ability in [*_statics(game, "enters_tapped"), *_statics(game, "enters_with_counters")]:
        if holder.oid == new.oid and ability.spec.get("affects", {"self": True}) != {"self": True}:
            continue  # rule 614.12: its own ability applies to it as it enters only if it affects only it
        if not _affects(game, ability, holder, new):
            continue
        if not _entering_condition(game, ability.spec.get("condition"), new):
            continue
        if ability.spec["static"] == "enters_tapped":
            yield Replacement((holder.oid, id(ability.spec)), _refs(holder), "входит повернутым", _enters_tapped,
                              order_free=True)
        else:
            value = ability.spec.get("value") or {}
            counters = Counter({k: _entering_number(game, n, new) for k, n in value.items()})
            yield Replacement((holder.oid, id(ability.spec)), _refs(holder), "входит с жетонами",
                              partial(_enters_with, counters=counters), order_free=True)


def _entering_number(game: Game, n: Any, new: GameObject) -> int:
    """A number of counters, or "X, where X is the greatest power among other creatures you control": counted as
    it enters, among the permanents already there (614.1c, 614.12; CR 208.1)."""
    if isinstance(n, dict):
        from rules_engine.power_among import greatest_power

        return greatest_power(game, n["greatest_power"], new.controller, new, exclude=new.oid)
    if n == "X":  # rule 107.3m: the X of the spell that became it; never cast (a token copy, reanimated), 0
        return new.entered_x
    return int(n)


def _entering_condition(game: Game, cond: dict[str, Any] | None, new: GameObject) -> bool:
    """ "Enters with a +1/+1 counter if you revealed a Dragon card or controlled a Dragon as you cast this spell":
    the permanent knows how its spell was cast (reveal.py; a permanent never cast meets no such condition).
    "... if you control a creature with power 4 or greater" (ferocious): checked as it enters, among the other
    permanents its controller controls — the entering one isn't on the battlefield yet (614.1c, 614.12)."""
    if not cond:
        return True
    if "control" in cond:
        from rules_engine.layers import matches

        you = new.controller
        return any(
            o.oid != new.oid and game.controller(o) == you and matches(game, o, game.chars(o), cond["control"], you, o)
            for o in game.battlefield
        )
    return reveal.holds(new) == bool(cond["revealed_or_controlled"])


def _enters_with(game: Game, ev: Proposed, counters: Counter[str]) -> list[Proposed]:
    return [ev.but(counters=ev.counters + counters)]


def _enters_tapped(game: Game, ev: Proposed) -> list[Proposed]:
    return [ev.but(tapped=True)]


def _pay_life_or_tapped(game: Game, ev: Proposed, life: int) -> list[Proposed]:
    """A scripted ``may`` answer of the controller; paying life needs at least that much life (rule 119.4).
    Paying does not untap a permanent another effect puts onto the battlefield tapped (GTC dual lands 3)."""
    new = ev.affected
    assert isinstance(new, GameObject)
    who = game.controller(new)
    answer = game.decide("may", who, f"заплатить {life} жизни, чтобы {narr.obj(game, new)} вошел неповернутым?", new)
    if answer in (True, "yes"):
        if game.players[who].life < life:
            raise IllegalAction(f"нельзя заплатить {life} жизни при {game.players[who].life} жизни", "119.4")
        lifetotal.pay(game, who, life)
        game.log(f"{narr.player(who)} платит {life} жизни (жизнь: {game.players[who].life})")
        return [ev]
    game.log(f"{narr.player(who)} не платит жизнь: {narr.obj(game, new)} входит повернутым")
    return [ev.but(tapped=True)]


def apply_entering(game: Game, new: GameObject, counters: Counter[str]) -> None:
    """Rules 614.1c-d, 614.12: "enters tapped", "enters with counters" modify how a permanent enters; the counters
    it enters with are put on it (122.6), so "can't have counters put on it" and counter replacements apply."""
    game.touch()
    event = Proposed("enter", new, tapped=new.tapped, counters=Counter(counters))
    for final in replace(game, event):
        new.tapped = final.tapped
        for kind, n in final.counters.items():
            if n > 0:
                new.counters[kind] += counters_put(game, new, kind, n)
    game.touch()


# -- counters and life (rules 122.6, 119.7, 614.16) --------------------------------------------------------------
def _counter_effects(game: Game, ev: Proposed) -> Iterator[Replacement]:
    obj = ev.affected
    if isinstance(obj, str):
        return
    for holder, ability in _statics(game, "modify_counters"):  # "that many plus one ... instead" (614.16)
        value = ability.spec.get("value") or {}
        if value.get("kind", ev.counter) == ev.counter and _affects(game, ability, holder, obj):
            change = {k: int(v) for k, v in value.items() if k != "kind"}
            yield Replacement((holder.oid, id(ability.spec)), _refs(holder),
                              f"изменение числа жетонов ({narr.obj(game, holder)})",
                              partial(_modify_counters, change=change, holder=holder),
                              sig=("modify", tuple(sorted(change.items()))))


def _modify_counters(game: Game, ev: Proposed, change: dict[str, int], holder: GameObject) -> list[Proposed]:
    new = _changed(ev.amount, change)
    game.log(f"{narr.obj(game, holder)}: вместо {narr.counter(ev.counter, ev.amount)} — {new} (эффект замены)")
    return [ev.but(amount=new)]


def counters_put(game: Game, affected: Recipient, kind: str, n: int) -> int:
    """How many counters of ``kind`` really are put on the object (or given to the player)."""
    if n <= 0:
        return 0
    return sum(ev.amount for ev in replace(game, Proposed("counters", affected, counter=kind, amount=n)))


def counters_forbidden(game: Game, affected: Recipient, kind: str, n: int) -> str | None:
    """Why counters of ``kind`` can't be put on ``affected`` now (614.17, "can't have counters"), else None: asked
    before an action that needs the put to be possible ("move a counter", 122.5)."""
    return _forbidden(game, Proposed("counters", affected, counter=kind, amount=n))


def life_gained(game: Game, player: str, n: int) -> int:
    """How much life a player really gains: none if they can't gain life (rule 119.7)."""
    if n <= 0:
        return 0
    return sum(ev.amount for ev in replace(game, Proposed("gain_life", player, amount=n)))


def _no_effects(game: Game, ev: Proposed) -> Iterator[Replacement]:
    return iter(())


def _life_gain_effects(game: Game, ev: Proposed) -> Iterator[Replacement]:
    """Rule 119.10: "if you would gain life, you gain twice that much life instead" (a replacement, 614.1a); one that
    can't gain life has no event to replace (119.7, 614.17: ``_forbidden`` stops it before)."""
    assert isinstance(ev.affected, str)
    for holder, ability in _statics(game, "modify_life_gain"):
        value = ability.spec.get("value") or {}
        if ev.affected == game.controller(holder):
            change = {k: int(v) for k, v in value.items()}
            yield Replacement((holder.oid, id(ability.spec)), _refs(holder),
                              f"изменение получаемой жизни ({narr.obj(game, holder)})",
                              partial(_modify_life_gain, change=change, holder=holder),
                              sig=("modify", tuple(sorted(change.items()))))


def _modify_life_gain(game: Game, ev: Proposed, change: dict[str, int], holder: GameObject) -> list[Proposed]:
    new = _changed(ev.amount, change)
    game.log(f"{narr.obj(game, holder)}: вместо {ev.amount} жизни {narr.player(str(ev.affected))} получает {new} "
             "(эффект замены)")
    return [ev.but(amount=new)]


# -- card draws (rules 121.6, 614.11) ----------------------------------------------------------------------------
def _draw_effects(game: Game, ev: Proposed) -> Iterator[Replacement]:
    assert isinstance(ev.affected, str)
    for holder, ability in _statics(game, "instead_of_drawing"):  # "if you would draw a card, EFFECT instead"
        value = ability.spec.get("value") or {}
        if _player_matches(game, value.get("players", "you"), ev.affected, game.controller(holder)):
            yield Replacement((holder.oid, id(ability.spec)), _refs(holder),
                              f"вместо взятия карты ({narr.obj(game, holder)})",
                              partial(_instead_of_drawing, holder=holder, value=value),
                              sig=("draws", value["draws"]) if "draws" in value else None)


def _instead_of_drawing(game: Game, ev: Proposed, holder: GameObject, value: dict[str, Any]) -> list[Proposed]:
    """The draw is replaced by the ability's effect, done by its controller (121.6a: even from an empty library);
    ``optional``: the drawing player may have the card drawn instead ("you may ... instead")."""

    assert isinstance(ev.affected, str)
    if value.get("optional"):
        answer = game.decide("may", ev.affected, f"заменить взятие карты ({narr.obj(game, holder)})?", holder)
        if answer not in (True, "yes"):
            return [ev]
    if "draws" in value:  # "draw two cards instead": N draws, each a modified event of this one (614.6, 121.2)
        n = int(value["draws"])
        game.log(f"{narr.obj(game, holder)}: вместо одной карты {narr.player(ev.affected)} берет {n} (эффект замены)")
        # 614.5: this effect has had its one opportunity, so it doesn't replace the draws it made; another effect
        # (a second Thought Reflection) may replace each of them
        return [ev.but() for _ in range(n)]
    game.log(f"{narr.player(ev.affected)} не берет карту: эффект замены {narr.obj(game, holder)}")
    interpreter.run(interpreter.Context(game, game.controller(holder), holder), value["effect"])
    return []


def draw_replaced(game: Game, player: str) -> bool:
    """Whether a card draw of ``player`` is replaced (then the replacing events have happened instead)."""
    return not replace(game, Proposed("draw", player))


def draws_after_replacement(game: Game, player: str) -> int:
    """How many cards a draw of ``player`` really draws once replacements applied (614.6): 0 if replaced by another
    event, 1 if not, more for "draw two cards instead"."""
    return len(replace(game, Proposed("draw", player)))


_FINDERS: dict[str, Callable[[Game, Proposed], Iterator[Replacement]]] = {
    "damage": _damage_effects,
    "destroy": _destroy_effects,
    "zone_change": _zone_effects,
    "enter": _enter_effects,
    "counters": _counter_effects,
    "gain_life": _life_gain_effects,
    "draw": _draw_effects,
}
