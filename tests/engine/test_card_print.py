"""Card definitions are true to print: every definition against the printed card and its own texts.

What is checked, and how:

* **Texts.** Every definition (and each half of a split card) carries ``text_ru`` and ``text_en``; a card
  with no rules text at all (a vanilla creature: no keywords, no abilities) carries none.
* **Real or invented.** An inline card of a scenario whose name is neither in MTGJSON nor in
  ``data/glossary/card-names-en-ru.csv`` / ``extra-cards.csv`` (nor in ``PRINTED_ELSEWHERE``, the few real
  cards of other sets that the XMage transcriptions use) is ``invented: true``; an invented card never bears
  a name known to be real.
* **Every line accounted for** (``text_en`` of every definition; for a printed card it is the Oracle text,
  checked below). The text is split into ability lines at newlines (a modal spell's ``•`` lines belong to
  the line above). A line wholly in parentheses is reminder text and is no ability unless it states one
  (``({T}: Add {G}.)``, a basic land type's mana ability). A *keyword line* is a line (reminder text
  removed) made only of comma-separated keyword abilities (``Flying, lifelink``, ``Evoke {2}{G}{G}``,
  ``Champion an Elemental``, ``Enchant creature``; a keyword the vocabulary lacks, such as protection, is
  read as one too); each of its keywords must be a keyword of the
  definition (``Enchant`` is the definition's ``enchant:``) or be covered by a ``left_out`` item, and each
  keyword of the definition must stand on a keyword line. Every other line is an *ability line*, and
  ``ability lines == units of the definition + left_out items that are a whole line``, where the units are
  the definition's abilities counted as the printed text counts them: the spell's effect (modes included)
  is one (``effect_lines: N`` when it implements N paragraphs, each an ability by CR 113.2c: Remand's
  counter and its draw); each triggered, activated, loyalty and cost ability is one (an ability of an anchor
  word, ``anchor: Khans``, is a bullet of its choosing line: none); mana abilities with the
  same cost are one (``{T}: Add {R} or {G}.``); static abilities with the same ``affects`` and ``condition``
  are one (``it gets +1/+1 and has flying``), and a ``grant_abilities`` static is a line of its own unless a P/T or
  keyword static shares its ``affects`` (``it gets +1/+1 and has "..."``); ``instead_of_countering`` is a line of its
  own; an ability whose effect is ``{nothing: true}`` implements no
  line, so its line must be left out. A ``left_out`` text is a substring of one line: equal to the line
  (reminder text removed) it accounts for the whole line, shorter it notes a part the definition leaves out
  of a line it implements.
* **Against MTGJSON** (``../shared/mtgjson``, skipped when absent), for the definitions in ``data/cards/``
  and the inline cards of that name: mana cost, type line (supertypes, types, subtypes), P/T, loyalty,
  keywords (each keyword ability of the card — a keyword of MTGJSON's ``keywords`` list standing on a
  keyword line; ability words and keyword actions such as Battalion or Manifest are part of an ability
  line — is in the definition or left out; each keyword of the definition is one of the card's) and
  ``text_en`` equal to the Oracle ``text`` (whitespace normalised, otherwise exact); ``text_ru`` of a card
  the documents don't print equals MTGJSON's Russian printed text, where MTGJSON has one.
* **Against the source documents** (``data/sources/``, as the ingest pipeline reads their card blocks):
  cost and P/T equal the document's, or the difference is recorded in ``printing_errors`` (printed =
  the document, actual = the definition); a recorded error that the document does not show is an error
  too. ``text_ru`` is the document's text where the document prints the card.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from ingest.entries import Card, ParsedDocument
from rules_engine.cards import CardDB, load_card_db, parse_type_line
from rules_engine.layers import land_type_abilities
from rules_engine.mana import parse_cost
from rules_engine.objects import AbilityDef, CardDef
from rules_engine.scenario import load_scenarios
from rules_engine.vocabulary import KEYWORDS, PARAM_KEYWORDS

ROOT = Path(__file__).resolve().parents[2]
MTGJSON = ROOT / ".." / "shared" / "mtgjson"
SCENARIO_FILES = (
    sorted((ROOT / "data" / "scenarios").glob("*.yaml"))
    + sorted((ROOT / "tests" / "engine" / "cr").glob("*.yaml"))
    + sorted((ROOT / "tests" / "engine" / "external").glob("*.yaml"))
    + sorted((ROOT / "tests" / "engine" / "external" / "known-failures").glob("*.yaml"))
)
# Real cards printed outside the five sets that the external situations (tests/engine/external/ and its
# known-failures/: XMage, magical-vibes and magic-combat transcriptions, the CR's examples) and tests/engine/cr/
# define inline: neither the five sets' MTGJSON files nor the glossary know them (nor an official Russian name for
# them), so their texts are written from the Oracle text and can't be checked here.
PRINTED_ELSEWHERE = frozenset(
    {
        "Akroma, Angel of Fury",
        "Altar's Reap",
        "Angel of Mercy",
        "Animate Land",
        "Apostle's Blessing",
        "Ashcloud Phoenix",
        "Assault // Battery",
        "Auriok Champion",
        "Auriok Windwalker",
        "Balduvian Bears",
        "Batterskull",
        "Become Immense",
        "Birchlore Rangers",
        "Birds of Paradise",
        "Blind with Anger",
        "Blood Moon",
        "Bloodgift Demon",
        "Bog Wraith",
        "Branchsnap Lorian",
        "Bronze Sable",
        "Chameleon Colossus",
        "Chimeric Staff",
        "Clever Impersonator",
        "Clone",
        "Copy Artifact",
        "Crackleburr",
        "Cryptoplasm",
        "Cytoshape",
        "Delver of Secrets",
        "Diabolic Edict",
        "Dismember",
        "Disperse",
        "Divination",
        "Doom Blade",
        "Doomed Dissenter",
        "Doomwake Giant",
        "Dross Crocodile",
        "Dryad Arbor",
        "Dwarven Reinforcements",
        "Elite Inquisitor",
        "Elite Vanguard",
        "Elvish Regrower",
        "Emerald Charm",
        "Ethereal Forager",
        "Eviscerate",
        "Fatal Push",
        "Figure of Destiny",
        "Followed Footsteps",
        "Fork",
        "Game-Trail Changeling",
        "Geist of the Moors",
        "Ghost Quarter",
        "Ghostly Prison",
        "Giant Spider",
        "Giant Tortoise",
        "Glasspool Mimic",
        "Glen Elendra Archmage",
        "Goblin Assailant",
        "Goblin Roughrider",
        "Gray Ogre",
        "Grinning Demon",
        "Gut Shot",
        "Hateflayer",
        "Helpful Hunter",
        "Honor of the Pure",
        "Humility",
        "Huntmaster of the Fells",
        "Icefeather Aven",
        "Impact Tremors",
        "Increasing Savagery",
        "Inkmoth Nexus",
        "Innocent Blood",
        "Jace, Unraveler of Secrets",
        "Jace, the Mind Sculptor",
        "Jade Mage",
        "Juggernaut",
        "Karumonix, the Rat King",
        "Kiora, the Crashing Wave",
        "Kruin Outlaw",
        "Leonin Scimitar",
        "Life and Limb",
        "Lightning Crafter",
        "Llanowar Elves",
        "Long-Forgotten Gohei",
        "Maro",
        "Marrow-Gnawer",
        "Melira, Sylvok Outcast",
        "Memnite",
        "Merfolk Trickster",
        "Mirri, Cat Warrior",
        "Moonmist",
        "Nightmare",
        "Novijen Sages",
        "Nylea, Keen-Eyed",
        "Oath of Gideon",
        "Olivia Voldaren",
        "Orb of Dreams",
        "Ornithopter",
        "Ovinize",
        "Palace Siege",
        "Pillarfield Ox",
        "Pine Walker",
        "Ponyback Brigade",
        "Privileged Position",
        "Public Execution",
        "Pyroclasm",
        "Quicksilver Dragon",
        "Quirion Elves",
        "Rabid Bloodsucker",
        "Raging Goblin",
        "Ranger's Guile",
        "Ravenous Rats",
        "Remand",
        "Renewed Faith",
        "Rootwater Commando",
        "Ruby Medallion",
        "Runeclaw Bear",
        "Sagu Mauler",
        "Scarwood Treefolk",
        "Seat of the Synod",
        "Shadowfeed",
        "Shatter",
        "Shielded Passage",
        "Sigiled Paladin",
        "Silence the Believers",
        "Silvercoat Lion",
        "Skyshroud Behemoth",
        "Soldier of the Pantheon",
        "Sorin's Thirst",
        "Sorin, Lord of Innistrad",
        "Sorin, Solemn Visitor",
        "Spitting Image",
        "Stigma Lasher",
        "Supreme Verdict",
        "Swords to Plowshares",
        "The Ur-Dragon",
        "Thundering Giant",
        "Thunderscape Familiar",
        "Tine Shrike",
        "True Conviction",
        "Ulamog's Crusher",
        "Unstable Shapeshifter",
        "Urborg, Tomb of Yawgmoth",
        "Vampire Spawn",
        "Vault Skirge",
        "Venser, the Sojourner",
        "Vesuvan Doppelganger",
        "Village Ironsmith",
        "Virulent Wound",
        "Wall of Omens",
        "Wandering Ones",
        "Willbender",
        "Wind Drake",
        "Wurmcoil Engine",
        "Yavimaya, Cradle of Growth",
        "Young Wolf",
        "Zoetic Cavern",
        "Zombify",
    }
)
REMINDER = re.compile(r"\s*\([^()]*\)")
OUR_KEYWORDS = {k.replace("_", " ") for k in KEYWORDS | PARAM_KEYWORDS} | {"enchant"}
# Printed keyword abilities the vocabulary lacks, so that a line listing them still reads as a keyword line (and
# each of them must then be left out); for the cards MTGJSON has, its keyword list does this.
UNMODELLED_KEYWORDS = frozenset({"protection"})


@cache
def library() -> dict[str, CardDef]:
    return {name: with_rules_abilities(card) for name, card in load_card_db(ROOT / "data" / "cards").cards.items()}


def with_rules_abilities(card: CardDef) -> CardDef:
    """A basic land type's mana ability is the rules' (305.6), not the definition's: it counts as implemented."""
    extra = land_type_abilities(card.types, card.subtypes)
    return replace(card, abilities=(*card.abilities, *extra)) if extra else card


@cache
def inline_cards() -> tuple[tuple[str, CardDef], ...]:
    """(scenario file, definition) for every card defined under a scenario's ``cards:``."""
    db = CardDB(library().values())
    return tuple(
        (path.name, with_rules_abilities(card))
        for path in SCENARIO_FILES
        for s in load_scenarios(path, db)
        for card in s.cards
    )


def all_definitions() -> Iterator[tuple[str, CardDef]]:
    """(where, definition) for the library, the inline cards, split halves and back faces."""
    items = [(card.source, card) for card in library().values()]
    items += [(f"{where}: {card.name}", card) for where, card in inline_cards()]
    for where, card in items:
        yield where, card
        for half in card.halves:
            yield f"{where} / {half.name}", half
        if card.back is not None:
            yield f"{where} / {card.back.name}", card.back


@cache
def mtgjson_cards() -> dict[str, dict[str, Any]]:
    cards: dict[str, dict[str, Any]] = {}
    for path in sorted(MTGJSON.glob("*.json")):
        for card in json.loads(path.read_text(encoding="utf-8"))["data"]["cards"]:
            cards.setdefault(card["name"], card)
    return cards


@cache
def glossary_names() -> frozenset[str]:
    names: set[str] = set()
    for name in ("card-names-en-ru.csv", "extra-cards.csv"):
        with (ROOT / "data" / "glossary" / name).open(encoding="utf-8", newline="") as handle:
            names.update(row["name_en"] for row in csv.DictReader(handle))
    return frozenset(names)


def norm(text: str) -> str:
    return "\n".join(" ".join(line.split()) for line in text.strip().splitlines() if line.strip())


def is_vanilla(card: CardDef) -> bool:
    return not card.keywords and not card.abilities and not card.halves and not card.left_out


# --- reading a text into lines ----------------------------------------------------------------------


def ability_lines(text: str) -> list[str]:
    """The text's lines, a modal spell's ``•`` lines joined to the line above."""
    lines: list[str] = []
    for raw in norm(text).splitlines():
        if raw.startswith("•") and lines:
            lines[-1] += "\n" + raw
        else:
            lines.append(raw)
    return lines


def keyword_of(item: str, extra: frozenset[str]) -> str | None:
    """``"Champion an Elemental"`` -> ``"champion"``; None when ``item`` is not a keyword ability."""
    words = item.lower().split()
    if not words:
        return None
    for n in (2, 1):
        head = " ".join(words[:n])
        if len(words) >= n and (head in OUR_KEYWORDS or head in UNMODELLED_KEYWORDS or head in extra):
            return head.replace(" ", "_")
    if len(words) == 1 and words[0].endswith("walk") and len(words[0]) > 4:
        return "landwalk"
    return None


def keywords_of_line(line: str, extra: frozenset[str]) -> list[str] | None:
    """The keywords of a keyword line, or None when the line is not one."""
    bare = REMINDER.sub("", line).strip()
    if not bare or bare.endswith("."):
        return None  # a sentence, not a list of keywords
    found = [keyword_of(part, extra) for part in bare.split(", ")]
    return [k for k in found if k] if all(found) else None


def is_reminder_only(line: str) -> bool:
    return not REMINDER.sub("", line).strip()


def units(card: CardDef) -> int:
    """How many printed ability lines the definition implements (see the module docstring)."""
    count = 0
    mana_costs: set[str] = set()
    static_affects: set[str] = set()
    gets: set[str] = set()  # the keys of P/T and keyword statics: "gets +1/+1 and has ..."
    granting: list[str] = []  # the keys of grant_abilities statics
    for ability in card.abilities:
        if _does_nothing(ability):
            continue
        if "anchor" in ability.spec:
            continue  # "• Khans — [ability]": a bullet of the line that chooses the anchor word (614.12c)
        if ability.kind == "spell" and ability.name == "aura":
            continue  # the Enchant keyword line
        if ability.kind == "cost" and ability.name == "x_at_least":
            continue  # "X can't be 0.": a sentence of the spell's own paragraph (Mind Grind)
        if ability.kind == "spell":
            count += card.effect_lines  # one paragraph, unless the definition says its effect spans more
            continue
        if ability.kind == "activated" and "mana" in ability.spec:
            # one line per cost ("{T}: Add {W} or {U}"); a spending restriction (106.6) is a line's own
            mana_costs.add(str(ability.spec["activated"]) + repr(ability.spec.get("spend_only")))
        elif ability.kind == "static" and ability.spec.get("static") in (
            "choose_as_enters", "exile_as_enters", "instead_of_countering"
        ):
            count += 1  # "As this enters, choose / exile ...": a line of its own (614.12), whatever else is static
        elif ability.kind == "static":
            value = ability.spec.get("value")  # a static on players ("Players can't gain life.") affects them
            affects = ("players", value["players"]) if isinstance(value, dict) and "players" in value else None
            key = repr((affects or ability.spec.get("affects"), ability.spec.get("condition")))
            if ability.spec.get("static") == "grant_abilities":
                granting.append(key)  # 'Equipped creature has "..."': see below
            else:
                static_affects.add(key)
                if ability.spec.get("static") in ("pump", "grant", "set_pt"):
                    gets.add(key)
        else:
            count += 1
    # a granted ability is a line of its own, unless it shares one with what the creature gets ("it gets +1/+1 and
    # has '...'"): "doesn't untap" and "has '...'" of one Aura are two lines
    count += sum(1 for key in granting if key not in gets)
    return count + len(mana_costs) + len(static_affects)


def _does_nothing(ability: AbilityDef) -> bool:
    return ability.kind in ("spell", "activated", "triggered") and ability.spec.get("effect") == {"nothing": True}


def line_problems(card: CardDef, card_keywords: frozenset[str] = frozenset()) -> list[str]:
    """What in ``text_en`` the definition neither implements nor leaves out (empty: all accounted for)."""
    problems: list[str] = []
    lines = ability_lines(card.text_en)
    left = [norm(text) for text, _ in card.left_out]
    for text in left:
        if not any(text in line for line in lines):
            problems.append(f"left_out text {text!r} is not part of any line of text_en")
    has_aura = any(a.kind == "spell" and a.name == "aura" for a in card.abilities)
    on_lines: set[str] = set()
    ability_count = 0
    ability_only: list[str] = []
    for line in lines:
        keywords = keywords_of_line(line, card_keywords)
        if keywords is not None:
            for key in keywords:
                on_lines.add(key)
                done = has_aura if key == "enchant" else key in card.keywords
                if not done and not any(text in line for text in left):
                    problems.append(f"keyword {key!r} of {line!r} is neither in the definition nor left out")
        elif not is_reminder_only(line) or ":" in line:
            ability_count += 1
            ability_only.append(line)
    for key in card.keywords:
        if key not in on_lines:
            problems.append(f"keyword {key!r} of the definition is on no keyword line of text_en")
    # a whole ability line left out (a keyword line's left-out keywords are accounted for above)
    whole = sum(1 for text in left if any(text == REMINDER.sub("", line).strip() for line in ability_only))
    if ability_count != units(card) + whole:
        problems.append(
            f"text_en has {ability_count} ability lines; the definition implements {units(card)} "
            f"and left_out covers {whole} whole lines"
        )
    return problems


# --- the definitions' own texts ---------------------------------------------------------------------


def test_every_definition_carries_its_texts() -> None:
    checked, missing = 0, []
    for where, card in all_definitions():
        checked += 1
        if is_vanilla(card):
            if card.text_en or card.text_ru:
                missing.append(f"{where}: a card without abilities has no rules text")
        elif not card.text_en or not card.text_ru:
            missing.append(f"{where}: {card.name} needs text_ru and text_en")
    assert checked >= 200
    assert not missing, "\n".join(missing)


def test_inline_cards_are_real_or_marked_invented() -> None:
    real = glossary_names() | PRINTED_ELSEWHERE | set(mtgjson_cards() if MTGJSON.is_dir() else ())
    wrong = []
    for where, card in inline_cards():
        if card.name not in real and not card.invented:
            wrong.append(f"{where}: {card.name!r} is no printed card known here: mark it invented: true")
        if card.name in real and card.invented:
            wrong.append(f"{where}: {card.name!r} is a real card, not invented")
    assert len(inline_cards()) >= 100
    assert not wrong, "\n".join(wrong)


def test_every_line_of_the_text_is_implemented_or_left_out() -> None:
    checked, problems = 0, []
    for where, card in all_definitions():
        if is_vanilla(card) or card.halves:
            continue
        checked += 1
        problems += [f"{where}: {card.name}: {p}" for p in line_problems(card)]
    assert checked >= 150
    assert not problems, "\n".join(problems)


def test_line_check_catches_a_dropped_ability() -> None:
    """The accounting above fails when a definition drops a line without saying so."""
    weave = library()["Vexing Shusher"]
    assert weave.left_out and not line_problems(weave)
    silent = replace(weave, left_out=())
    assert any("ability lines" in p for p in line_problems(silent))
    stray = replace(weave, left_out=(*weave.left_out, ("Counter target spell.", "not on this card")))
    assert any("not part of any line" in p for p in line_problems(stray))
    remand = next(card for _, card in inline_cards() if card.name == "Remand")
    assert remand.effect_lines == 2 and not line_problems(remand)
    assert any("ability lines" in p for p in line_problems(replace(remand, effect_lines=1)))
    serra = library()["Serra Angel"]
    lost = replace(serra, keywords={"flying": 1})
    assert any("'vigilance'" in p for p in line_problems(lost))


# --- against MTGJSON ----------------------------------------------------------------------------------

needs_mtgjson = pytest.mark.skipif(not MTGJSON.is_dir(), reason="../shared/mtgjson is not here")


def printed_keywords(card: dict[str, Any]) -> frozenset[str]:
    return frozenset(k.lower() for k in card.get("keywords") or ())


def mtgjson_mismatches(card: CardDef, printed: dict[str, Any]) -> list[str]:
    out: list[str] = []
    cost = parse_cost(printed["manaCost"]) if printed.get("manaCost") else None
    if card.cost != cost:
        out.append(f"cost {card.cost} != {printed.get('manaCost')}")
    if (card.supertypes, card.types, card.subtypes) != parse_type_line(printed["type"]):
        out.append(f"type line differs from {printed['type']!r}")
    pt = (str(card.power), str(card.toughness)) if card.power is not None else (None, None)
    defined = any(a.spec.get("static") == "defines_pt" for a in card.abilities)  # "*" is 0 plus its ability
    want = tuple("0" if v == "*" and defined else v for v in (printed.get("power"), printed.get("toughness")))
    if pt != want:
        out.append(f"P/T {pt} != {(printed.get('power'), printed.get('toughness'))}")
    loyalty = str(card.loyalty) if card.loyalty is not None else None
    if loyalty != printed.get("loyalty"):
        out.append(f"loyalty {loyalty} != {printed.get('loyalty')}")
    if norm(card.text_en) != norm(printed.get("text") or ""):
        out.append(f"text_en differs from the Oracle text:\n{printed.get('text')}")
    names = printed_keywords(printed)
    for key in card.keywords:
        spoken = key.replace("_", " ")
        if spoken not in names and not (key == "landwalk" and any(n.endswith("walk") for n in names)):
            out.append(f"keyword {key!r} is not one of the card's {sorted(names)}")
    out += line_problems(card, names)
    return out


@needs_mtgjson
def test_definitions_match_mtgjson() -> None:
    printed = mtgjson_cards()
    items = [(c.source, c) for c in library().values()] + [(w, c) for w, c in inline_cards()]
    checked, wrong = 0, []
    for where, card in items:
        if card.name in printed and not card.invented:
            checked += 1
            wrong += [f"{where}: {card.name}: {m}" for m in mtgjson_mismatches(card, printed[card.name])]
    assert checked >= 60
    assert not wrong, "\n".join(wrong)


@needs_mtgjson
def test_mtgjson_check_can_fail() -> None:
    """A wrong cost, P/T, type or text is caught (the check is not vacuous)."""
    printed = mtgjson_cards()["Kulrath Knight"]
    knight = library()["Kulrath Knight"]
    assert not mtgjson_mismatches(knight, printed)
    for change in (
        {"cost": parse_cost("{3}{B}{R}")},
        {"power": 4},
        {"subtypes": frozenset({"Elemental"})},
        {"text_en": knight.text_en.replace("block", "attack")},
        {"keywords": {**knight.keywords, "haste": 1}},
    ):
        assert mtgjson_mismatches(replace(knight, **change), printed), change


def russian_text(card: dict[str, Any]) -> str | None:
    for foreign in card.get("foreignData") or ():
        if foreign.get("language") == "Russian":
            return foreign.get("text")
    return None


@needs_mtgjson
def test_russian_text_is_the_printed_one(parsed_seeds: list[ParsedDocument]) -> None:
    """``text_ru`` of a card the documents don't print is MTGJSON's Russian printed text, where it has one."""
    in_documents = {c.name_en for c in document_cards(parsed_seeds)}
    printed = mtgjson_cards()
    items = [(c.source, c) for c in library().values()] + [(w, c) for w, c in inline_cards()]
    checked, wrong = 0, []
    for where, card in items:
        ru = russian_text(printed[card.name]) if card.name in printed else None
        if ru is None or card.name in in_documents or card.invented:
            continue
        checked += 1
        if norm(card.text_ru) != norm(ru):
            wrong.append(f"{where}: {card.name}: text_ru differs from the Russian printing:\n{ru}")
    assert checked >= 30
    assert not wrong, "\n".join(wrong)


# --- against the source documents ---------------------------------------------------------------------


def document_cards(parsed_seeds: list[ParsedDocument]) -> list[Card]:
    return [e for doc in parsed_seeds for e in doc.entries() if isinstance(e, Card) and e.name_en]


def document_mismatches(card: CardDef, printed: Card) -> list[str]:
    """Differences of cost and P/T between the document and the definition, not recorded as errors."""
    found: set[tuple[str, str]] = set()
    doc_cost = parse_cost(printed.mana_cost) if printed.mana_cost else None
    if doc_cost != card.cost:
        found.add((printed.mana_cost or "", str(card.cost or "")))
    if printed.power is not None:
        pt = f"{printed.power}/{printed.toughness}"
        if pt != f"{card.power}/{card.toughness}":
            found.add((pt, f"{card.power}/{card.toughness}"))
    recorded = set(card.printing_errors)
    out = [f"the document prints {p!r}, the card is {a!r}: record it in printing_errors" for p, a in found - recorded]
    out += [f"printing_errors {p!r} -> {a!r} is not what the document shows" for p, a in recorded - found]
    text = [REMINDER.sub("", line).strip() for line in norm(card.text_ru).splitlines()]
    if [t for t in text if t] != [norm(t) for t in printed.rules_text]:
        out.append(f"text_ru differs from the document's text: {list(printed.rules_text)}")
    return out


def test_definitions_match_the_documents(parsed_seeds: list[ParsedDocument]) -> None:
    checked, wrong, errors = 0, [], 0
    for printed in document_cards(parsed_seeds):
        card = library().get(printed.name_en or "")
        if card is None:
            continue
        checked += 1
        errors += len(card.printing_errors)
        wrong += [f"{card.source}: {card.name}: {m} ({printed.source})" for m in document_mismatches(card, printed)]
    assert checked >= 25
    assert errors >= 1  # the LRW document's Cloudthresher (3/3; the card is 7/7)
    assert not wrong, "\n".join(wrong)


def test_document_check_can_fail(parsed_seeds: list[ParsedDocument]) -> None:
    printed = next(c for c in document_cards(parsed_seeds) if c.name_en == "Cloudthresher")
    thresher = library()["Cloudthresher"]
    assert not document_mismatches(thresher, printed)
    assert document_mismatches(replace(thresher, printing_errors=()), printed)
    assert document_mismatches(replace(thresher, cost=parse_cost("{2}{G}{G}")), printed)


def test_effect_lines_is_checked_on_load() -> None:
    """``effect_lines`` is a whole number from 1, and only on a definition with a spell's effect."""
    from rules_engine.cards import parse_card
    from rules_engine.errors import CardDefinitionError

    spell = {"name_ru": "Т", "cost": "{U}", "type": "Instant", "effect": {"draw": {"n": 1, "player": "you"}}}
    assert parse_card("Two Lines", {**spell, "effect_lines": 2}, "x.yaml:1").effect_lines == 2
    assert parse_card("One Line", spell, "x.yaml:1").effect_lines == 1
    for bad in (0, "2", True):
        with pytest.raises(CardDefinitionError, match=r"x\.yaml:1.*effect_lines"):
            parse_card("Bad", {**spell, "effect_lines": bad}, "x.yaml:1")
    with pytest.raises(CardDefinitionError, match="needs the spell's effect"):
        parse_card("No Spell", {"name_ru": "Т", "type": "Artifact", "effect_lines": 2}, "x.yaml:1")
