"""The Comprehensive Rules parser: the eight official versions when present, and small written fixtures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ingest.comprehensive_rules import looks_like_comprehensive_rules, parse_comprehensive_rules
from ingest.entries import CRGlossary, CRRule, CRVersion, ParsedRules, entry_from_dict
from ingest.errors import IngestError
from kb.rules_history import parent
from tests.ingest.cr_fixtures import cr_text, write_cr

CR_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "comprehensive-rules"

# version: (ISO date, encoding, minimum rules, minimum glossary terms)
VERSIONS = {
    "20071001": ("2007-10-01", "utf-8", 1200, 380),
    "20080501": ("2008-05-01", "utf-8", 1230, 390),
    "20090711": ("2009-07-11", "utf-8", 1550, 400),
    "20130201": ("2013-02-01", "utf-8", 2000, 470),
    "20150123": ("2015-01-23", "cp1252", 2100, 495),
    "20150327": ("2015-03-27", "cp1252", 2100, 495),
    "20260116": ("2026-01-16", "utf-8-sig", 3200, 700),
}


def official(version: str) -> ParsedRules:
    path = CR_DIR / f"cr-{version}.txt"
    if not path.exists():
        pytest.skip(f"{path} is not here (reference data, not part of the repository)")
    return parse_comprehensive_rules(path.read_bytes(), str(path))


def by_number(parsed: ParsedRules) -> dict[str, CRRule]:
    return {rule.number: rule for rule in parsed.rules}


@pytest.mark.parametrize("version", sorted(VERSIONS))
def test_official_version_parses_with_sane_counts_and_structure(version: str) -> None:
    parsed = official(version)
    date, encoding, min_rules, min_terms = VERSIONS[version]
    assert (parsed.version.version, parsed.version.date, parsed.version.encoding) == (version, date, encoding)
    assert len(parsed.rules) >= min_rules and len(parsed.glossary) >= min_terms
    numbers = [rule.number for rule in parsed.rules]
    assert len(numbers) == len(set(numbers)), "a heading of the table of contents was read as a rule"
    rules = by_number(parsed)
    for rule in parsed.rules:  # every subrule hangs under a rule of the same version
        if rule.kind != "part":
            assert parent(rule.number) in rules, rule.id
    assert rules["100"].title == "General" and rules["100"].source.start > 100  # the body, not the contents
    assert all(not example.startswith("Example") or "Example" not in rule.text for rule in parsed.rules
               for example in rule.examples)
    assert any(rule.examples for rule in parsed.rules)
    assert {g.term for g in parsed.glossary} >= {"Ability", "Flash"}
    assert not any(g.term == "Credits" or g.term.startswith("Magic: The Gathering Original") for g in parsed.glossary)


def test_conspire_is_502_78_in_2008_and_702_78_today() -> None:
    old, today = by_number(official("20080501")), by_number(official("20260116"))
    assert old["502.78"].title == "Conspire" and old["502.78a"].text.startswith("Conspire is a keyword")
    assert today["702.78"].title == "Conspire" and today["702.78a"].text.startswith("Conspire is a keyword")
    assert "502.78" not in today or today["502.78"].title != "Conspire"
    assert "502.78" not in by_number(official("20071001"))  # Shadowmoor's rules came after Lorwyn's


def test_megamorph_is_702_36b_in_the_dtk_rules_and_unknown_before() -> None:
    dtk = by_number(official("20150327"))
    assert dtk["702.36b"].text.startswith("Megamorph is a variant of the morph ability")
    assert not any("Megamorph" in rule.text for rule in official("20150123").rules)


def test_2026_agrees_with_the_structured_json_of_the_same_version() -> None:
    """The JSON beside the text file was made by someone else's parser: every rule and term must agree."""
    parsed = official("20260116")
    path = CR_DIR / "cr-20260116.json"
    if not path.exists():
        pytest.skip("no structured JSON of the 2026 rules")
    data = json.loads(path.read_text("utf-8"))
    theirs = {item["Number"].rstrip("."): "\n".join(item["Body"]) for item in data["Rules"]}
    ours = {rule.number: rule.text for rule in parsed.rules}
    assert ours == theirs
    assert [g.term for g in parsed.glossary] == [g["KeyText"] for g in data["Glossary"]]
    assert [g.text for g in parsed.glossary] == [g["Body"] for g in data["Glossary"]]


def test_2009_misprinted_rule_number_is_read_and_reported() -> None:
    parsed = official("20090711")
    assert by_number(parsed)["702.37a"].text.startswith("Storm is a triggered ability")
    assert [w.line for w in parsed.warnings] == [2576, 2578]




# --- written fixtures: encodings, line ends, layout, errors ------------------------------------------

@pytest.mark.parametrize(
    ("encoding", "newline", "expected"),
    [
        ("utf-8", "\n", "utf-8"),
        ("utf-8-sig", "\r", "utf-8-sig"),
        ("cp1252", "\r\n", "cp1252"),
        ("utf-8-sig", "mixed", "utf-8-sig"),
    ],
)
def test_encodings_and_line_ends_parse_alike(tmp_path: Path, encoding: str, newline: str, expected: str) -> None:
    text = cr_text()
    if newline == "mixed":  # like the 2026 file: CR for most lines, CRLF for some
        lines = text.split("\n")
        data = "".join(line + ("\r\n" if i % 3 == 0 else "\r") for i, line in enumerate(lines))
        path = write_cr(tmp_path / "cr.txt", data, encoding, newline="\n")
    else:
        path = write_cr(tmp_path / "cr.txt", text, encoding, newline)
    raw = path.read_bytes()
    assert looks_like_comprehensive_rules(raw)
    parsed = parse_comprehensive_rules(raw, "cr.txt")
    assert parsed.version.encoding == expected
    assert parsed.version.version == "20260116"
    rules = by_number(parsed)
    assert list(rules) == ["1", "100", "100.1", "100.1a", "5", "502", "502.78", "7", "702", "702.77", "702.77a",
                           "702.78", "702.78a", "702.78b"]
    assert rules["702.78a"].text.endswith("“When you cast this spell, copy it.”")
    assert rules["100.1a"].examples == ("Example: Two players sit down to play a test game.",)
    assert rules["702.78"].title == "Plotwork" and rules["502.78"].title is None
    body_line = text.split("\n").index("702.78. Plotwork") + 1
    assert rules["702.78"].source.start == body_line  # line numbers count CR, LF and CRLF ends alike
    assert [g.term for g in parsed.glossary] == ["Plotwork", "Stubble", "Two-Player Game"]
    assert parsed.glossary[2].text == "A game that begins with only two players.\nSee rule 100.1a."
    assert parsed.glossary[0].id == "cr/20260116/glossary/plotwork"
    assert rules["702.78a"].id == "cr/20260116/702.78a"


def test_cp1252_curly_quote_is_not_mis_decoded(tmp_path: Path) -> None:
    path = write_cr(tmp_path / "cr.txt", cr_text(), "cp1252", "\r\n")
    assert b"\x92" in path.read_bytes()
    parsed = parse_comprehensive_rules(path.read_bytes(), "cr.txt")
    assert "“Plotwork”" in by_number(parsed)["702.78a"].text


def test_a_document_is_not_taken_for_comprehensive_rules() -> None:
    assert not looks_like_comprehensive_rules("***Ключевое слово: Упорство***\n".encode())
    assert not looks_like_comprehensive_rules(b"Comprehensive Rules notes\n")


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        (cr_text(date_line=False), "под заголовком нет строки «These rules are effective as of <дата>.»", 2),
        (cr_text(date="Smarch 1, 2026"), "не дата: «Smarch 1, 2026»", 3),
        (cr_text().replace("\nGlossary\n\nPlotwork", "\nPlotwork"), "после правил нет заголовка «Glossary»", None),
        (cr_text().replace("\nCredits\n\nTest Team", "\nTest Team"), "после глоссария нет заголовка «Credits»", None),
    ],
)
def test_malformed_file_is_one_error_naming_file_and_line(text: str, message: str, line: int | None) -> None:
    with pytest.raises(IngestError) as caught:
        parse_comprehensive_rules(text.encode("utf-8"), "bad-cr.txt")
    error = caught.value
    assert message in error.message and error.path == "bad-cr.txt"
    assert error.line is not None and "\n" not in str(error)
    if line is not None:
        assert error.line == line


def test_undecodable_bytes_are_an_error_with_a_line(tmp_path: Path) -> None:
    data = cr_text().encode("utf-8").replace(b"Stubble is", b"Stubble \x81is")  # 0x81: not in CP1252
    with pytest.raises(IngestError) as caught:
        parse_comprehensive_rules(data, "cr.txt")
    line = "702.77a Stubble is a static ability that does nothing at all."
    assert caught.value.line == cr_text().split("\n").index(line) + 1


def test_entries_round_trip_through_their_dicts(tmp_path: Path) -> None:
    parsed = parse_comprehensive_rules(cr_text().encode("utf-8"), "cr.txt")
    for entry in parsed.entries():
        assert entry_from_dict(json.loads(json.dumps(entry.to_dict()))) == entry
    assert isinstance(parsed.entries()[0], CRVersion)
    assert {type(e) for e in parsed.entries()} == {CRVersion, CRRule, CRGlossary}
    assert parsed.summary() == {"rules": 14, "headings": 8, "glossary": 3, "warnings": 0}
