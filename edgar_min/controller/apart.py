"""Work that outlives the hook that started it: what a person must not wait for.

An agent waits for its hook's process to end (and for its output to close) before it
goes on. Work handed to `run_apart` runs in a process of its own: forked twice, in a
session of its own, with stdin, stdout and stderr on /dev/null, so the hook answers and
exits while the work goes on, and no process of the agent's is left to reap it. The work
bounds itself (a model call has its timeout) and says what became of it in edgar's own
files; whatever it raises ends it quietly.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["run_apart"]


def run_apart(work: Callable[[], object]) -> bool:
    """Start `work` in a detached process; False where none can be started (no fork, a failed one)."""
    fork = getattr(os, "fork", None)
    if fork is None:
        return False
    try:
        middle = fork()
    except OSError:
        return False
    if middle:
        # The middle process only forks the worker and exits: reaped here at once.
        _, status = os.waitpid(middle, 0)
        return os.waitstatus_to_exitcode(status) == 0
    code = 0
    try:
        os.setsid()
        if fork():
            os._exit(0)
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        work()
    except OSError:
        code = 1  # the worker could not be started: the caller runs the work itself
    except BaseException:  # noqa: BLE001, S110 - nothing may escape into the forked copy of the caller
        pass
    os._exit(code)
