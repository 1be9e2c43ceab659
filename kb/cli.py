"""Entry point of the ``kb`` command.

``main`` (the console script) imports only the command module the invocation names, so ``kb search`` and
``kb show`` do not pay for the ingest, export and verify modules; help, an unknown command or no command
imports them all. ``from kb.cli import app`` (tests, ``python -m kb``) gets the app with every command.
"""

from __future__ import annotations

import sys
from importlib import import_module
from typing import Any

# command name → the module under ``kb.commands`` that registers it on the app
COMMAND_MODULES = {
    "ingest": "ingest",
    "stats": "ingest",
    "show": "ingest",
    "search": "search",
    "index": "search",
    "export": "export",
    "verify": "verify",
    "coverage": "verify",
}
_ORDER = ("export", "ingest", "search", "verify")  # registration order: the order help lists commands in


def load_commands(modules: tuple[str, ...] = _ORDER) -> Any:
    """Register the commands of ``modules`` on the app and return it."""
    from kb.cli_app import app

    for module in modules:
        import_module(f"kb.commands.{module}")
    return app


def command_name(args: list[str]) -> str | None:
    """The command an argument list names: the first word that is neither an option nor ``--lang``'s value."""
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg == "--lang":
            skip = True
        elif not arg.startswith("-"):
            return arg
    return None


# The options of the commands a judge runs most, for the fast path: name → (keyword, takes a value).
_FAST_COMMANDS: dict[str, tuple[str | None, dict[str, tuple[str, bool]]]] = {
    "search": ("query", {
        "--set": ("set_", True), "--card": ("card", True), "--mechanic": ("mechanic", True),
        "--kind": ("kind", True), "--lang": ("lang", True), "--limit": ("limit", True), "-n": ("limit", True),
        "--current": ("current", False), "--json": ("as_json", False),
    }),
    "show": ("entry_id", {"--json": ("as_json", False)}),
    "stats": (None, {"--json": ("as_json", False)}),
}
_FAST_DEFAULTS: dict[str, dict[str, Any]] = {
    "search": {"set_": None, "card": None, "mechanic": None, "kind": None, "lang": None, "limit": 10,
               "current": False, "as_json": False},
    "show": {"as_json": False},
    "stats": {"as_json": False},
}
# the fast commands that need neither typer nor (off a terminal) rich's console: ``kb/commands/show.py``
_LIGHT = frozenset({"show", "stats"})
LIMIT_RANGE = (1, 500)  # ``kb search --limit``'s bounds, as declared in kb/commands/search.py


def fast_invocation(args: list[str]) -> tuple[str | None, str, dict[str, Any]] | None:
    """(interface language, command, its keyword arguments) for a plain ``kb search`` / ``kb show`` / ``kb stats``.

    Anything else — help, an unknown or malformed option, a bad value, ``--`` — is ``None`` and goes
    through typer, which parses it and words the error exactly as before.
    """
    lang: str | None = None
    i = 0
    while i < len(args) and args[i].startswith("--lang"):
        if args[i] == "--lang" and i + 1 < len(args):
            lang, i = args[i + 1], i + 2
        elif args[i].startswith("--lang="):
            lang, i = args[i].split("=", 1)[1], i + 1
        else:
            return None
    if i >= len(args) or args[i] not in _FAST_COMMANDS or (lang is not None and lang not in ("ru", "en")):
        return None
    command, rest = args[i], args[i + 1 :]
    positional, options = _FAST_COMMANDS[command]
    values: dict[str, Any] = dict(_FAST_DEFAULTS[command])
    found: list[str] = []
    j = 0
    while j < len(rest):
        arg = rest[j]
        if not arg.startswith("-") or arg == "-":
            found.append(arg)
            j += 1
            continue
        name, eq, inline = arg.partition("=")
        if name not in options:
            return None
        keyword, takes_value = options[name]
        if not takes_value:
            if eq:
                return None
            values[keyword] = True
            j += 1
            continue
        if eq:
            value, j = inline, j + 1
        elif j + 1 < len(rest):
            value, j = rest[j + 1], j + 2
        else:
            return None
        values[keyword] = value
    if len(found) != (0 if positional is None else 1):
        return None
    if positional is not None:
        values[positional] = found[0]
    if command == "search":
        limit = values["limit"]
        if isinstance(limit, str):
            if not limit.isdigit() or not LIMIT_RANGE[0] <= int(limit) <= LIMIT_RANGE[1]:
                return None
            values["limit"] = int(limit)
    return lang, command, values


def _run_fast(lang: str | None, command: str, values: dict[str, Any]) -> None:
    """Call the command function directly: typer's parsing builds a pydantic adapter per parameter (~60 ms).

    ``kb show`` / ``kb stats`` (``kb.commands.show``) and ``kb search`` (``kb.commands.search_run``) run without
    typer at all; typer is imported for an error.
    """
    from kb import i18n

    i18n.set_language(lang)
    if command in _LIGHT:  # errors exit by themselves (``kb.plain.fail``)
        from kb.commands import show

        getattr(show, command)(**values)
        return
    if command == "search":
        from kb.commands.search_run import run
    else:
        from kb import cli_app

        cli_app._Run.json = bool(values.get("as_json"))
        run = getattr(import_module(f"kb.commands.{COMMAND_MODULES[command]}"), command)
    try:
        run(**values)
    except Exception as exc:
        import typer

        if isinstance(exc, typer.Exit):
            sys.exit(exc.exit_code)
        raise


def main() -> None:
    """The ``kb`` console script."""
    args = sys.argv[1:]
    fast = fast_invocation(args)
    if fast is not None:
        _run_fast(*fast)
        return
    module = COMMAND_MODULES.get(command_name(args) or "")
    load_commands((module,) if module else _ORDER)(prog_name="kb")


def __getattr__(name: str) -> Any:
    if name == "app":
        return load_commands()
    raise AttributeError(name)


__all__ = ["load_commands", "main"]  # and ``app``, through __getattr__
