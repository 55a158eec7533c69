"""The two ways edgar_min puts bytes on disk.

Whole files a person may read are replaced atomically (temp file in the same
folder, flush, fsync, `os.replace`): a crash leaves the old file or the new
one, never half. Logs grow by single `O_APPEND` writes of whole lines, so
several processes may append at once without losing or interleaving lines.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["append_line", "write_text"]


def write_text(path: Path, text: str) -> None:
    """Replace `path` with `text` (UTF-8) atomically, creating parent folders."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.parent / f".{path.name}.{os.getpid()}.tmp"
    data = text.encode("utf-8")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        tmp.unlink(missing_ok=True)
        raise
    os.close(fd)
    os.replace(tmp, path)


def append_line(path: Path | str, line: str) -> None:
    """Append one line (a newline is added) with a single O_APPEND write."""
    if "\n" in line or "\r" in line:
        msg = "a log line may not contain a line break"
        raise ValueError(msg)
    data = (line + "\n").encode("utf-8")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    except FileNotFoundError:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)
