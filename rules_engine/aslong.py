"""Durations "for as long as you control [this permanent]" (rule 611.2b).

A continuous effect of a resolved spell or ability may last "for as long as" a condition holds: here, that the
effect's controller controls its source (DTK Dragonlord Silumgar's "gain control of target creature for as long as
you control Dragonlord Silumgar", Icefall Regent's "doesn't untap ... for as long as you control Icefall Regent").
The effect ends the moment the condition stops being true — the source leaves the battlefield (a new object, 400.7)
or another player gains control of it — and an ended effect never comes back, even if control of the source is
regained later (611.2b, DTK Silumgar and Icefall Regent rulings). If the condition is already false when the effect
would begin, it does nothing at all (611.2b).

The condition is checked whenever the characteristics are computed (``layers.compute``), after layer 2 has given
every permanent its controller: a lapsed effect is removed from the game and the characteristics are computed
again without it, so control changes that depend on it are undone at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine import log as narr

if TYPE_CHECKING:
    from rules_engine.objects import Characteristics, ContinuousEffect
    from rules_engine.state import GameState as Game

WHILE_YOU_CONTROL_SOURCE = "while_you_control_source"


def holds(
    game: Game, source_oid: int | None, controller: str, result: dict[int, Characteristics] | None = None
) -> bool:
    """Whether ``controller`` controls the source permanent now (the same object, still on the battlefield)."""
    source = game.find(source_oid) if source_oid is not None else None
    if source is None or source.zone != "battlefield":
        return False
    chars = result.get(source.oid) if result is not None else None
    return (chars.controller if chars is not None else game.controller(source)) == controller


def end_lapsed(game: Game, result: dict[int, Characteristics]) -> bool:
    """Rule 611.2b: remove the effects whose "for as long as you control" condition no longer holds, given the
    controllers in ``result``; True if any was removed (the characteristics must then be computed again)."""
    lapsed = [e for e in game.effects if e.duration == WHILE_YOU_CONTROL_SOURCE
              and not holds(game, e.source_oid, e.controller, result)]
    if not lapsed:
        return False
    for effect in lapsed:
        game.effects.remove(effect)
        game.log(f"Эффект «пока вы контролируете {_source_label(game, effect)}» заканчивается: "
                 f"{narr.player(effect.controller)} больше не контролирует источник (правило 611.2b)")
    return True


def _source_label(game: Game, effect: ContinuousEffect) -> str:
    """The source card's name as the log says it (its last known information once it has left the battlefield);
    no characteristics are computed here, since this runs while they are being computed."""
    oid = effect.source_oid
    live = game.find(oid) if oid is not None else None
    card = live.card if live is not None else game.lki[oid].card if oid is not None and oid in game.lki else None
    return narr.card_label(game, card) if card is not None else "«?»"


def starts(game: Game, source_oid: int | None, controller: str) -> bool:
    """Rule 611.2b: an effect "for as long as you control" its source does nothing if, as it would begin, its
    controller doesn't control the source (Silumgar gone or stolen before its ability resolves)."""
    if holds(game, source_oid, controller):
        return True
    game.log("Эффект «пока вы контролируете» не начинается: контролер способности уже не контролирует ее источник "
             "(правило 611.2b)")
    return False
