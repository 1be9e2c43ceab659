"""Choosing a colour as an effect resolves (rules 608.2d, 105.4): "Choose a color. ...", "becomes the color or colors
of your choice". A ``color`` decision of the effect's controller; the effect's ``then`` is run with the word
``chosen`` bound to the answer (``choices.bind_to``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_engine import log as narr
from rules_engine.choices import COLORS, bind_to, options
from rules_engine.errors import IllegalAction, ScriptError
from rules_engine.interpreter import Context, effect, run

if TYPE_CHECKING:
    from rules_engine.objects import GameObject, Snapshot
    from rules_engine.state import GameState as Game


def choose_colors(game: Game, player: str, source: GameObject | Snapshot | None, many: bool) -> tuple[str, ...]:
    """Rule 105.4: a ``color`` decision, one of W U B R G (colourless is no colour); ``many``: "the color or colors of
    your choice", any one or more of them (a list)."""
    answer = game.decide("color", player, "какой цвет выбрать" + (" (или цвета)?" if many else "?"), source)
    picked = [str(a) for a in answer] if isinstance(answer, list) else [str(answer)]
    if len(picked) > 1 and not many:
        raise IllegalAction("нужно выбрать один цвет", "105.4")
    if not picked or len(set(picked)) != len(picked):
        raise ScriptError(f"цвета {answer!r}: нужен один или несколько разных цветов")
    for color in picked:
        if color not in COLORS:
            why = "выбрать можно белый, синий, черный, красный или зеленый"
            raise IllegalAction(f"«{narr.color_name(color)}» — не цвет: {why}", "105.4")
    game.log(f"{narr.player(player)} выбирает цвет: {', '.join(narr.color_name(c) for c in picked)}")
    return tuple(picked)


@effect("choose_color")
def _choose_color(ctx: Context, v: dict[str, Any]) -> None:
    """ "Choose a color. [effect with the chosen color]": chosen as the effect resolves (608.2d), by its controller."""
    chosen = choose_colors(ctx.game, ctx.controller, ctx.source, bool(v.get("any_number")))
    run(ctx, bind_to(v["then"], chosen))


@effect("choose_option")
def _choose_option(ctx: Context, v: dict[str, Any]) -> None:
    """ "Choose first strike, vigilance, or lifelink", "choose a basic land type": an ``option`` decision of the
    effect's controller as it resolves (608.2d), among the listed words or a named set (``choices.OPTION_SETS``)."""
    words, rule = options({"options": v["options"], "rule": "608.2d"})
    answer = str(ctx.game.decide("option", ctx.controller, f"что выбрать ({', '.join(words)})?", ctx.source))
    if answer not in words:
        offered = ", ".join(narr.anchor_word(w) for w in words)
        raise IllegalAction(f"{narr.anchor_word(answer)}: нужно выбрать одно из: {offered}", rule)
    ctx.game.log(f"{narr.player(ctx.controller)} выбирает: {narr.anchor_word(answer)}")
    if "by_option" in v:  # "gets +1/-1 or -1/+1": each word its own effect, the chosen one happens (608.2d)
        run(ctx, v["by_option"].get(answer, {"nothing": {}}))
        return
    if "then" not in v:
        raise ScriptError("choose_option: then or by_option is needed")
    run(ctx, bind_to(v["then"], (answer,)))
