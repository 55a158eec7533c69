"""Put edgar's three hooks into a Claude Code settings file, or take them out, and nothing else.

The file keeps every key and hook it had; edgar's entries are the hook
commands that run `... hook session-start|user-prompt-submit|stop` through
edgar, found again on the next run (so a second install changes nothing, and a
moved `edgar.pyz` replaces its old command instead of adding one). The
settings format is Claude Code's (hooks reference, Claude Code 2.1):

    {"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "...", "timeout": 30}]}]}}

A file that is not JSON, or not an object, or whose `hooks` are not in that
shape, or that holds a number JSON cannot carry, is refused with a sentence
(exit 2) and left as it was. The new file is written atomically with the
permissions the old one had. What the file held before the first install is
kept under the person's own edgar folder (`Layout.install_records`), so that
uninstall puts those very bytes back, or removes a file install made.
"""

from __future__ import annotations

import math
import os
import shlex
import stat
import sys

from edgar_min import jsoncodec
from edgar_min.atomic import remove_tree, write_text
from edgar_min.digests import sha1_hex
from edgar_min.errors import BadInput
from edgar_min.invocation import invocation
from edgar_min.logfile import kind_of, read_capped
from edgar_min.records import dataclass
from edgar_min.regex import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = [
    "Before",
    "Change",
    "InstallPlan",
    "apply_plan",
    "claude_projects_home",
    "edgar_command",
    "holds_edgar_hooks",
    "hook_command",
    "interpreter",
    "merge_entries",
    "past_sessions",
    "plan_install",
    "project_folder_name",
    "read_before",
]

EVENTS = (("SessionStart", "session-start"), ("UserPromptSubmit", "user-prompt-submit"), ("Stop", "stop"))
# An edgar hook command: runs edgar (the pyz, the script, or the module) with `hook EVENT`, at the
# end of the command or before the `||` of the guard `hook_command` adds.
_OURS = lazy(r"(?:edgar|edgar_min)\S*\b.*?\shook\s+(session-start|user-prompt-submit|stop)(?:\s*$|\s+\|\|\s)")
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
        # The guard `hook_command` adds is the same every time: the line shows what runs.
        command, guarded, _ = self.command.partition(" || ")
        return f"{self.action} {self.event} hook: {command}{' (then exit 0)' if guarded else ''}"


@dataclass(frozen=True, slots=True)
class Before:
    """A settings file as it was before install first put edgar's hooks in (`text` None: no file)."""

    text: str | None
    made_folder: bool


@dataclass(frozen=True, slots=True)
class InstallPlan:
    """The settings file, what becomes of it, and the changes.

    `text` is the new text (None: the file is left as it is, or removed when `remove`);
    `current` the text it has now (None: no file); `had_hooks` whether edgar's hooks were in it;
    `restored` whether uninstall puts back the very text the file had before install, and
    `remove_folder` whether `.claude/` goes too (install made it; removed only if empty).
    """

    path: str
    text: str | None
    changes: tuple[Change, ...]
    current: str | None = None
    had_hooks: bool = False
    remove: bool = False
    remove_folder: bool = False
    restored: bool = False


def interpreter(executable: str | None = None) -> str:
    """The Python running now, by absolute path, as a hook command should name it.

    Not `python3` from PATH: a project pinned by pyenv to an older Python would run edgar on
    that one (and every hook pays the shim's ~0.3 s). `sys.executable` is the binary a shim
    ran, never the shim. Inside a virtual environment it is a link to the real one, and a
    venv is deleted long before its Python is: the archive needs nothing from it (-I -S).
    Elsewhere the path is kept as it is: `/usr/bin/python3` outlives the `python3.11` it
    names today.
    """
    path = executable or sys.executable
    if not path:  # an embedded Python that cannot say where it is
        return "python3"
    if executable is None and sys.prefix != sys.base_prefix:
        return os.path.realpath(path)
    return os.path.abspath(path)


def edgar_command(argv0: str | None = None, executable: str | None = None) -> str:
    """How a shell runs this edgar: this Python and `edgar.pyz`, the `edgar` script, or the module."""

    how = invocation(argv0)
    if how.form == "archive":
        # Isolated and without `site`: the archive needs nothing installed, and a `site` that
        # reads many packages' .pth files would cost each hook more than edgar itself does.
        return f"{shlex.quote(interpreter(executable))} -I -S {shlex.quote(how.path)}"
    if how.form == "script":
        return shlex.quote(how.path)
    # The module needs the `site` that found it (a venv's, the user's): no -I -S here.
    return f"{shlex.quote(os.path.abspath(executable or sys.executable))} -m edgar_min"


def hook_command(
    base: str, event: str, *, root: str = '"$CLAUDE_PROJECT_DIR"', agent: str = "claude-code"
) -> str:
    """The shell command the agent runs for `event`: edgar's hook, then exit 0 whatever happened.

    Claude Code runs it with `sh -c` and reads exit 2 as "block" (the prompt is erased; at
    Stop the agent keeps going) and any other failure as an error. Edgar's own hook always
    exits 0, but only once it runs: when the Python or the edgar this names is gone (a moved
    archive, a removed pyenv version, a teammate's clone), too old or damaged, edgar cannot
    say so. Then the shell logs the line edgar would have (the same JSON shape), only where
    `.edgar/` already is a real folder and neither it nor the log is a link, and exits 0.
    `root` is the project as the shell names it (Codex and Gemini CLI: its quoted path).
    """
    hook = {name: event_name for event_name, name in EVENTS}[event]
    line = (
        f'{{"time":"%s","hook":"{hook}","problem":"the hook command could not run edgar (exit status %s): '
        "the Python or the edgar it names is missing, too old or damaged; "
        f'run edgar install {agent} again"}}\\n'
    )
    # The project's `.edgar`, quoted as the root is: `"$CLAUDE_PROJECT_DIR/.edgar"`, `'/a b'/.edgar`.
    edgar = f'{root[:-1]}/.edgar"' if root.endswith('"') else f"{root}/.edgar"
    return (
        f"{base} --root {root} hook {event} || {{ s=$?; d={edgar}; "
        '[ -d "$d" ] && [ ! -h "$d" ] && [ ! -h "$d/hook-problems.jsonl" ] && '
        f'printf \'{line}\' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$s" >>"$d/hook-problems.jsonl"; }}; exit 0'
    )


# A settings file is a page of JSON; anything far larger is not one.
MAX_SETTINGS_BYTES = 4_000_000


def _read_text(path: str) -> str | None:
    """The settings file's text, or None when there is none; `BadInput` when it cannot be one."""
    try:
        raw = read_capped(path, MAX_SETTINGS_BYTES)
    except FileNotFoundError:
        return None
    except OSError as exc:
        msg = f"{path}: cannot be read ({exc.strerror}); nothing was changed"
        raise BadInput(msg) from None
    if raw is None:  # a folder, a fifo or /dev/zero: refused, not read without end
        msg = f"{path}: is {kind_of(path)}, not a settings file; nothing was changed"
        raise BadInput(msg)
    if len(raw) > MAX_SETTINGS_BYTES:
        msg = f"{path}: larger than {MAX_SETTINGS_BYTES} bytes, not a settings file; nothing was changed"
        raise BadInput(msg)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        msg = f"{path}: not valid JSON (not UTF-8 text); fix it or move it away, nothing was changed"
        raise BadInput(msg) from None


def _parse(path: str, text: str | None) -> dict[str, Any]:
    if text is None or not text.strip():
        return {}
    try:
        data = jsoncodec.loads(text)
    except (ValueError, RecursionError) as exc:
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
    _refuse_unwritable_numbers(path, data)
    return data


def _refuse_unwritable_numbers(path: str, data: dict[str, Any]) -> None:
    """`BadInput` for a number JSON cannot carry: `1e400` reads as infinity, `NaN` is not JSON.

    Written back, either would become `Infinity` or `NaN`, which no JSON reader (Claude Code's
    included) accepts: the whole file would stop working.
    """
    todo: list[tuple[str, Any]] = [("", data)]
    while todo:
        where, value = todo.pop()
        if isinstance(value, float) and not math.isfinite(value):
            what = "not a number" if math.isnan(value) else "too large for JSON (it reads as infinity)"
            msg = (
                f"{path}: the number at {where or 'the top'} is {what}; "
                "write it within range, nothing was changed"
            )
            raise BadInput(msg)
        if isinstance(value, dict):
            todo += [(f"{where}.{key}" if where else str(key), item) for key, item in value.items()]
        elif isinstance(value, list):
            todo += [(f"{where}[{i}]", item) for i, item in enumerate(value)]


def read_settings(path: str) -> tuple[str | None, dict[str, Any]]:
    """A settings file's text (None: no file) and its JSON object; `BadInput` with a sentence when
    it cannot be one (Codex's and Gemini CLI's hook files are read the same way)."""
    text = _read_text(path)
    return text, _parse(path, text)


def hook_groups(path: str, hooks: dict[str, Any], event: str) -> list[Any]:
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


def merge_entries(
    path: str,
    hooks: dict[str, Any],
    wanted: list[tuple[str, dict[str, Any], str]],
    ours: Callable[[Any, str], bool],
    *,
    uninstall: bool,
) -> tuple[list[Change], bool]:
    """Put each event's `wanted` entry where edgar's entry of it stands (or take edgar's out), in
    `hooks`, keeping every other entry and group; the changes, and whether edgar's were there.

    `wanted` holds (event, entry, hook name); `ours(entry, name)` says an entry is edgar's hook.
    Every agent's installer merges through here: one rule for what is edgar's and what stays.
    """
    changes: list[Change] = []
    had_hooks = False
    for event, entry_wanted, name in wanted:
        kept: list[Any] = []
        present = False
        for group in hook_groups(path, hooks, event):
            entries = []
            for entry in group.get("hooks", []):
                if not ours(entry, name):
                    entries.append(entry)
                    continue
                had_hooks = True
                if uninstall or present:
                    changes.append(Change("removed", event, entry["command"]))
                    continue
                present = True
                if entry != entry_wanted:
                    changes.append(Change("replaced", event, entry_wanted["command"]))
                entries.append(entry_wanted)
            if entries or not group.get("hooks"):
                kept.append({**group, "hooks": entries} if "hooks" in group else group)
        if not uninstall and not present:
            kept.append({"hooks": [entry_wanted]})
            changes.append(Change("added", event, entry_wanted["command"]))
        if kept:
            hooks[event] = kept
        else:
            hooks.pop(event, None)
    return changes, had_hooks


def _ours(entry: Any, event: str) -> bool:
    if not isinstance(entry, dict) or not isinstance(entry.get("command"), str):
        return False
    found = _OURS.search(entry["command"])
    if found is not None:
        return found.group(1) == event
    return event == "stop" and _OLD_STOP.search(entry["command"]) is not None


def _bare(data: dict[str, Any]) -> dict[str, Any]:
    """The settings without empty hook lists or an empty `hooks`: what Claude Code makes of them."""
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return data
    kept = {event: groups for event, groups in hooks.items() if groups != []}
    bare = {key: value for key, value in data.items() if key != "hooks"}
    if kept:
        bare["hooks"] = kept
    return bare


def plan_install(
    path: str, base: str, timeout_s: float, *, uninstall: bool = False, before: Before | None = None
) -> InstallPlan:
    """What installing (or uninstalling) edgar's hooks would make of the settings file at `path`.

    `before` is what the file held before install (`read_before`): uninstall puts that text
    back when taking edgar's entries out leaves the same settings, and removes the file when
    there was none.
    """
    text = _read_text(path)
    data = _parse(path, text)
    hooks = data.get("hooks", {})
    if not isinstance(hooks, dict):
        msg = f"{path}: 'hooks' must be an object (event name -> list); nothing was changed"
        raise BadInput(msg)
    hooks = dict(hooks)
    limit = math.ceil(timeout_s if math.isfinite(timeout_s) and timeout_s > 0 else 20) + TIMEOUT_MARGIN_S
    wanted = [
        (event, {"type": "command", "command": hook_command(base, name), "timeout": limit}, name)
        for event, name in EVENTS
    ]
    changes, had_hooks = merge_entries(path, hooks, wanted, _ours, uninstall=uninstall)
    if not changes:
        return InstallPlan(path, None, (), text, had_hooks)
    new = dict(data)
    if hooks:
        new["hooks"] = hooks
    else:
        new.pop("hooks", None)
    restores = uninstall and before is not None and _bare(new) == _bare_before(path, before)
    return planned(
        path, new, tuple(changes), text, had_hooks, uninstall=uninstall, before=before, restores=restores
    )


def planned(
    path: str,
    new: dict[str, Any],
    changes: tuple[Change, ...],
    text: str | None,
    had_hooks: bool,
    *,
    uninstall: bool,
    before: Before | None,
    restores: bool,
) -> InstallPlan:
    """The plan that writes the settings `new`, or on uninstall what was there before install:
    its bytes when `restores` (only edgar's own entries changed since), or no file for nothing."""
    if uninstall and before is not None and restores:
        gone = before.text is None
        return InstallPlan(
            path,
            before.text,
            changes,
            text,
            had_hooks,
            remove=gone,
            remove_folder=gone and before.made_folder,
            restored=True,
        )
    if uninstall and not new:  # nothing left: as good as no file, and no `{}` left behind
        return InstallPlan(path, None, changes, text, had_hooks, remove=True)
    return InstallPlan(
        path, jsoncodec.dumps(new, indent=2, ensure_ascii=False) + "\n", changes, text, had_hooks
    )


def _bare_before(path: str, before: Before) -> dict[str, Any] | None:
    try:
        return _bare(_parse(path, before.text))
    except BadInput:  # a record that no longer reads as settings is no record
        return None


def holds_edgar_hooks(path: str) -> bool:
    """Whether the settings file at `path` runs any of edgar's hooks (a file unread is no)."""
    try:
        hooks = _parse(path, _read_text(path)).get("hooks")
    except BadInput:
        return False
    if not isinstance(hooks, dict):
        return False
    return any(
        _ours(entry, name)
        for event, name in EVENTS
        if isinstance(hooks.get(event), list)
        for group in hooks[event]
        if isinstance(group, dict) and isinstance(group.get("hooks"), list)
        for entry in group["hooks"]
    )


# What a settings file held before install: one small JSON file per settings file, named by
# its path, in the person's own edgar folder. Never in the project: a repository must not
# carry (or forge) what uninstall puts back. Private, since a local settings file often
# holds keys.
def _record_path(records: str, path: str) -> str:
    return os.path.join(records, sha1_hex(os.path.abspath(path).encode("utf-8", "surrogatepass")) + ".json")


def read_before(records: str, path: str) -> Before | None:
    """What `path` held before install, if install recorded it (anything else is no record)."""
    try:
        raw = read_capped(_record_path(records, path), 2 * MAX_SETTINGS_BYTES)
        data = jsoncodec.loads(raw) if raw is not None else None
    except (OSError, ValueError, RecursionError):
        return None
    if (
        not isinstance(data, dict)
        or data.get("settings") != os.path.abspath(path)
        or not isinstance(data.get("before"), (str, type(None)))
        or not isinstance(data.get("made_folder"), bool)
    ):
        return None
    return Before(data["before"], data["made_folder"])


def apply_plan(plan: InstallPlan, *, root: str, records: str, uninstall: bool) -> None:
    """Write (or remove) the settings file as `plan` says, keeping its mode, and the record of before.

    Install records the file as it was when it held none of edgar's hooks (a record is kept
    while they are in it); uninstall drops the record once they are out.
    """
    path = plan.path
    folder = os.path.dirname(path)
    record = _record_path(records, path)
    if not uninstall and not plan.had_hooks:
        document = {
            "settings": os.path.abspath(path),
            "before": plan.current,
            "made_folder": not os.path.isdir(folder),
        }
        write_text(record, jsoncodec.dumps(document) + "\n", root=records, mode=0o600)
    if plan.remove:
        remove_tree(path, root=root)
        if plan.remove_folder:
            try:
                os.rmdir(folder)  # only if empty: Claude Code keeps its own files there too
            except OSError:
                pass
    elif plan.text is not None:
        try:
            mode = stat.S_IMODE(os.stat(path).st_mode)
        except FileNotFoundError:
            mode = None
        write_text(path, plan.text, root=root, mode=mode)
    if uninstall:
        remove_tree(record, root=records)


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
