"""Work a hook hands on to run after it has answered: a process of its own, never waited for.

An agent waits for a hook until the hook's process exits and its stdout and stderr close. Work
that may take long (the declared check, a model writing a skill) is forked off instead: the
child leaves at once and its own child, in a session of its own with stdin, stdout and stderr on
`/dev/null`, does the work and ends, so the hook answers and exits as if it had none. What the
work has to say it writes where edgar keeps it (the experience store, `.edgar/hook-problems.jsonl`).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["detach"]


def can_detach() -> bool:
    """Whether work can be forked off here: a system with `fork`, and no other thread running
    (a forked copy of a process with threads may hold a lock no thread will release)."""
    if not hasattr(os, "fork"):
        return False
    threading = sys.modules.get("threading")
    return threading is None or threading.active_count() == 1


def detach(work: Callable[[], None]) -> bool:
    """Start `work()` in a process of its own and return at once: True when it started, False
    where it cannot (`can_detach`), and then nothing ran."""
    if not can_detach():
        return False
    try:
        child = os.fork()
    except OSError:
        return False
    if child:
        # The first child leaves as soon as it has forked the worker: reaped here, no zombie left.
        os.waitpid(child, 0)
        return True
    try:  # the first child: a new session, so that no terminal signal of the agent's reaches it
        os.setsid()
        if os.fork():
            os._exit(0)
        _worker()
        work()
    except BaseException:  # noqa: BLE001, S110 - nothing here may reach the hook's own code
        pass
    finally:
        os._exit(0)  # never the hook's exit path, its buffers or its `atexit`
    return False  # not reached


def _worker() -> None:
    """Let go of the hook's stdin, stdout and stderr (the agent reads them to their end) and of
    its alarm (the hook's bound is not the work's)."""
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    if devnull > 2:
        os.close(devnull)
    import signal

    if hasattr(signal, "setitimer"):
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
