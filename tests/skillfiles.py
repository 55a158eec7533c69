"""Small builders for SKILL.md files and bodies used across tests."""

from __future__ import annotations

from pathlib import Path

BODY = """\
## When to use

When a dependency pin must move and the lock file must follow.

## Procedure

1. Change the pin.
2. Refresh the lock file.
3. Run the tests.

## Pitfalls

- The tests fail until the lock file is refreshed.

## Verification

Run the project's declared check and see it pass.
"""


def write_skill(
    folder: Path, name: str, description: str = "A hand-written skill.", body: str = "Do it.\n"
) -> Path:
    path = Path(folder) / name / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nname: {name}\ndescription: {description}\n---\n\n{body}")
    return path
