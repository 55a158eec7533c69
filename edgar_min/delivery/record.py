"""What was suggested to each agent session, so the turn that followed lists those skills.

    STATE/suggestions/<session>.jsonl    one line per prompt: {"time", "skills", "named"?}

STATE is the person's state folder for the project (`Layout.state`, outside the tree), so a
record a repository commits names nothing to the Stop hook.

`skills` are those handed over with their bodies; `named` (when there are any) those only
named, for the agent to read if they fit.

One file per session, only ever appended to (single `O_APPEND` writes), so
copies from several machines merge by copying files, like the experience
store. Every prompt writes a line, an empty list included: the last line is
always the current turn's, never an earlier prompt's.
"""

from __future__ import annotations

import os

from edgar_min import jsoncodec
from edgar_min.learning.sessions import check_session
from edgar_min.logfile import append_row, timestamp
from edgar_min.skills.names import name_problem

TYPE_CHECKING = False
if TYPE_CHECKING:
    from edgar_min.layout import Layout

__all__ = ["last_suggested", "last_suggestion", "merge_skills", "record_suggested", "session_file"]

# The last line is read from the file's tail: a line names at most a few skills.
TAIL_BYTES = 16_384


def session_file(layout: Layout, session: str) -> str:
    """Where what was suggested to `session` is recorded; `BadInput` for a session id that is not one."""
    return os.path.join(layout.suggestions, f"{check_session(session)}.jsonl")


def record_suggested(
    layout: Layout, session: str, names: tuple[str, ...] | list[str], named: tuple[str, ...] | list[str] = ()
) -> None:
    """Append the skills handed over (and those only named) for this session's latest prompt."""
    row: dict[str, object] = {"time": timestamp(), "skills": list(names)}
    if named:
        row["named"] = list(named)
    append_row(session_file(layout, session), row, root=layout.state)


def last_suggested(layout: Layout, session: str) -> tuple[str, ...]:
    """The skills handed over for the session's latest prompt; () when none, or no record is readable."""
    return last_suggestion(layout, session)[0]


def _names(value: object) -> tuple[str, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(dict.fromkeys(s for s in value if isinstance(s, str) and name_problem(s) is None))


def last_suggestion(layout: Layout, session: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The skills handed over and those only named for the session's latest prompt."""
    try:
        with open(session_file(layout, session), "rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            handle.seek(max(0, size - TAIL_BYTES))
            tail = handle.read(TAIL_BYTES)
    except OSError:
        return (), ()
    for line in reversed(tail.split(b"\n")):
        if not line:
            continue  # what follows the last newline: nothing to read, and no error to raise for it
        try:
            row = jsoncodec.loads(line)
        except ValueError:
            continue  # a torn or cut line: the one before it is whole
        if not isinstance(row, dict) or not isinstance(row.get("skills"), list):
            continue
        return _names(row["skills"]), _names(row.get("named"))
    return (), ()


def merge_skills(loaded: list[str] | tuple[str, ...], suggested: tuple[str, ...]) -> list[str]:
    """The skills a turn had: those its agent loaded, then those edgar handed it, each once."""
    return list(dict.fromkeys([*loaded, *suggested]))
