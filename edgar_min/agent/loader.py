"""Load a code skill body: read it, check it against acceptance, compile it (nothing of it runs here).

`email.compose` is read from `data/skills/email/compose.py` and, in the child
that runs it (`child.py`), becomes a module named `edgar_skill__email__compose`,
never `email.compose`, so the stdlib `email` package is neither shadowed nor
broken. In that child `semif_agent` and `semif_agent.skills` are aliases of
`edgar_min.agent.skills`, so bodies written for the SemIf agent load unchanged;
the caller's own `sys.modules` is never touched.
"""

from __future__ import annotations

import os
import sys
import types

from edgar_min.agent.acceptance import check_body
from edgar_min.agent.tree import body_path
from edgar_min.errors import Refused
from edgar_min.logfile import kind_of, read_capped
from edgar_min.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from edgar_min.agent.tree import Manifest, Registry

__all__ = ["CheckedBody", "install_aliases", "module_name", "read_body", "read_body_text"]


@dataclass(frozen=True, slots=True)
class CheckedBody:
    """A body that passed acceptance, compiled and ready for a child to run."""

    manifest: Manifest
    path: str
    code: types.CodeType


def module_name(manifest: Manifest) -> str:
    return "edgar_skill__" + manifest.name.replace(".", "__")


def install_aliases(skills: types.ModuleType) -> None:
    """`semif_agent` and `semif_agent.skills` -> `skills` in `sys.modules` (done in the child only)."""
    package = types.ModuleType("semif_agent", "Alias of edgar_min.agent provided while a skill body runs.")
    package.__path__ = []  # a package, so `semif_agent.skills` resolves as a submodule
    package.skills = skills  # type: ignore[attr-defined]
    sys.modules["semif_agent"] = package
    sys.modules["semif_agent.skills"] = skills


# Room for the longest body acceptance allows (MAX_BODY_CHARS) in any UTF-8.
MAX_BODY_BYTES = 256_000


def read_body_text(path: str) -> str:
    """A body's text, read only from a plain file of at most `MAX_BODY_BYTES`; OSError otherwise."""
    raw = read_capped(path, MAX_BODY_BYTES)
    if raw is None:
        msg = f"it is {kind_of(path)}, not a plain file"
        raise OSError(msg)
    if len(raw) > MAX_BODY_BYTES:
        msg = f"it is larger than {MAX_BODY_BYTES} bytes"
        raise OSError(msg)
    return raw.decode("utf-8")


def read_body(skills_dir: str, registry: Registry, manifest: Manifest) -> CheckedBody:
    """The body of `manifest`, accepted and compiled; `Refused` with every problem otherwise."""
    path = body_path(skills_dir, manifest)
    if os.path.exists(path) and not os.path.isfile(path):  # a folder or a fifo, whose read would never end
        msg = f"the body of {manifest.name} ({path}) is not a regular file"
        raise Refused(msg)
    try:
        source = read_body_text(path)
    except FileNotFoundError:
        msg = f"the skill tree names {manifest.name} but its body {path} is missing"
        raise Refused(msg) from None
    except (OSError, UnicodeDecodeError) as exc:
        msg = f"the body of {manifest.name} ({path}) cannot be read ({exc})"
        raise Refused(msg) from None
    problems = check_body(source, str(path), manifest, registry)
    if problems:
        msg = f"the body of {manifest.name} fails acceptance: " + "; ".join(str(p) for p in problems)
        raise Refused(msg)
    return CheckedBody(manifest, path, compile(source, str(path), "exec"))
