"""Targets: what a target specification allows, how a scenario names a target, legality on resolution."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_engine import log as narr
from rules_engine import protection
from rules_engine import target_relations as rel
from rules_engine.errors import IllegalAction, ScriptError
from rules_engine.layers import matches
from rules_engine.objects import GameObject, Snapshot
from rules_engine.stackobjects import StackAbility, StackItem, Target
from rules_engine.teams import is_opponent

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game

OBJECT_TYPES = {
    "creature": ("battlefield", ("Creature",)),
    "permanent": ("battlefield", ()),
    "planeswalker": ("battlefield", ("Planeswalker",)),
    "creature_or_planeswalker": ("battlefield", ("Creature", "Planeswalker")),
    "player_or_planeswalker": ("battlefield", ("Planeswalker",)),  # "target player or planeswalker" (115.1)
    "artifact": ("battlefield", ("Artifact",)),
    "enchantment": ("battlefield", ("Enchantment",)),
    "land": ("battlefield", ("Land",)),
    "card_in_graveyard": ("graveyard", ()),
    "creature_card_in_graveyard": ("graveyard", ("Creature",)),
}


def slots(specs: list[Any]) -> list[Any]:
    """The target slots of a list of specs, in order: ``{kind: creature, count: 2}`` ("two target creatures") is two
    slots of one word "target"; ``target0``, ``target1``... name the slots."""
    return [spec for spec, _word in _slots_and_words(specs)]


def _slots_and_words(specs: list[Any]) -> list[tuple[Any, int]]:
    out: list[tuple[Any, int]] = []
    for word, spec in enumerate(specs):
        count = int(spec.get("count", 1)) if isinstance(spec, dict) else 1
        one = {k: v for k, v in spec.items() if k != "count"} if isinstance(spec, dict) and count > 1 else spec
        out += [(one, word)] * count
    return out


def spec_kind(spec: Any) -> str:
    return spec if isinstance(spec, str) else str(spec["kind"])


def spec_filter(spec: Any) -> dict[str, Any] | None:
    return spec.get("filter") if isinstance(spec, dict) else None


Source = GameObject | Snapshot | None  # the spell, or the source of an ability (last known if it left)


def is_legal(game: Game, target: Target, spec: Any, controller: str, source: Source) -> bool:
    kind = spec_kind(spec)
    if target.player is not None:
        if kind in ("player", "any", "creature_or_player", "player_or_planeswalker"):
            return not game.players[target.player].lost
        return kind == "opponent" and is_opponent(game, controller, target.player) and not game.players[
            target.player
        ].lost
    if kind == "ability":
        return any(getattr(item, "sid", None) == target.oid for item in game.stack)
    obj = game.find(target.oid) if target.oid is not None else None
    if obj is None:
        return False
    chars = game.chars(obj)
    if obj.zone == "battlefield" and ("shroud" in chars.keywords or _hexproof_applies(game, obj, chars, controller)):
        return False
    # rule 702.16b: not by spells with the stated quality, nor by abilities from a source with it
    if obj.zone == "battlefield" and protection.protection_from(game, chars, source) is not None:
        return False
    if obj.zone == "battlefield" and _spell_restricted(game, chars, source):
        return False
    if kind == "spell":
        return obj.zone == "stack" and matches(game, obj, chars, spec_filter(spec), controller, source)
    types: tuple[str, ...]
    if kind == "any":
        zone, types = "battlefield", ("Creature", "Planeswalker")
    elif kind == "creature_or_player":  # the wording before "any target" (planeswalkers excluded)
        zone, types = "battlefield", ("Creature",)
    elif kind in OBJECT_TYPES:
        zone, types = OBJECT_TYPES[kind]
    else:
        return False
    if obj.zone != zone or (types and not any(t in chars.types for t in types)):
        return False
    return matches(game, obj, chars, spec_filter(spec), controller, source)


def _hexproof_applies(game: Game, obj: GameObject, chars: Any, controller: str) -> bool:
    """Rule 702.11b: hexproof stops an opponent's spells and abilities — unless a static
    ``target_as_though_no_hexproof`` of that opponent covers this permanent (Glaring Spotlight: it keeps hexproof,
    its controller just ignores it)."""
    if "hexproof" not in chars.keywords or chars.controller == controller:
        return False
    for holder in game.ability_sources():
        for ability in game.chars(holder).abilities:
            if ability.kind != "static" or ability.spec["static"] != "target_as_though_no_hexproof":
                continue
            you = game.controller(holder)
            if you == controller and matches(game, obj, chars, ability.spec.get("affects"), you, holder):
                return False
    return True


def _spell_restricted(game: Game, chars: Any, source: Source) -> bool:
    """A turn-long "permanents you control can't be the targets of blue or black spells your opponents control"
    (effect ``cant_be_targeted``: a rule-changing effect, not an ability of the permanents, so it covers whatever that
    player controls at any time this turn). Only a spell is restricted (an ability's source is not on the stack), by
    its filter ``by`` seen from the effect's controller; checked on casting (601.2c) and again as the spell resolves
    (608.2b), with the spell's characteristics then."""
    live = game.find(source.oid) if source is not None else None
    # a spell: on the stack, or the card still in the zone it is being cast from as its targets are chosen (601.2c);
    # DEBT: an ability activated from a hand (channel) is taken for a spell here
    if live is None or live.zone == "battlefield":
        return False
    return any(
        d["kind"] == "cant_be_targeted"
        and chars.controller == d["player"]
        and matches(game, live, game.chars(live), d.get("by"), d["player"], None)
        for d in game.delayed
    )


def _why_illegal(game: Game, target: Target, source: Source, controller: str) -> str:
    """The rule that makes a chosen target illegal: shroud, hexproof, protection, a "can't be the target" effect, or
    not what the spell asks for."""
    obj = game.find(target.oid) if target.oid is not None else None
    if obj is not None and obj.zone == "battlefield":
        chars = game.chars(obj)
        if "shroud" in chars.keywords:
            return "702.18a"
        if _hexproof_applies(game, obj, chars, controller):
            return "702.11b"
        if protection.protection_from(game, chars, source) is not None:
            return "702.16b"
        if _spell_restricted(game, chars, source):
            return "601.2c"
    return "601.2c"


def candidates(game: Game, spec: Any, controller: str, source: Source) -> list[Target]:
    out = [Target(player=p) for p in game.order if is_legal(game, Target(player=p), spec, controller, source)]
    if spec_kind(spec) == "ability":
        return out + [Target(oid=i.sid) for i in game.stack if hasattr(i, "sid")]
    pool = list(game.all_objects())
    out += [Target(oid=o.oid) for o in pool if is_legal(game, Target(oid=o.oid), spec, controller, source)]
    return out


def resolve_name(game: Game, name: Any, spec: Any = None) -> Target:
    """A scenario's name for a target: a player id, a card ref or a card name (unique where it matters)."""
    text = str(name)
    if text in game.players:
        return Target(player=text)
    kind = spec_kind(spec) if spec is not None else None
    if kind == "ability":  # "REF/ability-name", e.g. "Burn Trail/conspire"
        ref, _, name = text.partition("/")
        hits = [
            i
            for i in game.stack
            if isinstance(i, StackAbility) and i.card.ref == ref and (not name or i.ability.name == name)
        ]
        if len(hits) != 1:
            raise ScriptError(f"в стеке нет единственной способности {text!r}")
        return Target(oid=hits[0].sid)
    zone = None
    if kind == "spell":
        zone = "stack"
    elif kind in OBJECT_TYPES:
        zone = OBJECT_TYPES[kind][0]
    elif kind in ("any", "creature_or_player"):
        zone = "battlefield"
    found = find_objects(game, text, zone) or find_objects(game, text)  # elsewhere: an illegal target
    if not found:
        raise ScriptError(f"нет объекта {text!r}")
    if len(found) > 1:
        raise ScriptError(f"имя {text!r} неоднозначно: дайте картам ref в setup")
    return Target(oid=found[0].oid)


def find_objects(game: Game, text: str, zone: str | None = None) -> list[GameObject]:
    objs = [o for o in game.all_objects() if zone is None or o.zone == zone]
    by_ref = [o for o in objs if o.card.ref == text]
    if by_ref:
        return by_ref
    return [o for o in objs if o.card.definition.name == text]


def choose(
    game: Game,
    specs: list[Any],
    scripted: Any,
    controller: str,
    source: Source,
    item: StackItem | None,
) -> list[Target]:
    """Targets for a spell or ability: the scripted ones (checked), or the only legal choice.

    Rules 115.3 and 601.2c: the same object or player may be chosen once for each word "target" — never twice for
    one word ("two target creatures", a spec with ``count``), nor for "another target" one chosen earlier."""
    pairs = _slots_and_words(specs)
    if scripted is None:
        chosen: list[Target] = []
        pools = [candidates(game, spec, controller, source) for spec, _word in pairs]
        for index in range(len(pairs)):
            # 601.2c: the targets are chosen as a set — only a choice the remaining slots can complete is legal
            legal = [t for t in pools[index] if _completes(game, pairs, pools, [*chosen, t])]
            if not legal:
                raise IllegalAction("нет допустимых целей", "601.2c")
            chosen.append(legal[0])
            if len(legal) > 1:
                kinds = ", ".join(spec_kind(s) for s, _w in pairs)
                scripted = game.decide("target", controller, f"выбрать цели ({kinds})", source)
                break
        else:
            return chosen
    values = _listify(scripted)
    if len(values) != len(pairs):
        raise IllegalAction(f"нужно целей: {len(pairs)}, указано: {len(values)}", "601.2c")
    out: list[Target] = []
    for index, (value, (spec, _word)) in enumerate(zip(values, pairs, strict=True)):
        target = resolve_name(game, value, spec)
        if _taken(target, index, pairs, out):
            if isinstance(spec, dict) and spec.get("another"):
                why = "нужна другая цель"
            else:
                why = "одно слово «целевой» не выбирает один объект дважды"
            raise IllegalAction(f"цель {value!r} уже выбрана: {why}", "601.2c")
        if not is_legal(game, target, spec, controller, source):
            kind = narr.TARGET_KINDS.get(spec_kind(spec), spec_kind(spec))
            why = _why_illegal(game, target, source, controller)
            raise IllegalAction(f"{value!r} — недопустимая цель (нужно: {kind})", why)
        key = rel.broken(game, pairs, index, target, list(out))
        if key is not None:  # 601.2c: every targeting condition met together
            raise IllegalAction(f"{value!r} — недопустимая цель: {rel.TEXT_RU[key]}", "601.2c")
        out.append(target)
    return out


def _completes(game: Game, pairs: list[tuple[Any, int]], pools: list[list[Target]], chosen: list[Target]) -> bool:
    """Whether the last of ``chosen`` may fill its slot (115.3, relations) and the slots after it can still be
    filled from ``pools`` so that the whole set meets every condition (601.2c)."""
    index = len(chosen) - 1
    last = chosen[index]
    if _taken(last, index, pairs, chosen[:index]) or rel.broken(game, pairs, index, last, list(chosen[:index])):
        return False
    if len(chosen) == len(pairs):
        return True
    return any(_completes(game, pairs, pools, [*chosen, t]) for t in pools[len(chosen)])


def legal_flags(game: Game, specs: list[Any], chosen: list[Target], controller: str, source: Source) -> list[bool]:
    """Rule 608.2b: which chosen targets are still legal as the spell or ability resolves (relations included)."""
    pairs = _slots_and_words(specs)
    legal = [is_legal(game, t, s, controller, source) for t, (s, _w) in zip(chosen, pairs, strict=False)]
    return rel.flags(game, pairs, chosen, legal)


def _taken(target: Target, index: int, pairs: list[tuple[Any, int]], chosen: list[Target]) -> bool:
    """Whether ``target`` may not fill slot ``index``: already chosen for the same word (115.3), or, for "another
    target", for any earlier slot."""
    spec, word = pairs[index]
    another = isinstance(spec, dict) and bool(spec.get("another"))
    return any(t == target and (another or pairs[i][1] == word) for i, t in enumerate(chosen))


def _listify(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else [value]
