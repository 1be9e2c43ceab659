"""Playing cards from exile by permission: "Exile the top card of your library. Until end of turn, you may play that
card" and "You may play lands and cast spells from among cards exiled with [this permanent]".

The permission only says where the card may be played from: everything else is the normal rules for playing it
(rule 601.2 for a spell, 305.1-305.2 for a land): costs are paid, a creature is cast in its controller's main phase
with an empty stack, a land is played only in its controller's turn with a land play left (and uses it). An
effect's permission lasts as long as it says ("this turn", "until the end of your next turn") and only while the
card stays in exile (a card that leaves is a new object, 400.7); a static ability's lasts while its source is on
the battlefield and applies to the cards that very object exiled (607.2a: a new object made of the same card has
none). "You can't cast more than one spell this way each turn" counts the spells cast by that source's permission.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules_engine import log as narr
from rules_engine.errors import IllegalAction
from rules_engine.layers import matches

if TYPE_CHECKING:
    from rules_engine.objects import AbilityDef, GameObject
    from rules_engine.state import GameState as Game

UNTIL = ("end_of_turn", "end_of_your_next_turn")


@dataclass(frozen=True)
class Permission:
    """Who may play the exiled card (by its object id), until the end of which turn; ``source`` is the object whose
    static ability gives it (None for an effect's permission)."""

    player: str
    oid: int
    last_turn: int
    source: int | None = None


def grant(game: Game, player: str, card: GameObject, until: str) -> None:
    """An effect's permission for ``player`` to play ``card`` (in exile) until the end of this turn or of their
    next turn (rule 611.2b: "until the end of your next turn" ends as that turn's cleanup ends)."""
    last = game.turn
    if until == "end_of_your_next_turn":
        last = game.turn + _turns_until_own(game, player)
    game.play_permissions.append(Permission(player, card.oid, last))


def _turns_until_own(game: Game, player: str) -> int:
    """How many turns from now ``player``'s next turn begins (turn order, 101.4); a whole round from their own."""
    order = list(game.order)
    if player not in order or game.active not in order:
        return len(order)
    ahead = (order.index(player) - order.index(game.active)) % len(order)
    return ahead or len(order)


def find(game: Game, player: str, ref: str) -> tuple[GameObject, Permission] | None:
    """A card named ``ref`` in exile (or in the player's graveyard) that ``player`` may play now, with the
    permission that allows it."""
    for owner in game.players.values():
        for obj in owner.exile:
            if ref not in (obj.card.ref, obj.card.definition.name) or obj.face_down:
                continue
            permission = _permission(game, player, obj)
            if permission is not None:
                return obj, permission
    for obj in game.players[player].graveyard:
        if ref in (obj.card.ref, obj.card.definition.name):
            permission = _graveyard_permission(game, player, obj)
            if permission is not None:
                return obj, permission
    return None


def _graveyard_permission(game: Game, player: str, obj: GameObject) -> Permission | None:
    """ "You may play lands from your graveyard" (static ``play_from_graveyard``, ``affects`` the cards): while its
    source is on the battlefield under the player's control; only where from — the normal rules apply (601.3, 305.1)."""
    for source, ability in _statics_of(game, player, "play_from_graveyard"):
        if matches(game, obj, game.chars(obj), ability.spec.get("affects"), player, source):
            return Permission(player, obj.oid, game.turn, source.oid)
    return None


def _statics_of(game: Game, player: str, kind: str) -> Iterator[tuple[GameObject, AbilityDef]]:
    """The static abilities of that kind of the permanents ``player`` controls: a permission is its controller's."""
    for source in game.battlefield:
        if game.controller(source) == player:
            for ability in game.chars(source).abilities:
                if ability.kind == "static" and ability.spec.get("static") == kind:
                    yield source, ability


def refuse(game: Game, player: str, ref: str, land: bool = False) -> None:
    """A card in exile or a graveyard with no permission to play it: an illegal action (601.3, 305.1), not a typo."""
    for owner in game.players.values():
        for obj in [*owner.exile, *owner.graveyard]:
            if ref in (obj.card.ref, obj.card.definition.name):
                where = "изгнания" if obj.zone == "exile" else "кладбища"
                raise IllegalAction(
                    f"{narr.player(player)} не может разыграть {narr.obj(game, obj)} из {where}: нет разрешения",
                    "305.1" if land else "601.3",
                )


def _permission(game: Game, player: str, obj: GameObject) -> Permission | None:
    for p in game.play_permissions:
        if p.player == player and p.oid == obj.oid and game.turn <= p.last_turn:
            return p
    for source, ability in _statics_of(game, player, "play_exiled"):
        value = dict(ability.spec.get("value") or {})
        if obj.oid not in game.linked.get((source.oid, str(value.get("link", "exiled"))), []):
            continue
        if matches(game, obj, game.chars(obj), ability.spec.get("affects"), player, source):
            return Permission(player, obj.oid, game.turn, source.oid)
    return None


def check_spell_limit(game: Game, player: str, obj: GameObject, permission: Permission) -> None:
    """"You can't cast more than one spell this way each turn": the source's limit, checked before casting."""
    if permission.source is None:
        return
    source = game.find(permission.source)
    if source is None:
        return
    for ability in game.chars(source).abilities:
        if ability.kind != "static" or ability.spec.get("static") != "play_exiled":
            continue
        limit = (ability.spec.get("value") or {}).get("spells_per_turn")
        if limit is None or not matches(game, obj, game.chars(obj), ability.spec.get("affects"), player, source):
            continue
        if game.history.cast_by_permission[source.oid] >= int(limit):
            raise IllegalAction(
                f"в этом ходу уже разыграно заклинание, изгнанное {narr.obj(game, source)}: больше нельзя", "101.2"
            )


def note_cast(game: Game, permission: Permission) -> None:
    if permission.source is not None:
        game.history.cast_by_permission[permission.source] += 1


def describe(game: Game, permission: Permission) -> str:
    if permission.source is not None:
        source = game.find(permission.source)
        return f" (разрешение {narr.obj(game, source)})" if source is not None else ""
    return ""


def exile_top(game: Game, whose: str, n: int, controller: str, play: Any) -> list[GameObject]:
    """Exile the top ``n`` cards of ``whose`` library face up; ``play: {until}`` lets ``controller`` play them."""
    library = game.players[whose].library
    exiled: list[GameObject] = []
    for _ in range(min(n, len(library))):
        exiled.append(game.move(library[-1], "exile"))
    if play is not None:
        for card in exiled:
            grant(game, controller, card, str(play.get("until", "end_of_turn")))
    if not exiled:
        game.log(f"{narr.player(whose)}: в библиотеке нет карт — изгонять нечего")
    return exiled

