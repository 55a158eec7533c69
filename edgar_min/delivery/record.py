"""What was suggested to each agent session, so the turn that followed lists those skills.

    STATE/suggestions/<session>.jsonl    one line per prompt: {"time", "skills", "named"?, "withheld"?}

STATE is the person's state folder for the project (`Layout.state`, outside the tree), so a
record a repository commits names nothing to the Stop hook.

`skills` are those handed over with their bodies; `named` (when there are any) those only
named, for the agent to read if they fit. `withheld` (when there are any) those the
randomised holdout kept from this session (`delivery/holdout.py`): recorded like an offer, so
`learning/trial.py` can compare the turns that had a skill with those that could have.

One file per session, only ever appended to (single `O_APPEND` writes), so
copies from several machines merge by copying files, like the experience
store. Every prompt writes a line, an empty list included: the last line is
always the current turn's, never an earlier prompt's.
"""

from __future__ import annotations

import os

from edgar_min import jsoncodec
from edgar_min.learning.sessions import check_session
from edgar_min.logfile import append_row, files_ending, read_rows, timestamp
from edgar_min.records import dataclass
from edgar_min.skills.names import name_problem

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Container
    from typing import Any

    from edgar_min.layout import Layout

__all__ = [
    "Offer",
    "last_suggested",
    "last_suggestion",
    "merge_skills",
    "offers",
    "record_suggested",
    "recorded_sessions",
    "session_file",
    "with_suggestions",
]

# The last line is read from the file's tail: a line names at most a few skills.
TAIL_BYTES = 16_384


def session_file(layout: Layout, session: str) -> str:
    """Where what was suggested to `session` is recorded; `BadInput` for a session id that is not one."""
    return os.path.join(layout.suggestions, f"{check_session(session)}.jsonl")


def record_suggested(
    layout: Layout,
    session: str,
    names: tuple[str, ...] | list[str],
    named: tuple[str, ...] | list[str] = (),
    withheld: tuple[str, ...] | list[str] = (),
) -> None:
    """Append the skills handed over (and those only named, and those withheld) for this
    session's latest prompt."""
    row: dict[str, object] = {"time": timestamp(), "skills": list(names)}
    if named:
        row["named"] = list(named)
    if withheld:
        row["withheld"] = list(withheld)
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


def with_suggestions(
    layout: Layout, record: dict[str, Any], session: str, names: Container[str]
) -> tuple[dict[str, Any], tuple[str, ...], tuple[str, ...]]:
    """The turn record of the session's latest prompt with the skills edgar handed over for it
    (still discovered) among its skills, what was handed over, and what was only named.

    A skill handed over was loaded as surely as one the agent loaded itself; one only named
    was loaded if the agent loaded it.
    """
    handed, named = last_suggestion(layout, session)
    handed = tuple(name for name in handed if name in names)
    if handed:
        record = {**record, "skills": merge_skills(record.get("skills") or [], handed)}
    return record, handed, named


@dataclass(frozen=True, slots=True)
class Offer:
    """What edgar put before the agent for one prompt: skills handed over with their bodies, and
    skills only named; those the holdout withheld; and when (the row's time, when read whole)."""

    handed: tuple[str, ...] = ()
    named: tuple[str, ...] = ()
    withheld: tuple[str, ...] = ()
    time: str = ""

    @property
    def names(self) -> tuple[str, ...]:
        """Every skill offered, handed over first, each once."""
        return tuple(dict.fromkeys((*self.handed, *self.named)))


def recorded_sessions(layout: Layout) -> list[str]:
    """Every session with a suggestion record, sorted."""
    return [os.path.basename(p)[: -len(".jsonl")] for p in files_ending(layout.suggestions, ".jsonl")]


def offers(layout: Layout, session: str) -> list[Offer]:
    """The session's prompts in the order they came; a torn or garbage line is left out."""
    found = []
    # A session's rows repeat a few lists of names: each is checked once.
    checked: dict[tuple[object, ...], tuple[tuple[str, ...], ...]] = {}
    for row in read_rows(session_file(layout, session)).rows:
        stamp = row.get("time")
        lists = (row.get("skills"), row.get("named"), row.get("withheld"))
        if not isinstance(stamp, str) or not isinstance(lists[0], list):
            continue
        try:
            key = tuple(tuple(v) if isinstance(v, list) else None for v in lists)
            names = checked.get(key)
        except TypeError:  # a list holding a list or an object: no key, checked as it is
            key, names = None, None
        if names is None:
            names = tuple(_names(v) for v in lists)
            if key is not None:
                checked[key] = names
        found.append(Offer(*names, stamp))
    return found
