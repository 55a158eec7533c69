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
runs edgar only when the agent's session is in this project (`case "$PWD"/ in ROOT/*)`;
Gemini CLI's `$GEMINI_PROJECT_DIR`), so other projects never see it. `shared` writes the
project's file instead. The guarantees are Claude Code's (`delivery/install.py`, whose reading,
command guard, plan and record of before this module uses): every other key and hook stays as
it was; each command exits 0 whatever happened; a second install changes nothing; a moved
edgar replaces its old commands; uninstall takes edgar's entries out, and puts back the very
bytes the file had before the first install when nothing else changed (or removes the file,
and the folder, install made).
"""

from __future__ import annotations

import math
import os
import shlex

from edgar_min import jsoncodec
from edgar_min.delivery.install import (
    TIMEOUT_MARGIN_S,
    Before,
    Change,
    InstallPlan,
    hook_command,
    merge_entries,
    planned,
    read_settings,
)
from edgar_min.errors import BadInput
from edgar_min.layout import person_home
from edgar_min.records import dataclass
from edgar_min.regex import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Literal

    Agent = Literal["codex", "gemini"]

__all__ = ["FORMATS", "AgentPlan", "HookFormat", "agent_command", "hooks_file", "plan_install", "trust_steps"]


@dataclass(frozen=True, slots=True)
class HookFormat:
    """How one agent writes its hooks: its names for edgar's three events and a timeout's unit."""

    agent: Agent
    name: str  # as people call it
    events: tuple[tuple[str, str], ...]  # (the agent's event, edgar's hook)
    per_second: int  # a timeout in seconds is written as this many units
    named: bool  # each entry carries a `name` the agent lists it by
    switch: bool  # hooks run only while `hooksConfig.enabled` is true
    # The session's folder as the hook's shell sees it. Codex leaves the command to the shell,
    # run in the session's folder. Gemini CLI puts `$NAME`s of its own environment into its
    # settings as it reads them (`PWD` is wherever it was started), and `$GEMINI_PROJECT_DIR`
    # into a hook's command, quoted for the shell, as it runs it.
    here: str


FORMATS: dict[str, HookFormat] = {
    "codex": HookFormat(
        "codex",
        "Codex",
        (("SessionStart", "session-start"), ("UserPromptSubmit", "user-prompt-submit"), ("Stop", "stop")),
        per_second=1,
        named=False,
        switch=False,
        here='"$PWD"',
    ),
    "gemini": HookFormat(
        "gemini",
        "Gemini CLI",
        (("SessionStart", "session-start"), ("BeforeAgent", "user-prompt-submit"), ("AfterAgent", "stop")),
        per_second=1000,
        named=True,
        switch=True,
        here="$GEMINI_PROJECT_DIR",  # not in quotes: Gemini CLI quotes the folder it puts in
    ),
}
# An edgar hook command: runs edgar (the pyz, the script, or the module) with `hook EVENT`, at the
# end of the command, before the `||` of the guard that exits 0, or at the end of a `case` branch.
_OURS = lazy(
    r"(?:edgar|edgar_min)\S*\b.*?\shook\s+(session-start|user-prompt-submit|stop)(?:\s*$|\s+\|\|\s|\s*;;)"
)


@dataclass(frozen=True, slots=True)
class AgentPlan:
    """What becomes of an agent's hook file (`plan`, as for Claude Code's settings), and what
    becomes of Gemini CLI's switch: install set `hooksConfig.enabled` (`switched_on`), or the
    person has it false (`switched_off`)."""

    plan: InstallPlan
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


def agent_command(base: str, root: str, event: str, *, agent: Agent, shared: bool) -> str:
    """The shell command the agent runs for `event`: edgar's hook, exiting 0 whatever happened
    (`delivery/install.py`); the person's own file keeps it to sessions in `root` or inside it."""
    command = hook_command(base, event, root=shlex.quote(root), agent=agent)
    if shared:
        return command
    inside = shlex.quote(root.rstrip("/") + "/")
    return f"case {FORMATS[agent].here}/ in {inside}*) {command};; esac"


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
    text, data = read_settings(path)
    hooks = data.get("hooks", {})
    if not isinstance(hooks, dict):
        msg = f"{path}: 'hooks' must be an object (event name -> list); nothing was changed"
        raise BadInput(msg)
    limit = math.ceil(timeout_s if math.isfinite(timeout_s) and timeout_s > 0 else 20) + TIMEOUT_MARGIN_S
    commands = {hook: agent_command(base, root, hook, agent=agent, shared=shared) for _, hook in form.events}
    hooks, changes, had_hooks = _merged(path, dict(hooks), form, commands, limit, uninstall=uninstall)
    new = {**data, "hooks": hooks} if hooks else {k: v for k, v in data.items() if k != "hooks"}
    switched_on = switched_off = False
    if form.switch:
        new, switched_on, switched_off = _switch(path, new, uninstall=uninstall, before=before)
    if not changes and not switched_on:
        return AgentPlan(InstallPlan(path, None, (), text, had_hooks), switched_off=switched_off)
    # Only edgar's own entries changed since install: the file as it was, byte for byte.
    restores = uninstall and before is not None and _same(new, before.text)
    plan = planned(path, new, changes, text, had_hooks, uninstall=uninstall, before=before, restores=restores)
    if plan.restored or plan.remove:
        return AgentPlan(plan)
    return AgentPlan(plan, switched_on=switched_on, switched_off=switched_off)


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
    wanted = [(event, _entry(form, commands[hook], hook, limit), hook) for event, hook in form.events]
    changes, had_hooks = merge_entries(path, hooks, wanted, _ours, uninstall=uninstall)
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
