"""From an agent's own session log to a `Turn`, computed by edgar and never copied.

Each adapter streams a log and builds the seven-key turn record of its last
turn; the record then goes through the same `parse_turn` and gate as any other.
Tool output, tool arguments (but the stripped program word) and assistant text
have no way in: the adapters read them only to compute a closed-vocabulary fact
(a kind, an exit code) or not at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from edgar_min.errors import ConfigError

if TYPE_CHECKING:
    from edgar_min.adapters.jsonl import ReadStats

__all__ = [
    "DEFAULT_TOOL_MAP",
    "AdaptedTurn",
    "TurnBuilder",
    "error_kind",
    "map_tool",
    "program_word",
    "tool_table",
]

# Agent tool name -> edgar's vocabulary. Claude Code names first, then Codex names.
DEFAULT_TOOL_MAP: dict[str, str] = {
    "Bash": "shell",
    "BashOutput": "shell",
    "KillShell": "shell",
    "KillBash": "shell",
    "Edit": "edit",
    "MultiEdit": "edit",
    "Write": "edit",
    "NotebookEdit": "edit",
    "Read": "read",
    "NotebookRead": "read",
    "Grep": "search",
    "Glob": "search",
    "LS": "search",
    "WebFetch": "fetch",
    "WebSearch": "fetch",
    "Task": "task",
    "Agent": "task",
    "Skill": "skill",
    "TodoWrite": "todo",
    "shell": "shell",
    "shell_command": "shell",
    "exec_command": "shell",
    "write_stdin": "shell",
    "local_shell": "shell",
    "container.exec": "shell",
    "apply_patch": "edit",
    "read_file": "read",
    "view_image": "read",
    "list_dir": "search",
    "grep_files": "search",
    "web_search": "fetch",
    "update_plan": "todo",
}

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_DROP = re.compile(r"[^a-z0-9_.-]+")
_TOOL = re.compile(r"[a-z][a-z0-9_.-]{0,63}")
MAX_TOOLS = 500
MAX_ERRORS = 500
MAX_CORRECTIONS = 50
MAX_PENDING = 10_000


def tool_table(entries: tuple[str, ...]) -> dict[str, str]:
    """The default table with the config's `"AgentName=edgar_name"` entries laid over it."""
    table = dict(DEFAULT_TOOL_MAP)
    for entry in entries:
        agent_name, sep, ours = entry.partition("=")
        agent_name, ours = agent_name.strip(), ours.strip()
        if not sep or not agent_name or not _TOOL.fullmatch(ours):
            msg = (
                f"adapters.tool_map entry {entry!r} must read AgentTool=edgar_tool, the edgar name in "
                "lower-case letters, digits, '_', '.', '-' (e.g. \"Bash=shell\")"
            )
            raise ConfigError(msg)
        table[agent_name] = ours
    return table


def map_tool(name: str, table: dict[str, str]) -> str:
    """The table's name for `name`, else the rule: `mcp__a__b` -> `mcp.a.b`, CamelCase -> snake_case."""
    if name in table:
        return table[name]
    text = name.replace("__", ".")
    text = _CAMEL.sub("_", text).lower()
    text = _DROP.sub("_", text).strip("_.-")
    text = re.sub(r"^[^a-z]+", "", text)[:64].rstrip("_.-")
    return text or "tool"


_ENV_ASSIGN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=\S*")


def program_word(command: str) -> str:
    """The first word of a shell command (after `VAR=value` prefixes), without its folder."""
    for word in command[:512].split():
        if _ENV_ASSIGN.fullmatch(word):
            continue
        return word.rsplit("/", 1)[-1]
    return ""


# How a harness words a person saying no (Claude Code's rejection and interruption lines, Codex's).
DENIALS = (
    "the user doesn't want to proceed",
    "the user doesn't want to take this action",
    "[request interrupted by user",
    "exec command rejected by user",
    "patch rejected by user",
)
_EXIT = re.compile(r"(?:exit code|exited with code|exit status)[:\s]+(-?\d{1,10})", re.IGNORECASE)


def error_kind(head: str, exit_code: int | None) -> str:
    """A closed-vocabulary kind for a failed tool result, from the first line of what it said."""
    lowered = head[:300].lstrip().lower()
    if lowered.startswith(DENIALS):
        return "denied"
    if "timed out" in lowered or "timeout" in lowered:
        return "timeout"
    if exit_code == 127 or "command not found" in lowered or "does not exist" in lowered:
        return "not_found"
    if "permission denied" in lowered or "not permitted" in lowered:
        return "denied"
    if exit_code is not None and exit_code != 0:
        return "nonzero_exit"
    if "<tool_use_error>" in lowered or "invalid" in lowered:
        return "invalid_input"
    return "crashed"


def stated_exit_code(head: str) -> int | None:
    """The exit code a result states in its first lines ("Exit code 1"), as a number."""
    m = _EXIT.search(head[:300])
    if m is None:
        return None
    value = int(m.group(1))
    return value if -(2**31) <= value < 2**32 else None


@dataclass(slots=True)
class TurnBuilder:
    """The facts of one turn as a log is read; `record()` gives the seven-key turn record."""

    prompt: str = ""
    corrections: list[str] = field(default_factory=list)
    tools: list[str] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    skills: list[str] = field(default_factory=list)
    agent: str = "main"
    dropped_tools: int = 0

    def add_tool(self, name: str) -> None:
        if len(self.tools) < MAX_TOOLS:
            self.tools.append(name)
        else:
            self.dropped_tools += 1

    def add_error(self, tool: str, kind: str, exit_code: int | None, program: str) -> None:
        if len(self.errors) < MAX_ERRORS:
            from edgar_min.learning.turn import strip_program

            self.errors.append(
                {"tool": tool, "kind": kind, "exit_code": exit_code, "program": strip_program(program)}
            )

    def add_correction(self, text: str) -> None:
        text = text.strip()
        if text and len(self.corrections) < MAX_CORRECTIONS:
            self.corrections.append(text)

    def record(self, verification: str = "unverified") -> dict[str, Any]:
        return {
            "prompt": self.prompt,
            "corrections": list(self.corrections),
            "tools": list(self.tools),
            "errors": list(self.errors),
            "verification": verification,
            "agent": self.agent,
            "skills": list(dict.fromkeys(self.skills)),
        }


@dataclass(frozen=True, slots=True)
class AdaptedTurn:
    """The computed turn record of a log's last turn, its session id, and what the reader skipped."""

    record: dict[str, Any]
    session: str | None
    stats: ReadStats
    unknown_types: int = 0
    orphan_results: int = 0
    dropped_tools: int = 0

    def notes(self) -> list[str]:
        """Plain sentences about what was skipped; empty when the log read cleanly."""
        found = []
        if self.stats.garbage:
            found.append(f"{self.stats.garbage} line(s) that are not JSON were skipped")
        if self.stats.torn:
            found.append("a torn last line was skipped")
        if self.unknown_types:
            found.append(f"{self.unknown_types} record(s) of a type this version does not know were skipped")
        if self.orphan_results:
            found.append(f"{self.orphan_results} tool result(s) without their tool call were skipped")
        if self.dropped_tools:
            found.append(f"{self.dropped_tools} tool call(s) past the first {MAX_TOOLS} were not recorded")
        return found
