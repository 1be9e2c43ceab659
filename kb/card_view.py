"""What ``kb show`` says about a card: both texts (Oracle and as printed, English and Russian) and every
ruling about it, from the documents and from the official list, each with its verification status."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ingest.entries import Card, Document
from kb.card_lookup import card_rulings, related_cards
from kb.store import KnowledgeBase

if TYPE_CHECKING:
    from rich.console import Console

Verify = Callable[[KnowledgeBase, str], dict[str, Any]]


def _verdicts(kb: KnowledgeBase, ids: list[str]) -> dict[str, dict[str, Any]]:
    """All the card's verdicts: those stored in the database when fresh, the others played in one pass
    (loading the scenarios once, not once per ruling)."""
    from kb import paths, verdict_cache

    stored = verdict_cache.details_of(kb.fingerprint, ids)
    missing = [i for i in ids if i not in stored]
    if not missing:
        return {i: stored[i] for i in ids}
    from kb import verify

    data_dir = paths.data_dir()
    known = verify.catalog(kb)  # every stored ID, also when ``kb`` holds only this card's part
    try:
        db = verify.card_db(data_dir)
        scenarios = verify.collect_scenarios(data_dir, db, known)
        found = verify.verdicts(missing, scenarios, db, verify.load_not_simulable(data_dir, known))
    except (verify.VerifyError, verify.EngineError) as exc:
        return {i: stored.get(i) or {"id": i, "status": "error", "error": str(exc)} for i in ids}
    return {i: stored[i] if i in stored else found[i].to_dict() for i in ids}


def card_context(kb: KnowledgeBase, card: Card, verify: Verify | None = None) -> dict[str, Any]:
    rulings = card_rulings(kb, card)
    verdicts = _verdicts(kb, [r.id for r in rulings]) if verify is None else {r.id: verify(kb, r.id) for r in rulings}
    details = []
    for ruling in rulings:
        document = kb.get(ruling.document_id)
        details.append(
            {
                "id": ruling.id,
                "text": ruling.text,
                "lang": ruling.lang,
                "kind": ruling.kind,
                "date": ruling.date,
                "official": ruling.id.startswith("mtgjson/"),
                "document": document.title if isinstance(document, Document) else ruling.document_id,
                "same_as": list(ruling.same_as),
                "verification": verdicts[ruling.id],
            }
        )
    return {
        "rulings": [r.id for r in rulings],
        "rulings_detail": details,
        "same_as": [c.id for c in related_cards(kb, card) if c.id != card.id],
    }


def print_card(console: Console, card: Card, context: dict[str, Any], labels: dict[str, str]) -> None:
    """The MTGJSON card: names, Oracle text, each printing's printed texts, then the rulings."""
    names = " / ".join(n for n in (card.name_en or card.name, card.name_ru) if n)
    console.print(f"[bold]{names}[/]  {card.mana_cost or ''}", highlight=False, markup=True)
    console.print(f"{card.type_line}   (мана-стоимость {card.mana_value})", highlight=False)
    if card.power is not None:
        console.print(f"{card.power}/{card.toughness}", highlight=False)
    if card.loyalty:
        console.print(f"Верность: {card.loyalty}", highlight=False)
    console.print("\n[bold]Текст Oracle[/] (en):")
    console.print(card.oracle_text or "—", highlight=False, markup=False)
    shown: set[tuple[str | None, ...]] = set()
    for printing in card.printings:
        texts = (printing.original_type, printing.original_text, printing.type_ru, printing.text_ru)
        sets = ", ".join(f"{p.set_code} {p.number}" for p in card.printings if
                         (p.original_type, p.original_text, p.type_ru, p.text_ru) == texts)
        if texts in shown:
            continue
        shown.add(texts)
        console.print(f"\n[bold]Напечатано[/] ({sets}):", highlight=False)
        console.print(f"en: {printing.original_type or ''}", highlight=False, markup=False)
        console.print(printing.original_text or "—", highlight=False, markup=False)
        console.print(f"ru: {printing.name_ru or ''} — {printing.type_ru or ''}", highlight=False, markup=False)
        console.print(printing.text_ru or "—", highlight=False, markup=False)
    if context.get("same_as"):
        console.print(f"\nКарта в документах: {', '.join(context['same_as'])}", highlight=False)
    details = context.get("rulings_detail", [])
    console.print(f"\n[bold]Разъяснения ({len(details)})[/]", highlight=False)
    for item in details:
        status = item["verification"].get("status", "error")
        label = labels.get(status, f"[red]{item['verification'].get('error', status)}[/]")
        source = f"официальное, {item['date'] or 'без даты'}" if item["official"] else item["document"]
        console.print(f"\n[bold]{item['id']}[/] ({item['lang']}; {source}) — {label}", highlight=False)
        console.print(item["text"], highlight=False, markup=False)
        if item["same_as"]:
            console.print(f"  то же самое: {', '.join(item['same_as'])}", style="dim", highlight=False)
