"""A second opinion: each scenario replayed in an independent rules engine (phase.rs, ``pip install -e '.[oracle]'``).

phase builds its cards from their Oracle text: the printed cards of ``../shared/mtgjson/*.json`` as phase's own
generator reads them, every other card from our definition's ``text_en`` (Oracle text, or Oracle-style text for an
invented card). The position is set up with phase's debug actions (each card dealt from its owner's deck, then moved
to its zone; life, counters, tapped, controller, mana pool), the scenario's actions and scripted decisions are
replayed through ``Game.actions()`` / ``Game.apply()``, and the facts both engines model are compared with our final
state: zones of cards, life totals, counters, power/toughness, loyalty, controller, tapped.

A scenario ``agrees`` only when every fact compared is equal and at least one was compared; ``disagrees`` lists
each fact (ours, theirs); ``not comparable`` says why (a rules option phase lacks, a card it cannot parse, a
decision it asks that the script does not answer or the other way round, an action without a counterpart).
A fact not compared never counts as agreeing. phase is imported lazily: nothing else in the project needs it.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules_engine.cards import CardDB
from rules_engine.errors import EngineError
from rules_engine.game import Game
from rules_engine.objects import CardDef
from rules_engine.options import RulesOptions
from rules_engine.scenario import Scenario, ScenarioResult, play
from rules_engine.teams import PLAYERS, scenario_players

STATUSES = ("agrees", "disagrees", "not_comparable")
# Why a scenario is not comparable (codes are stable; the Russian text is in kb/i18n.py "opinion.reason.*").
REASONS = ("old_rules", "card_unparsed", "decision", "action", "ours_incomplete", "phase_error")
FACTS = ("zone", "life", "counters", "pt", "loyalty", "controller", "tapped")

ZONES = {"Library": "library", "Hand": "hand", "Battlefield": "battlefield", "Graveyard": "graveyard",
         "Exile": "exile", "Stack": "stack"}
STEPS = {"untap": "Untap", "upkeep": "Upkeep", "draw": "Draw", "main1": "PreCombatMain",
         "beginning_of_combat": "BeginCombat", "declare_attackers": "DeclareAttackers",
         "declare_blockers": "DeclareBlockers", "combat_damage": "CombatDamage", "end_of_combat": "EndCombat",
         "main2": "PostCombatMain", "end": "End", "cleanup": "Cleanup"}
COUNTERS = {"+1/+1": "P1P1", "-1/-1": "M1M1", "loyalty": "Loyalty"}
MANA = {"W": "White", "U": "Blue", "B": "Black", "R": "Red", "G": "Green", "C": "Colorless"}
SETS = ("LRW", "SHM", "GTC", "FRF", "DTK")
FILLER = "Second Opinion Filler"  # a vanilla land dealt to fill a deck, removed before the scenario starts
MAX_MOVES = 400  # passes and answers phase may need for one step; more means the two engines went apart


class GameOver(Exception):
    """The game ended in phase: the replay stops, and the winner and life totals are compared."""


class NotComparable(Exception):
    """The replay cannot go on in phase: ``reason`` is a code of ``REASONS``, the message says what."""

    def __init__(self, reason: str, why: str) -> None:
        super().__init__(why)
        self.reason = reason
        self.why = why


@dataclass
class Difference:
    fact: str
    ours: str
    theirs: str


@dataclass
class Opinion:
    """phase's verdict on one scenario, and how many facts it compared."""

    scenario: str
    status: str
    compared: int = 0
    differences: list[Difference] = field(default_factory=list)
    reason: str | None = None
    why: str = ""
    ms: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "status": self.status,
            "compared": self.compared,
            "differences": [{"fact": d.fact, "ours": d.ours, "theirs": d.theirs} for d in self.differences],
            "reason": self.reason,
            "why": self.why,
            "ms": round(self.ms, 1),
        }


def available() -> bool:
    """Whether the ``oracle`` extra (phase-python) is installed and loads."""
    try:
        import phase  # noqa: F401
    except ImportError:
        return False
    return True


# -- card data -----------------------------------------------------------------------------------------
def printed_faces(mtgjson_dir: Path, cache_dir: Path | None = None) -> dict[str, Any]:
    """phase's card faces of the MTGJSON set files, keyed by lower-case name (built once, then cached)."""
    from phase import gen

    files = sorted(p for p in mtgjson_dir.glob("*.json") if p.stem.upper() in SETS)
    if not files:
        return {}
    stamp = hashlib.sha256(
        json.dumps([_version(), *[(p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in files]]).encode()
    ).hexdigest()[:16]
    cached = cache_dir / f"phase-card-data-{stamp}.json" if cache_dir is not None else None
    if cached is not None and cached.is_file():
        faces: dict[str, Any] = json.loads(cached.read_text(encoding="utf-8"))
        return faces
    faces = {}
    for path in files:
        for _name, group in gen.load_card_groups(str(path)):
            try:
                gen.process_group(group, faces)
            except Exception:  # phase's own generator skips such cards too; they are built from ours
                continue
    if cached is not None:
        cached.parent.mkdir(parents=True, exist_ok=True)
        for old in cached.parent.glob("phase-card-data-*.json"):
            old.unlink()
        cached.write_text(json.dumps(faces, ensure_ascii=False), encoding="utf-8")
    return faces


def _version() -> str:
    from importlib.metadata import version

    return version("phase-python")


def face_of(d: CardDef) -> Any:
    """phase's face built from our definition: its Oracle text (``text_en``) and printed characteristics."""
    from phase import build_oracle_face

    type_line = " ".join([*sorted(d.supertypes), *sorted(d.types)])
    if d.subtypes:
        type_line += " — " + " ".join(sorted(d.subtypes))
    card: dict[str, Any] = {
        "name": d.name,
        "manaCost": str(d.cost) if d.cost is not None else None,
        "manaValue": d.cost.mana_value if d.cost is not None else 0,
        "types": sorted(d.types),
        "subtypes": sorted(d.subtypes),
        "supertypes": sorted(d.supertypes),
        "type": type_line,
        "text": d.text_en,
        "layout": "normal",
        "colors": sorted(d.printed_colors),
        "colorIdentity": sorted(d.printed_colors),
        "keywords": [k.replace("_", " ").title() for k in d.keywords],
        "identifiers": {},
    }
    for key, value in (("power", d.power), ("toughness", d.toughness), ("loyalty", d.loyalty)):
        if value is not None:
            card[key] = str(value)
    return build_oracle_face(card, None)


def filler_face() -> Any:
    from phase import build_oracle_face

    return build_oracle_face(
        {"name": FILLER, "types": ["Land"], "subtypes": [], "supertypes": [], "type": "Land", "text": "",
         "layout": "normal", "colors": [], "colorIdentity": [], "keywords": [], "identifiers": {}, "manaValue": 0},
        None,
    )


def unparsed(face: Any) -> list[str]:
    """The parts of a face phase could not read: its ``Unimplemented`` effects, ``Unknown`` triggers and the
    clauses its parser says it swallowed (``parse_warnings``: Frontier Mastodon's «if you control a creature with
    power 4 or greater» dropped, so its counter is unconditional) — a card phase plays without part of its text."""
    out: list[str] = [str(w.get("description") or w.get("type")) for w in (face or {}).get("parse_warnings") or []
                      if isinstance(w, dict)]

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == "Unimplemented":
                out.append(str(node.get("description") or node.get("name")))
            if isinstance(node.get("mode"), dict) and "Unknown" in node["mode"]:
                out.append(str(node["mode"]["Unknown"]))
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(face)
    return out


# -- our side ------------------------------------------------------------------------------------------
def play_ours(scenario: Scenario, db: CardDB) -> tuple[Game, ScenarioResult]:
    """Our engine's final game for the scenario, as ``run_scenario`` plays it (``stopped_at`` says where the
    script broke off, if it did; a check failing in the middle doesn't stop it)."""
    game, result = play(scenario, db)
    if game is None:
        raise EngineError(result.failures[0])
    return game, result


def facts_of_ours(game: Game) -> dict[str, str]:
    """Every fact both engines model, of every card the scenario set up (by ref) and each player."""
    facts: dict[str, str] = {}
    for name in PLAYERS:
        facts[f"life {name}"] = str(game.players[name].life)
    lost = [name for name in PLAYERS if game.players[name].lost]
    # a game every player lost is a draw (CR 104.4a): a fact of its own, so that a draw ends the game's facts in
    # the comparison as a win does (phase's zones after the end are not compared), and "none" means "not over"
    if not lost:
        facts["winner"] = "none"
    else:
        facts["winner"] = "draw" if len(lost) == len(PLAYERS) else next(p for p in PLAYERS if p not in lost)
    for obj in game.all_objects():
        if obj.card.is_token or obj.is_copy:
            continue
        ref = obj.card.ref
        facts[f"zone {ref}"] = obj.zone
        if obj.zone != "battlefield":
            continue
        chars = game.chars(obj)
        facts[f"controller {ref}"] = game.controller(obj)
        facts[f"tapped {ref}"] = str(obj.tapped).lower()
        counters = {k: n for k, n in obj.counters.items() if n and k != "loyalty"}
        facts[f"counters {ref}"] = _counters_text(counters)
        if chars.power is not None and chars.toughness is not None and "Creature" in chars.types:
            facts[f"pt {ref}"] = f"{chars.power}/{chars.toughness}"
        if "Planeswalker" in chars.types:
            facts[f"loyalty {ref}"] = str(obj.counters.get("loyalty", 0))
    return facts


def _counters_text(counters: dict[str, int]) -> str:
    return ", ".join(f"{k}: {n}" for k, n in sorted(counters.items())) or "{}"


# -- phase's side --------------------------------------------------------------------------------------
class PhaseGame:
    """A scenario's game in phase: the position, the refs of its cards, and the moves that replay the script."""

    def __init__(self, scenario: Scenario, db: CardDB, faces: dict[str, Any]) -> None:
        from phase import Engine

        self.scenario = scenario
        self.db = db.with_extra(scenario.cards)
        self.cards: list[tuple[str, str, str, dict[str, Any]]] = []  # (ref, owner, zone, spec) as set up
        controllers: dict[str, str] = {}
        for player in PLAYERS:
            zones = scenario.setup.get(player) or {}
            for zone in ("library", "hand", "graveyard", "exile", "battlefield"):
                for item in zones.get(zone) or []:
                    spec: dict[str, Any] = {"card": item} if isinstance(item, str) else dict(item)
                    d = self.db.get(str(spec["card"]))
                    assert d is not None
                    if spec.get("token") or spec.get("face_down") or d.halves or d.back:
                        raise NotComparable("action", f"{spec['card']}: фишка, карта рубашкой вверх, разделенная "
                                                      "или двусторонняя карта не выкладывается в phase.rs")
                    ref = str(spec.get("ref", d.name))
                    owner = str(spec.get("owner", player))
                    self.cards.append((ref, owner, zone, spec))
                    controllers[ref] = player
        self.controllers = controllers
        card_faces: dict[str, Any] = {FILLER.lower(): filler_face()}
        for _ref, _owner, _zone, spec in self.cards:
            d = self.db.get(str(spec["card"]))
            assert d is not None
            key = d.name.lower()
            if key in card_faces:
                continue
            face = faces.get(key) if not d.invented and key in faces else face_of(d)
            missing = unparsed(face)
            if missing:
                raise NotComparable("card_unparsed", f"{d.name}: phase.rs не разбирает «{missing[0]}»")
            card_faces[key] = face
        self.names = {k: v["name"] for k, v in card_faces.items()}
        self.engine = Engine.from_json(json.dumps(card_faces))
        self.game = self._deal()
        self.by_ref: dict[str, int] = {}  # ref -> phase card_id (stable across zone changes)
        self._place()

    # setup
    def _deal(self) -> Any:
        from phase import GameAction

        decks: dict[str, list[str]] = {p: [] for p in PLAYERS}
        for _ref, owner, _zone, spec in self.cards:
            d = self.db.get(str(spec["card"]))
            assert d is not None
            decks[owner].append(d.name)
        for p in PLAYERS:
            decks[p].append(FILLER)
        active = PLAYERS.index(str(self.scenario.setup.get("active", "alice")))
        game = self.engine.new_game(decks["alice"], decks["bob"], seed=self.scenario.seed or 7, first_player=active)
        while game.waiting_for()["type"] == "MulliganDecision":
            seat = game.waiting_for()["data"]["pending"][0]["player"]
            game.apply(seat, GameAction.from_dict({"type": "MulliganDecision", "data": {"choice": {"type": "Keep"}}}))
        state = game.state()
        state["state"]["debug_mode"] = True
        state["state"]["format_config"]["allow_debug_actions"] = True
        return self.engine.load_game(state)

    def debug(self, kind: str, **data: Any) -> Any:
        from phase import GameAction

        return self.game.apply(0, GameAction.from_dict({"type": "Debug", "data": {"type": kind, "data": data}}))

    def objects(self) -> dict[int, Any]:
        return {int(k): o for k, o in self.game.state()["state"]["objects"].items()}

    def _place(self) -> None:
        setup = self.scenario.setup
        step = str(setup.get("step", "main1"))
        active = PLAYERS.index(str(setup.get("active", "alice")))
        objects = self.objects()
        free: dict[tuple[str, int], list[int]] = {}
        for oid, o in sorted(objects.items()):
            free.setdefault((o["name"], o["owner"]), []).append(oid)
        for oid in free.pop((FILLER, 0), []) + free.pop((FILLER, 1), []):
            self.debug("RemoveObject", object_id=oid)
        self.debug("SetPhase", phase=STEPS[step], active_player=active)
        # the library first, top card first (phase's library list is top first; a move puts a card at its end)
        order = sorted(self.cards, key=lambda c: c[2] != "library")
        library = [c for c in order if c[2] == "library"]
        order = [*reversed(library), *[c for c in order if c[2] != "library"]]
        for ref, owner, zone, spec in order:
            d = self.db.get(str(spec["card"]))
            assert d is not None
            oid = free[(d.name, PLAYERS.index(owner))].pop(0)
            self.by_ref[ref] = objects[oid]["card_id"]
            self.debug("MoveToZone", object_id=oid, to_zone=_zone_name(zone))
            if zone == "battlefield":
                if self.controllers[ref] != owner:
                    self.debug("SetController", object_id=oid, controller=PLAYERS.index(self.controllers[ref]))
                if spec.get("tapped"):
                    self.debug("SetTapped", object_id=oid, tapped=True)
                self.debug("SetSummoningSickness", object_id=oid, sick=bool(spec.get("summoning_sick")))
                for kind, n in (spec.get("counters") or {}).items():
                    self.debug("ModifyCounters", object_id=oid, counter_type=COUNTERS.get(str(kind), str(kind)),
                               delta=int(n))
                if spec.get("damage"):
                    raise NotComparable("action", f"{ref}: отмеченные повреждения не выкладываются в phase.rs")
        for ref, _owner, _zone, spec in order:
            if spec.get("attached_to"):
                host = {"type": "Object", "data": self.oid_of(str(spec["attached_to"]))}
                self.debug("Attach", object_id=self.oid_of(ref), target=host)
        if self.game.stack():
            raise NotComparable("action", "при выкладке позиции phase.rs положил способности в стек")
        for seat, player in enumerate(PLAYERS):
            zones = setup.get(player) or {}
            if "life" in zones:
                self.debug("SetLife", player_id=seat, life=int(zones["life"]))
            if zones.get("mana"):
                from rules_engine.mana import parse_units

                units = parse_units(str(zones["mana"]))
                self.debug("AddMana", player_id=seat, mana=[MANA[c] for c, n in units.items() for _ in range(n)])
            if zones.get("poison"):
                raise NotComparable("action", "жетоны яда не выкладываются в phase.rs")

    # lookups
    def oid_of(self, ref: str) -> int:
        card_id = self.by_ref.get(ref)
        if card_id is None:
            raise NotComparable("action", f"{ref}: не карта начальной позиции")
        for oid, o in self.objects().items():
            if o["card_id"] == card_id:
                return oid
        raise NotComparable("action", f"{ref}: больше нет в партии phase.rs")

    def target_of(self, value: Any) -> dict[str, int]:
        if value in PLAYERS:
            return {"Player": PLAYERS.index(str(value))}
        ref = str(value).split("/")[0]
        return {"Object": self.oid_of(ref)}

    def facts(self) -> dict[str, str]:
        facts: dict[str, str] = {}
        state = self.game.state()["state"]
        for seat, name in enumerate(PLAYERS):
            facts[f"life {name}"] = str(state["players"][seat]["life"])
        w = self.game.waiting_for()
        if w["type"] == "GameOver":  # the cards' zones after the end of a game are not the game's facts
            winner = (w.get("data") or {}).get("winner")
            facts["winner"] = PLAYERS[winner] if isinstance(winner, int) else "draw"  # over with no winner (104.4a)
            return facts
        facts["winner"] = "none"
        objects = self.objects()
        by_card = {o["card_id"]: o for o in objects.values()}
        for ref, card_id in self.by_ref.items():
            o = by_card.get(card_id)
            if o is None:
                facts[f"zone {ref}"] = "none"
                continue
            zone = ZONES.get(o["zone"], o["zone"])
            facts[f"zone {ref}"] = zone
            if zone != "battlefield":
                continue
            facts[f"controller {ref}"] = PLAYERS[o["controller"]]
            facts[f"tapped {ref}"] = str(bool(o["tapped"])).lower()
            counters = {_our_counter(k): n for k, n in (o.get("counters") or {}).items() if n}
            loyalty = counters.pop("loyalty", None)
            facts[f"counters {ref}"] = _counters_text(counters)
            types = set(o.get("card_types", {}).get("core_types", []))
            if "Creature" in types and o.get("power") is not None:
                facts[f"pt {ref}"] = f"{o['power']}/{o['toughness']}"
            if "Planeswalker" in types:
                facts[f"loyalty {ref}"] = str(o.get("loyalty") if o.get("loyalty") is not None else loyalty)
        return facts


def _zone_name(zone: str) -> str:
    return {v: k for k, v in ZONES.items()}[zone]


def _our_counter(kind: str) -> str:
    back = {v: k for k, v in COUNTERS.items()}
    return back.get(kind, kind.lower())


# -- the replay ----------------------------------------------------------------------------------------
META = frozenset({"Concede", "CancelCast", "SetAutoPass", "CancelAutoPass", "SetPhaseStops", "SetPriorityPassingMode",
                  "SetPriorityYield", "SetMayTriggerAutoChoice", "SetTriggerOrderTemplate", "Debug",
                  "GrantDebugPermission", "RevokeDebugPermission", "DeclareShortcut", "BeginResolveAll",
                  "SetReplacementAutoChoice", "ReorderHand"})


class Replay:
    """Plays the scenario's steps in phase; every decision phase asks is answered from the script."""

    def __init__(self, pg: PhaseGame) -> None:
        self.pg = pg
        self.g = pg.game
        self.choices: list[Any] = []
        self.asked: set[str] = set()  # the kinds of scripted decision phase asked for at least once

    def actor(self) -> int:
        w = self.g.waiting_for()
        data = w.get("data") or {}
        if isinstance(data, dict) and isinstance(data.get("player"), int):
            return int(data["player"])
        return int(self.g.priority_player())

    def options(self) -> list[Any]:
        return [a for a in self.g.actions() if a.kind not in META]

    def apply(self, action: Any) -> Any:
        try:
            return self.g.apply(self.actor(), action)
        except ValueError as exc:
            raise NotComparable("phase_error", f"phase.rs отверг {action.kind}: {exc}") from exc

    def answer(self) -> None:
        """Answer the decision phase waits for (anything but priority): from the script, or the only option."""
        w = self.g.waiting_for()
        kind = w["type"]
        options = self.options()
        if kind in ("TargetSelection", "TriggerTargetSelection"):
            choice = self._take("target")
            if choice is not None:
                wanted = self.pg.target_of(choice.value if not isinstance(choice.value, list) else choice.value[0])
                for a in options:
                    if a.kind == "ChooseTarget" and (a.data or {}).get("target") == wanted:
                        self.apply(a)
                        return
                raise NotComparable("decision", f"phase.rs не предлагает цель {choice.value}")
        if kind == "OrderTriggers":
            self.order(w["data"]["triggers"])
            return
        if kind in ("OptionalEffectChoice", "DecideOptionalEffect") or any(a.kind == "DecideOptionalEffect"
                                                                              for a in options):
            choice = self._take("may") or self._take_play()
            if choice is not None:
                accept = str(choice.value).lower() in ("yes", "true")
                for a in options:
                    data = a.data or {}
                    if a.kind == "DecideOptionalEffect" and bool(data.get("accept", data.get("choice"))) == accept:
                        self.apply(a)
                        return
        mapped = self._mapped(kind, w.get("data") or {}, options)
        if mapped is not None:
            self.apply(mapped)
            return
        if len(options) == 1:
            self.apply(options[0])
            return
        raise NotComparable(
            "decision", f"phase.rs спрашивает {kind} (вариантов: {len(options)}), а в сценарии ответа нет"
        )

    def _mapped(self, kind: str, data: dict[str, Any], options: list[Any]) -> Any:
        """A scripted answer to a cipher, clash or hideaway decision, as phase's action (None: not such a one)."""
        player = PLAYERS[data["player"]] if isinstance(data.get("player"), int) else None
        if kind == "CipherEncodeChoice" and (choice := self._take("cipher", player)) is not None:
            wanted = None if choice.value == "no" else self.pg.oid_of(str(choice.value))
            return next((a for a in options if (a.data or {}).get("creature") == wanted), None) or self._missing(choice)
        if kind == "ClashCardPlacement" and (choice := self._take("clash", player)) is not None:
            top = choice.value == "top"
            return next((a for a in options if (a.data or {}).get("top") is top), None) or self._missing(choice)
        if kind == "DigChoice" and (choice := self._take("hideaway", player)) is not None:
            cards = [self.pg.oid_of(str(choice.value))]
            return next((a for a in options if (a.data or {}).get("cards") == cards), None) or self._missing(choice)
        return None

    def _take_play(self) -> Any:
        """A ``play`` answer («you may cast the copy»): yes or no; one with cast options is not mapped."""
        choice = self._peek("play")
        if choice is None:
            return None
        if str(choice.value) not in ("yes", "no"):
            raise NotComparable("decision", f"розыгрыш с параметрами {choice.value} не переносится в phase.rs")
        return self._take("play")

    def _missing(self, choice: Any) -> Any:
        raise NotComparable("decision", f"phase.rs не предлагает ответ «{choice.kind}: {choice.value}»")

    def order(self, triggers: list[dict[str, Any]]) -> None:
        """The order of one player's simultaneous triggers (first listed goes on the stack first, as ours)."""
        from phase import GameAction

        if len({(t["source_id"], t["description"]) for t in triggers}) == 1:
            order = list(range(len(triggers)))  # identical abilities of one source: every order is the same
        else:
            choice = self._take("order")
            if choice is None:
                raise NotComparable("decision", "phase.rs спрашивает порядок срабатываний, а в сценарии его нет")
            order = []
            for value in choice.value:
                oid = self.pg.oid_of(str(value).split("/")[0])
                fits = [i for i, t in enumerate(triggers) if t["source_id"] == oid and i not in order]
                if not fits or len({triggers[i]["description"] for i in fits}) > 1:
                    raise NotComparable("decision", f"порядок срабатываний: {value} не сопоставляется однозначно")
                order.append(fits[0])
            if len(order) != len(triggers):
                raise NotComparable("decision", "сценарий упорядочивает не те срабатывания, что phase.rs")
        self.apply(GameAction.from_dict({"type": "OrderTriggers", "data": {"order": order}}))

    def _take(self, kind: str, player: str | None = None) -> Any:
        for c in self.choices:
            if c.kind == kind and (player is None or c.player in (None, player)):
                self.choices.remove(c)
                self.asked.add(kind)
                return c
        return None

    def _peek(self, kind: str) -> Any:
        return next((c for c in self.choices if c.kind == kind), None)

    def settle(self) -> None:
        """Answer decisions until phase waits for priority (or the game is over)."""
        for _ in range(MAX_MOVES):
            kind = self.g.waiting_for()["type"]
            if kind in ("Priority", "GameOver"):
                return
            if kind == "DeclareAttackers":
                return
            if kind == "DeclareBlockers":
                return
            self.answer()
        raise NotComparable("phase_error", "phase.rs спрашивает решения без конца")

    def pass_once(self) -> None:
        self.settle()
        w = self.g.waiting_for()["type"]
        if w == "GameOver":
            raise GameOver
        if w == "DeclareAttackers":
            self.declare_attackers({})
            return
        if w == "DeclareBlockers":
            self.declare_blockers({})
            return
        pass_ = next((a for a in self.g.actions() if a.kind == "PassPriority"), None)
        if pass_ is None:
            raise NotComparable("phase_error", f"phase.rs не дает передать приоритет, ожидая {w}")
        self.apply(pass_)
        self.settle()

    def take_priority(self, by: str | None) -> None:
        """An action by ``by``: the holder passing first is implied, as in our engine (turn.take_priority)."""
        self.settle()
        if by is None or self.g.waiting_for()["type"] != "Priority":
            return
        seat = PLAYERS.index(by)
        if self.actor() != seat:
            pass_ = next((a for a in self.g.actions() if a.kind == "PassPriority"), None)
            if pass_ is not None:
                self.apply(pass_)
                self.settle()
        if self.g.waiting_for()["type"] != "Priority" or self.actor() != seat:
            raise NotComparable("phase_error", f"в phase.rs приоритет не переходит к игроку {by}")

    def stack_ids(self) -> list[int]:
        return [int(e["id"]) if isinstance(e, dict) and "id" in e else i for i, e in enumerate(self.g.stack())]

    def resolve(self, n: int | None) -> None:
        """Everyone passes until ``n`` objects (all, for None) have resolved."""
        for done in range(MAX_MOVES):
            if (n is not None and done >= n) or (n is None and not self.g.stack()):
                return
            stack = self.g.stack()
            if not stack:
                raise NotComparable("action", "в стеке phase.rs нечего разрешать")
            top = _entry_id(stack[-1])
            while top in {_entry_id(e) for e in self.g.stack()}:
                self.pass_once()
        raise NotComparable("phase_error", "стек phase.rs не пустеет")

    def advance(self, step: str) -> None:
        wanted = STEPS[step]
        start_turn = self.g.turn
        self.pass_once()
        for _ in range(MAX_MOVES):
            if self.g.phase == wanted and not self.g.stack() and self.g.waiting_for()["type"] == "Priority":
                return
            if self.g.turn > start_turn + 1:
                break
            if self.g.waiting_for()["type"] == "GameOver":  # it played past the step (no priority there in phase)
                break
            self.pass_once()
        raise NotComparable("action", f"phase.rs не дошел до шага {wanted}")

    def declare_attackers(self, attacks: dict[str, Any]) -> None:
        from phase import GameAction

        attackers = []
        for ref, whom in attacks.items():
            target = {"type": "Player", "data": PLAYERS.index(whom)} if whom in PLAYERS else \
                {"type": "Planeswalker", "data": self.pg.oid_of(str(whom))}
            attackers.append([self.pg.oid_of(ref), target])
        action = GameAction.from_dict({"type": "DeclareAttackers", "data": {"attacks": attackers}})
        self.apply(action)
        self.settle()

    def declare_blockers(self, blocks: dict[str, Any]) -> None:
        from phase import GameAction

        pairs = []
        for blocker, attacked in blocks.items():
            for a in attacked if isinstance(attacked, list) else [attacked]:
                pairs.append([self.pg.oid_of(blocker), self.pg.oid_of(str(a))])
        self.apply(GameAction.from_dict({"type": "DeclareBlockers", "data": {"assignments": pairs}}))
        self.settle()

    def cast(self, params: dict[str, Any]) -> None:
        if any(k in params for k in ("x", "alternative", "without_paying", "face_down", "conspire", "hybrid")):
            raise NotComparable(
                "action",
                "заклинание с X, альтернативной стоимостью, рубашкой вверх или сговором не переносится в phase.rs",
            )
        oid = self.pg.oid_of(str(params["cast"]))
        self.take_priority(params.get("by"))
        action = next((a for a in self.g.actions() if a.kind == "CastSpell" and (a.data or {}).get("object_id") == oid),
                      None)
        if action is None:
            raise NotComparable("phase_error", f"phase.rs не дает сейчас разыграть {params['cast']}")
        self.apply(action)
        if "mode" in params:
            self._modes(params["mode"])
        self._targets(params.get("targets") or [], oid)
        self._pay()

    def _modes(self, mode: Any) -> None:
        """The modes of a modal spell: ours are 1-based, phase's indices 0-based (rule 700.2)."""
        wanted = sorted(int(m) - 1 for m in (mode if isinstance(mode, list) else [mode]))
        if self.g.waiting_for()["type"] != "ModeChoice":
            raise NotComparable("decision", "phase.rs не спрашивает режимы, которые указывает сценарий")
        action = next((a for a in self.options() if a.kind == "SelectModes"
                       and sorted((a.data or {}).get("indices") or []) == wanted), None)
        if action is None:
            raise NotComparable("decision", f"phase.rs не предлагает режимы {mode}")
        self.apply(action)

    def _targets(self, targets: list[Any], source: int) -> None:
        for i, value in enumerate(targets):
            if self.g.waiting_for()["type"] not in ("TargetSelection", "TriggerTargetSelection"):
                if self._chosen(source) == [self.pg.target_of(v) for v in targets[i:]]:
                    return  # phase chose the only legal target(s) itself: the same as the script's
                raise NotComparable("decision", "phase.rs не спрашивает цели, которые указывает сценарий")
            wanted = self.pg.target_of(value)
            action = next((a for a in self.options() if a.kind == "ChooseTarget"
                           and (a.data or {}).get("target") == wanted), None)
            if action is None:
                raise NotComparable("decision", f"phase.rs не предлагает цель {value}")
            self.apply(action)

    def _chosen(self, source: int) -> list[Any] | None:
        """The targets phase chose for the stack entry from ``source`` (a spell or an activated ability)."""
        for entry in self.g.stack():
            if entry.get("source_id") == source:
                data = (entry.get("kind") or {}).get("data") or {}
                ability = data.get("ability") or data
                return list(ability.get("targets") or [])
        return None

    def _pay(self) -> None:
        for _ in range(MAX_MOVES):
            kind = self.g.waiting_for()["type"]
            if kind in ("Priority", "GameOver"):
                return
            if kind in ("TargetSelection", "TriggerTargetSelection"):
                raise NotComparable("decision", "phase.rs спрашивает цель, которой нет в сценарии")
            self.answer()

    def activate(self, params: dict[str, Any]) -> None:
        oid = self.pg.oid_of(str(params["activate"]))
        self.take_priority(params.get("by"))
        offered = [
            a for a in self.g.actions() if a.kind == "ActivateAbility" and (a.data or {}).get("source_id") == oid
        ]
        if len(offered) != 1 or "ability" in params or "x" in params:
            what = f"{params['activate']}: какая из способностей в phase.rs имеется в виду, не сопоставлено"
            raise NotComparable("action", what)
        self.apply(offered[0])
        self._targets(params.get("targets") or [], oid)
        self._pay()

    def play_land(self, ref: str) -> None:
        oid = self.pg.oid_of(ref)
        self.settle()
        action = next((a for a in self.g.actions() if a.kind == "PlayLand" and (a.data or {}).get("object_id") == oid),
                      None)
        if action is None:
            raise NotComparable("phase_error", f"phase.rs не дает сыграть {ref}")
        self.apply(action)
        self.settle()

    def step(self, kind: str, params: dict[str, Any]) -> None:
        if kind == "expect":
            return  # checks in the middle of the game are ours; only the final state is compared
        if kind == "choose":
            self.choices.extend(params["choose"])
            return
        if "illegal" in params:
            return  # a rejected action changes nothing in our game; phase's own rejection is not compared
        self.choices.extend(params.get("choices", []))
        if kind == "cast":
            self.cast(params)
        elif kind == "resolve":
            value = params.get("resolve")
            self.resolve(None if value == "all" else int(value) if isinstance(value, int) else 1)
        elif kind == "pass":
            self.pass_once()
        elif kind == "advance":
            self.advance(str(params["advance"]))
        elif kind == "attack":
            self.advance_to_attack()
            self.declare_attackers(dict(params["attack"]))
        elif kind == "block":
            self.advance_to_block()
            self.declare_blockers(dict(params["block"]))
        elif kind == "activate":
            self.activate(params)
        elif kind == "play_land":
            self.play_land(str(params["play_land"]))
        else:
            raise NotComparable("action", f"у шага «{kind}» нет соответствия в phase.rs")

    def advance_to_attack(self) -> None:
        for _ in range(MAX_MOVES):
            self.settle()
            if self.g.waiting_for()["type"] == "DeclareAttackers":
                return
            pass_ = next((a for a in self.g.actions() if a.kind == "PassPriority"), None)
            if pass_ is None or self.g.phase in ("CombatDamage", "EndCombat", "PostCombatMain"):
                break
            self.apply(pass_)
        raise NotComparable("phase_error", "phase.rs не спросил атакующих")

    def advance_to_block(self) -> None:
        for _ in range(MAX_MOVES):
            self.settle()
            if self.g.waiting_for()["type"] == "DeclareBlockers":
                return
            pass_ = next((a for a in self.g.actions() if a.kind == "PassPriority"), None)
            if pass_ is None or self.g.phase in ("CombatDamage", "EndCombat", "PostCombatMain"):
                break
            self.apply(pass_)
        raise NotComparable("phase_error", "phase.rs не спросил блокирующих")


def _entry_id(entry: Any) -> Any:
    if isinstance(entry, dict):
        return entry.get("id", json.dumps(entry, sort_keys=True, default=str))
    return entry


# -- the comparison ------------------------------------------------------------------------------------
def compare(
    scenario: Scenario,
    db: CardDB,
    faces: dict[str, Any],
    options: RulesOptions | None = None,
    ours: dict[str, str] | None = None,
) -> Opinion:
    """phase's opinion of one scenario played under ``options`` (default: the scenario's own rules).

    ``ours`` replaces our final facts (a test gives a deliberately wrong one to see the comparison fail)."""
    from dataclasses import replace

    started = time.perf_counter()
    opinion = Opinion(scenario.id, "not_comparable")
    options = options if options is not None else scenario.options
    try:
        if options != RulesOptions():
            old = ", ".join(k for k, v in vars(options).items() if v)
            raise NotComparable("old_rules", f"правила прошлых лет ({old}), которых phase.rs не знает")
        players = scenario_players(scenario.setup)
        if tuple(players) != PLAYERS:  # the replay seats exactly alice and bob
            raise NotComparable("action", f"партия на игроков {', '.join(players)}: повтор в phase.rs — на двоих")
        if ours is None:
            game, result = play_ours(replace(scenario, options=options), db)
            if result.stopped_at:
                raise NotComparable("ours_incomplete", result.stopped_at)
            ours = facts_of_ours(game)
        pg = PhaseGame(scenario, db, faces)
        replay = Replay(pg)
        try:
            for step in scenario.steps:
                if replay.g.waiting_for()["type"] == "GameOver":
                    break
                replay.step(step.kind, step.params)
            replay.settle()
        except GameOver:
            pass
        theirs = pg.facts()
    except NotComparable as exc:
        opinion.reason, opinion.why = exc.reason, exc.why
        opinion.ms = (time.perf_counter() - started) * 1000
        return opinion
    except (EngineError, ValueError, KeyError) as exc:
        opinion.reason, opinion.why = "phase_error", f"{type(exc).__name__}: {exc}"
        opinion.ms = (time.perf_counter() - started) * 1000
        return opinion
    ambiguous = ambiguous_refs(scenario)
    ours = {k: v for k, v in ours.items() if _fact_ref(k) not in ambiguous}
    theirs = {k: v for k, v in theirs.items() if _fact_ref(k) not in ambiguous}
    for fact in sorted(set(ours) & set(theirs)):
        opinion.compared += 1
        if ours[fact] != theirs[fact]:
            opinion.differences.append(Difference(fact, ours[fact], theirs[fact]))
    over = theirs.get("winner", "none") != "none"
    for fact in sorted(set(ours) ^ set(theirs)):
        if fact.startswith("zone ") and not over:  # a card one engine still has and the other does not know
            opinion.compared += 1
            opinion.differences.append(Difference(fact, ours.get(fact, "none"), theirs.get(fact, "none")))
    unasked = [c for c in replay.choices if c.kind not in replay.asked]
    if opinion.differences and unasked:
        # our engine used every scripted answer; a kind of decision phase never asked is one it made itself, so
        # a difference may come of that choice rather than of the rules: not the same game
        opinion.differences = []
        opinion.reason = "decision"
        opinion.why = f"phase.rs не спрашивает решение «{unasked[0].kind}: {unasked[0].value}» и принимает его сам"
    elif opinion.differences:
        opinion.status = "disagrees"
    elif opinion.compared:
        opinion.status = "agrees"
    else:
        opinion.reason, opinion.why = "action", "нечего сравнивать"
    opinion.ms = (time.perf_counter() - started) * 1000
    return opinion


def ambiguous_refs(scenario: Scenario) -> set[str]:
    """Refs that name several cards of the setup (Alice's Forest and Bob's Forest): each engine's facts of such a
    ref are of whichever card it listed last, so they are not the same card's facts and are never compared."""
    seen: set[str] = set()
    twice: set[str] = set()
    for player in PLAYERS:
        for items in (scenario.setup.get(player) or {}).values():
            if not isinstance(items, list):
                continue
            for item in items:
                spec = {"card": item} if isinstance(item, str) else dict(item)
                ref = str(spec.get("ref", spec.get("card")))
                (twice if ref in seen else seen).add(ref)
    return twice


def _fact_ref(fact: str) -> str:
    """The card ref of a fact key ("zone Grizzly Bears" -> "Grizzly Bears"; "life bob" -> "bob")."""
    return fact.split(" ", 1)[1] if " " in fact else fact


def compare_all(scenarios: Iterable[Scenario], db: CardDB, faces: dict[str, Any]) -> list[Opinion]:
    """Every scenario's second opinion, under today's rules for a linked scenario (phase models only today's
    rules; the era replay is ours alone) and under its own ``rules:`` otherwise."""
    out = []
    for s in scenarios:
        options = RulesOptions() if s.rulings else s.options
        out.append(compare(s, db, faces, options))
    return out


def summary(opinions: Iterable[Opinion]) -> dict[str, Any]:
    found = list(opinions)
    counts = {s: sum(o.status == s for o in found) for s in STATUSES}
    reasons = {r: sum(o.reason == r for o in found if o.status == "not_comparable") for r in REASONS}
    return {"scenarios": len(found), **counts, "not_comparable_by_reason": {k: v for k, v in reasons.items() if v}}


def mtgjson_dir() -> Path:
    """Where the MTGJSON set files phase builds its printed cards from (``KB_MTGJSON_DIR``, else ../shared)."""
    import os

    from kb import paths

    return Path(os.environ.get("KB_MTGJSON_DIR", paths.PROJECT_ROOT.parent / "shared" / "mtgjson"))


def default_opinions(scenarios: Iterable[Scenario], db: CardDB) -> list[Opinion] | None:
    """Every scenario's second opinion, or None when the extra or the set files are not here (then nothing is
    claimed as confirmed)."""
    from kb import paths

    if not available() or not mtgjson_dir().is_dir():
        return None
    return compare_all(scenarios, db, printed_faces(mtgjson_dir(), paths.build_dir()))


def confirmed(verdicts: dict[str, Any], opinions: Iterable[Opinion]) -> set[str]:
    """Rulings confirmed by both engines: proven, holding today (phase plays today's rules), and every one of
    their scenarios agrees."""
    agree = {o.scenario for o in opinions if o.status == "agrees"}
    return {
        rid
        for rid, v in verdicts.items()
        if v.status == "verified"
        and v.currency is not None
        and v.currency.status in ("current", "terms")
        and v.scenarios
        and all(s in agree for s in v.scenarios)
    }
