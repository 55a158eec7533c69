"""Claude Code transcripts (`~/.claude/projects/<project>/<session>.jsonl`) to a turn record.

A transcript is JSONL; the lines read here have `type` `user`, `assistant` or
`attachment`, with `message.content` a string or a list of blocks (`text`,
`tool_use` with `id`/`name`/`input`, `tool_result` with
`tool_use_id`/`content`/`is_error`), plus `sessionId`, `isSidechain`, `isMeta`,
`origin`, `toolUseResult` and `toolDenialKind`. Every other line type (`system`,
`summary`, `file-history-snapshot`, `progress`, `last-prompt`, ...) is passed
over; one this version has never heard of is counted.

What is computed for each turn of the main chain (`read_turns`), and so for the
last one (`read_transcript`): a turn starts at a message a person typed and ends
where the next one starts.

- prompt: the last message a person typed starts the turn: not a tool result,
  not a meta, compaction or sidechain message, not one whose `origin.kind` is
  other than `human`; within it, every block of `HARNESS_BLOCKS` is dropped
  wherever it stands, and a message of `HARNESS_MESSAGES` is dropped whole;
- corrections: a message a person typed right after interrupting the agent, a
  line queued while the agent worked (`attachment` `queued_command` of human
  origin), and the reason given when rejecting a tool call, taken only when
  the record itself marks the result as a rejection (`_said_no`). A slash
  command (`/mcp`, `/compact`, `/NAME args`) is the person running a command,
  never a correction: typed after an interruption it starts a turn as it would
  have without one, and queued it is passed over;
- tools: each `tool_use` name, mapped through the tool table;
- errors: one per `tool_result` with `is_error` (not a call cancelled because
  a sibling failed): the tool, a kind, the exit code the result states
  ("Exit code 1"), and the program the shell command ran (of a pipeline, the
  stage the result names, else the last: `program_word`); nothing else from
  the result;
- runs (beside the record, never in it): each `Bash` command since the turn's last edit
  (`Edit`, `Write`, ...), with its exit code: 0 for a result that is not an error (Claude Code
  marks a non-zero exit as one) unless it was interrupted, else the code it states; a command
  run in the background has none;
- skills: the `Skill` tool's argument, kept only when it names a discovered skill
  and the call did not fail (a failed call, a rejected one included, loaded nothing);
  a discovered skill's `SKILL.md` opened with `Read` (`…/skills/NAME/SKILL.md`) or printed
  by a shell command (`cat`, `sed -n`, ...: `adapters/reads.py`), unless the turn then edits
  that file;
  and a skill the person ran as a slash command (`/NAME args`, `/plugin:NAME`);
- agent: `main`; or, for a subagent's own transcript, the subagent's type.
"""

from __future__ import annotations

import os

from edgar_min.adapters.common import (
    COMMAND_CHARS,
    MAX_PENDING,
    SKILL_FILE,
    AdaptedTurn,
    NoTurn,
    SubagentLog,
    TurnBuilder,
    TurnReader,
    error_kind,
    known_lines,
    map_tool,
    program_word,
    skill_of_path,
    stated_exit_code,
)
from edgar_min.adapters.jsonl import ReadStats
from edgar_min.adapters.reads import SkillReads
from edgar_min.errors import BadInput
from edgar_min.learning.turn import is_tool_name
from edgar_min.regex import lazy
from edgar_min.skills.names import slash_skill, unqualified

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Container, Iterator
    from typing import Any

__all__ = ["read_transcript", "read_turns"]

KNOWN_TYPES = frozenset(
    {
        "user",
        "assistant",
        "system",
        "summary",
        "file-history-snapshot",
        "queue-operation",
        "progress",
        "attachment",
        "custom-title",
        "ai-title",
        "tag",
        "last-prompt",
        "permission-mode",
        "mode",  # 2.1.197: the session's mode ("normal")
        # Claude Code 2.1.332: each model request and its shape, tool and cost summaries.
        "api-request",
        "api-request-blob",
        "api-request-shape",
        "atis-latch",
        "tools-used",
        "cost-state",
    }
)
INTERRUPTED = "[Request interrupted by user"
SIBLING = "<tool_use_error>Sibling tool call errored</tool_use_error>"
REJECTED = "The user doesn't want to proceed with this tool use."
REASON = "the user said:\n"
REASON_FIELD = "The user provided the following reason for the rejection: "
# The closed list of blocks Claude Code and its IDE extensions write into a user message in the
# person's name. Each is dropped wherever it stands in the message; the rest is what was typed.
HARNESS_BLOCKS = (
    "task-notification",  # a background task finished (2.1.x writes it as a plain user line)
    "system-reminder",  # reminders, hook output, file contents
    "ide_opened_file",  # the IDE extensions: the file that is open
    "ide_selection",  # the IDE extensions: the selected lines, source code included
    "ide_diagnostics",
    "local-command-stdout",  # a local slash command's output
    "local-command-stderr",
    "local-command-caveat",
    "bash-input",  # `!` bash mode: the command and its output
    "bash-stdout",
    "bash-stderr",
    "user-prompt-submit-hook",  # a UserPromptSubmit hook's text
    "command-message",  # a slash command's echo; its name and arguments are kept below
    "command-name",
    "command-args",
)
# Whole messages the harness writes in the person's name, known by how they begin.
HARNESS_MESSAGES = (
    "<task-notification>",  # with the sentence Claude Code puts after it
    "Caveat: The messages below were generated by the user while running local commands",
    "This session is being continued from a previous conversation",  # a compaction summary
    "Base directory for this skill:",  # a loaded skill's body
)
_COMMAND = lazy(r"<command-name>\s*(/?[^<\s]{1,100})\s*</command-name>")
_COMMAND_ARGS = lazy(r"(?s)<command-args>(.*?)</command-args>")
_BLOCKS = lazy(
    # Tag names are letters, `_` and `-`: nothing to escape. `(?s)`: `.` takes line breaks too.
    r"(?s)<(" + "|".join(HARNESS_BLOCKS) + r")(?:\s[^>]*)?>(?:.*?</\1\s*>|.*\Z)"
    # A task notification ends with Claude Code's own instruction to read the task's output.
    r"(?:\s*Read the output file to retrieve the result: [^\n]*)?",
)
_BLANK_LINES = lazy(r"\n[ \t]*\n(?:[ \t]*\n)+")


def _blocks(content: Any) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if isinstance(content, list):
        return [b for b in content if isinstance(b, dict)]
    return []


def _text_of(content: Any) -> str:
    """The text parts of a message or a tool result, joined."""
    parts = [
        b["text"] for b in _blocks(content) if b.get("type") == "text" and isinstance(b.get("text"), str)
    ]
    return "\n".join(parts)


def typed_text(text: str) -> str | None:
    """What a person typed in a user message, or None when the harness wrote all of it."""
    stripped = text.strip()
    if not stripped or stripped.startswith(HARNESS_MESSAGES):
        return None
    # Each pattern only where its text can be: most prompts are a line with no tag in it.
    tagged = "<" in stripped
    kept = _BLOCKS.sub(_keep_commands, stripped) if tagged else stripped
    command = _COMMAND.search(kept) if "<command-name>" in kept else None
    if command is not None:
        args = _COMMAND_ARGS.search(stripped)
        name = command.group(1)
        name = name if name.startswith("/") else "/" + name
        return f"{name} {args.group(1).strip()}".strip() if args else name
    left = _BLOCKS.sub("", stripped) if tagged else stripped
    if left.count("\n") >= 3:  # a run of blank lines needs three line breaks
        left = _BLANK_LINES.sub("\n\n", left)
    left = left.strip()
    if not left or left.startswith(HARNESS_MESSAGES):
        return None
    return left


def _keep_commands(match: re.Match[str]) -> str:
    """Drop every harness block but a slash command's own name and arguments."""
    return match.group(0) if match.group(1) in ("command-name", "command-args") else ""


def _origin(entry: dict[str, Any]) -> str | None:
    """`origin.kind` of a record (newer versions mark what a person typed `human`), if present."""
    for holder in (entry, entry.get("attachment")):
        origin = holder.get("origin") if isinstance(holder, dict) else None
        if isinstance(origin, dict) and isinstance(origin.get("kind"), str):
            return origin["kind"]
    return None


def _said_no(entry: dict[str, Any], block: dict[str, Any], tool: str) -> tuple[bool, str | None]:
    """(the log marks this result as a person stopping the call, the reason they typed or None).

    Only the record's own structure says so: `toolDenialKind`, or the `toolUseResult`
    Claude Code writes instead of a tool's result. A tool's output that merely reads
    like a rejection (a fetched page, an MCP server's text) is not a person's.
    """
    if block.get("is_error") is not True:
        return False, None
    denial = entry.get("toolDenialKind")
    result = entry.get("toolUseResult")
    if isinstance(denial, str):
        marked = denial == "user-rejected"
    elif isinstance(result, str):
        # An MCP tool's error text becomes `Error: <its text>`; only built-in tools are told apart.
        marked = result.startswith("User rejected tool use") or (
            not tool.startswith("mcp__")
            and result.startswith(("Error: " + REJECTED, "Error: " + INTERRUPTED))
        )
    else:
        marked = False
    if not marked:
        return False, None
    said = _text_of(block.get("content"))
    _, found, reason = said.partition(REASON)
    if not found and isinstance(result, str):
        _, found, reason = result.partition(REASON_FIELD)
    return True, (reason if found else None)


class _Reader(TurnReader):
    """One pass over a transcript; `side` reads a subagent's own transcript."""

    def __init__(self, table: dict[str, str], skill_names: Container[str], side: bool) -> None:
        self.table = table
        self.skill_names = skill_names
        self.side = side
        self.stats = ReadStats()
        self.turn: TurnBuilder | None = TurnBuilder() if side else None
        self.ended: TurnBuilder | None = None  # the turn a new prompt has just ended
        self.session: str | None = None
        self.pending: dict[str, tuple[str, str, str, tuple[str, ...]]] = {}
        self.reads = SkillReads(skill_names)
        self.seen: set[str] = set()
        self.read_skills: set[str] = set()  # the skills this turn loaded by reading their file
        self.interrupted = False
        self.unknown = 0
        self.orphans = 0
        self.sidechain_lines = 0

    def take(self, entry: Any) -> None:
        if not isinstance(entry, dict):
            self.unknown += 1
            return
        kind = entry.get("type")
        if kind not in ("user", "assistant", "attachment"):
            if kind not in KNOWN_TYPES:
                self.unknown += 1
            return
        if bool(entry.get("isSidechain")) != self.side:
            self.sidechain_lines += 1
            return
        if kind == "attachment":
            self._attachment(entry)
            return
        session = entry.get("sessionId")
        if isinstance(session, str) and session:
            self.session = session
        message = entry.get("message")
        if not isinstance(message, dict):
            return
        if kind == "assistant":
            self._assistant(message.get("content"))
        else:
            self._user(entry, message.get("content"))

    def _assistant(self, content: Any) -> None:
        turn = self.turn
        if turn is None:
            return
        for block in _blocks(content):
            if block.get("type") != "tool_use":
                continue
            name, use_id = block.get("name"), block.get("id")
            if not isinstance(name, str) or not name:
                continue
            if isinstance(use_id, str):
                if use_id in self.seen:
                    continue  # the same call written twice (a streamed message re-logged)
                if len(self.seen) < MAX_PENDING:
                    self.seen.add(use_id)
            tool = map_tool(name, self.table)
            turn.add_tool(tool)
            arguments = block.get("input") if isinstance(block.get("input"), dict) else {}
            command = ""  # the start of a shell command, read for its program if the call fails
            if tool == "shell" and isinstance(arguments.get("command"), str):
                command = arguments["command"][:COMMAND_CHARS]
                # A command left running in the background states no exit code of its own.
                behind = arguments.get("run_in_background") is True
                if name == "Bash" and isinstance(use_id, str) and not behind:
                    turn.ran(use_id, arguments["command"])
            if tool == "edit":
                turn.edited()
            skills = self._uses(name, tool, arguments, command)
            if isinstance(use_id, str) and len(self.pending) < MAX_PENDING:
                self.pending[use_id] = (tool, command, name, skills)

    def _uses(self, name: str, tool: str, arguments: dict[str, Any], command: str) -> tuple[str, ...]:
        """The discovered skills a call uses (the Skill tool, a read of a skill's file), added to the
        turn's skills; an edit of a skill's file takes back a read of it."""
        if name == "Skill":
            return self._skill(arguments)
        if name == "Read" and isinstance(arguments.get("file_path"), str):
            return self._read(skill_of_path(arguments["file_path"], None, self.skill_names))
        if command and SKILL_FILE in arguments["command"]:
            # `cat …/skills/NAME/SKILL.md` through the shell reads the skill as Read does.
            found = self.reads.command(arguments["command"], None)
            return tuple(s for skill in found for s in self._read(skill))
        if tool == "edit" and isinstance(arguments.get("file_path"), str):
            self._edited(arguments["file_path"])
        return ()

    def _skill(self, arguments: dict[str, Any]) -> tuple[str, ...]:
        """The discovered skill a Skill call loads (none: `()`), added to the turn's skills."""
        if self.turn is None:
            return ()
        value = arguments.get("skill", arguments.get("command"))
        if not isinstance(value, str):
            return ()
        name = unqualified(value.strip().lstrip("/"))  # `plugin:name`: discovery knows the name
        if name not in self.skill_names:
            return ()
        self.turn.skills.append(name)
        return (name,)

    def _read(self, name: str | None) -> tuple[str, ...]:
        """The discovered skill whose `SKILL.md` a call reads (none: `()`), added to the turn's
        skills: reading the file a skill's name points to uses it as the Skill tool does."""
        if name is None or self.turn is None or name in self.turn.skills:
            return ()
        self.turn.skills.append(name)
        self.read_skills.add(name)
        return (name,)

    def _edited(self, path: str) -> None:
        """A skill's file read to be edited was not loaded to be followed."""
        name = skill_of_path(path, None, self.skill_names)
        if name in self.read_skills and self.turn is not None and name in self.turn.skills:
            self.turn.skills.remove(name)
            self.read_skills.discard(name)

    def _user(self, entry: dict[str, Any], content: Any) -> None:
        blocks = _blocks(content)
        results = [b for b in blocks if b.get("type") == "tool_result"]
        if results:
            for block in results:
                self._result(entry, block)
            return
        if self.side or entry.get("isMeta") or entry.get("isCompactSummary"):
            return
        text = _text_of(content)
        origin = _origin(entry)
        if origin is not None and origin != "human":
            return  # a task notification, another session's message, ...
        if text.lstrip().startswith(INTERRUPTED):
            self.interrupted = True
            return
        typed = typed_text(text)
        if typed is None:
            return
        if self.turn is not None and self.interrupted and slash_skill(typed) is None:
            self.turn.add_correction(typed)
        else:
            self.ended = self.turn
            self.turn = TurnBuilder(prompt=typed, session=self.session)
            self.pending.clear()
            self.seen.clear()
            self.read_skills.clear()
            ran = slash_skill(typed)  # `/NAME args` runs the skill NAME when it is one
            if ran is not None and ran in self.skill_names:
                self.turn.skills.append(ran)
        self.interrupted = False

    def _attachment(self, entry: dict[str, Any]) -> None:
        """A line a person typed while the agent worked (`queued_command`) corrects the turn."""
        attachment = entry.get("attachment")
        if self.side or self.turn is None or not isinstance(attachment, dict):
            return
        if attachment.get("type") != "queued_command" or _origin(entry) != "human":
            return
        prompt = attachment.get("prompt")
        typed = typed_text(prompt if isinstance(prompt, str) else _text_of(prompt))
        if typed is not None and slash_skill(typed) is None:
            self.turn.add_correction(typed)

    def _result(self, entry: dict[str, Any], block: dict[str, Any]) -> None:
        use_id = block.get("tool_use_id")
        call = self.pending.pop(use_id, None) if isinstance(use_id, str) else None
        if call is None or self.turn is None:
            self.orphans += 1
            return
        if block.get("is_error") is not True:
            # Claude Code marks a command that exited non-zero as an error: this one exited 0,
            # unless a person interrupted it.
            result = entry.get("toolUseResult")
            if not (isinstance(result, dict) and result.get("interrupted") is True):
                self.turn.exited(use_id, 0)
            return
        tool, command, name, skills = call
        for skill in skills:
            # A Skill call (or a read of its file) that failed (a person said no, the skill's own
            # commands failed, a sibling's failure cancelled it) gave the agent no body: not used.
            if skill in self.turn.skills:
                self.turn.skills.remove(skill)
        said = _text_of(block.get("content"))
        head = said[:300]
        result = entry.get("toolUseResult")
        if SIBLING in head or result == "Sibling tool call errored":
            return  # cancelled because another call of the same batch failed: not its own failure
        person, reason = _said_no(entry, block, name)
        if reason is not None:
            # The person's reason for saying no is text a person typed.
            self.turn.add_correction(reason)
        exit_code = stated_exit_code(head)
        self.turn.exited(use_id, exit_code)
        kind = error_kind(head, exit_code, person_said_no=person)
        self.turn.add_error(tool, kind, exit_code, program_word(command, said) if command else "")


def _open_check(path: str) -> None:
    if not os.path.exists(path):
        msg = f"{path}: no such file"
        raise BadInput(msg)
    if os.path.isdir(path):
        msg = f"{path}: is a folder, not a transcript"
        raise BadInput(msg)


def _no_turn(main: _Reader, path: str) -> BadInput:
    """Why a transcript gave no turn: a subagent's own log, or no message a person typed."""
    if main.sidechain_lines:
        msg = (
            f"{path}: this is a subagent's log (every message in it is marked as a sidechain), "
            "and a subagent's log holds no line a person typed; give the main session's transcript "
            "(the Stop hook's transcript_path); nothing was stored"
        )
        return SubagentLog(msg)
    msg = (
        f"{path}: no message a person typed was found (only tool results, command output or "
        "system lines), so there is no turn to learn from; nothing was stored"
    )
    return NoTurn(msg) if known_lines(main.stats, main.unknown) else BadInput(msg)


def _cannot_read(exc: OSError, path: str) -> BadInput:
    return BadInput(f"{exc.filename or path}: cannot be read ({exc.strerror})")


def read_turns(
    path: str, table: dict[str, str], skill_names: Container[str] = frozenset()
) -> Iterator[AdaptedTurn]:
    """Every turn of the transcript's main chain, oldest first, each as soon as it ends; the last
    is `read_transcript`'s. Each turn's `session` is the one its prompt was typed in (a resumed
    session's log carries the earlier one's lines). A log with no turn is `BadInput` (a
    subagent's own, `SubagentLog`); the last turn's notes are the whole log's.
    """
    _open_check(path)
    main = _Reader(table, skill_names, side=False)
    try:
        for turn in main.turns(path):
            yield main.adapted(turn, turn.session)
    except OSError as exc:
        raise _cannot_read(exc, path) from None
    if main.turn is None:
        raise _no_turn(main, path)


def read_transcript(
    path: str,
    table: dict[str, str],
    skill_names: Container[str] = frozenset(),
    *,
    agent_path: str | None = None,
    agent_type: str | None = None,
) -> AdaptedTurn:
    """The turn record of the transcript's last turn; with `agent_path`, a subagent's turn.

    For a subagent, the prompt and corrections come from the main transcript's
    last turn (a person started it) and the tools, errors and skills from the
    subagent's own transcript; `agent` is its type.
    """
    _open_check(path)
    main = _Reader(table, skill_names, side=False)
    try:
        for _ in main.turns(path):
            pass  # each turn read on the way, as `read_turns` does; the last one is kept
        side = None
        if agent_path is not None:
            _open_check(agent_path)
            side = _Reader(table, skill_names, side=True)
            for _ in side.turns(agent_path):
                pass
    except OSError as exc:
        raise _cannot_read(exc, path) from None
    if main.turn is None:
        raise _no_turn(main, path)
    turn = main.turn
    if side is not None and side.turn is not None:
        turn = TurnBuilder(
            prompt=main.turn.prompt,
            corrections=main.turn.corrections,
            tools=side.turn.tools,
            errors=side.turn.errors,
            skills=side.turn.skills,
            dropped_tools=side.turn.dropped_tools,
        )
        kind = (agent_type or "subagent").strip().lower()
        turn.agent = kind if is_tool_name(kind) else "subagent"
        main.unknown += side.unknown
        main.orphans += side.orphans
    return main.adapted(turn, main.session)
