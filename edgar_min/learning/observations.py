"""Watching skills: a loaded skill followed by a bad turn gets one line in its history.

The note is built from the same closed vocabulary as the outline: the check's
verdict, the computed error fields, and the lines a person typed (redacted).
Nothing else reaches it, because nothing else is passed in. Histories live in
one machine-owned folder, `.edgar/skills/learned/.history/NAME.md`, whatever
the skill's origin, so edgar never writes beside a person's files.
"""

from __future__ import annotations

import os

from edgar_min.atomic import append_line
from edgar_min.errors import NotFound
from edgar_min.learning.outline import one_line
from edgar_min.records import dataclass
from edgar_min.redact import redact
from edgar_min.skills.names import name_problem

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from edgar_min.layout import Layout
    from edgar_min.learning.turn import ErrorRecord, Verdict

__all__ = ["NOTE_MAX", "History", "Note", "history_path", "note", "observe", "read_history"]

# One history line stays a line: a person's correction is cut here, not stored whole.
NOTE_MAX = 1000
# The share of a cut line the corrections keep, so the failures before them can never push them out.
CORRECTED_MAX = NOTE_MAX // 2
CHECK_FAILED = "the declared check failed"
FAILURES = "failures: "
CORRECTED = "corrected: "
# Bytes of a history file read at most; older lines beyond this are not shown to a model.
READ_MAX = 1_000_000


@dataclass(frozen=True, slots=True)
class Note:
    """One history line, read back: its text, and whether a person corrected that turn."""

    text: str
    corrected: bool

    @classmethod
    def parse(cls, text: str) -> Note:
        """The note `note()` wrote: the corrections are its last part, after the check and the failures."""
        corrected = text.startswith(CORRECTED) or f"; {CORRECTED}" in text
        return cls(text, corrected)


@dataclass(frozen=True, slots=True)
class History:
    """The notes of one skill's history, oldest first, and how many lines were not notes."""

    name: str
    path: str
    notes: tuple[Note, ...]
    garbage: int = 0

    @property
    def lines(self) -> tuple[str, ...]:
        return tuple(n.text for n in self.notes)


def history_path(layout: Layout, name: str) -> str:
    """`.edgar/skills/learned/.history/NAME.md`, from a checked name (or `NotFound`)."""
    problem = name_problem(name)
    if problem:
        msg = f"no skill named {name[:80]!r}: {problem}"
        raise NotFound(msg)
    return os.path.join(layout.history, f"{name}.md")


def note(errors: Iterable[ErrorRecord], corrections: Iterable[str], verification: Verdict) -> str:
    """The text of one observation, or '' for a turn that went well.

    A line longer than `NOTE_MAX` is cut in its failures, never in its check or
    its correction marker: a corrected turn reads back as corrected (`Note`).
    """
    head = CHECK_FAILED if verification == "failed" else ""
    failures = [e.render() for e in errors]
    middle = FAILURES + ", ".join(failures) if failures else ""
    typed = [one_line(redact(c)) for c in corrections]
    typed = [c for c in typed if c]
    tail = CORRECTED + " / ".join(typed) if typed else ""
    if len(_join(head, middle, tail)) > NOTE_MAX and tail:
        tail = _cut(tail, max(CORRECTED_MAX, NOTE_MAX - _room(head, middle)))
    if len(_join(head, middle, tail)) > NOTE_MAX and middle:
        middle = _cut(middle, NOTE_MAX - _room(head, tail))
    return _join(head, middle, tail)


def _join(*parts: str) -> str:
    return "; ".join(p for p in parts if p)


def _room(*others: str) -> int:
    """What the other parts of a line take, with the separator before one more part."""
    taken = _join(*others)
    return len(taken) + len("; ") if taken else 0


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def observe(
    layout: Layout,
    name: str,
    errors: Iterable[ErrorRecord],
    corrections: Iterable[str],
    verification: Verdict,
) -> int:
    """Append `- <note>` to NAME's history when the turn ended badly; return the note count.

    A good turn writes nothing and returns 0.
    """
    path = history_path(layout, name)
    text = note(errors, corrections, verification)
    if not text:
        return 0
    if _torn(path):
        # End a line cut short by a crash, so the new note starts a line of its own.
        append_line(path, "", root=layout.root)
    append_line(path, f"- {text}", root=layout.root)
    return len(read_history(layout, name).notes)


def _torn(path: str) -> bool:
    """True when the file exists and does not end with a newline."""
    try:
        with open(path, "rb") as handle:
            handle.seek(0, 2)
            if handle.tell() == 0:
                return False
            handle.seek(-1, 2)
            return handle.read(1) != b"\n"
    except (FileNotFoundError, NotADirectoryError):
        return False


def _is_note(line: str) -> bool:
    return line.startswith("- ") and bool(line[2:].strip()) and line.isprintable()


def read_history(layout: Layout, name: str) -> History:
    """NAME's note lines, oldest first; blank, torn, binary or foreign lines are counted and skipped."""
    path = history_path(layout, name)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(READ_MAX + 1)
    except (FileNotFoundError, NotADirectoryError):
        return History(name, path, ())
    if len(raw) > READ_MAX:
        # Keep the newest lines: drop the oldest, possibly cut, one.
        raw = raw[-READ_MAX:].split(b"\n", 1)[-1]
    notes: list[Note] = []
    garbage = 0
    chunks = raw.split(b"\n")
    # A last chunk with no newline is a torn append (a crash mid-write), unless empty.
    complete, tail = chunks[:-1], chunks[-1]
    for chunk in complete:
        try:
            line = chunk.decode("utf-8").rstrip("\r")
        except UnicodeDecodeError:
            garbage += 1
            continue
        if _is_note(line):
            notes.append(Note.parse(line[2:].strip()))
        elif line.strip():
            garbage += 1
    if tail:
        garbage += 1
    return History(name, path, tuple(notes), garbage)
