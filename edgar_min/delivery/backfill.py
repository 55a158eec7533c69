"""Routing examples from past sessions: every turn of an agent's old logs, read as the hooks read the last.

    edgar skills examples --import claude-code|codex|gemini PATH ...

A PATH is a session log (a Claude Code transcript, a Codex rollout, a Gemini CLI
session) or a folder searched for `*.jsonl` logs (`~/.claude/projects/<project>/`,
`~/.codex/sessions/`, `~/.gemini/tmp/<project>/chats/`).
Every turn of every log goes through the adapters' own per-turn reader
(`read_turns`), and a turn whose agent loaded a discovered skill itself gives its
prompt as an example of that skill, through `learn_from_loads`, as the Stop hook
does for a turn as it happens: every skill the agent loaded, one edgar suggested in
that session too (the agent chose it). Left out, as there: a subagent's turns (its task
is not a person's message). Also left out: an example a person took back (`skills teach
--forget`).

Logs are read one at a time, oldest first (by modification time), so that the
newest examples are the latest of each skill; only the examples found are held.
Nothing is written until every log has been read; an example already in force is
not written again, so a second import changes nothing.
"""

from __future__ import annotations

import os

from edgar_min.adapters.common import NoTurn, SubagentLog
from edgar_min.adapters.logs import AGENTS, turns_reader
from edgar_min.errors import BadInput, EdgarError, Refused
from edgar_min.learning.turn import parse_turn
from edgar_min.records import dataclass, field
from edgar_min.skills.examples import clean_text, learn_from_loads, read_examples, taken_back

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Container, Iterable, Iterator

    from edgar_min.adapters.common import AdaptedTurn
    from edgar_min.layout import Layout

__all__ = ["AGENTS", "Backfill", "Example", "backfill", "log_files"]

LOG_SUFFIX = ".jsonl"
# A folder of logs is listed before it is read (to read the oldest first): a bound on the list.
MAX_LOGS = 200_000


# What an import leaves out, each counted and said once, in this order.
LEFT_OUT = {
    "subagent": "{n} subagent log(s) were left out: a subagent's task is not a person's message",
    "subagent turns": "{n} turn(s) a subagent took part in were left out",
    "no prompt": "{n} log(s) held no message a person typed (nothing to learn from)",
    "empty": "{n} empty log(s) held no turn",
    "unreadable turns": "{n} turn(s) whose prompt is not text were left out",
}


@dataclass(frozen=True, slots=True)
class Example:
    """A prompt kept as an example of a skill, and whether it was not in force before."""

    skill: str
    text: str
    new: bool


@dataclass(slots=True)
class Backfill:
    """What an import read and found: sessions and turns read, the examples, and what was skipped."""

    sessions: int = 0
    turns: int = 0
    examples: list[Example] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    written: int = 0

    @property
    def new(self) -> int:
        return sum(1 for e in self.examples if e.new)

    def as_json(self) -> dict[str, object]:
        return {
            "sessions": self.sessions,
            "turns": self.turns,
            "examples": [{"skill": e.skill, "text": e.text, "new": e.new} for e in self.examples],
            "new": self.new,
            "written": self.written,
            "skipped": list(self.skipped),
        }


def log_files(paths: Iterable[str], problems: list[str]) -> list[str]:
    """The session logs the paths name, oldest first: a file as given, a folder's `*.jsonl` files
    at any depth (links to folders not followed). A path that is neither is a problem."""
    found: list[tuple[float, str]] = []
    for path in paths:
        if os.path.isdir(path):
            before = len(found)
            for folder, dirs, files in os.walk(path):
                dirs.sort()
                logs = [os.path.join(folder, n) for n in sorted(files) if n.endswith(LOG_SUFFIX)]
                found.extend((_mtime(log), log) for log in logs if not os.path.basename(log).startswith("."))
                if len(found) > MAX_LOGS:
                    msg = f"{path}: more than {MAX_LOGS} session logs; give a narrower folder"
                    raise BadInput(msg)
            if len(found) == before:
                problems.append(f"{path}: no session log (*{LOG_SUFFIX}) in this folder or below it")
        elif os.path.lexists(path):
            found.append((_mtime(path), path))
        else:
            problems.append(f"{path}: no such file or folder")
    found.sort()
    return list(dict.fromkeys(path for _, path in found))


def _mtime(path: str) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return 0.0


class _Pass:
    """One import's state: what is in force, and the examples found."""

    def __init__(self, layout: Layout, result: Backfill) -> None:
        held = read_examples(layout, latest=False)  # a file of examples that is not a file: refused here
        self.in_force = {(skill, text) for skill, texts in held.items() for text in texts}
        self.refused = taken_back(layout)
        self.found: dict[tuple[str, str], Example] = {}
        # The parsed prompt of each new example: written as the Stop hook writes one, so the
        # text kept is the very text a live turn would keep.
        self.prompts: dict[tuple[str, str], str] = {}
        self.counts = dict.fromkeys(LEFT_OUT, 0)
        self.result = result

    def turn(self, adapted: AdaptedTurn) -> None:
        """Count one turn, and hold the examples it gives."""
        record = adapted.record
        if record.get("agent") != "main":
            self.counts["subagent turns"] += 1
            return
        self.result.turns += 1
        if not record.get("skills"):
            return
        loaded = record["skills"]
        try:
            prompt = parse_turn(record).prompt
        except BadInput:
            self.counts["unreadable turns"] += 1
            return
        text = clean_text(prompt)
        if not text:
            return
        for skill in dict.fromkeys(loaded):
            key = (skill, text)
            if key not in self.found and key not in self.refused:
                self.found[key] = Example(skill, text, new=key not in self.in_force)
                if self.found[key].new:
                    self.prompts[key] = prompt

    def log(self, path: str, read_turns: Callable[..., Iterator[AdaptedTurn]], *args: object) -> None:
        """Read one log's turns; a log that cannot be read is counted or said, never raised."""
        last: AdaptedTurn | None = None
        turns, side = self.result.turns, self.counts["subagent turns"]
        try:
            for adapted in read_turns(path, *args):
                last = adapted
                self.turn(adapted)
        except SubagentLog:
            self.counts["subagent"] += 1
            return
        except NoTurn:
            self.counts["no prompt"] += 1
            return
        except BadInput as exc:
            if last is None and os.path.isfile(path) and os.path.getsize(path) == 0:
                self.counts["empty"] += 1
            else:
                self.result.skipped.append(exc.message.replace("; nothing was stored", "; skipped"))
            return
        if self.result.turns == turns and self.counts["subagent turns"] > side:
            # A rollout its header marks as a subagent's: no turn of it is a person's.
            self.counts["subagent turns"] = side
            self.counts["subagent"] += 1
            return
        self.result.sessions += 1
        notes = last.notes() if last is not None else []
        if notes:
            self.result.skipped.append(f"{path}: " + "; ".join(notes))

    def sentences(self) -> list[str]:
        """What was left out, counted."""
        return [said.format(n=self.counts[key]) for key, said in LEFT_OUT.items() if self.counts[key]]


def backfill(
    layout: Layout,
    agent: str,
    paths: Iterable[str],
    table: dict[str, str],
    skill_names: Container[str],
    *,
    dry_run: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> Backfill:
    """Read every turn of the logs at `paths` and keep (unless `dry_run`) the new examples.

    `progress(done, total)` is told after each log (a person importing thousands waits).

    `BadInput` when not one session could be read; a log that cannot be is one `skipped` sentence.
    """
    if agent not in AGENTS:
        msg = f"--import reads the logs of {' or '.join(AGENTS)}, not {agent!r}"
        raise BadInput(msg)
    result = Backfill()
    logs = log_files(paths, result.skipped)
    run = _Pass(layout, result)
    read_turns = turns_reader(agent)
    for done, path in enumerate(logs, 1):
        run.log(path, read_turns, table, skill_names)
        if progress is not None:
            progress(done, len(logs))
    result.examples = list(run.found.values())
    result.skipped.extend(run.sentences())
    if result.sessions == 0:
        reasons = "; ".join(result.skipped) or "no session log was given"
        msg = f"no session could be read, so nothing was imported: {reasons}"
        raise BadInput(msg)
    if not dry_run:
        result.written = _write(layout, run.prompts)
    return result


def _write(layout: Layout, prompts: dict[tuple[str, str], str]) -> int:
    """Append the new examples, oldest first; how many were written. A failure part-way says how
    far it got."""
    written = 0
    try:
        for (skill, _), prompt in prompts.items():
            written += len(learn_from_loads(layout, prompt, [skill]))
    except (OSError, EdgarError) as exc:
        reason = exc.message if isinstance(exc, EdgarError) else (exc.strerror or str(exc))
        msg = (
            f"{written} of {len(prompts)} new example(s) were written, then: {reason}; "
            "each one written is whole, and importing again adds only the rest"
        )
        raise Refused(msg) from None
    return written
