"""Load a code skill body: acceptance first, then run its top level behind the walls.

`email.compose` is read from `data/skills/email/compose.py` and becomes a
module named `edgar_skill__email__compose`, never `email.compose`, so the
stdlib `email` package is neither shadowed nor broken. While a body loads and
while its `predict`/`act` run, `semif_agent` and `semif_agent.skills` are
aliases of `edgar_min.agent.skills` in `sys.modules` (whatever was there before
is put back afterwards), so bodies written for the SemIf agent load unchanged.
"""

from __future__ import annotations

import sys
import types
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from edgar_min.errors import Refused

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from edgar_min.agent.registry import Manifest, Registry
    from edgar_min.agent.walls import Wall

__all__ = ["LoadedSkill", "load_skill", "module_name", "semif_alias"]

_ALIASES = ("semif_agent", "semif_agent.skills")


@dataclass(frozen=True, slots=True)
class LoadedSkill:
    manifest: Manifest
    path: Path
    module: types.ModuleType


def module_name(manifest: Manifest) -> str:
    return "edgar_skill__" + manifest.name.replace(".", "__")


@contextmanager
def semif_alias() -> Iterator[None]:
    """`semif_agent.skills` -> `edgar_min.agent.skills` for the duration of the block."""
    from edgar_min.agent import skills

    package = types.ModuleType("semif_agent", "Alias of edgar_min.agent provided while a skill body runs.")
    package.__path__ = []  # a package, so `semif_agent.skills` resolves as a submodule
    package.skills = skills  # type: ignore[attr-defined]
    saved = {name: sys.modules.get(name) for name in _ALIASES}
    sys.modules["semif_agent"] = package
    sys.modules["semif_agent.skills"] = skills
    try:
        yield
    finally:
        for name, previous in saved.items():
            if previous is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = previous


def load_skill(skills_dir: Path, registry: Registry, manifest: Manifest, wall: Wall) -> LoadedSkill:
    """The body of `manifest`, accepted and loaded; `Refused` with every problem otherwise."""
    from edgar_min.agent.acceptance import check_body
    from edgar_min.agent.registry import body_path
    from edgar_min.agent.walls import guarded

    path = body_path(skills_dir, manifest)
    try:
        source = path.read_text(encoding="utf-8")
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
    code = compile(source, str(path), "exec")
    name = module_name(manifest)
    module = types.ModuleType(name)
    module.__file__ = str(path)
    # In sys.modules under its own name so dataclasses and the like work inside
    # a body; the name cannot collide with a stdlib or edgar module.
    sys.modules[name] = module
    try:
        with semif_alias(), guarded(wall):
            exec(code, module.__dict__)  # noqa: S102 - the body passed acceptance just above
    except BaseException as exc:
        sys.modules.pop(name, None)
        if isinstance(exc, KeyboardInterrupt):
            raise
        msg = f"the body of {manifest.name} failed while loading ({type(exc).__name__}: {exc})"
        raise Refused(msg) from None
    return LoadedSkill(manifest, path, module)
