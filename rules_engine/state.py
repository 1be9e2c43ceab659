"""The game as the rules procedures below ``game`` see it (ground floor): a Protocol of ``game.Game``.

``Game``'s own operations call rules procedures — a zone change asks ``replacement`` where the object goes
and ``triggers`` what triggers, ``chars`` asks ``layers`` — so those procedures (and whatever they import)
can't import ``game``, not even for a type. They name the game as ``GameState`` (imported as ``Game`` so
their annotations read as before); mypy checks that ``game.Game`` has every member listed here wherever a
game is handed down. A module *above* ``game`` (effects, stack, combat, turn, ...) may name ``game.Game``
itself. A procedure below ``game`` that needs a new member of the game adds it here, with the same type.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager
from typing import Any, Protocol

from rules_engine.events import DelayedTrigger, TurnHistory
from rules_engine.objects import Card, Characteristics, ContinuousEffect, GameObject, Player, Snapshot
from rules_engine.options import RulesOptions
from rules_engine.stackobjects import StackItem


class GameState(Protocol):
    """The members of ``game.Game`` that the procedures below it read and call."""

    options: RulesOptions
    players: dict[str, Player]
    order: list[str]
    battlefield: list[GameObject]
    stack: list[StackItem]
    effects: list[ContinuousEffect]
    lki: dict[int, Snapshot]
    active: str
    turn: int
    step: str
    priority: str | None
    passed: set[str]
    pending_triggers: list[Any]
    delayed: list[dict[str, Any]]
    delayed_triggers: list[DelayedTrigger]
    history: TurnHistory
    log_lines: list[str]
    winner: str | None
    loyalty_used: set[int]
    linked: dict[tuple[int, str], list[int]]
    play_permissions: list[Any]  # playfrom.Permission: cards in exile a player may play
    first_strike_step: bool
    first_strikers: set[int]
    _batch: dict[int, Snapshot] | None
    batch_serial: int  # the outermost simultaneous batch now or last (``Game.simultaneously``)

    def new_id(self) -> int: ...

    def new_timestamp(self) -> int: ...

    def touch(self) -> None: ...

    def opponent(self, name: str) -> str: ...

    def opponents(self, name: str) -> list[str]: ...

    def apnap(self) -> list[str]: ...

    def ability_sources(self) -> list[GameObject]: ...

    def all_objects(self) -> Iterator[GameObject]: ...

    def find(self, oid: int) -> GameObject | None: ...

    def zone_list(self, obj: GameObject) -> list[Any]: ...

    def chars(self, obj: GameObject) -> Characteristics: ...

    def chars_of(self, obj: GameObject | Snapshot) -> Characteristics: ...

    def controller(self, obj: GameObject) -> str: ...

    def snapshot(self, obj: GameObject) -> Snapshot: ...

    def source_chars(self, source: Snapshot | GameObject) -> tuple[Characteristics, str]: ...

    def simultaneously(self) -> AbstractContextManager[None]: ...

    def new_object(self, card: Card, zone: str, controller: str | None = None, **status: Any) -> GameObject: ...

    def move(
        self,
        obj: GameObject,
        to_zone: str,
        *,
        controller: str | None = None,
        counters: dict[str, int] | None = None,
        face_down: bool = False,
        tapped: bool = False,
        top: bool = True,
        paid: tuple[str, ...] = (),
        instead: str | None = None,
        spell_x: int = 0,
    ) -> GameObject: ...

    def remove_from_game(self, obj: GameObject) -> None: ...

    def put_counters(self, obj: GameObject, kind: str, n: int) -> None: ...

    def give_counters(self, player: str, kind: str, n: int) -> int: ...

    def remove_counters(self, obj: GameObject, kind: str, n: int) -> None: ...

    def remove_player_counters(self, player: str, kind: str, n: int) -> int: ...

    def gain_life(self, player: str, n: int) -> int: ...

    def decide(self, kind: str, player: str, question: str, source: GameObject | Snapshot | None = None) -> Any: ...

    def decide_or_seed(
        self, kind: str, player: str, question: str, source: GameObject | Snapshot | None = None
    ) -> Any: ...

    def log(self, text: str) -> None: ...

    def describe_stack_item(self, item: StackItem) -> str: ...
