"""Which agent wrote a session log, and the one reader of its format.

Each agent's log has its own shape from its first record: a Claude Code transcript's lines
are `{"type": "user"|"assistant"|..., "sessionId", ...}`; a Codex rollout's are
`{"timestamp", "type": "session_meta"|..., "payload"}` (the first 2025 format: a bare
`{"id", "instructions"}` header and response items); a Gemini CLI session's first record is
`{"sessionId", "projectHash", ...}`, then messages `{"id", "type": "user"|"gemini"}` and
`{"$set": ...}` updates. The shape decides, not the file's name or folder.
"""

from __future__ import annotations

import os

from edgar_min import deferred
from edgar_min.adapters.jsonl import ReadStats, records
from edgar_min.errors import BadInput

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Container, Iterator
    from typing import Any, Literal

    from edgar_min.adapters.common import AdaptedTurn

    Agent = Literal["claude-code", "codex", "gemini"]
    TurnsReader = Callable[[str, dict[str, str], Container[str]], Iterator[AdaptedTurn]]

__all__ = ["AGENTS", "last_turn", "log_agent", "turns_reader"]

AGENTS: tuple[Agent, ...] = ("claude-code", "codex", "gemini")
# The first records say whose log it is; a log whose first few say nothing known is no one's.
FIRST_RECORDS = 5
# Only the reader of the log at hand is imported.
READERS = {
    "claude-code": deferred.module("edgar_min.adapters.claude_code"),
    "codex": deferred.module("edgar_min.adapters.codex"),
    "gemini": deferred.module("edgar_min.adapters.gemini"),
}
CODEX_TYPES = frozenset({"session_meta", "turn_context", "response_item", "event_msg", "compacted"})
CLAUDE_TYPES = frozenset(
    {"user", "assistant", "system", "summary", "file-history-snapshot", "queue-operation", "progress"}
)


def record_agent(record: Any) -> Agent | None:
    """The agent whose log a record of that shape belongs to, or None when it could be anyone's."""
    if not isinstance(record, dict):
        return None
    kind = record.get("type")
    if isinstance(record.get("payload"), dict) and kind in CODEX_TYPES:
        return "codex"
    if ("instructions" in record and isinstance(record.get("id"), str)) or "record_type" in record:
        return "codex"
    if "projectHash" in record or "$set" in record or "$rewindTo" in record:
        return "gemini"
    if isinstance(record.get("id"), str) and kind == "gemini":
        return "gemini"
    if kind in CLAUDE_TYPES and ("sessionId" in record or "uuid" in record or "message" in record):
        return "claude-code"
    return None


def log_agent(path: str) -> Agent | None:
    """The agent whose log `path` is, by the shape of its first records; None when they do not say,
    or `path` is not a plain file (then the reader says why). `BadInput` when it cannot be read."""
    if not os.path.isfile(path):
        return None
    stats = ReadStats()
    try:
        for n, record in enumerate(records(path, stats)):
            found = record_agent(record)
            if found is not None or n + 1 >= FIRST_RECORDS:
                return found
    except OSError as exc:
        msg = f"{path}: cannot be read ({exc.strerror})"
        raise BadInput(msg) from None
    return None


def turns_reader(agent: Agent) -> TurnsReader:
    """The `read_turns` of `agent`'s log format."""
    return READERS[agent].read_turns


def last_turn(agent: Agent, path: str, table: dict[str, str], skill_names: Container[str]) -> AdaptedTurn:
    """The last turn of `agent`'s log at `path` (`BadInput` when it has none)."""
    module = READERS[agent]
    read = module.read_transcript if agent == "claude-code" else module.read_session
    return read(path, table, skill_names)
