"""`install` offers the person's own agent as the model that writes skills, and says how to undo it.

Where no `[model]` is configured, the offline writer's skills restate a turn's outline; the
person already runs a capable model, the agent itself, logged in with their own account.
Installing its hooks therefore also sets, in the person's own config (`$EDGAR_HOME/config.toml`,
a layer only they write, so trusted), a `[model]` table that has the agent write skills in its
headless mode (models/agent_cli.py), with the program found on PATH by absolute path. The
table is appended as one marked block; nothing else in the file changes. `--offline-writer`
declines it, and takes out a block install wrote before, byte for byte. A person's own
`[model]` table, anywhere, is never touched.
"""

from __future__ import annotations

import os

from edgar_min.atomic import write_text
from edgar_min.errors import BadInput
from edgar_min.logfile import read_capped
from edgar_min.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Literal

    from edgar_min.config import Config
    from edgar_min.layout import Layout

    Action = Literal["set", "kept", "removed", "none"]

__all__ = ["MARK", "WriterOffer", "offer_writer"]

# The first line of the block install writes: how it finds the block again.
MARK = "# [model] written by `edgar install"
# The agents whose headless mode writes skills, by the name `install` takes.
WRITERS = {"claude-code": ("claude-code", "claude")}
MAX_CONFIG_BYTES = 1_000_000


@dataclass(frozen=True, slots=True)
class WriterOffer:
    """What install did about the model that writes skills, and the sentence that says so."""

    action: Action
    sentence: str
    path: str
    program: str | None = None


def _block(agent: str, provider: str, program: str) -> str:
    from edgar_min import jsoncodec

    return (
        f"{MARK} {agent}`: skills are written by {agent} headless, with no tools, from each\n"
        f"# turn's outline only; undo with `edgar install {agent} --offline-writer`.\n"
        f"[model]\nprovider = {jsoncodec.dumps(provider)}\ncommand = [{jsoncodec.dumps(program)}]\n"
    )


def _read(path: str) -> str | None:
    try:
        data = read_capped(path, MAX_CONFIG_BYTES)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        msg = f"{path}: cannot be read ({exc.strerror}); the model that writes skills was left alone"
        raise BadInput(msg) from None
    if data is None or len(data) > MAX_CONFIG_BYTES:
        msg = f"{path}: not a plain config file; the model that writes skills was left alone"
        raise BadInput(msg)
    return data.decode("utf-8", "replace")


def _ours(text: str) -> tuple[int, int] | None:
    """Where the block install wrote is in `text` (start, end), if it is there as written."""
    start = text.find(MARK)
    if start < 0:
        return None
    end = text.find("]\n", text.find("command = [", start))
    return (start, end + 2) if end > 0 else None


def _mode(path: str) -> int:
    """The permissions the config has (a new one: the person's alone)."""
    try:
        return os.stat(path).st_mode & 0o777
    except OSError:
        return 0o600


def _take_out(path: str, text: str, where: tuple[int, int]) -> None:
    """The config without install's block (and the blank line install put before it); no file when
    nothing else is left."""
    before = text[: where[0]]
    if before.endswith("\n\n"):
        before = before[:-1]
    rest = before + text[where[1] :]
    if rest.strip():
        write_text(path, rest, mode=_mode(path))
    else:
        os.remove(path)


def offer_writer(
    layout: Layout,
    config: Config,
    agent: str,
    *,
    decline: bool,
    dry_run: bool,
    environ: Mapping[str, str] | None = None,
) -> WriterOffer:
    """Set (or with `decline`, take out) the agent as the model that writes skills in the person's config."""
    import shutil
    import tomllib

    path = layout.user_config
    shown = path.replace(os.path.expanduser("~"), "~", 1)
    if agent not in WRITERS:
        return WriterOffer("none", "", path)
    provider, program_name = WRITERS[agent]
    text = _read(path)
    found = _ours(text) if text is not None else None
    if decline:
        if found is None:
            said = "skills: written by the offline writer (nothing set)"
            return WriterOffer("none", said if config.model.provider == "offline" else "", path)
        if not dry_run:
            _take_out(path, text, found)  # type: ignore[arg-type]  # found: the text holds the block
        return WriterOffer(
            "removed", f"skills: the offline writer again; took edgar's [model] out of {shown}", path
        )
    if found is not None:
        return WriterOffer("kept", f"skills: written by {agent} headless, as {shown} says", path)
    try:
        table = tomllib.loads(text or "")
    except tomllib.TOMLDecodeError:
        return WriterOffer("none", f"skills: {shown} is not valid TOML, so the offline writer stays", path)
    if "model" in table or config.model.provider != "offline":
        return WriterOffer("none", "", path)  # a model the person chose
    env = os.environ if environ is None else environ
    program = shutil.which(program_name, path=env.get("PATH"))
    if program is None:
        sentence = f"skills: written by the offline writer ({program_name!r} is not on PATH to write them)"
        return WriterOffer("none", sentence, path)
    program = os.path.abspath(program)
    if not dry_run:
        before = text or ""
        if before and not before.endswith("\n"):
            before += "\n"
        write_text(
            path,
            (before + "\n" if before.strip() else "") + _block(agent, provider, program),
            mode=_mode(path),
        )
    sentence = (
        f"skills: written by {agent} headless ({program}, no tools, given only each turn's outline) "
        f"after a trigger fired, in the background; set in {shown} [model]; "
        f"keep the offline writer instead: edgar install {agent} --offline-writer"
    )
    return WriterOffer("set", sentence, path, program)
