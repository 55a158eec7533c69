"""Which project configs the person trusts: the record `edgar trust` keeps in their own folder.

A project's `.edgar/config.toml` arrives with a checkout, so it is input, not the person's
choice. The keys that could send data somewhere, run a program, widen what is written or change
the gate's mode (config.py marks them) take effect from it only once the person has trusted that
exact file: `edgar trust` records its sha256 in `$EDGAR_HOME/trusted.json`, and any change to
the file withdraws the trust, as `direnv allow` does.
"""

from __future__ import annotations

import os

from edgar_min import jsoncodec
from edgar_min.atomic import write_text
from edgar_min.digests import sha256_hex
from edgar_min.errors import BadInput
from edgar_min.invocation import program
from edgar_min.logfile import read_capped, timestamp

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from edgar_min.layout import Layout

__all__ = ["config_key", "forget", "is_own", "read_record", "record", "trusted", "untrusted_sentence"]

MAX_RECORD_BYTES = 1_000_000
RECORD_VERSION = 1


def config_key(layout: Layout) -> str:
    """Where the record keeps the project config: the root's real path, then `.edgar/config.toml`.

    Links inside the project are not resolved: a checkout that links its config to a file the
    person trusted for another project holds a file nobody trusted here.
    """
    return os.path.join(os.path.realpath(layout.root), ".edgar", "config.toml")


def is_own(layout: Layout) -> bool:
    """Whether the project config is the person's own config file (`$EDGAR_HOME` is the root's `.edgar`)."""
    try:
        return os.path.samefile(layout.project_config, layout.user_config)
    except (OSError, ValueError):
        return False


def trusted(layout: Layout, data: bytes) -> bool:
    """Whether the person trusts the project config whose bytes are `data`."""
    if is_own(layout):
        return True
    entry = read_record(layout).get(config_key(layout))
    return entry is not None and entry.get("sha256") == sha256_hex(data)


def read_record(layout: Layout, *, strict: bool = False) -> dict[str, dict[str, str]]:
    """The trusted configs, by `config_key`, each with its `sha256` and `time`; {} when there are none.

    A record that cannot be read or is not in shape trusts nothing; with `strict` it is a
    sentence instead, so that `edgar trust` never writes over a file it could not read.
    """
    path = layout.trust_record
    try:
        data = read_capped(path, MAX_RECORD_BYTES)
    except (FileNotFoundError, NotADirectoryError):
        return {}
    except OSError as exc:
        return _unreadable(path, f"cannot be read ({exc.strerror})", strict)
    if data is None:
        return _unreadable(path, "is not a plain file", strict)
    if len(data) > MAX_RECORD_BYTES:
        return _unreadable(path, f"is larger than {MAX_RECORD_BYTES:,} bytes", strict)
    try:
        document = jsoncodec.loads(data)
    except (ValueError, RecursionError):
        return _unreadable(path, "is not JSON", strict)
    files = document.get("files") if isinstance(document, dict) else None
    if not isinstance(files, dict) or not all(
        isinstance(entry, dict) and isinstance(entry.get("sha256"), str) for entry in files.values()
    ):
        return _unreadable(path, 'is not a trust record (a "files" object of sha256 entries)', strict)
    return files


def _unreadable(path: str, what: str, strict: bool) -> dict[str, dict[str, str]]:
    if strict:
        msg = f"{path} {what}; edgar keeps its trust record there: move the file away, then trust again"
        raise BadInput(msg)
    return {}


def record(layout: Layout, data: bytes) -> str:
    """Trust the project config whose bytes are `data`; return their sha256."""
    files = read_record(layout, strict=True)
    digest = sha256_hex(data)
    files[config_key(layout)] = {"sha256": digest, "time": timestamp()}
    _write(layout, files)
    return digest


def forget(layout: Layout) -> bool:
    """Withdraw the trust in the project config; False when there was none to withdraw."""
    files = read_record(layout, strict=True)
    if files.pop(config_key(layout), None) is None:
        return False
    _write(layout, files)
    return True


def _write(layout: Layout, files: dict[str, dict[str, str]]) -> None:
    document = {"version": RECORD_VERSION, "files": files}
    # ASCII: a path with bytes that are not UTF-8 is kept as an escape, not refused.
    text = jsoncodec.dumps(document, ensure_ascii=True, indent=2, sort_keys=True) + "\n"
    # Only its owner needs to read which projects they trust.
    write_text(layout.trust_record, text, root=layout.home, mode=0o600)


def untrusted_sentence(layout: Layout, keys: Iterable[str]) -> str:
    """The one sentence saying which keys of the project config were left out, and how to trust it."""
    names = list(keys)
    shown, command = _where(layout)
    take = "takes" if len(names) == 1 else "take"
    again = " (it changed since you trusted it)" if config_key(layout) in read_record(layout) else ""
    return (
        f"{shown} sets {', '.join(names)}, which {take} effect only once you trust this file{again}: "
        f"run `{command}`"
    )


def _where(layout: Layout) -> tuple[str, str]:
    """The project config as a person in the current folder reads it, and the command that trusts it."""
    try:
        here = os.path.realpath(os.getcwd())
    except OSError:
        here = ""
    if here == os.path.realpath(layout.root):
        return layout.relative(layout.project_config), f"{program()} trust"
    import shlex  # only for a project other than the current folder's

    return layout.project_config, f"{program()} --root {shlex.quote(layout.root)} trust"
