"""Triggered abilities: matching events, intervening-if conditions, putting them on the stack in APNAP order.

Leaves-the-battlefield abilities "look back in time" (rule 603.10): they are found on the object's last
known information, which is how a persist ability granted by another permanent, or a persist creature that
stopped being a creature, still triggers.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from rules_engine import choices, divide, history, modes, reveal
from rules_engine import log as narr
from rules_engine.errors import IllegalAction, ScriptError
from rules_engine.events import Event
from rules_engine.layers import matches
from rules_engine.objects import AbilityDef, Characteristics, GameObject, Snapshot
from rules_engine.options import RulesOptions
from rules_engine.snapfilter import snap_matches as _snap_matches
from rules_engine.snapfilter import whose as _whose
from rules_engine.stackobjects import StackAbility
from rules_engine.teams import is_active, is_opponent

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game

# Keyword abilities that are triggered abilities, in the engine's own vocabulary (rule 702.79a for persist).
KEYWORD_TRIGGERS: dict[str, AbilityDef] = {
    "persist": AbilityDef(
        "triggered",
        "persist",
        {
            "triggered": "to_graveyard_from_battlefield",
            "condition": {"had_no_counters": "-1/-1"},
            "effect": {"return_to_battlefield": {"what": "it", "under": "owner", "counters": {"-1/-1": 1}}},
        },
        keyword="persist",
    ),
    # rule 502.74a of the time: "When this permanent enters, if its evoke cost was paid, its controller
    # sacrifices it."
    "evoke": AbilityDef(
        "triggered",
        "evoke",
        {
            "triggered": "enters",
            "condition": {"paid": "evoke"},
            "effect": {"sacrifice": {"what": "self", "by": "its_controller"}},
        },
        keyword="evoke",
    ),
    # rule 702.98a: "Whenever a creature enters the battlefield under your control, if that creature's power is
    # greater than this creature's power and/or that creature's toughness is greater than this creature's
    # toughness, put a +1/+1 counter on this creature."
    "evolve": AbilityDef(
        "triggered",
        "evolve",
        {
            "triggered": "creature_enters",
            "filter": {"controller": "you"},
            "condition": {"evolve": True},
            "effect": {"counters": {"kind": "+1/+1", "n": 1, "on": "self"}},
        },
        keyword="evolve",
    ),
    # rule 702.99a: "Whenever you cast a spell, you may pay {W/B}. If you do, each opponent loses 1 life and
    # you gain life equal to the total life lost this way."
    "extort": AbilityDef(
        "triggered",
        "extort",
        {
            "triggered": "you_cast",
            "effect": {"pay_optional": {"cost": "{W/B}", "then": {"drain": {"n": 1}}}},
        },
        keyword="extort",
    ),
    # rule 702.108a: "Whenever you cast a noncreature spell, this creature gets +1/+1 until end of turn."
    "prowess": AbilityDef(
        "triggered",
        "prowess",
        {
            "triggered": "you_cast",
            "filter": {"not_types": ["Creature"]},
            "effect": {"pump": {"power": 1, "toughness": 1, "on": "self"}},
        },
        keyword="prowess",
    ),
    # rule 702.110a: "When this creature enters the battlefield, you may sacrifice a creature."
    "exploit": AbilityDef(
        "triggered", "exploit", {"triggered": "enters", "effect": {"exploit": None}}, keyword="exploit"
    ),
    # rule 502.78a of the time: "When you cast this spell, if its conspire cost was paid, copy it."
    "conspire": AbilityDef(
        "triggered",
        "conspire",
        {
            "triggered": "cast",
            "condition": {"paid": "conspire"},
            "effect": {"copy_spell": {"what": "it"}},
        },
        keyword="conspire",
    ),
    # rule 502.75a of the time: "When this permanent enters, look at the top four cards of your library. Exile
    # one of them face down and put the rest on the bottom of your library in any order."
    "hideaway": AbilityDef(
        "triggered",
        "hideaway",
        {"triggered": "enters", "effect": {"hideaway": {"n": 4}}},
        keyword="hideaway",
    ),
}

_CONSPIRE: dict[int, AbilityDef] = {}


def conspire_instance(index: int) -> AbilityDef:
    """The first conspire ability is ``conspire``; a further instance N is ``conspire-N`` and copies the spell
    only if that instance's cost was paid."""
    if index == 1:
        return KEYWORD_TRIGGERS["conspire"]
    if index not in _CONSPIRE:
        spec = dict(KEYWORD_TRIGGERS["conspire"].spec)
        spec["condition"] = {"paid": f"conspire#{index}"}
        _CONSPIRE[index] = AbilityDef("triggered", f"conspire-{index}", spec, keyword="conspire")
    return _CONSPIRE[index]


_CHAMPION: dict[str, tuple[AbilityDef, AbilityDef]] = {}


def champion_abilities(what: Any) -> tuple[AbilityDef, AbilityDef]:
    """Rule 502.72a of the time: "When this enters, sacrifice it unless you exile another [object] you control"
    and "When this leaves, return the exiled card to the battlefield under its owner's control" (linked)."""
    key = repr(what)
    if key not in _CHAMPION:
        _CHAMPION[key] = (
            AbilityDef(
                "triggered", "champion", {"triggered": "enters", "effect": {"champion": {"filter": what}}}, "champion"
            ),
            AbilityDef(
                "triggered",
                "champion-return",
                {"triggered": "leaves", "effect": {"return_linked": "champion"}},
                "champion",
            ),
        )
    return _CHAMPION[key]


LEAVE_EVENTS = ("leaves", "dies", "to_graveyard_from_battlefield", "creature_dies", "creature_leaves")


@dataclass
class PendingTrigger:
    controller: str
    ability: AbilityDef
    source: Snapshot
    event: Event
    about: tuple[int, ...] = ()  # a delayed trigger's objects ("that creature", rule 603.7c)

    @property
    def label(self) -> str:
        return f"{self.source.card.ref}/{self.ability.name}"


# Keywords that were triggered abilities under old rules, by the option that models that rule.
ERA_KEYWORD_TRIGGERS: dict[str, tuple[str, AbilityDef]] = {
    # rule 502.68a of 2008: "Whenever a source with lifelink deals damage, its controller gains that much life."
    "lifelink_triggered": (
        "lifelink",
        AbilityDef(
            "triggered",
            "lifelink",
            {"triggered": "deals_damage", "effect": {"gain_life": {"n": {"event_amount": True}, "player": "you"}}},
            keyword="lifelink",
        ),
    ),
}


def triggered_abilities(chars: Characteristics, options: RulesOptions | None = None) -> list[AbilityDef]:
    """The object's triggered abilities, keyword instances included (each instance triggers separately)."""
    out = [a for a in chars.abilities if a.kind == "triggered"]
    for option, (keyword, era_ability) in ERA_KEYWORD_TRIGGERS.items():
        if options is not None and getattr(options, option) and keyword in chars.keywords:
            out.append(era_ability)
    for keyword, ability in KEYWORD_TRIGGERS.items():
        if keyword == "conspire":  # each instance triggers on its own payment (rule 502.78b of the time)
            out.extend(conspire_instance(i) for i in range(1, chars.keyword_count(keyword) + 1))
        else:
            out.extend([ability] * chars.keyword_count(keyword))
    if "champion" in chars.keywords:
        out.extend(champion_abilities(chars.keywords["champion"]))
    return out


def collect(game: Game, event: Event) -> None:
    """Record every ability that triggers on ``event`` (checked right away, put on the stack later)."""
    history.note(game, event)
    _collect_delayed(game, event)
    for source, chars, controller in _sources(game, event):
        for ability in triggered_abilities(chars, game.options):
            if _matches(game, ability, source, chars, controller, event) and check_condition(
                game, ability.spec.get("condition"), source, event
            ):
                if _one_or_more_pending(game, ability, source, event) or _joins_pending(game, ability, source, event):
                    continue
                snap = source if isinstance(source, Snapshot) else game.snapshot(source)
                for _ in range(_occurrences(ability, event)):
                    game.pending_triggers.append(PendingTrigger(controller, ability, snap, event))


def _one_or_more_pending(game: Game, ability: Any, source: GameObject | Snapshot, event: Event) -> bool:
    """Rules 510.2, 603.2c: combat damage is dealt at once, so "deals damage to one or more creatures" triggers
    once for the whole of it: a second recipient of the same batch (the trigger still waiting) adds nothing."""
    if not (ability.spec.get("filter") or {}).get("one_or_more"):
        return False
    return any(
        p.ability.name == ability.name and p.source.oid == source.oid and p.event.kind == event.kind
        for p in game.pending_triggers
    )


def _joins_pending(game: Game, ability: Any, source: GameObject | Snapshot, event: Event) -> bool:
    """Rules 510.2, 603.2c: damage dealt at once by several sources (two blockers) is one event for "whenever this
    is dealt damage": it triggers once, and "that much damage" is the total. Another damage event of the same batch
    to the same recipient is added to the trigger still waiting instead of triggering again."""
    if ability.spec.get("triggered") != "dealt_damage" or event.kind != "damage" or not event.batch:
        return False
    recipient = getattr(event.target, "oid", event.target)
    for i, p in enumerate(game.pending_triggers):
        before = p.event
        if (
            p.ability.name == ability.name and p.source.oid == source.oid and before.kind == "damage"
            and before.batch == event.batch and getattr(before.target, "oid", before.target) == recipient
        ):
            game.pending_triggers[i] = replace(p, event=replace(before, amount=before.amount + event.amount))
            return True
    return False


def _dealt_to(event: Event, oids: tuple[int, ...]) -> bool:
    """ "Whenever [this / that creature] is dealt damage" (rule 120.1): the damage event's recipient is that very
    object (400.7), however much damage and even lethal damage (the trigger is collected before 704.5g)."""
    return event.kind == "damage" and isinstance(event.target, GameObject) and event.target.oid in oids


def _occurrences(ability: Any, event: Event) -> int:
    """Rule 603.2c: an event holding several occurrences triggers once for each. "Whenever a counter is put on"
    (``each_counter``) sees each counter of a group put at once; "one or more counters" sees the group once."""
    if ability.spec.get("each_counter") and event.kind in ("counters", "counters_removed"):
        return max(1, int(event.amount or 1))
    return 1


def _collect_delayed(game: Game, event: Event) -> None:
    """Delayed triggered abilities (rule 603.7): only those already created see the event (603.7a); one
    without a stated duration triggers once and is gone (603.7b)."""
    for delayed in list(game.delayed_triggers):
        if not _delayed_matches(game, delayed, event):
            continue
        if not check_condition(game, delayed.ability.spec.get("condition"), delayed.source, event):
            continue
        if _joins_pending(game, delayed.ability, delayed.source, event):
            continue
        game.pending_triggers.append(
            PendingTrigger(delayed.controller, delayed.ability, delayed.source, event, delayed.about)
        )
        if not delayed.this_turn:
            game.delayed_triggers.remove(delayed)


def _delayed_matches(game: Game, delayed: Any, event: Event) -> bool:
    """A delayed trigger about objects ("when that creature dies") looks at those very objects (603.7c);
    any other event is matched as the ability of its source would be."""
    ability = delayed.ability
    when = ability.spec["triggered"]
    if delayed.about and when in ("dies", "leaves", "to_graveyard_from_battlefield"):
        lki = event.lki
        if not (event.kind == "zone_change" and event.from_zone == "battlefield" and lki is not None):
            return False
        if lki.oid not in delayed.about:
            return False
        if when == "leaves":
            return True
        return event.to_zone == "graveyard" and (when != "dies" or "Creature" in lki.chars.types)
    if delayed.about and when == "dealt_damage":  # "whenever that creature is dealt damage this turn" (Arcbond)
        return _dealt_to(event, delayed.about)
    if delayed.about and when in ("turned_face_up", "becomes_target", "attacks", "blocks", "becomes_blocked"):
        return event.kind == when and event.obj is not None and event.obj.oid in delayed.about
    return _matches(game, ability, delayed.source, delayed.source.chars, delayed.controller, event)


def _sources(game: Game, event: Event) -> list[tuple[GameObject | Snapshot, Characteristics, str]]:
    out: list[tuple[GameObject | Snapshot, Characteristics, str]] = []
    seen: set[int] = set()
    if event.kind == "zone_change" and event.from_zone == "battlefield" and event.lki is not None:
        out.append((event.lki, event.lki.chars, event.lki.controller))
        seen.add(event.lki.oid)
        if game._batch is not None:  # others that left at the same time still see this one leave
            live = {o.oid for o in game.battlefield}
            for snap in game._batch.values():
                if snap.oid not in live and snap.oid not in seen:
                    out.append((snap, snap.chars, snap.controller))
                    seen.add(snap.oid)
    if event.kind == "zone_change" and event.to_zone == "graveyard" and event.obj is not None:
        # "put into a graveyard from anywhere" triggers from the graveyard, on the card as it is there
        out.append((event.obj, game.chars(event.obj), event.obj.owner))
        seen.add(event.obj.oid)
    if event.kind in ("cast",) and event.obj is not None:
        out.append((event.obj, game.chars(event.obj), game.controller(event.obj)))
        seen.add(event.obj.oid)
    if event.kind == "exploits" and event.obj is None and event.lki is not None:
        # it exploited itself: it left as it exploited, and its ability looks back (702.110b)
        out.append((event.lki, event.lki.chars, event.lki.controller))
        seen.add(event.lki.oid)
    if event.kind in ("damage", "combat_damage_to_player") and event.lki is not None:
        live_source = game.find(event.lki.oid)
        if live_source is None or live_source.zone != "battlefield":
            chars, controller = game.source_chars(event.lki)
            out.append((event.lki, chars, controller))
            seen.add(event.lki.oid)
    for obj in game.ability_sources():  # permanents and emblems (rule 114.4)
        if obj.oid not in seen:
            out.append((obj, game.chars(obj), game.controller(obj)))
            seen.add(obj.oid)
    for player in game.players.values():  # rule 113.6m: a triggered ability that functions only in a graveyard
        for obj in player.graveyard:
            if obj.oid not in seen and _functions_in_graveyard(obj.card.definition.abilities):
                out.append((obj, game.chars(obj), obj.owner))
    return out


def _functions_in_graveyard(abilities: Any) -> bool:
    """A printed triggered ability with ``zone: graveyard`` (cards in graveyards gain no abilities here)."""
    return any(a.kind == "triggered" and a.spec.get("zone") == "graveyard" for a in abilities)


# Triggers on an event of any permanent matching the filter: the event kind, and whether the source must be on the
# battlefield to see it.
_PERMANENT_EVENTS = {
    "permanent_becomes_tapped": ("becomes_tapped", True),
    "permanent_becomes_untapped": ("becomes_untapped", True),
    "permanent_turned_face_up": ("turned_face_up", False),
}


# Triggers on an event of this very permanent; the filter (if any) is on the other creature of the event.
_SELF_EVENTS = frozenset(
    {"becomes_tapped", "becomes_untapped", "blocks", "blocks_creature", "becomes_blocked", "becomes_blocked_by"}
)


def _matches(
    game: Game,
    ability: AbilityDef,
    source: GameObject | Snapshot,
    chars: Characteristics,
    controller: str,
    event: Event,
) -> bool:
    spec = ability.spec
    when = spec["triggered"]
    filt = spec.get("filter")
    moved = event.kind == "zone_change"
    if when == "to_graveyard_from_anywhere":
        return (
            moved and event.to_zone == "graveyard" and event.obj is not None and source.oid == event.obj.oid
        )
    if when == "exploits":  # rule 702.110b: this very creature exploited a creature
        return event.kind == "exploits" and event.lki is not None and event.lki.oid == source.oid
    in_graveyard = isinstance(source, GameObject) and source.zone == "graveyard"
    if in_graveyard and event.obj is not None and source.oid == event.obj.oid:
        return False  # a card in a graveyard triggers only on the way there
    zone = spec.get("zone")  # rule 113.6m: "return this from your graveyard": it functions only in that zone
    if zone is not None and not (isinstance(source, GameObject) and source.zone == zone):
        return False
    if in_graveyard and zone != "graveyard":
        return False  # the card's other abilities don't function there (113.6)
    if when in LEAVE_EVENTS:
        if not (moved and event.from_zone == "battlefield" and event.lki is not None):
            return False
        lki = event.lki
        if when == "creature_dies":
            return (
                event.to_zone == "graveyard"
                and "Creature" in lki.chars.types
                and _snap_matches(game, lki, filt, controller, source)
            )
        if when == "creature_leaves":  # "whenever a creature you control leaves the battlefield" (603.10a: looks back)
            return "Creature" in lki.chars.types and _snap_matches(game, lki, filt, controller, source)
        if lki.oid != source.oid:
            return False
        if when == "leaves":
            return True
        if when == "dies":
            return event.to_zone == "graveyard" and "Creature" in lki.chars.types
        return event.to_zone == "graveyard"
    if when == "enters":
        return (
            moved and event.to_zone == "battlefield" and event.obj is not None and event.obj.oid == source.oid
        )
    if when == "creature_enters":
        obj = event.obj
        return (
            moved
            and event.to_zone == "battlefield"
            and obj is not None
            and obj.oid != source.oid
            and game.chars(obj).is_("Creature")
            and isinstance(source, GameObject)
            and matches(game, obj, game.chars(obj), filt, controller, source)
        )
    if when == "creature_fights":  # rule 701.14a: "whenever a creature you control fights" (as it fought)
        return event.kind == "fights" and event.lki is not None and _snap_matches(game, event.lki, filt, controller,
                                                                                  source)
    if when == "cast":
        return event.kind == "cast" and event.obj is not None and event.obj.oid == source.oid
    if when == "you_cast":
        return (
            event.kind == "cast"
            and event.player == controller
            and event.obj is not None
            and isinstance(source, GameObject)
            and (source.zone in ABILITY_ZONES or zone == "graveyard")  # 113.6m: "return this from your graveyard"
            and matches(game, event.obj, game.chars(event.obj), filt, controller, None)
        )
    if when == "attacks":
        if not (event.kind == "attacks" and event.obj is not None and event.obj.oid == source.oid):
            return False
        # battalion: "whenever this and at least two other creatures attack" (checked only as it triggers)
        attackers = sum(1 for o in game.battlefield if o.attacking is not None)
        return attackers >= int((filt or {}).get("min_attackers", 1))
    if when == "creature_attacks":  # "whenever a nontoken creature you control attacks": declared ones (508.3a)
        return (
            event.kind == "attacks"
            and event.obj is not None
            and isinstance(source, GameObject)
            and matches(game, event.obj, game.chars(event.obj), filt, controller, source)
        )
    if when == "deals_damage":
        return _damage_matches(game, filt or {}, source, controller, event)
    if when == "ability_activated":  # rule 602.2 (605.3b: never a mana ability): by a player, of a source
        f = dict(filt or {})
        by = f.pop("by", None)
        obj = event.obj
        return (
            event.kind == "activated" and isinstance(source, GameObject) and source.zone == "battlefield"
            and (by is None or (event.player is not None and _whose(game, by, event.player, controller)))
            and (not f or (obj is not None and obj.zone == "battlefield"
                           and matches(game, obj, game.chars(obj), f, controller, source)))
        )
    if when == "dealt_damage":  # "whenever this is dealt damage" (rule 120.1), from the battlefield
        return isinstance(source, GameObject) and source.zone == "battlefield" and _dealt_to(event, (source.oid,))
    if when == "deals_combat_damage_to_player":
        return (
            event.kind == "combat_damage_to_player" and event.lki is not None and event.lki.oid == source.oid
        )
    if when == "beginning_of_step":
        whose = (filt or {}).get("whose", "you")
        if event.kind != "step" or event.step != (filt or {}).get("step"):
            return False
        # "your upkeep": your (team's, 805.4) turn; "each opponent's upkeep": an opponent's turn
        return whose == "each" or (whose == "you") == is_active(game, controller)
    if when in ("turned_face_up", "becomes_target"):  # this permanent is turned face up (702.37) / targeted (115)
        by = (filt or {}).get("by")  # "a spell or ability an opponent controls"
        if by and (event.player is None or not _whose(game, by, event.player, controller)):
            return False
        return event.kind == when and event.obj is not None and event.obj.oid == source.oid
    if when == "blocks_at_least":  # rule 509.3e: it blocks N or more now, and blocked fewer before this event
        n = int((filt or {}).get("n", 2))
        return (
            event.kind == "blocking_count" and event.obj is not None and event.obj.oid == source.oid
            and event.amount >= n > int(event.target or 0)
        )
    if when in _SELF_EVENTS:  # this very permanent became tapped / untapped (701.26), blocked, blocks (509.3)
        if not (event.kind == when and event.obj is not None and event.obj.oid == source.oid):
            return False
        other = event.target  # the attacker it blocks, the creature blocking it (509.3b, 509.3d)
        if filt and isinstance(other, GameObject):
            return matches(game, other, game.chars(other), filt, controller, source)
        return True
    if when == "attacks_or_blocks":  # "whenever this creature attacks or blocks": either event (508.3a, 509.3a)
        return event.kind in ("attacks", "blocks") and event.obj is not None and event.obj.oid == source.oid
    if when in ("loses_life", "draws"):  # rule 119.3 / 121.1: once per loss of life, once per card drawn
        who = (filt or {}).get("player", "you")
        return (
            event.kind == ("life_lost" if when == "loses_life" else "draw")
            and event.player is not None
            and (isinstance(source, Snapshot) or source.zone in ABILITY_ZONES)
            and (who == "each" or _whose(game, who, event.player, controller))
        )
    if when in _PERMANENT_EVENTS:  # "whenever a [filter] permanent becomes tapped / is turned face up"
        kind, from_battlefield = _PERMANENT_EVENTS[when]
        obj = event.obj
        return (
            event.kind == kind
            and obj is not None
            and isinstance(source, GameObject)
            and (not from_battlefield or source.zone == "battlefield")
            and matches(game, obj, game.chars(obj), filt, controller, source)
        )
    if when == "you_gain_life":  # rule 119.9: "whenever you gain life" triggers once per life-gaining event
        return event.kind == "life_gained" and event.player == controller
    if when == "opponent_casts":
        return (
            event.kind == "cast"
            and event.player is not None
            and is_opponent(game, controller, event.player)
            and event.obj is not None
            and isinstance(source, GameObject)
            and source.zone in ABILITY_ZONES
            and matches(game, event.obj, game.chars(event.obj), filt, controller, None)
        )
    if when == "spell_countered":  # rule 701.6: the spell as it last existed on the stack
        return event.kind == "countered" and event.lki is not None and _snap_matches(
            game, event.lki, filt, controller, source
        )
    if when == "permanent_enters":  # rule 603.6a: "whenever this or another permanent is put onto the battlefield
        return _enters_from(game, filt or {}, source, controller, event)  # from a graveyard" (itself included)
    if when == "player_casts":  # "whenever a player casts a spell from a graveyard": where it was cast from (601.2a)
        return _cast_from(game, filt or {}, source, controller, event)
    if when == "put_into_graveyard":  # "whenever a [filter] is put into a graveyard from [zone | anywhere]"
        f = dict(filt or {})
        origin = f.pop("from", None)
        return (
            moved
            and event.to_zone == "graveyard"
            and event.lki is not None
            and (origin is None or event.from_zone == origin)
            and (isinstance(source, Snapshot) or source.zone in ABILITY_ZONES)
            and _snap_matches(game, event.lki, f, controller, source)
        )
    if when in ("clashes", "clash_won"):
        return (
            event.kind == "clash" and event.player == controller and (when == "clashes" or event.amount > 0)
        )
    if when == "player_gets_counters":  # "whenever you get one or more counters" (122.1): once per event
        wanted = spec.get("counter")
        who = (filt or {}).get("player", "you")
        return (
            event.kind == "player_counters"
            and event.player is not None
            and (wanted is None or event.counter == wanted)
            and (who == "each" or _whose(game, who, event.player, controller))
        )
    if when in ("counters_put", "counters_removed"):  # counters of a kind put on / removed from a permanent
        obj = event.obj
        wanted = spec.get("counter")
        return (
            event.kind == ("counters" if when == "counters_put" else "counters_removed")
            and obj is not None
            and (wanted is None or event.counter == wanted)
            and isinstance(source, GameObject)
            and matches(game, obj, game.chars(obj), filt, controller, source)
        )
    return False


ABILITY_ZONES = ("battlefield", "command")  # where a permanent's or an emblem's abilities function (114.4)


def _damage_matches(
    game: Game, filt: dict[str, Any], source: GameObject | Snapshot, controller: str, event: Event
) -> bool:
    """ "Whenever this deals damage", or with ``source: FILTER`` "whenever a creature deals damage"; ``to``
    filters the recipient ("to you", "to an opponent", "to a creature"), ``combat`` the kind (rule 120)."""
    if event.kind != "damage" or event.lki is None:
        return False
    if "source" in filt:
        if not _snap_matches(game, event.lki, filt["source"], controller, source):
            return False
    elif event.lki.oid != source.oid:
        return False
    if "combat" in filt and event.combat != bool(filt["combat"]):
        return False
    if "amount_at_least" in filt and event.amount < int(filt["amount_at_least"]):
        return False  # "deals 6 or more damage": in one event, never added up over several (603.2c, 120.2)
    return recipient_matches(game, event.target, filt.get("to"), controller)


def recipient_matches(game: Game, recipient: Any, wanted: str | None, controller: str) -> bool:
    """A damage recipient or target against ``you``, ``opponent``, ``player``, or a card type in lower case."""
    if wanted is None:
        return True
    if isinstance(recipient, str):
        if wanted == "you":
            return recipient == controller
        if wanted == "opponent":
            return is_opponent(game, controller, recipient)
        return wanted == "player"
    if wanted in ("you", "opponent", "player"):
        return False
    live = game.find(recipient.oid)
    chars = game.chars(live) if live is not None else recipient.chars if isinstance(recipient, Snapshot) else None
    if chars is None:
        return False
    return wanted == "permanent" or wanted.capitalize() in chars.types


def check_condition(game: Game, cond: dict[str, Any] | None, source: Any, event: Event | None) -> bool:
    """Intervening-if conditions (rule 603.4), checked on triggering and again on resolution."""
    if not cond:
        return True
    if "had_no_counters" in cond:
        lki = event.lki if event is not None else None
        return lki is not None and lki.counters.get(cond["had_no_counters"], 0) == 0
    if "had_counters" in cond:
        lki = event.lki if event is not None else None
        return lki is not None and lki.counters.get(cond["had_counters"], 0) > 0
    if "paid" in cond:
        spell = event.obj if event is not None else None
        return spell is not None and cond["paid"] in spell.paid_additional
    if "revealed_or_controlled" in cond:  # the permanent remembers how its spell was cast (reveal.py)
        return reveal.holds(event.obj if event is not None else None) == bool(cond["revealed_or_controlled"])
    if "evolve" in cond:
        return _evolve_bigger(game, source, event)
    controller = source.controller if isinstance(source, Snapshot) else game.controller(source)
    if "event_object_is" in cond:  # "..., if it's a creature": the event's object as it is now (603.4, twice)
        return _event_object_is(game, cond["event_object_is"], controller, event)
    if "control_none" in cond:  # "you control no [filter] permanents"
        live = game.find(source.oid)
        return not any(
            game.controller(o) == controller
            and matches(game, o, game.chars(o), cond["control_none"], controller, live)
            for o in game.battlefield
        )
    if "control_at_least" in cond:  # "if you control four or more creatures named Biovisionary" (603.4)
        return control_count(game, cond["control_at_least"]["filter"], controller, source) >= int(
            cond["control_at_least"]["n"]
        )
    if "life_at_most" in cond:
        return game.players[controller].life <= int(cond["life_at_most"])
    if "hand_empty" in cond:  # "if you have no cards in hand" / "if that player has ..." (603.4: checked twice)
        whose = controller if cond["hand_empty"] == "you" else event.player if event is not None else None
        return whose is not None and not game.players[whose].hand
    if "total_power_at_least" in cond:  # each creature's actual power, a negative one included (DTK formidable)
        total = sum(
            game.chars(o).power or 0
            for o in game.battlefield
            if game.controller(o) == controller and game.chars(o).is_("Creature")
        )
        return total >= int(cond["total_power_at_least"])
    looked_back = history.holds(game, cond, controller, source)  # this turn's history (rule 603.4 checks it twice)
    if looked_back is not None:
        return looked_back
    raise ScriptError(f"unknown condition {cond!r}")


def control_count(game: Game, filt: dict[str, Any], controller: str, source: Any) -> int:
    """How many permanents matching ``filt`` the player controls now (token copies count: a copy has the name)."""
    live = game.find(source.oid)
    return sum(
        1 for o in game.battlefield
        if game.controller(o) == controller and matches(game, o, game.chars(o), filt, controller, live)
    )


def _enters_from(game: Game, filt: dict[str, Any], source: Any, controller: str, event: Event) -> bool:
    """A permanent entered from the stated zone (rule 603.6a: an enters ability of a permanent on the battlefield,
    which sees itself and the others entering with it, 603.6a / 603.10). A spell resolving comes from the stack."""
    f = dict(filt)
    origin = f.pop("from", None)
    obj = event.obj
    return (
        event.kind == "zone_change"
        and event.to_zone == "battlefield"
        and obj is not None
        and (origin is None or event.from_zone == origin)
        and isinstance(source, GameObject)
        and source.zone == "battlefield"
        and matches(game, obj, game.chars(obj), f, controller, source)
    )


def _cast_from(game: Game, filt: dict[str, Any], source: Any, controller: str, event: Event) -> bool:
    """A spell was cast from the stated zone; only the permanents on the battlefield see it (a card cast from a
    graveyard is on the stack as it is cast, so its own ability doesn't, 113.6)."""
    f = dict(filt)
    origin = f.pop("from", None)
    spell = event.obj
    return (
        event.kind == "cast"
        and spell is not None
        and (origin is None or spell.cast_from == origin)
        and isinstance(source, GameObject)
        and source.zone in ABILITY_ZONES
        and matches(game, spell, game.chars(spell), f, controller, None)
    )


def _event_object_is(game: Game, filt: dict[str, Any], controller: str, event: Event | None) -> bool:
    """The object the event is about still exists (the same object, 400.7) and matches the filter now."""
    obj = event.obj if event is not None else None
    live = game.find(obj.oid) if obj is not None else None
    if live is None or live.zone != "battlefield":
        return False
    return matches(game, live, game.chars(live), filt, controller, None)


def collect_state_triggers(game: Game) -> None:
    """Rule 603.8: a state trigger triggers as soon as its game state holds, and not again while that ability is
    waiting or on the stack; once it has left the stack it triggers again if the state still holds."""
    for source in game.ability_sources():
        chars = game.chars(source)
        for ability in chars.abilities:
            if ability.kind != "triggered" or ability.spec.get("triggered") != "state":
                continue
            if _in_flight(game, source.oid, ability.name):
                continue
            if choices.bind(ability.spec["state"], choices.of_object(source)) is None:
                continue  # "the chosen colour" of a permanent that made no choice: it never triggers (614.12)
            if check_condition(game, ability.spec["state"], source, None):
                game.pending_triggers.append(
                    PendingTrigger(game.controller(source), ability, game.snapshot(source), Event("state"))
                )


def _in_flight(game: Game, oid: int, name: str) -> bool:
    if any(p.source.oid == oid and p.ability.name == name for p in game.pending_triggers):
        return True
    return any(
        isinstance(item, StackAbility) and item.source_oid == oid and item.ability.name == name
        for item in game.stack
    )


def _evolve_bigger(game: Game, source: Any, event: Event | None) -> bool:
    """Compare the entering creature (or its last known information) with the evolving one, P to P, T to T."""
    if event is None or event.obj is None:
        return False
    new_live = game.find(event.obj.oid)
    new_chars = game.chars(new_live) if new_live is not None else game.lki[event.obj.oid].chars
    me_live = game.find(source.oid)
    if me_live is None or me_live.zone != "battlefield":
        return False
    me = game.chars(me_live)
    return (new_chars.power or 0) > (me.power or 0) or (new_chars.toughness or 0) > (me.toughness or 0)


def put_on_stack(game: Game) -> bool:
    """Put pending triggers on the stack: APNAP, each player in the order the scenario scripted."""

    if not game.pending_triggers:
        return False
    pending, game.pending_triggers = game.pending_triggers, []
    for player in game.apnap():
        mine = [t for t in pending if t.controller == player]
        if not mine:
            continue
        ordered = _order(game, player, mine)
        for trig in ordered:
            item = StackAbility(
                sid=game.new_id(),
                ability=trig.ability,
                controller=player,
                source=trig.source,
                source_oid=trig.source.oid,
                event=trig.event,
                triggered=True,
                spec=trig.ability.spec,
                about=trig.about,
            )
            if not modes.choose_for_trigger(game, item, player, game.find(trig.source.oid) or trig.source):
                continue  # rule 603.3c: no mode can be chosen
            specs = item.spec.get("targets") or []
            if specs:
                live = game.find(trig.source.oid)
                try:
                    item.targets = divide.choose_targets(game, item, player, live or trig.source)
                except IllegalAction:
                    if divide.zero_allowed(specs):  # rule 115.6: zero targets was a legal choice, this one is not
                        raise
                    game.log(
                        f"Срабатывающая способность «{narr.ability_label(trig.ability)}» объекта "
                        f"{narr.obj(game, trig.source)} не имеет допустимых целей и покидает стек"
                    )
                    continue
                divide.divide_for_trigger(game, item, player, live or trig.source)  # rule 601.2d
            game.stack.append(item)
            game.log(
                f"Срабатывает способность «{narr.ability_label(trig.ability)}» объекта {narr.obj(game, trig.source)} "
                f"({narr.player(player)}) и кладется в стек" + _targets_text(game, item)
            )
            targeted(game, item.targets, player)
    return True


def targeted(game: Game, chosen: list[Any], by: str) -> None:
    """A permanent "becomes the target" of a spell or ability as it is put on the stack with that target
    (rule 601.2c, 603.2e: once, when it happens)."""

    for t in chosen:
        obj = game.find(t.oid) if t.oid is not None else None
        if obj is not None and obj.zone == "battlefield":
            collect(game, Event("becomes_target", obj=obj, player=by))


def _targets_text(game: Game, item: StackAbility) -> str:
    if not item.targets:
        return ""
    names = []
    for t in item.targets:
        if t.player is not None:
            names.append(narr.player(t.player))
        else:
            obj = game.find(t.oid) if t.oid is not None else None
            names.append(narr.obj(game, obj) if obj is not None else "?")
    return "; цель: " + ", ".join(names)


def _order(game: Game, player: str, mine: list[PendingTrigger]) -> list[PendingTrigger]:
    if (
        len(mine) == 1
        or len({(t.source.card.ref, t.ability.name, repr(t.ability.spec.get("targets"))) for t in mine}) == 1
    ):
        return mine
    labels = ", ".join(t.label for t in mine)
    answer = game.decide("order", player, f"порядок срабатываний в стек (первый кладется первым): {labels}")
    if not isinstance(answer, list) or len(answer) != len(mine):
        raise ScriptError(f"порядок срабатываний должен перечислить все {len(mine)}: {labels}")
    left = list(mine)
    out = []
    for name in answer:
        hit = [t for t in left if t.label == name] or [t for t in left if t.source.card.ref == name]
        if not hit:
            raise ScriptError(f"{name!r} не среди срабатываний ({labels})")
        out.append(hit[0])
        left.remove(hit[0])
    return out
