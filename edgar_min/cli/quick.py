"""The arguments of the per-turn commands, `learn` and `hook`, read without argparse.

A harness runs these on every turn of an agent, and importing argparse and building its
parsers costs about half the bare interpreter's start-up (`skills list` and `doctor`, which
people and scripts run often, are read here too). Each of these commands declares its
arguments once, as a `Spec`; its `register` builds the argparse parser from it and `parse`
here reads the same spec. This reads only their plain spellings: whole option names
(`--session ID` or `--session=ID`), values that do not begin with `-`, the global options
before or after the command. Anything else (help, an abbreviation, an unknown option, a bad
choice, a missing value) returns None, and argparse reads the line and gives its own answer
or sentence. Where this reads a line, it reads it as argparse does (tests/test_cli_quick.py
holds the two side by side).
"""

from __future__ import annotations

from types import SimpleNamespace

from edgar_min.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any

__all__ = ["COMMANDS", "Option", "Positional", "Spec", "parse"]


@dataclass(frozen=True, slots=True)
class Option:
    """An option: `--flag VALUE`, or with `value=False` a flag that is true when given."""

    flag: str
    dest: str
    help: str
    value: bool = True
    choices: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Positional:
    dest: str
    help: str | None = None
    choices: tuple[str, ...] | None = None
    required: bool = True
    metavar: str | None = None


@dataclass(frozen=True, slots=True)
class Spec:
    """A command's arguments, and the values it sets beyond them (`handler` is the command's own)."""

    positionals: tuple[Positional, ...] = ()
    options: tuple[Option, ...] = ()
    defaults: tuple[tuple[str, Any], ...] = ()

    def add_to(self, parser: argparse.ArgumentParser, handler: Any) -> None:
        """Build these arguments into an argparse parser."""
        for p in self.positionals:
            nargs = None if p.required else "?"
            parser.add_argument(p.dest, nargs=nargs, choices=p.choices, metavar=p.metavar, help=p.help)
        for o in self.options:
            if o.value:
                parser.add_argument(o.flag, dest=o.dest, choices=o.choices, help=o.help)
            else:
                parser.add_argument(o.flag, dest=o.dest, action="store_true", help=o.help)
        parser.set_defaults(handler=handler, **dict(self.defaults))

    def namespace_defaults(self) -> dict[str, Any]:
        """What argparse puts in the namespace before reading anything."""
        found: dict[str, Any] = {p.dest: None for p in self.positionals if not p.required}
        found.update({o.dest: None if o.value else False for o in self.options})
        found.update(self.defaults)
        return found


# The options before (or after) the command: option -> (dest, takes a value, choices or None, appends).
GLOBAL = {
    "--root": ("root", True, None, False),
    "--json": ("json", False, None, False),
    "--set": ("set", True, None, True),
}
GLOBAL_DEFAULTS = {"version": None, "root": ".", "json": False, "set": None}

# command words -> (module, its Spec, its handler).
COMMANDS: dict[tuple[str, ...], tuple[str, str, str]] = {
    ("learn",): ("edgar_min.cli.learn_cmd", "LEARN", "cmd_learn"),
    ("hook",): ("edgar_min.cli.hook_cmd", "HOOK", "cmd_hook"),
    ("skills", "list"): ("edgar_min.cli.skills_cmd", "LIST", "cmd_list"),
    ("doctor",): ("edgar_min.cli.doctor_cmd", "DOCTOR", "cmd_doctor"),
}


def parse(argv: list[str]) -> SimpleNamespace | None:
    """The namespace argparse would make of `argv`, when `argv` is a plain per-turn command line."""
    found: dict[str, Any] = dict(GLOBAL_DEFAULTS)
    args = iter(argv)
    for arg in args:
        if _split(arg)[0] not in GLOBAL:
            break
        if not _option(arg, args, GLOBAL, found):
            return None
    else:
        return None  # no command
    words = (arg, next(args, "")) if arg == "skills" else (arg,)
    command = COMMANDS.get(words)
    if command is None:
        return None
    import importlib

    module = importlib.import_module(command[0])
    spec: Spec = getattr(module, command[1])
    options = {o.flag: (o.dest, o.value, o.choices, False) for o in spec.options}
    found.update(command=arg, **spec.namespace_defaults())
    if len(words) == 2:
        found["skills_command"] = words[1]
    given: list[str] = []
    for arg in args:
        if arg == "-" or not arg.startswith("-"):
            given.append(arg)
        elif not _option(arg, args, GLOBAL if _split(arg)[0] in GLOBAL else options, found):
            return None
    positionals = spec.positionals
    if len(given) > len(positionals) or any(p.required for p in positionals[len(given) :]):
        return None
    for positional, value in zip(positionals, given, strict=False):
        if value == "" or (positional.choices is not None and value not in positional.choices):
            return None
        found[positional.dest] = value
    found["handler"] = getattr(module, command[2])
    return SimpleNamespace(**found)


def _option(arg: str, rest: Any, table: dict, found: dict[str, Any]) -> bool:
    """Read the option `arg` (its value from `arg` or the next of `rest`) into `found`.

    False when it is one argparse should read: unknown, a value that is missing, could be
    an option or is not a choice, or a value given to a flag.
    """
    name, value = _split(arg)
    if name not in table:
        return False
    dest, takes_value, choices, appends = table[name]
    if not takes_value:
        found[dest] = True
        return value is None
    value = next(rest, None) if value is None else value
    if not _plain(value) or (choices is not None and value not in choices):
        return False
    found[dest] = [*(found[dest] or ()), value] if appends else value
    return True


def _split(arg: str) -> tuple[str, str | None]:
    """`--name=value` as (name, value); anything else as (arg, None)."""
    if arg.startswith("--") and "=" in arg:
        name, _eq, value = arg.partition("=")
        return name, value
    return arg, None


def _plain(value: str | None) -> bool:
    """A value argparse takes as it is: given, and not something it could read as an option."""
    return value is not None and value != "" and not value.startswith("-")
