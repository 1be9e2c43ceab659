"""Tapping a permanent (rule 701.26a) and the event it makes: "whenever this creature becomes tapped" triggers
only when a permanent actually changes from untapped to tapped — by attacking, by paying a {T} or "tap an
untapped creature" cost, or by an effect — never when an effect taps a permanent that was already tapped
(LRW rulings of Fallowsage and its kind). Untapping (701.26b: only a tapped permanent can be untapped) is the
mirror: "whenever this becomes untapped" sees the untap step, an untap effect or a {Q} / "untap" cost."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rules_engine.objects import GameObject
    from rules_engine.state import GameState as Game


def tap(game: Game, obj: GameObject) -> bool:
    """Tap ``obj``; whether it changed (and so made a ``becomes_tapped`` event)."""
    from rules_engine import triggers
    from rules_engine.events import Event

    if obj.tapped:
        return False
    obj.tapped = True
    if obj.zone == "battlefield":
        triggers.collect(game, Event("becomes_tapped", obj=obj, player=game.controller(obj)))
    return True


def untap(game: Game, obj: GameObject) -> bool:
    """Untap ``obj`` (rule 701.26b); whether it changed (and so made a ``becomes_untapped`` event)."""
    from rules_engine import triggers
    from rules_engine.events import Event

    if not obj.tapped:
        return False
    obj.tapped = False
    if obj.zone == "battlefield":
        triggers.collect(game, Event("becomes_untapped", obj=obj, player=game.controller(obj)))
    return True
