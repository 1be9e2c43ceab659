"""What a mana ability or an ``add_mana`` effect adds (rules 106.1, 605.1a): fixed mana, or one mana of any colour.

``mana: any`` ("Add one mana of any color") makes its controller choose the colour as the mana is added: a
scripted decision (``kind: mana_color``, ``value: G``), asked every time, since five colours are always possible.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from rules_engine.errors import IllegalAction
from rules_engine.layers import matches
from rules_engine.mana import COLORS, format_units, parse_units

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game

ANY_COLOR = "any"


def is_produced(text: str) -> bool:
    """The shapes a card definition may give: ``any``, ``any:N`` or mana units (``G``, ``{C}{C}``)."""
    if text == ANY_COLOR or (text.startswith(ANY_COLOR + ":") and text[len(ANY_COLOR) + 1:].isdigit()):
        return True
    parse_units(text)
    return True


def produced(game: Game, player: str, spec: Any, source: Any = None) -> Counter[str]:
    """The mana added: ``spec`` as units, for ``any`` one mana of the colour the player chooses now, for ``any:N``
    N mana "in any combination of colors", each one's colour chosen in turn (106.1: never colourless)."""
    text = str(spec)
    if text.startswith(ANY_COLOR + ":"):
        total: Counter[str] = Counter()
        for _ in range(int(text[len(ANY_COLOR) + 1:])):
            total += produced(game, player, ANY_COLOR, source)
        return total
    if text != ANY_COLOR:
        return parse_units(text)
    answer = str(game.decide("mana_color", player, "маны какого цвета добавить? (W, U, B, R или G)", source))
    colour = answer.replace("{", "").replace("}", "").upper()
    if len(colour) != 1 or colour not in COLORS:  # rule 105.1: the five colours; colourless is not a colour
        raise IllegalAction(f"{_named(colour)} — не цвет: нужен белый, синий, черный, красный или зеленый", "105.1")
    return Counter(colour)


def _named(colour: str) -> str:
    """The answer in words for the log («бесцветная мана»), not the letter."""
    from rules_engine.log import color_name

    name = color_name(colour)
    return "бесцветная мана" if colour == "C" else f"«{name}»"


def tapped_for_mana(game: Game, player: str, tapped: Any, added: Counter[str]) -> Counter[str]:
    """Rules 106.12, 106.12b, 614.1a: a replacement effect on "tapping a permanent for mana" (static
    ``modify_mana``, ``value: {times: 2}``; ``affects``: a filter on the tapped permanent, none: every permanent;
    ``players: you|each``: whose tapping) modifies the mana the ability produces; several are cumulative, each
    applying to the mana the others made (614.5: Mana Reflection twice: four times as much). Only an ability with
    {T} in its cost is "tapped for mana" (Pili-Pala's {Q} ability is not)."""
    from rules_engine.log import obj
    from rules_engine.replacement import _player_matches

    for holder in game.ability_sources():
        for ability in game.chars(holder).abilities:
            if ability.kind != "static" or ability.spec["static"] != "modify_mana" or not added:
                continue
            value = ability.spec.get("value") or {}
            you = game.controller(holder)
            if not _player_matches(game, str(value.get("players", "you")), player, you):
                continue
            filt = ability.spec.get("affects")
            if filt is not None and not matches(game, tapped, game.chars(tapped), filt, you, holder):
                continue
            times = int(value.get("times", 1))
            before = format_units(added)
            added = Counter({unit: k * times for unit, k in added.items()})
            game.log(f"{obj(game, holder)}: вместо {before} производится {format_units(added)} (эффект замены)")
    return added
