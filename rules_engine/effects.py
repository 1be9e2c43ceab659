"""What spells and abilities do: the effect vocabulary of card definitions, one function per effect.

An effect is a one-key mapping (``{damage: {amount: 3, to: target}}``) or a list of them, done in order.
References name what an effect acts on: ``target`` / ``target1`` (only the targets still legal),
``self`` (the source), ``it`` (the object of the event: moved, turned face up, targeted, or the source of damage),
``event_player``, ``that`` (a delayed trigger's objects, rule 603.7c), ``made``, ``you``, ``each_opponent``,
``each_player``, ``enchanted`` or ``{all: FILTER}``. Amounts are numbers, ``X``, ``{power_of: REF}``,
``{toughness_of: REF}``, ``{event_amount: true}`` or ``{count: FILTER}``; a negative result of a calculation counts
as 0 except where it sets power or toughness (rule 107.1b; until 2017 also where it changed them).

Each handler registers with ``interpreter.effect``; whatever runs an effect script calls ``interpreter.run``,
so this module sits above every procedure it uses (``stack``, ``combat``, ``triggers``, ``replacement``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace as dataclass_replace
from typing import TYPE_CHECKING, Any

from rules_engine import (
    anchors,
    aslong,
    attacking,
    combat,
    copies,
    countering,
    defending,
    history,
    landplays,
    life,
    next_spell,
    playfrom,
    power_among,
    replacement,
    reveal,
    stack,
    tapping,
    teams,
    triggers,
    until,
)
from rules_engine import log as narr
from rules_engine import targets as tg
from rules_engine.cards import parse_card
from rules_engine.errors import DecisionMissing, IllegalAction, ScriptError
from rules_engine.events import DelayedTrigger, Event
from rules_engine.game import arrange, shuffle_library
from rules_engine.game import pick as _pick
from rules_engine.interpreter import Context, effect, run
from rules_engine.layers import matches
from rules_engine.mana import parse_units
from rules_engine.objects import AbilityDef, Card, ContinuousEffect, GameObject, Snapshot
from rules_engine.stackobjects import StackAbility

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game

Thing = str | GameObject  # a player name or an object


# -- references and amounts --------------------------------------------------------------------------
def things(ctx: Context, ref: Any) -> list[Thing]:
    """The players / live objects a reference names right now (illegal targets are left out)."""
    game = ctx.game
    if isinstance(ref, list):  # several references: each player or object they name is affected once (608.2c)
        named: list[Thing] = []
        seen: set[Any] = set()
        for r in ref:
            for thing in things(ctx, r):
                key = thing if isinstance(thing, str) else thing.oid
                if key not in seen:
                    seen.add(key)
                    named.append(thing)
        return named
    if isinstance(ref, dict) and "graveyard_of" in ref:  # "exile target opponent's graveyard": every card in it
        return [o for p in players(ctx, ref["graveyard_of"]) for o in list(game.players[p].graveyard)]
    if isinstance(ref, dict) and "all" in ref:
        source = ctx.source_live()
        you = ctx.controller
        filt = ref["all"]
        if "of" in ref:  # "creatures target player controls": the filter's "you" is that player
            whose = players(ctx, ref["of"])
            if not whose:
                return []
            you = whose[0]
        elif isinstance(filt, dict) and filt.get("controller") == "defending_player":
            whose = players(ctx, "defending_player")  # rule 508.5: of the creature that attacked (an attacks event)
            if not whose:
                return []
            you, filt = whose[0], {**filt, "controller": "you"}
        if isinstance(filt, dict) and isinstance(filt.get("toughness_less_than"), dict):
            # "with toughness less than the exploited creature's toughness": the bound is an amount, computed once
            # as the effect resolves (608.2h: of an object gone by then, as it last existed)
            filt = {**filt, "toughness_less_than": amount(ctx, filt["toughness_less_than"])}
        return [o for o in game.battlefield if matches(game, o, game.chars(o), filt, you, source)]
    if isinstance(ref, dict) and "owner_of" in ref:  # "that player": whose graveyard a card went to (404.2, 108.3)
        owned = objects(ctx, ref["owner_of"])
        snap = None if owned else _target_lki(ctx, ref["owner_of"])
        return [o.owner for o in owned] or ([snap.card.owner] if snap is not None else [])
    if isinstance(ref, dict) and "controller_of" in ref:  # "that creature's controller" (LKI if it left)
        inner = str(ref["controller_of"])
        if inner == "that":
            oids: list[int | None] = list(ctx.about[:1])
        else:
            index = int(inner[6:] or 0) if inner.startswith("target") else 0
            oids = [ctx.targets[index].oid if index < len(ctx.targets) else None]
        oid = oids[0] if oids else None
        if oid is None:
            return []
        live = game.find(oid)
        if live is not None:
            return [game.controller(live)]
        snap = game.lki.get(oid)
        return [snap.controller] if snap is not None else []
    text = str(ref)
    if text.startswith("target"):
        index = int(text[6:] or 0)
        if index >= len(ctx.targets) or (ctx.legal and not ctx.legal[index]):
            return []
        t = ctx.targets[index]
        if t.player is not None:
            return [t.player]
        obj = game.find(t.oid) if t.oid is not None else None
        return [obj] if obj is not None else []
    if text == "each_target":  # "any number of target cards": each one chosen, still legal (601.2c, 608.2b)
        return things(ctx, [f"target{i}" for i in range(len(ctx.targets))])
    if text == "self":
        live = ctx.source_live()
        return [live] if live is not None else []
    if text == "this_card":  # "return Deathmist Raptor from your graveyard": the card where it is, the same object
        card = game.find(ctx.source.oid)  # (rules 113.6m, 400.7: once it changed zones it's a new object, not found)
        return [card] if card is not None else []
    if text == "it":  # the object of the event: what moved, or the source of damage ("destroy it")
        event = ctx.event
        oid = event.obj.oid if event is not None and event.obj is not None else None
        if oid is None and event is not None and event.kind == "damage" and event.lki is not None:
            oid = event.lki.oid
        it_live = game.find(oid) if oid is not None else None
        return [it_live] if it_live is not None else []
    if text == "defending_player":  # rules 506.2, 508.5: of this attacking creature, else of the event's
        event_obj = ctx.event.obj if ctx.event is not None else None
        order = [ctx.source.oid, event_obj.oid if event_obj else None]
        if ctx.event is not None and ctx.event.kind == "attacks":  # "whenever a creature you control attacks,
            order.reverse()  # defending player ...": the player that creature attacks (508.5, Brutal Hordechief)
        found_player = defending.defending_player(game, *order)
        return [found_player] if found_player is not None else []
    if text == "event_target":  # the other object of the event: the creature blocked / blocking, what was dealt damage
        other = ctx.event.target if ctx.event is not None else None
        if isinstance(other, str):
            return [other]
        other_live = game.find(other.oid) if other is not None else None
        return [other_live] if other_live is not None else []
    if text == "clashed_opponent":  # rule 701.30b: "that player" after "clash with an opponent"
        return [ctx.clashed] if ctx.clashed is not None else []
    if text == "event_player":  # "that player": who cast the spell, targeted, gained life, was dealt damage
        return [ctx.event.player] if ctx.event is not None and ctx.event.player is not None else []
    if text == "that":  # rule 603.7c: the very objects, only while still in the zone they were in
        live_about = [game.find(oid) for oid in ctx.about]
        found: list[Thing] = [o for o in live_about if o is not None]
        if ctx.about and not found:
            game.log("Того объекта больше нет в зоне, где он был: на него способность не действует (правило 603.7c)")
        return found
    if text == "sacrificed":  # gone: only its last known information counts (an amount's toughness_of)
        return []
    if text == "made":
        live_made = [game.find(o.oid) for o in ctx.made]
        return [o for o in live_made if o is not None]
    if text in ("you", "controller"):
        return [ctx.controller]
    if text == "each_opponent":  # rule 102.3: not on your team; in APNAP order (101.4)
        return list[Thing](game.opponents(ctx.controller))
    if text == "each_player":  # the players still in the game, in APNAP order (101.4, 800.4a)
        return list(game.apnap())
    if text == "enchanted":  # what the source enchants, or last enchanted as it left (LKI)
        live = ctx.source_live()
        snap = ctx.source if isinstance(ctx.source, Snapshot) else None
        attached = live.attached_to if live is not None else (game.lki.get(ctx.source.oid) or snap or live)
        if attached is not None and not isinstance(attached, int):
            attached = attached.attached_to
        host = game.find(attached) if isinstance(attached, int) else None
        return [host] if host is not None else []
    raise ScriptError(f"unknown reference {ref!r}")


def objects(ctx: Context, ref: Any) -> list[GameObject]:
    return [t for t in things(ctx, ref) if isinstance(t, GameObject)]


def players(ctx: Context, ref: Any) -> list[str]:
    return [t for t in things(ctx, ref) if isinstance(t, str)]


def amount(ctx: Context, expr: Any, pt: str | None = None) -> int:
    """Evaluate an amount. Rule 107.1b: a calculation that yields a negative number counts as 0, unless the effect
    sets power / toughness to a value (``pt="set"``); an effect that changes P/T (``pt="modify"``) keeps only a
    printed negative number ("-6/-0" is no calculation), and a calculated one only under the rules before Hour of
    Devastation (2017: "or otherwise modifies a creature's power or toughness")."""
    game = ctx.game
    if isinstance(expr, bool):
        raise ScriptError(f"bad amount {expr!r}")
    if isinstance(expr, int) or (isinstance(expr, str) and expr.lstrip("-").isdigit()):
        literal = int(expr)  # a printed number, not the result of a calculation
        return literal if pt is not None else max(0, literal)
    if expr == "X":
        value = ctx.x
    elif isinstance(expr, dict) and "sacrificed" in (expr.get("power_of"), expr.get("toughness_of")):
        # "gains life equal to that creature's toughness": the one sacrificed, as it last existed (608.2h)
        gone = ctx.sacrificed[0].chars if ctx.sacrificed else None
        stat = None if gone is None else gone.power if "power_of" in expr else gone.toughness
        value = stat or 0
    elif isinstance(expr, dict) and ("power_of" in expr or "toughness_of" in expr):
        key = "power_of" if "power_of" in expr else "toughness_of"
        ref = expr[key]
        objs = objects(ctx, ref)
        event = ctx.event
        left = event is not None and event.kind == "zone_change" and event.from_zone == "battlefield"
        if ref == "it" and event is not None and left and event.lki is not None:
            chars = event.lki.chars  # rules 603.10a, 608.2h: "its power" when it died is as it last existed there
        elif objs:
            chars = game.chars(objs[0])
        elif ref == "self":
            chars = game.source_chars(ctx.source)[0]  # last known information
        elif (snap := _target_lki(ctx, ref)) is not None:
            chars = snap.chars  # rule 608.2h: "that creature's power" once it has left (Grisly Spectacle, Goliath)
        else:
            return 0
        stat = chars.power if key == "power_of" else chars.toughness
        value = stat or 0
    elif isinstance(expr, dict) and "greatest_power" in expr:  # "the greatest power among creatures you control"
        value = power_among.greatest_power(game, expr["greatest_power"], ctx.controller, ctx.source_live())  # now
    elif isinstance(expr, dict) and "mana_value_of" in expr:  # "that card's mana value" (202.3, 202.3e)
        found = objects(ctx, expr["mana_value_of"])
        snap = None if found else _target_lki(ctx, expr["mana_value_of"])  # gone: as it last existed (608.2h)
        value = game.chars(found[0]).mana_value if found else snap.chars.mana_value if snap is not None else 0
    elif isinstance(expr, dict) and "event_amount" in expr:
        value = ctx.event.amount if ctx.event is not None else 0
    elif isinstance(expr, dict) and "discarded" in expr:  # "draws that many cards": the cards that player (each
        whose = ctx.controller if expr["discarded"] == "you" else ctx.each or ctx.controller  # one in turn) or
        value = ctx.discarded.get(whose, 0)  # you discarded this way (608.2c)
    elif isinstance(expr, dict) and "sum" in expr:  # "that many cards minus one": {sum: [AMOUNT, -1]}
        value = sum(amount(ctx, part, "set") for part in expr["sum"])  # parts may be negative; the total counts
    elif isinstance(expr, dict) and "most_discarded" in expr:  # "the greatest number of cards a player discarded
        value = max(ctx.discarded.values(), default=0)  # this way": by this effect's earlier discards (608.2c)
    elif isinstance(expr, dict) and "counters_removed" in expr:  # "it deals that much damage": the counters
        value = ctx.removed  # this effect's earlier remove_counters removed (608.2c)
    elif isinstance(expr, dict) and "damage_dealt" in expr:  # "you gain life equal to the damage dealt this way"
        value = ctx.dealt  # what was dealt after prevention, unbounded by toughness or life (608.2c, 120.3)
    elif isinstance(expr, dict) and "count" in expr and "zone" in expr["count"]:  # cards in a zone (its owner's)
        filt = {k: v for k, v in expr["count"].items() if k != "zone"}
        pool = [o for o in game.all_objects() if o.zone == expr["count"]["zone"]]
        value = sum(1 for o in pool if matches(game, o, game.chars(o), filt, ctx.controller, ctx.source_live()))
    elif isinstance(expr, dict) and "count" in expr:  # `of`: the filter's "you" is that player (as for `all`)
        value = len(objects(ctx, {"all": expr["count"], **({"of": expr["of"]} if "of" in expr else {})}))
    elif isinstance(expr, dict) and "count_made" in expr:  # "for each [blue] card exiled this way"
        value = sum(1 for o in ctx.made if matches(game, o, game.chars(o), expr["count_made"], ctx.controller, None))
    elif isinstance(expr, dict) and "player_counters" in expr:  # "the number of experience counters you have"
        spec = expr["player_counters"]
        who = players(ctx, spec.get("of", "you")) if isinstance(spec, dict) else [ctx.controller]
        kind = str(spec["kind"] if isinstance(spec, dict) else spec)
        value = sum(game.players[p].counter_count(kind) for p in who)
    elif isinstance(expr, dict) and "number_of_counters" in expr:  # "for each -1/-1 counter on it" (LKI if it left)
        spec = expr["number_of_counters"]
        on = objects(ctx, spec.get("what", "self"))
        if on:
            value = on[0].counters.get(str(spec["kind"]), 0)
        elif spec.get("what", "self") == "self" and isinstance(ctx.source, Snapshot):
            value = ctx.source.counters.get(str(spec["kind"]), 0)
        else:
            value = 0
    elif isinstance(expr, dict) and "this_turn" in expr:  # this turn's history
        value = _this_turn(ctx, dict(expr["this_turn"]))
    elif isinstance(expr, dict) and "negate" in expr:
        value = -amount(ctx, expr["negate"], pt)  # "-X": X itself is the calculation (counts as 0 if negative)
        return value if pt is not None else max(0, value)
    else:
        raise ScriptError(f"bad amount {expr!r}")
    keep = pt == "set" or (pt == "modify" and game.options.negative_amounts_modify_pt)
    return value if keep else max(0, value)


def _this_turn(ctx: Context, spec: dict[str, Any]) -> int:
    """ "The life you lost this turn" (119.3), "the cards you've drawn this turn" (121.1), "the damage dealt to
    target opponent this turn" (120; ``source`` / ``combat`` narrow it)."""
    game = ctx.game
    if "life_lost" in spec:
        return sum(game.history.life_lost[p] for p in players(ctx, spec["life_lost"]))
    if "cards_drawn" in spec:
        return sum(game.history.cards_drawn[p] for p in players(ctx, spec["cards_drawn"]))
    rest = {k: v for k, v in spec.items() if k != "damage_to"}
    return history.damage_to(game, rest, things(ctx, spec["damage_to"]), ctx.controller, ctx.source)


def _continuous(ctx: Context, layer: str, kind: str, data: dict[str, Any], on: Any, duration: Any) -> None:
    targets = objects(ctx, on)
    if not targets:
        return
    game = ctx.game
    source = game.find(ctx.source.oid)
    if duration == "while_source_on_battlefield" and (source is None or source.zone != "battlefield"):
        # rule 611.2b: "for as long as [it] remains on the battlefield" — it already left: the effect does nothing
        game.log(f"{narr.obj(game, ctx.source)} уже не на поле битвы: эффект «пока он остается на поле битвы» "
                 "ничего не делает (правило 611.2b)")
        return
    game.effects.append(
        ContinuousEffect(
            layer=layer,
            kind=kind,
            data=data,
            timestamp=game.new_timestamp(),
            affected=frozenset(o.oid for o in targets),
            duration=str(duration or "end_of_turn"),
            source_oid=ctx.source.oid,
            controller=ctx.controller,
        )
    )
    game.touch()
    names = ", ".join(narr.obj(game, o) for o in targets)
    game.log(f"Эффект ({_LAYER_RU.get(kind, kind)}) применяется к {names}")


_LAYER_RU = {
    "pump": "изменение силы/выносливости, слой 7c",
    "set_pt": "установка силы/выносливости, слой 7b",
    "switch_pt": "обмен силы и выносливости, слой 7e",
    "grant": "добавление способностей, слой 6",
    "lose_abilities": "потеря способностей, слой 6",
    "lose_keywords": "потеря способности, слой 6",
    "set_colors": "цвет, слой 5",
    "set_types": "типы, слой 4",
    "add_types": "типы, слой 4",
    "set_subtypes": "подтипы, слой 4",
    "control": "контроль, слой 2",
    "change_text": "изменение текста, слой 3",
}


# -- effects -----------------------------------------------------------------------------------------
@effect("damage")
def _damage(ctx: Context, v: dict[str, Any]) -> None:
    """The spell or the ability's source deals the damage; ``source: REF`` names another dealer ("it deals that much
    damage": Arcbond's creature, rule 120.1), and then a recipient filter's ``other`` means other than that dealer."""
    n = amount(ctx, v.get("amount", 0))
    unpreventable = bool(v.get("cant_be_prevented"))  # "this damage can't be prevented" (615.12)
    source: GameObject | Snapshot = ctx.spell or ctx.source
    recipients = ctx
    if "source" in v:
        dealer = _damage_source(ctx, v["source"])
        if dealer is None:
            ctx.game.log("Источника этих повреждений больше нет, и о нем ничего не известно: повреждения не наносятся")
            return
        source = dealer
        recipients = dataclass_replace(ctx, source=source, spell=None)
    for thing in things(recipients, v.get("to", "target")):
        ctx.dealt += replacement.deal_damage(ctx.game, source, thing, n, cant_be_prevented=unpreventable)


def _damage_source(ctx: Context, ref: Any) -> GameObject | Snapshot | None:
    """The object a ``source:`` names: live on the battlefield, else as it last existed there (rules 608.2h,
    120.1: a creature dealt lethal damage still deals "that much damage" once it has died)."""
    game = ctx.game
    if ref == "that":  # rule 603.7c: the delayed trigger's very object
        for oid in ctx.about:
            live = game.find(oid)
            if live is not None and live.zone == "battlefield":
                return live
            if (snap := game.lki.get(oid)) is not None:
                return snap
        return None
    if ref == "self":
        return ctx.source_live() or ctx.source
    found = objects(ctx, ref)
    return found[0] if found else _target_lki(ctx, ref)


@effect("destroy")
def _destroy(ctx: Context, v: Any) -> None:
    """``destroy: REF``, or ``{what, no_regeneration, instead}``: "it can't be regenerated" (701.19c), "if it would
    be put into a graveyard this way, put it into ZONE instead" (a self-replacement effect, 614.15)."""
    game = ctx.game
    spec = v if isinstance(v, dict) and "what" in v else {"what": v}
    with game.simultaneously():
        for obj in objects(ctx, spec["what"]):
            replacement.destroy(
                game, obj, no_regeneration=bool(spec.get("no_regeneration")), instead=spec.get("instead")
            )


@effect("destroy_all")
def _destroy_all(ctx: Context, v: Any) -> None:
    game = ctx.game
    with game.simultaneously():
        for obj in objects(ctx, {"all": v}):
            replacement.destroy(game, obj)


@effect("counters")
def _counters(ctx: Context, v: dict[str, Any]) -> None:
    """Counters on permanents, or on players ("you get two experience counters", rule 122.1), in APNAP order."""
    n = amount(ctx, v.get("n", 1))
    for thing in things(ctx, v.get("on", "target")):
        if isinstance(thing, str):
            ctx.game.give_counters(thing, str(v["kind"]), n)
        else:
            ctx.game.put_counters(thing, str(v["kind"]), n)


@effect("remove_counters")
def _remove_counters(ctx: Context, v: dict[str, Any]) -> None:
    for p in players(ctx, v.get("on", "target")):  # a player's counters (122.1; a team's poison, 810.10b)
        ctx.game.remove_player_counters(p, str(v["kind"]), amount(ctx, v.get("n", 1)))
    for obj in objects(ctx, v.get("on", "target")):
        kind = _kind_to_remove(ctx, obj, str(v["kind"]))
        if kind is None:
            ctx.game.log(f"{narr.obj(ctx.game, obj)}: жетонов нет, убирать нечего")
            continue
        have = obj.counters.get(kind, 0)
        n = have if v.get("n") == "all" else min(amount(ctx, v.get("n", 1)), have)  # "remove all +1/+1 counters"
        ctx.removed += n
        if n > 0:
            ctx.game.log(f"С {narr.obj(ctx.game, obj)} убирается {narr.counter(kind, n)}")
        ctx.game.remove_counters(obj, kind, n)


def _kind_to_remove(ctx: Context, obj: GameObject, wanted: str) -> str | None:
    """ "Remove a counter from target permanent" (``kind: any``): the kind is chosen as the effect resolves
    (rule 608.2d) among those on it, asked only if it has several; none on it: nothing to remove (609.3)."""
    if wanted != "any":
        return wanted
    held = [k for k, n in obj.counters.items() if n > 0]
    if len(held) <= 1:
        return held[0] if held else None
    answer = ctx.game.decide("counter_kind", ctx.controller, "жетон какого вида убрать?", ctx.source)
    if answer not in held:
        raise IllegalAction(f"на {narr.obj(ctx.game, obj)} нет жетона «{answer}»", "122.1")
    return str(answer)


@effect("move_counters")
def _move_counters(ctx: Context, v: dict[str, Any]) -> None:
    """Rule 122.5: to move a counter is to remove it from one object and put it onto a second; if either can't
    be done (the same object, no such counter, the second can't have it, either gone from the battlefield or an
    illegal target), nothing moves. ``kind``: a kind, ``any`` (one kind, chosen if the first object has several)
    or ``all`` (every counter on it); ``n``: an amount, ``all``, or ``any_number`` (chosen as it resolves)."""
    game = ctx.game
    sources, dests = objects(ctx, v.get("from", "target0")), objects(ctx, v.get("to", "target1"))
    if not sources or not dests:
        game.log("Жетоны не перемещаются: одна из целей недопустима или ее больше нет на поле битвы (правило 122.5)")
        return
    if sources[0] is dests[0]:
        game.log("Жетоны не перемещаются: это один и тот же объект (правило 122.5)")
        return
    src, dst = sources[0], dests[0]
    wanted = str(v.get("kind", "any"))
    held = [k for k, n in src.counters.items() if n > 0]
    if wanted == "all":
        kinds = held
    elif wanted == "any":
        if len(held) > 1:
            answer = game.decide("counter_kind", ctx.controller, "жетон какого вида переместить?", ctx.source)
            if answer not in held:
                raise IllegalAction(f"на {narr.obj(game, src)} нет жетона «{answer}»", "122.5")
            kinds = [str(answer)]
        else:
            kinds = held
    else:
        kinds = [wanted] if wanted in held else []
    for kind in kinds:
        have = src.counters[kind]
        spec = v.get("n", 1)
        if spec == "all" or wanted == "all":
            n = have
        elif spec == "any_number":
            answer = game.decide("number", ctx.controller, f"сколько жетонов {kind} переместить (0–{have})?",
                                 ctx.source)
            if not isinstance(answer, int) or not 0 <= answer <= have:
                raise IllegalAction(f"{answer!r}: можно переместить от 0 до {have} жетонов", "122.5")
            n = answer
        else:
            n = min(amount(ctx, spec), have)
        if n <= 0:
            continue
        reason = replacement.counters_forbidden(game, dst, kind, n)
        if reason is not None:
            game.log(f"Жетоны не перемещаются: {reason} (правило 122.5)")
            continue
        what = narr.counter(kind, n)
        game.log(f"{what[0].upper()}{what[1:]} перемещается с {narr.obj(game, src)} на {narr.obj(game, dst)}")
        game.remove_counters(src, kind, n)
        game.put_counters(dst, kind, n)
    if not kinds:
        game.log(f"Жетоны не перемещаются: на {narr.obj(game, src)} нет нужных жетонов (правило 122.5)")


@effect("pump")
def _pump(ctx: Context, v: dict[str, Any]) -> None:
    data = {
        "power": amount(ctx, v.get("power", 0), "modify"),
        "toughness": amount(ctx, v.get("toughness", 0), "modify"),
    }
    _continuous(ctx, "7c", "pump", data, v.get("on", "target"), v.get("duration"))


@effect("set_pt")
def _set_pt(ctx: Context, v: dict[str, Any]) -> None:
    """Rule 613.4b: "has base power and toughness N/N", or only "has base power N" (Crater Elemental)."""
    data: dict[str, Any] = {key: amount(ctx, v[key], "set") for key in ("power", "toughness") if key in v}
    _continuous(ctx, "7b", "set_pt", data, v.get("on", "target"), v.get("duration"))


@effect("switch_pt")
def _switch_pt(ctx: Context, v: dict[str, Any]) -> None:
    _continuous(ctx, "7e", "switch_pt", {}, v.get("on", "target"), v.get("duration"))


@effect("grant")
def _grant(ctx: Context, v: dict[str, Any]) -> None:
    _continuous(
        ctx, "6", "grant", {"keywords": list(v["keywords"])}, v.get("on", "target"), v.get("duration")
    )


@effect("lose_abilities")
def _lose(ctx: Context, v: dict[str, Any]) -> None:
    _continuous(ctx, "6", "lose_abilities", {}, v.get("on", "target"), v.get("duration"))


@effect("lose_keywords")
def _lose_keywords(ctx: Context, v: dict[str, Any]) -> None:
    """Layer 6: "target creature loses flying" (613.1f; against a grant, the later timestamp wins, 613.9)."""
    data = {"keywords": list(v["keywords"])}
    _continuous(ctx, "6", "lose_keywords", data, v.get("on", "target"), v.get("duration"))


@effect("set_colors")
def _colors(ctx: Context, v: dict[str, Any]) -> None:
    _continuous(
        ctx, "5", "set_colors", {"colors": list(v["colors"])}, v.get("on", "target"), v.get("duration")
    )


@effect("set_types")
def _set_types(ctx: Context, v: dict[str, Any]) -> None:
    data: dict[str, Any] = {k: list(v[k]) for k in ("types", "subtypes") if k in v}
    _continuous(ctx, "4", "set_types", data, v.get("on", "target"), v.get("duration"))


@effect("add_types")
def _add_types(ctx: Context, v: dict[str, Any]) -> None:
    data: dict[str, Any] = {k: list(v[k]) for k in ("types", "subtypes") if k in v}
    _continuous(ctx, "4", "add_types", data, v.get("on", "target"), v.get("duration"))


@effect("gain_control")
def _control(ctx: Context, v: dict[str, Any]) -> None:
    game = ctx.game
    found = objects(ctx, v.get("on", "target"))
    gainer = ctx.controller
    # ``player``: "target opponent / that player gains control of ...": that player, not the effect's controller
    # (613.1b); a player may gain control of what they already control: a new effect with no visible change
    if "player" in v:
        whom = players(ctx, v["player"])
        if not whom:
            return
        gainer = whom[0]
    spells = [o for o in found if o.zone == "stack"]
    for spell in spells:  # a spell's controller changes; the permanent it becomes enters under them
        spell.controller = gainer
        game.touch()
        game.log(f"{narr.player(gainer)} получает контроль над заклинанием {narr.obj(game, spell)}")
    if spells and len(spells) == len(found):
        return
    duration = v.get("duration", "permanent")
    if duration == aslong.WHILE_YOU_CONTROL_SOURCE and not aslong.starts(game, ctx.source.oid, ctx.controller):
        return  # rule 611.2b: Dragonlord Silumgar gone or stolen before its ability resolves
    for obj in found:
        obj.steady_controller = None  # summoning sickness applies to the new controller (rule 302.6)
    _continuous(
        ctx,
        "2",
        "control",
        {"controller": gainer},
        v.get("on", "target"),
        duration,
    )
    game.touch()


@effect("exchange_control")
def _exchange_control(ctx: Context, v: dict[str, Any]) -> None:
    """Rule 701.12a-b: if the whole exchange can't be done (either permanent gone or an illegal target), none of it
    is; permanents of one controller exchange nothing; else each controller gains control of the other's permanent
    at once (layer 2, no end). Attached Auras and Equipment stay where they are (only their controller changes)."""
    game = ctx.game
    firsts, seconds = objects(ctx, v.get("a", "target0")), objects(ctx, v.get("b", "target1"))
    if not firsts or not seconds or firsts[0] is seconds[0]:
        game.log("Обмен контролем не происходит: одна из целей недопустима или ее больше нет (правило 701.12a)")
        return
    first, second = firsts[0], seconds[0]
    had_first, had_second = game.controller(first), game.controller(second)
    if had_first == had_second:
        game.log(f"{narr.obj(game, first)} и {narr.obj(game, second)} под контролем одного игрока: обмен ничего не "
                 "делает (правило 701.12b)")
        return
    timestamp = game.new_timestamp()
    for obj, gains in ((first, had_second), (second, had_first)):
        obj.steady_controller = None  # summoning sickness applies to the new controller (rule 302.6)
        game.effects.append(ContinuousEffect(layer="2", kind="control", data={"controller": gains}, timestamp=timestamp,
                                             affected=frozenset({obj.oid}), duration="permanent",
                                             source_oid=ctx.source.oid, controller=ctx.controller))
        game.log(f"{narr.player(gains)} получает контроль над {narr.obj(game, obj)}")
    game.touch()


@effect("draw")
def _draw(ctx: Context, v: dict[str, Any]) -> None:
    """Each player draws N, counted once before anyone draws (608.2c) — but an amount about "that player"
    (``{discarded: that_player}``: "draws that many cards") is counted for each player."""
    expr = v.get("n", 1)
    n = amount(ctx, expr)
    for p in players(ctx, v.get("player", "you")):
        if _about_each(expr):
            ctx.each = p
            n = amount(ctx, expr)
            ctx.each = None
        for _ in range(n):
            draw_card(ctx.game, p)


def _about_each(expr: Any) -> bool:
    """Whether an amount names "that player" (the one an effect for several players is doing its part for)."""
    if isinstance(expr, dict):
        return expr.get("discarded") == "that_player" or any(_about_each(x) for x in expr.values())
    if isinstance(expr, list):
        return any(_about_each(x) for x in expr)
    return False


def draw_card(game: Game, player: str) -> None:
    """One card draw (rule 121.2), unless a replacement effect replaces it (121.6, 614.11) — or by several draws
    ("draw two cards instead", 614.6)."""
    for _ in range(replacement.draws_after_replacement(game, player)):
        _draw_one(game, player)


def _draw_one(game: Game, player: str) -> None:
    """A draw no replacement effect changes any more: the top card into the hand (121.1)."""
    lib = game.players[player].library
    if not lib:
        game.players[player].drew_from_empty_library = True
        game.log(f"{narr.player(player)} должен взять карту из пустой библиотеки")
        return
    drawn = game.move(lib[-1], "hand")
    triggers.collect(game, Event("draw", obj=drawn, player=player))  # "whenever you draw a card"; the history


@effect("discard")
def _discard(ctx: Context, v: dict[str, Any]) -> None:
    """The discarding player chooses the cards (a scripted ``discard`` decision)."""
    game = ctx.game
    whole = v.get("n") == "all"  # "discard your hand"
    n = 0 if whole else amount(ctx, v.get("n", 1))
    for p in players(ctx, v.get("player", "target")):
        # rule 111.8: a token that has left the battlefield (returned to a hand) can't move again: it isn't discarded
        hand = [c for c in game.players[p].hand if not c.card.is_token]
        if whole:
            n = len(hand)
        if n <= 0 or not hand:
            continue
        if len(hand) <= n:
            chosen = list(hand)
        elif v.get("random"):
            chosen = _at_random(ctx, hand, n)
        else:
            refs = game.decide("discard", p, f"какие {n} карт(ы) сбросить?", ctx.source)
            refs = refs if isinstance(refs, list) else [refs]
            chosen = [next(c for c in hand if r in (c.card.ref, c.card.definition.name)) for r in refs]
        for card in chosen:
            game.log(f"{narr.player(p)} сбрасывает {narr.obj(game, card)}" + (" (случайно)" if v.get("random") else ""))
            ctx.made.append(game.move(card, "graveyard"))  # "if you discard a creature card this way" (608.2c)
        ctx.discarded[p] = ctx.discarded.get(p, 0) + len(chosen)  # "discarded this way" (608.2c)


def _at_random(ctx: Context, hand: list[GameObject], n: int) -> list[GameObject]:
    """Rule 701.9b: "discard a card at random" — no player chooses: a scripted random outcome (``kind: random``,
    the card ref or a list of them) or the scenario's seed."""
    import random

    answer = ctx.game.decide_or_seed("random", ctx.controller, f"какие {n} карт(ы) выпали случайно?", ctx.source)
    if isinstance(answer, dict) and "seed" in answer:
        return random.Random(int(answer["seed"])).sample(hand, n)
    refs = answer if isinstance(answer, list) else [answer]
    if len(refs) != n:
        raise ScriptError(f"случайный выбор: нужно {n} карт(ы), не {len(refs)}")
    return [_pick(ctx.game, hand, str(r), "карта руки этого игрока", "701.9b") for r in refs]


@effect("gain_life")
def _gain(ctx: Context, v: dict[str, Any]) -> None:
    n = amount(ctx, v.get("n", 1))
    for p in players(ctx, v.get("player", "you")):
        if gained := ctx.game.gain_life(p, n):  # what replacement effects made of it (119.10)
            ctx.game.log(f"{narr.player(p)} получает {gained} жизни (жизнь: {ctx.game.players[p].life})")


@effect("set_life")
def _set_life(ctx: Context, v: dict[str, Any]) -> None:
    """Rule 119.5: "a player's life total becomes N": that player gains or loses the difference, so a player who
    can't gain life keeps a lower total (119.7) and life-gain replacements apply to the gain (119.10). Every number
    is counted first, as the effect begins; ``their``: counted with that player as "you" ("the number of creatures
    they control")."""
    game = ctx.game
    wanted = [
        (p, amount(dataclass_replace(ctx, controller=p) if v.get("their") else ctx, v["n"]))
        for p in players(ctx, v.get("player", "you"))
    ]
    for p, n in wanted:
        now = game.players[p].life
        game.log(f"Количество жизни игрока {narr.player(p)} становится {n} (было {now}; правило 119.5)")
        if n > now and (gained := game.gain_life(p, n - now)):
            game.log(f"{narr.player(p)} получает {gained} жизни (жизнь: {game.players[p].life})")
        elif n < now and life.lose_life(game, p, now - n):
            game.log(f"{narr.player(p)} теряет {now - n} жизни (жизнь: {game.players[p].life})")


@effect("lose_life")
def _lose_life(ctx: Context, v: dict[str, Any]) -> None:
    n = amount(ctx, v.get("n", 1))
    for p in players(ctx, v.get("player", "target")):
        if life.lose_life(ctx.game, p, n):  # rule 119.8: not if that player can't lose life
            ctx.game.log(f"{narr.player(p)} теряет {n} жизни (жизнь: {ctx.game.players[p].life})")


def choose_opponent(game: Game, player: str, source: Any, why: str) -> str:
    """ "An opponent": the only one, else the player's choice (an ``opponent`` decision, rule 800.4g)."""
    found = game.opponents(player)
    if len(found) == 1:
        return found[0]
    answer = game.decide("opponent", player, f"{why}: выберите оппонента ({', '.join(found)})", source)
    if answer not in found:
        raise IllegalAction(f"{answer!r} — не оппонент игрока {narr.player(player)} в игре", "102.3")
    return str(answer)


@effect("emblem")
def _emblem(ctx: Context, v: dict[str, Any]) -> None:
    """ "You get an emblem with ..." (rule 114.2)."""
    from rules_engine import emblems

    for p in players(ctx, v.get("player", "you")):
        emblems.create(ctx, v, p)


@effect("poison")
def _poison(ctx: Context, v: dict[str, Any]) -> None:
    """A player gets poison counters (rule 122.1f; ten or more: the player loses, 704.5c)."""
    n = amount(ctx, v.get("n", 1))
    for p in players(ctx, v.get("player", "target")):
        ctx.game.give_counters(p, "poison", n)


@effect("cant_gain_life")
def _cant_gain_life(ctx: Context, v: dict[str, Any]) -> None:
    """ "[Players] can't gain life this turn" (rule 119.7): a "can't" effect until the turn ends, or with
    ``duration: permanent`` "for the rest of the game" (611.2a: it lasts though its source leaves)."""
    duration = str(v.get("duration", "end_of_turn"))
    for p in players(ctx, v.get("player", "each_player")):
        ctx.game.delayed.append({"kind": "cant_gain_life", "player": p, "duration": duration})
        when = "в этом ходу" if duration == "end_of_turn" else "до конца игры"
        ctx.game.log(f"{narr.player(p)} не может получать жизнь {when}")


@effect("cant_be_targeted")
def _cant_be_targeted(ctx: Context, v: dict[str, Any]) -> None:
    """ "Permanents you control can't be the targets of [blue or black] spells your opponents control this turn"
    (rules 601.2c, 608.2b): a rule for the rest of the turn about whatever that player controls (not an ability the
    permanents gain); ``by`` filters the spells, seen from the effect's controller (``controller: opponent``)."""
    for p in players(ctx, v.get("player", "you")):
        ctx.game.delayed.append({"kind": "cant_be_targeted", "player": p, "by": v.get("by"), "duration": "end_of_turn"})
        ctx.game.log(f"{narr.player(p)}: перманенты этого игрока не могут быть целями таких заклинаний в этом ходу")


@effect("damage_cant_be_prevented")
def _damage_cant_be_prevented(ctx: Context, v: Any) -> None:
    """ "Damage can't be prevented this turn" (rule 615.12)."""
    ctx.game.delayed.append({"kind": "damage_cant_be_prevented", "duration": "end_of_turn"})
    ctx.game.log("Повреждения не могут быть предотвращены в этом ходу")


@effect("exile_if_dies")
def _exile_if_dies(ctx: Context, v: Any) -> None:
    """ "If that creature would die this turn, exile it instead" (rule 614.1a): a one-shot replacement effect."""
    for obj in objects(ctx, v):
        ctx.game.delayed.append(
            {"kind": "exile_if_dies", "oid": obj.oid, "ref": ctx.source.card.ref, "duration": "end_of_turn"}
        )
        ctx.game.log(f"Если {narr.obj(ctx.game, obj)} должен умереть в этом ходу, он будет изгнан вместо этого")


@effect("reflexive_trigger")
def _reflexive_trigger(ctx: Context, v: dict[str, Any]) -> None:
    """Rule 603.12: "... When you do, EFFECT." Reached only once the action it follows was taken (it sits in that
    action's ``then``), it triggers at once and goes on the stack the next time a player would receive priority,
    its targets chosen then (after the action, unlike "if you do"); its source and controller are those of the
    resolving spell or ability, as for a delayed trigger (603.7d-e)."""
    game = ctx.game
    spec: dict[str, Any] = {"triggered": "reflexive", "effect": v["effect"]}
    for key in ("targets", "name_ru"):
        if key in v:
            spec[key] = v[key]
    ability = AbilityDef("triggered", str(v.get("name", "reflexive")), spec)
    source = ctx.source if isinstance(ctx.source, Snapshot) else game.snapshot(ctx.source)
    game.pending_triggers.append(
        triggers.PendingTrigger(ctx.controller, ability, source, ctx.event or Event("reflexive"))
    )


@effect("delayed_trigger")
def _delayed_trigger(ctx: Context, v: dict[str, Any]) -> None:
    """Create a delayed triggered ability (rule 603.7a): its source and controller are those of the creating
    spell or ability (603.7d, 603.7e); ``about`` fixes the objects "that creature" means now (603.7c)."""

    game = ctx.game
    spec: dict[str, Any] = {"triggered": v["when"], "effect": v["effect"]}
    for key in ("filter", "condition", "name_ru"):
        if key in v:
            spec[key] = v[key]
    ability = AbilityDef("triggered", str(v.get("name", "delayed")), spec)
    about = tuple(o.oid for o in objects(ctx, v["about"])) if "about" in v else ()
    if "about" in v and not about:
        game.log("Отложенная способность не создается: того объекта уже нет там, где он был (правило 603.7a)")
        return
    source = ctx.source if isinstance(ctx.source, Snapshot) else game.snapshot(ctx.source)
    game.delayed_triggers.append(
        DelayedTrigger(ability, ctx.controller, source, about, this_turn=v.get("duration") == "this_turn")
    )
    whom = ", ".join(narr.obj(game, o) for o in objects(ctx, v["about"])) if about else ""
    game.log(
        f"Создается отложенная срабатывающая способность «{narr.ability_label(ability)}»"
        + (f" (ее объект: {whom})" if whom else "")
        + (" до конца хода" if v.get("duration") == "this_turn" else "")
    )


@effect("exile")
def _exile(ctx: Context, v: Any) -> None:
    """The exiled cards are new objects (rule 400.7); ``made`` names them for the rest of the effect ("exile target
    creature; at the beginning of the next end step, return that card")."""
    for obj in objects(ctx, v):
        ctx.made.append(ctx.game.move(obj, "exile"))


@effect("return_to_hand")
def _bounce(ctx: Context, v: Any) -> None:
    """The cards returned are ``made``: "if that card is a Goblin card", read as the effect resolves (608.2c)."""
    for obj in objects(ctx, v):
        ctx.made.append(ctx.game.move(obj, "hand"))


@effect("sacrifice")
def _sacrifice(ctx: Context, v: Any) -> None:
    """Only a permanent's controller sacrifices it; ``by: its_controller`` means whoever controls it now."""
    what = v.get("what", "self") if isinstance(v, dict) else v
    anyone = isinstance(v, dict) and v.get("by") == "its_controller"
    for obj in objects(ctx, what):
        if anyone or ctx.game.controller(obj) == ctx.controller:
            who = ctx.game.controller(obj)
            ctx.game.log(f"{narr.player(who)} приносит в жертву {narr.obj(ctx.game, obj)}")
            ctx.game.move(obj, "graveyard")


@effect("return_to_battlefield")
def _return(ctx: Context, v: dict[str, Any]) -> None:
    """Return a card from the graveyard (persist): only the very object the event put there (rule 400.7)."""
    game = ctx.game
    found = [obj for obj in objects(ctx, v.get("what", "it")) if obj.zone == "graveyard"]
    if not found:
        game.log("Этого объекта больше нет на кладбище: возвращать нечего (правило 400.7)")
    for obj in found:
        under = obj.owner if v.get("under", "owner") == "owner" else ctx.controller
        counters = {str(k): int(n) for k, n in (v.get("counters") or {}).items()}
        game.log(
            f"{narr.obj(game, obj)} возвращается на поле битвы под контролем игрока {narr.player(under)}"
        )
        new = game.move(obj, "battlefield", controller=under, counters=counters, tapped=bool(v.get("tapped")))
        if v.get("attacking") and new.zone == "battlefield":  # "tapped and attacking" (rule 508.4)
            attacking.enter_attacking(game, new)


@effect("put_onto_battlefield")
def _reanimate(ctx: Context, v: dict[str, Any]) -> None:
    """The permanent is a new object (rule 400.7); ``made`` names it for the rest of the effect ("put target
    creature card … onto the battlefield under your control. It gains haste. … exile it", 608.2c)."""
    for obj in objects(ctx, v.get("what", "target")):
        under = obj.owner if v.get("under") == "owner" else ctx.controller
        # face down: a 2/2 with no name, text or types (rule 708.2a), turned up by its morph cost (702.37e)
        new = ctx.game.move(obj, "battlefield", controller=under, face_down=bool(v.get("face_down")))
        if new.zone == "battlefield":
            ctx.made.append(new)


@effect("create_token")
def _token(ctx: Context, v: dict[str, Any]) -> None:
    spec = dict(v["token"])
    name = str(spec.pop("name"))
    if "x" in v:  # "an X/X token, where X is ...": counted once as the effect resolves, printed on it (608.2h)
        spec["pt"] = str(spec["pt"]).replace("X", str(amount(ctx, v["x"])))
    definition = parse_card(name, spec, ctx.source.card.definition.source)
    # "Its controller creates ...": the token is that player's (rule 111.2: its owner is the player who created it)
    for player in players(ctx, v["player"]) if "player" in v else [ctx.controller]:
        for _ in range(amount(ctx, v.get("n", 1))):
            card = Card(ref=str(v.get("ref", name)), definition=definition, owner=player, is_token=True)
            token = _token_enters(ctx, card, player, tapped=bool(v.get("tapped")))
            ctx.made.append(token)  # "create a Germ token, then attach this to it" (702.92a)
            if v.get("attacking"):  # "a token that's tapped and attacking" (rule 508.4)
                attacking.enter_attacking(ctx.game, token)


def _token_enters(ctx: Context, card: Card, player: str | None = None, tapped: bool = False) -> GameObject:

    game = ctx.game
    player = player or ctx.controller
    obj = game.new_object(card, "battlefield", player, tapped=tapped)
    copies.as_enters(game, obj)  # a token copy of a Clone may itself enter as a copy (707.8a, second Example)
    replacement.apply_entering(game, obj, Counter())
    anchors.as_enters(game, obj)  # rule 614.12c: a token copy of a Siege makes its own choice
    game.log(f"{narr.player(player)} создает {narr.obj(game, obj)}")
    triggers.collect(game, Event("zone_change", obj=obj, from_zone=None, to_zone="battlefield"))
    return obj


@effect("create_token_copy")
def _token_copy(ctx: Context, v: dict[str, Any]) -> None:
    """Rules 707.2, 111.1: the token is defined by the copiable values of the original — printed, as modified by
    copy effects and its face-down status, with the exceptions (707.9) — not by its counters, status or other
    effects. An original that has left since it was targeted is copied as it last existed (608.2h: "return target
    creature to its owner's hand; create a token that's a copy of that creature")."""
    for obj in _copy_originals(ctx, v.get("of", "target")):
        definition = copies.with_exceptions(copies.copiable_values(ctx.game, obj), v.get("except"),
                                            this_ability=ctx.ability)
        card = Card(ref=f"{obj.card.ref} (copy)", definition=definition, owner=ctx.controller, is_token=True)
        token = _token_enters(ctx, card, tapped=bool(v.get("tapped")))
        ctx.made.append(token)  # "exile the token at end of combat": a delayed ability `about: made`
        if v.get("attacking"):  # "a token that's a copy ... and that's tapped and attacking" (rule 508.4)
            attacking.enter_attacking(ctx.game, token)


def _target_lki(ctx: Context, ref: Any) -> Snapshot | None:
    """A legal target, or the object of the event (``it``), that has left its zone since (608.2h): its last
    known information, else None."""
    text = str(ref)
    if text == "it" and ctx.event is not None and ctx.event.obj is not None:
        return ctx.game.lki.get(ctx.event.obj.oid)
    if text == "event_target" and ctx.event is not None and isinstance(ctx.event.target, Snapshot):
        return ctx.event.target  # "the exploited creature": the event's own record of it as it last existed
    if not text.startswith("target"):
        return None
    index = int(text[6:] or 0)
    if index >= len(ctx.targets) or (ctx.legal and not ctx.legal[index]) or ctx.targets[index].oid is None:
        return None
    return ctx.game.lki.get(ctx.targets[index].oid)  # type: ignore[arg-type]


def _copy_originals(ctx: Context, ref: Any) -> list[GameObject | Snapshot]:
    live: list[GameObject | Snapshot] = list(objects(ctx, ref))
    if live:
        return live
    snap = _target_lki(ctx, ref)
    return [snap] if snap is not None else []


@effect("become_copy")
def _become_copy(ctx: Context, v: dict[str, Any]) -> None:
    """Rule 707.1 / 707.4: each permanent ``what`` becomes a copy of ``of`` (its copiable values now, locked:
    707.2b), with the exceptions (707.9); "until end of turn" or for good. It stays the same object. The event's
    card that has left its zone since ("become a copy of that card") is copied as it last existed there (608.2h)."""
    originals = _copy_originals(ctx, v["of"])
    if not originals:
        return  # the object to copy is gone (an illegal target): nothing to copy
    original = originals[0]
    values = copies.copiable_values(ctx.game, original)
    for obj in objects(ctx, v.get("what", "self")):
        if obj.zone != "battlefield" or obj.oid == original.oid:
            continue  # a creature becoming a copy of itself keeps its values
        own = copies.copiable_values(ctx.game, obj)
        copied = copies.with_exceptions(values, v.get("except"), this_ability=ctx.ability, own=own)
        copies.become_copy(ctx.game, obj, copied, duration=str(v.get("duration") or "permanent"),
                           source_oid=ctx.source.oid, controller=ctx.controller)


@effect("regenerate")
def _regenerate(ctx: Context, v: Any) -> None:
    for obj in objects(ctx, v):
        obj.regeneration_shields += 1
        ctx.game.log(f"{narr.obj(ctx.game, obj)} получает щит регенерации")


@effect("prevent_damage")
def _prevent(ctx: Context, v: dict[str, Any]) -> None:
    """A prevention shield (615.7) on recipients, or on a source's damage (615.1a). ``by``: only damage from sources
    matching a filter, read as the damage would be dealt; ``to_all``: the permanents matching a filter then;
    ``then``: what it does with the damage it prevents (615.5); ``from: chosen_source``: a source of the
    controller's choice, chosen as the effect resolves (615.8), matching ``by``, if there is one."""
    n = None if v.get("n", "all") == "all" else amount(ctx, v["n"])
    terms = _shield_terms(ctx, v)
    if "from" in v:  # rule 615.1a: "prevent all damage [that source] would deal this turn", a shield on the source
        sources = _chosen_source(ctx, v.get("by")) if v["from"] == "chosen_source" else objects(ctx, v["from"])
        for src in sources:
            ctx.game.delayed.append({"kind": "prevent", "from": src.oid, "n": n, **terms})
            ctx.game.log(f"Повреждения, которые нанесет {narr.obj(ctx.game, src)}, будут предотвращены в этом ходу")
        return
    recipients = things(ctx, v["to"]) if "to" in v or "to_all" not in v else []
    if "to_all" in v and not recipients:  # only the permanents the filter names
        ctx.game.delayed.append({"kind": "prevent", "n": n, **terms})
    for thing in recipients:
        key = thing if isinstance(thing, str) else thing.oid
        ctx.game.delayed.append({"kind": "prevent", "to": key, "n": n, **terms})
        ctx.game.log(
            f"Следующие {n if n is not None else 'все'} повр. для "
            f"{replacement.recipient_label(ctx.game, thing)} будут предотвращены в этом ходу"
        )
    if "to_all" in v:
        ctx.game.log("Повреждения указанным эффектом перманентам будут предотвращены в этом ходу")


def _shield_terms(ctx: Context, v: dict[str, Any]) -> dict[str, Any]:
    """What a prevention shield keeps from its resolution: its controller (the "you" of its filters), the spell or
    source as it is now (the source of a follow-up's damage, 615.5), the targets chosen on casting."""
    game = ctx.game
    maker = ctx.spell or ctx.source
    snap = game.snapshot(maker) if isinstance(maker, GameObject) else maker
    terms: dict[str, Any] = {"duration": "end_of_turn", "ref": ctx.source.card.ref, "controller": ctx.controller}
    for key in ("by", "to_all", "then"):
        if key in v:
            terms[key] = v[key]
    if "then" in v:
        terms.update(source=snap, targets=list(ctx.targets), x=ctx.x)
    return terms


def _chosen_source(ctx: Context, filt: dict[str, Any] | None) -> list[GameObject]:
    """Rule 615.8 (609.7a): "a source of your choice" is chosen as the effect resolves, not targeted: any permanent
    or spell matching the filter (a ``source`` decision naming it); with none to choose, nothing is prevented."""
    game = ctx.game
    pool = [o for o in [*game.battlefield, *game.stack] if isinstance(o, GameObject)
            and matches(game, o, game.chars(o), filt or {}, ctx.controller, ctx.source_live())]
    if not pool:
        game.log("Нет источника, который можно выбрать: ничего не будет предотвращено (правило 615.8)")
        return []
    answer = game.decide("source", ctx.controller, "источник повреждений какого объекта выбрать?", ctx.source)
    chosen = _pick(game, pool, answer, "источник, подходящий под условие эффекта", "615.8")
    game.log(f"{narr.player(ctx.controller)} выбирает источник: {narr.obj(game, chosen)}")
    return [chosen]


@effect("redirect_damage")
def _redirect(ctx: Context, v: dict[str, Any]) -> None:
    new = things(ctx, v["to"])
    for thing in things(ctx, v.get("from", "target")):
        if not new:
            return
        key = thing if isinstance(thing, str) else thing.oid
        dest = new[0] if isinstance(new[0], str) else new[0].oid
        n = amount(ctx, v["n"]) if "n" in v else None  # "the next N damage": only that much is redirected
        ctx.game.delayed.append(
            {"kind": "redirect", "to": key, "new": dest, "n": n, "duration": "end_of_turn", "ref": ctx.source.card.ref}
        )


@effect("tap")
def _tap(ctx: Context, v: Any) -> None:
    for obj in objects(ctx, v):
        tapping.tap(ctx.game, obj)  # an already tapped permanent doesn't "become tapped"


@effect("untap")
def _untap(ctx: Context, v: Any) -> None:
    for obj in objects(ctx, v):
        tapping.untap(ctx.game, obj)  # only a tapped permanent becomes untapped (701.26b)


@effect("must_block")
def _must_block(ctx: Context, v: dict[str, Any]) -> None:
    """Rule 509.1c: "target creature blocks [this creature / target creature] this turn if able" — a requirement
    on that creature for this turn, about that very attacker (its object, 400.7)."""
    attacker = objects(ctx, v["attacker"]) if "attacker" in v else []
    if "attacker" in v and not attacker:
        return  # the attacker it is about is gone: nothing to require
    data = {"attacker": attacker[0].oid if attacker else None}
    _requirement(ctx, "must_block", data, v.get("what", "target"))


@effect("must_be_blocked")
def _must_be_blocked(ctx: Context, v: Any) -> None:
    """Rule 509.1c: "target creature must be blocked this turn if able"."""
    _requirement(ctx, "must_be_blocked", {}, v)


@effect("attack_despite_defender")
def _attack_despite_defender(ctx: Context, v: Any) -> None:
    """ "It can attack this turn as though it didn't have defender" (702.3b; DTK Glade Watcher): a permission for
    this turn, about that very creature; it keeps defender (it still can't attack the next turn)."""
    _requirement(ctx, "attack_despite_defender", {}, v)


def _requirement(ctx: Context, kind: str, data: dict[str, Any], on: Any) -> None:
    """A combat requirement lasting this turn: a continuous effect of no layer (rule 611.2a, 509.1c)."""
    game = ctx.game
    targets = objects(ctx, on)
    if not targets:
        return
    game.effects.append(
        ContinuousEffect(
            layer="combat", kind=kind, data=data, timestamp=game.new_timestamp(),
            affected=frozenset(o.oid for o in targets), duration="end_of_turn", source_oid=ctx.source.oid,
            controller=ctx.controller,
        )
    )
    game.log(f"Требование боя до конца хода: {', '.join(narr.obj(game, o) for o in targets)}")


@effect("doesnt_untap")
def _doesnt_untap(ctx: Context, v: Any) -> None:
    """ "It doesn't untap during its controller's next untap step": an effect that keeps a permanent from untapping
    (rule 502.3). It tracks the permanent, not a player: the next untap step of whoever controls it then uses it
    up, whether or not the permanent was tapped; being told twice doesn't make it two untap steps.

    ``{on: REF, duration: while_you_control_source}`` is the continuous "doesn't untap during its controller's
    untap step for as long as you control [this]" (Icefall Regent; rules 502.3, 611.2b): it follows the permanent
    whoever controls it, and ends for good when its source leaves or changes controller (``aslong``)."""
    if isinstance(v, dict):
        _doesnt_untap_while(ctx, v)
        return
    for obj in objects(ctx, v):
        obj.skips_next_untap = True
        ctx.game.log(f"{narr.obj(ctx.game, obj)} не разворачивается во время следующего шага разворота "
                     "контролирующего его игрока")


@effect("next_spell_costs_less")
def _next_spell_costs_less(ctx: Context, v: Any) -> None:
    """ "The next spell you cast this turn costs {1} less to cast" (601.2f; ``next_spell``)."""
    next_spell.add(ctx.game, ctx.controller, str(v))
    ctx.game.log(f"Следующее заклинание, которое {narr.player(ctx.controller)} разыграет в этом ходу, стоит на {v} "
                 "меньше")


def _doesnt_untap_while(ctx: Context, v: dict[str, Any]) -> None:
    """The lasting form of ``doesnt_untap``: a continuous effect read at each untap step (``turn``)."""
    game = ctx.game
    duration = str(v.get("duration", "permanent"))
    if duration == aslong.WHILE_YOU_CONTROL_SOURCE and not aslong.starts(game, ctx.source.oid, ctx.controller):
        return
    found = objects(ctx, v.get("on", "target"))
    if not found:
        return
    game.effects.append(ContinuousEffect(
        layer="untap", kind="doesnt_untap", data={}, timestamp=game.new_timestamp(),
        affected=frozenset(o.oid for o in found), duration=duration, source_oid=ctx.source.oid,
        controller=ctx.controller))
    names = ", ".join(narr.obj(game, o) for o in found)
    game.log(f"{names} не разворачивается во время шага разворота контролирующего его игрока, пока "
             f"{narr.player(ctx.controller)} контролирует {narr.card_label(game, ctx.source.card)}")


@effect("counter_spell")
def _counter(ctx: Context, v: Any) -> None:

    for obj in objects(ctx, v):
        counter_by(ctx, obj)  # rule 701.6a; "can't be countered" wins (101.2)


def counter_by(ctx: Context, obj: GameObject) -> None:
    """Counter ``obj`` by this effect — unless its controller controls a permanent with ``instead_of_countering``
    ("if a spell or ability you control would counter a spell, instead exile that spell and you may play that card
    without paying its mana cost", 614.1a): then the spell is exiled, never countered (no "countered" event), and
    that permanent's controller may cast the card at once, or never; the countering effect goes on resolving. A
    spell that can't be countered isn't countered, so nothing is replaced (101.2)."""
    game = ctx.game
    holder = _counter_replacer(game, ctx.controller)
    if holder is None or obj.zone != "stack" or countering.cant_be_countered(game, obj):
        countering.counter(game, obj)
        return
    game.log(f"{narr.obj(game, holder)}: вместо отмены заклинание {narr.obj(game, obj)} изгоняется (эффект замены)")
    if obj.is_copy:  # a copy exiled ceases to exist (704.5e): there is no card to play
        game.stack.remove(obj)
        game.touch()
        return
    exiled = game.move(obj, "exile")
    play_without_paying(Context(game, game.controller(holder), holder), exiled)


def _counter_replacer(game: Game, who: str) -> GameObject | None:
    """A permanent ``who`` controls with the static ``instead_of_countering`` (Guile), if any."""
    for perm in game.battlefield:
        if game.controller(perm) == who and any(
            a.kind == "static" and a.spec.get("static") == "instead_of_countering" for a in game.chars(perm).abilities
        ):
            return perm
    return None


@effect("exile_same_name")
def _exile_same_name(ctx: Context, v: dict[str, Any]) -> None:
    """ "Search its controller's graveyard, hand, and library for all cards with the same name as that spell and exile
    them" (rules 701.23a-b, 400.2): the name is the object's as it is or as it last existed (608.2h — countered, it is
    in a graveyard already, so it is found there too); only those zones, never the battlefield. A graveyard is public:
    every such card there is found; in a hidden zone (hand, library) finding them is optional — a ``search`` choice
    of the searcher: ``all``, ``none`` or a list of REFs."""
    game = ctx.game
    ref = v.get("as", "target")
    found = objects(ctx, ref)
    known = found[0] if found else _target_lki(ctx, ref)
    if known is None:
        return
    name = game.chars(known).name if isinstance(known, GameObject) else known.chars.name
    for p in players(ctx, v.get("player", {"controller_of": ref})):
        seat = game.players[p]
        public = [c for c in seat.graveyard if c.card.definition.name == name]
        hidden = [c for zone in ("hand", "library") for c in seat.zone(zone) if c.card.definition.name == name]
        if hidden:
            question = f"какие карты «{name}» найти в руке и библиотеке?"
            answer = game.decide("search", ctx.controller, question, ctx.source)
            if answer == "none":
                hidden = []
            elif answer != "all":
                hidden = [_pick(game, hidden, r, f"карта «{name}» в руке или библиотеке", "701.23b")
                          for r in (answer if isinstance(answer, list) else [answer])]
        with game.simultaneously():
            for card in public + hidden:
                game.move(card, "exile")


@effect("counter_unless_pays")
def _counter_unless_pays(ctx: Context, v: dict[str, Any]) -> None:
    """``{what, cost}``: the spell's controller chooses on resolution (a ``may`` decision) whether to pay the cost
    from their mana pool (118.12a); a cost they can't pay is not paid."""
    from rules_engine.mana import choose_payment, parse_cost

    game = ctx.game
    x = amount(ctx, v["x"]) if "x" in v else ctx.x  # "pays {X}": the X chosen as cast (107.3), or "where X is
    cost = parse_cost(str(v["cost"]).replace("{X}", f"{{{x}}}"))  # ...", counted as it resolves (608.2h)
    for obj in objects(ctx, v.get("what", "target")):
        if obj.zone != "stack":
            continue
        payer = game.controller(obj)
        question = f"заплатить {cost}, чтобы {narr.obj(game, obj)} не было отменено?"
        answer = game.decide("may", payer, question, ctx.source)
        if answer in (True, "yes"):
            pool = game.players[payer].mana_pool
            try:
                units = choose_payment(cost, pool, None)
            except DecisionMissing:
                spend = game.decide("pay", payer, f"какой маной заплатить {cost}?", ctx.source)
                units = choose_payment(cost, pool, parse_units(str(spend)))
            pool.subtract(units)
            for unit in list(pool):
                if pool[unit] <= 0:
                    del pool[unit]
            game.log(narr.payment(payer, "стоимость", cost, units))
            continue
        game.log(f"{narr.player(payer)} не платит {cost}")
        counter_by(ctx, obj)


@effect("exile_top")
def _exile_top(ctx: Context, v: dict[str, Any]) -> None:
    """``{n, player, link, play}``: that player exiles the top N cards of their library face up; ``link: exiled``
    links them to the source (607.2a: "cards exiled with ..."), ``play: {until}`` lets the controller play them
    (playfrom.py)."""
    n = amount(ctx, v.get("n", 1))
    for whose in players(ctx, v.get("player", "you")):
        for card in playfrom.exile_top(ctx.game, whose, n, ctx.controller, v.get("play")):
            ctx.made.append(card)
            if v.get("link"):
                _link(ctx.game, ctx.source.oid, str(v["link"]), card)


@effect("counter_ability")
def _counter_ability(ctx: Context, v: Any) -> None:

    game = ctx.game
    index = int(str(v)[6:] or 0) if str(v).startswith("target") else 0
    if index >= len(ctx.targets) or (ctx.legal and not ctx.legal[index]):
        return
    sid = ctx.targets[index].oid
    for item in list(game.stack):
        if isinstance(item, StackAbility) and item.sid == sid:
            game.stack.remove(item)
            game.log(f"Способность {game.describe_stack_item(item)} отменена")


@effect("copy_ability")
def _copy_ability(ctx: Context, v: Any) -> None:
    """ "Copy that ability" (rule 707.10): the ability of the event, even if it has left the stack since."""
    original = ctx.event.target if ctx.event is not None else None
    if isinstance(original, StackAbility):
        stack.copy_ability(ctx.game, original, ctx.controller)


@effect("copy_spell")
def _copy(ctx: Context, v: dict[str, Any]) -> None:

    for obj in objects(ctx, v.get("what", "target")):
        stack.copy_spell(ctx.game, obj, ctx.controller, v.get("except"))


@effect("if_spent")
def _if_spent(ctx: Context, v: dict[str, Any]) -> None:
    spell = ctx.spell
    wanted = parse_units(str(v["mana"]))
    if spell is not None and all(spell.mana_spent[u] >= n for u, n in wanted.items()):
        run(ctx, v["then"])


@effect("may")
def _may(ctx: Context, v: dict[str, Any]) -> None:
    """Rule 608.2d: a choice made on resolution; ``else``: what happens if the player doesn't ("you may put it on
    top of its owner's library instead" of the return the effect would otherwise do)."""
    answer = ctx.game.decide("may", ctx.controller, str(v.get("question", "сделать это?")), ctx.source)
    if answer in (True, "yes"):
        run(ctx, v["then"])
    elif "else" in v:
        run(ctx, v["else"])


@effect("add_mana")
def _add_mana(ctx: Context, v: Any) -> None:
    from rules_engine.produce import produced

    if isinstance(v, dict):  # {mana, times}: "add {G} for each +1/+1 counter on this" (rule 106.1)
        n = amount(ctx, v["times"])
        units = produced(ctx.game, ctx.controller, v["mana"], ctx.source)
        ctx.game.players[ctx.controller].mana_pool.update(Counter({u: k * n for u, k in units.items() if k * n}))
        return
    ctx.game.players[ctx.controller].mana_pool.update(produced(ctx.game, ctx.controller, v, ctx.source))


@effect("mill")
def _mill(ctx: Context, v: dict[str, Any]) -> None:
    for p in players(ctx, v.get("player", "you")):
        for _ in range(amount(ctx, v.get("n", 1))):
            lib = ctx.game.players[p].library
            if lib:
                ctx.game.move(lib[-1], "graveyard")


@effect("manifest")
def _manifest(ctx: Context, v: dict[str, Any]) -> None:
    """Rule 701.31a: put the top card of the library onto the battlefield face down as a 2/2 (one at a time)."""
    game = ctx.game
    if v.get("with_self") or "from_graveyard" in v:
        _manifest_pile(ctx, v)
        return
    for p in players(ctx, v.get("player", "you")):
        for _ in range(amount(ctx, v.get("n", 1))):
            lib = game.players[p].library
            if not lib:
                return
            new = game.move(lib[-1], "battlefield", controller=p, face_down=True)
            new.manifested = True
            ctx.made.append(new)
            game.touch()
            game.log(f"{narr.player(p)} воплощает верхнюю карту библиотеки: {narr.obj(game, new)}")
            counters = v.get("counters") or {}
            for kind, n in counters.items():
                game.put_counters(new, str(kind), int(n))


def _manifest_pile(ctx: Context, v: dict[str, Any]) -> None:
    """ "Exile it and the top N cards of your library" (``with_self``) or "all [filter] cards from PLAYER's
    graveyard" (``from_graveyard``) "in a face-down pile, shuffle that pile, then manifest those cards" (701.31a,
    one at a time, under your control): the source only if it is still on the battlefield. The pile's order is
    random: scripted (``kind: shuffle``, the order they are manifested) or seeded."""
    import random

    game = ctx.game
    p = ctx.controller
    pile: list[GameObject] = []
    if "from_graveyard" in v:
        for owner in players(ctx, v["from_graveyard"]):
            for card in list(game.players[owner].graveyard):
                if matches(game, card, game.chars(card), v.get("filter"), p, None):
                    pile.append(game.move(card, "exile", face_down=True))
    else:
        live = ctx.source_live()
        if live is not None and live.zone == "battlefield":
            pile.append(game.move(live, "exile", face_down=True))
        lib = game.players[p].library
        for _ in range(amount(ctx, v.get("n", 1))):
            if lib:
                pile.append(game.move(lib[-1], "exile", face_down=True))
    game.log(f"{narr.player(p)} изгоняет стопку из {len(pile)} карт(ы) рубашкой вверх и перемешивает ее")
    if len(pile) > 1:
        answer = game.decide_or_seed("shuffle", p, "в каком порядке окажется стопка после перемешивания?", ctx.source)
        if isinstance(answer, dict):
            random.Random(int(answer["seed"])).shuffle(pile)
        else:
            order = [_pick(game, pile, ref, "карта этой стопки", "701.24a") for ref in answer]
            if len(set(map(id, order))) != len(pile):
                raise ScriptError(f"порядок стопки должен перечислить все {len(pile)} карт(ы)")
            pile = order
    for card in pile:
        new = game.move(card, "battlefield", controller=p, face_down=True)
        new.manifested = True
        ctx.made.append(new)
        game.touch()
        game.log(f"{narr.player(p)} воплощает карту из стопки: {narr.obj(game, new)}")


@effect("drain")
def _drain(ctx: Context, v: dict[str, Any]) -> None:
    """Each opponent loses N life; you gain life equal to the total life lost this way (extort)."""
    game = ctx.game
    lost = 0
    for p in game.opponents(ctx.controller):  # each opponent (102.3), in APNAP order (101.4)
        n = life.lose_life(game, p, amount(ctx, v.get("n", 1)))  # 119.8: what was really lost counts
        lost += n  # 810.9: each loses it; the team's total shows both losses
        if n:
            game.log(f"{narr.player(p)} теряет {n} жизни (жизнь: {game.players[p].life})")
    if game.gain_life(ctx.controller, lost):  # none if that player can't gain life (119.7)
        game.log(
            f"{narr.player(ctx.controller)} получает {lost} жизни (жизнь: {game.players[ctx.controller].life})"
        )


@effect("pay_optional")
def _pay_optional(ctx: Context, v: dict[str, Any]) -> None:
    """ "You may pay COST. If you do, ...": a scripted ``may`` answer, then mana from the pool (``pay`` if several
    ways are possible)."""
    from rules_engine.mana import choose_payment, parse_cost

    game = ctx.game
    cost = parse_cost(str(v["cost"]))
    answer = game.decide("may", ctx.controller, f"заплатить {cost}?", ctx.source)
    if answer not in (True, "yes"):
        game.log(f"{narr.player(ctx.controller)} не платит {cost}")
        return
    pool = game.players[ctx.controller].mana_pool
    try:
        units = choose_payment(cost, pool, None)
    except DecisionMissing:
        spend = game.decide("pay", ctx.controller, f"какой маной заплатить {cost}?", ctx.source)
        units = choose_payment(cost, pool, parse_units(str(spend)))
    pool.subtract(units)
    for unit in list(pool):
        if pool[unit] <= 0:
            del pool[unit]
    game.log(narr.payment(ctx.controller, "стоимость", cost, units))
    run(ctx, v["then"])


@effect("shuffle_into_library")
def _shuffle_in(ctx: Context, v: Any) -> None:
    """The card goes into its owner's library, and that library is shuffled (rule 701.24a)."""
    owners = []
    for obj in objects(ctx, v):
        ctx.game.log(f"{narr.obj(ctx.game, obj)} втасовывается в библиотеку владельца")
        ctx.game.move(obj, "library")
        owners.append(obj.owner)
    for owner in dict.fromkeys(owners):
        shuffle_library(ctx.game, owner, ctx.source)


@effect("clash")
def _clash(ctx: Context, v: dict[str, Any]) -> None:
    """Rule 701.20 (501.10 of the time): reveal tops, each player keeps it on top or puts it on the bottom
    (scripted ``clash`` decisions, active player first), the higher mana value wins."""

    game = ctx.game
    opponent = choose_opponent(game, ctx.controller, ctx.source, "с кем столкнуться")
    clashers = [ctx.controller, opponent]
    revealed: dict[str, list[int] | None] = {}
    for p in clashers:
        lib = game.players[p].library
        if lib:
            top = lib[-1]
            values = _clash_values(game, top)
            revealed[p] = values
            shown = " и ".join(str(m) for m in values)
            game.log(f"Столкновение: {narr.player(p)} показывает {narr.obj(game, top)} (мана-стоимость {shown})")
        else:
            revealed[p] = None
    for p in game.apnap():
        lib = game.players[p].library
        if p in clashers and lib:
            answer = game.decide("clash", p, "оставить показанную карту сверху (top) или вниз (bottom)?")
            if answer == "bottom":
                lib.insert(0, lib.pop())
                game.log(f"{narr.player(p)} кладет показанную карту вниз библиотеки")
            elif answer != "top":
                raise ScriptError("ответ на Столкновение: top или bottom")
    # a player wins if their card's mana value is greater than that of every other card revealed; each half of
    # a split card counts separately, so both players can win (LRW clash 7)
    winners = []
    for p, mine in revealed.items():
        others = [theirs for q, theirs in revealed.items() if q != p and theirs is not None]
        if mine is not None and all(any(a > b for a in mine for b in theirs) for theirs in others):
            winners.append(p)
    if winners:
        game.log("Столкновение выигрывает " + " и ".join(narr.player(p) for p in winners))
    else:
        game.log("В Столкновении нет победителя")
    for p in clashers:
        triggers.collect(game, Event("clash", player=p, amount=1 if p in winners else 0))
    # 701.30b: "that player" of the instructions that follow is the opponent chosen; "otherwise" runs when you
    # didn't win, whether that opponent won or nobody did (Captivating Glance)
    ctx.clashed, ctx.clash_won = opponent, ctx.controller in winners
    branch = v.get("then") if ctx.clash_won else v.get("otherwise")
    if branch is not None:
        run(ctx, branch)


@effect("repeat_while_clash_won")
def _repeat_while_clash_won(ctx: Context, v: Any) -> None:
    """"..., then clash with an opponent. If you win, repeat this process" (Hoarder's Greed): the whole process is
    done again as long as its clash is won (701.30d); no player can stop it otherwise. A player with an empty library
    can't win a clash, so it ends."""
    while True:
        ctx.clash_won = False
        run(ctx, v)
        if not ctx.clash_won:
            return
        ctx.game.log("Столкновение выиграно: процесс повторяется")


def _clash_values(game: Game, card: GameObject) -> list[int]:
    """A revealed card's mana value; a split card's is both halves combined (rule 709.4), or each half's under
    the rules before 2017."""
    halves = card.definition.halves
    if halves:
        values = [h.cost.mana_value if h.cost else 0 for h in halves]
        return values if game.options.split_card_two_sets_of_characteristics else [sum(values)]
    chars = game.chars(card)
    return [chars.mana_value]


@effect("nothing")
def _nothing(ctx: Context, v: Any) -> None:
    return None


# -- linked abilities: champion, hideaway (rule 607) ------------------------------------------------------
def _link(game: Game, source_oid: int, link: str, obj: GameObject) -> None:
    game.linked.setdefault((source_oid, link), []).append(obj.oid)


def linked_cards(game: Game, source_oid: int, link: str) -> list[GameObject]:
    """The cards an object's linked ability exiled that are still in exile (a card that left is a new object)."""
    found = [game.find(oid) for oid in game.linked.get((source_oid, link), [])]
    return [o for o in found if o is not None and o.zone == "exile"]


@effect("exile_linked")
def _exile_linked(ctx: Context, v: Any) -> None:
    """ "Exile another target nonland permanent" whose card the source's other ability returns (rule 607.2a: "the
    exiled card" means the card this very object exiled, LRW Oblivion Ring). The link is to the source object as
    it was: if it left before this resolves, nothing will ever return the card."""
    for obj in objects(ctx, v):
        exiled = ctx.game.move(obj, "exile")
        ctx.made.append(exiled)
        _link(ctx.game, ctx.source.oid, "exiled", exiled)


@effect("exile_until_leaves")
def _exile_until_leaves(ctx: Context, v: Any) -> None:
    """ "Exile target creature until this leaves the battlefield" (rule 610.3, until.py)."""
    for obj in objects(ctx, v):
        exiled = until.exile(ctx.game, ctx.source.oid, obj)
        if exiled is not None:
            ctx.made.append(exiled)


@effect("champion")
def _champion(ctx: Context, v: dict[str, Any]) -> None:
    """Sacrifice the source unless its controller exiles another matching permanent they control (a scripted
    ``champion`` choice: REF or no). The exiled card is linked to this very object (LRW champion 2)."""
    game = ctx.game
    filt = dict(v.get("filter") or {})
    pool = [
        o
        for o in game.battlefield
        if o.oid != ctx.source.oid
        and game.controller(o) == ctx.controller
        and matches(game, o, game.chars(o), filt, ctx.controller, None)
    ]
    if pool:
        answer = game.decide("champion", ctx.controller, "какой перманент изгнать для Заступника (или no)?", ctx.source)
        if answer not in (None, False, "no"):
            chosen = _pick(game, pool, answer, "Заступник: другой подходящий перманент под вашим контролем", "702.72a")
            game.log(f"{narr.player(ctx.controller)} изгоняет {narr.obj(game, chosen)} (Заступник)")
            _link(game, ctx.source.oid, "champion", game.move(chosen, "exile"))
            return
    live = ctx.source_live()
    if live is not None and live.zone == "battlefield":
        game.log(f"{narr.player(game.controller(live))} приносит в жертву {narr.obj(game, live)} (Заступник)")
        game.move(live, "graveyard")
    else:
        game.log("Перманента с Заступником уже нет на поле битвы: пожертвовать нечего")


@effect("return_linked")
def _return_linked(ctx: Context, v: Any) -> None:
    game = ctx.game
    cards = linked_cards(game, ctx.source.oid, str(v))
    if not cards:
        game.log("Связанная способность ничего не изгнала: возвращать нечего")
    for obj in cards:
        game.log(f"{narr.obj(game, obj)} возвращается на поле битвы под контролем владельца")
        game.move(obj, "battlefield", controller=obj.owner)


@effect("hideaway")
def _hideaway(ctx: Context, v: dict[str, Any]) -> None:
    """Look at the top N cards (all if fewer), exile one face down (``hideaway`` choice unless only one), put
    the rest on the bottom in a chosen order (``bottom_order``: top to bottom, the last listed is the bottom)."""
    game = ctx.game
    lib = game.players[ctx.controller].library
    n = amount(ctx, v.get("n", 4))
    looked = list(reversed(lib[-n:])) if n > 0 else []
    if not looked:
        game.log(f"Библиотека игрока {narr.player(ctx.controller)} пуста: смотреть нечего")
        return
    game.log(f"{narr.player(ctx.controller)} смотрит {len(looked)} верхних карт(ы) библиотеки")
    if len(looked) == 1:
        chosen = looked[0]
    else:
        answer = game.decide("hideaway", ctx.controller, "какую из просмотренных карт изгнать?", ctx.source)
        chosen = _pick(game, looked, answer, "одна из просмотренных карт", "702.75a")
    rest = [o for o in looked if o is not chosen]
    exiled = game.move(chosen, "exile", face_down=True)
    game.log(f"{narr.player(ctx.controller)} изгоняет одну из них рубашкой вверх (Укрытие)")
    _link(game, ctx.source.oid, "hideaway", exiled)
    if len(rest) > 1:
        answer = game.decide("bottom_order", ctx.controller, "порядок карт вниз библиотеки (сверху вниз)", ctx.source)
        rest = arrange(game, rest, answer, "одна из оставшихся карт", "702.75a")
    for o in rest:
        lib.remove(o)
    lib[0:0] = list(reversed(rest))
    if rest:
        game.log(f"Остальные {len(rest)} карт(ы) кладутся вниз библиотеки")


def may_look(game: Game, card: GameObject) -> list[str]:
    """Who may look at a card: anyone if it is face up; a face-down spell or permanent only its controller; a card
    exiled face down by hideaway the player who controls that permanent (702.75a) — under the older rule every
    player who has controlled it (502.75a of 2007) — and no one once it has left the battlefield."""
    if card.face_down and card.zone == "battlefield":  # its controller (DTK megamorph 12) and any player with
        return sorted({game.controller(card)} | _lookers_at_face_down(game))  # "you may look at face-down creatures"
    if card.face_down and card.zone == "stack":  # a face-down spell: only its controller (Keeper of the Lens 3)
        return [game.controller(card)]
    if not card.face_down or card.zone != "exile":
        return sorted(game.players)
    for (source_oid, _link), oids in game.linked.items():
        if card.oid in oids:
            source = game.find(source_oid)
            if source is None or source.zone != "battlefield":
                return []
            if game.options.hideaway_former_controllers_may_look:
                return sorted(source.seen_by | {game.controller(source)})
            return [game.controller(source)]
    return []


def _lookers_at_face_down(game: Game) -> set[str]:
    """The controllers of a static "you may look at face-down creatures you don't control any time" (DTK Keeper
    of the Lens; rule 708.5: the right to look belongs to the controller unless an effect says otherwise): a right
    to look at any moment, no action and no stack; permanents only, never a face-down spell."""
    return {game.controller(o) for o in game.battlefield
            if any(a.kind == "static" and a.spec.get("static") == "look_at_face_down" for a in game.chars(o).abilities)}


@effect("play_linked")
def _play_linked(ctx: Context, v: Any) -> None:
    """You may play the card this object's linked ability exiled without paying its mana cost (LRW hideaway)."""
    game = ctx.game
    cards = linked_cards(game, ctx.source.oid, str(v))
    if not cards:
        game.log("Изгнанной связанной способностью карты больше нет в изгнании: ничего не происходит")
        return
    play_without_paying(ctx, cards[0])


@effect("cast_without_paying")
def _cast_without_paying(ctx: Context, v: Any) -> None:
    """"You may cast that card without paying its mana cost" (rebound, rule 702.88a): a ``play`` answer.
    ``{what, exile_instead_of_graveyard: true}``: "if a spell cast this way would be put into a graveyard this turn,
    exile it instead" (Diluvian Primordial): a one-shot replacement effect on that spell (614.1a) — the spell, not the
    card: once it has gone to another zone it is a new object the effect no longer sees (400.7)."""
    spec = v if isinstance(v, dict) and "what" in v else {"what": v}
    found = objects(ctx, spec["what"])
    if not found:
        ctx.game.log("Той карты больше нет там, где она была: ничего не происходит")
        return
    for obj in found:
        spell = play_without_paying(ctx, obj)
        if spell is not None and spell.zone == "stack" and spec.get("exile_instead_of_graveyard"):
            ctx.game.delayed.append(
                {"kind": "exile_if_graveyard", "oid": spell.oid, "ref": ctx.source.card.ref, "duration": "end_of_turn"}
            )


def play_without_paying(ctx: Context, obj: GameObject) -> GameObject | None:
    """Play a card (or cast a copy) as part of a resolving effect: a scripted ``play`` answer (no, yes, or a
    mapping of cast options such as targets / conspire / alternative). A land is played only in its
    controller's turn with a land play left (and uses it); a spell with no legal target can't be cast. Returns the
    spell cast (or the land played), None if nothing was."""

    game = ctx.game
    who = ctx.controller
    answer = game.decide("play", who, f"разыграть {narr.obj(game, obj)} без уплаты мана-стоимости?", obj)
    if answer in (None, False, "no"):
        game.log(f"{narr.player(who)} решает не разыгрывать {narr.obj(game, obj)}")
        return None
    params: dict[str, Any] = dict(answer) if isinstance(answer, dict) else {}
    if game.chars(obj).is_("Land"):
        if not teams.is_active(game, who) or game.players[who].land_plays >= landplays.allowance(game, who):
            game.log(f"{narr.player(who)} не может сейчас сыграть землю: карта остается в изгнании")
            return None
        game.players[who].land_plays += 1
        game.log(f"{narr.player(who)} играет землю {narr.obj(game, obj)} (это его сыгранная в этом ходу земля)")
        land = game.move(obj, "battlefield", controller=who)
        land.steady_controller = None
        return land
    if not stack.casting_allowed_now(game, obj):
        game.log(f"{narr.obj(game, obj)} сейчас разыграть нельзя (ограничение карты): ничего не происходит")
        return None
    if params.get("targets") is None:
        specs = stack.spell_spec(obj).get("targets", [])
        if any(not tg.candidates(game, spec, who, obj) for spec in tg.slots(specs)):
            game.log(f"У {narr.obj(game, obj)} нет допустимых целей: разыграть нельзя, ничего не происходит")
            return None
    params["without_paying"] = True
    return stack.cast_object(game, who, obj, params, during_resolution=True)


# -- cipher (rule 702.97) ------------------------------------------------------------------------------------
@effect("cast_encoded_copy")
def _cast_encoded(ctx: Context, v: Any) -> None:
    """GTC cipher 6-8: the copy is made in exile and cast from there; if it is not cast it ceases to exist."""
    game = ctx.game
    card = game.find(int(v))
    if card is None or card.zone != "exile":
        game.log("Закодированной карты больше нет в изгнании: копировать нечего")
        return
    values = copies.copiable_values(ctx.game, card)  # a copy of the card: its copiable values (707.2, 707.12)
    copy_card = Card(ref=f"{card.card.ref} (copy)", definition=values, owner=ctx.controller)
    copy = game.new_object(copy_card, "exile", ctx.controller, is_copy=True)
    game.log(f"{narr.player(ctx.controller)} копирует закодированную карту {narr.obj(game, card)} в изгнании")
    play_without_paying(ctx, copy)


# -- other effects ---------------------------------------------------------------------------------------
def condition_holds(ctx: Context, cond: dict[str, Any]) -> bool:
    game = ctx.game
    if "control" in cond:  # "if you control a Goblin": a permanent, never a spell (LRW tribal 3)
        filt = dict(cond["control"])
        source = ctx.source_live()  # "if this creature is a Spirit": {self: true, subtypes: [Spirit]}
        return any(
            game.controller(o) == ctx.controller and matches(game, o, game.chars(o), filt, ctx.controller, source)
            for o in game.battlefield
        )
    if "revealed_or_controlled" in cond:  # the reveal cost's bonus (reveal.py): the spell as cast, or a copy
        return reveal.holds(ctx.spell) == bool(cond["revealed_or_controlled"])
    if "made" in cond:  # "... and return it": only if the card was put there by this effect (608.2c)
        return any(matches(game, o, game.chars(o), dict(cond["made"]), ctx.controller, None) for o in ctx.made)
    if "nth_resolution_this_turn" in cond:  # "if this is the third time this ability has resolved this turn"
        return history.resolution_number(game, ctx.source.oid, ctx.ability) == int(cond["nth_resolution_this_turn"])
    if "clash_won" in cond:  # "if you won" of "whenever you clash" (701.30d): the clash event's result
        won = ctx.event is not None and ctx.event.kind == "clash" and ctx.event.amount > 0
        return won == bool(cond["clash_won"])
    if "library_at_most" in cond:  # "if a library has N or fewer cards in it"
        return any(len(p.library) <= int(cond["library_at_most"]) for p in game.players.values())
    looked_back = history.holds(game, cond, ctx.controller, ctx.source)  # "if you gained life this turn", ...
    if looked_back is not None:
        return looked_back
    raise ScriptError(f"unknown condition {cond!r}")


@effect("if")
def _if(ctx: Context, v: dict[str, Any]) -> None:
    holds = condition_holds(ctx, dict(v["condition"]))
    branch = v.get("then") if holds else v.get("else")
    if branch is not None:
        run(ctx, branch)


@effect("set_subtypes")
def _set_subtypes(ctx: Context, v: dict[str, Any]) -> None:
    data = {"subtypes": list(v["subtypes"])}
    _continuous(ctx, "4", "set_subtypes", data, v.get("on", "target"), v.get("duration"))


@effect("search_library")
def _search(ctx: Context, v: dict[str, Any]) -> None:
    """Search your library for up to ``n`` cards matching ``filter`` (a scripted ``search`` choice: REF, a list
    of REFs, or none) and put them ``to`` a zone (``tapped: true`` onto the battlefield tapped)."""
    game = ctx.game
    who = ctx.controller
    lib = game.players[who].library
    answer = game.decide("search", who, "какие карты найти в библиотеке (или none)?", ctx.source)
    if answer in (None, False, "no", "none"):
        game.log(f"{narr.player(who)} ничего не находит")
        return
    names = answer if isinstance(answer, list) else [answer]
    if len(names) > amount(ctx, v.get("n", 1)):
        raise IllegalAction(f"можно найти не больше {v.get('n', 1)} карт(ы)", "701.23d")
    found: list[GameObject] = []
    for name in names:
        card = _pick(game, [o for o in lib if o not in found], name, "нет такой карты в библиотеке", "701.23a")
        if not matches(game, card, game.chars(card), v.get("filter"), who, None):
            raise IllegalAction(f"{name!r} не подходит под условие поиска", "701.23a")
        found.append(card)
    if v.get("top_after_shuffle"):  # "reveal it, then shuffle and put that card on top" (the card waits aside)
        for card in found:
            game.log(f"{narr.player(who)} находит и показывает {narr.obj(game, card)}")
            lib.remove(card)
        shuffle_library(game, who, ctx.source)
        lib.extend(found)  # the last item is the top
        game.touch()
        return
    for card in found:
        game.log(f"{narr.player(who)} находит {narr.obj(game, card)}")
        game.move(card, str(v.get("to", "hand")), controller=who, tapped=bool(v.get("tapped")))
    if v.get("shuffle"):  # "..., then shuffle" (701.23a: a search ends, then the card's text shuffles)
        shuffle_library(game, who, ctx.source)


@effect("return_card")
def _return_card(ctx: Context, v: dict[str, Any]) -> None:
    """A card of yours matching ``filter``, chosen as the effect resolves (not targeted): ``choose_card``.

    ``from`` is a zone or a list of zones ("from your hand or graveyard", DTK Swift Warkite); the card moved is
    ``made``, so the same effect can go on: "that creature gains haste", "return it at the beginning of the next
    end step" (608.2c). A card put onto the battlefield this way enters face up (708.3: only an effect that says
    so puts a permanent onto the battlefield face down)."""
    game = ctx.game
    who = ctx.controller
    zones = v.get("from", "graveyard")
    pool = [
        o
        for zone in (zones if isinstance(zones, list) else [zones])
        for o in game.players[who].zone(str(zone))
        if matches(game, o, game.chars(o), v.get("filter"), who, ctx.spell)  # the spell: its X ("mana value X")
    ]
    if not pool:
        game.log("Подходящей карты нет: ничего не возвращается")
        return
    if v.get("all"):  # "return all cards named X from your graveyard to the battlefield": together (608.2c)
        with game.simultaneously():
            for card in pool:
                game.log(f"{narr.obj(game, card)} возвращается")
                game.move(card, str(v.get("to", "battlefield")), controller=who)
        return
    # "a nonland card of an opponent's choice": that opponent, chosen as it resolves (800.4g), makes the choice
    # among the cards there now, not a target (608.2d); you choose only which opponent
    chooser = choose_opponent(game, who, ctx.source, "кто выбирает карту") if v.get("chooser") == "opponent" else who
    if len(pool) == 1:
        chosen = pool[0]
    else:
        answer = game.decide("choose_card", chooser, "какую карту выбрать?", ctx.source)
        chosen = _pick(game, pool, answer, "подходящая карта", "608.2c")
    if chooser != who:
        game.log(f"{narr.player(chooser)} выбирает {narr.obj(game, chosen)}")
    game.log(f"{narr.obj(game, chosen)} возвращается")
    ctx.made.append(game.move(chosen, str(v.get("to", "battlefield")), controller=who))


@effect("bolster")
def _bolster(ctx: Context, v: dict[str, Any]) -> None:
    """Rule 701.39a: choose a creature you control with the least toughness (a ``bolster`` choice among those
    tied), as the effect resolves, not targeted; put N +1/+1 counters on it."""
    game = ctx.game
    mine = [o for o in game.battlefield if game.controller(o) == ctx.controller and game.chars(o).is_("Creature")]
    if not mine:
        game.log("Под контролем нет существ: Подмога ничего не делает")
        return
    least = min(game.chars(o).toughness or 0 for o in mine)
    pool = [o for o in mine if (game.chars(o).toughness or 0) == least]
    if len(pool) == 1:
        chosen = pool[0]
    else:
        answer = game.decide("bolster", ctx.controller, "на какое существо положить жетоны Подмоги?", ctx.source)
        chosen = _pick(game, pool, answer, "существо с наименьшей выносливостью", "701.39a")
    n = amount(ctx, v.get("n", 1))
    game.log(f"Подмога {n}: {narr.player(ctx.controller)} выбирает {narr.obj(game, chosen)}")
    game.put_counters(chosen, "+1/+1", n)


@effect("exploit")
def _exploit(ctx: Context, v: Any) -> None:
    """Rule 702.110: you may sacrifice a creature (an ``exploit`` choice: REF or "no", made as the ability
    resolves; one creature at most). The creature with exploit "exploits a creature" only if it is still on the
    battlefield, or is the creature sacrificed (702.110b): then its "when it exploits" ability triggers."""

    game = ctx.game
    who = ctx.controller
    answer = game.decide("exploit", who, "пожертвовать существо (Угнетение)? REF или no", ctx.source)
    if answer in (None, False, "no"):
        game.log(f"{narr.player(who)} решает ничего не жертвовать")
        return
    if isinstance(answer, list):
        if len(answer) != 1:
            raise IllegalAction("Угнетением жертвуют не больше одного существа", "702.110a")
        answer = answer[0]
    mine = [o for o in game.battlefield if game.controller(o) == who and game.chars(o).is_("Creature")]
    chosen = _pick(game, mine, answer, "существо под вашим контролем", "702.110a")
    live = game.find(ctx.source.oid)
    on_battlefield = live is not None and live.zone == "battlefield"
    source_snap = game.snapshot(live) if on_battlefield and live is not None else None
    sacrificed = game.snapshot(chosen)
    game.log(f"{narr.player(who)} приносит в жертву {narr.obj(game, chosen)} (Угнетение)")
    game.move(chosen, "graveyard")
    if source_snap is None:
        game.log("Существа с Угнетением уже нет на поле битвы: оно не угнетает существо")
        return
    itself = chosen.oid == source_snap.oid
    triggers.collect(game, Event("exploits", obj=None if itself else live, lki=source_snap, target=sacrificed))


@effect("change_text")
def _change_text(ctx: Context, v: dict[str, Any]) -> None:
    """Layer 3 text change: a scripted ``text_change`` choice ``{from: Goblin, to: Elf}`` made on resolution;
    every instance of the word on the object (type line, abilities) is replaced, indefinitely."""
    game = ctx.game
    answer = game.decide("text_change", ctx.controller, "какой тип существа заменить каким ({from, to})?", ctx.source)
    if not isinstance(answer, dict) or not answer.get("from") or not answer.get("to"):
        raise ScriptError("text_change: нужно {from: ТИП, to: ТИП}")
    if str(answer["to"]) in [str(w) for w in v.get("not_to", [])]:
        raise IllegalAction(f"новым типом не может быть «{narr.subtypes_text([str(answer['to'])])}»", "612.2")
    data = {"from": str(answer["from"]), "to": str(answer["to"])}
    _continuous(ctx, "3", "change_text", data, v.get("on", "target"), v.get("duration", "permanent"))


@effect("transform")
def _transform(ctx: Context, v: Any) -> None:
    """A double-faced permanent turns over; a face-down one can't transform (FRF manifest 13)."""
    game = ctx.game
    for obj in objects(ctx, v):
        if obj.face_down or obj.definition.back is None:
            game.log(f"{narr.obj(game, obj)} не может трансформироваться")
            continue
        obj.transformed = not obj.transformed
        game.touch()
        game.log(f"{narr.obj(game, obj)} трансформируется")


@effect("turn_face_up")
def _turn_face_up_effect(ctx: Context, v: Any) -> None:
    """An effect turns a face-down permanent face up (rule 708.8: nothing enters the battlefield). A manifested
    instant or sorcery card is revealed instead and stays face down, and nothing triggers (rule 701.40g)."""

    game = ctx.game
    for obj in objects(ctx, v):
        if not obj.face_down:
            continue
        if obj.definition.types & {"Instant", "Sorcery"}:
            game.log(f"{narr.obj(game, obj)} показывается («{obj.definition.name_ru}») и остается рубашкой вверх")
            continue
        obj.face_down = False
        obj.transformed = False
        obj.manifested = False
        game.touch()
        game.log(f"{narr.obj(game, obj)} переворачивается рубашкой вниз")
        triggers.collect(game, Event("turned_face_up", obj=obj, player=game.controller(obj)))


@effect("turn_face_down")
def _turn_face_down(ctx: Context, v: Any) -> None:
    for obj in objects(ctx, v):
        if obj.definition.back is not None:  # a double-faced card can't be turned face down (FRF manifest 13)
            ctx.game.log(f"{narr.obj(ctx.game, obj)} — двусторонняя карта: рубашкой вверх ее не перевернуть")
            continue
        obj.face_down = True
        ctx.game.touch()
        ctx.game.log(f"{narr.obj(ctx.game, obj)} переворачивается рубашкой вверх")


@effect("attach")
def _attach(ctx: Context, v: dict[str, Any]) -> None:
    game = ctx.game
    auras = objects(ctx, v.get("what", "self"))
    hosts = objects(ctx, v.get("to", "target"))
    if not auras or not hosts:
        game.log("Прикреплять нечего или не к чему")
        return
    from rules_engine.attach import attach

    for aura in auras:  # rule 701.3: it moves only if it can be attached there
        attach(game, aura, hosts[0])


@effect("move_auras")
def _move_auras(ctx: Context, v: dict[str, Any]) -> None:
    """ "Attach all Auras enchanting target permanent to another permanent with the same controller" (rule 701.3):
    the new permanent is chosen as the effect resolves (608.2c, ``kind: choose_card``), not targeted — not that
    permanent, controlled by its controller, and one every such Aura could enchant (303.4d, 701.3b); if there is
    none, the Auras don't move. They are attached, not cast (no targeting, no Aura spell)."""
    from rules_engine.attach import attach, can_attach

    game = ctx.game
    for old in objects(ctx, v.get("from", "target")):
        field = [o for o in game.all_objects() if o.zone == "battlefield"]
        auras = [o for o in field if o.attached_to == old.oid and "Aura" in game.chars(o).subtypes]
        pool = [
            p
            for p in field
            if p.oid != old.oid
            and game.controller(p) == game.controller(old)
            and all(can_attach(game, a, p) is None for a in auras)
        ]
        if not auras or not pool:
            game.log(f"Ауры на {narr.obj(game, old)} не перемещаются: некуда или нечего")
            continue
        if len(pool) == 1:
            new = pool[0]
        else:
            answer = game.decide("choose_card", ctx.controller, "к какому перманенту прикрепить Ауры?", ctx.source)
            new = _pick(game, pool, answer, "перманент того же контролирующего игрока", "608.2c")
        for aura in auras:
            attach(game, aura, new)


@effect("remove_from_combat")
def _remove_from_combat(ctx: Context, v: Any) -> None:
    """Rule 506.4: an effect that specifically removes a creature from combat."""

    for obj in objects(ctx, v):
        combat.remove_from_combat(ctx.game, obj)


@effect("fight")
def _fight(ctx: Context, v: dict[str, Any]) -> None:
    """Rule 701.14: each creature deals damage equal to its power to the other, at once and not as combat damage.
    If either is gone, no longer a creature, or an illegal target, neither fights (701.14b); a creature that
    fights itself deals itself twice its power (701.14c)."""
    game = ctx.game
    first, second = objects(ctx, v["a"]), objects(ctx, v["b"])
    fighters = [o for o in first[:1] + second[:1] if o.zone == "battlefield" and game.chars(o).is_("Creature")]
    if len(first) < 1 or len(second) < 1 or len(fighters) < 2:
        game.log("Драки нет: одного из существ нет на поле битвы или оно больше не существо (правило 701.14b)")
        return
    a, b = fighters
    game.log(f"{narr.obj(game, a)} дерется с {narr.obj(game, b)}")
    power_a, power_b = game.chars(a).power or 0, game.chars(b).power or 0
    if a.oid == b.oid:
        replacement.deal_damage(game, a, a, 2 * power_a)
    else:
        with game.simultaneously():
            replacement.deal_damage(game, a, b, power_a)
            replacement.deal_damage(game, b, a, power_b)
    for fighter in {a.oid: a, b.oid: b}.values():  # "whenever a creature you control fights" (701.14a): each one,
        triggers.collect(game, Event("fights", obj=fighter, lki=game.snapshot(fighter)))  # as it fought
