"""Copy effects (rule 707): becoming a copy, entering as a copy, the exceptions of a copy effect.

An object's *copiable values* are its printed characteristics as modified by copy effects (layer 1a) and by its
face-down status (layer 1b) — never by other continuous effects, counters or status (707.2). They are a
``CardDef``: a copy of a spell or a token copy is *defined* by them (613.1), and a permanent that becomes a copy
of something gets them through a layer-1 continuous effect that holds them (``ContinuousEffect`` of layer "1",
kind ``copy``; the latest one wins whole). The values are locked when the copy effect begins (707.2b, 707.2c),
exceptions included (707.9: they become part of the copiable values, so a copy of the copy has them too, 707.9a,
707.9b). The values themselves are computed with the layers (``layers.copiable_values``, layer 1): this module
sits above them and above targeting, as the effects that make copies do.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rules_engine import log as narr
from rules_engine import targets as tg
from rules_engine.cards import parse_ability
from rules_engine.errors import IllegalAction
from rules_engine.layers import (
    CDA_PT,
    copiable_values,
    matches,
    printed_values,  # noqa: F401  (copies speak of printed values, 707.3)
)
from rules_engine.objects import AbilityDef, CardDef, ContinuousEffect, GameObject

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game


def with_exceptions(values: CardDef, exc: dict[str, Any] | None, *, this_ability: AbilityDef | None = None,
                    own: CardDef | None = None) -> CardDef:
    """Rule 707.9: a copy effect's modifications become part of the copy's copiable values.

    ``own`` is the copying object's values before the copy (for "it doesn't copy that creature's colour", 707.9c);
    ``this_ability`` is the ability doing the copying ("except it has this ability", 707.9a).
    """
    if not exc:
        return values
    changes: dict[str, Any] = {}
    abilities = list(values.abilities)
    keywords = dict(values.keywords)
    if "power" in exc or "toughness" in exc:  # 707.9d: a CDA defining P/T is not copied
        changes["power"] = int(exc.get("power", values.power or 0))
        changes["toughness"] = int(exc.get("toughness", values.toughness or 0))
        abilities = [a for a in abilities if not (a.kind == "static" and a.spec.get("static") == CDA_PT)]
    if "colors" in exc:  # a specific colour: the colour indicator is not copied either (707.9d)
        changes["colors"] = frozenset(str(c).upper() for c in exc["colors"])
    if "colors" in exc.get("not_copied", []) and own is not None:  # 707.9c: it keeps its own colour
        changes["colors"] = own.printed_colors
    if "add_types" in exc:  # "in addition to its other types": CDAs defining types are still copied (707.9d)
        changes["types"] = values.types | frozenset(exc["add_types"])
    if "add_subtypes" in exc:
        changes["subtypes"] = values.subtypes | frozenset(exc["add_subtypes"])
    if "add_supertypes" in exc or "remove_supertypes" in exc:
        changes["supertypes"] = (values.supertypes | frozenset(exc.get("add_supertypes", []))) - frozenset(
            exc.get("remove_supertypes", [])
        )
    if "name" in exc:
        changes["name"] = str(exc["name"])
        changes["name_ru"] = str(exc.get("name_ru", exc["name"]))
    for keyword in exc.get("keywords", []):
        if isinstance(keyword, dict):
            keywords.update(keyword)
        else:
            keywords[keyword] = keywords.get(keyword, 0) + 1
    if exc.get("this_ability") and this_ability is not None and this_ability not in abilities:
        abilities.append(this_ability)
    for i, raw in enumerate(exc.get("abilities", [])):  # "except it has '...'" (707.9a), validated on load
        abilities.append(parse_ability(raw, f"{values.name}#copy{i + 1}", values.source))
    changes["keywords"] = keywords
    changes["abilities"] = tuple(abilities)
    return replace(values, **changes)


def become_copy(
    game: Game,
    obj: GameObject,
    values: CardDef,
    *,
    duration: str = "permanent",
    source_oid: int | None = None,
    controller: str = "",
) -> None:
    """A layer-1a effect: ``obj``'s copiable values become ``values`` (707.1). It stays the same object: nothing
    enters or leaves (707.4), and effects already applied to it keep applying (layers 2–7)."""

    label = narr.obj(game, obj)
    game.effects.append(
        ContinuousEffect(
            layer="1",
            kind="copy",
            data={"values": values},
            timestamp=game.new_timestamp(),
            affected=frozenset({obj.oid}),
            duration=duration,
            source_oid=source_oid,
            controller=controller,
        )
    )
    game.touch()
    what = f"«{values.name_ru}»" if values.name_ru else "безымянного существа 2/2"
    game.log(f"{label} становится копией {what} (слой 1, правило 707)")


def as_enters(game: Game, new: GameObject) -> None:
    """Rule 707.5 / 614.1c: "you may have this enter as a copy of ..." applies as the permanent enters, before its
    other "enters with" and "enters tapped" abilities — those of the copied values then apply. The controller
    chooses (``kind: copy``, ``value: REF | none``, 707.6: a new choice, never the copied one). A copy that gets an
    "enter as a copy" ability of its own (a Clone copying a Clone that copied nothing) applies that one too, as
    707.9e's Example does."""

    for _ in range(10):  # each round needs a scripted choice; a chain of Clones is short
        values = copiable_values(game, new)
        ability = next(
            (a for a in values.abilities if a.kind == "static" and a.spec.get("static") == "enters_as_copy"), None
        )
        if ability is None:
            return
        who = new.controller
        spec = dict(ability.spec.get("value") or {})
        answer = game.decide("copy", who, f"копией чего войдет {narr.obj(game, new)}? (REF или none)", new)
        if answer in (None, "none", "no", False):
            game.log(f"{narr.obj(game, new)} входит, ничего не копируя")
            return
        chosen = [o for o in tg.find_objects(game, str(answer), "battlefield") if o.oid != new.oid]
        if not chosen:
            raise IllegalAction(f"на поле битвы нет {answer!r}, которое можно скопировать", "707.5")
        original = chosen[0]
        filt = spec.get("filter")
        if filt and not matches(game, original, game.chars(original), filt, who, new):
            raise IllegalAction(f"{narr.obj(game, original)} не подходит для копирования", "707.5")
        copied = with_exceptions(copiable_values(game, original), spec.get("except"), own=values)
        become_copy(game, new, copied, source_oid=new.oid, controller=who)
