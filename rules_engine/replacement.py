"""Replacement and prevention effects: entering the battlefield, damage, destruction.

Damage goes through one function, ``deal_damage``: prevention shields, then redirection, then the way the
damage is dealt (wither turns damage to a creature into -1/-1 counters, damage to a planeswalker removes
loyalty), then the events that triggered abilities watch. ``destroy`` applies regeneration shields.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from rules_engine import log as narr
from rules_engine import protection
from rules_engine.errors import IllegalAction
from rules_engine.layers import matches
from rules_engine.objects import GameObject, Snapshot

if TYPE_CHECKING:
    from rules_engine.game import Game

Recipient = str | GameObject  # a player name or a permanent


def apply_entering(game: Game, new: GameObject, counters: Counter[str]) -> None:
    """Rule 614.1c/d: "enters tapped", "enters with counters" modify how a permanent enters."""
    for kind, n in counters.items():
        if n > 0:
            new.counters[kind] += n
    game.touch()
    if "hideaway" in game.chars(new).keywords:  # rule 502.75a of the time: "This permanent enters tapped"
        new.tapped = True
    for ability in game.chars(new).abilities:  # "As this enters, you may pay 2 life. If you don't, it enters tapped"
        if ability.kind == "static" and ability.spec["static"] == "enters_tapped_unless_pay":
            _pay_life_or_tapped(game, new, int((ability.spec.get("value") or {}).get("life", 2)))
    for source in list(game.battlefield):
        for ability in game.chars(source).abilities:
            if ability.kind != "static":
                continue
            kind = ability.spec["static"]
            if kind not in ("enters_tapped", "enters_with_counters"):
                continue
            filt = ability.spec.get("affects") or {"self": True}
            if not matches(game, new, game.chars(new), filt, game.controller(source), source):
                continue
            if kind == "enters_tapped":
                new.tapped = True
            else:
                for counter_kind, n in (ability.spec.get("value") or {}).items():
                    new.counters[counter_kind] += int(n)
    game.touch()


def _pay_life_or_tapped(game: Game, new: GameObject, life: int) -> None:
    """A scripted ``may`` answer of the controller; paying life needs at least that much life (rule 119.4).
    Paying does not untap a permanent another effect puts onto the battlefield tapped (GTC dual lands 3)."""
    who = game.controller(new)
    answer = game.decide("may", who, f"заплатить {life} жизни, чтобы {narr.obj(game, new)} вошел неповернутым?", new)
    if answer in (True, "yes"):
        if game.players[who].life < life:
            raise IllegalAction(f"нельзя заплатить {life} жизни при {game.players[who].life} жизни", "119.4")
        game.players[who].life -= life
        game.log(f"{narr.player(who)} платит {life} жизни (жизнь: {game.players[who].life})")
    else:
        new.tapped = True
        game.log(f"{narr.player(who)} не платит жизнь: {narr.obj(game, new)} входит повернутым")


def graveyard_destination(game: Game, obj: GameObject) -> str:
    """Rule 614.1a: "if a card would be put into a graveyard from anywhere, exile it instead"."""
    for source in game.battlefield:
        for ability in game.chars(source).abilities:
            if ability.kind == "static" and ability.spec["static"] == "exile_instead_of_graveyard":
                filt = {k: v for k, v in (ability.spec.get("affects") or {}).items() if k != "zone"}
                owner_rule = filt.pop("owner", None)
                controller = game.controller(source)
                if owner_rule == "opponent" and obj.owner == controller:
                    continue
                if owner_rule == "you" and obj.owner != controller:
                    continue
                if matches(game, obj, game.chars(obj), filt, controller, source):
                    game.log(f"{narr.obj(game, obj)} изгоняется вместо кладбища (эффект замены)")
                    return "exile"
    return "graveyard"


def recipient_label(game: Game, recipient: Recipient) -> str:
    return narr.player(recipient) if isinstance(recipient, str) else narr.obj(game, recipient)


def deal_damage(
    game: Game, source: GameObject | Snapshot, recipient: Recipient, amount: int, combat: bool = False
) -> int:
    """Deal damage with every replacement and prevention effect applied; returns the damage dealt."""
    from rules_engine import triggers
    from rules_engine.game import Event

    if amount <= 0:
        return 0
    partial = _partial_redirect(game, recipient)
    if partial is not None:  # "the next N damage ... is dealt to X instead": the rest still goes to the recipient
        new, n = partial
        n = min(n, amount)
        game.log(f"{n} повр. перенаправлены: {recipient_label(game, new)} вместо {recipient_label(game, recipient)}")
        dealt = deal_damage(game, source, new, n, combat)
        return dealt + deal_damage(game, source, recipient, amount - n, combat)
    recipient = _redirect(game, source, recipient, combat)
    if not isinstance(recipient, str):  # rule 702.16e: damage from a source with the stated quality is prevented
        quality = protection.protection_from(game, game.chars(recipient), source)
        if quality is not None:
            game.log(
                f"Предотвращено {amount} повр. от {narr.obj(game, source)}, которые были бы нанесены "
                f"{recipient_label(game, recipient)} ({protection.text(quality)})"
            )
            return 0
    amount = _prevent(game, recipient, amount)
    if amount <= 0:
        return 0
    chars, source_controller = game.source_chars(source)
    who = narr.obj(game, source)
    if isinstance(recipient, str):
        game.players[recipient].life -= amount
        game.log(
            f"{who} наносит {amount} повр. игроку {narr.player(recipient)} (жизнь: {game.players[recipient].life})"
        )
    else:
        rchars = game.chars(recipient)
        if rchars.is_("Planeswalker"):
            game.log(
                f"{who} наносит {amount} повр. мироходцу {narr.obj(game, recipient)}: он теряет столько же верности"
            )
            game.remove_counters(recipient, "loyalty", amount)
        if rchars.is_("Creature"):
            if "wither" in chars.keywords:
                game.log(
                    f"{who} (Увядание) наносит {amount} повр. {narr.to_creature(game, recipient)} в виде жетонов -1/-1"
                )
                game.put_counters(recipient, "-1/-1", amount)
            else:
                recipient.damage += amount
                game.log(f"{who} наносит {amount} повр. {narr.to_creature(game, recipient)}")
            if "deathtouch" in chars.keywords:
                recipient.deathtouch_damage = True
    if "lifelink" in chars.keywords and not game.options.lifelink_triggered:  # static since 2009 (702.15b)
        game.gain_life(source_controller, amount)
        game.log(f"Цепь жизни: {narr.player(source_controller)} получает {amount} жизни")
    lki = source if isinstance(source, Snapshot) else game.snapshot(source)
    triggers.collect(game, Event("damage", lki=lki, target=recipient, amount=amount, combat=combat))
    if combat and isinstance(recipient, str):
        triggers.collect(
            game, Event("combat_damage_to_player", lki=lki, target=recipient, amount=amount, combat=True)
        )
    return amount


def _matches_recipient(shield: dict[str, Any], recipient: Recipient) -> bool:
    wanted = shield["to"]
    if isinstance(recipient, str):
        return wanted == recipient
    return wanted == recipient.oid


def _prevent(game: Game, recipient: Recipient, amount: int) -> int:
    for shield in list(game.delayed):
        if shield["kind"] != "prevent" or not _matches_recipient(shield, recipient):
            continue
        prevented = amount if shield["n"] is None else min(amount, shield["n"])
        amount -= prevented
        if shield["n"] is not None:
            shield["n"] -= prevented
            if shield["n"] <= 0:
                game.delayed.remove(shield)
        game.log(
            f"Предотвращено {prevented} повр., которые были бы нанесены {recipient_label(game, recipient)}"
        )
        if amount <= 0:
            break
    return amount


def _partial_redirect(game: Game, recipient: Recipient) -> tuple[Recipient, int] | None:
    for shield in list(game.delayed):
        if shield["kind"] == "redirect" and shield.get("n") is not None and _matches_recipient(shield, recipient):
            game.delayed.remove(shield)
            new = shield["new"]
            target: Recipient | None = new if isinstance(new, str) else game.find(new)
            if target is not None and (isinstance(target, str) or target.zone == "battlefield"):
                return target, int(shield["n"])
    return None


def _redirect(game: Game, source: GameObject | Snapshot, recipient: Recipient, combat: bool) -> Recipient:
    for shield in list(game.delayed):
        if shield["kind"] == "redirect" and shield.get("n") is None and _matches_recipient(shield, recipient):
            game.delayed.remove(shield)
            new = shield["new"]
            target: Recipient | None = new if isinstance(new, str) else game.find(new)
            if target is not None and (isinstance(target, str) or target.zone == "battlefield"):
                game.log(
                    f"Повреждения перенаправлены: {recipient_label(game, target)} вместо "
                    f"{recipient_label(game, recipient)}"
                )
                return target
    if game.options.planeswalker_redirection and not combat and isinstance(recipient, str):
        _, controller = game.source_chars(source)
        walkers = [
            o
            for o in game.battlefield
            if game.controller(o) == recipient and game.chars(o).is_("Planeswalker")
        ]
        if controller != recipient and walkers:
            answer = game.decide(
                "redirect", controller, "перенаправить повреждения на мироходца? (no или мироходец)", source
            )
            if answer not in (None, False, "no"):
                if not isinstance(answer, str):  # the old rule moves all of that damage or none of it
                    raise IllegalAction(f"{answer!r}: повреждения перенаправляются целиком, не частями", "306.7")
                chosen = [w for w in walkers if w.card.ref == answer or w.card.definition.name == answer]
                if not chosen:
                    raise IllegalAction(
                        f"{answer!r}: не мироходец игрока {narr.player(recipient)} — перенаправить нельзя", "306.7"
                    )
                game.log(f"Правило 306.7 (старое): повреждения перенаправлены на {narr.obj(game, chosen[0])}")
                return chosen[0]
    return recipient


def destroy(game: Game, obj: GameObject, reason: str = "") -> GameObject | None:
    """Destroy a permanent unless a regeneration shield or indestructible replaces it (rule 701.7)."""
    chars = game.chars(obj)
    if "indestructible" in chars.keywords:
        game.log(f"{narr.obj(game, obj)} неразрушим{reason}")
        return None
    if obj.regeneration_shields > 0:
        obj.regeneration_shields -= 1
        obj.damage = 0
        obj.deathtouch_damage = False
        obj.tapped = True
        obj.attacking = None
        obj.blocking = []
        game.touch()
        game.log(f"{narr.obj(game, obj)} регенерирует: повреждения убраны, он повернут{reason}")
        return None
    game.log(f"{narr.obj(game, obj)} уничтожается{reason}")
    return game.move(obj, "graveyard")
