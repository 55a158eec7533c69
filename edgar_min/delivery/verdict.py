"""A Stop hook's verdict on its turn: asked for only when it could matter, and never waited for.

Three triggers (`long`, `recovered`, `repeated`) fire only on a turn whose declared check
passed. So the hook first asks whether a pass would make any of them fire
(`triggers.needs_verdict`: a turn with no tool call never does); when none would, no check runs.
Then, in this order:

1. the agent's own run: when the turn ran the declared check (`[check] command`) after its
   last edit and the log states how it exited, that exit code is the verdict, at no cost
   (`check.verdict_of_runs`); it is taken whenever the log has it;
2. otherwise, with `adapters.hook_check` on (the default), the hook answers at once and the
   check runs after it, in a process of its own (`background.detach`), bounded by its own
   `check.timeout_s`; the turn is recorded and learned when the verdict is in.

Whatever the verdict, a failure is charged only to the skills the turn used (`Gate._observe`).
"""

from __future__ import annotations

import os
import time

from edgar_min.atomic import create_empty, open_read
from edgar_min.delivery.background import can_detach, detach
from edgar_min.errors import EdgarError
from edgar_min.learning.check import check_program, run_check, verdict_of_runs
from edgar_min.learning.triggers import needs_verdict
from edgar_min.records import replace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from edgar_min.config import Config
    from edgar_min.controller.gate import Gate, Outcome
    from edgar_min.learning.turn import Turn

__all__ = ["DEFERRED", "describe", "from_log", "learn_after_check", "wants_check"]

# How long the agent's log must stay still before the turn is read again, and the longest wait.
SETTLE_S = 0.5
SETTLE_LIMIT_S = 5.0
# What the Stop hook says of a turn it left to the check in the background.
DEFERRED = "the declared check ({program}) runs in the background; this turn is learned when it ends"


def from_log(config: Config, turn: Turn, runs: tuple[tuple[str, int | None], ...], root: str) -> Turn:
    """The turn with the verdict of the agent's own last run of the declared check since its last
    edit, when the log states one; else the turn as it was."""
    if turn.verification != "unverified" or not config.check.command:
        return turn
    found = verdict_of_runs(runs, config.check.command, root)
    return turn if found is None else replace(turn, verification=found)


def wants_check(config: Config, gate: Gate, turn: Turn, session: str) -> bool:
    """Whether the hook should run the declared check for this turn: there is one, the hook may
    run it, the turn has no verdict yet, and a pass would make a trigger fire."""
    return (
        bool(config.check.command)
        and config.adapters.hook_check
        and config.controller.enabled
        and turn.verification == "unverified"
        and needs_verdict(turn, config.skills, gate.store, session)
    )


def settle(path: str, quiet: float = SETTLE_S, limit: float = SETTLE_LIMIT_S) -> None:
    """Return once the file at `path` has not changed for `quiet` seconds, or after `limit`."""
    deadline = time.monotonic() + limit
    seen, since = None, time.monotonic()
    while time.monotonic() < deadline:
        try:
            st = os.stat(path)
            now = (st.st_size, st.st_mtime_ns)
        except OSError:
            now = None
        if now != seen:
            seen, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return
        time.sleep(0.05)


def _one_at_a_time(state: str) -> int | None:
    """Wait for any check this person's edgar is running in the project to end, and hold the turn:
    two test suites at once in one tree may fight over its files. The lock goes with the process
    (a read fd of `state/check.lock`, flocked); None where it cannot be taken (then none is waited for)."""
    try:
        import fcntl
    except ImportError:  # no flock here
        return None
    lock = os.path.join(state, "check.lock")
    try:
        create_empty(lock, root=state)
        fd = open_read(lock, root=state)
    except (OSError, EdgarError):
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
    except OSError:
        os.close(fd)
        return None
    return fd


def learn_after_check(
    config: Config,
    root: str,
    turn: Turn,
    *,
    state: str,
    learn: Callable[[Turn], Outcome],
    report: Callable[[str], None],
    log: tuple[str, Callable[[], Turn]] | None = None,
) -> str | None:
    """Run the declared check in `root` after the hook has answered, then `learn` the turn with
    its verdict (the hook's own way, the same as for a turn it learns at once); the sentence the
    hook says now, or None when it cannot be forked off here (then nothing ran).

    Checks run one at a time in a project (`state` is the person's state folder for it).
    `report` writes down what went wrong, the hook's stdout being long closed by then. `log`
    is the agent's log and how to read the turn from it: an agent may run its Stop hooks
    before it has written the turn's last lines (Claude Code 2.1 does), so the turn is read
    again once the log is still, and the agent's own run of the check found there spares
    running it.
    """

    def work() -> None:
        nonlocal turn
        if log is not None:
            settle(log[0])
            try:
                turn = log[1]()
            except (EdgarError, OSError):
                pass  # the turn as the hook read it
        if turn.verification == "unverified":
            _one_at_a_time(state)  # held until this process ends
            try:
                turn = replace(turn, verification=run_check(config.check, root).verdict)
            except EdgarError as exc:
                report(f"{exc.message}; this turn is recorded unverified")
        outcome = learn(turn)
        for problem in outcome.problems:
            report(problem)
        if outcome.outcome == "refused":
            report(" ".join(outcome.message.split()))

    def guarded() -> None:
        try:
            work()
        except Exception as exc:  # noqa: BLE001 - nobody is there to see a traceback
            reason = exc.message if isinstance(exc, EdgarError) else f"internal error ({type(exc).__name__})"
            report(f"the turn left to the check in the background was not learned: {reason}")

    if not detach(guarded):
        return None
    return DEFERRED.format(program=check_program(config.check.command))


def describe(config: Config) -> tuple[str | None, bool]:
    """One line for `doctor` on how the Stop hook has its turns' verdict (None with no declared
    check), and whether it needs a person: the hook never runs the check while the agent waits,
    so a check longer than `adapters.hook_timeout_s` costs the agent nothing."""
    if not config.check.command:
        return None, False
    mine = "the Stop hook takes a turn's verdict from the agent's own run of the check after its last edit"
    if not config.adapters.hook_check:
        return f"{mine}, and never runs it itself (adapters.hook_check is false)", False
    if not can_detach():
        trouble = (
            f"{mine}; this system cannot run it after the hook has answered (no fork), so a turn the "
            "agent did not check stays unverified: the hook never runs it while the agent waits"
        )
        return trouble, True
    line = (
        f"{mine}, else runs it after answering, in the background (within check.timeout_s, "
        f"{config.check.timeout_s:g} s), when a pass could fire a trigger: the agent never waits for it"
    )
    return line, False
