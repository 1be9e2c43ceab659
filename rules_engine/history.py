"""What happened this turn, for conditions that look back ("if you attacked with three or more creatures this
turn", "if you gained life this turn", "if a creature died this turn", "if you've drawn two or more cards this
turn", "if an opponent lost life this turn", "if an opponent was dealt 7 or more damage this turn") and for the
amounts read from it ("the damage dealt to target opponent this turn", "the life you lost this turn").

Every event passes through ``note`` (called by ``triggers.collect``); the record is reset as each turn begins
(rule 500.1: a turn is the unit these conditions count in). The record itself, ``events.TurnHistory``, is game
state on the ground floor.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_engine.events import DamageRecord, Event
from rules_engine.objects import AbilityDef, GameObject, Snapshot
from rules_engine.snapfilter import snap_matches, whose

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game


def note(game: Game, event: Event) -> None:
    """Record the event in this turn's history."""
    h = game.history
    if event.kind == "attacks" and event.obj is not None:
        h.attacked_with[game.controller(event.obj)] += 1
        h.attack_targets[event.obj.oid] = event.obj.attacking  # rule 508.5: kept after removal from combat
        h.attacks_by[event.obj.oid] += 1
    elif event.kind == "life_lost" and event.player is not None:
        h.life_lost[event.player] += event.amount
    elif event.kind == "draw" and event.player is not None:
        h.cards_drawn[event.player] += 1
    elif event.kind == "damage" and event.lki is not None:
        _note_damage(game, event)
    elif event.kind == "life_gained" and event.player is not None:
        h.life_gained[event.player] += event.amount
    elif event.kind == "cast" and event.player is not None:
        h.spells_cast[event.player] += 1
    elif (
        event.kind == "zone_change"
        and event.from_zone == "battlefield"
        and event.to_zone == "graveyard"
        and event.lki is not None
        and "Creature" in event.lki.chars.types
    ):
        h.creatures_died += 1


def _note_damage(game: Game, event: Event) -> None:
    """Rule 120: who dealt damage to whom this turn, the recipient as it was dealt the damage."""
    assert event.lki is not None
    recipient = event.target
    if isinstance(recipient, str):
        to_player, to_oid, types, controller = recipient, None, frozenset[str](), None
    else:
        live = game.find(recipient.oid) if isinstance(recipient, (GameObject, Snapshot)) else None
        chars = game.chars(live) if live is not None else getattr(recipient, "chars", None)
        to_player, to_oid = None, getattr(recipient, "oid", None)
        types = frozenset(chars.types) if chars is not None else frozenset()
        controller = game.controller(live) if live is not None else getattr(recipient, "controller", None)
    _, source_controller = game.source_chars(event.lki)
    game.history.damage.append(
        DamageRecord(event.lki, source_controller, to_player, to_oid, types, controller, event.amount, event.combat)
    )


def _recipient_is(game: Game, rec: DamageRecord, wanted: str | None, player: str) -> bool:
    """``you`` / ``opponent`` / ``player`` or a card type in lower case (the shapes of a damage trigger's ``to``)."""
    if wanted is None:
        return True
    if rec.to_player is not None:
        return wanted == "player" or (wanted in ("you", "opponent") and whose(game, wanted, rec.to_player, player))
    return wanted == "permanent" or wanted.capitalize() in rec.to_types


def damage_records(
    game: Game, spec: dict[str, Any], player: str, source: GameObject | Snapshot | None
) -> list[DamageRecord]:
    """This turn's damage matching ``source`` (a filter on the source as it was), ``to`` and ``combat``."""
    return [
        r
        for r in game.history.damage
        if snap_matches(game, r.source, spec.get("source"), player, source)
        and _recipient_is(game, r, spec.get("to"), player)
        and ("combat" not in spec or r.combat == bool(spec["combat"]))
    ]


def dealt_damage(game: Game, obj: GameObject) -> bool:
    """Whether this very object dealt damage this turn ("target creature that dealt damage this turn")."""
    return any(r.source.oid == obj.oid for r in game.history.damage)


def was_dealt_damage(game: Game, obj: GameObject) -> bool:
    """Whether this very permanent was dealt damage this turn."""
    return any(r.to_oid == obj.oid for r in game.history.damage)


def damage_to(game: Game, spec: dict[str, Any], recipients: list[Any], player: str, source: Any) -> int:
    """The damage dealt this turn to those players / objects (matching the rest of ``spec``)."""
    keys = {r if isinstance(r, str) else r.oid for r in recipients}
    return sum(
        r.amount for r in damage_records(game, spec, player, source) if (r.to_player or r.to_oid) in keys
    )


def note_resolution(game: Game, source_oid: int, ability: AbilityDef) -> None:
    """Rule 608.2: an ability that passed its checks on resolution (targets 608.2b, an intervening "if" 603.4)
    resolves; "the third time this ability has resolved this turn" counts these, per object (400.7)."""
    game.history.resolutions[(source_oid, ability.name)] += 1


def resolution_number(game: Game, source_oid: int, ability: AbilityDef | None) -> int:
    """How many times this ability of this object has resolved this turn, the one resolving now included."""
    return 0 if ability is None else game.history.resolutions[(source_oid, ability.name)]


# Conditions on this turn's history: key -> its shape for the schema
HISTORY_CONDITIONS: dict[str, str] = {
    "attacked_with_at_least": "int",  # "if you attacked with N or more creatures this turn"
    "gained_life_this_turn": "bool",  # "if you gained life this turn" (false: "if you haven't")
    "creature_died_this_turn": "bool",  # "if a creature died this turn" (morbid)
    "cast_spells_at_least": "int",  # "if you've cast N or more spells this turn"
    "drew_cards_at_least": "int",  # "if you've drawn two or more cards this turn" (rule 121.1)
    "lost_life_this_turn": "life_lost_condition",  # {players: you|opponent|each, at_least: N} (119.3)
    "damage_this_turn": "damage_condition",  # {source, to, combat, at_least}: "if an opponent was dealt damage"
    "first_attack_this_turn": "bool",  # "attacks for the first time each turn": declared once this turn so far
}


def holds(
    game: Game, cond: dict[str, Any], player: str, source: GameObject | Snapshot | None = None
) -> bool | None:
    """The value of a history condition for ``player`` ("you"), or None if ``cond`` is not one."""
    h = game.history
    if "drew_cards_at_least" in cond:
        return h.cards_drawn[player] >= int(cond["drew_cards_at_least"])
    if "lost_life_this_turn" in cond:  # some such player lost at least that much life (default 1)
        spec = cond["lost_life_this_turn"]
        which, least = spec.get("players", "you"), int(spec.get("at_least", 1))
        return any(
            n >= least and (which == "each" or whose(game, which, p, player)) for p, n in h.life_lost.items()
        )
    if "damage_this_turn" in cond:
        # a player recipient counts per player ("an opponent was dealt 7 or more damage"), any other in total
        spec = cond["damage_this_turn"]
        totals: dict[Any, int] = {}
        for r in damage_records(game, spec, player, source):
            key = r.to_player if r.to_player is not None else "*"
            totals[key] = totals.get(key, 0) + r.amount
        return any(n >= int(spec.get("at_least", 1)) for n in totals.values())
    if "attacked_with_at_least" in cond:
        return h.attacked_with[player] >= int(cond["attacked_with_at_least"])
    if "gained_life_this_turn" in cond:
        return (h.life_gained[player] > 0) == bool(cond["gained_life_this_turn"])
    if "creature_died_this_turn" in cond:
        return (h.creatures_died > 0) == bool(cond["creature_died_this_turn"])
    if "cast_spells_at_least" in cond:
        return h.spells_cast[player] >= int(cond["cast_spells_at_least"])
    if "first_attack_this_turn" in cond:  # a creature put onto the battlefield attacking was never declared (508.4)
        return (source is not None and h.attacks_by[source.oid] == 1) == bool(cond["first_attack_this_turn"])
    return None
