"""Put edgar's hooks into Codex's or Gemini CLI's hook file, or take them out, and nothing else.

Both agents read Claude-Code-shaped hooks (`{"hooks": {EVENT: [{"hooks": [{"type": "command",
"command", "timeout"}]}]}}`) and send the same payloads; they differ in where the file is, what
the events are called, and the unit of a timeout:

- Codex: `$CODEX_HOME/hooks.json` (the person's own hooks) or `<project>/.codex/hooks.json`
  (the project's, run only in a project the person trusts); `SessionStart`,
  `UserPromptSubmit`, `Stop`; timeouts in seconds. Codex runs a hook once the person has
  reviewed and trusted it.
- Gemini CLI: `~/.gemini/settings.json` (`$GEMINI_CLI_HOME/.gemini`) or
  `<project>/.gemini/settings.json` (run only in a trusted folder); `SessionStart`,
  `BeforeAgent`, `AfterAgent`; timeouts in milliseconds; hooks run only while
  `hooksConfig.enabled` is true, which install sets when the file does not say.

The person's own file is the default: nothing is written into the project, and each command
runs edgar only when the agent's session is in this project (`case "$PWD/" in ROOT/*)`;
Gemini CLI's `$GEMINI_PROJECT_DIR`), so other projects never see it. `shared` writes the
project's file instead. Every other key and hook stays as it was; a second install changes
nothing; a moved edgar replaces its old commands; uninstall takes edgar's entries out, and
puts back the very bytes the file had before the first install when nothing else changed
(or removes the file install made).
"""

from __future__ import annotations

import math
import os
import shlex

from edgar_min import jsoncodec
from edgar_min.atomic import remove_tree, write_text
from edgar_min.digests import sha1_hex
from edgar_min.errors import BadInput
from edgar_min.layout import person_home
from edgar_min.logfile import kind_of, read_capped
from edgar_min.records import dataclass
from edgar_min.regex import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Literal

    Agent = Literal["codex", "gemini"]

__all__ = [
    "FORMATS",
    "AgentPlan",
    "Before",
    "HookFormat",
    "apply_plan",
    "hooks_file",
    "plan_install",
    "read_before",
    "trust_steps",
]


@dataclass(frozen=True, slots=True)
class HookFormat:
    """How one agent writes its hooks: its names for edgar's three events and a timeout's unit."""

    agent: Agent
    name: str  # as people call it
    events: tuple[tuple[str, str], ...]  # (the agent's event, edgar's hook)
    per_second: int  # a timeout in seconds is written as this many units
    named: bool  # each entry carries a `name` the agent lists it by
    switch: bool  # hooks run only while `hooksConfig.enabled` is true
    # The session's folder as the hook's shell sees it. Gemini CLI expands `$NAME` in a hook's
    # command itself, from its own environment (where `PWD` is wherever it was started): its
    # `GEMINI_PROJECT_DIR` is the project. Codex leaves the command to the shell, run in the
    # session's folder.
    here: str


FORMATS: dict[str, HookFormat] = {
    "codex": HookFormat(
        "codex",
        "Codex",
        (("SessionStart", "session-start"), ("UserPromptSubmit", "user-prompt-submit"), ("Stop", "stop")),
        per_second=1,
        named=False,
        switch=False,
        here="$PWD",
    ),
    "gemini": HookFormat(
        "gemini",
        "Gemini CLI",
        (("SessionStart", "session-start"), ("BeforeAgent", "user-prompt-submit"), ("AfterAgent", "stop")),
        per_second=1000,
        named=True,
        switch=True,
        here="$GEMINI_PROJECT_DIR",
    ),
}
# An edgar hook command: runs edgar (the pyz, the script, or the module) with `hook EVENT`, at the
# end of the command or of the `case` branch that keeps it to one project.
_OURS = lazy(r"(?:edgar|edgar_min)\S*\b.*?\shook\s+(session-start|user-prompt-submit|stop)(?:\s*$|\s*;;)")
# The agent's own limit on a hook, a little above edgar's own bound so that edgar's fires first.
TIMEOUT_MARGIN_S = 10
MAX_FILE_BYTES = 4_000_000


@dataclass(frozen=True, slots=True)
class Change:
    """One change to the file: `added`, `replaced` or `removed`, for an event, with the command."""

    action: str
    event: str
    command: str

    def line(self) -> str:
        return f"{self.action} {self.event} hook: {self.command}"


@dataclass(frozen=True, slots=True)
class AgentPlan:
    """The hook file, what becomes of it, and the changes.

    `text` is the new text (None: left as it is, or removed when `remove`); `current` what it
    holds now (None: no file); `restored`: uninstall puts back the bytes it had before install;
    `switched_on`: install set `hooksConfig.enabled`; `switched_off`: the person has it false.
    """

    path: str
    text: str | None
    changes: tuple[Change, ...]
    current: str | None = None
    had_hooks: bool = False
    remove: bool = False
    remove_folder: bool = False
    restored: bool = False
    switched_on: bool = False
    switched_off: bool = False


def hooks_file(agent: Agent, root: str, *, shared: bool, environ: dict[str, str] | None = None) -> str:
    """Where `agent` reads the hooks install writes: the person's own file, or the project's."""
    env = os.environ if environ is None else environ
    if agent == "codex":
        if shared:
            return os.path.join(root, ".codex", "hooks.json")
        return os.path.join(env.get("CODEX_HOME") or os.path.join(person_home(), ".codex"), "hooks.json")
    if shared:
        return os.path.join(root, ".gemini", "settings.json")
    return os.path.join(env.get("GEMINI_CLI_HOME") or person_home(), ".gemini", "settings.json")


def hook_command(base: str, root: str, event: str, *, shared: bool, here: str = "$PWD") -> str:
    """The shell command the agent runs for `event`; the person's own file keeps it to sessions
    whose folder (`here`) is `root` or inside it."""
    quoted = shlex.quote(root)
    command = f"{base} --root {quoted} hook {event}"
    if shared:
        return command
    inside = shlex.quote(root.rstrip("/") + "/")
    return f'case "{here}/" in {inside}*) {command};; esac'


def _read(path: str) -> tuple[str | None, dict[str, Any]]:
    """The file's text (None: no file) and its JSON object; `BadInput` with a sentence otherwise."""
    try:
        raw = read_capped(path, MAX_FILE_BYTES)
    except FileNotFoundError:
        return None, {}
    except OSError as exc:
        msg = f"{path}: cannot be read ({exc.strerror}); nothing was changed"
        raise BadInput(msg) from None
    if raw is None:
        msg = f"{path}: is {kind_of(path)}, not a settings file; nothing was changed"
        raise BadInput(msg)
    if len(raw) > MAX_FILE_BYTES:
        msg = f"{path}: larger than {MAX_FILE_BYTES} bytes, not a settings file; nothing was changed"
        raise BadInput(msg)
    try:
        text = raw.decode("utf-8")
        data = jsoncodec.loads(text) if text.strip() else {}
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        where = (
            f" (line {exc.lineno}, column {exc.colno})" if isinstance(exc, jsoncodec.JSONDecodeError) else ""
        )
        msg = f"{path}: not valid JSON{where}; fix it or move it away, nothing was changed"
        raise BadInput(msg) from None
    if not isinstance(data, dict):
        msg = f"{path}: must hold a JSON object, not {type(data).__name__}; nothing was changed"
        raise BadInput(msg)
    return text, data


def _groups(path: str, hooks: dict[str, Any], event: str) -> list[Any]:
    groups = hooks.get(event, [])
    if not isinstance(groups, list) or not all(
        isinstance(g, dict) and isinstance(g.get("hooks", []), list) for g in groups
    ):
        msg = f'{path}: hooks.{event} must be a list of {{"hooks": [...]}} objects; nothing was changed'
        raise BadInput(msg)
    return groups


def _ours(entry: Any, hook: str) -> bool:
    if not isinstance(entry, dict) or not isinstance(entry.get("command"), str):
        return False
    found = _OURS.search(entry["command"])
    return found is not None and found.group(1) == hook


def _entry(form: HookFormat, command: str, hook: str, limit: int) -> dict[str, Any]:
    entry: dict[str, Any] = {"type": "command", "command": command, "timeout": limit * form.per_second}
    if form.named:
        entry = {"type": "command", "name": f"edgar-{hook}", "command": command, "timeout": entry["timeout"]}
    return entry


def plan_install(
    agent: Agent,
    path: str,
    base: str,
    root: str,
    timeout_s: float,
    *,
    shared: bool,
    uninstall: bool = False,
    before: Before | None = None,
) -> AgentPlan:
    """What installing (or uninstalling) edgar's hooks would make of `agent`'s file at `path`.

    `before` is what the file held before the first install (`read_before`): uninstall puts
    those bytes back when taking edgar's entries out leaves the same settings, and removes the
    file (and the folder, if install made it) when there was none.
    """
    form = FORMATS[agent]
    text, data = _read(path)
    hooks = data.get("hooks", {})
    if not isinstance(hooks, dict):
        msg = f"{path}: 'hooks' must be an object (event name -> list); nothing was changed"
        raise BadInput(msg)
    limit = math.ceil(timeout_s if math.isfinite(timeout_s) and timeout_s > 0 else 20) + TIMEOUT_MARGIN_S
    commands = {
        hook: hook_command(base, root, hook, shared=shared, here=form.here) for _, hook in form.events
    }
    hooks, changes, had_hooks = _merged(path, dict(hooks), form, commands, limit, uninstall=uninstall)
    new = {**data, "hooks": hooks} if hooks else {k: v for k, v in data.items() if k != "hooks"}
    switched_on = switched_off = False
    if form.switch:
        new, switched_on, switched_off = _switch(path, new, uninstall=uninstall, before=before)
    if not changes and not switched_on:
        return AgentPlan(path, None, (), text, had_hooks, switched_off=switched_off)
    if uninstall and before is not None and _same(new, before.text):
        # Only edgar's own entries changed since install: the file as it was, byte for byte.
        gone = before.text is None
        return AgentPlan(
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
        return AgentPlan(path, None, changes, text, had_hooks, remove=True)
    rendered = jsoncodec.dumps(new, indent=2, ensure_ascii=False) + "\n"
    return AgentPlan(
        path, rendered, changes, text, had_hooks, switched_on=switched_on, switched_off=switched_off
    )


def _merged(
    path: str,
    hooks: dict[str, Any],
    form: HookFormat,
    commands: dict[str, str],
    limit: int,
    *,
    uninstall: bool,
) -> tuple[dict[str, Any], tuple[Change, ...], bool]:
    """The hooks with edgar's entry of each event in place (or out), the changes, and whether
    edgar's entries were there before."""
    changes: list[Change] = []
    had_hooks = False
    for event, hook in form.events:
        wanted = _entry(form, commands[hook], hook, limit)
        kept: list[Any] = []
        present = False
        for group in _groups(path, hooks, event):
            entries = []
            for entry in group.get("hooks", []):
                if not _ours(entry, hook):
                    entries.append(entry)
                    continue
                had_hooks = True
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
    return hooks, tuple(changes), had_hooks


def _switch(
    path: str, data: dict[str, Any], *, uninstall: bool, before: Before | None
) -> tuple[dict[str, Any], bool, bool]:
    """Gemini CLI's `hooksConfig.enabled`: set on install when the file does not say; taken out on
    uninstall when install set it and the hooks left are those the file had before. A person's
    `false` is left as it is."""
    config = data.get("hooksConfig", {})
    if not isinstance(config, dict):
        msg = f"{path}: 'hooksConfig' must be an object; nothing was changed"
        raise BadInput(msg)
    said = config.get("enabled")
    if not uninstall:
        if said is None:
            return {**data, "hooksConfig": {**config, "enabled": True}}, True, False
        return data, False, said is False
    earlier = _parsed(before.text) if before is not None else None
    if earlier is None:  # no record of before: edgar cannot know who set it
        return data, False, False
    had = earlier.get("hooksConfig")
    if (
        said is True
        and not (isinstance(had, dict) and "enabled" in had)
        and data.get("hooks") == earlier.get("hooks")
    ):
        rest = {k: v for k, v in config.items() if k != "enabled"}
        data = {k: v for k, v in data.items() if k != "hooksConfig"} | ({"hooksConfig": rest} if rest else {})
    return data, False, False


def _parsed(before: str | None) -> dict[str, Any] | None:
    """A recorded text as settings (no file: no settings); None when it does not read as them."""
    try:
        value = jsoncodec.loads(before) if before and before.strip() else {}
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _same(new: dict[str, Any], before: str | None) -> bool:
    return _parsed(before) == new


# What a hook file held before install: one small JSON file per hook file, named by its path,
# in the person's own edgar folder. Never in the project: a repository must not carry (or
# forge) what uninstall puts back.
def _record_path(records: str, path: str) -> str:
    return os.path.join(records, sha1_hex(os.path.abspath(path).encode("utf-8", "surrogatepass")) + ".json")


@dataclass(frozen=True, slots=True)
class Before:
    """A hook file as it was before install first put edgar's hooks in (`text` None: no file)."""

    text: str | None
    made_folder: bool


def read_before(records: str, path: str) -> Before | None:
    """What `path` held before install, if install recorded it (anything else is no record)."""
    try:
        raw = read_capped(_record_path(records, path), 2 * MAX_FILE_BYTES)
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


def apply_plan(plan: AgentPlan, *, root: str, records: str, uninstall: bool) -> None:
    """Write (or remove) the hook file as `plan` says, and keep (or drop) the record of before.

    `root` is the folder no write may leave (the project, or the agent's own folder)."""
    record = _record_path(records, plan.path)
    folder = os.path.dirname(plan.path)
    if not uninstall and not plan.had_hooks:
        document = {
            "settings": os.path.abspath(plan.path),
            "before": plan.current,
            "made_folder": not os.path.isdir(folder),
        }
        write_text(record, jsoncodec.dumps(document) + "\n", root=records)
    if plan.remove:
        remove_tree(plan.path, root=root)
        if plan.remove_folder:
            try:
                os.rmdir(folder)  # only if empty: the agent keeps its own files there too
            except OSError:
                pass
    elif plan.text is not None:
        write_text(plan.path, plan.text, root=root)
    if uninstall:
        remove_tree(record, root=records)


def trust_steps(agent: Agent, root: str, path: str, *, shared: bool) -> str:
    """What the person must do before the agent runs the hooks install wrote."""
    if agent == "codex":
        if shared:
            return (
                f"Codex runs a project's hooks only in a project you trust, once you trust the hooks: "
                f"start codex in {root}, trust the folder when it asks, then trust edgar's hooks when "
                "it lists them as new (or open /hooks). Until then codex exec runs them only with "
                "--dangerously-bypass-hook-trust."
            )
        return (
            "Codex runs your hooks once you trust them: start codex, trust edgar's hooks when it lists "
            "them as new (or open /hooks); until then codex exec runs them only with "
            f"--dangerously-bypass-hook-trust. They act only in sessions in {root}."
        )
    if shared:
        return (
            f"Gemini CLI runs a project's hooks only in a folder you trust: trust {root} when gemini asks "
            "(or run /permissions trust there); it warns about new project hooks before they run. "
            "See them with /hooks panel."
        )
    return (
        f"Gemini CLI runs the hooks in {path} in every session; they act only in sessions in {root}. "
        "See them with /hooks panel."
    )
