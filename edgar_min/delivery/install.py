"""Put edgar's three hooks into a Claude Code settings file, or take them out, and nothing else.

The file keeps every key and hook it had; edgar's entries are the hook
commands that run `... hook session-start|user-prompt-submit|stop` through
edgar, found again on the next run (so a second install changes nothing, and a
moved `edgar.pyz` replaces its old command instead of adding one). The
settings format is Claude Code's (hooks reference, Claude Code 2.1):

    {"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "...", "timeout": 30}]}]}}

A file that is not JSON, or not an object, or whose `hooks` are not in that
shape, is refused with a sentence (exit 2) and left as it was. The new file is
written atomically.
"""

from __future__ import annotations

import math
import os
import shlex
import sys

import edgar_min
from edgar_min import jsoncodec
from edgar_min.errors import BadInput
from edgar_min.logfile import kind_of, read_capped
from edgar_min.records import dataclass
from edgar_min.regex import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "Change",
    "InstallPlan",
    "claude_projects_home",
    "edgar_command",
    "past_sessions",
    "plan_install",
    "project_folder_name",
]

EVENTS = (("SessionStart", "session-start"), ("UserPromptSubmit", "user-prompt-submit"), ("Stop", "stop"))
# An edgar hook command: ends in `hook EVENT`, and runs edgar (the pyz, the script, or the module).
_OURS = lazy(r"(?:edgar|edgar_min)\S*\b.*\shook\s+(session-start|user-prompt-submit|stop)\s*$")
# The Stop hook as the README once had people write it by hand.
_OLD_STOP = lazy(r"(?:edgar|edgar_min)\S*\b.*\slearn\s+--from\s+claude-code\s+--hook\s*$")
# Claude Code's own limit on a hook, a little above edgar's own bound so that edgar's fires first.
TIMEOUT_MARGIN_S = 10


@dataclass(frozen=True, slots=True)
class Change:
    """One change to the settings: `added`, `replaced` or `removed`, for an event, with the command."""

    action: str
    event: str
    command: str

    def line(self) -> str:
        return f"{self.action} {self.event} hook: {self.command}"


@dataclass(frozen=True, slots=True)
class InstallPlan:
    """The settings file, its new text (None when nothing changes), and the changes."""

    path: str
    text: str | None
    changes: tuple[Change, ...]


def edgar_command(argv0: str | None = None, executable: str | None = None) -> str:
    """How a hook runs this edgar: the running `edgar.pyz`, the `edgar` script, or this Python's module."""

    loader = getattr(edgar_min, "__loader__", None)
    archive = getattr(loader, "archive", None)  # zipimport: edgar runs from a .pyz
    if archive:
        # Isolated and without `site`: the archive needs nothing installed, and a `site` that
        # reads many packages' .pth files would cost each hook more than edgar itself does.
        return f"python3 -I -S {shlex.quote(os.path.realpath(archive))}"
    script = argv0 if argv0 is not None else sys.argv[0]
    if os.path.basename(script) == "edgar" and os.path.isfile(script):
        return shlex.quote(os.path.realpath(script))
    return f"{shlex.quote(executable or sys.executable)} -m edgar_min"


def _command(base: str, event: str) -> str:
    return f'{base} --root "$CLAUDE_PROJECT_DIR" hook {event}'


# A settings file is a page of JSON; anything far larger is not one.
MAX_SETTINGS_BYTES = 4_000_000


def _read(path: str) -> dict[str, Any]:
    try:
        raw = read_capped(path, MAX_SETTINGS_BYTES)
    except FileNotFoundError:
        return {}
    except OSError as exc:
        msg = f"{path}: cannot be read ({exc.strerror}); nothing was changed"
        raise BadInput(msg) from None
    if raw is None:  # a folder, a fifo or /dev/zero: refused, not read without end
        msg = f"{path}: is {kind_of(path)}, not a settings file; nothing was changed"
        raise BadInput(msg)
    if len(raw) > MAX_SETTINGS_BYTES:
        msg = f"{path}: larger than {MAX_SETTINGS_BYTES} bytes, not a settings file; nothing was changed"
        raise BadInput(msg)
    if not raw.strip():
        return {}
    try:
        data = jsoncodec.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        where = (
            f" (line {exc.lineno}, column {exc.colno})" if isinstance(exc, jsoncodec.JSONDecodeError) else ""
        )
        msg = f"{path}: not valid JSON{where}; fix it or move it away, nothing was changed"
        raise BadInput(msg) from None
    if not isinstance(data, dict):
        msg = (
            f"{path}: a settings file must hold a JSON object, not {type(data).__name__}; nothing was changed"
        )
        raise BadInput(msg)
    return data


def _groups(path: str, hooks: dict[str, Any], event: str) -> list[Any]:
    groups = hooks.get(event, [])
    if not isinstance(groups, list) or not all(
        isinstance(g, dict) and isinstance(g.get("hooks", []), list) for g in groups
    ):
        msg = (
            f'{path}: hooks.{event} must be a list of {{"hooks": [...]}} objects as Claude Code '
            "writes them; nothing was changed"
        )
        raise BadInput(msg)
    return groups


def _ours(entry: Any, event: str) -> bool:
    if not isinstance(entry, dict) or not isinstance(entry.get("command"), str):
        return False
    found = _OURS.search(entry["command"])
    if found is not None:
        return found.group(1) == event
    return event == "stop" and _OLD_STOP.search(entry["command"]) is not None


def plan_install(path: str, base: str, timeout_s: float, *, uninstall: bool = False) -> InstallPlan:
    """What installing (or uninstalling) edgar's hooks would make of the settings file at `path`."""
    data = _read(path)
    hooks = data.get("hooks", {})
    if not isinstance(hooks, dict):
        msg = f"{path}: 'hooks' must be an object (event name -> list); nothing was changed"
        raise BadInput(msg)
    hooks = dict(hooks)
    limit = math.ceil(timeout_s if math.isfinite(timeout_s) and timeout_s > 0 else 20) + TIMEOUT_MARGIN_S
    changes: list[Change] = []
    for event, name in EVENTS:
        groups = _groups(path, hooks, event)
        wanted = {"type": "command", "command": _command(base, name), "timeout": limit}
        kept: list[Any] = []
        present = False
        for group in groups:
            entries = []
            for entry in group.get("hooks", []):
                if not _ours(entry, name):
                    entries.append(entry)
                    continue
                if uninstall or present:
                    changes.append(Change("removed", event, entry["command"]))
                    continue
                present = True
                if entry != wanted:
                    changes.append(Change("replaced", event, wanted["command"]))
                entries.append(wanted)
            if entries or not group.get("hooks"):
                kept.append({**group, "hooks": entries} if "hooks" in group else group)
        if not uninstall and not present:
            kept.append({"hooks": [wanted]})
            changes.append(Change("added", event, wanted["command"]))
        if kept:
            hooks[event] = kept
        else:
            hooks.pop(event, None)
    if not changes:
        return InstallPlan(path, None, ())
    new = dict(data)
    if hooks:
        new["hooks"] = hooks
    else:
        new.pop("hooks", None)
    return InstallPlan(path, jsoncodec.dumps(new, indent=2, ensure_ascii=False) + "\n", tuple(changes))


# Where Claude Code keeps each project's transcripts: `<config dir>/projects/<name>/<session>.jsonl`,
# the name made from the project's absolute path. Claude Code turns every UTF-16 code unit that is
# not an ASCII letter or digit into `-` (its bundled `replace(/[^a-zA-Z0-9]/g, "-")`, no `u` flag,
# so a character outside the BMP becomes two); a name over 200 units keeps the first 200 and adds
# `-` and a base-36 hash of the path (the same 31-multiplier hash as Java's `String.hashCode`).
NAME_LIMIT = 200
_KEPT = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def _utf16_units(text: str) -> list[int]:
    units = []
    for char in text:
        code = ord(char)
        if code > 0xFFFF:
            code -= 0x10000
            units += [0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)]
        else:
            units.append(code)
    return units


def _path_hash(path: str) -> str:
    """`Math.abs(h).toString(36)`, `h = (h << 5) - h + unit | 0` over the path's UTF-16 units."""
    value = 0
    for unit in _utf16_units(path):
        value = ((value << 5) - value + unit) & 0xFFFFFFFF
    value = abs(value - (1 << 32) if value >= 1 << 31 else value)
    digits = ""
    while True:
        value, digit = divmod(value, 36)
        digits = _BASE36[digit] + digits
        if not value:
            return digits


def project_folder_name(path: str) -> str:
    """The name of the folder under `~/.claude/projects/` where Claude Code keeps `path`'s sessions."""
    name = "".join(c if c in _KEPT else "-" * (2 if ord(c) > 0xFFFF else 1) for c in path)
    if len(name) <= NAME_LIMIT:
        return name
    return f"{name[:NAME_LIMIT]}-{_path_hash(path)}"


def claude_projects_home() -> str:
    """`$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects`."""
    config = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(os.path.expanduser("~"), ".claude")
    return os.path.join(config, "projects")


def past_sessions(root: str, projects: str | None = None) -> tuple[str, int] | None:
    """(the folder of this project's Claude Code transcripts, how many sessions it holds), or None.

    The root as given and as resolved (Claude Code names a project by its working folder, which a
    link may reach two ways) are both looked for. A session is a `<id>.jsonl` at the top level; a
    subagent's log is `agent-<id>.jsonl`, beside the sessions before Claude Code 2.1.2 and in the
    session's own `subagents/` folder since.
    """
    home = claude_projects_home() if projects is None else projects
    for path in dict.fromkeys((os.path.abspath(root), os.path.realpath(root))):
        folder = os.path.join(home, project_folder_name(path))
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        count = sum(
            1
            for n in names
            if n.endswith(".jsonl") and not n.startswith("agent-") and os.path.isfile(os.path.join(folder, n))
        )
        if count:
            return folder, count
    return None
