"""Russian narration of the game: who cast what, what triggered, which state-based actions applied.

One glossary for every word a reader of a proof sees, in the documents' own Magic terminology (tap
«повернуть», untap «развернуть», turn face up «перевернуть рубашкой вниз», face down «рубашкой вверх», «на
поле битвы»). Nothing internal leaks: a card is named by its Russian name (a scenario's ``ref`` becomes a
number when the scenario has several copies of a card), an ability by its ``name_ru``, its keyword or a
description, a keyword by its Russian name.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from rules_engine.glossary import (  # noqa: F401  (re-exported: the narration's vocabulary)
    ABILITY_NAMES,
    ACTIVATED_KEYWORDS,
    ALTERNATIVES,
    ATTEMPTS,
    COLOR_NAMES,
    COUNTER_NAMES,
    KEYWORD_NAMES,
    PLAYER_GENITIVE,
    PLAYER_NAMES,
    PROTECTION_COLORS,
    PROTECTION_TYPES,
    STEP_NAMES,
    SUBTYPE_NAMES,
    SUPERTYPE_NAMES,
    TARGET_KINDS,
    TRIGGER_TEXT,
    TYPE_NAMES,
    ZONE_INTO,
    ZONE_NAMES,
    ZONE_WHERE,
)
from rules_engine.objectcosts import object_cost

PLAYER_IDS = tuple(PLAYER_NAMES)  # the players a scenario may declare

if TYPE_CHECKING:
    from rules_engine.objects import Card, CardDef, GameObject, Snapshot
    from rules_engine.state import GameState as Game

TYPE_ORDER = ("Tribal", "Artifact", "Enchantment", "Land", "Planeswalker", "Creature", "Instant", "Sorcery")
_GENDER = {  # the gender of the last type word, which the adjectives before it agree with
    "Creature": 2,
    "Artifact": 0,
    "Enchantment": 3,
    "Land": 1,
    "Planeswalker": 0,
    "Instant": 2,
    "Sorcery": 2,
}
_ADJECTIVES = {  # masculine, feminine, neuter, plural
    "Legendary": ("Легендарный", "Легендарная", "Легендарное", "Легендарные"),
    "Basic": ("Базовый", "Базовая", "Базовое", "Базовые"),
    "Snow": ("Снежный", "Снежная", "Снежное", "Снежные"),
    "World": ("Мировой", "Мировая", "Мировое", "Мировые"),
    "Tribal": ("Племенной", "Племенная", "Племенное", "Племенные"),
    "Artifact": ("Артефактный", "Артефактная", "Артефактное", "Артефактные"),
}


def types_text(types: Iterable[str], supertypes: Iterable[str] = ()) -> str:
    """«Легендарное Артефактное Существо»: the card types in Russian, adjectives agreeing with the last one."""
    ordered = sorted(types, key=lambda t: TYPE_ORDER.index(t) if t in TYPE_ORDER else len(TYPE_ORDER))
    if not ordered:
        return ""
    last = ordered[-1]
    gender = _GENDER.get(last, 0)
    words = [_ADJECTIVES[s][gender] if s in _ADJECTIVES else SUPERTYPE_NAMES.get(s, s) for s in sorted(supertypes)]
    words += [_ADJECTIVES[t][gender] if t in _ADJECTIVES else TYPE_NAMES.get(t, t) for t in ordered[:-1]]
    words.append(TYPE_NAMES.get(last, last))
    return " ".join(words)


def subtypes_text(subtypes: Iterable[str]) -> str:
    return " ".join(SUBTYPE_NAMES.get(s, s) for s in subtypes)


def protection_text(quality: Any) -> str:
    """«Защита от красного», «Защита от существ», «Защита от всего»."""
    if quality == "everything" or (isinstance(quality, dict) and quality.get("everything")):
        return "Защита от всего"
    parts = [PROTECTION_COLORS[c] for c in quality.get("colors", ())]
    parts += [PROTECTION_TYPES.get(t, t) for t in quality.get("types", ())]
    parts += [f"подтипа «{subtypes_text([s])}»" for s in quality.get("subtypes", ())]
    if "mana_value_at_least" in quality:
        parts.append(f"объектов с конвертированной мана-стоимостью {quality['mana_value_at_least']} или больше")
    if quality.get("multicolored"):
        parts.append("многоцветного")
    return "Защита от " + " и от ".join(parts)


def type_line(d: CardDef) -> str:
    """The Russian type line of a card definition: «Существо — Гоблин Воин»."""
    line = types_text(d.types, d.supertypes)
    subs = subtypes_text(sorted(d.subtypes))
    return f"{line} — {subs}" if subs else line


def ability(name: str) -> str:
    base, _, index = name.rpartition("-")
    if index.isdigit() and base in ABILITY_NAMES:  # a further instance of a keyword, e.g. conspire-2
        return f"{ABILITY_NAMES[base]} ({index})"
    return ABILITY_NAMES.get(name, name)


def keyword(name: str) -> str:
    """«Первый удар» for ``first_strike``; an unknown keyword keeps its id (the glossary test catches it)."""
    return KEYWORD_NAMES.get(name, name)


def keywords(names: Iterable[str]) -> str:
    return ", ".join(keyword(n) for n in names) or "нет"


def keywords_held(held: dict[str, Any]) -> str:
    """An object's keywords as a reader knows them: «Полет, Защита от красного, Защита от существ»."""
    parts = []
    for name in sorted(held):
        if name == "protection" and isinstance(held[name], list):
            parts += [protection_text(q) for q in held[name]]
        else:
            parts.append(keyword(name))
    return ", ".join(parts) or "нет"


def ability_label(ability_def: Any) -> str:
    """The Russian label of an ability: its ``name_ru``, its keyword's name, or what it is on the card.

    An activated ability without a name is shown by its cost («{4}{W}{U}: …»), a triggered one by its
    trigger condition, so no internal name (``animate``, ``etb-damage``) reaches a reader.
    """
    spec = ability_def.spec
    if spec.get("name_ru"):
        return str(spec["name_ru"])
    keyword_id = ability_def.keyword or ""
    name = str(ability_def.name)
    base = name.rpartition("-")[0] if name.rpartition("-")[2].isdigit() else name
    activated = ability_def.kind == "activated" or "activated" in spec
    if keyword_id in ABILITY_NAMES or (base in ABILITY_NAMES and (not activated or base in ACTIVATED_KEYWORDS)):
        return ability(name) if base in ABILITY_NAMES else ABILITY_NAMES[keyword_id]
    if activated:  # an ability named like a keyword it grants ("flying") is told by its cost
        return f"{cost_text(str(spec.get('activated', '')))}: …"
    if ability_def.kind == "triggered" or "triggered" in spec:
        event = str(spec.get("triggered", ""))
        text = TRIGGER_TEXT.get(event, "срабатывающая способность")
        step = (spec.get("filter") or {}).get("step") if isinstance(spec.get("filter"), Mapping) else None
        if step:
            text = "в начале " + STEP_NAMES.get(str(step), str(step)).replace("шаг ", "шага ", 1)
        return text[0].upper() + text[1:] + ", …"
    return "способность"


def cost_text(text: str) -> str:
    """A cost of the engine's vocabulary («{1}{U}, {Q}», «pay 2 life», «sacrifice») as a card prints it."""
    parts = []
    for raw in text.split(","):
        part = raw.strip()
        low = part.lower()
        if not part:
            continue
        if low == "sacrifice":
            parts.append("жертва этого перманента")
        elif low.startswith("pay ") and low.endswith(" life"):
            parts.append(f"{part.split()[1]} жизни")
        elif low == "discard this":
            parts.append("сброс этой карты")
        elif low.startswith("discard") and (len(part.split()) == 1 or part.split()[1].isdigit()):
            n = part.split()[1] if len(part.split()) > 1 else "1"
            parts.append(f"сброс карт из руки: {n}")
        else:
            found = object_cost(part)
            parts.append(found.text_ru if found is not None else part)
    return ", ".join(parts) or "без стоимости"


def cost_kind(params: Mapping[str, Any], face_down: bool, definition: Any) -> str:
    """Which cost a spell is cast for (rule 601.2f): its mana cost or an alternative cost."""
    if face_down:
        return "стоимость разыгрывания рубашкой вверх"
    if params.get("without_paying"):
        return "стоимость"
    alternative = params.get("alternative")
    if alternative:
        for a in getattr(definition, "abilities", ()):
            for item in a.spec.get("costs", ()) if a.kind == "cost" else ():
                if item.get("name") == alternative and item.get("name_ru"):
                    return f"альтернативную стоимость «{item['name_ru']}»"
        return ALTERNATIVES.get(str(alternative), "альтернативную стоимость")
    return "мана-стоимость"


def player(name: str) -> str:
    return PLAYER_NAMES.get(name, name)


def counter(kind: str, n: int) -> str:
    base = COUNTER_NAMES.get(kind, f"жетон «{kind}»")
    if n == 1:
        return base
    return f"{n} × {base}"


def number_refs(cards: Iterable[tuple[str, str]]) -> dict[str, int]:
    """Number the copies of a card: ``(ref, card name)`` pairs -> ``{ref: n}`` for cards with several refs.

    The number follows the order of the refs' names (``bears-1`` before ``bears-2``), so the game's log and
    the proof's description of the scenario number the same copies alike.
    """
    groups: dict[str, set[str]] = {}
    for ref, name in cards:
        if ref.endswith(" (copy)"):
            continue
        groups.setdefault(name, set()).add(ref)
    out: dict[str, int] = {}
    for refs in groups.values():
        if len(refs) > 1:
            out.update({ref: i for i, ref in enumerate(sorted(refs), 1)})
    return out


def _numbers(game: Game) -> dict[str, tuple[str, int]]:
    """``{ref: (card name, n)}``, fixed on first use (the setup's description) and kept on the game, so that
    a deep copy of the game (an illegal action tried) numbers alike."""
    state = vars(game)
    numbers: dict[str, tuple[str, int]] | None = state.get("_narration_numbers")
    if numbers is None:
        pairs = [(o.card.ref, o.card.definition.name) for o in every_object(game)]
        names = dict(pairs)
        numbers = {ref: (names[ref], n) for ref, n in number_refs(pairs).items()}
        state["_narration_numbers"] = numbers
    return numbers


def every_object(game: Game) -> list[GameObject]:
    objs = list(game.all_objects())
    for p in game.players.values():
        objs += p.graveyard + p.exile
    return objs


def card_label(game: Game, card: Card) -> str:
    """«Медведи-гризли», «Медведи-гризли» №2, «Веление Оджутая» (копия)."""
    if card.ref.endswith(" (copy)"):
        base = card.ref[: -len(" (copy)")]
        original = next((o.card for o in every_object(game) if o.card.ref == base), None)
        inner = card_label(game, original) if original is not None else f"«{_name(card)}»"
        return f"{inner} (копия)"
    numbers = _numbers(game)
    label = f"«{_name(card)}»"
    if card.ref not in numbers and card.ref != card.definition.name:
        # a ref first seen after the setup (a token's): numbered after the copies of its card, if any
        same = [n for name, n in numbers.values() if name == card.definition.name]
        if same:
            numbers[card.ref] = (card.definition.name, max(same) + 1)
    if card.ref in numbers:
        return f"{label} №{numbers[card.ref][1]}"
    return label


def _name(card: Card) -> str:
    return card.definition.name_ru or card.definition.name


def named(game: Game, text: Any) -> str:
    """A name a scenario used (a ref, a card name, a player) as the log says it."""
    value = str(text)
    if value in PLAYER_NAMES:
        return PLAYER_NAMES[value]
    if value.endswith(" (copy)"):
        return f"{named(game, value[: -len(' (copy)')])} (копия)"
    # objects in the game, then those that left it (last known information: a token that ceased to exist)
    cards = [o.card for o in every_object(game)] + [snap.card for snap in game.lki.values()]
    for card in cards:  # a ref first: a card name may also be one copy's ref
        if value == card.ref:
            return card_label(game, card)
    for card in cards:
        if value == card.definition.name:
            return f"«{_name(card)}»"
    return f"«{value}»"


def obj(game: Game, o: GameObject | Snapshot) -> str:
    """«Кровожадный Красный Колпак» or «существо рубашкой вверх («Лучники Гнездовья»)» when face down."""
    chars = game.chars_of(o)
    if o.face_down:
        if chars.name_ru:
            return f"«{chars.name_ru}» ({card_label(game, o.card)})"
        return f"существо рубашкой вверх ({card_label(game, o.card)})"
    if chars.name_ru and chars.name_ru != o.card.definition.name_ru:  # a copy effect renamed it
        label = f"«{chars.name_ru}» ({card_label(game, o.card)})"
    else:
        label = card_label(game, o.card)
    if o.card.is_token:
        label = "фишка " + label
    return label


def to_creature(game: Game, o: GameObject | Snapshot) -> str:
    """«существу «Медведи-гризли»», «существу рубашкой вверх («Лучники Гнездовья»)» (dative, for damage)."""
    label = obj(game, o)
    if label.startswith("существо рубашкой вверх"):
        return "существу" + label[len("существо") :]
    return f"существу {label}"


def pt(game: Game, o: GameObject) -> str:
    chars = game.chars(o)
    if chars.power is None or chars.toughness is None:
        return ""
    return f"{chars.power}/{chars.toughness}"


def payment(who: str, what: str, cost: Any, units: Counter[str]) -> str:
    """«Алиса платит мана-стоимость {1}{R} (мана из пула: {R}{R})»: which cost, and the mana spent on it."""
    from rules_engine.mana import format_units

    spent = format_units(units) if units else ""
    cost_str = str(cost) if str(cost) else "{0}"
    text = f"{player(who)} платит {what} {cost_str}"
    return text + (f" (мана из пула: {spent})" if spent else " (мана не нужна)")


def describe_attempt(game: Game, kind: str, params: Mapping[str, Any], exc: BaseException) -> str:
    """The line of a rejected action: who tried what (card, targets) and why not, with the rule cited.

    «Недопустимое действие отклонено: Алиса пытается разыграть «Шок» (цели: Боб) — ... (правило 702.37e)».
    """
    return f"Недопустимое действие отклонено: {attempt(game, kind, params)} — {rejection(game, exc)}"


def rejection(game: Game, exc: BaseException) -> str:
    """The engine's reason, the scenario's names in it told as the log tells them, and the rule it cites."""
    rule = getattr(exc, "rule", None)
    message = str(exc.args[0]) if rule and exc.args else str(exc)  # the rule is added once, below
    because = _QUOTED.sub(lambda m: _quoted(game, m.group(1) or m.group(2)), message)
    return because + (f" (правило {rule})" if rule else "")


def attempt(game: Game, kind: str, params: Mapping[str, Any]) -> str:
    """«Алиса пытается разыграть «Шок» (цели: Боб)»: a scripted action as tried."""
    who = player(str(params.get("by") or game.priority or game.active))
    verb = ATTEMPTS.get(kind, kind)
    value = params.get(kind)
    what = ""
    if kind in ("cast", "activate", "play_land", "turn_face_up") and value is not None:
        what = " " + named(game, value)
    elif kind in ("attack", "block") and isinstance(value, Mapping):
        what = ": " + ", ".join(  # a creature blocking several attackers names each (509.1a)
            f"{named(game, k)} → " + (", ".join(named(game, x) for x in v) if isinstance(v, list) else named(game, v))
            for k, v in value.items()
        )
    elif kind == "advance":
        what = f" «{STEP_NAMES.get(str(value), str(value))}»"
    elif kind == "mana" and value is not None:
        what = " " + named(game, value)
    extras = []
    if params.get("targets") is not None:
        targets = params["targets"] if isinstance(params["targets"], list) else [params["targets"]]
        extras.append("цели: " + ", ".join(named(game, t) for t in targets))
    if params.get("ability") is not None:
        extras.append(f"способность «{_ability_named(game, value, params['ability'])}»")
    if params.get("face_down"):
        extras.append("рубашкой вверх")
    if params.get("half"):  # a split card's half (709.3), by its Russian name where the card has one
        halves = [h for o in game.all_objects() if o.card.ref == value for h in o.card.definition.halves]
        half = next((h.name_ru or h.name for h in halves if str(params["half"]) in (h.name, h.name_ru)), params["half"])
        extras.append(f"половина «{half}»")
    if params.get("alternative"):
        alt = str(params["alternative"])
        extras.append(ALTERNATIVES.get(alt, "альтернативная стоимость"))
    if params.get("via"):
        extras.append("за " + ALTERNATIVES.get(str(params["via"]), str(params["via"])))
    if params.get("without_paying"):
        extras.append("без уплаты мана-стоимости")
    if params.get("pay"):
        extras.append(f"мана: {params['pay']}")
    if params.get("phyrexian"):
        answers = params["phyrexian"] if isinstance(params["phyrexian"], list) else [params["phyrexian"]]
        paid = ", ".join("2 жизни" if str(a).lower() == "life" else f"{{{str(a).upper()}}}" for a in answers)
        extras.append(f"фирексийская мана: {paid}")
    for choice in params.get("choices") or ():
        extras.append(f"решение: {choice_text(game, choice.kind, choice.value)}")
    return f"{who} пытается {verb}{what}" + (f" ({'; '.join(extras)})" if extras else "")


_QUOTED = re.compile(r"'([^']+)'|\"([^\"]+)\"")  # the scenario's names an engine message quotes
CHOICE_KINDS = {
    "target": "цель",
    "legend": "какую легенду оставить",
    "discard": "сбросить",
    "random": "случайный выбор",
    "order": "порядок срабатываний",
    "new_targets": "новые цели",
    "may": "использовать",
    "pay": "оплата",
    "clash": "карта Столкновения вниз библиотеки",
    "champion": "кого изгнать (Заступник)",
    "hideaway": "какую карту изгнать (Укрытие)",
    "bottom_order": "порядок карт внизу библиотеки",
    "top_order": "порядок карт наверху библиотеки",
    "look_take": "какие из просмотренных карт взять",
    "play": "разыграть",
    "cipher": "на каком существе закодировать (Шифр)",
    "search": "что найти в библиотеке",
    "choose_card": "какую карту выбрать",
    "source": "какой источник повреждений выбрать",
    "bolster": "на какое существо положить жетоны (Подмога)",
    "exploit": "какое существо пожертвовать (Угнетение)",
    "sacrifice": "что принести в жертву",
    "spare": "что оставить",
    "text_change": "замена слова в тексте",
    "copy": "копией чего войти",
    "assign": "распределение повреждений",
    "mode": "режим",
    "x": "X",
    "redirect": "перенаправление повреждений",
    "replacement": "какой эффект замены применить первым",
    "mana_color": "цвет маны",
    "cost": "чем оплатить стоимость",
    "shuffle": "порядок после перемешивания",
    "counter_kind": "жетон какого вида (переместить или убрать)",
    "number": "сколько",
    "color": "цвет",
    "option": "выбор",
    "divide": "деление повреждений между целями",
    "enter_choice": "выбор при выходе на поле битвы",
    "attacking": "кого атакует",
}
# rule 614.12c: the anchor words as the Russian cards print them (FRF Sieges: «выберите Ханов или Драконов»)
ANCHOR_WORDS = {"Khans": "Ханы", "Dragons": "Драконы", "odd": "нечет", "even": "чет", "C": "бесцветный",
                "face_up": "рубашкой вниз", "face_down": "рубашкой вверх",
                "top": "на верх библиотеки", "bottom": "в низ библиотеки"}  # Arashin Sovereign


def anchor_word(word: str) -> str:
    """A word chosen as a permanent enters (614.12): an anchor word, a colour, a basic land type, odd or even."""
    named = ANCHOR_WORDS.get(word) or COLOR_NAMES.get(word) or KEYWORD_NAMES.get(word)
    return f"«{named or SUBTYPE_NAMES.get(word, word)}»"


def color_name(color: str) -> str:
    """«синий»; «бесцветный» for the C a player may try to choose (it is no colour, 105.4)."""
    return COLOR_NAMES.get(color) or ANCHOR_WORDS.get(color, color)


def _quoted(game: Game, text: str) -> str:
    return "«нет»" if text in ("no", "none") else named(game, text)


def choice_text(game: Game | None, kind: str, value: Any) -> str:
    """A scripted decision in words: «использовать: да», «цель: «Шок» №2»."""
    return decision_text(kind, value, lambda v: value_text(game, v))


def decision_text(kind: str, value: Any, show_value: Callable[[Any], str]) -> str:
    """A decision's label and value, shared by the game log and the site's proof text (which names objects its own
    way, so ``show_value`` renders a plain value)."""
    label = CHOICE_KINDS.get(kind, "решение")
    if kind == "color":  # «цвет: синий» (or several: «синий, черный»)
        picked = value if isinstance(value, list) else [value]
        return f"{label}: {', '.join(color_name(str(c)) for c in picked)}"
    if kind == "mana_color":  # «цвет маны: синий», not the letter
        return f"{label}: {color_name(str(value).strip('{}').upper())}"
    if kind in ("enter_choice", "option"):  # «выбор при выходе на поле битвы: «Драконы»», not the English word
        return f"{label}: {anchor_word(str(value))}"
    if kind == "counter_kind":  # «какой жетон переместить: жетон возраста», not the internal kind
        return f"{label}: {counter(str(value), 1)}"
    if isinstance(value, Mapping) and kind == "text_change":
        return f"{label}: «{subtypes_text([str(value.get('from'))])}» → «{subtypes_text([str(value.get('to'))])}»"
    if isinstance(value, Mapping) and "alternative" in value:
        return f"{label}: за {ALTERNATIVES.get(str(value['alternative']), 'альтернативную стоимость')}"
    if isinstance(value, Mapping) and kind == "play":  # «разыграть: да (цели: Боб; X: 3)», not the option keys
        options = "; ".join(f"{PLAY_OPTIONS.get(str(k), 'параметр')}: {show_value(v)}" for k, v in value.items())
        return f"{label}: да ({options})"
    return f"{label}: {show_value(value)}"


# the cast options of a ``play`` answer, in words
PLAY_OPTIONS = {"targets": "цели", "x": "X", "mode": "режим", "divide": "деление повреждений", "pay": "оплата",
                "conspire": "Сговор", "half": "половина", "face_down": "рубашкой вверх"}
OPTION_WORDS = {"x": "X", "targets": "цели", "mode": "режим"}


def value_text(game: Game | None, value: Any) -> str:
    if isinstance(value, bool):
        return "да" if value else "нет"
    if value is None or value in ("no", "none"):
        return "нет"
    if value == "yes":
        return "да"
    if isinstance(value, Mapping):  # the cast options of a play answer are named in Russian ("X: 2", "цели: ...")
        return ", ".join(f"{OPTION_WORDS.get(str(k)) or value_text(game, k)}: {value_text(game, v)}"
                         for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(value_text(game, v) for v in value) or "нет"
    if isinstance(value, int) or game is None:
        return str(value)
    return named(game, value)


def _ability_named(game: Game, card: Any, which: Any) -> str:
    """The ability a step names (by its name or its number among the card's activated abilities)."""
    for o in every_object(game):
        if card in (o.card.ref, o.card.definition.name):
            abilities = [a for a in game.chars(o).abilities if a.kind == "activated"]
            for i, a in enumerate(abilities, 1):
                if a.name == which or which == i:
                    return ability_label(a)
    return str(which)


def describe_card(d: CardDef) -> list[str]:
    """A card of a proof as a reader needs it: Russian name, cost, type line, rules text; an invented test card
    says so. No text line when the definition has no text yet."""
    head = f"«{d.name_ru}» ({d.name})" if d.name_ru else f"«{d.name}»"
    bits = [str(d.cost)] if d.cost is not None and str(d.cost) else []
    bits.append(type_line(d))
    if d.power is not None and d.toughness is not None:
        bits.append(f"{d.power}/{d.toughness}")
    if d.loyalty is not None:
        bits.append(f"верность {d.loyalty}")
    line = f"{head}: " + ", ".join(bits)
    if d.invented:
        line += " — тестовая карта, не напечатана"
    lines = [line]
    if d.text_ru:
        lines += ["  " + t for t in d.text_ru.splitlines() if t.strip()]
    elif d.text_en:
        lines += ["  (текст на английском) " + t for t in d.text_en.splitlines() if t.strip()]
    if d.back is not None:  # a double-faced card: its back face, told the same way
        back = describe_card(d.back)
        lines += ["  Обратная сторона: " + back[0], *("  " + line for line in back[1:])]
    for half in d.halves:
        lines += ["  Половина: " + describe_card(half)[0]]
    return lines


def describe_cards(definitions: Iterable[CardDef]) -> list[str]:
    """The «cards of this proof» block: each distinct card once, in the order given."""
    seen: set[str] = set()
    lines: list[str] = []
    for d in definitions:
        if d.name not in seen:
            seen.add(d.name)
            lines += describe_card(d)
    return lines


def describe_state(game: Game) -> list[str]:
    """The state, one line per player and permanent."""
    lines = []
    for p in game.players.values():
        extra = [counter(k, n) for k, n in sorted(p.counters.items()) if n and k != "poison"]
        if p.poison:
            extra.insert(0, counter("poison", p.poison))
        team = f" (жизнь команды; в команде: {', '.join(player(m) for m in p.team.members)})" if p.team else ""
        status = " — покинул игру" if p.left else ""
        lines.append(f"{player(p.name)}: жизнь {p.life}{team}" + (f"; {', '.join(extra)}" if extra else "") + status)
        for o in game.battlefield:
            if game.controller(o) != p.name:
                continue
            bits = [obj(game, o)]
            if pt(game, o):
                bits.append(pt(game, o))
            if o.counters:
                bits.append(", ".join(counter(k, n) for k, n in sorted(o.counters.items()) if n))
            if o.damage:
                bits.append(f"повреждения {o.damage}")
            if o.tapped:
                bits.append("повернут")
            lines.append("  на поле битвы: " + "; ".join(bits))
        for zone in ("graveyard", "exile", "hand", "command"):
            cards = p.zone(zone)
            if cards:
                lines.append(f"  {ZONE_WHERE[zone]}: " + ", ".join(obj(game, c) for c in cards))
        if p.library:
            top_first = ", ".join(obj(game, c) for c in reversed(p.library))
            lines.append(f"  в библиотеке (сверху вниз): {top_first}")
    if game.stack:
        lines.append(
            "стек (сверху вниз): " + "; ".join(game.describe_stack_item(i) for i in reversed(game.stack))
        )
    return lines
