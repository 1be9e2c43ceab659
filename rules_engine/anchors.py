"""Anchor words (rule 614.12c): "As this enters, choose Khans or Dragons. • Khans — [ability] • Dragons — [ability]".

The choice is made as the permanent enters (a replacement effect, 614.12) by its controller: a ``enter_choice``
decision. "[Anchor word] — [ability]" means "as long as [anchor word] was chosen as this permanent entered, it has
[ability]"; the abilities are linked to the choosing one (607.2m), so they refer only to that choice, and a permanent
entering as a copy of it makes a choice of its own. A card elsewhere has neither ability.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine import choices
from rules_engine import log as narr
from rules_engine.errors import IllegalAction
from rules_engine.layers import matches

if TYPE_CHECKING:
    from rules_engine.objects import GameObject
    from rules_engine.state import GameState as Game


def options(game: Game, obj: GameObject) -> tuple[list[str], str]:
    """The words offered and the rule a word outside them breaks (``choices.OPTION_SETS``: colours 105.4, basic
    land types 205.3i; a listed choice such as anchor words or odd / even, 614.12c)."""
    for ability in game.chars(obj).abilities:
        if ability.kind == "static" and ability.spec.get("static") == "choose_as_enters":
            return choices.options(ability.spec.get("value") or {})
    return [], "614.12c"


def as_enters(game: Game, obj: GameObject) -> None:
    """Rules 614.12a, 614.12c: the controller chooses a word (an anchor word, a colour...) as the permanent enters."""
    exile_as_enters(game, obj)
    words, rule = options(game, obj)
    if not words:
        return
    answer = str(game.decide("enter_choice", game.controller(obj), f"что выбрать для {narr.obj(game, obj)}?", obj))
    if answer not in words:
        offered = ", ".join(narr.anchor_word(w) for w in words)
        raise IllegalAction(f"{narr.anchor_word(answer)}: нужно выбрать одно из: {offered}", rule)
    obj.chosen = answer
    game.touch()
    game.log(f"{narr.player(game.controller(obj))} выбирает для {narr.obj(game, obj)}: {narr.anchor_word(answer)}")


def exile_as_enters(game: Game, obj: GameObject) -> None:
    """Rule 614.12a: "As this enters, exile an instant or sorcery card from your graveyard" — a card its controller
    chooses (``choose_card``, when there are several) as it enters, linked to it (607.2a); none there, none exiled."""
    for ability in game.chars(obj).abilities:
        if ability.kind != "static" or ability.spec.get("static") != "exile_as_enters":
            continue
        value = ability.spec.get("value") or {}
        who = game.controller(obj)
        yard = game.players[who].graveyard
        pool = [c for c in yard if matches(game, c, game.chars(c), value.get("filter"), who, obj)]
        if not pool:
            game.log(f"{narr.obj(game, obj)}: на кладбище нет подходящей карты — изгонять нечего")
            continue
        card = pool[0]
        if len(pool) > 1:
            answer = game.decide("choose_card", who, f"какую карту изгнать для {narr.obj(game, obj)}?", obj)
            hits = [c for c in pool if str(answer) in (c.card.ref, c.card.definition.name)]
            if not hits:
                raise IllegalAction(f"{answer!r}: не подходящая карта вашего кладбища", "614.12a")
            card = hits[0]
        exiled = game.move(card, "exile")
        game.linked.setdefault((obj.oid, str(value["link"])), []).append(exiled.oid)
