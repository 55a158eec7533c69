"""The skill name rule of the Agent Skills format, in one place."""

from __future__ import annotations

from edgar_min.charsets import DIGITS, LOWER, consists_of

__all__ = ["NAME_MAX", "RESERVED", "is_skill_name", "name_problem", "slash_skill", "unqualified"]

NAME_MAX = 64
_NAME_CHARS = LOWER + DIGITS + "-"
# `learned` is the machine-owned folder inside `.edgar/skills/`.
RESERVED = frozenset({"learned"})


def is_skill_name(name: str) -> bool:
    """1-64 lower-case letters, digits and single hyphens, no hyphen first or last (as the pattern
    `[a-z0-9]+(?:-[a-z0-9]+)*` says; string operations, so no turn imports `re` for it)."""
    return (
        0 < len(name) <= NAME_MAX
        and consists_of(name, _NAME_CHARS)
        and name[0] != "-"
        and name[-1] != "-"
        and "--" not in name
    )


def name_problem(name: object) -> str | None:
    """Why `name` is not a usable skill name, as a sentence; None when it is."""
    if not isinstance(name, str) or not name:
        return "a skill name must be a non-empty string"
    shown = repr(name[:80])
    if len(name) > NAME_MAX:
        return f"skill name {shown} is longer than {NAME_MAX} characters"
    if not is_skill_name(name):
        return (
            f"skill name {shown} may use only lower-case letters, digits and single hyphens, "
            "and may not start or end with a hyphen"
        )
    if name in RESERVED:
        return f"skill name {shown} is reserved"
    return None


def slash_skill(prompt: str) -> str | None:
    """The skill name a prompt runs as a slash command (`/NAME args`, a plugin's `/plugin:NAME`),
    or None; whether a skill of that name exists is the caller's to check."""
    if not prompt.startswith("/") or len(prompt) < 2 or prompt[1].isspace():
        return None
    name = unqualified(prompt[1:].split(None, 1)[0])
    return name if is_skill_name(name) else None


def unqualified(name: str) -> str:
    """NAME of a plugin's skill `plugin:NAME` (a skill name has no colon), else `name` itself."""
    return name.rpartition(":")[2]
