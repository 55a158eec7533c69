"""Check SKILL.md files against the Agent Skills rules, reporting every problem at once.

The format's rules apply to every skill: only the six frontmatter keys, a
`name` that follows the name rule and equals its folder, a description of
1-1024 characters. Learned skills and proposals must also have the four body
sections in order: a person's skill is prose they chose the shape of.
"""

from __future__ import annotations

import os

from edgar_min.errors import EdgarError
from edgar_min.skills.frontmatter import read_skill
from edgar_min.skills.names import name_problem
from edgar_min.skills.sections import shape_problems

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["ALLOWED_KEYS", "kind_of", "validate_file", "validate_frontmatter"]

ALLOWED_KEYS = ("name", "description", "license", "allowed-tools", "metadata", "compatibility")
DESCRIPTION_MAX = 1024
COMPATIBILITY_MAX = 500


def kind_of(path: str) -> str:
    """`learned`, `proposal` or `hand`, from where the file sits."""
    parts = tuple(os.path.realpath(path).split(os.sep))
    for i in range(len(parts) - 2):
        if parts[i] == ".edgar" and parts[i + 1] == "proposals":
            return "proposal"
        if parts[i : i + 3] == (".edgar", "skills", "learned"):
            return "learned"
    return "hand"


def validate_frontmatter(data: dict[str, Any], folder_name: str | None) -> list[str]:
    """Problems with the frontmatter keys and values (no file or line prefix)."""
    problems = [
        f"unknown frontmatter key {key!r} (the format allows {', '.join(ALLOWED_KEYS)}; "
        "put anything else under 'metadata')"
        for key in data
        if key not in ALLOWED_KEYS
    ]
    name = data.get("name")
    if "name" not in data:
        problems.append("'name' is missing")
    else:
        problem = name_problem(name)
        if problem:
            problems.append(problem)
        elif folder_name is not None and name != folder_name:
            problems.append(f"name {name!r} does not match its folder {folder_name!r}")
    description = data.get("description")
    if "description" not in data:
        problems.append("'description' is missing")
    elif not isinstance(description, str) or not description.strip():
        problems.append("'description' must be non-empty text")
    elif len(description) > DESCRIPTION_MAX:
        problems.append(f"'description' is {len(description)} characters; the limit is {DESCRIPTION_MAX}")
    for key in ("license", "allowed-tools"):
        if key in data and not isinstance(data[key], str):
            hint = " (a space-separated string)" if key == "allowed-tools" else ""
            problems.append(f"'{key}' must be a string{hint}")
    if "compatibility" in data:
        value = data["compatibility"]
        if not isinstance(value, str) or not value.strip():
            problems.append("'compatibility' must be non-empty text")
        elif len(value) > COMPATIBILITY_MAX:
            problems.append(f"'compatibility' is {len(value)} characters; the limit is {COMPATIBILITY_MAX}")
    if "metadata" in data:
        meta = data["metadata"]
        if not isinstance(meta, dict):
            problems.append("'metadata' must be a map of string keys to string values")
        else:
            for key, value in meta.items():
                if isinstance(value, dict | list):
                    # Quoting cannot fix a list or a map: the format allows only text here.
                    kind = "a map" if isinstance(value, dict) else "a list"
                    problems.append(
                        f"metadata value {key!r} must be a string, not {kind} "
                        "(the format allows only text values under 'metadata')"
                    )
                elif not isinstance(value, str):
                    problems.append(f"metadata value {key!r} must be a string (quote it), not {value!r}")
    return problems


def validate_file(path: str, kind: str | None = None) -> list[str]:
    """Every problem with one SKILL.md, each as `PATH: sentence`; empty when it is valid."""
    try:
        parsed = read_skill(path)
    except EdgarError as exc:
        return [exc.message]
    kind = kind or kind_of(path)
    problems = list(parsed.warnings)  # entries left out of the data: each already names file and line
    problems += [
        f"{path}: {p}" for p in validate_frontmatter(parsed.data, os.path.basename(os.path.dirname(path)))
    ]
    if kind in {"learned", "proposal"}:
        problems += [f"{path}: {p}" for p in shape_problems(parsed.body)]
    return problems
