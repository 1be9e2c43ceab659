"""Targets restricted relative to each other (rule 601.2c: the targets are chosen as a set, every targeting condition
met together; rule 608.2b: checked again on resolution).

A target spec may carry ``relation: {KEY: REF}``: ``REF`` is an earlier slot (``target0``...) or, on a ``count: N``
spec, ``each_other`` ("two target permanents that share a card type": the N objects together)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rules_engine.objects import Characteristics
from rules_engine.stackobjects import Target

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game

EACH_OTHER = "each_other"


def _share_card_type(chars: list[Characteristics]) -> bool:
    """At least one card type common to all of them (a creature and an artifact creature share one)."""
    common = set(chars[0].types)
    for c in chars[1:]:
        common &= c.types
    return bool(common)


def _same_controller(chars: list[Characteristics]) -> bool:
    return len({c.controller for c in chars}) == 1


def _different_controllers(chars: list[Characteristics]) -> bool:
    """"For each opponent, up to one target creature that player controls": no two of one player's (a card in a
    graveyard is its owner's, 404.2 — "from that player's graveyard")."""
    return len({c.controller for c in chars}) == len(chars)


def _mana_value_at_most(chars: list[Characteristics]) -> bool:
    """``chars[0]`` is the target with the relation, ``chars[1]`` the one it refers to."""
    return chars[0].mana_value <= chars[1].mana_value


# key -> (test over [this target, the referred target(s)...], symmetric: allowed with ``each_other``)
RELATIONS: dict[str, tuple[Callable[[list[Characteristics]], bool], bool]] = {
    "shares_card_type_with": (_share_card_type, True),
    "same_controller_as": (_same_controller, True),
    "one_per_player": (_different_controllers, True),
    "mana_value_at_most_of": (_mana_value_at_most, False),
}

TEXT_RU = {
    "shares_card_type_with": "нет общего типа карты",
    "same_controller_as": "под контролем разных игроков",
    "one_per_player": "две цели одного игрока",
    "mana_value_at_most_of": "конвертированная мана-стоимость больше",
}


def relation_of(spec: Any) -> dict[str, str]:
    return dict(spec.get("relation") or {}) if isinstance(spec, dict) else {}


def broken(
    game: Game, pairs: list[tuple[Any, int]], index: int, target: Target, chosen: list[Target | None]
) -> str | None:
    """The first relation of slot ``index`` that ``target`` fails against the targets ``chosen`` for the earlier slots
    (``None`` where a slot is not filled yet, or its object is gone: nothing to compare with), or ``None``."""
    spec, word = pairs[index]
    here = _chars(game, target)
    if here is None:
        return None
    for key, ref in relation_of(spec).items():
        test, _symmetric = RELATIONS[key]
        if ref == EACH_OTHER:
            others = [chosen[i] for i in range(min(index, len(chosen))) if pairs[i][1] == word]
        else:
            i = int(ref.removeprefix("target"))
            others = [chosen[i]] if i < len(chosen) else []
        found = [c for c in (_chars(game, t) for t in others if t is not None) if c is not None]
        if found and not test([here, *found]):
            return key
    return None


def flags(game: Game, pairs: list[tuple[Any, int]], chosen: list[Target], legal: list[bool]) -> list[bool]:
    """Rule 608.2b: on resolution a target that no longer meets its relation is illegal. For ``each_other`` the
    condition belongs to the whole set: when the objects of one word no longer meet it, all of them are illegal."""
    out = list(legal)
    for index, target in enumerate(chosen[: len(pairs)]):
        key = broken(game, pairs, index, target, list(chosen))
        if key is None:
            continue
        spec, word = pairs[index]
        if relation_of(spec).get(key) == EACH_OTHER:
            for i in range(len(out)):
                if pairs[i][1] == word:
                    out[i] = False
        else:
            out[index] = False
    return out


def _chars(game: Game, target: Target) -> Characteristics | None:
    obj = game.find(target.oid) if target.oid is not None else None
    return game.chars(obj) if obj is not None else None
