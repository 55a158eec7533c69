"""Session ids: the one rule for what a harness may name a session, and a fresh one.

Its own small module: the prompt hook records suggestions per session and needs this
rule, not the experience store around it.
"""

from __future__ import annotations

import os
import time

from edgar_min.charsets import ALNUM, consists_of
from edgar_min.errors import BadInput

__all__ = ["check_session", "is_session", "new_session_id"]

_SESSION_CHARS = ALNUM + "._:@-"


def is_session(value: str) -> bool:
    """1-128 of letters, digits and `. _ : @ -`, starting with a letter or digit (string operations:
    a pattern would import `re` on every turn for this one rule)."""
    return 0 < len(value) <= 128 and value[0] in ALNUM and consists_of(value, _SESSION_CHARS)


def check_session(session: str) -> str:
    """A session id is 1-128 of letters, digits and `. _ : @ -`; anything else is refused."""
    if not is_session(session):
        msg = (
            f"session id {session[:80]!r} is not usable: use 1-128 letters, digits and '._:@-', "
            "starting with a letter or digit"
        )
        raise BadInput(msg)
    return session


def new_session_id(now: float | None = None) -> str:
    """A fresh id for a caller that names no session (each CLI call is then its own session)."""
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime(now))
    return f"s-{stamp}-{os.getpid()}-{os.urandom(2).hex()}"
