"""State-based actions (rule 704): all that apply are performed at once, and the check repeats until none do.

Performing them at once matters for persist: a creature with a +1/+1 counter that gets enough -1/-1
counters is put into the graveyard in the same event that would annihilate the counters, so it leaves
with all of them on it (its last known information still has the -1/-1 counters).
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from rules_engine import log as narr
from rules_engine import protection, replacement, teams
from rules_engine.errors import EngineLoop, IllegalAction
from rules_engine.objects import GameObject

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game

SBA = "Действие, вызванное состоянием"


def check_once(game: Game) -> bool:
    """Perform every state-based action that applies now; return whether any did."""
    to_graveyard: list[tuple[GameObject, str]] = []
    to_destroy: list[GameObject] = []
    annihilate: list[GameObject] = []
    unattach: list[GameObject] = []
    losers: list[tuple[str, str]] = []
    for p in game.players.values():
        if p.lost:
            continue
        limit = teams.poison_to_lose(game, p.name)
        if p.life <= 0:  # rule 704.5a; a Two-Headed Giant team's shared life total, 704.6a
            losers.append((p.name, f"жизнь {'команды ' if p.team else ''}{p.life}"))
        elif p.drew_from_empty_library:
            losers.append((p.name, "взял карту из пустой библиотеки"))
        elif p.poison >= limit:  # rule 704.5c; a team's fifteen, 704.6b
            losers.append((p.name, f"{limit} жетонов яда{' у команды' if limit != teams.POISON_TO_LOSE else ''}"))
    lost_now = {name for name, _ in losers}  # rule 810.8a: a team loses together
    losers += [(m, "проигрывает его команда") for m in teams.losers_with_team(game, list(lost_now))
               if m not in lost_now and not game.players[m].lost]
    for obj in game.battlefield:
        chars = game.chars(obj)
        if chars.is_("Creature") and chars.toughness is not None:
            if chars.toughness <= 0:
                to_graveyard.append((obj, f"выносливость {chars.toughness}"))
                continue
            # rule 704.5h: dealt damage by a deathtouch source since the last check, even damage dealt as -1/-1
            # counters (wither), which leaves no damage marked
            deathtouched, obj.deathtouch_damage = obj.deathtouch_damage, False
            lethal = obj.damage >= chars.toughness > 0 or deathtouched
            # rule 702.12b: lethal damage (704.5g) or deathtouch damage (704.5h) can't destroy an indestructible
            # permanent, so it is not a state-based action to perform (else the check would never settle)
            if lethal and "indestructible" not in chars.keywords:
                to_destroy.append(obj)
                continue
        if chars.is_("Planeswalker") and obj.counters.get("loyalty", 0) <= 0:
            to_graveyard.append((obj, "верность 0"))
            continue
        if "Aura" in chars.subtypes and not _aura_legal(game, obj):
            to_graveyard.append((obj, "Аура ничего не зачаровывает"))
            continue
        if "Aura" in chars.subtypes and (quality := _host_protection(game, obj)) is not None:
            # rules 702.16c and 704.5m: an Aura with the stated quality can't enchant a permanent with protection
            to_graveyard.append((obj, f"Аура прикреплена к перманенту с умением «{narr.protection_text(quality)}»"))
            continue
        if "Equipment" in chars.subtypes and obj.attached_to is not None and not _equipment_legal(game, obj):
            unattach.append(obj)
        elif obj.attached_to is not None and not any(sub in chars.subtypes for sub in ("Aura", "Equipment",
                                                                                        "Fortification")):
            unattach.append(obj)  # rule 704.5p: a permanent that is no Aura, Equipment or Fortification (any more)
        if obj.counters.get("+1/+1", 0) > 0 and obj.counters.get("-1/-1", 0) > 0:
            annihilate.append(obj)
    to_graveyard += _legend_rule(game)
    to_graveyard += _planeswalker_uniqueness(game)
    ceased = [  # tokens outside the battlefield, copies of cards outside the stack (rule 704.5e; GTC cipher 8)
        o
        for o in game.all_objects()
        if o.zone != "battlefield" and o.zone != "stack" and (o.card.is_token or o.is_copy)
    ]
    if not (to_graveyard or to_destroy or annihilate or losers or ceased or unattach):
        return False
    with game.simultaneously():
        for name, why in losers:
            game.players[name].lost = True
            game.log(f"{SBA}: {narr.player(name)} проигрывает ({why})")
        done: set[int] = set()
        for obj, why in to_graveyard:
            if obj.oid in done or obj.zone != "battlefield":
                continue
            done.add(obj.oid)
            game.log(f"{SBA}: {narr.obj(game, obj)} кладется на кладбище владельца ({why})")
            game.move(obj, "graveyard")
        for obj in to_destroy:
            if obj.oid in done or obj.zone != "battlefield":
                continue
            done.add(obj.oid)
            replacement.destroy(game, obj, f" ({SBA.lower()}: смертельные повреждения)")
        for obj in unattach:  # rule 704.5n: the Equipment stays on the battlefield, attached to nothing
            if obj.zone != "battlefield" or obj.attached_to is None:
                continue
            obj.attached_to = None
            game.touch()
            what = "Снаряжение прикреплено к недопустимому перманенту" if "Equipment" in game.chars(obj).subtypes else (
                "прикреплен, но не является ни Аурой, ни Снаряжением")
            game.log(f"{SBA}: {narr.obj(game, obj)} открепляется ({what})")
        for obj in annihilate:
            if obj.zone != "battlefield":
                continue
            n = min(obj.counters["+1/+1"], obj.counters["-1/-1"])
            game.remove_counters(obj, "+1/+1", n)
            game.remove_counters(obj, "-1/-1", n)
            game.log(f"{SBA}: с {narr.obj(game, obj)} удаляются {n} пар(ы) жетонов +1/+1 и -1/-1")
        for obj in ceased:
            what = "фишка" if obj.card.is_token else "копия карты"
            game.log(f"{SBA}: {what} {narr.obj(game, obj)} прекращает существование")
            game.remove_from_game(obj)
    alive = [p for p in game.order if not game.players[p].lost]
    if alive and len({teams.team_of(game, p) for p in alive}) == 1 and game.winner is None:
        game.winner = alive[0]  # the last player, or team (102.2c / 104.2a), still in the game wins
        _reveal_face_down(game)
    elif losers and teams.multiplayer(game):  # rule 800.4: the others play on without those who lost
        for name, _ in losers:
            teams.leave_game(game, name)
    return True


def _reveal_face_down(game: Game) -> None:
    """When the game ends, face-down spells and permanents are revealed (rule 708.10 / DTK megamorph 14)."""
    hidden = [o for o in game.battlefield if o.face_down]
    hidden += [o for o in game.stack if isinstance(o, GameObject) and o.face_down]
    if hidden:
        names = ", ".join(narr.card_label(game, o.card) for o in hidden)
        game.log(f"Партия окончена: показываются карты рубашкой вверх: {names}")


def check(game: Game) -> None:
    """Rule 704.3: repeat until no state-based action applies."""
    for _ in range(100):
        if not check_once(game):
            return
    raise EngineLoop("state-based actions did not settle (rule 704.3)")


def _aura_legal(game: Game, aura: GameObject) -> bool:
    if aura.attached_to is None:
        return False
    host = game.find(aura.attached_to)
    if host is None or host.zone != "battlefield":
        return False
    from rules_engine.attach import could_enchant

    return could_enchant(game, aura, host)


def _host_protection(game: Game, aura: GameObject) -> object | None:
    host = game.find(aura.attached_to) if aura.attached_to is not None else None
    if host is None or host.zone != "battlefield":
        return None
    return protection.protection_from(game, game.chars(host), aura)


def _equipment_legal(game: Game, equipment: GameObject) -> bool:
    """Rules 301.5c and 702.16d: Equipment equips only a creature, not itself, not while it is a creature itself,
    and not one with protection from it."""
    from rules_engine.attach import can_attach

    host = game.find(equipment.attached_to) if equipment.attached_to is not None else None
    return host is not None and can_attach(game, equipment, host) is None


def _legend_rule(game: Game) -> list[tuple[GameObject, str]]:
    """Rule 704.5j: a player with two legendary permanents of one name keeps one (a scripted choice)."""
    groups: dict[tuple[str, str], list[GameObject]] = defaultdict(list)
    for obj in game.battlefield:
        chars = game.chars(obj)
        if "Legendary" in chars.supertypes and chars.name:
            owner_key = "*" if game.options.legend_rule_all_players else game.controller(obj)
            groups[(owner_key, chars.name)].append(obj)
    out = []
    for (owner_key, _name), objs in groups.items():
        if len(objs) < 2:
            continue
        if game.options.legend_rule_all_players:
            out += [(o, "правило легенд (старое): все одноименные легенды") for o in objs]
            continue
        refs = [o.card.ref for o in objs]
        keep = game.decide("legend", owner_key, f"какую легенду оставить: {refs}")
        kept = [o for o in objs if o.card.ref == keep]
        if len(kept) != 1:  # a shared name or an unknown ref names no single legend to keep
            raise IllegalAction(f"правило легенд: оставить можно одну из {refs}, а не {keep!r}", "704.5j")
        out += [(o, "правило легенд") for o in objs if o is not kept[0]]
    return out


def _planeswalker_uniqueness(game: Game) -> list[tuple[GameObject, str]]:
    """The old rule 704.5j (until 2017): planeswalkers sharing a subtype all go to the graveyard."""
    if not game.options.planeswalker_uniqueness:
        return []
    by_type: dict[str, list[GameObject]] = defaultdict(list)
    for obj in game.battlefield:
        chars = game.chars(obj)
        if chars.is_("Planeswalker"):
            for sub in chars.subtypes:
                by_type[sub].append(obj)
    out = []
    for objs in by_type.values():
        if len(objs) > 1:
            out += [(o, "правило уникальности мироходцев") for o in objs]
    return out
