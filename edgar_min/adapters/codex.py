"""Codex CLI session logs (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`) to a turn record.

Each line is `{"timestamp", "type", "payload"}`. Read here:

- `session_meta`: `payload.id` is the session id;
- `event_msg` with `payload.type` `user_message`: `payload.message` is what a
  person typed (the `response_item` user messages also carry injected context
  such as `<environment_context>` and AGENTS.md, so they are used only when a
  log has no `user_message` events at all); `turn_aborted` marks an
  interruption, after which a typed message is a correction of the same turn;
  `exec_command_end` states a command's `exit_code` (each shell command since the turn's last
  edit is kept beside the record, never in it, with the exit code its end or output states);
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

Skills: Codex lists each skill to the model as name, description and the path
of its `SKILL.md` ("open its `SKILL.md`" when it decides to use one), and the
model reads the file itself through its shell. Codex writes no record of that
but the command, so a skill counts as loaded when a shell call of the turn
(`shell`, `shell_command`, `exec_command`, `local_shell_call`, the
`tools.exec_command({...})` calls of a code-mode `exec`) or a `read_file` call
reads a discovered skill's `SKILL.md`: a program that prints a file
(`READERS`: `cat`, `sed -n`, `head`, `tail`, `nl`, ...) given the path, its
output not sent into a file. The path matches when, resolved against the
call's working folder (or the turn's, and past `cd`), it ends in
`skills/NAME/SKILL.md` (or `skills/learned/NAME/SKILL.md`,
`skills/.system/NAME/SKILL.md`) for a discovered NAME: the shape of every
discovered skill's own path, and of Codex's `~/.codex/skills` (with its
`.system` folder) and `~/.agents/skills`. A write or an edit (`sed -i`, `>`
into it, `apply_patch`) is not a read, nor is a search (`rg`, `grep`: a few
matching lines are not the skill), nor a call the person rejected or that
could not start. A skill the person named with `$NAME` (or picked from the
list) is loaded too: Codex adds its file to the turn as a user message
`<skill>\n<name>NAME</name>…` (a plugin's `plugin:NAME` is NAME). Only the
skill's name reaches the record.

Agent: `main`, unless the header says a subagent wrote the rollout
(`session_meta.payload.source` `{"subagent": ...}`, as codex-rs's `SessionSource`
serializes one, or `{"internal": ...}`): then its kind (`review`, a spawned
agent's role), since no line of it is a person's.

`read_turns` gives every turn as it ends (at the next typed message, or the end
of the log); `read_session` is its last.
"""

from __future__ import annotations

import os

from edgar_min import jsoncodec
from edgar_min.adapters.common import (
    COMMAND_CHARS,
    MAX_PENDING,
    SKILL_FILE,
    AdaptedTurn,
    NoTurn,
    TurnBuilder,
    TurnReader,
    error_kind,
    known_lines,
    map_tool,
    program_word,
    stated_exit_code,
)
from edgar_min.adapters.jsonl import STRING_CAP, ReadStats
from edgar_min.adapters.reads import SHELLS, SkillReads
from edgar_min.errors import BadInput
from edgar_min.learning.turn import is_tool_name
from edgar_min.regex import lazy
from edgar_min.skills.names import unqualified

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Container, Iterator
    from typing import Any

__all__ = ["read_session", "read_turns"]

KNOWN_TYPES = frozenset(
    {
        "session_meta",
        "turn_context",
        "response_item",
        "event_msg",
        "compacted",
        "world_state",  # 0.171: the context the model was given (instructions, environment)
        "token_usage_record",  # 0.171: tokens used by each model call
    }
)
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
# A skill the person named (`$NAME`) or picked: Codex adds its file to the turn as a user message,
# `<skill>\n<name>NAME</name>\n<path>PATH</path>\nCONTENTS\n</skill>` (codex-rs `SkillInstructions`).
SKILL_OPEN = "<skill>"
TEXT_PARTS = frozenset({"input_text", "text"})
# `codex exec PROMPT < FILE` sends the piped file after the prompt, as `PROMPT\n\n<stdin>\nFILE\n</stdin>`.
STDIN_OPEN = "\n\n<stdin>\n"
STDIN_CLOSE = "\n</stdin>"
# 0.171 labels each part of a user-side message with where it came from; only `user` is typed
# (`harness` is the environment, `agents_md` an instructions file, `skills` a skill's file).
TYPED = "user"
NAMED_SKILL = "skills"
# A background command: its first output says so, and a later `write_stdin` poll gives its exit code.
RUNNING = "Process running with session ID "
PATCH_FAILED = "apply_patch verification failed"
_IMAGE = lazy(r"(?s)<image\b[^>]*>.*?</image>|</?image\b[^>]*>")


def typed_text(text: str) -> str:
    """What a person typed in a Codex user message: the request after the IDE preamble, without
    image tags or the file piped into `codex exec` (its `<stdin>` block)."""
    _, found, request = text.partition(REQUEST)
    if found:
        text = request
    if text.endswith(STDIN_CLOSE) and STDIN_OPEN in text:
        text = text[: text.rindex(STDIN_OPEN)]
    return (_IMAGE.sub("", text) if "image" in text else text).strip()  # no pattern for a plain prompt


CALLS = frozenset({"function_call", "custom_tool_call", "local_shell_call"})
OUTPUTS = frozenset({"function_call_output", "custom_tool_call_output"})


def _command(arguments: Any) -> str | None:
    """The shell command a shell call ran, from its arguments (the script of `bash -lc SCRIPT`)."""
    if isinstance(arguments, str):
        if len(arguments) >= STRING_CAP:
            return None
        try:
            arguments = jsoncodec.loads(arguments)
        except ValueError:
            return None
    if not isinstance(arguments, dict):
        return None
    command = arguments.get("command", arguments.get("cmd"))
    if isinstance(command, str):
        return command
    if isinstance(command, list) and command and all(isinstance(c, str) for c in command):
        first = command[0].rsplit("/", 1)[-1]
        if first in SHELLS and len(command) >= 3 and command[1] in ("-c", "-lc", "-ic"):
            return command[2]
        import shlex  # only for a command given as a list of words

        return shlex.join(command)
    return None


# The tools whose arguments name a file to read rather than a command.
FILE_READERS = frozenset({"read_file"})
READS = frozenset({"shell", "read"})  # edgar's names of the tools that may read a skill's file
# A code-mode `exec` runs JavaScript that calls `tools.exec_command({"cmd": ..., "workdir": ...})`.
_EXEC_CALL = "exec_command("
_EXEC_ARG = lazy(r"""["']?\b(cmd|workdir)["']?\s*:\s*("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')""")


def _js_string(literal: str) -> str:
    """The value of a JavaScript string literal as a model writes one (JSON escapes, or single quotes)."""
    if literal.startswith("'"):
        literal = '"' + literal[1:-1].replace('\\"', '"').replace('"', '\\"').replace("\\'", "'") + '"'
    try:
        value = jsoncodec.loads(literal)
    except ValueError:
        return literal[1:-1]
    return value if isinstance(value, str) else ""


def _exec_commands(source: str) -> list[tuple[str, str | None]]:
    """(command, working folder) of each `tools.exec_command({...})` a code-mode `exec` makes."""
    found = []
    for chunk in source.split(_EXEC_CALL)[1:]:
        args: dict[str, str] = {}
        for m in _EXEC_ARG.finditer(chunk):
            args.setdefault(m.group(1), _js_string(m.group(2)))
        if "cmd" in args:
            found.append((args["cmd"], args.get("workdir")))
    return found


def _reads(reads: SkillReads, name: str, arguments: Any, cwd: str | None) -> list[str]:
    """The skills one tool call reads: its command(s) or, for a file-reading tool, its file."""
    if isinstance(arguments, str):
        if SKILL_FILE not in arguments:
            return []
        if name == "exec" and _EXEC_CALL in arguments:
            calls = _exec_commands(arguments)
            return [skill for command, folder in calls for skill in reads.command(command, folder or cwd)]
        try:
            arguments = jsoncodec.loads(arguments)
        except ValueError:
            return []
    if not isinstance(arguments, dict):
        return []
    folder = arguments.get("workdir", arguments.get("working_directory"))
    folder = folder if isinstance(folder, str) and folder else cwd
    if name in FILE_READERS:
        path = arguments.get("file_path", arguments.get("path"))
        found = reads.skill(path, folder) if isinstance(path, str) else None
        return [found] if found else []
    command = arguments.get("command", arguments.get("cmd"))
    if isinstance(command, str):
        return reads.command(command, folder)
    if isinstance(command, list) and all(isinstance(c, str) for c in command):
        return reads.argv(command, folder)
    return []


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


class _Reader(TurnReader):
    def __init__(self, table: dict[str, str], reads: SkillReads) -> None:
        self.table = table
        self.reads = reads
        self.cwd: str | None = None  # the session's working folder, then the latest turn's
        self.skills_of: dict[str, list[str]] = {}  # call id -> the skills that call read
        self.stats = ReadStats()
        self.session: str | None = None
        self.turn: TurnBuilder | None = None
        self.ended: TurnBuilder | None = None  # the turn a new prompt has just ended
        self.agent = "main"
        self.pending: dict[str, tuple[str, str]] = {}
        self.failed: set[str] = set()
        self.interrupted = False
        self.unknown = 0
        self.orphans = 0
        # Which event gives the typed text (`user_message`, or 0.171's `item_completed`): the
        # first one met; until then the user messages among the response items do.
        self.typed_from: str | None = None
        self.background: dict[int, str] = {}  # a running command's session id -> its call id
        self.origin: dict[str, str] = {}  # a `write_stdin` poll's call id -> the command's call id

    def take(self, line: Any) -> None:
        if not isinstance(line, dict):
            self.unknown += 1
            return
        kind, payload = line.get("type"), line.get("payload")
        if "payload" not in line and (kind in BARE_ITEMS or kind is None):
            self._bare(line)
            return
        if kind not in KNOWN_TYPES:
            self.unknown += 1
            return
        if not isinstance(payload, dict):
            return
        if kind == "session_meta":
            if isinstance(payload.get("id"), str) and payload["id"]:
                self.session = payload["id"]
            self.agent = _agent(payload.get("source"))
            self._cwd(payload)
        elif kind == "turn_context":
            self._cwd(payload)
        elif kind == "event_msg":
            self._event(payload)
        elif kind == "response_item":
            self._item(payload)

    def _cwd(self, payload: dict[str, Any]) -> None:
        if isinstance(payload.get("cwd"), str) and payload["cwd"]:
            self.cwd = payload["cwd"]

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
            self.ended = self.turn
            self.turn = TurnBuilder(prompt=text, agent=self.agent, session=self.session)
            self.pending.clear()
            self.failed.clear()
            self.skills_of.clear()
        self.interrupted = False

    def _event(self, payload: dict[str, Any]) -> None:
        kind = payload.get("type")
        if kind == "user_message":
            if isinstance(payload.get("message"), str):
                self._typed_event(kind, payload["message"])
        elif kind == "item_completed":
            item = payload.get("item")
            if isinstance(item, dict) and item.get("type") == "UserMessage":
                parts = item.get("content")
                texts = [
                    p["text"]
                    for p in (parts if isinstance(parts, list) else [])
                    if isinstance(p, dict) and p.get("type") == "text" and isinstance(p.get("text"), str)
                ]
                self._typed_event(kind, "\n".join(texts))
        elif kind == "turn_aborted":
            self.interrupted = True
        elif kind == "exec_command_end":
            call_id, code = payload.get("call_id"), payload.get("exit_code")
            if self.turn is not None and isinstance(call_id, str) and type(code) is int:
                self.turn.exited(call_id, code)
            if (
                isinstance(call_id, str)
                and isinstance(code, int)
                and not isinstance(code, bool)
                and code != 0
                and call_id in self.pending
                and call_id not in self.failed
                and self.turn is not None
            ):
                tool, command = self.pending[call_id]
                self.failed.add(call_id)
                said = payload.get("stderr")
                said = said if isinstance(said, str) else ""
                self.turn.add_error(tool, error_kind("", code), code, program_word(command, said))

    def _typed_event(self, kind: str, text: str) -> None:
        """A message a person typed, as an event of `kind` states it; only one kind of event counts."""
        if self.typed_from is None:
            # The first such event: what was built from response items is dropped.
            self.typed_from = kind
            self.turn = None
        if kind == self.typed_from:
            self._typed(text)

    def _item(self, payload: dict[str, Any]) -> None:
        kind = payload.get("type")
        if kind == "message" and payload.get("role") == "user":
            self._user_item(payload)
            return
        if kind in CALLS:
            self._call(kind, payload)
        elif kind in OUTPUTS:
            self._output(payload)

    def _user_item(self, payload: dict[str, Any]) -> None:
        """A user-side message among the response items: typed text (while no event gives it), or a
        skill the person named. Each part's provenance label says which, where the log has one."""
        parts = payload.get("content")
        parts = parts if isinstance(parts, list) else []
        meta = payload.get("internal_chat_message_metadata_passthrough")
        labels = meta.get("content_item_metadata") if isinstance(meta, dict) else None
        if not isinstance(labels, list) or len(labels) != len(parts):
            labels = [None] * len(parts)
        typed, named = [], []
        for part, label in zip(parts, labels, strict=True):
            if not isinstance(part, dict) or part.get("type") not in TEXT_PARTS:
                continue
            text = part.get("text")
            if not isinstance(text, str):
                continue
            source = _provenance(label)
            if source == NAMED_SKILL or (source is None and text.startswith(SKILL_OPEN)):
                named.append(text)
            elif part.get("type") == "input_text" and source in (TYPED, None):
                typed.append((text, source))
        if self.typed_from is None:
            text = "\n".join(t for t, _ in typed).strip()
            # Unlabelled, injected context is wrapped in tags (<environment_context>, ...).
            labelled = any(source == TYPED for _, source in typed)
            if text and (labelled or not text.startswith(INJECTED)):
                self._typed(text)
        for text in named:
            self._injected(text)

    def _injected(self, text: str) -> None:
        """A skill Codex put in the turn because the person named it (`$NAME`, or picked it)."""
        head, _, _ = text[len(SKILL_OPEN) :].lstrip("\n").partition("\n")
        if self.turn is None or not (head.startswith("<name>") and head.endswith("</name>")):
            return
        name = unqualified(head[len("<name>") : -len("</name>")].strip())
        if name in self.reads.names and name not in self.turn.skills:
            self.turn.skills.append(name)

    def _call(self, kind: str, payload: dict[str, Any]) -> None:
        if self.turn is None:
            return
        if kind == "local_shell_call":
            name, arguments = "local_shell", payload.get("action")
        else:
            name, arguments = payload.get("name"), payload.get("arguments", payload.get("input"))
        if not isinstance(name, str) or not name:
            return
        # 0.171 names an MCP tool by its server's namespace (`mcp__docs`) and its own name
        # (`read_file`): `mcp__docs__read_file`, as older versions wrote it, and never Codex's tool.
        namespace = payload.get("namespace")
        own = not (isinstance(namespace, str) and namespace)
        tool = map_tool(name if own else f"{namespace.removesuffix('__')}__{name}", self.table)
        self.turn.add_tool(tool)
        command = _command(arguments) if tool == "shell" else None
        call_id = payload.get("call_id")
        if tool == "edit":
            self.turn.edited()
        elif own and command is not None and isinstance(call_id, str):
            self.turn.ran(call_id, command)
        if isinstance(call_id, str) and len(self.pending) < MAX_PENDING:
            polled = self._polled(arguments) if own and name == "write_stdin" else None
            if polled is not None:
                self.origin[call_id] = polled
                tool, command = self.pending.get(polled, (tool, command))
            self.pending[call_id] = (tool, (command or "")[:COMMAND_CHARS])
        # Only Codex's own shell or file reader reads a skill (an MCP tool's `command` is its business).
        reads = own and (tool in READS or name == "exec")
        skills = _reads(self.reads, name, arguments, self.cwd) if reads else []
        if skills:
            self.turn.skills.extend(skills)
            if isinstance(call_id, str) and len(self.skills_of) < MAX_PENDING:
                self.skills_of[call_id] = skills

    def _polled(self, arguments: Any) -> str | None:
        """The call id of the background command a `write_stdin` call polls, if its start was read."""
        if isinstance(arguments, str) and len(arguments) < STRING_CAP:
            try:
                arguments = jsoncodec.loads(arguments)
            except ValueError:
                return None
        session = arguments.get("session_id") if isinstance(arguments, dict) else None
        return self.background.get(session) if isinstance(session, int) else None

    def _output(self, payload: dict[str, Any]) -> None:
        call_id = payload.get("call_id")
        if not isinstance(call_id, str) or call_id not in self.pending or self.turn is None:
            self.orphans += 1
            return
        call = self.pending[call_id]
        command = self.origin.get(call_id, call_id)  # a poll's result is its command's
        if call_id in self.failed or command in self.failed:
            return
        head, code = _output_facts(payload.get("output"))
        self._running(call_id, head)
        self.turn.exited(command, code)  # a poll's exit code is its command's
        lowered = head.lstrip().lower()
        # "execution error: No such file or directory (os error 2)": the command never started.
        spawn = lowered.startswith("execution error")
        denied = error_kind(head, None) == "denied"
        if spawn or denied:
            # The command never ran (rejected, or it could not start): it read no skill.
            for skill in self.skills_of.pop(call_id, ()):
                self.turn.skills.remove(skill)
        # A patch that did not apply: Codex checks it first and says so instead of an exit code.
        unapplied = lowered.startswith(PATCH_FAILED)
        if (code is not None and code != 0) or spawn or denied or unapplied or "timed out" in lowered:
            self.failed.update((call_id, command))
            tool, command = call
            self.turn.add_error(tool, error_kind(head, code), code, program_word(command, head))

    def _running(self, call_id: str, head: str) -> None:
        """Remember a command Codex left running in the background, by the session id it reports."""
        at = head.find(RUNNING)
        if at == -1 or len(self.background) >= MAX_PENDING:
            return
        words = head[at + len(RUNNING) :].split(None, 1)
        if words and words[0].isdigit() and len(words[0]) < 20:
            # A poll that finds it still running names the same command.
            self.background[int(words[0])] = self.origin.get(call_id, call_id)


def _provenance(label: Any) -> str | None:
    """The `provenance.type` of one part's metadata (0.171), or None where the log has none."""
    source = label.get("provenance") if isinstance(label, dict) else None
    kind = source.get("type") if isinstance(source, dict) else None
    return kind if isinstance(kind, str) else None


def _agent(source: Any) -> str:
    """`main`, or the kind of agent a rollout's `source` names when not a person's session."""
    if not isinstance(source, dict) or not source.keys() & {"subagent", "internal"}:
        return "main"  # "cli", "vscode", "exec", "mcp", ...: a person, or their script, asked
    kind = source.get("subagent", source.get("internal"))
    if isinstance(kind, dict):
        spawn = kind.get("thread_spawn")
        role = spawn.get("agent_role") if isinstance(spawn, dict) else None
        kind = role if isinstance(role, str) else next(iter(kind), "")
    kind = kind.strip().lower() if isinstance(kind, str) else ""
    return kind if is_tool_name(kind) and kind != "main" else "subagent"


def _check_path(path: str) -> None:
    if not os.path.exists(path):
        msg = f"{path}: no such file"
        raise BadInput(msg)
    if os.path.isdir(path):
        msg = f"{path}: is a folder, not a session log"
        raise BadInput(msg)


def _no_turn(path: str, reader: _Reader) -> BadInput:
    msg = (
        f"{path}: no message a person typed was found, so there is no turn to learn from; nothing was stored"
    )
    return NoTurn(msg) if known_lines(reader.stats, reader.unknown) else BadInput(msg)


def read_turns(
    path: str, table: dict[str, str], skill_names: Container[str] = frozenset()
) -> Iterator[AdaptedTurn]:
    """Every turn of a Codex session log, oldest first, each as soon as it ends; the last is
    `read_session`'s. A log with no typed message is `BadInput`; the last turn's notes are the
    whole log's."""
    _check_path(path)
    reader = _Reader(table, SkillReads(skill_names))
    try:
        for turn in reader.turns(path):
            yield reader.adapted(turn, turn.session or reader.session)
    except OSError as exc:
        msg = f"{path}: cannot be read ({exc.strerror})"
        raise BadInput(msg) from None
    if reader.turn is None:
        raise _no_turn(path, reader)


def read_session(path: str, table: dict[str, str], skill_names: Container[str] = frozenset()) -> AdaptedTurn:
    """The turn record of a Codex session log's last turn; `skills` holds each skill of
    `skill_names` (a `SkillNames`: the discovered skills) whose `SKILL.md` the turn read."""
    turns = read_turns(path, table, skill_names)
    last = next(turns)  # read_turns raises before it would end without a turn
    for last in turns:  # noqa: B007 - the last one is the answer
        pass
    return last
