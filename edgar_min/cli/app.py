"""Parsing, the shared context of a command, and the one place exceptions become exit codes."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path

from edgar_min import __version__
from edgar_min.errors import BadInput, EdgarError

TYPE_CHECKING = False  # typing's own, without importing typing (~2 ms on every run)
if TYPE_CHECKING:
    from typing import Any, TextIO

    from edgar_min.config import Config
    from edgar_min.layout import Layout

__all__ = ["Context", "read_input", "run"]


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is an exception we map, not a `sys.exit` from inside."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(self, message)


class _Formatter(argparse.HelpFormatter):
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


class Context:
    """What every command handler gets: where, how to print, and the config (read once)."""

    def __init__(self, ns: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> None:
        self.ns = ns
        self.json = bool(ns.json)
        self.stdout = stdout
        self.stderr = stderr
        self.root = _check_root(ns.root)
        self._layout: Layout | None = None
        self._config: Config | None = None

    @property
    def layout(self) -> Layout:
        if self._layout is None:
            from edgar_min.layout import Layout, user_home

            self._layout = Layout(self.root, user_home())
        return self._layout

    @property
    def config(self) -> Config:
        if self._config is None:
            from edgar_min.config import load_config

            self._config = load_config(self.layout, overrides=self.ns.set or ())
        return self._config

    def out(self, text: str = "") -> None:
        """One line (or block) for a person; suppressed in --json mode."""
        if not self.json:
            print(text, file=self.stdout)

    def emit(self, document: Any) -> None:
        """The one JSON document of --json mode."""
        if self.json:
            import json  # only --json needs it, and most commands run without

            json.dump(document, self.stdout, ensure_ascii=False, indent=2)
            self.stdout.write("\n")

    def warn(self, text: str) -> None:
        print(text, file=self.stderr)


def _check_root(value: str) -> Path:
    root = Path(value)
    if not root.exists():
        msg = f"--root {value}: no such folder"
        raise BadInput(msg)
    if not root.is_dir():
        msg = f"--root {value}: not a folder"
        raise BadInput(msg)
    if not os.access(root, os.R_OK | os.X_OK):
        msg = f"--root {value}: cannot be read (permission denied)"
        raise BadInput(msg)
    return root.absolute()


def read_input(source: str, *, limit: int, label: str, kind: str, too_big: str = "", tail: str = "") -> str:
    """The UTF-8 text of a file or stdin (`-`) a person named, at most `limit` bytes, or `BadInput`.

    `label` starts each sentence, `kind` says what the file should be, `too_big` and `tail`
    end the sentences for a file over the limit and one that is not UTF-8.
    """
    try:
        if source == "-":
            stream = getattr(sys.stdin, "buffer", None)
            data = stream.read(limit + 1) if stream else sys.stdin.read().encode()
        else:
            with Path(source).open("rb") as handle:
                data = handle.read(limit + 1)
    except FileNotFoundError:
        msg = f"{label}: no such file"
        raise BadInput(msg) from None
    except IsADirectoryError:
        msg = f"{label}: is a folder, not {kind}"
        raise BadInput(msg) from None
    except OSError as exc:
        msg = f"{label}: cannot be read ({exc.strerror})"
        raise BadInput(msg) from None
    if len(data) > limit:
        msg = f"{label}: larger than {limit} bytes{too_big}"
        raise BadInput(msg)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        msg = f"{label}: not UTF-8 text{tail}"
        raise BadInput(msg) from None


def build_parser(
    command: str | None = None, subcommand: str | None = None, *, every: bool = False
) -> argparse.ArgumentParser:
    """The parser, with `command` (and `skills SUBCOMMAND`) built in full and the rest as names.

    Every command is listed with its help line from the table in `edgar_min.cli`; only the
    module of the named command is imported and registers its parsers (`every`: all of them).
    """
    from edgar_min.cli import COMMANDS, SKILLS_COMMANDS

    parser = _Parser(prog="edgar", description="A safe skill memory for agent harnesses.")
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
    for name, help_line, module in COMMANDS:
        if name in commands.choices:
            continue  # registered with another command of its module
        if name == "skills" and (every or command == "skills"):
            skills = commands.add_parser("skills", help=help_line)
            skills_commands = skills.add_subparsers(dest="skills_command", metavar="SUBCOMMAND")
            skills_commands.required = True
            _add(skills_commands, SKILLS_COMMANDS, "register_skills", subcommand, every)
        elif module is not None and (every or module == _module_of(COMMANDS, command)):
            importlib.import_module(module).register(commands)
        else:
            commands.add_parser(name, help=help_line, add_help=False)
    return parser


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
        print(f"edgar: {exc.message}", file=stderr)
        return 2
    except _VersionRequested:
        print(f"edgar {__version__}", file=stdout)
        return 0
    except SystemExit as exc:  # --help prints and exits 0
        return exc.code if isinstance(exc.code, int) else 0
    json_mode = bool(getattr(ns, "json", False))
    try:
        ctx = Context(ns, stdout, stderr)
        if getattr(ns, "needs_config", True) and ctx.config.skills.synthesis == "auto":
            from edgar_min.controller.gate import AUTO_SYNTHESIS

            ctx.warn(AUTO_SYNTHESIS)
        code = ns.handler(ctx)
    except EdgarError as exc:
        return _fail(exc.message, exc.exit_code, json_mode, stdout, stderr)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
    except RecursionError:
        # JSON or TOML nested thousands deep, met by a reader that has no sentence for it.
        sentence = "the input is nested too deeply to read; nothing was stored"
        return _fail(sentence, 2, json_mode, stdout, stderr)
    except UnicodeError:
        # An argument or file with bytes that are not UTF-8 reaches here as a lone surrogate.
        sentence = "the input holds text that is not valid UTF-8; nothing was stored"
        return _fail(sentence, 2, json_mode, stdout, stderr)
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        return _fail(f"{where}{exc.strerror or exc}", 1, json_mode, stdout, stderr)
    except Exception as exc:  # noqa: BLE001 - no traceback ever reaches the user
        sentence = f"internal error ({type(exc).__name__}: {exc}); this is a bug in edgar"
        return _fail(sentence, 1, json_mode, stdout, stderr)
    return int(code or 0)


def _fail(message: str, code: int, json_mode: bool, stdout: TextIO, stderr: TextIO) -> int:
    print(f"edgar: {message}", file=stderr)
    if json_mode:
        import json

        json.dump({"error": message, "exit_code": code}, stdout, ensure_ascii=False)
        stdout.write("\n")
    return code
