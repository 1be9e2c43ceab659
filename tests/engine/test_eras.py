"""Rules eras: a ruling is proven under its document's date and judged current or obsolete by replaying it."""

from __future__ import annotations

import datetime as dt
import re
import textwrap
from pathlib import Path

import pytest

from kb import eras
from kb import verify as kv
from rules_engine.cards import CardDB
from rules_engine.errors import ScenarioFormatError
from rules_engine.options import RulesOptions
from rules_engine.scenario import load_scenario


def _change(change_id: str, effective: str, option: str | None = None, **extra: object) -> eras.Change:
    return eras.Change(
        id=change_id, effective=dt.date.fromisoformat(effective), date_certain=True, release=None,
        kind="terms" if option is None else "behaviour", before="cr-20080501.txt", after="cr-20090711.txt",
        between=None, rules_before=(), rules_after=(), rules_now=(), summary_ru=change_id, summary_en=change_id,
        option=option, modelled=option is not None, touches=(), **extra,  # type: ignore[arg-type]
    )


TIMELINE = eras.Timeline(
    Path("timeline.yaml"),
    "cr-20260116.txt",
    (
        _change("m10-mana-burn", "2009-07-11", "mana_burn"),
        _change("m10-exile", "2009-07-11", seed_documents=("lrw",), seed_pattern=re.compile(r"удал\w* из игры")),
        _change("dom-redirection", "2018-04-27", "planeswalker_redirection"),
    ),
)

# Mana left in the pool at the end of a step: under the rules of 2007 it burns (1 life), today it doesn't.
BURN = """
id: burn
title: burn
rulings: [lrw/mana/1]
setup:
  active: alice
  alice: {mana: "{R}"}
actions:
  - advance: main2
expect:
  - life: {alice: %d}
"""


def _verdict(tmp_path: Path, db: CardDB, body: str, text: str = "", date: str = "2007-10-20") -> kv.Verdict:
    path = tmp_path / "s.yaml"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    scenario = load_scenario(path, db)
    context = kv.EraContext(TIMELINE, {"lrw": date}, {"lrw/mana/1": text})
    return kv.verdicts(["lrw/mana/1"], [scenario], db, context=context)["lrw/mana/1"]


def test_the_era_comes_from_the_document_date() -> None:
    assert TIMELINE.options_for("2007-10-20") == RulesOptions(mana_burn=True, planeswalker_redirection=True)
    assert TIMELINE.options_for("2015-02-25") == RulesOptions(planeswalker_redirection=True)
    assert TIMELINE.options_for("2026-01-16") == RulesOptions()


def test_a_ruling_whose_outcome_changed_is_obsolete_and_the_change_is_named(tmp_path: Path, db: CardDB) -> None:
    verdict = _verdict(tmp_path, db, BURN % 19)
    assert verdict.status == "verified" and verdict.era == "2007-10-20"
    assert verdict.currency is not None and verdict.currency.status == "obsolete"
    assert [c.id for c in verdict.currency.changes] == ["m10-mana-burn"]  # not the redirection change
    assert verdict.currency.label_ru == "устарело с 2009"
    assert not verdict.today_results[0].passed  # the other proof: today the same play ends at 20 life


def test_the_same_outcome_today_is_current(tmp_path: Path, db: CardDB) -> None:
    body = BURN.replace('alice: {mana: "{R}"}', "alice: {life: 20}") % 20
    verdict = _verdict(tmp_path, db, body)
    assert verdict.currency is not None and verdict.currency.status == "current"


def test_old_wording_with_the_same_outcome_is_terms(tmp_path: Path, db: CardDB) -> None:
    body = BURN.replace('alice: {mana: "{R}"}', "alice: {life: 20}") % 20
    verdict = _verdict(tmp_path, db, body, text="Карта удаляется из игры.")
    assert verdict.currency is not None and verdict.currency.status == "terms"
    assert [c.id for c in verdict.currency.changes] == ["m10-exile"]
    later = _verdict(tmp_path, db, body, text="Карта удаляется из игры.", date="2010-01-01")
    assert later.currency is not None and later.currency.status == "current"  # the wording of its own time


def test_a_ruling_not_proven_in_its_era_is_not_judged(tmp_path: Path, db: CardDB) -> None:
    verdict = _verdict(tmp_path, db, BURN % 20)  # wrong for 2007: the mana burns
    assert verdict.status == "failing"
    assert verdict.currency is not None and verdict.currency.status == "unjudged"


def test_a_linked_scenario_cannot_pick_its_own_rules(tmp_path: Path, db: CardDB) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(textwrap.dedent(BURN % 19).replace("rulings:", "rules: {mana_burn: true}\nrulings:"), "utf-8")
    with pytest.raises(ScenarioFormatError, match="plays under its document's era"):
        load_scenario(path, db)


def test_the_bundled_timeline_loads_and_models_known_options() -> None:
    root = Path(__file__).resolve().parents[2]
    timeline = eras.load_timeline(root / "data" / "rules" / "timeline.yaml")
    assert eras.options_for(timeline, "2007-10-20").mana_burn
    assert not eras.options_for(timeline, "2026-01-16").planeswalker_redirection
    assert eras.options_for(timeline, None) == RulesOptions()


LIFELINK = """
id: lifelink
title: lifelink
rules: {lifelink_triggered: %s}
cards:
  Test Lifelinker: {cost: "{W}", type: Creature — Cleric, pt: 2/2, keywords: [lifelink], invented: true,
                    text_en: Lifelink, text_ru: Цепь жизни}
setup:
  active: alice
  step: beginning_of_combat
  alice: {life: 10, battlefield: [Test Lifelinker]}
actions:
  - attack: {Test Lifelinker: bob}
  - advance: combat_damage
  - expect:
      - life: {alice: %d}
      - stack_size: %d
"""


@pytest.mark.parametrize(("old", "life", "stack"), [("true", 10, 1), ("false", 12, 0)])
def test_lifelink_is_a_trigger_under_the_rules_of_2008_and_static_today(
    play, old: str, life: int, stack: int  # type: ignore[no-untyped-def]
) -> None:
    """Rule 502.68a of 2008: the life comes from a trigger on the stack; since 2009 (702.15b) as the damage is dealt."""
    result = play(LIFELINK % (old, life, stack))
    assert result.passed, result.failures
