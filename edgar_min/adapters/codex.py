"""Codex CLI session logs (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`) to a turn record.

Each line is `{"timestamp", "type", "payload"}`. Read here:

- `session_meta`: `payload.id` is the session id;
- `event_msg` with `payload.type` `user_message`: `payload.message` is what a
  person typed (the `response_item` user messages also carry injected context
  such as `<environment_context>` and AGENTS.md, so they are used only when a
  log has no `user_message` events at all); `turn_aborted` marks an
  interruption, after which a typed message is a correction of the same turn;
  `exec_command_end` states a command's `exit_code`;
- `response_item` with `payload.type` `function_call` / `custom_tool_call` /
  `local_shell_call` (a tool call: `name`, `call_id`, `arguments` JSON text or
  `input`) and `function_call_output` / `custom_tool_call_output` (its result:
  `output` text, either plain — "Exit code: 1", "Process exited with code 1",
  "execution error: No such file or directory (os error 2)" when the program
  could not be started — or JSON with `metadata.exit_code`).

A user message's text is what a person typed, after the IDE extension's
preamble (`# Context from my IDE setup: … ## My request for Codex:`) and image
tags are dropped. The first rollout format (bare response items, no wrapper)
is read too.

Codex records no skill loading and no subagent type, so `skills` is empty and
`agent` is `main`.
"""

from __future__ import annotations

import os
import re

from edgar_min import jsoncodec
from edgar_min.adapters.common import (
    MAX_PENDING,
    AdaptedTurn,
    TurnBuilder,
    error_kind,
    map_tool,
    program_word,
    stated_exit_code,
)
from edgar_min.adapters.jsonl import STRING_CAP, ReadStats, records
from edgar_min.errors import BadInput
from edgar_min.regex import lazy

TYPE_CHECKING = False  # typing's own, without importing typing (~2 ms on every run)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["read_session"]

KNOWN_TYPES = frozenset({"session_meta", "turn_context", "response_item", "event_msg", "compacted"})
# Lines of the first rollout format (2025), written bare: no `{timestamp, type, payload}` wrapper.
BARE_ITEMS = frozenset(
    {
        "message",
        "reasoning",
        "function_call",
        "function_call_output",
        "custom_tool_call",
        "custom_tool_call_output",
        "local_shell_call",
    }
)
# The IDE extension's preamble (open tabs, the active file, files mentioned) ends with this
# heading; what follows it is what the person typed.
REQUEST = "## My request for Codex:"
# Context Codex injects as user messages: instructions files and the environment.
INJECTED = ("<", "# AGENTS.md")
_IMAGE = lazy(r"<image\b[^>]*>.*?</image>|</?image\b[^>]*>", re.DOTALL)


def typed_text(text: str) -> str:
    """What a person typed in a Codex user message: the request after the IDE preamble, no image tags."""
    _, found, request = text.partition(REQUEST)
    if found:
        text = request
    return _IMAGE.sub("", text).strip()


CALLS = frozenset({"function_call", "custom_tool_call", "local_shell_call"})
OUTPUTS = frozenset({"function_call_output", "custom_tool_call_output"})
SHELLS = frozenset({"bash", "sh", "zsh", "dash", "fish", "pwsh", "powershell"})


def _program(arguments: Any) -> str:
    """The first word of the command a shell call ran, from its arguments."""
    if isinstance(arguments, str):
        if len(arguments) >= STRING_CAP:
            return ""
        try:
            arguments = jsoncodec.loads(arguments)
        except ValueError:
            return ""
    if not isinstance(arguments, dict):
        return ""
    command = arguments.get("command", arguments.get("cmd"))
    if isinstance(command, str):
        return program_word(command)
    if isinstance(command, list) and command and all(isinstance(c, str) for c in command[:3]):
        first = command[0].rsplit("/", 1)[-1]
        # ["bash", "-lc", "pytest -x"]: the program is the script's first word.
        if first in SHELLS and len(command) >= 3 and command[1] in ("-c", "-lc", "-ic"):
            return program_word(command[2])
        return program_word(" ".join(command[:2]))
    return ""


def _output_facts(output: Any) -> tuple[str, int | None]:
    """(the first line or so of a result, the exit code it states) for a call's output."""
    if isinstance(output, dict):
        text = output.get("content", "")
        return (text[:300] if isinstance(text, str) else "", None)
    if not isinstance(output, str):
        return "", None
    if output.startswith("{") and len(output) < STRING_CAP:
        try:
            data = jsoncodec.loads(output)
        except ValueError:
            data = None
        if isinstance(data, dict):
            meta = data.get("metadata")
            code = meta.get("exit_code") if isinstance(meta, dict) else None
            inner = data.get("output")
            head = inner[:300] if isinstance(inner, str) else ""
            if isinstance(code, int) and not isinstance(code, bool):
                return head, code
            return head, stated_exit_code(head)
    head = output[:300]
    return head, stated_exit_code(head)


class _Reader:
    def __init__(self, table: dict[str, str]) -> None:
        self.table = table
        self.stats = ReadStats()
        self.session: str | None = None
        self.turn: TurnBuilder | None = None
        self.pending: dict[str, tuple[str, str]] = {}
        self.failed: set[str] = set()
        self.interrupted = False
        self.unknown = 0
        self.orphans = 0
        self.events_seen = False

    def read(self, path: str) -> None:
        for line in records(path, self.stats):
            if not isinstance(line, dict):
                self.unknown += 1
                continue
            kind, payload = line.get("type"), line.get("payload")
            if "payload" not in line and (kind in BARE_ITEMS or kind is None):
                self._bare(line)
                continue
            if kind not in KNOWN_TYPES:
                self.unknown += 1
                continue
            if not isinstance(payload, dict):
                continue
            if kind == "session_meta":
                if isinstance(payload.get("id"), str) and payload["id"]:
                    self.session = payload["id"]
            elif kind == "event_msg":
                self._event(payload)
            elif kind == "response_item":
                self._item(payload)

    def _bare(self, line: dict[str, Any]) -> None:
        """A line of the first format: a response item, the session header, or a state marker."""
        if line.get("type") is not None:
            self._item(line)
        elif "record_type" in line:
            pass
        elif isinstance(line.get("id"), str) and "instructions" in line:
            self.session = line["id"] or self.session
        else:
            self.unknown += 1

    def _typed(self, text: str) -> None:
        text = typed_text(text)
        if not text:
            return
        if self.turn is not None and self.interrupted:
            self.turn.add_correction(text)
        else:
            self.turn = TurnBuilder(prompt=text)
            self.pending.clear()
            self.failed.clear()
        self.interrupted = False

    def _event(self, payload: dict[str, Any]) -> None:
        kind = payload.get("type")
        if kind == "user_message":
            if isinstance(payload.get("message"), str):
                if not self.events_seen:
                    # The first real event: what was built from response items is dropped.
                    self.events_seen = True
                    self.turn = None
                self._typed(payload["message"])
        elif kind == "turn_aborted":
            self.interrupted = True
        elif kind == "exec_command_end":
            call_id, code = payload.get("call_id"), payload.get("exit_code")
            if (
                isinstance(call_id, str)
                and isinstance(code, int)
                and not isinstance(code, bool)
                and code != 0
                and call_id in self.pending
                and call_id not in self.failed
                and self.turn is not None
            ):
                tool, program = self.pending[call_id]
                self.failed.add(call_id)
                self.turn.add_error(tool, error_kind("", code), code, program)

    def _item(self, payload: dict[str, Any]) -> None:
        kind = payload.get("type")
        if kind == "message" and payload.get("role") == "user" and not self.events_seen:
            parts = payload.get("content")
            texts = [
                p["text"]
                for p in (parts if isinstance(parts, list) else [])
                if isinstance(p, dict) and p.get("type") == "input_text" and isinstance(p.get("text"), str)
            ]
            text = "\n".join(texts).strip()
            # Injected context is wrapped in tags (<environment_context>, <user_instructions>, ...).
            if text and not text.startswith(INJECTED):
                self._typed(text)
            return
        if kind in CALLS:
            self._call(kind, payload)
        elif kind in OUTPUTS:
            self._output(payload)

    def _call(self, kind: str, payload: dict[str, Any]) -> None:
        if self.turn is None:
            return
        if kind == "local_shell_call":
            name, arguments = "local_shell", payload.get("action")
        else:
            name, arguments = payload.get("name"), payload.get("arguments", payload.get("input"))
        if not isinstance(name, str) or not name:
            return
        tool = map_tool(name, self.table)
        self.turn.add_tool(tool)
        program = _program(arguments) if tool == "shell" else ""
        call_id = payload.get("call_id")
        if isinstance(call_id, str) and len(self.pending) < MAX_PENDING:
            self.pending[call_id] = (tool, program)

    def _output(self, payload: dict[str, Any]) -> None:
        call_id = payload.get("call_id")
        if not isinstance(call_id, str) or call_id not in self.pending or self.turn is None:
            self.orphans += 1
            return
        call = self.pending[call_id]
        if call_id in self.failed:
            return
        head, code = _output_facts(payload.get("output"))
        lowered = head.lstrip().lower()
        # "execution error: No such file or directory (os error 2)": the command never started.
        spawn = lowered.startswith("execution error")
        if (
            (code is not None and code != 0)
            or spawn
            or error_kind(head, None) == "denied"
            or "timed out" in lowered
        ):
            self.failed.add(call_id)
            tool, program = call
            self.turn.add_error(tool, error_kind(head, code), code, program)


def read_session(path: str, table: dict[str, str]) -> AdaptedTurn:
    """The turn record of a Codex session log's last turn."""
    if not os.path.exists(path):
        msg = f"{path}: no such file"
        raise BadInput(msg)
    if os.path.isdir(path):
        msg = f"{path}: is a folder, not a session log"
        raise BadInput(msg)
    reader = _Reader(table)
    try:
        reader.read(path)
    except OSError as exc:
        msg = f"{path}: cannot be read ({exc.strerror})"
        raise BadInput(msg) from None
    if reader.turn is None:
        msg = (
            f"{path}: no message a person typed was found, so there is no turn to learn from; "
            "nothing was stored"
        )
        raise BadInput(msg)
    return AdaptedTurn(
        record=reader.turn.record(),
        session=reader.session,
        stats=reader.stats,
        unknown_types=reader.unknown,
        orphan_results=reader.orphans,
        dropped_tools=reader.turn.dropped_tools,
    )
