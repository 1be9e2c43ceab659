"""Game objects, their characteristics and the players.

A *card* (``Card``) is the physical thing a scenario names; a *game object* (``GameObject``) is that card in
one zone. Every zone change makes a new object with a new ``oid`` (rule 400.7): it remembers nothing of its
previous existence, while ``Card.ref`` lets a scenario keep talking about the same physical card.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from rules_engine.mana import ManaCost

ZONES = ("library", "hand", "battlefield", "graveyard", "exile", "stack")
PERMANENT_TYPES = frozenset({"Artifact", "Creature", "Enchantment", "Land", "Planeswalker"})


@dataclass(frozen=True)
class AbilityDef:
    """One ability from a card definition (or granted by an effect).

    ``kind`` is ``triggered``, ``activated``, ``static`` or ``spell`` (an instant's or sorcery's effect).
    ``spec`` keeps the rest of the definition (trigger event, condition, cost, targets, effect, ...).
    """

    kind: str
    name: str
    spec: dict[str, Any]
    keyword: str | None = None  # the keyword this ability comes from, e.g. "persist"

    def __hash__(self) -> int:
        return hash((self.kind, self.name, self.keyword, id(self.spec)))

    def __deepcopy__(self, memo: dict[int, Any]) -> AbilityDef:
        return self  # definitions never change during a game: a copied game shares them


@dataclass
class CardDef:
    """A card definition: printed characteristics plus abilities in the engine's vocabulary."""

    name: str
    name_ru: str
    cost: ManaCost | None
    types: frozenset[str]
    subtypes: frozenset[str] = frozenset()
    supertypes: frozenset[str] = frozenset()
    colors: frozenset[str] | None = None  # a colour indicator; None: colours come from the mana cost
    power: int | None = None
    toughness: int | None = None
    loyalty: int | None = None
    keywords: dict[str, Any] = field(default_factory=dict)
    abilities: tuple[AbilityDef, ...] = ()
    source: str = ""  # file:line of the definition
    halves: tuple[CardDef, ...] = ()  # a split card's two halves (the card itself has them combined, 709.4)
    back: CardDef | None = None  # a double-faced card's back face
    # What a reader of a proof sees: the rules text as printed (Russian) and in English (Oracle wording for
    # printed cards, written in that style for invented ones), and the honesty notes of the definition.
    text_ru: str = ""
    text_en: str = ""
    invented: bool = False  # a test card that was never printed
    left_out: tuple[tuple[str, str], ...] = ()  # (printed sentence, why the definition leaves it out)
    printing_errors: tuple[tuple[str, str], ...] = ()  # (what a document prints wrongly, the card's truth)
    effect_lines: int = 1  # paragraphs of the text that the spell's effect implements (113.2c)

    def __deepcopy__(self, memo: dict[int, Any]) -> CardDef:
        return self  # a definition never changes during a game: a copied game (illegal: steps) shares it

    @property
    def printed_colors(self) -> frozenset[str]:
        if self.colors is not None:
            return self.colors
        return self.cost.colors if self.cost else frozenset()


@dataclass
class Characteristics:
    """What an object is right now, after continuous effects (the result of the layer system)."""

    name: str
    name_ru: str
    cost: ManaCost | None
    types: set[str]
    subtypes: set[str]
    supertypes: set[str]
    colors: set[str]
    power: int | None
    toughness: int | None
    loyalty: int | None
    keywords: dict[str, Any]
    abilities: list[AbilityDef]
    controller: str = ""
    front_mana_value: int | None = None  # a transformed permanent's back face (rule 202.3b)
    x_value: int = 0  # rule 202.3e: the X chosen for a spell being cast or on the stack

    @property
    def mana_value(self) -> int:
        """Rule 202.3: from the mana cost; a nonmodal double-faced permanent's back face uses its front face's.
        Rule 202.3e: a spell on the stack counts each {X} of its cost as the number chosen for it (0 elsewhere)."""
        if self.front_mana_value is not None:
            return self.front_mana_value
        if self.cost is None:
            return 0
        return self.cost.with_x(self.x_value).mana_value if self.x_value else self.cost.mana_value

    @classmethod
    def of(cls, d: CardDef, controller: str = "") -> Characteristics:
        return cls(
            controller=controller,
            name=d.name,
            name_ru=d.name_ru,
            cost=d.cost,
            types=set(d.types),
            subtypes=set(d.subtypes),
            supertypes=set(d.supertypes),
            colors=set(d.printed_colors),
            power=d.power,
            toughness=d.toughness,
            loyalty=d.loyalty,
            keywords=dict(d.keywords),
            abilities=list(d.abilities),
        )

    def copy(self) -> Characteristics:
        return replace(
            self,
            types=set(self.types),
            subtypes=set(self.subtypes),
            supertypes=set(self.supertypes),
            colors=set(self.colors),
            keywords=dict(self.keywords),
            abilities=list(self.abilities),
        )

    def is_(self, card_type: str) -> bool:
        return card_type in self.types

    def keyword_count(self, keyword: str) -> int:
        value = self.keywords.get(keyword)
        if value is None:
            return 0
        return value if isinstance(value, int) and not isinstance(value, bool) else 1


@dataclass
class Card:
    """A physical card (or token) that a scenario can name by ``ref``."""

    ref: str
    definition: CardDef
    owner: str
    is_token: bool = False


FACE_DOWN = CardDef(name="", name_ru="", cost=None, types=frozenset({"Creature"}), power=2, toughness=2)


@dataclass
class GameObject:
    """A card in one zone (or a spell / ability copy on the stack), with its status."""

    oid: int
    card: Card
    zone: str
    controller: str
    timestamp: int
    tapped: bool = False
    face_down: bool = False
    manifested: bool = False
    transformed: bool = False  # a double-faced permanent with its back face up
    counters: Counter[str] = field(default_factory=Counter)
    damage: int = 0
    deathtouch_damage: bool = False
    attached_to: int | None = None
    steady_controller: str | None = None  # who has controlled it continuously since their turn began
    regeneration_shields: int = 0
    skips_next_untap: bool = False  # it doesn't untap during its controller's next untap step (502.3)
    phased_out: bool = False
    seen_by: set[str] = field(default_factory=set)  # players who have controlled this permanent
    # on the stack
    targets: list[Any] = field(default_factory=list)
    mode: int | None = None
    modes: tuple[int, ...] = ()  # for "choose two" (Commands)
    division: tuple[int, ...] = ()  # rule 601.2d: the damage announced for each target, in order (divide.py)
    x: int = 0
    mana_spent: Counter[str] = field(default_factory=Counter)
    is_copy: bool = False
    paid_additional: tuple[str, ...] = ()
    entered_x: int = 0  # rule 107.3m: the X chosen for the spell that became this permanent (its own X is 0)
    cast_from: str = ""  # the zone a spell was cast from (rebound: only from the hand, rule 702.88a)
    chosen: str | None = None  # rule 614.12c: the anchor word chosen as this permanent entered (anchors.py)
    half: int | None = None  # the half of a split card being cast (709.3): only its characteristics exist
    # combat
    attacking: str | int | None = None  # a player name or a planeswalker oid
    blocking: list[int] = field(default_factory=list)
    blocked: bool = False
    damage_order: list[int] = field(default_factory=list)

    @property
    def owner(self) -> str:
        return self.card.owner

    @property
    def definition(self) -> CardDef:
        """The card's definition; for a split card being cast, the chosen half's (rule 709.3a-b)."""
        definition = self.card.definition
        if self.half is not None and definition.halves:
            return definition.halves[self.half]
        return definition


@dataclass(frozen=True)
class Snapshot:
    """Last known information about an object as it last existed in a zone (rule 608.2h)."""

    oid: int
    card: Card
    zone: str
    controller: str
    chars: Characteristics
    counters: Counter[str]
    damage: int
    tapped: bool
    face_down: bool
    attached_to: int | None = None
    values: CardDef | None = None  # its copiable values (layer 1), for a copy made after it left (707.2, 608.2h)


@dataclass
class Team:
    """A Two-Headed Giant team (rule 810): its players share one life total (810.4, 810.9) and, under today's
    rules, their poison counters (810.10)."""

    members: tuple[str, ...]
    life: int = 30
    poison: int = 0
    shares_poison: bool = True


@dataclass
class Player:
    """A player: zones, mana pool, counters (rule 122.1: poison, experience, energy, ...), and, in Two-Headed
    Giant, the team whose life total (and poison counters) are the player's own (810.9a, 810.10a)."""

    name: str
    own_life: int = 20
    library: list[GameObject] = field(default_factory=list)
    hand: list[GameObject] = field(default_factory=list)
    graveyard: list[GameObject] = field(default_factory=list)
    exile: list[GameObject] = field(default_factory=list)
    command: list[GameObject] = field(default_factory=list)  # emblems (rule 114.1)
    mana_pool: Counter[str] = field(default_factory=Counter)
    # rule 106.6: mana that can be spent only on some things, one (type, restriction, source) per mana (spending.py)
    restricted_mana: list[tuple[str, dict[str, Any], str]] = field(default_factory=list)
    counters: Counter[str] = field(default_factory=Counter)
    lost: bool = False
    left: bool = False  # has left the game (rule 800.4a): its objects are gone, the game goes on
    drew_from_empty_library: bool = False
    land_plays: int = 0
    extra_land_plays: int = 0  # rule 305.2: "you may play an additional land this turn" (landplays.py), this turn
    team: Team | None = None

    @property
    def life(self) -> int:
        return self.team.life if self.team is not None else self.own_life

    @life.setter
    def life(self, value: int) -> None:  # rule 810.9: the result is applied to the team's shared life total
        if self.team is not None:
            self.team.life = value
        else:
            self.own_life = value

    @property
    def poison(self) -> int:
        if self.team is not None and self.team.shares_poison:
            return self.team.poison
        return self.counters.get("poison", 0)

    @poison.setter
    def poison(self, value: int) -> None:  # rule 810.10: the poison counters are shared by the team
        if self.team is not None and self.team.shares_poison:
            self.team.poison = value
        elif value:
            self.counters["poison"] = value
        else:
            self.counters.pop("poison", None)

    def counter_count(self, kind: str) -> int:
        return self.poison if kind == "poison" else self.counters.get(kind, 0)

    def zone(self, name: str) -> list[GameObject]:
        zone: list[GameObject] = getattr(self, name)
        return zone


@dataclass
class ContinuousEffect:
    """One continuous effect: what it does (``kind`` + ``data``), to whom, since when, until when."""

    layer: str
    kind: str
    data: dict[str, Any]
    timestamp: int
    affected: frozenset[int] = frozenset()
    duration: str = "end_of_turn"  # or "permanent"
    source_oid: int | None = None
    controller: str = ""
    filter: dict[str, Any] | None = field(default=None)
    ability: AbilityDef | None = None  # the static ability generating it (its existence, rule 613.8a)
