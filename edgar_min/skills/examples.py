"""What routing learns from use: the prompts that led to a skill, and those that needed none.

    STATE/routing-examples.jsonl   one line per example: {"time", "skill", "text", "source"}

STATE is the person's state folder for the project (`Layout.state`, outside the tree):
examples a repository commits have no effect on routing.

An example is a message and the skill it called for. Two places make them:

- the agent itself: a Claude Code turn whose agent loaded a skill with the
  Skill tool (read by the Stop hook and by `learn --from claude-code`) gives
  that turn's prompt as an example of that skill (`source` "agent");
- a person: `edgar skills teach NAME TEXT` ("person"), where NAME may be
  `none` for a message that needs no skill; `--forget` appends a line with
  `"forget": true` that takes the same text back.

Edgar's own suggestions never become examples: a wrong suggestion would teach
itself. Routing reads the examples' words as one more light field of their
skill's card (`routing.ASKED_WEIGHT`), and those of `none` as a card of their
own that says `none` when it beats every skill (`routing.RoutingIndex`).

The file is only ever appended to (single `O_APPEND` writes), so copies from
several machines merge by concatenation, and the same example twice counts
once. Only the latest `PER_SKILL` examples of each skill are read: an agent
that loads one skill on every turn does not drown that skill's description.
A text is a person's message, redacted as every stored prompt is and cut to
`TEXT_CHARS`.
"""

from __future__ import annotations

from edgar_min.errors import BadInput
from edgar_min.logfile import append_row, kind_of, read_rows, timestamp
from edgar_min.redact import redact
from edgar_min.skills.names import name_problem
from edgar_min.skills.routing import words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from edgar_min.layout import Layout

__all__ = [
    "NONE",
    "NONE_KEPT",
    "PER_SKILL",
    "SOURCES",
    "TEXT_CHARS",
    "add_example",
    "clean_text",
    "forget_example",
    "learn_from_loads",
    "read_examples",
    "taken_back",
    "taught_key",
    "taught_keys",
]

NONE = "none"  # the decision's `none`: a message that needs no skill
SOURCES = ("agent", "person")
# Everyday prompts are a line or two; a pasted log is not what the message asked for.
TEXT_CHARS = 300
PER_SKILL = 40
NONE_KEPT = 200


def clean_text(text: str) -> str:
    """`text` as an example keeps it: redacted, on one line, at most `TEXT_CHARS`."""
    cut = " ".join(redact(text).split())[:TEXT_CHARS].rstrip()
    # A lone surrogate (from a JSON escape) cannot be written as UTF-8.
    return cut.encode("utf-8", "replace").decode("utf-8")


def _check(skill: str, text: str) -> str:
    if skill != NONE:
        problem = name_problem(skill)
        if problem is not None:
            raise BadInput(problem)
    cleaned = clean_text(text)
    if not cleaned:
        msg = "an example needs the text of a message; this one is empty"
        raise BadInput(msg)
    return cleaned


def add_example(layout: Layout, skill: str, text: str, source: str) -> str:
    """Append one example (`skill` may be `none`); the text as kept. `BadInput` for an unusable one."""
    if source not in SOURCES:
        msg = f"an example's source is one of {', '.join(SOURCES)}, not {source!r}"
        raise BadInput(msg)
    cleaned = _check(skill, text)
    row = {"time": timestamp(), "skill": skill, "text": cleaned, "source": source}
    append_row(layout.routing_examples, row, root=layout.state)
    return cleaned


def forget_example(layout: Layout, text: str, skill: str | None = None) -> int:
    """Take back the examples of `text` (of `skill` only, if given); how many were in force."""
    cleaned = clean_text(text)
    if skill is not None:
        _check(skill, text)
    held = read_examples(layout, latest=False)
    gone = [name for name, texts in held.items() if cleaned in texts and skill in (None, name)]
    for name in gone:
        row = {"time": timestamp(), "skill": name, "text": cleaned, "source": "person", "forget": True}
        append_row(layout.routing_examples, row, root=layout.state)
    return len(gone)


def _state(layout: Layout) -> dict[str, dict[str, bool]]:
    """Each skill's (and `none`'s) texts, oldest first, each in force or taken back.

    A line that is not a whole example (torn, foreign, a bad name) is passed over; a file that is
    not a plain file (a folder, a fifo) is `BadInput`, never read.
    """
    read = read_rows(layout.routing_examples)
    if read.not_a_file:
        path = layout.routing_examples
        msg = f"{path} is {kind_of(path)}, not a file of examples; it was not read"
        raise BadInput(msg)
    held: dict[str, dict[str, bool]] = {}
    for row in read.rows:
        skill, text = row.get("skill"), row.get("text")
        if not isinstance(skill, str) or not isinstance(text, str) or not text:
            continue
        if skill != NONE and name_problem(skill) is not None:
            continue
        text = text[:TEXT_CHARS]  # a line written by hand, or by another tool, is held to the same length
        texts = held.setdefault(skill, {})
        texts.pop(text, None)  # the latest line of a text says where it stands
        texts[text] = row.get("forget") is not True
    return held


def read_examples(layout: Layout, *, latest: bool = True) -> dict[str, list[str]]:
    """Each skill's (and `none`'s) example texts in force, oldest first (`latest`: the last
    `PER_SKILL` of a skill, `NONE_KEPT` of `none`). `BadInput` for a file that is not a file.
    """
    out = {}
    for skill, texts in _state(layout).items():
        kept = [text for text, in_force in texts.items() if in_force]
        if latest:
            kept = kept[-(NONE_KEPT if skill == NONE else PER_SKILL) :]
        if kept:
            out[skill] = kept
    return out


def taken_back(layout: Layout) -> set[tuple[str, str]]:
    """The (skill, text) examples a person took back and that are not in force again since."""
    return {
        (skill, text)
        for skill, texts in _state(layout).items()
        for text, in_force in texts.items()
        if not in_force
    }


def taught_key(text: str) -> str:
    """What a message is matched to a taught one by: its content words, each once, in order of
    the alphabet (their order, case and word forms aside); empty for a message without any."""
    return " ".join(sorted(set(words(clean_text(text)))))


def taught_keys(held: dict[str, list[str]]) -> dict[str, str]:
    """Each example's `taught_key` and the one skill (or `none`) its words were taught for; ""
    when they were taught for more than one."""
    out: dict[str, str] = {}
    for skill, texts in held.items():
        for key in filter(None, map(taught_key, texts)):
            out[key] = skill if out.get(key, skill) == skill else ""
    return out


def learn_from_loads(layout: Layout, prompt: str, loaded: Iterable[str]) -> list[str]:
    """Record `prompt` as an example of each skill the agent loaded itself; the skills recorded."""
    if not clean_text(prompt):
        return []
    recorded = []
    for skill in dict.fromkeys(loaded):
        if skill != NONE and name_problem(skill) is None:
            add_example(layout, skill, prompt, "agent")
            recorded.append(skill)
    return recorded
