"""Bytecode for the Python that runs `edgar.pyz`, when it is not the one that built it.

zipimport takes only legacy `.pyc` files beside each `.py`, and those are for the builder's
Python: any other one would compile every module it imports from source, on every run. So
the first run on another Python compiles the whole archive once into a copy with its own
`.pyc` files, `$XDG_CACHE_HOME/edgar/bytecode/KEY-MAGIC.zip` (default `~/.cache/...`), keyed
by a hash of the archive's directory (every entry's name, size and CRC-32) and this
interpreter's magic number; later runs import from the copy. Where nothing can be written
(no home, a read-only one, `python3 -B`), edgar runs from its sources, as before.

The build puts a copy of this module at the top of the archive (`_edgar_bytecode`), where the
entry point imports it without the package; another Python compiles it from source on every
run, so it stays small, imports nothing of edgar's, and the writer (`bytecode_writer`) is
imported only on the run that writes.
"""

from __future__ import annotations

import os
import sys
from importlib.util import MAGIC_NUMBER

__all__ = ["cache_file", "use_cache"]

_PRIME = 2**61 - 1


def cache_file(archive: str, environ: dict[str, str] | None = None) -> str | None:
    """Where this interpreter's bytecode for `archive` lives, or None when there is no home."""
    environ = os.environ if environ is None else environ
    base = environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG rule: a relative value is ignored
        home = environ.get("HOME", "")
        if not os.path.isabs(home):
            return None
        base = os.path.join(home, ".cache")
    try:
        with open(archive, "rb") as handle:
            handle.seek(-22, os.SEEK_END)
            end = handle.read(22)
            if end[:4] != b"PK\x05\x06":
                return None  # a zip comment or not a zip: no cheap key, run from sources
            size = int.from_bytes(end[12:16], "little")
            handle.seek(-22 - size, os.SEEK_END)
            directory = handle.read(size) + end
    except OSError:
        return None
    # The directory as one number modulo the prime 2**61 - 1: a change to any one field (a
    # CRC-32, a size, a name) always changes it, and it needs no extension module (zlib).
    key = f"{int.from_bytes(directory, 'little') % _PRIME:016x}{len(directory):x}"
    return os.path.join(base, "edgar", "bytecode", f"{key}-{MAGIC_NUMBER.hex()}.zip")


def _ours(path: str) -> bool:
    """A regular file of this user's that nobody else may write: safe to import from."""
    try:
        info = os.stat(path)
    except OSError:
        return False
    owner = os.geteuid() if hasattr(os, "geteuid") else info.st_uid
    return (info.st_mode & 0o170022) == 0o100000 and info.st_uid == owner


def use_cache(archive: str) -> bool:
    """Import edgar from this interpreter's bytecode for `archive`, written first if need be.

    Returns False, changing nothing, when that cannot be done: edgar then runs from sources.
    """
    target = cache_file(archive)
    if target is None:
        return False
    if not _ours(target):
        # A file there that is not ours alone is never used, and never worth rewriting each run.
        if sys.dont_write_bytecode or os.path.lexists(target):
            return False
        try:
            # Where the folder cannot be made, every run ends here: without importing the writer.
            os.makedirs(os.path.dirname(target), mode=0o700, exist_ok=True)
            from edgar_min.bytecode_writer import write_cache

            write_cache(archive, target)
        except (OSError, ValueError, SyntaxError):
            return False
        if not _ours(target):
            return False
    sys.path.insert(0, target)
    # Modules already imported from the archive's sources (this one, the package) go, so that
    # every edgar module of this run comes from the copy.
    for name in [n for n in sys.modules if n == "edgar_min" or n.startswith("edgar_min.")]:
        del sys.modules[name]
    return True
