"""Regular expressions compiled when first used, not when their module is imported.

The one way a module defers its patterns. Importing `re` and compiling a module's patterns is
most of what importing such a module costs, and the per-turn commands import modules whose
patterns they rarely use: with every pattern compiled at import, side by side on 3.11 (CPU,
medians of 21), `learn` after a turn where nothing fires took 1.19x its time, the Stop hook
1.23x, the prompt hook 1.14x (1.13x handing over a skill), `doctor` 1.30x (docs/evaluation.md).
So a module whose import does not otherwise need `re` writes its module-level patterns as
`lazy(...)`; one that imports `re` at its top anyway compiles its own with `re.compile`.
"""

from __future__ import annotations

__all__ = ["lazy"]


class lazy:  # noqa: N801 - named like the re.compile call it replaces
    """`re.compile(pattern, flags)`, done on the first use of any of its attributes."""

    def __init__(self, pattern: str | bytes, flags: int = 0) -> None:
        self._args = (pattern, flags)

    def __getattr__(self, name: str) -> object:
        import re  # itself about a third of a bare interpreter's start-up: only for a pattern in use

        compiled = re.compile(*self._args)
        for attr in dir(compiled):
            if not attr.startswith("_"):
                self.__dict__[attr] = getattr(compiled, attr)
        # A class without __getattr__ from now on: a class that has one makes every
        # attribute lookup take Python's slow path, and these are used in loops.
        self.__class__ = _Compiled
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self._args[0]!r})"


class _Compiled:
    """A `lazy` pattern once compiled: its methods are the compiled pattern's own."""

    def __repr__(self) -> str:
        return f"lazy({self.pattern!r})"
