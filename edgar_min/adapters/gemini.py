"""Gemini CLI session logs (`~/.gemini/tmp/<project>/chats/session-*.jsonl`) to a turn record.

A session log is a list of records Gemini CLI appends as the session goes (0.61):

- a header `{"sessionId", "projectHash", "startTime", "kind", ...}` (`kind` `main`, or
  another agent's), which may carry `messages`;
- a message `{"id", "type", ...}`: `user` (`content`, a string or a list of parts, and
  `displayContent` when what was shown differs from what was sent), `gemini` (`content`,
  `toolCalls` with each call's `id`, `name`, `args`, `status` and `result`), or `info`,
  `warning`, `error` lines of the CLI's own. A message written again under its id is the same
  message, completed (a model message gets its tool calls once they ran);
- `{"$set": {...}}` updates the session (`messages` rewrites the history: a resumed session
  writes it again, in the form it sends the model, where a call is a `functionCall` part of
  a model message and its result a `functionResponse` part of a user message);
- `{"$rewindTo": ID}`: the person rewound the session; the message ID and all after it are gone.

Before these records, Gemini CLI kept a session as one JSON object (`session-*.json`) with
the same `messages`; such a file is read too.

Gemini CLI itself drops, when it resends a history, a user message whose text starts with
`<hook_context>` (a hook's context before the prompt): edgar keeps every message it read, so a
turn a hook's context came before keeps its prompt.

What is computed for each turn (a turn starts at a message a person typed):

- prompt: the text of `displayContent` (what the person typed, without the files an `@path`
  adds), else of `content`, with every `<hook_context>…</hook_context>` block a hook added
  dropped wherever it stands; a message Gemini CLI does not send as a prompt (`/command`,
  `?`, `<session_context>`) starts no turn;
- tools: each call's name, mapped through the tool table;
- errors: a call whose status is `error` (its `error`, classified), `cancelled` (the person
  stopped it: `denied`), or a shell command whose result states a non-zero `Exit Code`, with
  the program it ran;
- runs (beside the record, never in it): each shell command since the turn's last edit, with
  its exit code (0 when its result states none);
- skills: the `activate_skill` call's skill (a discovered one, when the call did not fail),
  and a discovered skill's `SKILL.md` read with `read_file` or a shell command that prints it
  (`adapters/reads.py`), unless the turn then edits that file;
- agent: `main`, or the header's `kind`.

Gemini CLI records no interruption a reader can tell from a new prompt, so every typed
message starts a turn. `read_turns` gives the turns once the whole log is read (a later
record may complete or rewind an earlier one); `read_session` is the last.
"""

from __future__ import annotations

import os

from edgar_min import jsoncodec
from edgar_min.adapters.common import (
    AdaptedTurn,
    NoTurn,
    TurnBuilder,
    TurnReader,
    error_kind,
    known_lines,
    map_tool,
    program_word,
    skill_of_path,
    stated_exit_code,
)
from edgar_min.adapters.jsonl import ReadStats, records
from edgar_min.adapters.reads import SkillReads
from edgar_min.errors import BadInput
from edgar_min.learning.turn import is_tool_name
from edgar_min.logfile import read_capped
from edgar_min.records import dataclass, field
from edgar_min.skills.names import unqualified

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Container, Iterator
    from typing import Any

__all__ = ["read_session", "read_turns"]

MESSAGE_TYPES = frozenset({"user", "gemini", "info", "warning", "error"})
HOOK_OPEN = "<hook_context>"
HOOK_CLOSE = "</hook_context>"
# What Gemini CLI does not send the model as a prompt: its own commands, help, the environment.
NOT_PROMPTS = ("/", "?", "<session_context>")
SHELL = "run_shell_command"
ACTIVATE = "activate_skill"
FILE_READERS = frozenset({"read_file"})
EDITS = frozenset({"edit"})  # edgar's name of the tools that change a file
EXIT = "Exit Code: "
# A session of tens of thousands of messages is held as small facts, one per message.
MAX_MESSAGES = 200_000
# An older session file is one JSON document, read whole: a bound on what is held.
MAX_WHOLE_BYTES = 64 << 20


def typed_text(text: str) -> str:
    """What a person typed in a user message: the text without the `<hook_context>` blocks of hooks."""
    while HOOK_OPEN in text:
        start = text.index(HOOK_OPEN)
        end = text.find(HOOK_CLOSE, start)
        text = text[:start] + ("" if end == -1 else text[end + len(HOOK_CLOSE) :])
    return text.strip()


def _parts(content: Any) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [{"text": content}]
    if isinstance(content, dict):
        return [content]
    return [p for p in content if isinstance(p, dict)] if isinstance(content, list) else []


def _text(content: Any) -> str:
    return "".join(p["text"] for p in _parts(content) if isinstance(p.get("text"), str))


@dataclass(slots=True)
class _Call:
    """One tool call, as far as the log has told it."""

    name: str
    args: dict[str, Any]
    failure: tuple[str, int | None] | None = None  # (kind, exit code) when it failed


@dataclass(slots=True)
class _Message:
    """What edgar keeps of one message: the typed prompt, or the calls it made."""

    prompt: str | None = None
    calls: list[str] = field(default_factory=list)


class _Reader(TurnReader):
    def __init__(self, table: dict[str, str], reads: SkillReads) -> None:
        self.table = table
        self.reads = reads
        self.stats = ReadStats()
        self.turn: TurnBuilder | None = None
        self.ended: TurnBuilder | None = None
        self.session: str | None = None
        self.agent = "main"
        self.messages: dict[str, _Message] = {}
        self.calls: dict[str, _Call] = {}
        self.results: dict[str, dict[str, Any]] = {}  # call id -> a `functionResponse.response`
        self.unknown = 0
        self.orphans = 0

    def take(self, line: Any) -> None:
        if not isinstance(line, dict):
            self.unknown += 1
        elif isinstance(line.get("$rewindTo"), str):
            self._rewind(line["$rewindTo"])
        elif isinstance(line.get("$set"), dict):
            self._header(line["$set"])
        elif isinstance(line.get("id"), str) and line.get("type") in MESSAGE_TYPES:
            self._message(line)
        elif isinstance(line.get("sessionId"), str) and "projectHash" in line:
            self._header(line)
        else:
            self.unknown += 1

    def _header(self, fields: dict[str, Any]) -> None:
        if isinstance(fields.get("sessionId"), str) and fields["sessionId"]:
            self.session = fields["sessionId"]
        if isinstance(fields.get("kind"), str):
            kind = fields["kind"].strip().lower()
            self.agent = kind if is_tool_name(kind) else "subagent"
        if isinstance(fields.get("messages"), list):
            # A history written again (a resumed session): each message read is kept.
            for message in fields["messages"]:
                if isinstance(message, dict) and isinstance(message.get("id"), str):
                    self._message(message)

    def _rewind(self, to: str) -> None:
        ids = list(self.messages)
        cut = ids.index(to) if to in self.messages else 0
        for gone in ids[cut:]:
            del self.messages[gone]

    def _message(self, message: dict[str, Any]) -> None:
        key, kind = message["id"], message.get("type")
        if key not in self.messages and len(self.messages) >= MAX_MESSAGES:
            return
        kept = self.messages.setdefault(key, _Message())
        content = message.get("content")
        if kind == "user":
            self._responses(content)
            sent = _text(content)
            shown = message.get("displayContent")
            typed = typed_text(_text(shown) if shown is not None else sent)
            # Gemini's own rule for what is a prompt, on what was sent once hooks' context is out.
            if typed and not typed_text(sent).startswith(NOT_PROMPTS):
                kept.prompt = typed
        elif kind == "gemini":
            calls = message.get("toolCalls")
            for call in calls if isinstance(calls, list) else []:
                if isinstance(call, dict):
                    self._call(kept, call)
                    self._responses(call.get("result"))
                    if call.get("status") in ("error", "cancelled"):
                        self._failed(call)
            for part in _parts(content):
                if isinstance(part.get("functionCall"), dict):
                    self._call(kept, part["functionCall"])

    def _call(self, message: _Message, call: dict[str, Any]) -> None:
        key, name = call.get("id"), call.get("name")
        if not isinstance(key, str) or not isinstance(name, str) or not name:
            return
        if key not in self.calls:
            args = call.get("args")
            self.calls[key] = _Call(name, args if isinstance(args, dict) else {})
        if key not in message.calls:
            message.calls.append(key)

    def _responses(self, content: Any) -> None:
        for part in _parts(content):
            response = part.get("functionResponse")
            if isinstance(response, dict) and isinstance(response.get("id"), str):
                reply = response.get("response")
                if isinstance(reply, dict) and len(self.results) < MAX_MESSAGES:
                    self.results.setdefault(response["id"], reply)

    def _failed(self, call: dict[str, Any]) -> None:
        """A call Gemini marked as failed (`error`) or stopped by the person (`cancelled`)."""
        key = call.get("id")
        if isinstance(key, str) and key in self.calls and self.calls[key].failure is None:
            # What the tool said (its `error`), else what was shown of it.
            said = self.results.get(key, {}).get("error", call.get("resultDisplay"))
            head = said[:300] if isinstance(said, str) else ""
            person = call.get("status") == "cancelled"
            self.calls[key].failure = (error_kind(head, None, person_said_no=person), None)

    def build(self) -> list[TurnBuilder]:
        """The turns of the session as the log leaves it, oldest first."""
        turns: list[TurnBuilder] = []
        placed: set[str] = set()
        for message in self.messages.values():
            if message.prompt is not None:
                turns.append(TurnBuilder(prompt=message.prompt, agent=self.agent, session=self.session))
                continue
            if not turns:
                continue
            for key in message.calls:
                if key not in placed:
                    placed.add(key)
                    self._add(turns[-1], self.calls[key], self.results.get(key))
        self.orphans = sum(1 for key in self.results if key not in self.calls)
        return turns

    def _add(self, turn: TurnBuilder, call: _Call, result: dict[str, Any] | None) -> None:
        tool = map_tool(call.name, self.table)
        turn.add_tool(tool)
        command = call.args.get("command")
        failure = call.failure or _failure(result, shell=call.name == SHELL)
        if tool in EDITS:
            turn.edited()
        elif call.name == SHELL and isinstance(command, str):
            key = str(len(turn.tools))
            turn.ran(key, command)
            # A shell result states a non-zero exit code; one without it, or an error, exited 0.
            done = result is not None and call.failure is None
            turn.exited(key, failure[1] if failure is not None else (0 if done else None))
        if failure is not None:
            kind, code = failure
            said = result.get("output") if result is not None else None
            said = said if isinstance(said, str) else ""
            program = program_word(command, said) if tool == "shell" and isinstance(command, str) else ""
            turn.add_error(tool, kind, code, program)
            return  # a failed call loaded no skill
        path = call.args.get("file_path")
        if call.name == ACTIVATE and isinstance(call.args.get("name"), str):
            name = unqualified(call.args["name"].strip())
            if name in self.reads.names:
                turn.skills.append(name)
        elif call.name in FILE_READERS and isinstance(path, str):
            found = skill_of_path(path, None, self.reads.names)
            if found is not None:
                turn.skills.append(found)
        elif call.name == SHELL and isinstance(command, str):
            folder = call.args.get("dir_path", call.args.get("directory"))
            turn.skills.extend(self.reads.command(command, folder if isinstance(folder, str) else None))
        elif tool in EDITS and isinstance(path, str):
            # A skill's file read to be changed was not loaded to be followed.
            edited = skill_of_path(path, None, self.reads.names)
            if edited in turn.skills:
                turn.skills.remove(edited)

    def turns(self, path: str) -> Iterator[TurnBuilder]:
        for line in records(path, self.stats):
            self.take(line)
        if not self.messages and (self.stats.garbage or self.stats.torn):
            self._whole(path)
        built = self.build()
        self.turn = built[-1] if built else None
        yield from built

    def _whole(self, path: str) -> None:
        """The session file of Gemini CLI before 0.55 or so: one JSON object (`session-*.json`),
        its `messages` a list; read whole, within a bound."""
        raw = read_capped(path, MAX_WHOLE_BYTES)
        if raw is None or len(raw) > MAX_WHOLE_BYTES:
            return
        try:
            document = jsoncodec.loads(raw)
        except (ValueError, RecursionError):
            return
        if isinstance(document, dict) and isinstance(document.get("messages"), list):
            self.stats.garbage = self.stats.torn = 0  # its lines were one record, not garbage
            self._header(document)


def _failure(result: dict[str, Any] | None, *, shell: bool) -> tuple[str, int | None] | None:
    """(kind, exit code) of a call whose result says it failed, else None."""
    if result is None:
        return None
    error = result.get("error")
    if isinstance(error, str) and error:
        return error_kind(error[:300], None), None
    output = result.get("output")
    if not shell or not isinstance(output, str):
        return None
    # The shell tool's result ends with the command's exit code, after its output.
    at = output.rfind(EXIT)
    code = stated_exit_code(output[at : at + 40]) if at != -1 else None
    if code is None or code == 0:
        return None
    return error_kind(output[:300], code), code


def _check_path(path: str) -> None:
    if not os.path.exists(path):
        msg = f"{path}: no such file"
        raise BadInput(msg)
    if os.path.isdir(path):
        msg = f"{path}: is a folder, not a session log"
        raise BadInput(msg)


def read_turns(
    path: str, table: dict[str, str], skill_names: Container[str] = frozenset()
) -> Iterator[AdaptedTurn]:
    """Every turn of a Gemini CLI session log, oldest first; the last is `read_session`'s. A log
    with no typed message is `BadInput`; every turn's notes are the whole log's."""
    _check_path(path)
    reader = _Reader(table, SkillReads(skill_names))
    try:
        built = list(reader.turns(path))
    except OSError as exc:
        msg = f"{path}: cannot be read ({exc.strerror})"
        raise BadInput(msg) from None
    if not built:
        msg = (
            f"{path}: no message a person typed was found, so there is no turn to learn from; "
            "nothing was stored"
        )
        raise NoTurn(msg) if known_lines(reader.stats, reader.unknown) else BadInput(msg)
    for turn in built:
        yield reader.adapted(turn, turn.session or reader.session)


def read_session(path: str, table: dict[str, str], skill_names: Container[str] = frozenset()) -> AdaptedTurn:
    """The turn record of a Gemini CLI session log's last turn; `skills` holds each skill of
    `skill_names` (the discovered skills) the turn loaded."""
    turns = read_turns(path, table, skill_names)
    last = next(turns)  # read_turns raises before it would end without a turn
    for last in turns:  # noqa: B007 - the last one is the answer
        pass
    return last
