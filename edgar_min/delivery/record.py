"""What edgar offered each agent session, recorded apart from what the agent used.

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

An offer is edgar's act, not the agent's: a turn counts a skill as used only when its log
shows the agent used it (`Turn.skills`, from the adapters). The Stop hook reads the turn's
offer (`last_offer`) and the experience store keeps it beside the skills the turn used.
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

    from edgar_min.layout import Layout

__all__ = ["Offer", "last_offer", "offers", "record_offer", "recorded_sessions", "session_file"]

# The last line is read from the file's tail: a line names at most a few skills.
TAIL_BYTES = 16_384


def session_file(layout: Layout, session: str) -> str:
    """Where what was offered to `session` is recorded; `BadInput` for a session id that is not one."""
    return os.path.join(layout.suggestions, f"{check_session(session)}.jsonl")


@dataclass(frozen=True, slots=True)
class Offer:
    """What edgar put before the agent for one prompt: skills handed over with their bodies, and
    skills only named for it to read if they fit; those the holdout withheld; and when (the row's
    time, when read whole). An offer is not a use (`Turn.skills` is)."""

    handed: tuple[str, ...] = ()
    named: tuple[str, ...] = ()
    withheld: tuple[str, ...] = ()
    time: str = ""

    @property
    def names(self) -> tuple[str, ...]:
        """Every skill offered, handed over first, each once."""
        return tuple(dict.fromkeys((*self.handed, *self.named)))


def record_offer(
    layout: Layout,
    session: str,
    handed: tuple[str, ...] | list[str],
    named: tuple[str, ...] | list[str] = (),
    withheld: tuple[str, ...] | list[str] = (),
) -> None:
    """Append what was offered (handed over, and only named) for this session's latest prompt,
    and what the holdout withheld."""
    row: dict[str, object] = {"time": timestamp(), "skills": list(handed)}
    if named:
        row["named"] = list(named)
    if withheld:
        row["withheld"] = list(withheld)
    append_row(session_file(layout, session), row, root=layout.state)


def _names(value: object) -> tuple[str, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(dict.fromkeys(s for s in value if isinstance(s, str) and name_problem(s) is None))


def last_offer(layout: Layout, session: str, names: Container[str] | None = None) -> Offer:
    """What was offered for the session's latest prompt; nothing when no record is readable.

    With `names` (the discovered skills), only the skills still among them.
    """
    try:
        with open(session_file(layout, session), "rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            handle.seek(max(0, size - TAIL_BYTES))
            tail = handle.read(TAIL_BYTES)
    except OSError:
        return Offer()
    for line in reversed(tail.split(b"\n")):
        if not line:
            continue  # what follows the last newline: nothing to read, and no error to raise for it
        try:
            row = jsoncodec.loads(line)
        except ValueError:
            continue  # a torn or cut line: the one before it is whole
        if not isinstance(row, dict) or not isinstance(row.get("skills"), list):
            continue
        handed, named = _names(row["skills"]), _names(row.get("named"))
        if names is not None:
            handed = tuple(n for n in handed if n in names)
            named = tuple(n for n in named if n in names)
        return Offer(handed, named)
    return Offer()


def recorded_sessions(layout: Layout) -> list[str]:
    """Every session with an offer record, sorted."""
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
