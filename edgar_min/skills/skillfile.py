"""Reaching one SKILL.md's bytes: a plain file, under the size cap, and a project's only inside it.

Every reader of a skill goes through `read_skill_file`: listing and routing (through the
frontmatter reader), the body the prompt hook hands an agent, `skills show`, the near-duplicate
check. Reaching the bytes is this module's job; reading the frontmatter in them is
`frontmatter.py`'s.
"""

from __future__ import annotations

from edgar_min.errors import BadInput, Refused
from edgar_min.logfile import kind_of, read_plain

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os

__all__ = ["MAX_SKILL_BYTES", "FrontmatterError", "read_skill_file"]

# A SKILL.md is a page of instructions; the format asks for under 500 lines.
MAX_SKILL_BYTES = 1_000_000


class FrontmatterError(BadInput):
    """A SKILL.md that cannot be read, or its frontmatter cannot; the message names the file (and line)."""


def read_skill_file(path: str, *, inside: str | None = None) -> tuple[bytes, os.stat_result]:
    """One SKILL.md's bytes, at most `MAX_SKILL_BYTES`, and its stat; any failure is a `FrontmatterError`.

    Only a plain file is read: a fifo or `/dev/zero` is refused, not read without end. A link
    to a plain file is followed; with `inside` (the real path of the project the skill is in),
    only within it: a checkout's link to `/proc/self/environ` or a key outside is refused.
    """
    try:
        found = read_plain(path, MAX_SKILL_BYTES, inside=inside)
    except Refused as exc:
        raise FrontmatterError(f"{path}: {exc.message}") from None
    except OSError as exc:
        raise FrontmatterError(f"{path}: cannot read the file ({exc.strerror or exc})") from None
    if found is None:
        msg = f"{path}: is {kind_of(path)}, not a plain file; a SKILL.md is read only from one"
        raise FrontmatterError(msg)
    if len(found[0]) > MAX_SKILL_BYTES:
        msg = f"{path}: larger than {MAX_SKILL_BYTES} bytes; a SKILL.md is read only up to that size"
        raise FrontmatterError(msg)
    return found
