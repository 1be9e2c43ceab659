"""The effect interpreter's core: the context an effect runs in, and ``run``, which looks each effect up by name.

Effects (``effects``) register their handlers here with ``@effect(name)``. Whatever must carry out an effect
script — a resolving spell, a replacement effect ("EFFECT instead", 614.1a), dash's or rebound's delayed return —
calls ``run`` without importing the handlers, so this module sits low, below every rules procedure, and the
handlers sit above them all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rules_engine.events import Event
from rules_engine.objects import AbilityDef, GameObject, Snapshot
from rules_engine.stackobjects import Target

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game


@dataclass
class Context:
    """Everything an effect may refer to while a spell or ability resolves."""

    game: Game
    controller: str
    source: GameObject | Snapshot  # the spell itself, or the source of an ability
    targets: list[Target] = field(default_factory=list)
    legal: list[bool] = field(default_factory=list)
    x: int = 0
    event: Event | None = None
    spell: GameObject | None = None
    made: list[GameObject] = field(default_factory=list)  # what this effect manifested so far ("made")
    about: tuple[int, ...] = ()  # a delayed trigger's objects: "that creature" (rule 603.7c)
    ability: AbilityDef | None = None  # the ability resolving: "this ability" of a copy exception (707.9a)
    division: tuple[int, ...] = ()  # rule 601.2d: the damage announced for each target (divide.py)
    removed: int = 0  # the counters its remove_counters effects have removed so far: "that much" (608.2c)
    dealt: int = 0  # the damage its damage effects have dealt so far: "the damage dealt this way" (608.2c)
    discarded: dict[str, int] = field(default_factory=dict)  # cards each player discarded by it so far (608.2c)
    each: str | None = None  # the player an effect for several players is doing its part for ("that player")
    clashed: str | None = None  # rule 701.30b: the opponent its last clash was with ("that player")
    clash_won: bool = False  # whether its controller won that clash (701.30d): "if you win, repeat this process"
    sacrificed: list[Snapshot] = field(default_factory=list)  # "that creature" of an edict, as it last existed

    def source_live(self) -> GameObject | None:
        live = self.game.find(self.source.oid)
        return live if live is not None and live.zone in ("battlefield", "stack") else None


Handler = Callable[[Context, Any], None]
HANDLERS: dict[str, Handler] = {}


def effect(name: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        HANDLERS[name] = fn
        return fn

    return register


def run(ctx: Context, spec: Any) -> None:
    if isinstance(spec, list):
        for item in spec:
            run(ctx, item)
            ctx.game.touch()
        return
    ((name, value),) = spec.items()
    HANDLERS[name](ctx, value)
