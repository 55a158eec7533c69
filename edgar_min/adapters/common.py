"""What every adapter shares: the turn builder, the tool map, and the closed-vocabulary facts.

The adapters (`claude_code`, `codex`) stream a log through `jsonl` and build one
`Turn` with `TurnBuilder`; nothing they read but these facts reaches it.
"""

from __future__ import annotations

import os

from edgar_min.adapters.jsonl import records
from edgar_min.charsets import ALNUM, DIGITS, LETTERS, consists_of
from edgar_min.errors import BadInput, ConfigError
from edgar_min.learning.turn import is_tool_name, strip_program
from edgar_min.records import dataclass, field
from edgar_min.regex import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Container, Iterator
    from typing import Any

    from edgar_min.adapters.jsonl import ReadStats

__all__ = [
    "COMMAND_CHARS",
    "DEFAULT_TOOL_MAP",
    "SKILL_FILE",
    "AdaptedTurn",
    "NoTurn",
    "SubagentLog",
    "TurnBuilder",
    "error_kind",
    "known_lines",
    "map_tool",
    "pipeline",
    "program_word",
    "skill_of_path",
    "tool_table",
]

# Agent tool name -> edgar's vocabulary. Claude Code names first, then Codex's, then Gemini CLI's.
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
    "run_shell_command": "shell",
    "list_background_processes": "shell",
    "read_background_output": "shell",
    "replace": "edit",
    "write_file": "edit",
    "read_many_files": "read",
    "list_directory": "search",
    "glob": "search",
    "grep_search": "search",
    "search_file_content": "search",
    "google_web_search": "fetch",
    "web_fetch": "fetch",
    "activate_skill": "skill",
    "invoke_agent": "task",
    "write_todos": "todo",
}

_CAMEL = lazy(r"(?<=[a-z0-9])(?=[A-Z])")
_DROP = lazy(r"[^a-z0-9_.-]+")
MAX_TOOLS = 500
MAX_ERRORS = 500
MAX_CORRECTIONS = 50
MAX_PENDING = 10_000
# The shell commands kept per turn since its last edit (the latest ones), and each one's length.
MAX_RUNS = 50
RUN_CHARS = 1000


def tool_table(entries: tuple[str, ...]) -> dict[str, str]:
    """The default table with the config's `"AgentName=edgar_name"` entries laid over it."""
    table = dict(DEFAULT_TOOL_MAP)
    for entry in entries:
        agent_name, sep, ours = entry.partition("=")
        agent_name, ours = agent_name.strip(), ours.strip()
        if not sep or not agent_name or not is_tool_name(ours):
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
    text = text.lstrip(_NOT_LOWER)[:64].rstrip("_.-")
    return text or "tool"


_NAME_START = frozenset(LETTERS + "_")
_NAME_CHARS = ALNUM + "_"


# The words of a command are read on every turn, so these rules are string operations: as
# patterns they would import `re` (about a third of a bare interpreter's start-up) for them.
def _is_assignment(word: str) -> bool:
    """`NAME=value` (a shell variable set for the command): `[A-Za-z_][A-Za-z0-9_]*=.*`."""
    name, equals, _ = word.partition("=")
    return bool(equals) and name[:1] in _NAME_START and consists_of(name, _NAME_CHARS)


# Words that only prepare the shell for the next command of a `&&`/`;` chain.
_SETUP = frozenset(
    {"cd", "pushd", "popd", "source", ".", "export", "set", "unset", "true", "ulimit", "umask"}
)
# Wrappers that run the command after them: the words naming each, and its options that take a value.
_WRAPPERS: dict[tuple[str, ...], frozenset[str]] = {
    ("sudo",): frozenset({"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"}),
    ("doas",): frozenset({"-u", "-C"}),
    ("env",): frozenset({"-u", "-C", "-S", "--unset", "--chdir"}),
    ("nice",): frozenset({"-n", "--adjustment"}),
    ("timeout",): frozenset({"-k", "-s", "--kill-after", "--signal"}),
    ("time",): frozenset({"-f", "-o"}),
    ("nohup",): frozenset(),
    ("command",): frozenset(),
    ("exec",): frozenset({"-a"}),
    ("stdbuf",): frozenset({"-i", "-o", "-e"}),
    ("xargs",): frozenset({"-I", "-n", "-P", "-d", "-L", "-s", "-E"}),
    ("npx",): frozenset({"-p", "--package"}),
    ("bunx",): frozenset(),
    ("uvx",): frozenset({"--from", "--with", "--python"}),
    ("uv", "run"): frozenset(
        {"--with", "--python", "-p", "--project", "--directory", "--package", "--extra"}
    ),
    ("poetry", "run"): frozenset(),
    ("pipenv", "run"): frozenset(),
    ("pdm", "run"): frozenset(),
    ("hatch", "run"): frozenset(),
    ("pixi", "run"): frozenset(),
    ("pnpm", "exec"): frozenset(),
    ("pnpm", "dlx"): frozenset(),
    ("yarn", "dlx"): frozenset(),
    ("yarn", "exec"): frozenset(),
    ("bundle", "exec"): frozenset(),
    ("conda", "run"): frozenset({"-n", "--name", "-p", "--prefix"}),
    ("pipx", "run"): frozenset({"--spec"}),
}
_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "fish", "ksh"})

_SEPARATORS = frozenset({"&&", "||", ";", "|", "&", "(", ")", "{", "}", "!"})
# How much of a failed command's output is searched for the program it names, and how much of
# a command is kept until its result says whether it failed (`_words` reads no more of it).
SAID_CHARS = 2000
COMMAND_CHARS = 512
_DIGITS = DIGITS + "."
_NOT_LOWER = "0123456789_.-"  # what a mapped name may hold besides a-z
# Characters shell quoting leaves alone (shlex's own "safe" set) and the spaces between words.
_PLAIN = frozenset(_NAME_CHARS + "@%+=:,./- \t\r\n")


def _is_python(name: str) -> bool:
    """`python`, `python3`, `python3.12`: `python[0-9.]*`."""
    return name.startswith("python") and consists_of(name[6:], _DIGITS)


def _is_duration(word: str) -> bool:
    """The duration `timeout` takes before the command (`60`, `1.5m`): `[0-9.]+[smhd]?`."""
    number = word[:-1] if word.endswith(("s", "m", "h", "d")) else word
    return bool(number) and consists_of(number, _DIGITS)


def _words(command: str) -> list[str]:
    """Shell words and operators of a command's start; plain splitting when quotes do not close."""
    head = command[:COMMAND_CHARS]
    if _PLAIN.issuperset(head):
        return head.split()  # no quote, escape or operator: the words are as shlex reads them
    import shlex  # its import compiles a pattern: only for a command that needs it

    lexer = shlex.shlex(head, posix=True, punctuation_chars=";&|()")
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        return list(lexer)
    except ValueError:
        return head.split()


def _unwrap(words: list[str], depth: int) -> tuple[str, ...]:
    """The program of one simple command, its words after assignments and wrappers (a shell's
    script: the programs of its pipeline)."""
    i = 0
    while i < len(words):
        word = words[i]
        if _is_assignment(word):
            i += 1
            continue
        name = word.rsplit("/", 1)[-1]
        pair = (name, words[i + 1]) if i + 1 < len(words) else (name,)
        if pair in _WRAPPERS or (name,) in _WRAPPERS:
            key = pair if pair in _WRAPPERS else (name,)
            takes_value = _WRAPPERS[key]
            i += len(key)
            while i < len(words) and words[i].startswith("-") and words[i] != "--":
                i += 2 if words[i] in takes_value else 1
            if i < len(words) and words[i] == "--":
                i += 1
            if key == ("timeout",) and i < len(words) and _is_duration(words[i]):
                i += 1
            continue
        if name in _SHELLS and depth < 2:
            # `bash -lc 'pytest -x'` (Codex wraps every command so): the program is the script's.
            j = i + 1
            while j < len(words) and words[j].startswith("-") and "c" not in words[j][1:]:
                j += 1
            if j < len(words) and words[j].startswith("-") and "c" in words[j][1:] and j + 1 < len(words):
                return pipeline(words[j + 1], depth + 1)
        if _is_python(name) and i + 2 < len(words) and words[i + 1] == "-m":
            return (words[i + 2],)
        return (name,)
    return ()


def pipeline(command: str, depth: int = 0) -> tuple[str, ...]:
    """The programs of the pipeline a shell command runs, in order (`head -5 a | python3 b`: head,
    python3), past `cd … &&`, `VAR=1` and wrappers like `sudo`."""
    words = _words(command)
    stages: list[str] = []
    segment: list[str] = []
    first = ""
    for word in [*words, ";"]:
        if word not in _SEPARATORS:
            segment.append(word)
            continue
        if segment:
            name = segment[0].rsplit("/", 1)[-1]
            if not first and not _is_assignment(segment[0]):
                first = name
            if name not in _SETUP and not all(_is_assignment(w) for w in segment):
                stages.extend(_unwrap(segment, depth))
            segment = []
        if stages and word != "|":
            return tuple(stages)  # the first pipeline that runs a program
    # Only set-up words (`cd build`): that word is what ran.
    return tuple(stages) or ((first,) if first else ())


def program_word(command: str, said: str = "") -> str:
    """The program a shell command ran that gave its exit status: of a pipeline, the stage its
    output names (`head: cannot open 'x'`), else its last stage, whose status the shell returns."""
    stages = pipeline(command)
    if len(stages) > 1 and said:
        for line in said[:SAID_CHARS].splitlines():
            named = line.partition(":")[0].rsplit("/", 1)[-1] if ":" in line else ""
            if named in stages:
                return named
    return stages[-1] if stages else ""


# How a harness words a person saying no (Claude Code's rejection and interruption lines, Codex's).
DENIALS = (
    "the user doesn't want to proceed",
    "the user doesn't want to take this action",
    "[request interrupted by user",
    "exec command rejected by user",
    "patch rejected by user",
)
_EXIT = lazy(r"(?i)(?:exit code|exited with code|exit status)[:\s]+(-?\d{1,10})")
# A hook that stopped a tool call: Claude Code's PreToolUse wording, and a pre-commit gate's.
_HOOK_BLOCK = lazy(r"\bhook\b.{0,80}\b(?:blocked|denied|prevented)\b|^pre-commit validation failed")
# A request the tool refuses as too large or malformed: the call's input was wrong, nothing crashed.
# (Claude Code's edit, then Codex's `apply_patch`, then Gemini CLI's edit and its workspace bound.)
_INVALID = (
    "exceeds maximum allowed",
    "string to replace not found",
    "eisdir",
    "is a directory",
    "invalid",
    "failed to find expected lines",
    "failed to find context",
    "expected 1 occurrence",
    "0 occurrences found",
    "path not in workspace",
)


def error_kind(head: str, exit_code: int | None, *, person_said_no: bool | None = None) -> str:
    """A closed-vocabulary kind for a failed tool result, from the first line of what it said.

    `person_said_no` is what the log's structure says about a rejection, where it
    says anything: then the text alone never makes a result `denied` by a person.
    """
    lowered = head[:300].lstrip().lower()
    if person_said_no or (person_said_no is None and lowered.startswith(DENIALS)):
        return "denied"
    if ("hook" in lowered or lowered.startswith("pre-commit")) and _HOOK_BLOCK.search(lowered):
        return "denied"
    if "timed out" in lowered or "timeout" in lowered:
        return "timeout"
    if (
        exit_code == 127
        or "command not found" in lowered
        or "does not exist" in lowered
        or "no such file or directory" in lowered
        or "file not found" in lowered
    ):
        return "not_found"
    if "permission denied" in lowered or "not permitted" in lowered:
        return "denied"
    if exit_code is not None and exit_code != 0:
        return "nonzero_exit"
    if "<tool_use_error>" in lowered or any(word in lowered for word in _INVALID):
        return "invalid_input"
    return "crashed"


def stated_exit_code(head: str) -> int | None:
    """The exit code a result states in its first lines ("Exit code 1"), as a number."""
    start = head[:300]
    # Every match says "exit"; case-blind matching reaches past ASCII, so other text is searched.
    m = _EXIT.search(start) if "exit" in start.lower() or not start.isascii() else None
    if m is None:
        return None
    value = int(m.group(1))
    return value if -(2**31) <= value < 2**32 else None


def known_lines(stats: ReadStats, unknown: int) -> int:
    """How many lines of a log were records of the agent's format (JSON, of a type it writes)."""
    return stats.lines - stats.garbage - stats.torn - unknown


class NoTurn(BadInput):
    """A log in the agent's own format in which no person typed a message (a session opened and
    left, one of only summaries): no turn, and nothing wrong with the file."""


class SubagentLog(NoTurn):
    """A subagent's own log: no line in it was typed by a person, so it holds no turn of theirs."""


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
    session: str | None = None  # the session the prompt was typed in, where the log says
    # The shell commands run since the turn's last edit, by call, each with the exit code its
    # result states (None until, or unless, the log says): whether the agent ran the declared
    # check on the work as it ends. Never part of the turn record.
    runs: dict[str, list[Any]] = field(default_factory=dict)

    def ran(self, key: str, command: str) -> None:
        """A shell call of `command` (its exit code comes with its result, `exited`)."""
        if len(self.runs) >= MAX_RUNS:
            del self.runs[next(iter(self.runs))]
        self.runs[key] = [command[:RUN_CHARS], None]

    def exited(self, key: str, code: int | None) -> None:
        """The exit code the log states for the shell call `key` (kept while it is after the last edit)."""
        if key in self.runs and code is not None:
            self.runs[key][1] = code

    def edited(self) -> None:
        """A file was edited: what ran before says nothing of the work as it now stands."""
        self.runs.clear()

    def add_tool(self, name: str) -> None:
        if len(self.tools) < MAX_TOOLS:
            self.tools.append(name)
        else:
            self.dropped_tools += 1

    def add_error(self, tool: str, kind: str, exit_code: int | None, program: str) -> None:
        if len(self.errors) < MAX_ERRORS:
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


class TurnReader:
    """One pass over an agent's log, turn by turn: a subclass reads each line (`take`) and sets
    `ended` to the turn a new prompt has just ended; `turn` is the one still open."""

    stats: ReadStats
    turn: TurnBuilder | None
    ended: TurnBuilder | None
    unknown: int  # lines of a kind the reader does not know
    orphans: int  # tool results with no call before them

    def take(self, line: Any) -> None:
        raise NotImplementedError

    def adapted(self, turn: TurnBuilder, session: str | None) -> AdaptedTurn:
        """`turn` as the adapters hand it over, with what was skipped of the log so far."""
        return AdaptedTurn(
            record=turn.record(),
            session=session,
            stats=self.stats,
            unknown_types=self.unknown,
            orphan_results=self.orphans,
            dropped_tools=turn.dropped_tools,
            runs=tuple((command, code) for command, code in turn.runs.values()),
        )

    def turns(self, path: str) -> Iterator[TurnBuilder]:
        """Each turn of the log as it ends (when the next begins, or the log does), oldest first."""
        for line in records(path, self.stats):
            self.take(line)
            if self.ended is not None:
                yield self.ended
                self.ended = None
        if self.turn is not None:
            yield self.turn


@dataclass(frozen=True, slots=True)
class AdaptedTurn:
    """The computed turn record of a log's last turn, its session id, and what the reader skipped."""

    record: dict[str, Any]
    session: str | None
    stats: ReadStats
    unknown_types: int = 0
    orphan_results: int = 0
    dropped_tools: int = 0
    # The shell commands of the turn since its last edit and their exit codes (None: not stated),
    # oldest first: what `learning/check.verdict_of_runs` reads. Never stored, never shown.
    runs: tuple[tuple[str, int | None], ...] = ()

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


SKILL_FILE = "SKILL.md"


def skill_of_path(word: str, base: str | None, names: Container[str]) -> str | None:
    """The discovered skill (of `names`) whose `SKILL.md` the path `word` is, or None.

    Every scope discovery reads keeps a skill at `skills/NAME/SKILL.md` (learned ones at
    `skills/learned/NAME/SKILL.md`), so a discovered skill's own path always has this shape,
    and the log's path need not resolve on this machine: a copy of the skill in
    `~/.codex/skills` (or its `.system` folder) or `~/.agents/skills` is the same skill.
    A relative `word` is taken from `base`.
    """
    path = word
    if base and not os.path.isabs(path):
        path = os.path.join(base, path)
    parts = os.path.normpath(path).split("/")
    if len(parts) < 2 or parts[-1] != SKILL_FILE:
        return None
    name = parts[-2]
    home = parts[-3] if len(parts) >= 3 else ""
    # edgar's learned skills, and Codex's own system skills (`~/.codex/skills/.system/NAME`).
    if home in ("learned", ".system") and len(parts) >= 4 and parts[-4] == "skills":
        home = "skills"
    return name if home == "skills" and name in names else None
