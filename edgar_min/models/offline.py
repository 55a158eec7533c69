"""The offline provider: a deterministic writer, so everything works with no model at all.

It reads the outline it is given (the only input synthesis ever has) and
turns it into a name, a description and the four sections. It never invents:
every line it writes restates a field of the outline. Given a distill prompt
(a quoted body and history lines), it answers with the same body and the
history lines folded into Pitfalls, keeping the current description.
"""

from __future__ import annotations

from edgar_min.errors import ModelError
from edgar_min.learning.walls import FILLER, NAME_WORDS, generalize
from edgar_min.regex import lazy
from edgar_min.skills.sections import BODY_SECTIONS, fenced, headings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from edgar_min.config import ModelConfig

__all__ = ["OfflineProvider", "patch_from_outline", "write_from_outline"]

_STOP = frozenset(
    [
        "a",
        "an",
        "and",
        "the",
        "to",
        "of",
        "in",
        "on",
        "for",
        "with",
        "by",
        "from",
        "at",
        "is",
        "are",
        "be",
        "it",
        "this",
        "that",
        "these",
        "those",
        "please",
        "me",
        "my",
        "our",
        "your",
        "we",
        "i",
        "you",
        "can",
        "could",
        "would",
        "should",
        "do",
        "does",
        "did",
        "make",
        "sure",
        "so",
        "then",
        "also",
    ]
)


def _fields(outline: str) -> dict[str, str]:
    found = {}
    for line in outline.splitlines():
        key, sep, value = line.partition(": ")
        if sep and key not in found:
            found[key.strip()] = value.strip()
    return found


# Lazy like every pattern here: doctor describes this provider without writing a skill.
_WORD = lazy(r"[a-z0-9]+")
_DASHES = lazy(r"-+")


def _name(asked: str, shape: str) -> str:
    """Two to four words of the request (the name rule's `NAME_WORDS`), else of the tools, then `routine`."""
    fewest, most = NAME_WORDS
    words = [
        w for w in _WORD.findall(asked.lower()) if w not in _STOP and w not in FILLER and w != "redacted"
    ]
    if not words:
        tools = shape.partition(":")[2].replace(">", "-").replace("_", "-").replace(".", "-")
        words = [w for w in _DASHES.sub("-", tools).split("-") if w][: most - 1]
    words = [w[:15] for w in words[:most]]  # four of 15 letters and three hyphens fit in NAME_MAX
    while len(words) < fewest:
        words.append("routine")
    return "-".join(words)


# A procedure a person reads before every similar task: a long run's tool calls are summarised.
MAX_TOOL_STEPS = 5
MAX_PITFALLS = 5


def _tool_steps(tools: list[str]) -> list[str]:
    """Steps for the tools called: runs of one tool collapsed, and at most `MAX_TOOL_STEPS` of them."""
    runs: list[list] = []
    for tool in tools:
        if runs and runs[-1][0] == tool:
            runs[-1][1] += 1
        else:
            runs.append([tool, 1])
    if len(runs) <= MAX_TOOL_STEPS:
        return [f"Use {tool}." if n == 1 else f"Use {tool} ({n} calls in a row)." for tool, n in runs]
    distinct = list(dict.fromkeys(tools))
    first, rest = distinct[0], distinct[1:]
    steps = [f"Start with {first}."]
    if rest:
        steps.append(
            f"Then use {', '.join(rest)}, going back and forth as the task needs "
            f"(the recorded run made {len(tools)} tool calls)."
        )
    return steps


def _basis(tripped: list[str], check: str) -> str:
    """What the skill was learned from, in words that fit the triggers that fired and the check."""
    if check == "passed":
        if "recovered" in tripped:
            return "from a turn that recovered from failures and passed its declared check"
        return "from a turn that passed its declared check"
    how = "its declared check failed" if check == "failed" else "its result was not checked"
    if "correction" in tripped:
        return f"from a turn a person corrected ({how})"
    return f"from a turn where {how}"


def write_from_outline(outline: str) -> str:
    """A reply in the BRIEF's format, built only from the outline's lines."""
    f = _fields(outline)
    if "what was asked" not in f or "task shape" not in f:
        msg = "offline provider: the prompt is not an outline, and this provider only writes skills from one"
        raise ModelError(msg)
    # Quoted only with its specifics (files, paths, values) said in words: the writer's walls refuse them.
    asked = generalize(f["what was asked"])
    shape = f["task shape"]
    tripped = [t for t in f.get("what tripped", "none").split(", ") if t and t != "none"]
    tools = [t for t in f.get("tools called, in order", "none").split(", ") if t and t != "none"]
    failures = [x for x in f.get("failures the harness recorded", "none").split(", ") if x and x != "none"]
    corrections = generalize(f.get("corrections a human typed", ""))
    # `passed (pytest)`: the verdict, then the program the declared check runs, when one is set.
    check, _, program = f.get("declared check", "unverified").partition(" (")
    program = program.rstrip(")")

    steps = _tool_steps(tools)
    if corrections:
        steps.append(f"Follow what a person asked for when correcting this kind of task: {corrections}")
    steps.append("Run the project's declared check before calling the work done.")
    procedure = "\n".join(f"{i}. {s}" for i, s in enumerate(steps, 1))
    if failures:
        counts = dict.fromkeys(failures, 0)
        for x in failures:
            counts[x] += 1
        shown = list(counts.items())[:MAX_PITFALLS]
        lines = [
            f"- {x}{f' ({n} times)' if n > 1 else ''}: this failed along the way; "
            "find the cause and fix it before going on."
            for x, n in shown
        ]
        if len(counts) > len(shown):
            lines.append(f"- {len(counts) - len(shown)} other kind(s) of failure were recorded too.")
        pitfalls = "\n".join(lines)
    else:
        pitfalls = "- No failure was recorded; if one appears, fix its cause before going on."
    if corrections:
        pitfalls += "\n- A person had to correct this kind of task; check the work against what they asked."
    verdict = {
        "passed": "it passed when this skill was recorded",
        "failed": "it failed in the turn this was learned from",
    }.get(check, "the turn this was learned from was not checked")
    description = f"How to handle tasks like '{asked[:200]}' (task shape {shape}), {_basis(tripped, check)}."
    return (
        f"name: {_name(asked, shape)}\n"
        f"description: {description}\n\n"
        f"## When to use\n\nWhen a task is like: {asked}\nIts task shape is {shape}.\n\n"
        f"## Procedure\n\n{procedure}\n\n"
        f"## Pitfalls\n\n{pitfalls}\n\n"
        f"## Verification\n\nRun the project's declared check{f' ({program})' if program else ''} "
        f"and see it pass ({verdict}).\n"
    )


# The labels of the distill prompt (`learning.distill.outline`).
_BODY_LABEL = "current body:"
_HISTORY_LABEL = "observations, oldest first:"
_HEADING = lazy(r" {0,3}(#{1,6})[ \t]")


def _demote(lines: list[str]) -> list[str]:
    """Headings one level down, outside fences, so a person's prose nests under Procedure."""
    out = []
    for line, code in zip(lines, fenced(lines), strict=True):
        heading = None if code else _HEADING.match(line)
        if heading and len(heading.group(1)) < 6:
            out.append("#" + line.lstrip(" "))
            continue
        out.append(line)
    return out


def patch_from_outline(prompt: str) -> str:
    """A patch reply: the quoted body with the history lines folded into Pitfalls."""
    body: list[str] = []
    notes: list[str] = []
    part = "body"
    for line in prompt.splitlines()[1:]:
        if part == "body" and line == _HISTORY_LABEL:
            part = "notes"
        elif part == "body" and line.startswith("|"):
            body.append(line[2:] if line.startswith("| ") else line[1:])
        elif part == "notes" and line.startswith("- ") and line[2:].strip():
            notes.append(line[2:].strip())
    if not notes:
        msg = "offline provider: the distill prompt holds no history lines"
        raise ModelError(msg)
    counts: dict[str, int] = {}
    for note in map(generalize, notes):
        counts[note] = counts.get(note, 0) + 1
    text = "\n".join(body)
    pitfalls = [
        f"- Seen when this skill was used{f' ({n} times)' if n > 1 else ''}: {note}"
        for note, n in counts.items()
        if note not in text
    ]
    # Each heading with its line (`headings` gives the line after it).
    heads = [(title.rstrip(":").strip().casefold(), after - 1) for title, after in headings("\n".join(body))]
    names = [h for h, _ in heads]
    wanted = [title.casefold() for title in BODY_SECTIONS]
    if all(names.count(w) == 1 for w in wanted) and [n for n in names if n in wanted] == wanted:
        at = next(i for h, i in heads if h == "pitfalls")
        end = next((i for _, i in heads if i > at), len(body))
        while end > at + 1 and not body[end - 1].strip():
            end -= 1
        lines = [*body[:end], *pitfalls, *body[end:]]
        return "\n".join(lines).strip("\n") + "\n"
    # A person's prose of their own shape: keep it whole under Procedure.
    inner = "\n".join(_demote(body)).strip("\n") or "Follow the skill as written."
    pitfalls = pitfalls or [f"- Seen when this skill was used: {note}" for note in counts]
    return (
        "## When to use\n\nWhenever this skill applies, as its own text below describes.\n\n"
        f"## Procedure\n\n{inner}\n\n"
        "## Pitfalls\n\n" + "\n".join(pitfalls) + "\n\n"
        "## Verification\n\nRun the project's declared check and see it pass.\n"
    )


class OfflineProvider:
    """Writes a skill body from an outline, deterministically, with no model."""

    name = "offline"

    def __init__(
        self,
        config: ModelConfig | None = None,
        environ: Mapping[str, str] | None = None,  # noqa: ARG002 - the registry passes it to every provider
    ) -> None:
        self.config = config

    def complete(self, system: str, prompt: str) -> str:  # noqa: ARG002 - it reads the prompt only
        if prompt.startswith(_BODY_LABEL + "\n"):
            return patch_from_outline(prompt)
        return write_from_outline(prompt)
