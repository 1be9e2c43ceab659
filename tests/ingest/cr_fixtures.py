"""Small Comprehensive Rules files in the official layout, written for the tests (not copied from WotC).

``cr_text`` lays out a title, the effective-date line, a table of contents that repeats every heading
(so a parser that reads it as rules would count them twice), the rules, a glossary and the credits.
Two eras of an invented keyword: "Plotwork" is 502.78 in the old file and 702.78 in the new one, where
502.78 is taken by another rule, and its subrule's text changes between them.
"""

from __future__ import annotations

from pathlib import Path

OLD_RULES = """\
1. The Game

100. General

100.1. These test rules apply to any game of two or more players.

100.1a A two-player game is a game that begins with only two players.
Example: Two players sit down to play a test game.

5. Additional Rules

502. Keyword Abilities

502.77. Stubble

502.77a Stubble is a static ability that does nothing at all.

502.78. Plotwork

502.78a Plotwork is a triggered ability. "Plotwork" means "When you play this spell, copy it."

502.78b If a spell has multiple instances of plotwork, each triggers separately.
"""

NEW_RULES = """\
1. Game Concepts

100. General

100.1. These test rules apply to any game of two or more players.

100.1a A two-player game is a game that begins with only two players.
Example: Two players sit down to play a test game.

5. Turn Structure

502. Untap Step

502.78. The untap step has no keyword in it.

7. Additional Rules

702. Keyword Abilities

702.77. Stubble

702.77a Stubble is a static ability that does nothing at all.

702.78. Plotwork

702.78a Plotwork is a triggered ability. “Plotwork” means “When you cast this spell, copy it.”

702.78b If a spell has multiple instances of plotwork, each triggers separately.
"""

GLOSSARY = """\
Plotwork
A keyword ability that copies a spell. See rule {plotwork}, "Plotwork."

Stubble
A keyword ability that does nothing. See rule {stubble}, "Stubble."

Two-Player Game
A game that begins with only two players.
     See rule 100.1a.
"""


def cr_text(date: str = "January 16, 2026", old: bool = False, date_line: bool = True, quote: str = "’") -> str:
    """A whole CR file as text (LF line ends); callers encode it and pick the line ends."""
    rules = OLD_RULES if old else NEW_RULES
    headings = [line for line in rules.splitlines() if line and line.split(" ", 1)[0].count(".") == 1
                and line.split(" ", 1)[0].rstrip(".").isdigit()]
    glossary = GLOSSARY.format(plotwork="502.78" if old else "702.78", stubble="502.77" if old else "702.77")
    head = ["Magic: The Gathering Comprehensive Rules", ""]
    if date_line:
        head += [f"These rules are effective as of {date}.", ""]
    head += ["Introduction", "", f"This test document{quote}s rules are invented for the parser tests.", ""]
    contents = ["Contents", "", *headings, "", "Glossary", "", "Credits", "", "Customer Service Information", ""]
    return "\n".join([*head, *contents, rules, "Glossary", "", glossary, "", "Credits", "", "Test Team", ""])


def write_cr(path: Path, text: str, encoding: str = "utf-8", newline: str = "\n") -> Path:
    data = text.replace("\n", newline)
    raw = data.encode("utf-8-sig" if encoding == "utf-8-sig" else encoding)
    path.write_bytes(raw)
    return path
