"""Deferred imports: the one way a library module of edgar puts off importing another.

A per-turn command (the prompt hook, `learn` after a turn where nothing fired) runs on every
prompt, and most of what the package can do is not needed there: the synthesis path (drafts,
the writer, a model) only when a trigger fired, the decision engine only when a prompt matched
a skill. `module(name)` names such a module at the top of the module that uses it, where a reader
expects imports, and imports it the first time one of its names is read. Everything else is an
ordinary import at the top of its module; the CLI, hook and MCP entry points defer with plain
imports inside their functions, at the edge. bench/bench_startup.py measures what this saves.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["module"]


class Deferred:
    """A module of the package, imported when one of its names is first read."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __getattr__(self, attribute: str) -> object:
        # Only names the instance lacks come here; `name` is a slot and never does.
        loaded = sys.modules.get(self.name)
        if loaded is None:
            loaded = __import__(self.name, fromlist=["__name__"])
        return getattr(loaded, attribute)

    def __repr__(self) -> str:
        return f"<deferred module {self.name!r}>"


def module(name: str) -> Any:
    """`name` (a module of edgar_min), imported the first time one of its names is read."""
    if not name.startswith("edgar_min."):
        msg = f"only edgar's own modules are deferred, not {name!r}"
        raise ValueError(msg)
    return Deferred(name)
