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


# A valid body whose Procedure shows a README snippet: a four-backtick fence holding three-backtick
# blocks, with a line between them that repeats (as code does). The shorter runs are code.
NESTED_FENCE_BODY = """\
## When to use

When a project's README must show how to run each of its checks.

## Procedure

1. Add a usage block to the README, one fenced command per check:

````markdown
```sh
make lint
```
Expect the command to exit with status zero.
```sh
make test
```
**Verification**
Expect the command to exit with status zero.
```sh
make build
```
Expect the command to exit with status zero.
````

2. Keep the commands in the order the CI runs them.

## Pitfalls

- A command the CI no longer runs misleads a new contributor.

## Verification

Run each command from the README in a fresh clone and see it pass.
"""
