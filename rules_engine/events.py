"""Events: what happened, for triggered abilities and the turn's history to look at (ground floor).

An ``Event`` is plain game state, so every rules procedure may make one and none needs the procedure that
reacts to it; ``DelayedTrigger`` (rule 603.7) is the state a resolving effect leaves for a later event;
``TurnHistory`` is the record of this turn's events.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from rules_engine.objects import GameObject, Snapshot


@dataclass
class Event:
    """Something that happened, for triggered abilities to look at."""

    kind: str  # zone_change, damage, counters, counters_removed, cast, attacks, step, combat_damage_to_player,
    # life_gained, turned_face_up, becomes_target, countered, clash, blocks, blocks_creature, becomes_blocked,
    # becomes_blocked_by, becomes_untapped, life_lost, draw, blocking_count (509.3e: amount blocked now, target before)
    obj: GameObject | None = None  # the object after the event (new object after a zone change)
    lki: Snapshot | None = None  # the object before it (zone change) or the damage source
    from_zone: str | None = None
    to_zone: str | None = None
    target: Any = None  # damage recipient: a player name or an object
    amount: int = 0
    combat: bool = False
    counter: str | None = None
    step: str | None = None
    player: str | None = None
    batch: int = 0  # the simultaneous batch it belongs to (``Game.simultaneously``), 0 if none: rules 510.2, 603.2c


@dataclass
class DelayedTrigger:
    """A delayed triggered ability (rule 603.7), created by a resolving effect.

    ``about`` holds the objects the creating effect referred to ("that creature"); ``this_turn`` marks a stated
    duration: without one it triggers only once, the next time its event occurs (603.7b).
    """

    ability: Any  # AbilityDef
    controller: str  # who controlled the creating spell or ability as it resolved (603.7d, 603.7e)
    source: Snapshot  # that spell, or the source of that ability
    about: tuple[int, ...] = ()
    this_turn: bool = False


@dataclass(frozen=True)
class DamageRecord:
    """Damage dealt this turn (rule 120): its source as it was then, its recipient, how much, whether in combat."""

    source: Snapshot
    source_controller: str
    to_player: str | None  # the player dealt damage, or None for a permanent
    to_oid: int | None  # the permanent dealt damage (that very object, rule 400.7)
    to_types: frozenset[str]
    to_controller: str | None
    amount: int
    combat: bool


@dataclass
class TurnHistory:
    """What happened this turn, for the conditions that look back (``history``); reset as each turn begins."""

    attacked_with: Counter[str] = field(default_factory=Counter)  # creatures each player declared as attackers
    life_gained: Counter[str] = field(default_factory=Counter)
    creatures_died: int = 0
    spells_cast: Counter[str] = field(default_factory=Counter)
    attack_targets: dict[int, Any] = field(default_factory=dict)  # attacker -> what it attacked (508.5)
    life_lost: Counter[str] = field(default_factory=Counter)  # rule 119.3: every loss, damage and payments too
    cards_drawn: Counter[str] = field(default_factory=Counter)  # rule 121.1: only what was drawn (121.5)
    damage: list[DamageRecord] = field(default_factory=list)
    cast_by_permission: Counter[int] = field(default_factory=Counter)  # source -> spells cast by its permission
    attacks_by: Counter[int] = field(default_factory=Counter)  # creature -> times declared as an attacker (508.1)
    extra_combats: int = 0  # additional combat phases still to come this turn (rule 500.8)
    # rules 603.3, 608.2: (source object, ability name) -> times that ability of that object resolved this turn
    # (copies too, 707.10; a countered one never resolves); a new object after a zone change starts anew (400.7)
    resolutions: Counter[tuple[int, str]] = field(default_factory=Counter)
