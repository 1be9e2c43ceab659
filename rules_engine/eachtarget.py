"""An instruction repeated for each target chosen: "for each opponent, exile up to one target creature that player
controls and that player gains life equal to its power" (Luminate Primordial).

``for_each_target: EFFECT`` runs EFFECT once per target, in the order chosen, with ``target`` naming that one target
(its legality as checked on resolution, 608.2b: an illegal one is not affected, but "that player" — ``{controller_of:
target}`` — still names its controller). The number of targets was announced as the ability was put on the stack
(601.2c, 603.3d); a target not chosen runs nothing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules_engine.interpreter import Context, effect, run


@effect("for_each_target")
def _for_each_target(ctx: Context, v: Any) -> None:
    """Each chosen target in turn is the effect's only ``target``; what the effect does stays in the outer context."""
    for index, chosen in enumerate(ctx.targets):
        legal = ctx.legal[index] if index < len(ctx.legal) else True
        one = replace(ctx, targets=[chosen], legal=[legal])
        run(one, v)
        ctx.dealt = one.dealt  # "the damage dealt this way" counts every run (608.2c)
