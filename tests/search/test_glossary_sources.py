"""Every alternative name in the glossary says where it comes from, and a document's old wording is really
in that document (data/glossary/terms.csv: ``status`` old | slang, ``note`` the source)."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
import yaml

from kb.search.analysis import analyze

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "data" / "glossary"
SOURCES = ROOT / "data" / "sources"
CR_DIR = ROOT.parent / "shared" / "comprehensive-rules"
SEEDED_KINDS = ("card type", "keyword ability", "keyword action", "ability word")


def _terms() -> list[dict[str, str]]:
    lines = [line for line in (GLOSSARY / "terms.csv").read_text("utf-8").splitlines() if not line.startswith("#")]
    return list(csv.DictReader(lines))


def _documents() -> dict[str, Path]:
    manifest = yaml.safe_load((SOURCES / "manifest.yaml").read_text("utf-8"))
    return {d["id"]: SOURCES / d["file"] for d in manifest["documents"]}


def _contains(text: str, term: str) -> bool:
    """The term's words, in order and adjacent, in any of their forms (as search matches a glossary term)."""
    wanted = analyze(term)
    positions = analyze(text)
    n = len(wanted)
    return any(all(set(wanted[k]) & set(positions[i + k]) for k in range(n)) for i in range(len(positions) - n + 1))


def test_every_alternative_name_has_its_source() -> None:
    missing = [(r["concept"], r["term"]) for r in _terms() if r["status"] in ("old", "slang") and not r["note"].strip()]
    assert missing == []


def test_every_seeded_mechanic_and_card_type_has_another_name() -> None:
    rows = _terms()
    mechanics = list(csv.DictReader((GLOSSARY / "mechanics.csv").open(encoding="utf-8")))
    lacking = []
    for mechanic in (m for m in mechanics if m["kind"] in SEEDED_KINDS):
        names = {mechanic["ru"].lower(), mechanic["en"].lower()}
        concepts = {r["concept"] for r in rows if r["term"].lower() in names}
        alternatives = [r for r in rows if r["concept"] in concepts and r["status"] != "official" and r["note"]]
        if not concepts or not alternatives:
            lacking.append(mechanic["en"])
    assert lacking == []


def test_a_documents_old_wording_is_in_that_document() -> None:
    documents = _documents()
    checked = 0
    for row in _terms():
        if row["status"] != "old" or row["lang"] != "ru":
            continue
        named = [d for d in re.findall(r"\b([a-z]{3})\b", row["note"]) if d in documents]
        for doc_id in named:
            assert _contains(documents[doc_id].read_text("utf-8"), row["term"]), (row["term"], doc_id)
            checked += 1
    assert checked >= 10


def test_old_comprehensive_rules_wording_is_in_those_rules() -> None:
    if not CR_DIR.is_dir():
        pytest.skip("../shared/comprehensive-rules is not here")
    checked = 0
    for row in _terms():
        if row["status"] != "old" or row["lang"] != "en":
            continue
        for date in re.findall(r"CR (\d{4})-(\d{2})-(\d{2})", row["note"]):
            path = CR_DIR / f"cr-{''.join(date)}.txt"
            text = path.read_bytes().decode("utf-8", errors="replace")
            assert _contains(text, row["term"]), (row["term"], path.name)
            checked += 1
    assert checked >= 5


def test_the_source_check_can_fail() -> None:
    lrw = _documents()["lrw"].read_text("utf-8")
    assert _contains(lrw, "покидать игру")
    assert not _contains(lrw, "покидать поле битвы")  # the 2007 document never says it
