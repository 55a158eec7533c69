"""The project's check, found where people declare one and recorded where the person can change it.

`edgar install` looks, in this order, for:

- pytest: `[tool.pytest.ini_options]` (or pytest 9's `[tool.pytest]`) in `pyproject.toml`, a
  `pytest.ini`, `[pytest]` in `tox.ini`, `[tool:pytest]` in `setup.cfg`: `python3 -m pytest -q`;
- a `test` script in `package.json` (not the placeholder `npm init` writes): `npm test`;
- a `test` target in a `Makefile` (`makefile`, `GNUmakefile`): `make test`;
- a `Cargo.toml`: `cargo test`;
- a `go.mod`: `go test ./...`.

The first found is recorded as `[check] command` in the project's `.edgar/config.toml`, the
file a person reads and edits, and that file is trusted in the same step (`check.command`
runs a program, so it takes effect from a project's file only once trusted, docs/security.md):
the person ran `install`, which is their consent. A file that already sets keys the person has
not trusted is left as it is: trusting it would trust those too; the sentence says what to add.
"""

from __future__ import annotations

import os

from edgar_min import trust
from edgar_min.atomic import write_text
from edgar_min.config import read_toml
from edgar_min.logfile import read_capped
from edgar_min.records import dataclass, replace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    from edgar_min.config import Config
    from edgar_min.layout import Layout

    State = Literal["declared", "recorded", "untrusted", "none"]

__all__ = ["Declared", "Found", "declare", "declare_and_say", "find_checks", "sentences"]

# A file that declares a check is a page of text; a larger one is not read.
MAX_BYTES = 1_000_000
PYTEST = ("python3", "-m", "pytest", "-q")
# What `npm init` writes when a person gives no test command: a script that only fails.
NPM_PLACEHOLDER = "no test specified"
OWN = "your own config"


@dataclass(frozen=True, slots=True)
class Found:
    """A check a project declares: the command, and the file that declares it."""

    command: tuple[str, ...]
    source: str


def _text(root: str, name: str) -> str | None:
    try:
        data = read_capped(os.path.join(root, name), MAX_BYTES)
    except OSError:
        return None
    if data is None or len(data) > MAX_BYTES:
        return None
    return data.decode("utf-8", "replace")


def _has_section(text: str, section: str) -> bool:
    """Whether an ini-style file has the `[section]` header."""
    return any(line.strip() == f"[{section}]" for line in text.splitlines())


def _pyproject_pytest(text: str) -> bool:
    import tomllib

    try:
        tool = tomllib.loads(text).get("tool")
    except (tomllib.TOMLDecodeError, RecursionError):
        return False
    pytest = tool.get("pytest") if isinstance(tool, dict) else None
    return isinstance(pytest, dict)


def _npm_test(text: str) -> bool:
    from edgar_min import jsoncodec

    try:
        scripts = jsoncodec.loads(text).get("scripts")
    except (ValueError, RecursionError, AttributeError):
        return False
    test = scripts.get("test") if isinstance(scripts, dict) else None
    return isinstance(test, str) and bool(test.strip()) and NPM_PLACEHOLDER not in test


def _make_test(text: str) -> bool:
    """Whether a Makefile has a rule whose targets include `test` (`test:`, `check test: all`)."""
    for line in text.splitlines():
        if not line or line[0] in "\t#" or ":" not in line:
            continue
        targets, _, rest = line.partition(":")
        if rest.startswith("=") or "=" in targets:  # `X := value`, `A = b:c`: an assignment
            continue
        if "test" in targets.split():
            return True
    return False


def find_checks(root: str) -> list[Found]:
    """Every check the project at `root` declares, in the order of preference."""
    found: list[Found] = []
    pyproject = _text(root, "pyproject.toml")
    if pyproject is not None and _pyproject_pytest(pyproject):
        found.append(Found(PYTEST, "pyproject.toml"))
    elif _text(root, "pytest.ini") is not None:
        found.append(Found(PYTEST, "pytest.ini"))
    else:
        for name, section in (("tox.ini", "pytest"), ("setup.cfg", "tool:pytest")):
            text = _text(root, name)
            if text is not None and _has_section(text, section):
                found.append(Found(PYTEST, name))
                break
    package = _text(root, "package.json")
    if package is not None and _npm_test(package):
        found.append(Found(("npm", "test"), "package.json"))
    for name in ("GNUmakefile", "makefile", "Makefile"):
        text = _text(root, name)
        if text is not None:
            if _make_test(text):
                found.append(Found(("make", "test"), name))
            break  # make reads the first of these it finds
    if os.path.isfile(os.path.join(root, "Cargo.toml")):
        found.append(Found(("cargo", "test"), "Cargo.toml"))
    if os.path.isfile(os.path.join(root, "go.mod")):
        found.append(Found(("go", "test", "./..."), "go.mod"))
    return found


@dataclass(frozen=True, slots=True)
class Declared:
    """What install made of the project's check: `state`, the command, and where it is declared.

    `declared`: a check was already in force (`source` says where); `recorded`: install found
    one in `source` and wrote it to the project's config (`trusted`: and trusted the file);
    `untrusted`: found, but the project's config holds keys the person has not trusted, so
    nothing was written; `none`: nothing found.
    """

    state: State
    command: tuple[str, ...] = ()
    source: str = ""
    also: tuple[Found, ...] = ()
    trusted: bool = False


def _toml_list(words: tuple[str, ...]) -> str:
    from edgar_min import jsoncodec

    return "[" + ", ".join(jsoncodec.dumps(w, ensure_ascii=False) for w in words) + "]"


def _with_check(text: str, table: dict[str, object], found: Found) -> str:
    """The config text with `command` in its `[check]` table (added at the end when it has none)."""
    line = f"command = {_toml_list(found.command)}  # found in {found.source} by `edgar install`"
    if "check" in table:
        lines = text.splitlines(keepends=True)
        for i, each in enumerate(lines):
            if each.strip().replace(" ", "") == "[check]":
                lines.insert(i + 1, line + "\n")
                return "".join(lines)
    lead = "" if not text else ("\n" if text.endswith("\n") else "\n\n")
    return f"{text}{lead}[check]\n{line}\n"


def declare(layout: Layout, config: Config, *, write: bool) -> Declared:
    """The project's check as install leaves it: kept, found and recorded (only when `write`), or
    none. `ConfigError` when the project's config cannot be read (nothing is written then)."""
    project = read_toml(layout.project_config)
    table = project[1] if project is not None else {}
    check = table.get("check")
    if isinstance(check, dict) and "command" in check:
        words = check["command"]
        if "check.command" in config.untrusted:
            return Declared(
                "untrusted", tuple(words) if isinstance(words, list) else (), layout.project_config
            )
        return Declared("declared", config.check.command, layout.project_config)
    if config.check.command:  # the person's own config, or their environment
        return Declared("declared", config.check.command, "your own config")
    found = find_checks(layout.root)
    if not found:
        return Declared("none")
    first, also = found[0], tuple(found[1:])
    if config.untrusted:
        return Declared("untrusted", first.command, first.source, also)
    if write:
        text = project[0].decode("utf-8") if project is not None else ""
        new = _with_check(text, table, first)
        write_text(layout.project_config, new, root=layout.root)
        own = trust.is_own(layout)
        if not own:
            trust.record(layout, new.encode("utf-8"))
        return Declared("recorded", first.command, first.source, also, trusted=not own)
    return Declared("recorded", first.command, first.source, also)


def sentences(layout: Layout, declared: Declared, *, dry_run: bool) -> list[str]:
    """What install says of the project's check, a line each."""
    import shlex

    shown = layout.relative(layout.project_config)
    command = shlex.join(declared.command)
    if declared.state == "none":
        said = (
            "no test command found (pytest, npm test, make test, cargo test, go test): edgar learns only "
            f"from your corrections until you declare one as [check] command in {shown}"
        )
        return [said]
    if declared.state == "declared":
        where = declared.source if declared.source == OWN else shown
        return [f"declared check: {command} (in {where})"]
    if declared.state == "untrusted":
        if declared.source == layout.project_config:
            said = f"{shown} declares the check {command}, which runs once you trust the file: `edgar trust`"
        else:
            said = (
                f"found the check {command} in {declared.source}, but {shown} sets keys you have not "
                f"trusted, so it was left as it is: add [check] command = {_toml_list(declared.command)} "
                "to it, read it, then run `edgar trust`"
            )
        return [said]
    said = f"found the check {command} in {declared.source}; "
    if dry_run:
        said += f"would record it as [check] command in {shown} and trust that file"
    elif declared.trusted:
        said += f"recorded it as [check] command in {shown} and trusted that file (`edgar trust --revoke`)"
    else:
        said += f"recorded it as [check] command in {shown}"
    lines = [said]
    if declared.also:
        others = ", ".join(f"{shlex.join(f.command)} ({f.source})" for f in declared.also)
        lines.append(
            f"also found: {others}; to use one, edit [check] command in {shown}, then run `edgar trust`"
        )
    return lines


def declare_and_say(layout: Layout, config: Config, *, dry_run: bool) -> tuple[dict[str, object], list[str]]:
    """`declare` (writing nothing on a dry run) as `install --json` reports it, and the lines it prints."""
    declared = declare(layout, config, write=not dry_run)
    document = {
        "state": declared.state,
        "command": list(declared.command),
        "source": declared.source,
        "trusted": declared.trusted,
        "also": [{"command": list(f.command), "source": f.source} for f in declared.also],
    }
    lines = sentences(layout, declared, dry_run=dry_run)
    if declared.state in ("declared", "recorded"):
        from edgar_min.delivery.verdict import describe

        # The hook never runs the check while the agent waits; where it cannot run it after
        # answering either, the person is told here too.
        line, trouble = describe(replace(config, check=replace(config.check, command=declared.command)))
        if trouble and line:
            lines.append(f"warning: {line}")
    return document, lines
