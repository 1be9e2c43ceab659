"""Property tests: the parser never crashes, text → HTML/Markdown → parse is stable, decoding never guesses
wrong, and re-ingesting unchanged sources is byte-identical."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ingest.decode import bom_encoding, decode
from ingest.entries import ParsedDocument
from ingest.errors import IngestError
from ingest.mentions import CardMentionFinder
from ingest.pipeline import parse_path
from kb import build as kb_build
from kb.store import save
from tests.ingest.htmlify import to_html, to_markdown
from tests.ingest.test_formats import assert_same_entries, glossary

# Modest by default so the suite stays fast; KB_PROPERTY_EXAMPLES=2000 for a deeper search.
SETTINGS = settings(
    max_examples=int(os.environ.get("KB_PROPERTY_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@cache
def finder() -> CardMentionFinder:
    return CardMentionFinder.from_glossary(glossary())


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="kb-props-") as directory:
        yield Path(directory)


def parse_bytes(workdir: Path, data: bytes, suffix: str) -> ParsedDocument:
    path = workdir / f"doc{suffix}"
    path.write_bytes(data)
    return parse_path(path, None, glossary(), label=path.name, finder=finder())


# -- the parser never crashes --------------------------------------------------------------------------------
FRAGMENTS = [
    "", " ", "|", "-----", "---", "***", "***Тип карты: Мироходец***", "**Bold**", "## Heading", "# ", "* ", "*",
    "* Ruling text.", "- item", "— sub-item", "1) step", "702.36a Text of a rule.", "502.78. Conspire", "702.1",
    "{2}{G}{G}", "{X}{U/B}", "{2/B}", "{}", "{", "Creature — Elf Warrior", "Creature -- Elf", "Legendary Planeswalker",
    "Мироходец — Гаррук", "Loyalty: 3", "Верность: X", "3", "2/2", "*/*", "X/X", "[+1]: Draw a card.", "−7: Win.",
    "ОБЩИЕ ЗАМЕЧАНИЯ", "CARD-SPECIFIC NOTES", "General Notes", "Цикл: Монументы", "Keyword Ability: Persist",
    "Official rules for persist are as follows:", "Kitchen Finks {1}{G/W}{G/W}", "Compiled by Someone",
    "Last updated April 4, 2008", "Дата внесения последних изменений: 10 декабря 2012 г.", "(reminder (nested))",
    "(", ")", "«", "»", "\t", "\u00a0", "\ufeff", "<p>", "&amp;",
]
line_strategy = st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=60))


@SETTINGS
@given(lines=st.lists(line_strategy, max_size=40), suffix=st.sampled_from([".txt", ".md"]))
def test_parser_never_crashes_on_arbitrary_text(workdir: Path, lines: list[str], suffix: str) -> None:
    data = "\n".join(lines).encode("utf-8", "surrogatepass")
    try:
        result = parse_bytes(workdir, data, suffix)
    except IngestError as error:
        assert error.path == f"doc{suffix}" and str(error).startswith(f"doc{suffix}")
        return
    assert isinstance(result, ParsedDocument)
    assert all(w.path == f"doc{suffix}" and w.line >= 1 for w in result.warnings)


@SETTINGS
@given(data=st.binary(max_size=600), suffix=st.sampled_from([".txt", ".md", ".html"]))
def test_parser_never_crashes_on_arbitrary_bytes(workdir: Path, data: bytes, suffix: str) -> None:
    try:
        assert isinstance(parse_bytes(workdir, data, suffix), ParsedDocument)
    except IngestError as error:
        assert str(error).startswith(f"doc{suffix}")


TAGS = [
    "<p>", "</p>", "<ul>", "</ul>", "<ol>", "</ol>", "<li>", "</li>", "<br>", "<br/>", "<hr>", "<h2>", "</h2>",
    "<h3>", "</h3>", "<strong>", "</strong>", "<b>", "</b>", "<i>", "</i>", "<div>", "</div>", "<script>",
    "</script>", "<style>", "</style>", "<nav>", "</nav>", "<table><tr><td>", "</td></tr></table>", "<pre>",
    "</pre>", "<!--", "-->", "<![CDATA[", "]]>", "<", ">", "&", "&amp;", "&lt;", "&#x2014;", "&bogus;", "<a href='x'>",
    "</a>", "<p class=\"card\">", "<li><ul><li>", "</li></ul></li>", "<html>", "<body>", "<head>", "</head>",
    "<!DOCTYPE html>", "\n", "* ", "{2}{G}", "Creature — Elf", "2/2", "702.1a Rule.", "Keyword Ability: Persist",
]


@SETTINGS
@given(parts=st.lists(st.one_of(st.sampled_from(TAGS), st.text(max_size=30)), max_size=60))
def test_parser_never_crashes_on_html_ish_strings(workdir: Path, parts: list[str]) -> None:
    data = ("<html><body>" + "".join(parts)).encode("utf-8", "surrogatepass")
    try:
        result = parse_bytes(workdir, data, ".html")
    except IngestError as error:
        assert str(error).startswith("doc.html")
        return
    assert result.document.encoding == "html"


# -- text → HTML / Markdown → parse is stable, on generated documents ----------------------------------------
WORDS = [
    "creature", "spell", "ability", "counter", "mana", "library", "graveyard", "token", "damage", "player",
    "существо", "заклинание", "способность", "жетон", "мана", "библиотека", "кладбище", "урон", "игрок",
    "<MagicTheGathering.com>", "&", "a_b", "[карту]", "*не*", "{2}{G}", "+1/+1", "«Шок»", "(see", "rule)", "—",
    "Летучая_мышь", "#1", "x*y",
]
NAMES = ["Kitchen", "Finks", "Reaper", "King", "Oona", "Steppe", "Lynx", "Вассал", "Темнолесья", "Степная", "Рысь",
         "Крикун", "Базилики", "Garruk", "Монумент", "Nissa", "Revane"]
LABELS = ["Keyword Ability", "Ability Word", "Keyword Action", "Card Type", "Cycle", "Theme", "Ключевое слово",
          "Слово способности", "Тип карты", "Цикл", "Тема"]
COSTS = ["{W}", "{1}{G/W}{G/W}", "{2/B}{2/B}", "{X}{R}", "{3}{U/B}", "{0}", "{2}{W}{U}"]
TYPES = [("Creature — Elf Warrior", True), ("Legendary Creature — Human Wizard", True), ("Instant", False),
         ("Существо — Фея Солдат", True), ("Артефакт", False), ("Чары — Аура", False), ("Sorcery", False)]


@st.composite
def sentences(draw: st.DrawFn) -> str:
    words = draw(st.lists(st.sampled_from(WORDS), min_size=2, max_size=12))
    return draw(st.sampled_from(["The", "If", "Если", "Каждый", "A"])) + " " + " ".join(words) + "."


@dataclass
class Generated:
    text: str
    spaced: bool
    sections: int = 0
    cards: int = 0
    rules: int = 0
    rulings: int = 0
    notes: int = 0
    sub_items: list[int] = field(default_factory=list)


@st.composite
def documents(draw: st.DrawFn) -> Generated:
    spaced = draw(st.booleans())  # card-block lines separated by blank lines, as on GTC / FRF pages
    out: list[str] = []
    doc = Generated("", spaced)
    if draw(st.booleans()):
        out += [draw(sentences()), "", "-----", ""]
        doc.sections += 1
        doc.notes += 1
    used_names: set[str] = set()
    for _ in range(draw(st.integers(1, 4))):
        label, name = draw(st.sampled_from(LABELS)), draw(st.sampled_from(NAMES))
        heading = f"{label}: {name}"
        out += [f"***{heading}***" if draw(st.booleans()) else heading, ""]
        doc.sections += 1
        for kind in draw(st.lists(st.sampled_from(["note", "ruling", "card", "rule"]), min_size=1, max_size=6)):
            if kind == "note":
                out += [draw(sentences()), ""]
                doc.notes += 1
            elif kind == "rule":
                out += [f"70{draw(st.integers(1, 9))}.{draw(st.integers(1, 99))}{draw(st.sampled_from('abc'))} "
                        + draw(sentences()), ""]
                doc.rules += 1
            elif kind == "ruling":
                subs = draw(st.lists(st.sampled_from(["— ", "1) ", "2) "]), max_size=3))
                out += ["* " + draw(sentences()), *(s + draw(sentences()) for s in subs), ""]
                doc.rulings += 1
                doc.sub_items.append(len(subs))
            else:
                card_name = f"{draw(st.sampled_from(NAMES))} {draw(st.sampled_from(NAMES))}"
                if card_name in used_names:
                    continue
                used_names.add(card_name)
                type_line, creature = draw(st.sampled_from(TYPES))
                block = [card_name, draw(st.sampled_from(COSTS)), type_line]
                if creature:
                    block.append(f"{draw(st.integers(0, 9))}/{draw(st.integers(0, 9))}")
                block += [draw(sentences()) for _ in range(draw(st.integers(0, 2)))]
                out += [*("\n\n".join(block) if spaced else "\n".join(block)).split("\n"), ""]
                # a ruling always follows a card, as in FAQs: it ends the card's text
                out += ["* " + draw(sentences()), ""]
                doc.cards += 1
                doc.rulings += 1
                doc.sub_items.append(0)
        if draw(st.booleans()):
            out += ["-----", ""]
    if draw(st.booleans()):  # a card-specific part: each card block opens a «card notes» section of its own
        out += [draw(st.sampled_from(["CARD-SPECIFIC NOTES", "ОТДЕЛЬНЫЕ ЗАМЕЧАНИЯ ПО КАРТАМ"])), ""]
        for _ in range(draw(st.integers(1, 3))):
            card_name = f"{draw(st.sampled_from(NAMES))} {draw(st.sampled_from(NAMES))}"
            if card_name in used_names:
                continue
            used_names.add(card_name)
            type_line, creature = draw(st.sampled_from(TYPES))
            block = [card_name, draw(st.sampled_from(COSTS)), type_line, *(["1/1"] if creature else [])]
            out += [*("\n\n".join(block) if spaced else "\n".join(block)).split("\n"), ""]
            for _ in range(draw(st.integers(1, 2))):
                out += ["* " + draw(sentences()), ""]
                doc.rulings += 1
                doc.sub_items.append(0)
            doc.cards += 1
            doc.sections += 1
            if draw(st.booleans()):
                out += ["-----", ""]
    doc.text = "\n".join(out)
    return doc


@SETTINGS
@given(doc=documents(), heading_style=st.sampled_from(["h", "strong"]), sub_items=st.sampled_from(["br", "nested"]))
def test_text_to_html_and_markdown_is_stable(workdir: Path, doc: Generated, heading_style: str, sub_items: str) -> None:
    text_parse = parse_bytes(workdir, doc.text.encode("utf-8"), ".txt")
    summary = text_parse.summary()
    assert (summary["sections"], summary["cards"], summary["rules"], summary["rulings"], summary["notes"]) == (
        doc.sections, doc.cards, doc.rules, doc.rulings, doc.notes), doc.text
    rulings = [r for r in text_parse.rulings if r.kind == "ruling"]
    assert [len(r.text.splitlines()) - 1 for r in rulings] == doc.sub_items
    page = to_html(doc.text, heading_style=heading_style, sub_items=sub_items,  # type: ignore[arg-type]
                   card_lines="p" if doc.spaced else "br")
    assert_same_entries(text_parse, parse_bytes(workdir, page.encode("utf-8"), ".html"))
    markdown = to_markdown(doc.text, heading_style="#" if heading_style == "h" else "**")
    assert_same_entries(text_parse, parse_bytes(workdir, markdown.encode("utf-8"), ".md"))


# -- decoding never guesses wrong ----------------------------------------------------------------------------
printable = st.characters(blacklist_categories=("Cs", "Cc"))


@SETTINGS
@given(text=st.text(alphabet=st.one_of(printable, st.just("\n")), min_size=1, max_size=200), bom=st.booleans())
def test_utf8_round_trip(text: str, bom: bool) -> None:
    data = text.encode("utf-8")
    assume(data.strip())
    decoded, encoding = decode((b"\xef\xbb\xbf" if bom else b"") + data, "x.txt")
    assert decoded == text
    assert encoding == ("utf-8-sig" if bom else "utf-8")


RUSSIAN_WORDS = ["Мироходец", "входит", "в", "игру", "с", "жетонами", "верности", "Если", "существо", "ёж", "Ёлка",
                 "получает", "повреждения", "заклинание", "отменяется", "«Шок»", "щит", "объявляет", "подъём"]


@SETTINGS
@given(words=st.lists(st.sampled_from(RUSSIAN_WORDS), min_size=3, max_size=40),
       separators=st.lists(st.sampled_from([" ", " ", "\n", ", ", ". ", "\r\n", " — ", " 2/2 ", " {2}{G} "]),
                           min_size=40, max_size=40))
def test_cp1251_russian_is_detected_and_decoded_exactly(words: list[str], separators: list[str]) -> None:
    text = "".join(word + separator for word, separator in zip(words, separators, strict=False))
    decoded, encoding = decode(text.encode("cp1251"), "ru.txt")
    assert (decoded, encoding) == (text, "cp1251")


@SETTINGS
@given(data=st.binary(min_size=1, max_size=300))
def test_decode_is_exact_or_refuses(data: bytes) -> None:
    """Whatever bytes come in, decode either raises IngestError or returns text that encodes back to them."""
    try:
        text, encoding = decode(data, "x.bin")
    except IngestError as error:
        assert str(error).startswith("x.bin")
        return
    marked = bom_encoding(data)
    prefix = data[: marked[1]] if marked else b""
    assert prefix + text.encode("utf-8" if encoding == "utf-8-sig" else encoding) == data


def test_crlf_and_bom_sources_give_the_same_entries(workdir: Path) -> None:
    from tests.ingest.test_formats import SEEDS, SOURCES, manifest, parse_seed

    seed = SEEDS["gtc"]
    text = (SOURCES / seed).read_text(encoding="utf-8")
    target = workdir / seed
    for data in (b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8"), text.encode("cp1251")):
        target.write_bytes(data)
        reparsed = parse_path(target, manifest()[seed], glossary(), label=f"data/sources/{seed}")
        assert reparsed.document.encoding in ("utf-8-sig", "cp1251")
        assert_same_entries(parse_seed(seed), reparsed)


# -- re-ingesting unchanged sources is byte-identical ---------------------------------------------------------
_DUMP = """
import sys
from pathlib import Path
from kb import build
from kb.store import save
save(build.build(build.parse_sources(build.bundled_sources())), Path(sys.argv[1]))
"""


def test_reingest_is_byte_identical_across_processes_and_hash_seeds(tmp_path: Path) -> None:
    """The stored file does not depend on the process: no set/dict-order or hash-seed leaks into it."""
    root = Path(__file__).resolve().parents[2]
    outputs = []
    for seed in ("1", "2"):
        target = tmp_path / f"kb-{seed}.json"
        env = {**os.environ, "PYTHONHASHSEED": seed, "KB_BUILD_DIR": str(tmp_path / "build")}
        subprocess.run([sys.executable, "-c", _DUMP, str(target)], cwd=root, env=env, check=True, timeout=120)
        outputs.append(target.read_bytes())
    in_process = tmp_path / "kb-here.json"
    save(kb_build.build(kb_build.parse_sources(kb_build.bundled_sources())), in_process)
    assert outputs[0] == outputs[1] == in_process.read_bytes()
    assert b'"id": "shm/conspire-en/1"' in outputs[0]  # it is the real knowledge base
