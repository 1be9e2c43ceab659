"""The rules timeline: the bundled file loads, its rule numbers are real, its IDs exist, eras select options.

Rule numbers are checked against the Comprehensive Rules texts in ``../shared/comprehensive-rules/`` (not part
of the repository); those tests skip when the texts are absent.
"""

from __future__ import annotations

import datetime as dt
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
import yaml

from kb import rules_timeline as rt
from kb.store import KnowledgeBase
from rules_engine.options import RulesOptions

PROJECT_ROOT = Path(__file__).resolve().parent.parent
CR_DIR = PROJECT_ROOT.parent / "shared" / "comprehensive-rules"
TIMELINE = rt.load()

_RULE_LINE_RE = re.compile(r"^(\d{3}(?:\.\d+[a-z]?)?)\.?\s")
_INTRO_RE = re.compile(r"These rules are (?:effective|current) as of (\w+ \d{1,2}, \d{4})")


# ------------------------------------------------------------------------------------- CR texts


def _decode(data: bytes) -> str:
    """The CR files are UTF-8 with a BOM, plain ASCII/UTF-8, or Windows-1252 (the 2015 ones)."""
    if data.startswith(b"\xef\xbb\xbf"):
        text = data[3:].decode("utf-8")
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("cp1252")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.translate(str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"'}))


@cache
def _cr_lines(name: str) -> tuple[str, ...]:
    path = CR_DIR / name
    if not path.is_file():
        pytest.skip(f"Comprehensive Rules text {path} is not available")
    return tuple(line.strip() for line in _decode(path.read_bytes()).split("\n"))


@cache
def _cr_rules(name: str) -> dict[str, list[str]]:
    rules: dict[str, list[str]] = {}
    for line in _cr_lines(name):
        match = _RULE_LINE_RE.match(line)
        if match:
            rules.setdefault(match[1], []).append(line)
    return rules


def _rule_text(name: str, number: str) -> str | None:
    """The rule's own lines plus its subrules (702.78 → 702.78a…; 308 → 308.1…), or None if it doesn't exist."""
    rules = _cr_rules(name)
    if number not in rules:
        return None
    sub = re.compile(
        rf"^{re.escape(number)}(?:[a-z]+|\.\d.*)$" if "." not in number else rf"^{re.escape(number)}[a-z]+$"
    )
    lines = [line for key, group in rules.items() if key == number or sub.match(key) for line in group]
    return "\n".join(lines)


def _refs() -> list[tuple[str, str, str, rt.RuleRef]]:
    out = []
    for change in TIMELINE.changes:
        for field, version in (
            ("rules_before", change.before),
            ("rules_after", change.after),
            ("rules_now", TIMELINE.current),
        ):
            out.extend((change.id, field, version, ref) for ref in getattr(change, field))
    return out


@pytest.mark.parametrize(
    ("change_id", "field", "version", "ref"), _refs(), ids=lambda v: v.text if isinstance(v, rt.RuleRef) else str(v)
)
def test_rule_numbers_exist_in_their_cr_version(change_id: str, field: str, version: str, ref: rt.RuleRef) -> None:
    text = _rule_text(version, ref.number)
    assert text is not None, f"{change_id}.{field}: rule {ref.number} does not exist in {version}"
    if ref.words:
        assert ref.words.lower() in text.lower(), f"{change_id}.{field}: {ref.number} in {version} lacks {ref.words!r}"


def test_rule_lookup_can_fail() -> None:
    """The check above is not vacuous: a number from another era or the wrong words are caught."""
    assert _rule_text("cr-20080501.txt", "502.78") is not None
    assert _rule_text("cr-20260116.txt", "502.78") is None
    assert "Conspire" in (_rule_text("cr-20260116.txt", "702.78") or "")
    assert "Persist" not in (_rule_text("cr-20260116.txt", "702.78") or "")
    assert "redirection" in (_rule_text("cr-20150327.txt", "306.7") or "")
    assert "Kindred" in (_rule_text("cr-20260116.txt", "308") or "")


@pytest.mark.parametrize("change", [c for c in TIMELINE.changes if c.glossary_now], ids=lambda c: c.id)
def test_glossary_entries_exist_today(change: rt.RulesChange) -> None:
    lines = set(_cr_lines(TIMELINE.current))
    for term in change.glossary_now:
        assert term in lines, f"{change.id}: glossary entry {term!r} not in {TIMELINE.current}"


def test_every_named_cr_version_is_present() -> None:
    names = {TIMELINE.current} | {c.before for c in TIMELINE.changes} | {c.after for c in TIMELINE.changes}
    if not CR_DIR.is_dir():
        pytest.skip(f"{CR_DIR} is not available")
    missing = sorted(n for n in names if not (CR_DIR / n).is_file())
    assert not missing, f"timeline names CR files that are not in {CR_DIR}: {missing}"


@pytest.mark.parametrize("change", [c for c in TIMELINE.changes if c.between is None], ids=lambda c: c.id)
def test_changes_dated_by_a_cr_version_match_its_intro(change: rt.RulesChange) -> None:
    """A change without ``between`` takes effect with its after version: that file's intro says the date."""
    intro = next((m for line in _cr_lines(change.after)[:10] if (m := _INTRO_RE.search(line))), None)
    assert intro is not None, f"{change.after} has no 'effective as of' line"
    stated = dt.datetime.strptime(intro[1], "%B %d, %Y").date()
    assert stated == change.effective == rt.cr_date(change.after)


def test_the_docs_list_every_change() -> None:
    doc = (PROJECT_ROOT / "docs" / "rules-eras.md").read_text(encoding="utf-8")
    missing = [c.id for c in TIMELINE.changes if f"`{c.id}`" not in doc]
    assert not missing, f"docs/rules-eras.md does not list {missing}"


# ------------------------------------------------------------------------------------- the knowledge base


def _kb_texts(kb: KnowledgeBase) -> list[tuple[str, str]]:
    return [(e.id, e.text) for e in [*kb.rulings, *kb.rules]]


def test_every_touched_id_exists_in_the_seed_kb(seed_kb: KnowledgeBase) -> None:
    missing = [
        f"{TIMELINE.path}:{c.line}: {c.id} touches {entry_id}"
        for c in TIMELINE.changes
        for entry_id in c.touches
        if seed_kb.get(entry_id) is None
    ]
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("change", [c for c in TIMELINE.changes if c.seed_pattern], ids=lambda c: c.id)
def test_old_wording_touches_are_exactly_the_entries_using_it(change: rt.RulesChange, seed_kb: KnowledgeBase) -> None:
    """For a wording change the list is checked both ways: every listed entry has the old term, none is missed."""
    found = rt.seed_matches(change, _kb_texts(seed_kb))
    assert found, f"{change.id}: its old wording occurs nowhere in the seeds"
    assert set(change.touches) == set(found), (
        f"{change.id}: not listed {sorted(set(found) - set(change.touches))}, "
        f"listed without the old wording {sorted(set(change.touches) - set(found))}"
    )


def test_key_rulings_are_linked_to_their_change() -> None:
    assert "lrw/planeswalker/12" in TIMELINE.get("dom-planeswalker-redirection-removed").touches
    assert "lrw/planeswalker/1" in TIMELINE.get("m14-planeswalker-uniqueness-per-player").touches
    assert "lrw/clash/7" in TIMELINE.get("akh-split-card-characteristics-combined").touches
    assert "shm/rule/502.78/en" in TIMELINE.get("m10-rules-renumbered").touches


# ------------------------------------------------------------------------------------- eras


def test_mana_burn_by_era() -> None:
    assert rt.options_for("2008-05-01").mana_burn is True
    assert rt.options_for(dt.date(2009, 7, 10)).mana_burn is True
    assert rt.options_for("2009-07-11").mana_burn is False
    assert rt.options_for("2026-01-16").mana_burn is False


def test_planeswalker_redirection_by_era() -> None:
    assert rt.options_for("2007-10-20").planeswalker_redirection is True
    assert rt.options_for("2015-03-27").planeswalker_redirection is True
    assert rt.options_for("2018-04-26").planeswalker_redirection is True
    assert rt.options_for("2018-04-27").planeswalker_redirection is False
    assert rt.options_for("2026-01-16").planeswalker_redirection is False


def test_legend_and_uniqueness_rules_by_era() -> None:
    gtc = rt.options_for("2012-12-10")
    assert gtc.legend_rule_all_players and gtc.planeswalker_uniqueness
    dtk = rt.options_for("2015-02-25")
    assert not dtk.legend_rule_all_players and not dtk.planeswalker_uniqueness


def test_today_is_the_default_rules() -> None:
    assert rt.options_for(dt.date.today()) == RulesOptions()


def test_unmodelled_old_rules_respect_what_they_followed() -> None:
    """Per-player planeswalker uniqueness (2013–2017) applies to a 2015 document, not to a 2007 one."""
    ids_2015 = {c.id for c in TIMELINE.unmodelled_for("2015-03-27")}
    ids_2007 = {c.id for c in TIMELINE.unmodelled_for("2007-10-20")}
    assert "xln-planeswalker-uniqueness-removed" in ids_2015
    assert "xln-planeswalker-uniqueness-removed" not in ids_2007
    assert "m10-combat-damage-no-stack" in ids_2007 and "m10-combat-damage-no-stack" not in ids_2015
    assert "fdn-damage-assignment-order-removed" in ids_2015 and "fdn-damage-assignment-order-removed" not in ids_2007
    assert TIMELINE.unmodelled_for("2026-01-16") == []


def test_undated_changes_are_unknown_between_their_versions() -> None:
    change = TIMELINE.get("counters-placed-to-put")  # no date: only the versions around it
    assert TIMELINE.old_rule_in_force(change, "2007-10-20") is True
    assert TIMELINE.old_rule_in_force(change, "2015-03-27") is True  # that version still shows the old rule
    assert TIMELINE.old_rule_in_force(change, "2015-03-28") is None
    assert TIMELINE.old_rule_in_force(change, "2020-01-01") is None
    assert TIMELINE.old_rule_in_force(change, "2026-01-16") is False


def test_modelled_options_are_engine_options() -> None:
    known = set(RulesOptions.__dataclass_fields__)
    modelled = {c.option for c in TIMELINE.changes if c.modelled}
    assert modelled == known, "every engine option should be selected by some change, and only those"


def _document_dates() -> dict[str, dt.date]:
    manifest = yaml.safe_load((PROJECT_ROOT / "data" / "sources" / "manifest.yaml").read_text(encoding="utf-8"))
    return {d["id"]: rt.as_date(d["date"]) for d in manifest["documents"] if d.get("date")}


def test_no_linked_scenario_sets_its_own_rules() -> None:
    """The era replaced the options scenarios once set by hand: a linked scenario plays its document's era."""
    for path in sorted((PROJECT_ROOT / "data" / "scenarios").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert not (isinstance(data, dict) and data.get("rules")), path.name


def test_the_redirection_era_is_the_one_its_rulings_were_proven_under() -> None:
    """The Lorwyn rulings on redirection were proven (and judged obsolete) under the rules of 2007-10-20."""
    era = TIMELINE.options_for(_document_dates()["lrw"])
    assert era.planeswalker_redirection and era.planeswalker_uniqueness and era.mana_burn


def test_the_module_stays_light() -> None:
    """It is data: no ingest, no search, no engine beyond its options."""
    code = (
        "import sys, kb.rules_timeline; "
        "print(' '.join(sorted(m for m in sys.modules if m.startswith(('ingest', 'rules_engine', 'kb')))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=PROJECT_ROOT)
    assert set(out.stdout.split()) <= {
        "kb",
        "kb.paths",
        "kb.rules_timeline",
        "rules_engine",
        "rules_engine.errors",
        "rules_engine.options",
    }, out.stdout


# ------------------------------------------------------------------------------------- strict loading

_GOOD = """\
format: mtg-rules-timeline
version: 1
current: cr-20260116.txt
changes:
  - id: test-change
    effective: "2009-07-11"
    date_certain: true
    release: Magic 2010
    kind: behaviour
    sources: {before: cr-20080501.txt, after: cr-20090711.txt}
    rules_before: ["300.3 mana burn"]
    rules_after: []
    rules_now: []
    summary_ru: "Ожог маны отменён."
    summary_en: "Mana burn is gone."
    option: mana_burn
    modelled: true
    touches: [lrw/planeswalker/12]
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "timeline.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_minimal_file_loads(tmp_path: Path) -> None:
    timeline = rt.load(_write(tmp_path, _GOOD))
    assert [c.id for c in timeline.changes] == ["test-change"]
    assert timeline.options_for("2008-01-01") == RulesOptions(mana_burn=True)


@pytest.mark.parametrize(
    ("old", "new", "line", "message"),
    [
        ("    touches:", "    colour: red\n    touches:", 18, "unknown key 'colour'"),
        ('effective: "2009-07-11"', 'effective: "11.07.2009"', 6, "ISO date"),
        ('effective: "2009-07-11"', 'effective: "2009-02-30"', 6, "ISO date"),
        ('effective: "2009-07-11"', 'effective: "2009-07-12"', 6, "not the date of cr-20090711.txt"),
        ("option: mana_burn", "option: mana_flood", 16, "not a RulesOptions field"),
        ("modelled: true", "modelled: false", 17, "implemented by the engine"),
        ("[lrw/planeswalker/12]", "[lrw/planeswalker/twelve]", 18, "not a ruling, note or rule ID"),
        ("[lrw/planeswalker/12]", "[LRW/Planeswalker/12]", 18, "not a ruling, note or rule ID"),
        ('["300.3 mana burn"]', '["rule 300.3"]', 11, "not a rule number"),
        ("kind: behaviour", "kind: behavior", 9, "kind must be one of"),
        ("id: test-change", "id: Test_Change", 5, "slug"),
        ("after: cr-20090711.txt", "after: cr-2009.txt", 10, "CR file"),
        ("version: 1", "version: 1\nextra: 2", 3, "unknown key 'extra'"),
        ("    modelled: true\n", "", 16, "must say modelled"),
    ],
)
def test_malformed_files_are_rejected_with_file_and_line(
    tmp_path: Path, old: str, new: str, line: int, message: str
) -> None:
    assert old in _GOOD
    path = _write(tmp_path, _GOOD.replace(old, new, 1))
    with pytest.raises(rt.TimelineError) as excinfo:
        rt.load(path)
    text = str(excinfo.value)
    assert "\n" not in text
    assert text.startswith(f"{path}:{line}: "), text
    assert message in text, text


def test_changes_out_of_date_order_are_rejected(tmp_path: Path) -> None:
    """A second change dated before the first (the Shadowmoor rules, 2008) is out of order."""
    second = _GOOD.split("changes:\n", 1)[1]
    second = second.replace("id: test-change", "id: earlier-change").replace('"2009-07-11"', '"2008-05-01"')
    second = second.replace(
        "before: cr-20080501.txt, after: cr-20090711.txt", "before: cr-20071001.txt, after: cr-20080501.txt"
    )
    path = _write(tmp_path, _GOOD + second)
    with pytest.raises(rt.TimelineError, match=rf"^{re.escape(str(path))}:20: changes are in date order"):
        rt.load(path)


def test_invalid_yaml_names_the_line(tmp_path: Path) -> None:
    path = _write(tmp_path, _GOOD.replace("    kind: behaviour", "    kind: [behaviour"))
    with pytest.raises(rt.TimelineError, match=rf"^{re.escape(str(path))}:\d+: YAML error"):
        rt.load(path)
