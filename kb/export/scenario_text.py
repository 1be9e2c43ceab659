"""A scenario's setup, actions and expectations told in Russian, for the proof under each ruling.

Why here and not in the engine: this is presentation for the FAQ reader (Russian card names from the
card definitions, players called Алиса and Боб as in the engine's log); the engine's own log already
narrates what happened, this module narrates what the scenario *asked for*. Anything it does not
recognise is shown as the raw YAML key and value, never dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules_engine.log import PLAYER_NAMES, STEP_NAMES, ZONE_WHERE

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
    "summoning_sick": "болезнь вызова",
    "winner": "победитель",
    "attached": "прикреплено к",
    "face_down": "рубашкой вверх",
    "mana_pool": "мана в резерве",
    "log_contains": "в журнале есть",
    "log_lacks": "в журнале нет",
    "mana_value": "конвертированная мана-стоимость",
    "library_top": "сверху библиотеки",
    "library_bottom": "снизу библиотеки",
    "mana_spent": "потрачена мана",
    "encoded": "закодировано на",
    "land_plays": "сыграно земель за ход",
    "may_look": "может смотреть",
    "not_subtypes": "нет подтипов",
}

Namer = Callable[[str], str]


def player(name: Any) -> str:
    return PLAYERS.get(str(name), str(name))


def _value(value: Any, name: Namer) -> str:
    if isinstance(value, bool):
        return "да" if value else "нет"
    if isinstance(value, Mapping):
        return ", ".join(f"{_key(k, name)}: {_value(v, name)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_value(v, name) for v in value) or "пусто"
    text = str(value)
    return ZONES.get(text, PLAYERS.get(text, name(text)))


def _key(key: Any, name: Namer) -> str:
    text = str(key)
    return PLAYERS.get(text, name(text))


def setup_lines(setup: Mapping[str, Any], name: Namer) -> list[str]:
    lines = [
        f"Ход {setup.get('turn', 1)}, {STEPS.get(str(setup.get('step', 'main1')), setup.get('step'))}, "
        f"активный игрок — {player(setup.get('active', 'alice'))}."
    ]
    for who in PLAYERS:
        zones = setup.get(who) or {}
        bits = [f"жизнь {zones.get('life', 20)}"]
        if zones.get("mana"):
            bits.append(f"мана в резерве {zones['mana']}")
        for zone in ("battlefield", "hand", "graveyard", "library", "exile"):
            cards = [_card(item, name) for item in zones.get(zone) or []]
            if cards:
                bits.append(f"{ZONES[zone]}: {'; '.join(cards)}")
        lines.append(f"{player(who)}: " + ", ".join(bits) + ".")
    return lines


def _card(item: Any, name: Namer) -> str:
    if not isinstance(item, Mapping):
        return name(str(item))
    label = name(str(item.get("card", "?")))
    extras = []
    if item.get("token"):
        label = "фишка " + label
    if item.get("counters"):
        extras.append("жетоны " + ", ".join(f"{k} × {v}" for k, v in item["counters"].items()))
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
        ("pay", "оплата"),
        ("hybrid", "гибридные символы оплачены как"),
        ("alternative", "альтернативная стоимость:"),
        ("via", "через"),
        ("ability", "способность"),
    ):
        if key in params:
            extra.append(f"{label} {_value(params[key], name)}")
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
        "activate": lambda: f"{who} активирует способность {_value(value, name)}",
        "mana": lambda: f"{who} получает ману: {_value(value, name)}",
        "play_land": lambda: f"{who} играет землю {_value(value, name)}",
        "turn_face_up": lambda: f"{who} переворачивает рубашкой вниз {_value(value, name)}",
        "attack": lambda: f"{who} атакует: {_value(value, name)}",
        "block": lambda: f"{player(params.get('by', 'bob'))} блокирует: {_value(value, name)}",
        "pass": lambda: "Игроки пасуют",
        "resolve": lambda: "Разрешается верхний объект стека" if value in (True, None, 1) or value == "resolve"
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
    text = f"{kind}: {_value(value, name)}"
    if source:
        text += f" для {name(str(source))}"
    if who:
        text = f"{player(who)} выбирает {text}"
    return text


def expectation_line(kind: str, value: Any, name: Namer) -> str:
    return f"{EXPECTATIONS.get(kind, kind)} — {_value(value, name)}"
