"""ASCII character classes, and the checks the per-turn paths make with them, as string operations.

Each stands for a small pattern (`[a-z][a-z0-9_.-]{0,63}`, `[^A-Za-z0-9._-]+` -> `-`): compiled
as one, it would import `re`, about a third of a bare interpreter's start-up, on a turn that needs
nothing else of it. Every use is tested against the pattern it stands for.
"""

from __future__ import annotations

__all__ = ["ALNUM", "DIGITS", "LETTERS", "LOWER", "UPPER", "consists_of", "dashed"]

LOWER = "abcdefghijklmnopqrstuvwxyz"
UPPER = LOWER.upper()
LETTERS = LOWER + UPPER
DIGITS = "0123456789"
ALNUM = LETTERS + DIGITS


def consists_of(value: str, chars: str) -> bool:
    """Every character of `value` is one of `chars` (true of ""): `[chars]*` matched whole."""
    return not value.strip(chars)


def dashed(text: str, keep: frozenset[str] | str) -> str:
    """`text` with each run of characters not in `keep` made one '-' (`[^keep]+` -> `-`)."""
    out: list[str] = []
    in_run = False
    for char in text:
        if char in keep:
            out.append(char)
        elif not in_run:
            out.append("-")
        in_run = char not in keep
    return "".join(out)
