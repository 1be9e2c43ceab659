"""The game state and its basic operations: objects, zones, zone changes, counters, decisions, events.

Everything that changes the state goes through ``Game`` so that last known information, events (for
triggered abilities) and the characteristics cache stay right. Rules procedures live in their own modules:
``layers`` (characteristics), ``sba``, ``triggers``, ``replacement``, ``stack``, ``combat``, ``turn``.
The data this module's operations make — ``Event``, ``StackAbility``, ``DelayedTrigger`` — live on the
ground floor (``events``, ``stackobjects``); since ``Game``'s operations consult ``layers``, ``copies``,
``replacement`` and ``triggers``, those see the game as ``state.GameState`` (``docs/engine.md``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from rules_engine import layers, teams
from rules_engine import log as narr
from rules_engine.errors import DecisionMissing, EngineError, IllegalAction, ScriptError
from rules_engine.events import DelayedTrigger, Event, TurnHistory
from rules_engine.objects import Card, Characteristics, ContinuousEffect, GameObject, Player, Snapshot
from rules_engine.options import RulesOptions
from rules_engine.stackobjects import StackAbility, StackItem  # noqa: F401  (StackAbility re-exported)
from rules_engine.state import GameState


@dataclass
class Choice:
    """A scripted answer to one decision: ``kind`` (target, order, may, legend, assign, mode, x, pay...)."""

    kind: str
    value: Any
    player: str | None = None
    source: str | None = None
    where: str = ""


class Game:
    """A game in progress: two players, or more (``teams`` for Two-Headed Giant; rule 800)."""

    def __init__(self, players: list[str], options: RulesOptions | None = None) -> None:
        self.options = options or RulesOptions()
        self.players: dict[str, Player] = {name: Player(name) for name in players}
        self.order = list(players)
        self.battlefield: list[GameObject] = []
        self.stack: list[StackItem] = []
        self.effects: list[ContinuousEffect] = []
        self.lki: dict[int, Snapshot] = {}
        self.active = players[0]
        self.turn = 1
        self.step = "main1"
        self.priority: str | None = players[0]
        self.passed: set[str] = set()
        self.pending_triggers: list[Any] = []
        self.choices: list[Choice] = []
        self.delayed: list[dict[str, Any]] = []  # prevention / redirection shields
        self.delayed_triggers: list[DelayedTrigger] = []  # rule 603.7
        self.history = TurnHistory()  # what happened this turn (reset as each turn begins)
        self.seed: int | None = None  # the scenario's seed for random outcomes (shuffles) it does not script
        self.log_lines: list[str] = []
        self.winner: str | None = None
        self.loyalty_used: set[int] = set()
        # linked abilities (rule 607): (object id, link name) -> ids of the cards its ability exiled
        self.linked: dict[tuple[int, str], list[int]] = {}
        self.play_permissions: list[Any] = []  # playfrom.Permission: "you may play that card" from exile
        self.first_strike_step = False
        self.first_strikers: set[int] = set()  # combatants with first or double strike as that step began (510.4)
        self._next_id = 1
        self._time = 1
        self._chars: dict[int, Characteristics] | None = None
        self._batch: dict[int, Snapshot] | None = None
        self.batch_serial = 0  # numbers each outermost simultaneous batch, so its events can be told as one

    # -- identities and time -------------------------------------------------------------------------
    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def new_timestamp(self) -> int:
        self._time += 1
        return self._time

    def touch(self) -> None:
        """Invalidate cached characteristics after any change that can affect them."""
        self._chars = None

    # -- lookup --------------------------------------------------------------------------------------
    def opponent(self, name: str) -> str:
        """The one opponent of a two-player game; with several, the rules ask for a choice (see ``teams``)."""
        found = teams.opponents(self, name)
        if len(found) != 1:
            raise ScriptError(f"у игрока {narr.player(name)} несколько оппонентов: нужно выбрать одного")
        return found[0]

    def opponents(self, name: str) -> list[str]:
        return teams.opponents(self, name)

    def apnap(self) -> list[str]:
        return teams.apnap(self)

    def ability_sources(self) -> list[GameObject]:
        """Objects whose abilities function where they are: permanents, and emblems in the command zone (114.4)."""
        emblems = [o for p in self.players.values() for o in p.command]
        return self.battlefield + emblems if emblems else self.battlefield

    def all_objects(self) -> Iterator[GameObject]:
        yield from self.battlefield
        yield from (item for item in self.stack if isinstance(item, GameObject))
        for p in self.players.values():
            yield from p.hand
            yield from p.library
            yield from p.graveyard
            yield from p.exile
            yield from p.command

    def find(self, oid: int) -> GameObject | None:
        return next((o for o in self.all_objects() if o.oid == oid), None)

    def zone_list(self, obj: GameObject) -> list[Any]:
        if obj.zone == "battlefield":
            return self.battlefield
        if obj.zone == "stack":
            return self.stack
        return self.players[obj.owner].zone(obj.zone)

    def objects_of_card(self, ref: str) -> list[GameObject]:
        return [o for o in self.all_objects() if o.card.ref == ref]

    # -- characteristics -----------------------------------------------------------------------------
    def chars(self, obj: GameObject) -> Characteristics:
        if self._chars is None:
            self._chars = layers.compute(self)
        found = self._chars.get(obj.oid)
        if found is None:  # an object not in any zone (e.g. being created); base characteristics
            return layers.base_characteristics(obj, self)
        return found

    def chars_of(self, obj: GameObject | Snapshot) -> Characteristics:
        """Current characteristics of a live object, or the remembered ones of a snapshot."""
        if isinstance(obj, Snapshot):
            live = self.find(obj.oid)
            return self.chars(live) if live is not None else obj.chars
        return self.chars(obj)

    def controller(self, obj: GameObject) -> str:
        return self.chars(obj).controller

    def snapshot(self, obj: GameObject) -> Snapshot:
        from rules_engine import copies

        if self._batch is not None and obj.oid in self._batch:
            return self._batch[obj.oid]
        return Snapshot(
            oid=obj.oid,
            card=obj.card,
            zone=obj.zone,
            controller=self.controller(obj),
            chars=self.chars(obj).copy(),
            counters=Counter(obj.counters),
            damage=obj.damage,
            tapped=obj.tapped,
            face_down=obj.face_down,
            attached_to=obj.attached_to,
            values=copies.copiable_values(self, obj),
        )

    def source_chars(self, source: Snapshot | GameObject) -> tuple[Characteristics, str]:
        """Characteristics of a source: the live object if it is still there, else last known information."""
        oid = source.oid
        live = self.find(oid)
        if live is not None and live.zone in ("battlefield", "stack"):
            return self.chars(live), self.controller(live)
        snap = self.lki.get(oid) or (source if isinstance(source, Snapshot) else self.snapshot(source))
        return snap.chars, snap.controller

    @contextmanager
    def simultaneously(self) -> Iterator[None]:
        """Events inside happen at once: every object is seen as it was before any of them (LKI)."""
        outer = self._batch
        if outer is None:
            self.batch_serial += 1
            self._batch = {}
            self._batch = {o.oid: self.snapshot(o) for o in self.battlefield}
        try:
            yield
        finally:
            if outer is None:
                self._batch = None

    # -- zone changes --------------------------------------------------------------------------------
    def new_object(self, card: Card, zone: str, controller: str | None = None, **status: Any) -> GameObject:
        obj = GameObject(
            oid=self.new_id(),
            card=card,
            zone=zone,
            controller=controller or card.owner,
            timestamp=self.new_timestamp(),
            **status,
        )
        if zone == "battlefield":
            self.battlefield.append(obj)
        elif zone == "stack":
            self.stack.append(obj)
        else:
            self.players[card.owner].zone(zone).append(obj)
        self.touch()
        return obj

    def move(
        self,
        obj: GameObject,
        to_zone: str,
        *,
        controller: str | None = None,
        counters: dict[str, int] | None = None,
        face_down: bool = False,
        tapped: bool = False,
        top: bool = True,
        paid: tuple[str, ...] = (),
        instead: str | None = None,
        spell_x: int = 0,
    ) -> GameObject:
        """Move an object to a zone; the result is a new object (rule 400.7). Replacement effects may send it
        elsewhere (614.1a); ``instead`` is the moving effect's own "put it into ZONE instead" (614.15)."""
        from rules_engine import anchors, copies, replacement, triggers, until

        if to_zone == "battlefield" and not face_down and obj.zone != "battlefield" and (
            {"Instant", "Sorcery"} & set(obj.definition.types)
        ):  # rule 400.4a: an instant or sorcery card that would enter the battlefield remains where it is
            self.log(f"{narr.obj(self, obj)} — карта мгновенного заклинания или волшебства, на поле битвы она не "
                     f"выходит и остается в зоне «{from_zone_ru(obj.zone)}» (правило 400.4a)")
            return obj
        snap = self.snapshot(obj)
        self.lki[obj.oid] = snap
        from_zone = obj.zone
        to_zone, shuffle = replacement.zone_destination(self, obj, to_zone, instead)
        self.zone_list(obj).remove(obj)
        if from_zone == "battlefield":
            self._detach_from(obj)
        new_controller = controller or (obj.owner if to_zone != "stack" else self.controller(obj))
        status: dict[str, Any] = {"face_down": face_down, "tapped": tapped}
        new = self.new_object(obj.card, to_zone, new_controller, **status)
        new.paid_additional = paid  # "if its evoke cost was paid" is known to the permanent it becomes
        new.entered_x = spell_x  # rule 107.3m: "enters with X counters" sees the X of the spell it was
        if to_zone == "library" and not top:
            lib = self.players[obj.owner].library
            lib.insert(0, lib.pop())
        entering_counters: Counter[str] = Counter(counters or {})
        if to_zone == "battlefield":
            copies.as_enters(self, new)  # 707.5: a copy as it enters, before the copied "enters with" abilities
            replacement.apply_entering(self, new, entering_counters)
            anchors.as_enters(self, new)  # rule 614.12c: "as this enters, choose Khans or Dragons"
        self.touch()
        where = narr.ZONE_INTO[to_zone]
        label = narr.obj(self, snap)
        if snap.face_down and to_zone not in ("battlefield", "stack"):  # rule 708.9: reveal it
            label += f" (показывается: «{obj.definition.name_ru}»)"
        self.log(f"{label} перемещается из зоны «{from_zone_ru(from_zone)}» {where}")
        event = Event("zone_change", obj=new, lki=snap, from_zone=from_zone, to_zone=to_zone)
        triggers.collect(self, event)
        if shuffle:  # "shuffle it into its owner's library instead"
            shuffle_library(self, obj.owner)
        if to_zone == "battlefield":
            for kind, n in new.counters.items():
                if n and kind != "loyalty":
                    triggers.collect(self, Event("counters", obj=new, counter=kind, amount=n))
        if from_zone == "battlefield" and (obj.oid, until.LINK) in self.linked:
            until.source_left(self, obj.oid)  # rule 610.3: what it exiled "until it leaves" returns now
        return new

    def _detach_from(self, obj: GameObject) -> None:
        obj.attached_to = None

    def remove_from_game(self, obj: GameObject) -> None:
        """A token outside the battlefield ceases to exist (rule 704.5d)."""
        self.lki[obj.oid] = self.snapshot(obj)
        self.zone_list(obj).remove(obj)
        self.touch()

    # -- counters ------------------------------------------------------------------------------------
    def put_counters(self, obj: GameObject, kind: str, n: int) -> None:
        from rules_engine import replacement, triggers

        n = replacement.counters_put(self, obj, kind, n)  # rules 614.16, 614.17
        if n <= 0:
            return
        obj.counters[kind] += n
        self.touch()
        self.log(f"На {narr.obj(self, obj)} кладется {narr.counter(kind, n)}")
        triggers.collect(self, Event("counters", obj=obj, counter=kind, amount=n))

    def give_counters(self, player: str, kind: str, n: int) -> int:
        """A player gets counters (rule 122.1: poison, experience, energy...), unless they can't (614.17); in
        Two-Headed Giant the poison counters go to the team (810.10). "Whenever you get one or more counters"
        triggers once per event."""
        from rules_engine import replacement, triggers

        n = replacement.counters_put(self, player, kind, n)
        if n <= 0:
            return 0
        p = self.players[player]
        if kind == "poison":
            p.poison += n
        else:
            p.counters[kind] += n
        self.log(f"{narr.player(player)} получает {narr.counter(kind, n)} (всего: {p.counter_count(kind)})")
        triggers.collect(self, Event("player_counters", player=player, counter=kind, amount=n))
        return n

    def remove_player_counters(self, player: str, kind: str, n: int) -> int:
        """Counters are removed from a player (rule 122.1), no more than they have; 810.10b: from the team's."""
        p = self.players[player]
        n = min(n, p.counter_count(kind))
        if n <= 0:
            return 0
        if kind == "poison":
            p.poison -= n
        else:
            p.counters[kind] -= n
            if not p.counters[kind]:
                del p.counters[kind]
        self.log(f"{narr.player(player)} теряет {narr.counter(kind, n)} (осталось: {p.counter_count(kind)})")
        return n

    def remove_counters(self, obj: GameObject, kind: str, n: int) -> None:
        n = min(n, obj.counters.get(kind, 0))
        if n <= 0:
            return
        obj.counters[kind] -= n
        if obj.counters[kind] == 0:
            del obj.counters[kind]
        self.touch()
        from rules_engine import triggers

        triggers.collect(self, Event("counters_removed", obj=obj, counter=kind, amount=n))

    # -- life ----------------------------------------------------------------------------------------
    def gain_life(self, player: str, n: int) -> int:
        """A player gains life (rule 119.3); the event "you gain life" triggers on and this turn records."""
        from rules_engine import replacement, triggers

        n = replacement.life_gained(self, player, n)  # rule 119.7: a player who can't gain life gains none
        if n <= 0:
            return 0
        self.players[player].life += n
        triggers.collect(self, Event("life_gained", player=player, amount=n))
        return n

    # -- decisions -----------------------------------------------------------------------------------
    def decide(
        self, kind: str, player: str, question: str, source: GameObject | Snapshot | None = None
    ) -> Any:
        """Take the scripted answer to a decision, or fail: the engine never picks a default."""
        for i, choice in enumerate(self.choices):
            if choice.kind != kind:
                continue
            if choice.player is not None and choice.player != player:
                continue
            if choice.source is not None and (source is None or choice.source not in refs_of(source)):
                continue
            del self.choices[i]
            return choice.value
        raise DecisionMissing(f"нужно решение «{kind}» игрока {narr.player(player)}: {question}")

    def decide_or_seed(
        self, kind: str, player: str, question: str, source: GameObject | Snapshot | None = None
    ) -> Any:
        """A random outcome: the scripted answer, else the scenario's seed (``{"seed": N}``), else missing."""
        if self.seed is not None and not any(c.kind == kind for c in self.choices):
            return {"seed": self.seed}
        return self.decide(kind, player, question, source)

    # -- log -----------------------------------------------------------------------------------------
    def log(self, text: str) -> None:
        self.log_lines.append(text)

    def describe_stack_item(self, item: StackItem) -> str:
        if isinstance(item, GameObject):
            label = "копия заклинания" if item.is_copy else "заклинание"
            return f"{label} {narr.obj(self, item)}"
        kind = "срабатывающая способность" if item.triggered else "способность"
        return f"{kind} «{narr.ability_label(item.ability)}» объекта {narr.obj(self, item.source)}"


def refs_of(obj: GameObject | Snapshot) -> set[str]:
    return {obj.card.ref, obj.card.definition.name}


def from_zone_ru(zone: str) -> str:
    return {
        "battlefield": "поле битвы",
        "stack": "стек",
        "hand": "рука",
        "graveyard": "кладбище",
        "library": "библиотека",
        "exile": "изгнание",
        "command": "командная зона",
    }.get(zone, zone)


def is_error(exc: BaseException) -> bool:
    return isinstance(exc, EngineError)


def shuffle_library(game: GameState, player: str, source: Any = None) -> None:
    """Rule 701.24a: a shuffle randomises the library. Randomness is a decision like any other: the scenario
    scripts the resulting order (``kind: shuffle``, ``value: [REF, ...]`` top first) or a seed
    (``value: {seed: N}``, or the scenario's ``seed:``); a library of 0 or 1 card needs neither."""
    import random

    library = game.players[player].library
    if len(library) > 1:
        answer = game.decide_or_seed("shuffle", player, "в каком порядке окажется библиотека после перемешивания?",
                                     source)
        if isinstance(answer, dict):
            order = list(library)
            random.Random(int(answer["seed"])).shuffle(order)
            library[:] = order
            how = f"случайно, зерно {answer['seed']}"
        else:
            top_first = [pick(game, [o for o in library], ref, "карта этой библиотеки", "701.24a") for ref in answer]
            if len(set(map(id, top_first))) != len(library):
                raise ScriptError(f"порядок после перемешивания должен перечислить все {len(library)} карт(ы)")
            library[:] = list(reversed(top_first))  # the list is stored bottom first
            how = "порядок задан сценарием"
        game.touch()
    else:
        how = "в ней не больше одной карты"
    game.log(f"{narr.player(player)} перемешивает библиотеку ({how})")


def pick(game: GameState, pool: list[GameObject], answer: Any, what: str, rule: str) -> GameObject:
    """The scripted choice among ``pool``; anything else is forbidden by ``rule`` (the rule that says what may be
    chosen)."""
    hits = [o for o in pool if str(answer) in (o.card.ref, o.card.definition.name)]
    if not hits:
        raise IllegalAction(f"{answer!r}: нельзя выбрать ({what})", rule)
    return hits[0]


def arrange(game: GameState, cards: list[GameObject], answer: Any, what: str, rule: str) -> list[GameObject]:
    """The order a player gives ``cards`` (a scripted list, first card first: the top of a library, 401.4), each
    of them once; a card named that is not among them is forbidden by ``rule``."""
    names = answer if isinstance(answer, list) else [answer]
    if len(names) != len(cards):
        raise ScriptError(f"нужно перечислить все {len(cards)} карт(ы)")
    left = list(cards)
    ordered = []
    for name in names:
        card = pick(game, left, name, what, rule)
        ordered.append(card)
        left.remove(card)
    return ordered
