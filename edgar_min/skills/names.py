"""The skill name rule of the Agent Skills format, in one place."""

from __future__ import annotations

from edgar_min.regex import lazy

__all__ = ["NAME_MAX", "RESERVED", "name_problem"]

NAME_MAX = 64
_NAME = lazy(r"[a-z0-9]+(?:-[a-z0-9]+)*")
# `learned` is the machine-owned folder inside `.edgar/skills/`.
RESERVED = frozenset({"learned"})


def name_problem(name: object) -> str | None:
    """Why `name` is not a usable skill name, as a sentence; None when it is."""
    if not isinstance(name, str) or not name:
        return "a skill name must be a non-empty string"
    shown = repr(name[:80])
    if len(name) > NAME_MAX:
        return f"skill name {shown} is longer than {NAME_MAX} characters"
    if not _NAME.fullmatch(name):
        return (
            f"skill name {shown} may use only lower-case letters, digits and single hyphens, "
            "and may not start or end with a hyphen"
        )
    if name in RESERVED:
        return f"skill name {shown} is reserved"
    return None
