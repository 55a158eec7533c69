"""The turn record: the only seven things synthesis may know about a turn.

There is no field for tool output, error messages, fetched pages or tool
arguments, so nothing downstream can leak them: the type is the filter. A
record with any other key is refused whole, not trimmed.
"""

from __future__ import annotations

from edgar_min import jsoncodec
from edgar_min.charsets import ALNUM, DIGITS, LOWER, consists_of
from edgar_min.errors import BadInput
from edgar_min.records import dataclass
from edgar_min.redact import redact
from edgar_min.skills.names import is_skill_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Literal

    # The closed vocabularies, spelled again as tuples below for checking at run time (a test
    # holds the two equal).
    Verdict = Literal["passed", "failed", "unverified"]
    ErrorKind = Literal["nonzero_exit", "not_found", "timeout", "denied", "invalid_input", "crashed"]

__all__ = [
    "ERROR_KINDS",
    "TURN_KEYS",
    "VERDICTS",
    "ErrorRecord",
    "Turn",
    "parse_turn",
    "strip_program",
    "turn_from_json",
]

TURN_KEYS = ("prompt", "corrections", "tools", "errors", "verification", "agent", "skills")
ERROR_KEYS = ("tool", "kind", "exit_code", "program")
VERDICTS = ("passed", "failed", "unverified")
ERROR_KINDS = ("nonzero_exit", "not_found", "timeout", "denied", "invalid_input", "crashed")

_TOOL_CHARS = LOWER + DIGITS + "_.-"
_PROGRAM_CHARS = frozenset(ALNUM + "_.-")
PROGRAM_MAX = 64


# Two rules checked on every turn, as string operations: compiling them as patterns would
# import `re`, about a third of a bare interpreter's start-up, for a turn that needs nothing else of it.
def is_tool_name(value: str) -> bool:
    """A tool or agent name: lower-case letters, digits, '_', '.', '-'; at most 64, starting with a letter."""
    return 0 < len(value) <= 64 and value[0] in LOWER and consists_of(value, _TOOL_CHARS)


# Human lines are capped: they are shown to a model and must stay a line, not a file.
TEXT_MAX = 2000
MAX_LIST = 500


def strip_program(program: str) -> str:
    """Keep only letters, digits, '.', '-' and '_' (at most 64): the program name is model-chosen."""
    return "".join(c for c in program if c in _PROGRAM_CHARS)[:PROGRAM_MAX]


@dataclass(frozen=True, slots=True)
class ErrorRecord:
    """A failure the harness computed itself: which tool, what kind, the exit code, the program."""

    tool: str
    kind: ErrorKind
    exit_code: int | None = None
    program: str = ""

    def render(self) -> str:
        """`shell nonzero_exit exit 1 (pytest)`; the program is stripped again here."""
        text = f"{self.tool} {self.kind}"
        if self.exit_code is not None:
            text += f" exit {self.exit_code}"
        program = strip_program(self.program)
        if program:
            text += f" ({program})"
        return text


@dataclass(frozen=True, slots=True)
class Turn:
    """The only seven things synthesis may know about a turn."""

    prompt: str
    corrections: tuple[str, ...] = ()
    tools: tuple[str, ...] = ()
    errors: tuple[ErrorRecord, ...] = ()
    verification: Verdict = "unverified"
    agent: str = "main"
    skills: tuple[str, ...] = ()

    @property
    def verified(self) -> bool:
        """The verdict: the project's declared check ran and passed (not the model's opinion)."""
        return self.verification == "passed"

    @property
    def shape(self) -> str:
        """`agent:` + the distinct tool names in first-seen order joined by `>`."""
        return f"{self.agent}:" + ">".join(dict.fromkeys(self.tools))


def _refuse(sentence: str) -> BadInput:
    return BadInput(f"turn record refused: {sentence}; nothing was stored")


def _str_list(value: Any, key: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _refuse(f"'{key}' must be a list of strings")
    if len(value) > MAX_LIST:
        raise _refuse(f"'{key}' holds more than {MAX_LIST} entries")
    return value


def _human_text(value: str, key: str) -> str:
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            # JSON's "\ud800" escape decodes to half a character that no file or model can take.
            raise _refuse(
                f"'{key}' holds a lone surrogate ({value[exc.start]!r}), which is not text"
            ) from None
    return redact(value)[:TEXT_MAX]


def _tool_name(value: Any, where: str, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or not is_tool_name(value):
        raise _refuse(
            f"{where} {value!r} is not a tool name (lower-case letters, digits, '_', '.', '-'; "
            "at most 64, starting with a letter)"
        )
    if allowed and value not in allowed:
        raise _refuse(f"{where} {value!r} is not one of the configured tools ({', '.join(allowed)})")
    return value


def _error_record(value: Any, index: int, allowed: tuple[str, ...]) -> ErrorRecord:
    where = f"errors[{index}]"
    if not isinstance(value, dict):
        raise _refuse(f"{where} must be an object with tool, kind, exit_code, program")
    for key in value:
        if key not in ERROR_KEYS:
            raise _refuse(
                f"{where} has the key {key!r}; an error record holds only tool, kind, "
                "exit_code and program (no messages or output)"
            )
    if "tool" not in value or "kind" not in value:
        raise _refuse(f"{where} needs both 'tool' and 'kind'")
    tool = _tool_name(value["tool"], f"{where}.tool", allowed)
    kind = value["kind"]
    if kind not in ERROR_KINDS:
        raise _refuse(f"{where}.kind {kind!r} is not one of {', '.join(ERROR_KINDS)}")
    exit_code = value.get("exit_code")
    if exit_code is not None and (
        not isinstance(exit_code, int) or isinstance(exit_code, bool) or not -(2**31) <= exit_code < 2**32
    ):
        raise _refuse(f"{where}.exit_code must be a whole number or null")
    program = value.get("program", "")
    if program is None:
        program = ""
    if not isinstance(program, str):
        raise _refuse(f"{where}.program must be a string")
    return ErrorRecord(tool=tool, kind=kind, exit_code=exit_code, program=strip_program(program))


def parse_turn(data: Any, allowed_tools: tuple[str, ...] = ()) -> Turn:
    """Check a decoded JSON turn record and build a `Turn`, or raise `BadInput`."""
    if not isinstance(data, dict):
        raise _refuse("it must be a JSON object")
    for key in data:
        if key not in TURN_KEYS:
            raise _refuse(
                f"unknown key {key!r}; a turn holds only {', '.join(TURN_KEYS)} "
                "(tool output, messages and arguments have no place in it)"
            )
    if "prompt" not in data:
        raise _refuse("'prompt' is required")
    prompt = data["prompt"]
    if not isinstance(prompt, str) or not prompt.strip():
        raise _refuse("'prompt' must be a non-empty string")
    # Redacted here, and checked again: a prompt of terminal escapes alone holds no text.
    prompt = _human_text(prompt, "prompt")
    if not prompt.strip():
        raise _refuse("'prompt' holds only control characters, which edgar never keeps")
    corrections = _str_list(data.get("corrections", []), "corrections")
    tools = _str_list(data.get("tools", []), "tools")
    errors = data.get("errors", [])
    if not isinstance(errors, list):
        raise _refuse("'errors' must be a list of error records")
    if len(errors) > MAX_LIST:
        raise _refuse(f"'errors' holds more than {MAX_LIST} entries")
    verification = data.get("verification", "unverified")
    if verification not in VERDICTS:
        raise _refuse(f"'verification' must be one of {', '.join(VERDICTS)}, not {verification!r}")
    agent = data.get("agent", "main")
    if not isinstance(agent, str) or not is_tool_name(agent):
        raise _refuse(f"'agent' {agent!r} is not an agent name (like a tool name: 'main', 'review')")
    skills = _str_list(data.get("skills", []), "skills")
    for name in skills:
        if not is_skill_name(name):
            raise _refuse(f"'skills' holds {name!r}, which is not a skill name")
    typed = (_human_text(c, "corrections") for c in corrections if c.strip())
    return Turn(
        prompt=prompt,
        corrections=tuple(c for c in typed if c.strip()),
        tools=tuple(_tool_name(t, "tool", allowed_tools) for t in tools),
        errors=tuple(_error_record(e, i, allowed_tools) for i, e in enumerate(errors)),
        verification=verification,
        agent=agent,
        skills=tuple(dict.fromkeys(skills)),
    )


def turn_from_json(text: str, source: str = "turn", allowed_tools: tuple[str, ...] = ()) -> Turn:
    """Parse a turn record from JSON text."""
    try:
        data = jsoncodec.loads(text)
    except ValueError as exc:
        msg = f"{source}: not valid JSON ({exc}); nothing was stored"
        raise BadInput(msg) from None
    except RecursionError:
        msg = f"{source}: the JSON is nested too deeply to be a turn record; nothing was stored"
        raise BadInput(msg) from None
    return parse_turn(data, allowed_tools)
