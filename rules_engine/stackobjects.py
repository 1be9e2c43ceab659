"""What sits on the stack and what it targets (ground floor): abilities on the stack, chosen targets.

Spells on the stack are ``GameObject``s in the stack zone; activated and triggered abilities are
``StackAbility`` records (rule 113.7). Casting (``stack``), resolving (``resolve``), targeting (``targets``) and
triggering (``triggers``) all read and write these, so they live below every one of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules_engine.events import Event
from rules_engine.objects import Card, GameObject, Snapshot


@dataclass(frozen=True)
class Target:
    """A chosen target: a player (``player``) or an object (``oid``, which changes with every zone move)."""

    player: str | None = None
    oid: int | None = None


@dataclass
class StackAbility:
    """An activated or triggered ability on the stack (spells are ``GameObject``s in the stack zone)."""

    sid: int
    ability: Any  # AbilityDef
    controller: str
    source: Snapshot  # the source as it was when the ability was activated / triggered
    source_oid: int
    targets: list[Any] = field(default_factory=list)
    x: int = 0
    division: tuple[int, ...] = ()  # rule 601.2d: the damage announced for each target (divide.py)
    event: Event | None = None
    triggered: bool = False
    spec: dict[str, Any] = field(default_factory=dict)
    about: tuple[int, ...] = ()  # a delayed trigger: the objects its creating effect referred to (603.7c)

    @property
    def card(self) -> Card:
        return self.source.card


StackItem = GameObject | StackAbility
