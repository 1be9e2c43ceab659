"""Abilities granted by a resolving spell or ability (rule 613.1f, layer 6): "until end of turn, target creature
gains 'When this creature attacks, target creature blocks it this turn if able'".

The ability is added in layer 6 to the objects the reference names as the effect resolves (611.2c), for this turn
unless a ``duration`` says otherwise; it is that creature's own ability while it lasts (``self`` is the creature),
so it triggers, is copied and is lost like a printed one.
"""

from __future__ import annotations

from typing import Any

from rules_engine import log as narr
from rules_engine.effects import objects
from rules_engine.interpreter import Context, effect
from rules_engine.objects import ContinuousEffect


@effect("grant_abilities")
def _grant_abilities(ctx: Context, v: dict[str, Any]) -> None:
    """``{abilities: [ABILITY, ...], on: REF, duration}``: each named object gains those abilities."""
    from rules_engine.cards import parse_ability

    game = ctx.game
    chosen = objects(ctx, v.get("on", "target"))
    where = f"{ctx.source.card.definition.name}: grant_abilities"
    for i, raw in enumerate(v["abilities"]):
        ability = parse_ability(raw, f"granted#{i + 1}", where)
        for obj in chosen:
            game.effects.append(
                ContinuousEffect(
                    layer="6", kind="grant_ability", data={"ability": ability}, timestamp=game.new_timestamp(),
                    affected=frozenset({obj.oid}), duration=str(v.get("duration", "end_of_turn")),
                    source_oid=ctx.source.oid, controller=ctx.controller,
                )
            )
    if chosen:
        game.touch()
        names = ", ".join(narr.obj(game, o) for o in chosen)
        game.log(f"Эффект (добавление способностей, слой 6) применяется к {names}")
