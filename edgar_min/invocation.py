"""How this edgar was started: from its archive, by the `edgar` script, or as a module.

`invocation()` decides it, once for every use: the hook commands `edgar install` writes
(`delivery/install.edgar_command`) and every piece of advice a person reads (`program()`:
"review it, then `python3 /home/me/edgar.pyz skills accept NAME`") are made from it, so a
person who has only the archive is never told to run an `edgar` they do not have.
"""

from __future__ import annotations

import os
import sys

import edgar_min
from edgar_min.charsets import ALNUM, consists_of
from edgar_min.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

__all__ = ["Invocation", "invocation", "program"]


@dataclass(frozen=True, slots=True)
class Invocation:
    """The form edgar was started in, and the archive or script it was started from (absolute)."""

    form: Literal["archive", "script", "module"]
    path: str  # "" for the module


def invocation(argv0: str | None = None) -> Invocation:
    """How this process runs edgar; `argv0` stands for `sys.argv[0]`."""
    archive = getattr(getattr(edgar_min, "__loader__", None), "archive", None)  # a .pyz
    if archive:
        return Invocation("archive", os.path.realpath(archive))
    script = sys.argv[0] if argv0 is None else argv0
    if os.path.basename(script) == "edgar" and os.path.isfile(script):
        return Invocation("script", os.path.realpath(script))
    return Invocation("module", "")


def program(argv0: str | None = None) -> str:
    """What a person types to run this edgar again: `python3 /abs/edgar.pyz`, `edgar` (the
    script, by its path when `edgar` on PATH is another one), or `python3 -m edgar_min`."""
    how = invocation(argv0)
    if how.form == "archive":
        return f"python3 {_word(how.path)}"
    if how.form == "script":
        return "edgar" if _on_path(how.path) else _word(how.path)
    return "python3 -m edgar_min"


# The characters `shlex.quote` leaves a word as it is with: `shlex` imports `re`, and a command
# that gives advice (doctor, every time) would pay for it only to quote a plain path.
_PLAIN = ALNUM + "_@%+=:,./-"


def _word(path: str) -> str:
    """`path` as one shell word, as `shlex.quote` writes it."""
    if path and consists_of(path, _PLAIN):
        return path
    import shlex

    return shlex.quote(path)


def _on_path(script: str) -> bool:
    """Whether `edgar` typed in a shell runs `script`: the first `edgar` on PATH is it."""
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        found = os.path.join(folder or ".", "edgar")
        if os.path.isfile(found) and os.access(found, os.X_OK):
            return os.path.realpath(found) == script
    return False
