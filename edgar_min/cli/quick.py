"""The arguments of the per-turn commands, `learn` and `hook`, read without argparse.

A harness runs these on every turn of an agent, and importing argparse and building its
parsers costs about half the bare interpreter's start-up (`skills list` and `doctor`, which
people and scripts run often, are read here too). This reads only their plain
spellings: whole option names (`--session ID` or `--session=ID`), values that do not begin
with `-`, the global options before or after the command. Anything else (help, an abbreviation, an
unknown option, a bad choice, a missing value) returns None, and argparse reads the line and
gives its own answer or sentence. Where this reads a line, it reads it as argparse does
(tests/test_cli_quick.py holds the two side by side).
"""

from __future__ import annotations

from types import SimpleNamespace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["COMMANDS", "parse"]

# The options before the command: option -> (dest, takes a value, choices or None, appends).
GLOBAL = {
    "--root": ("root", True, None, False),
    "--json": ("json", False, None, False),
    "--set": ("set", True, None, True),
}
GLOBAL_DEFAULTS = {"version": None, "root": ".", "json": False, "set": None}

# command words -> (module, handler, options (as GLOBAL), positionals, defaults). positionals:
# (dest, choices or None, required), in order.
COMMANDS: dict[tuple[str, ...], tuple[str, str, dict, tuple, dict[str, Any]]] = {
    ("learn",): (
        "edgar_min.cli.learn_cmd",
        "cmd_learn",
        {
            "--session": ("session", True, None, False),
            "--from": ("from_agent", True, ("claude-code", "codex"), False),
            "--hook": ("hook", False, None, False),
            "--check": ("check", False, None, False),
            "--dry-run": ("dry_run", False, None, False),
        },
        (("turn", None, False),),
        {
            "turn": None,
            "session": None,
            "from_agent": None,
            "hook": False,
            "check": False,
            "dry_run": False,
            "needs_config": False,
        },
    ),
    ("hook",): (
        "edgar_min.cli.hook_cmd",
        "cmd_hook",
        {},
        (("event", ("session-start", "user-prompt-submit", "stop"), True),),
        {"needs_config": False},
    ),
    ("skills", "list"): (
        "edgar_min.cli.skills_cmd",
        "cmd_list",
        {"--learned": ("learned", False, None, False)},
        (),
        {"learned": False},
    ),
    ("doctor",): (
        "edgar_min.cli.doctor_cmd",
        "cmd_doctor",
        {"--network": ("network", False, None, False)},
        (),
        {"network": False, "needs_config": False},
    ),
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
    module, handler, options, positionals, defaults = command
    found.update(command=arg, **defaults)
    if len(words) == 2:
        found["skills_command"] = words[1]
    given: list[str] = []
    for arg in args:
        if arg == "-" or not arg.startswith("-"):
            given.append(arg)
        elif not _option(arg, args, GLOBAL if _split(arg)[0] in GLOBAL else options, found):
            return None
    if len(given) > len(positionals) or any(req for _d, _c, req in positionals[len(given) :]):
        return None
    for (dest, choices, _required), value in zip(positionals, given, strict=False):
        if value == "" or (choices is not None and value not in choices):
            return None
        found[dest] = value
    import importlib

    found["handler"] = getattr(importlib.import_module(module), handler)
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
