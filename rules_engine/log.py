"""Russian narration of the game: who cast what, what triggered, which state-based actions applied."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rules_engine.game import Game
    from rules_engine.objects import GameObject, Snapshot

PLAYER_NAMES = {"alice": "Алиса", "bob": "Боб"}
ZONE_NAMES = {
    "library": "библиотеку",
    "hand": "руку",
    "battlefield": "поле битвы",
    "graveyard": "кладбище",
    "exile": "изгнание",
    "stack": "стек",
}
ZONE_WHERE = {
    "library": "в библиотеке",
    "hand": "в руке",
    "battlefield": "на поле битвы",
    "graveyard": "на кладбище",
    "exile": "в изгнании",
    "stack": "в стеке",
}
STEP_NAMES = {
    "untap": "шаг разворота",
    "upkeep": "шаг поддержки",
    "draw": "шаг взятия карты",
    "main1": "первая главная фаза",
    "beginning_of_combat": "шаг начала боя",
    "declare_attackers": "шаг объявления атакующих",
    "declare_blockers": "шаг объявления блокирующих",
    "first_strike_damage": "шаг боевых повреждений первого удара",
    "combat_damage": "шаг боевых повреждений",
    "end_of_combat": "шаг конца боя",
    "main2": "вторая главная фаза",
    "end": "шаг конца хода",
    "cleanup": "шаг очистки",
}
ABILITY_NAMES = {
    "persist": "Упорство",
    "conspire": "Заговор",
    "evolve": "Эволюция",
    "extort": "Вымогательство",
    "champion": "Заступник",
    "champion-return": "Заступник (возвращение)",
    "hideaway": "Укрытие",
    "cipher": "Шифр",
}
COUNTER_NAMES = {"-1/-1": "жетон -1/-1", "+1/+1": "жетон +1/+1", "loyalty": "жетон верности"}


def ability(name: str) -> str:
    base, _, index = name.rpartition("-")
    if index.isdigit() and base in ABILITY_NAMES:  # a further instance of a keyword, e.g. conspire-2
        return f"{ABILITY_NAMES[base]} ({index})"
    return ABILITY_NAMES.get(name, name)


def ability_label(ability_def: Any) -> str:
    """The Russian label of an ability: its ``name_ru`` in the card definition, or the keyword's name."""
    return str(ability_def.spec.get("name_ru") or ability(ability_def.name))


def player(name: str) -> str:
    return PLAYER_NAMES.get(name, name)


def counter(kind: str, n: int) -> str:
    base = COUNTER_NAMES.get(kind, f"жетон «{kind}»")
    if n == 1:
        return base
    return f"{n} × {base}"


def obj(game: Game, o: GameObject | Snapshot) -> str:
    """«Кровожадный Красный Колпак» or «существо рубашкой вверх (X)» for a face-down object."""
    chars = game.chars_of(o)
    if o.face_down:
        return (
            f"«{chars.name_ru}» [{o.card.ref}]"
            if chars.name_ru
            else f"существо рубашкой вверх [{o.card.ref}]"
        )
    label = f"«{chars.name_ru or o.card.definition.name_ru}»"
    if o.card.ref != o.card.definition.name:
        label += f" [{o.card.ref}]"
    if o.card.is_token:
        label = "фишка " + label
    return label


def pt(game: Game, o: GameObject) -> str:
    chars = game.chars(o)
    if chars.power is None or chars.toughness is None:
        return ""
    return f"{chars.power}/{chars.toughness}"


def describe_state(game: Game) -> list[str]:
    """The final state, one line per player and permanent."""
    lines = []
    for p in game.players.values():
        lines.append(f"{player(p.name)}: жизнь {p.life}")
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
            lines.append("  поле битвы: " + "; ".join(bits))
        for zone in ("graveyard", "exile", "hand"):
            cards = p.zone(zone)
            if cards:
                lines.append(f"  {ZONE_WHERE[zone]}: " + ", ".join(obj(game, c) for c in cards))
    if game.stack:
        lines.append(
            "стек (сверху вниз): " + "; ".join(game.describe_stack_item(i) for i in reversed(game.stack))
        )
    return lines
