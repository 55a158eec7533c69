"""Regular expressions compiled when first used, not when their module is imported.

Compiling is most of what importing a module that defines patterns costs, and most commands
use few of the patterns they import: `lazy(...)` stands in for `re.compile(...)`.
"""

from __future__ import annotations

import re

__all__ = ["lazy"]


class lazy:  # noqa: N801 - named like the re.compile call it replaces
    """`re.compile(pattern, flags)`, done on the first use of any of its methods."""

    def __init__(self, pattern: str | bytes, flags: int = 0) -> None:
        self._args = (pattern, flags)

    def __getattr__(self, name: str) -> object:
        value = getattr(re.compile(*self._args), name)
        # Later uses of the same method are plain attribute lookups.
        self.__dict__[name] = value
        return value

    def __repr__(self) -> str:
        return f"lazy({self._args[0]!r})"
