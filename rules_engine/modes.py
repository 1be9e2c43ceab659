"""Modal triggered abilities (rules 603.3c, 700.2b): "When this enters, choose one — • ... • ...".

The controller announces the mode as the ability is put on the stack (not as it resolves), so the mode is fixed even
if the source leaves the battlefield in response. A mode whose targets can't be chosen can't be chosen; if no mode can
be, the ability is removed from the stack. The chosen mode's targets and effect become the ability's own
(700.2c: the targets of the other modes don't exist for it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_engine import log as narr
from rules_engine import targets as tg
from rules_engine.errors import IllegalAction, ScriptError

if TYPE_CHECKING:
    from rules_engine.objects import GameObject, Snapshot
    from rules_engine.stackobjects import StackAbility
    from rules_engine.state import GameState as Game


def possible(game: Game, mode: dict[str, Any], player: str, source: GameObject | Snapshot) -> bool:
    """Rule 700.2b: a mode can be chosen only if every one of its targets has a legal choice."""
    return all(tg.candidates(game, spec, player, source) for spec in tg.slots(mode.get("targets") or []))


def choose_for_trigger(game: Game, item: StackAbility, player: str, source: GameObject | Snapshot) -> bool:
    """Rules 603.3c, 700.2b: the mode is chosen as the triggered ability is put on the stack (a ``mode`` decision,
    1-based). False when no mode can be chosen: the ability is removed from the stack."""
    modes = item.spec.get("modes")
    if not modes:
        return True
    label = f"«{narr.ability_label(item.ability)}» объекта {narr.obj(game, source)}"
    legal = [i for i, mode in enumerate(modes) if possible(game, mode, player, source)]
    if not legal:
        game.log(f"Ни один режим срабатывающей способности {label} выбрать нельзя: она покидает стек")
        return False
    answer = game.decide("mode", player, f"режим срабатывающей способности {label} (1–{len(modes)})", source)
    if isinstance(answer, bool) or not isinstance(answer, int) or not 1 <= answer <= len(modes):
        raise ScriptError(f"режим {answer!r}: у способности {label} режимы 1–{len(modes)}")
    if answer - 1 not in legal:
        raise IllegalAction(f"режим {answer} способности {label} выбрать нельзя: у него нет допустимых целей", "700.2b")
    rest = {k: v for k, v in item.spec.items() if k not in ("modes", "choose")}
    item.spec = {**rest, **modes[answer - 1]}
    game.log(f"{narr.player(player)} выбирает режим {answer} срабатывающей способности {label}")
    return True
