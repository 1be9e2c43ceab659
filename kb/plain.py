"""Output for the quick commands (``kb show``, ``kb stats``) without importing typer and rich's console.

Importing ``rich.console`` costs about 45 ms and typer as much again, more than ``kb show`` spends on its
answer. Where rich would print no colour anyway (stdout not a terminal, colour not forced: a pipe, a file,
a test), ``PlainConsole`` prints the very same characters: rich's markup rules (tags dropped, ``\\[``
escapes, emoji codes), rich's word wrap at rich's width (``kb.cells``: rich's ``rich._wrap``, ``rich.cells``)
and its centred rule. In a terminal ``console()`` is rich's console, so colours are as before.
``tests/test_plain_console.py`` compares the two on every entry's ``kb show``.
"""

from __future__ import annotations

import json
import os
import re
import sys
from typing import Any, NoReturn

from kb.cells import wrapped  # rich's ``Text.wrap`` (``kb.commands.search_run`` uses it from here too)

# rich.markup.RE_TAGS: ``[bold]``, ``[/]``, ``\[`` (escaped), ``[link=…]``
RE_TAGS = re.compile(r"""((\\*)\[([a-z#/@][^[]*?)])""", re.VERBOSE)
EMOJI_CODE = re.compile(r":\S*?:")


CONTROL = dict.fromkeys((7, 8, 11, 12, 13))  # what rich's ``Text`` strips (``strip_control_codes``)


class Run:
    """Per invocation: whether the command was asked for ``--json`` (errors are then JSON too)."""

    json = False


def _forced_terminal() -> bool | None:
    """What rich's ``Console.is_terminal`` decides from the environment alone (``None``: ask ``isatty``)."""
    tty_compatible = os.environ.get("TTY_COMPATIBLE", "")
    if tty_compatible in ("0", "1"):
        return tty_compatible == "1"
    force_color = os.environ.get("FORCE_COLOR")
    if force_color is not None:
        return force_color != ""
    return None


def is_plain(stream: Any) -> bool:
    """True when rich would write to ``stream`` without any escape sequence."""
    forced = _forced_terminal()
    if forced is not None:
        return not forced
    isatty = getattr(stream, "isatty", None)
    try:
        return not (isatty is not None and isatty())
    except ValueError:
        return True


def width() -> int:
    """rich's ``Console.size.width`` for a console that is not a terminal."""
    found: int | None = None
    for descriptor in (0, 1, 2):
        try:
            found = os.get_terminal_size(descriptor)[0]
            break
        except (AttributeError, ValueError, OSError):
            pass
    columns = os.environ.get("COLUMNS")
    if columns is not None and columns.isdigit():
        found = int(columns)
    return found or 80


def markup_to_plain(markup: str) -> str:
    """The text rich's ``render_markup`` gives, without its styles (``rich.markup._parse``)."""
    if "[" not in markup:
        return markup
    out: list[str] = []
    position = 0
    for match in RE_TAGS.finditer(markup):
        full_text, escapes, _tag = match.groups()
        start, end = match.span()
        if start > position:
            out.append(markup[position:start].replace("\\[", "["))
        position = end
        if escapes:
            backslashes, escaped = divmod(len(escapes), 2)
            out.append("\\" * backslashes)
            if escaped:
                out.append(full_text[len(escapes):])
    out.append(markup[position:].replace("\\[", "["))
    return "".join(out)


_MARKUP_TAG = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")


def escape(markup: str) -> str:
    """``rich.markup.escape`` without importing rich: user text never becomes markup."""
    markup = _MARKUP_TAG.sub(lambda m: f"{m.group(1)}{m.group(1)}\\{m.group(2)}", markup)
    if markup.endswith("\\") and not markup.endswith("\\\\"):
        return markup + "\\"
    return markup


def _emoji(text: str) -> str:
    if ":" not in text or not EMOJI_CODE.search(text):
        return text
    from rich._emoji_replace import _emoji_replace

    return _emoji_replace(text)


class PlainTable:
    """The part of ``rich.table.Table`` ``kb stats`` uses (heavy-head box, a left-justified title), drawn as rich
    draws it uncoloured, narrowed and wrapped to the console as rich does (``kb.plain_table``); the few
    tables it cannot draw exactly ``PlainConsole`` hands to rich."""

    def __init__(self, title: str = "", title_justify: str = "left") -> None:
        self.title, self.title_justify = title, title_justify
        self.columns: list[tuple[str, str]] = []
        self.no_wrap: list[bool] = []
        self.rows: list[list[str]] = []
        self.sections: set[int] = set()  # a rule before these rows

    def add_column(self, header: str, justify: str = "left", no_wrap: bool = False) -> None:
        self.columns.append((header, justify))
        self.no_wrap.append(no_wrap)

    def add_row(self, *cells: str) -> None:
        self.rows.append(list(cells))

    def add_section(self) -> None:
        self.sections.add(len(self.rows))

    def to_rich(self) -> Any:
        from rich.table import Table

        table = Table(title=self.title, title_justify=self.title_justify)  # type: ignore[arg-type]
        for (header, justify), no_wrap in zip(self.columns, self.no_wrap, strict=True):
            table.add_column(header, justify=justify, no_wrap=no_wrap)  # type: ignore[arg-type]
        for number, row in enumerate(self.rows):
            if number in self.sections:
                table.add_section()
            table.add_row(*row)
        return table

    def lines(self, size: int) -> list[str] | None:
        """The drawn table at ``size`` cells, rich's layout (``kb.plain_table``); ``None``: only rich can draw it."""
        from kb.plain_table import draw

        if self.title_justify != "left" or any(len(row) != len(self.columns) for row in self.rows):
            return None
        header = [markup_to_plain(h) for h, _ in self.columns]
        body = [[markup_to_plain(c) for c in row] for row in self.rows]
        right = [justify == "right" for _, justify in self.columns]
        if any(justify not in ("left", "right") for _, justify in self.columns) or not header:
            return None
        wrapable = [not no_wrap for no_wrap in self.no_wrap]
        return draw(markup_to_plain(self.title), header, body, right, self.sections, size, wrapable)


class PlainConsole:
    """The part of ``rich.console.Console`` the quick commands use, printing what rich prints uncoloured."""

    def __init__(self, stderr: bool = False) -> None:
        self.stderr = stderr

    @property
    def file(self) -> Any:
        return sys.stderr if self.stderr else sys.stdout

    def _text(self, item: Any, markup: bool | None, emoji: bool | None) -> str:
        if not isinstance(item, str):
            return str(getattr(item, "plain", item))
        text = markup_to_plain(item) if markup is not False else item
        return (_emoji(text) if emoji is not False else text).translate(CONTROL)

    def print(
        self,
        *objects: Any,
        sep: str = " ",
        end: str = "\n",
        style: Any = None,
        markup: bool | None = None,
        emoji: bool | None = None,
        highlight: bool | None = None,
        soft_wrap: bool = False,
    ) -> None:
        if len(objects) == 1 and isinstance(objects[0], PlainTable):
            drawn = objects[0].lines(width())
            if drawn is None:  # rich's own layout: shrunk or wrapped columns
                from rich.console import Console

                Console(stderr=self.stderr).print(objects[0].to_rich())
            else:
                self.file.write("".join(line + "\n" for line in drawn))
            return
        text = sep.join(self._text(item, markup, emoji) for item in objects)
        if "\t" in text:
            text = text.expandtabs(8)
        if not objects:
            self.file.write(end)
            return
        if soft_wrap:
            self.file.write(text + end)
            return
        self.file.write("\n".join(wrapped(text, width())) + end)

    def rule(self, title: str = "", characters: str = "─") -> None:
        """rich's ``Rule`` with its title centred (``rich.rule.Rule.__rich_console__``)."""
        from kb.cells import cell_len, set_cell_size

        size = width()
        plain = _emoji(markup_to_plain(title)).replace("\n", " ")
        if cell_len(plain) > size - 4:
            plain = set_cell_size(plain, size - 5) + "…"
        side = (size - cell_len(plain)) // 2
        left = characters * (side - 1)
        right = characters * min(side + 1, size - len(left) - cell_len(plain))
        line = set_cell_size(f"{left} {plain} {right}", size)
        self.file.write(line + "\n")


def console(stderr: bool = False) -> Any:
    """A console for stdout (or stderr): plain where rich would print no colour, rich's in a terminal."""
    stream = sys.stderr if stderr else sys.stdout
    if is_plain(stream):
        return PlainConsole(stderr)
    app = sys.modules.get("kb.cli_app")  # once loaded, the console every other command prints with (not imported:
    if app is not None:  # cli_app sits above this module)
        return app.err_console if stderr else app.console
    from rich.console import Console

    return Console(stderr=stderr)


def print_json(payload: Any) -> None:
    sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2, sort_keys=False) + "\n")


_LOCATION = re.compile(r"^(?P<file>[^\s:]+?)(?::(?P<line>\d+))?: (?P<message>.+)$", re.DOTALL)


def split_location(message: str) -> tuple[str | None, int | None, str]:
    """``path:12: text`` → (path, 12, text); a message not starting with a path is returned whole."""
    match = _LOCATION.match(message)
    if match is None:
        return None, None, message
    file, line = match["file"], match["line"]
    if line is None and "/" not in file and "." not in file:
        return None, None, message  # "word: text" is a message, not a location
    return file, int(line) if line else None, match["message"]


def fail(message: str, code: int = 1, *, file: str | None = None, line: int | None = None) -> NoReturn:
    """What ``kb.cli_app.fail`` prints (a one-line error, or JSON under ``--json``), then exit ``code``."""
    from kb.i18n import t

    if Run.json:
        where_file, where_line, text = (file, line, message) if file is not None else split_location(message)
        print_json({"error": {"message": text, "file": where_file, "line": where_line}})
        raise SystemExit(code)
    shown = f"{file}{f':{line}' if line else ''}: {message}" if file is not None else message
    out = console(stderr=True)
    if isinstance(out, PlainConsole):
        out.print(f"{t('err.prefix')}: {shown}", markup=False, soft_wrap=True)
    else:
        from rich.markup import escape

        out.print(f"[bold red]{t('err.prefix')}:[/] {escape(shown)}", highlight=False, markup=True, soft_wrap=True)
    raise SystemExit(code)
