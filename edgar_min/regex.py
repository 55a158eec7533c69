"""Regular expressions compiled when first used, not when their module is imported.

Compiling is most of what importing a module that defines patterns costs, and most commands
use few of the patterns they import: `lazy(...)` stands in for `re.compile(...)`.
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
