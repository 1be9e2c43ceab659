"""A scenario's setup, actions and expectations told in Russian, for the proof under each ruling.

Why here and not in the engine: this is presentation for the FAQ reader (Russian card names from the
card definitions, players called Алиса and Боб as in the engine's log); the engine's own log already
narrates what happened, this module narrates what the scenario *asked for*. Anything it does not
recognise is shown as the raw YAML key and value, never dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules_engine import log as narr
from rules_engine.log import PLAYER_NAMES, STEP_NAMES, ZONE_WHERE
from rules_engine.teams import scenario_players

# The engine's own Russian names, so the proof's summary and its game log speak the same language.
PLAYERS = PLAYER_NAMES
ZONES = ZONE_WHERE
STEPS = STEP_NAMES
EXPECTATIONS = {
    "life": "жизнь",
    "zone": "зона",
    "pt": "сила/выносливость",
    "counters": "жетоны",
    "damage": "отмеченные повреждения",
    "loyalty": "верность",
    "colors": "цвета",
    "types": "типы",
    "subtypes": "подтипы",
    "keywords": "есть способности",
    "not_keywords": "нет способностей",
    "controller": "контролирует",
    "tapped": "повернут",
    "stack": "стек",
    "stack_size": "объектов в стеке",
    "hand_size": "карт в руке",
    "poison": "жетонов яда",
    "summoning_sick": "болезнь вызова",
    "winner": "победитель",
    "attached": "прикреплено к",
    "face_down": "рубашкой вверх",
    "mana_pool": "мана в пуле",
    "log_contains": "в журнале есть",
    "log_lacks": "в журнале нет",
    "log_order": "в журнале по порядку",
    "mana_value": "конвертированная мана-стоимость",
    "library_top": "сверху библиотеки",
    "library_bottom": "снизу библиотеки",
    "mana_spent": "потрачена мана",
    "encoded": "закодировано на",
    "land_plays": "сыграно земель за ход",
    "may_look": "может смотреть",
    "not_subtypes": "нет подтипов",
    "name": "имя",
    "abilities": "есть способности",
    "not_abilities": "нет способностей",
    "player_counters": "жетоны игрока",
    "emblems": "эмблем",
    "in_game": "в игре",
}

Namer = Callable[[str], str]


def player(name: Any) -> str:
    return PLAYERS.get(str(name), str(name))


# Words a scenario uses as values, in the proof's Russian.
WORDS = {
    "yes": "да",
    "no": "нет",
    "none": "нет",
    "top": "оставить сверху",
    "bottom": "положить вниз",
    "same": "те же цели",
    "all": "все",
    "morph": "стоимость Оборотня",
    "mana_cost": "мана-стоимость",
    "evoke": "стоимость Вызывания",
    "dash": "стоимость Рывка",
}


def _value(value: Any, name: Namer) -> str:
    if isinstance(value, bool):
        return "да" if value else "нет"
    if value is None:
        return "нет"
    if isinstance(value, Mapping):
        return ", ".join(f"{_key(k, name)}: {_value(v, name)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_value(v, name) for v in value) or "пусто"
    text = str(value)
    if text in WORDS:
        return WORDS[text]
    return ZONES.get(text, PLAYERS.get(text, name(text)))


KEYS = {"targets": "цели", "conspire": "Заговор", "mode": "режим", "x": "X", "alternative": "стоимость",
        "divide": "деление повреждений"}


def _key(key: Any, name: Namer) -> str:
    text = str(key)
    return KEYS.get(text) or PLAYERS.get(text, name(text))


def setup_lines(setup: Mapping[str, Any], name: Namer) -> list[str]:
    lines = [
        f"Ход {setup.get('turn', 1)}, {STEPS.get(str(setup.get('step', 'main1')), setup.get('step'))}, "
        f"активный игрок — {player(setup.get('active', 'alice'))}."
    ]
    teams = setup.get("teams") or []
    if teams:
        lines.append("«Двухголовый гигант», команды: "
                     + "; ".join(", ".join(player(p) for p in team) for team in teams) + ".")
    for who in scenario_players(dict(setup)):
        zones = setup.get(who) or {}
        life = zones.get("life", 15 * len(next((t for t in teams if who in t), [])) or 20)
        bits = [f"жизнь {'команды ' if teams else ''}{life}"]
        if zones.get("mana"):
            bits.append(f"мана в пуле {zones['mana']}")
        for zone in ("battlefield", "hand", "graveyard", "library", "exile"):
            cards = [_card(item, name) for item in zones.get(zone) or []]
            if cards:
                bits.append(f"{ZONES[zone]}: {'; '.join(cards)}")
        lines.append(f"{player(who)}: " + ", ".join(bits) + ".")
    return lines


def _card(item: Any, name: Namer) -> str:
    if not isinstance(item, Mapping):
        return name(str(item))
    label = name(str(item.get("ref") or item.get("card", "?")))
    extras = []
    if item.get("token"):
        label = "фишка " + label
    if item.get("counters"):
        extras.append(", ".join(narr.counter(str(k), int(v)) for k, v in item["counters"].items()))
    if item.get("tapped"):
        extras.append("повернут")
    if item.get("face_down"):
        extras.append("рубашкой вверх")
    if item.get("damage"):
        extras.append(f"повреждения {item['damage']}")
    if item.get("attached_to"):
        extras.append(f"прикреплен к {name(str(item['attached_to']))}")
    if item.get("summoning_sick"):
        extras.append("только что вышел")
    if item.get("owner"):
        extras.append(f"владелец {player(item['owner'])}")
    return label + (f" ({', '.join(extras)})" if extras else "")


def step_line(kind: str, params: Mapping[str, Any], name: Namer) -> str:
    """One scripted step, e.g. «Алиса разыгрывает «Удар молнии», цели: …»."""
    who = player(params.get("by", "alice"))
    extra = []
    if params.get("targets"):
        extra.append("цели: " + _value(params["targets"], name))
    for key, label in (
        ("mode", "режим"),
        ("x", "X ="),
        ("pay", "мана из пула:"),
        ("hybrid", "гибридные символы оплачены как"),
        ("phyrexian", "фирексийская мана оплачена так:"),
        ("alternative", "за"),
        ("via", "за"),
    ):
        if key in params:
            value = params[key]
            if key == "hybrid":
                value = "".join(f"{{{v}}}" for v in (value if isinstance(value, list) else [value]))
            if key == "phyrexian":  # rule 107.4f: each symbol with its colour's mana or 2 life
                value = ", ".join("2 жизни" if str(v).lower() == "life" else f"{{{str(v).upper()}}}"
                                  for v in (value if isinstance(value, list) else [value]))
            extra.append(f"{label} {_value(value, name)}")

    if params.get("conspire"):
        extra.append("с Заговором: " + _value(params["conspire"], name))
    if params.get("face_down"):
        extra.append("рубашкой вверх")
    if params.get("without_paying"):
        extra.append("без уплаты мана-стоимости")
    if params.get("choices"):
        extra.append("решения: " + "; ".join(_choice(c, name) for c in params["choices"]))
    value = params.get(kind)
    text = {
        "cast": lambda: f"{who} разыгрывает {_value(value, name)}",
        "activate": lambda: f"{who} активирует "
        + (name(f"{value}/{params['ability']}") if "ability" in params else f"способность {_value(value, name)}"),
        "mana": lambda: f"{who} получает ману от {_value(value, name)}",
        "play_land": lambda: f"{who} играет землю {_value(value, name)}",
        "turn_face_up": lambda: f"{who} переворачивает рубашкой вниз {_value(value, name)}",
        "attack": lambda: f"{who} атакует: {_value(value, name)}",
        "block": lambda: f"{player(params.get('by', 'bob'))} блокирует: {_value(value, name)}",
        "pass": lambda: "Игроки пасуют",
        "resolve": lambda: "Разрешается верхний объект стека" if value in (True, None, 1) or value == "resolve"
        else "Разрешаются все объекты стека" if value == "all"
        else f"Разрешаются объекты стека: {_value(value, name)}",
        "advance": lambda: f"Игра доходит до шага: {STEPS.get(str(value), value)}",
        "choose": lambda: "Решение: " + "; ".join(_choice(c, name) for c in params.get("choose") or []),
        "expect": lambda: "Проверка: " + "; ".join(expectation_line(e.kind, e.value, name) for e in value or []),
    }.get(kind, lambda: f"{kind}: {_value(value, name)}")()
    if params.get("illegal"):
        text += " — это действие должно быть невозможно"
    return text + (f" ({'; '.join(extra)})" if extra else "") + "."


def _choice(choice: Any, name: Namer) -> str:
    kind = getattr(choice, "kind", None) or (choice.get("kind") if isinstance(choice, Mapping) else "")
    value = getattr(choice, "value", None) if not isinstance(choice, Mapping) else choice.get("value")
    who = getattr(choice, "player", None) if not isinstance(choice, Mapping) else choice.get("player")
    source = getattr(choice, "source", None) if not isinstance(choice, Mapping) else choice.get("source")
    if kind == "order" and isinstance(value, list):
        label = narr.CHOICE_KINDS.get(str(kind), "решение")
        text = f"{label}: " + ", ".join(name(str(v)) if "/" in str(v) else _value(v, name) for v in value)
    else:
        text = narr.decision_text(str(kind), value, lambda v: _value(v, name))
    if source:
        text += f" (для {name(str(source))})"
    if who:
        text = f"{player(who)} — {text}"
    return text


def _each(value: Any, show: Callable[[str], str], name: Namer) -> str:
    """``{REF: [words]}`` with each word shown by ``show``."""
    if not isinstance(value, Mapping):
        return _value(value, name)
    parts = []
    for ref, words in value.items():
        items = words if isinstance(words, list) else [words]
        parts.append(f"{_key(ref, name)}: {', '.join(show(str(w)) for w in items) or 'нет'}")
    return "; ".join(parts)


def _counters(value: Any, name: Namer) -> str:
    parts = []
    for ref, counters in (value or {}).items():
        items = [narr.counter(str(k), int(n)) for k, n in (counters or {}).items() if n]
        parts.append(f"{_key(ref, name)}: {', '.join(items) or 'нет жетонов'}")
    return "; ".join(parts)


def _zones(value: Any, name: Namer) -> str:
    def where(zone: Any) -> str:
        zones = zone if isinstance(zone, list) else [zone]
        return ", ".join("нет такого объекта" if z == "none" else ZONES.get(str(z), str(z)) for z in zones)

    return "; ".join(f"{_key(ref, name)}: {where(zone)}" for ref, zone in (value or {}).items())


def expectation_line(kind: str, value: Any, name: Namer) -> str:
    label = EXPECTATIONS.get(kind, kind)
    if kind in ("keywords", "not_keywords"):
        shown = _each(value, narr.keyword, name)
    elif kind == "types":
        shown = _each(value, lambda t: narr.types_text([t]), name)
    elif kind in ("subtypes", "not_subtypes"):
        shown = _each(value, lambda t: f"«{narr.subtypes_text([t])}»", name)
    elif kind == "colors":
        shown = _each(value, lambda c: narr.COLOR_NAMES.get(c.upper(), c), name)
    elif kind == "counters":
        shown = _counters(value, name)
    elif kind == "zone":
        shown = _zones(value, name)
    elif kind in ("log_contains", "log_lacks"):
        shown = f"«{value}»"
    elif kind == "log_order":
        shown = " → ".join(f"«{text}»" for text in value)
    elif kind == "name":
        shown = _each(value, lambda n: name(n) if n else "нет имени", name)
    elif kind in ("abilities", "not_abilities"):
        shown = "; ".join(
            f"{_key(ref, name)}: " + ", ".join(name(f"{ref}/{w}") for w in (words or []))
            for ref, words in (value or {}).items()
        ) if isinstance(value, Mapping) else _value(value, name)
    else:
        shown = _value(value, name)
    return f"{label} — {shown}"
