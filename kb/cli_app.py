"""The shared typer application and the conventions every ``kb`` command follows.

- Everything a user reads is Russian, or English under ``kb --lang en`` / an ``en…`` locale (``kb.i18n``);
  help texts are catalogue keys, turned into text when the help is drawn, so one process can serve both;
- ``-h`` is ``--help`` everywhere; ``kb --version`` prints the installed package's version;
- ``--json`` prints one JSON document on stdout and nothing else there, errors included:
  ``{"error": {"message", "file", "line"}}`` with the same exit code as the text form;
- otherwise errors are one line on stderr, naming the file (and line) where that applies, exit code 1
  (2 for a usage error);
- progress and tables go to stderr/stdout through rich, never mixed into JSON output.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperCommand, TyperGroup

from kb import i18n
from kb.i18n import t
from kb.plain import split_location  # where a message names its file (shared with the quick commands)

try:
    from typer._click.exceptions import ClickException, UsageError
except ImportError:  # typer < 0.22 depends on click instead of vendoring it
    from click.exceptions import ClickException, UsageError  # type: ignore[no-redef,import-not-found,unused-ignore]

PACKAGE = "mtg-rulings-kb"

console = Console()
err_console = Console(stderr=True)


class _Run:
    """Per invocation: whether the user asked for ``--json`` (errors are then JSON too)."""

    json = False


def _scan_global_lang(args: Sequence[str]) -> str | None:
    """``--lang X`` among the options before the command name, read before click parses (help is eager)."""
    tokens = list(args)
    for i, token in enumerate(tokens):
        if token == "--lang":
            return tokens[i + 1] if i + 1 < len(tokens) else None
        if token.startswith("--lang="):
            return token.split("=", 1)[1]
        if not token.startswith("-"):
            return None  # the command name: its own ``--lang`` (kb search) is not the interface language
    return None


def _localize_typer_frames() -> None:
    """typer draws help and errors with module-level English titles; set them for this run's language."""
    from typer import rich_utils

    for name, key in (
        ("ARGUMENTS_PANEL_TITLE", "typer.arguments"),
        ("OPTIONS_PANEL_TITLE", "typer.options"),
        ("COMMANDS_PANEL_TITLE", "typer.commands"),
        ("ERRORS_PANEL_TITLE", "typer.error"),
        ("DEFAULT_STRING", "typer.default"),
        ("REQUIRED_LONG_STRING", "typer.required"),
        ("ABORTED_TEXT", "typer.aborted"),
        ("RICH_HELP", "typer.try_help"),
    ):
        if hasattr(rich_utils, name):
            setattr(rich_utils, name, t(key))


def _localize_attr(obj: Any, attr: str) -> None:
    """Replace a help attribute by its text; the catalogue key is kept aside for the next run's language."""
    keys: dict[str, Any] = obj.__dict__.setdefault("_kb_help_keys", {})
    if attr not in keys:
        keys[attr] = getattr(obj, attr, None)
    setattr(obj, attr, i18n.text_of(keys[attr]))


def _localize_help(command: Any, ctx: Any) -> None:
    _localize_typer_frames()
    _localize_attr(command, "help")
    _localize_attr(command, "short_help")
    for param in command.get_params(ctx):
        if param.name == "help":
            param.help = t("opt.help")
        else:
            _localize_attr(param, "help")
    if isinstance(command, TyperGroup):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None:
                _localize_attr(sub, "help")
                _localize_attr(sub, "short_help")


class KbCommand(TyperCommand):
    """A command whose help is drawn in the run's language."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        _localize_help(self, ctx)
        super().format_help(ctx, formatter)

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        formatter.write_usage(ctx.command_path, " ".join(self.collect_usage_pieces(ctx)), prefix=t("typer.usage"))


class KbGroup(TyperGroup):
    """A command group with localized help; the root one also chooses the language and reports errors."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        _localize_help(self, ctx)
        super().format_help(ctx, formatter)

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        formatter.write_usage(ctx.command_path, " ".join(self.collect_usage_pieces(ctx)), prefix=t("typer.usage"))

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        if parent is not None:
            return super().make_context(info_name, args, parent=parent, **extra)
        i18n.set_language(_scan_global_lang(args))
        _Run.json = "--json" in args
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except ClickException as exc:
            _usage_error(exc)

    def invoke(self, ctx: Any) -> Any:
        if ctx.parent is not None:
            return super().invoke(ctx)
        try:
            return super().invoke(ctx)
        except ClickException as exc:
            _usage_error(exc)


def _usage_error(exc: ClickException) -> NoReturn:
    """click's error in the run's language; under ``--json`` one JSON object on stdout, same exit code."""
    if type(exc).__name__ == "NoArgsIsHelpError":  # not an error: the help, already printed
        raise exc
    _localize_typer_frames()
    message = i18n.click_message(exc.format_message())
    if _Run.json:
        print_json({"error": {"message": message, "file": None, "line": None}})
        raise typer.Exit(exc.exit_code)
    localized = UsageError(message, ctx=exc.ctx) if isinstance(exc, UsageError) else ClickException(message)
    localized.exit_code = exc.exit_code
    raise localized from None


class KbTyper(typer.Typer):
    """``typer.Typer`` whose commands and groups draw their help in the run's language."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("cls", KbGroup)
        super().__init__(**kwargs)

    def command(self, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("cls", KbCommand)
        return super().command(*args, **kwargs)


app = KbTyper(
    name="kb",
    help="app.help",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["--help", "-h"]},
)


def _version(value: bool) -> None:
    if not value:
        return
    from importlib.metadata import PackageNotFoundError, version

    try:
        number = version(PACKAGE)
    except PackageNotFoundError:  # run from a checkout that was never installed
        from kb import __version__ as number
    console.print(t("version", version=number), highlight=False, markup=False)
    raise typer.Exit()


def _lang(value: str | None) -> str | None:
    if value is not None and value not in i18n.LANGUAGES:
        raise typer.BadParameter(t("err.lang", value=value))
    i18n.set_language(value)
    return value


@app.callback()
def main(
    lang: str = typer.Option(None, "--lang", metavar="ru|en", callback=_lang, is_eager=True, help="opt.lang"),
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="opt.version"),
) -> None:
    """The global options; the language itself is chosen before parsing (``_scan_global_lang``)."""


def _remember_json(value: bool) -> bool:
    _Run.json = bool(value)
    return value


JSON_OPTION = typer.Option(False, "--json", callback=_remember_json, help="opt.json")


def print_json(payload: Any) -> None:
    sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2, sort_keys=False) + "\n")


def fail(message: str, code: int = 1, *, file: str | None = None, line: int | None = None) -> NoReturn:
    """Print a one-line error (JSON under ``--json``) and exit non-zero."""
    if _Run.json:
        where_file, where_line, text = (file, line, message) if file is not None else split_location(message)
        print_json({"error": {"message": text, "file": where_file, "line": where_line}})
    else:
        shown = f"{file}{f':{line}' if line else ''}: {message}" if file is not None else message
        err_console.print(
            f"[bold red]{t('err.prefix')}:[/] {escape(shown)}", highlight=False, markup=True, soft_wrap=True
        )
    raise typer.Exit(code)


def warn(message: str) -> None:
    """A warning line on stderr (also under ``--json``: stdout stays one JSON document)."""
    err_console.print(f"[yellow]{t('warn.prefix')}:[/] {escape(message)}", highlight=False)


def load_kb() -> Any:
    """The stored knowledge base, or a one-line error saying how to make one."""
    from kb import paths, store

    path = paths.kb_path()
    try:
        if not store.exists(path):
            fail(t("err.no_kb"), file=str(path))
        return store.load(path)
    except store.KnowledgeBaseError as exc:
        fail(str(exc))


def stored_kb_path() -> Any:
    """The knowledge base's path once it is known to exist (an earlier ``kb.json`` migrated), else an error."""
    from kb import paths, store

    path = paths.kb_path()
    try:
        if not store.exists(path):
            fail(t("err.no_kb"), file=str(path))
    except store.KnowledgeBaseError as exc:
        fail(str(exc))
    return path
