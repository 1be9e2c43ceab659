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
    N mana "in any combination of colors", each one's colour chosen in turn (106.1: never colourless);
    ``{could_produce: FILTER}``: one mana of a type those permanents could produce (106.7)."""
    if isinstance(spec, dict) and "could_produce" in spec:
        return _one_of_types(game, player, could_produce(game, player, spec["could_produce"], source), source)
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


def could_produce(game: Game, player: str, filt: dict[str, Any], source: Any = None) -> set[str]:
    """Rule 106.7: the types of mana the permanents matching ``filt`` (for ``player`` as "you") could produce now:
    what each of their mana abilities would add if it resolved, whatever its costs (tapped or not, counters or
    not: Vivid Crag's "any color"), restrictions on spending ignored (only types count). Abilities that
    themselves add what something "could produce" define no type (Reflecting Pools don't help each other)."""
    types: set[str] = set()
    for obj in game.battlefield:
        if not matches(game, obj, game.chars(obj), filt, player, source):
            continue
        for ability in game.chars(obj).abilities:
            mana = ability.spec.get("mana") if ability.kind == "activated" else None
            if mana is None or (isinstance(mana, dict) and "could_produce" in mana):
                continue
            text = str(mana["mana"] if isinstance(mana, dict) else mana)
            types |= set(COLORS) if text.split(":")[0] == ANY_COLOR else set(parse_units(text))
    return types


def _one_of_types(game: Game, player: str, types: set[str], source: Any) -> Counter[str]:
    """One mana of one of ``types`` (W U B R G C), chosen by the player when there is a choice (106.7: none
    defined, no mana)."""
    if not types:
        game.log("Нет типа маны, который можно произвести: мана не добавляется (правило 106.7)")
        return Counter()
    if len(types) == 1:
        return Counter(next(iter(types)))
    offered = ", ".join(f"{{{t}}}" for t in (*COLORS, "C") if t in types)  # mana symbols, not Latin words
    answer = str(game.decide("mana_color", player, f"маны какого типа добавить? ({offered})", source))
    unit = answer.replace("{", "").replace("}", "").upper()
    if unit not in types:
        raise IllegalAction(f"{_named(unit) if unit in (*COLORS, 'C') else unit}: такой маны эти перманенты "
                            f"произвести не могли бы (могли бы: {offered})", "106.7")
    return Counter(unit)


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
