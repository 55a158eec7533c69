"""Waiting, bounded, for an agent to finish writing the log a Stop hook is about to read.

Claude Code can run the Stop hooks of a short headless turn before its transcript file exists,
or before the turn's lines reach it (both seen with 2.1.197 against a fast local server; the
second on a resumed session under load, where the hook read the turn before and recorded it
again). The Stop payload says which turn it is about: Claude Code's `prompt_id` is written on
the prompt's line, and `last_assistant_message` (Claude Code, Codex) is the agent's last text.
The hook looks once (`turn_written`); when the turn is not there yet it answers at once and a
process of its own waits until the log's end holds both, in that order, or for `TRANSCRIPT_WAIT_S`,
then reads what there is; whoever reads it says what is missing.
"""

from __future__ import annotations

import os
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["TRANSCRIPT_WAIT_S", "turn_written", "wait_for_turn"]

TRANSCRIPT_WAIT_S = 2.0
# How often the log is looked at while waiting. Claude Code 2.1.197 wrote a turn's last lines
# 20-60 ms after it started the Stop hooks; looking every 50 ms added up to 50 ms more to every
# turn (bench/bench_claude_hooks.py). The log's end is read again only when its size changed.
POLL_S = 0.01
# How much of the log's end is searched: a turn longer than this is taken as written.
TAIL_BYTES = 262_144
# Characters every JSON encoder writes as themselves: a run of them is found in the log as typed.
_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:;!?()-_")
# Without the prompt's id a shorter run ("Done.") could be an earlier turn's; after it, it cannot.
_SHORTEST = 8


def _plain_run(text: str, shortest: int, limit: int = 60) -> bytes:
    """The longest run of plain characters starting a line of `text` (at most `limit`), or b"" when
    it is shorter than `shortest`."""
    best = ""
    for line in text[:2000].splitlines():
        end = 0
        while end < len(line) and end < limit and line[end] in _PLAIN:
            end += 1
        run = line[:end].strip()
        if len(run) > len(best):
            best = run
    return best.encode() if best and len(best) >= shortest else b""


def _written(path: str, prompt: bytes, message: bytes) -> bool:
    """Whether the end of the log holds the turn's prompt id, then its last message."""
    try:
        with open(path, "rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            handle.seek(max(0, size - TAIL_BYTES))
            tail = handle.read(TAIL_BYTES)
    except OSError:
        return True  # nothing to wait for: the reader says why it cannot read it
    at = tail.rfind(prompt) if prompt else -1
    if prompt and at == -1 and size <= TAIL_BYTES:
        return False
    after = tail.find(b"\n", at) if at != -1 else 0  # past the prompt's own line, which may quote it
    return not message or (after != -1 and tail.find(message, after) != -1)


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return -2  # gone or unreadable: `_written` says there is nothing to wait for


def _marks(payload: dict[str, Any]) -> tuple[bytes, bytes]:
    """What the log holds once the turn is written: the prompt's id, then a run of the last reply."""
    prompt_id = payload.get("prompt_id")
    prompt = f'"{prompt_id}"'.encode() if isinstance(prompt_id, str) and prompt_id.isprintable() else b""
    last = payload.get("last_assistant_message")
    message = _plain_run(last, 1 if prompt else _SHORTEST) if isinstance(last, str) else b""
    return prompt, message


def turn_written(path: str, payload: dict[str, Any]) -> bool:
    """Whether `path` holds the turn `payload` is about now (or there is nothing to wait for)."""
    if path and not os.path.lexists(path):
        return False
    prompt, message = _marks(payload)
    return not (path and (prompt or message)) or _written(path, prompt, message)


def wait_for_turn(path: str, seconds: float, payload: dict[str, Any]) -> None:
    """Return once `path` exists and holds the turn `payload` is about, or after `seconds`."""
    deadline = time.monotonic() + max(0.0, seconds)
    while path and not os.path.lexists(path) and time.monotonic() < deadline:
        time.sleep(POLL_S)
    prompt, message = _marks(payload)
    seen = -1
    while path and (prompt or message) and time.monotonic() < deadline:
        size = _size(path)
        if size != seen:
            if _written(path, prompt, message):
                return
            seen = size
        time.sleep(POLL_S)
