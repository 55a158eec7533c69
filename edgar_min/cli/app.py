"""The argparse parser of every command; `cli/context.py` runs what it parsed."""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from edgar_min import __version__
from edgar_min.cli.context import Context, execute, read_input

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TextIO

__all__ = ["Context", "build_parser", "read_input", "run"]


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is an exception we map, not a `sys.exit` from inside."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(self, message)


class _TopParser(_Parser):
    """The `edgar` parser: `--set` given after the command joins those given before it."""

    def parse_known_args(self, *args: Any, **kwargs: Any) -> tuple[argparse.Namespace, list[str]]:  # type: ignore[override]
        ns, extra = super().parse_known_args(*args, **kwargs)
        if hasattr(ns, "set_after"):
            ns.set = [*(ns.set or ()), *ns.set_after]
            del ns.set_after
        return ns, extra


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """argparse's formatter, sized the way `shutil.get_terminal_size` does it.

    argparse builds a formatter for every argument it adds, and the stock one imports
    `shutil` (and with it `bz2`, `lzma` and `fnmatch`) to learn the width: a cost on every
    run of every command, for a width only `--help` uses.
    """

    def __init__(self, prog: str, *args: Any, **kwargs: Any) -> None:
        if not args and kwargs.get("width") is None:
            kwargs["width"] = _columns() - 2  # argparse's own margin
        super().__init__(prog, *args, **kwargs)


def _columns() -> int:
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _UsageError(Exception):
    def __init__(self, parser: argparse.ArgumentParser, message: str) -> None:
        super().__init__(message)
        self.parser = parser
        self.message = message


class _VersionRequested(Exception):
    pass


class _VersionAction(argparse.Action):
    def __call__(self, *_args: object, **_kwargs: object) -> None:
        raise _VersionRequested


def build_parser(
    command: str | None = None, subcommand: str | None = None, *, every: bool = False
) -> argparse.ArgumentParser:
    """The parser, with `command` (and `skills SUBCOMMAND`) built in full and the rest as names.

    Every command is listed with its help line from the table in `edgar_min.cli`; only the
    module of the named command is imported and registers its parsers (`every`: all of them).
    """
    from edgar_min.cli import COMMANDS, SKILLS_COMMANDS

    parser = _TopParser(
        prog="edgar", description="A safe skill memory for agent harnesses.", epilog=_epilog("edgar")
    )
    parser.add_argument("--version", action=_VersionAction, nargs=0, help="print the version and exit")
    parser.add_argument("--root", default=".", help="the project root (default: the current folder)")
    parser.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    parser.add_argument(
        "--set",
        action="append",
        metavar="SECTION.KEY=VALUE",
        help="override one config key for this run (repeatable), e.g. skills.synthesis=off",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True
    _register(commands, COMMANDS, SKILLS_COMMANDS, wanted=(command, subcommand), every=every)
    for leaf in _leaves(commands):
        _accept_global_options(leaf)
        leaf.epilog = _epilog(leaf.prog.removeprefix("edgar "))
    return parser


def _epilog(command: str) -> str:
    """The examples of `command` (when it has some) and the exit codes, for the end of its `--help`."""
    from edgar_min.cli import EXAMPLES, EXIT_CODES, HOOK_EXIT_CODES

    examples = EXAMPLES.get(command, ())
    shown = "examples:\n" + "\n".join(f"  {line}" for line in examples) + "\n\n" if examples else ""
    return shown + (HOOK_EXIT_CODES if command == "hook" else EXIT_CODES)


def _register(
    commands: Any, table: Any, skills_table: Any, *, wanted: tuple[str | None, str | None], every: bool
) -> None:
    """Every command: the wanted one's module (or every one) in full, the others as names only."""
    command, subcommand = wanted
    for name, help_line, module in table:
        if name in commands.choices:
            continue  # registered with another command of its module
        if name == "skills" and (every or command == "skills"):
            skills = commands.add_parser("skills", help=help_line)
            skills_commands = skills.add_subparsers(dest="skills_command", metavar="SUBCOMMAND")
            skills_commands.required = True
            _add(skills_commands, skills_table, "register_skills", subcommand, every)
        elif module is not None and (every or module == _module_of(table, command)):
            importlib.import_module(module).register(commands)
        else:
            commands.add_parser(name, help=help_line, add_help=False)


def _leaves(commands: Any) -> list[argparse.ArgumentParser]:
    """Every command's parser, and every `skills` subcommand's."""
    found = []
    for parser in dict.fromkeys(commands.choices.values()):
        nested = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        found += _leaves(nested[0]) if nested else [parser]
    return found


def _accept_global_options(parser: argparse.ArgumentParser) -> None:
    """`--root`, `--json` and `--set` after the command too, as people write them.

    Given after the command, they are read by its parser into a namespace of their own, which
    argparse then lays over the one the options before the command made: an option not given
    there must not be in it (SUPPRESS), and `--set` after the command goes to `set_after`,
    joined to those before it by `_TopParser`.
    """
    parser.add_argument("--root", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    parser.add_argument(
        "--set", dest="set_after", action="append", default=argparse.SUPPRESS, help=argparse.SUPPRESS
    )


def _module_of(table: Any, wanted: str | None) -> str | None:
    return next((module for name, _help, module in table if name == wanted), None)


def _add(commands: Any, table: Any, register: str, wanted: str | None, every: bool) -> None:
    """Add the `skills` subcommands: those of the wanted one's module (or every one) in full."""
    wanted_module = _module_of(table, wanted)
    for name, help_line, module in table:
        if name in commands.choices:
            continue  # registered with another subcommand of its module
        if every or module == wanted_module:
            getattr(importlib.import_module(module), register)(commands)
        else:
            commands.add_parser(name, help=help_line, add_help=False)


def _command_words(argv: list[str]) -> tuple[str | None, str | None]:
    """The command and `skills` subcommand that argv names, as argparse will most likely read it.

    Only a guess to choose which parsers to build: `run` checks what argparse made of it.
    """
    words: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in {"--root", "--set"}:
            skip = True
        elif not arg.startswith("-"):
            words.append(arg)
            if words[0] != "skills" or len(words) == 2:
                break
    words += [None, None]  # type: ignore[list-item]
    return words[0], words[1]


def run(argv: list[str], stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    words = _command_words(argv)
    try:
        # At most a command and a subcommand to learn, if argparse read the words otherwise
        # than the guess (an abbreviated option, say): build what it chose and parse again.
        for _ in range(3):
            parser = build_parser(*words)
            ns, extra = parser.parse_known_args(argv)
            chosen = (ns.command, getattr(ns, "skills_command", None))
            if hasattr(ns, "handler") or chosen == words:
                break
            words = chosen
        if extra:
            parser.parse_args(argv)  # argparse's own "unrecognized arguments" sentence
    except _UsageError as exc:
        exc.parser.print_usage(stderr)
        from edgar_min.cli.hook_cmd import hook_event_in, unrunnable

        hook = hook_event_in(argv)
        if hook is not None:  # a hook never fails the agent (cli/hook_cmd.py)
            return unrunnable(*hook, exc.message, json_mode="--json" in argv, stdout=stdout, stderr=stderr)
        print(f"edgar: {exc.message}", file=stderr)
        return 2
    except _VersionRequested:
        print(f"edgar {__version__}", file=stdout)
        return 0
    except SystemExit as exc:  # --help prints and exits 0
        return exc.code if isinstance(exc.code, int) else 0
    return execute(ns, stdout, stderr)
