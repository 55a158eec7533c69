"""Bytecode for the Python that runs `edgar.pyz`, and the importer that runs edgar from it.

zipimport takes only legacy `.pyc` files beside each `.py`, and those are for the builder's
Python: any other one would compile every module it imports from source, on every run. So
the first run on another Python compiles the whole archive once into a copy with its own
`.pyc` files, `$XDG_CACHE_HOME/edgar/bytecode/KEY-MAGIC.zip` (default `~/.cache/...`), keyed
by a hash of the archive's directory (every entry's name, size and CRC-32) and this
interpreter's magic number; later runs import from the copy through `edgar_min.importer`, as
the builder's Python imports from the archive's own `.pyc` files. Where nothing can be written
(no home, a read-only one, `python3 -B`), edgar runs from its sources, as before.

The build puts a copy of this module at the top of the archive (`_edgar_bytecode`), where the
entry point imports it without the package; another Python compiles it from source on every
run, so it stays small and imports nothing of edgar's. The importer it needs there is the
copy's first entry, compiled for that Python; the writer (`bytecode_writer`) is imported only
on the run that writes.
"""

from __future__ import annotations

import marshal
import os
import sys
from importlib.util import MAGIC_NUMBER

__all__ = ["cache_file", "use_archive"]

IMPORTER = "_edgar_importer"  # the archive's copy of edgar_min/importer.py

_PRIME = 2**61 - 1


def directory(archive: str) -> tuple[bytes, int] | None:
    """A zip's central directory with its end record, and where the zip starts in the file.

    None for a zip with a comment, or anything that is not a zip: no cheap reading of it.
    """
    try:
        with open(archive, "rb") as handle:
            end_at = handle.seek(-22, os.SEEK_END)
            end = handle.read(22)
            if end[:4] != b"PK\x05\x06":
                return None
            size = int.from_bytes(end[12:16], "little")
            if size > end_at:
                return None
            handle.seek(end_at - size)
            listing = handle.read(size) + end
    except OSError:
        return None
    # A prefix before the zip (the `#!` line) moves every offset the directory gives.
    return listing, end_at - size - int.from_bytes(end[16:20], "little")


def cache_file(archive: str, environ: dict[str, str] | None = None) -> str | None:
    """Where this interpreter's bytecode for `archive` lives, or None when there is no home."""
    environ = os.environ if environ is None else environ
    base = environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG rule: a relative value is ignored
        home = environ.get("HOME", "")
        if not os.path.isabs(home):
            return None
        base = os.path.join(home, ".cache")
    found = directory(archive)
    if found is None:
        return None
    listing = found[0]
    # The directory as one number modulo the prime 2**61 - 1: a change to any one field (a
    # CRC-32, a size, a name) always changes it, and it needs no extension module (zlib).
    key = f"{int.from_bytes(listing, 'little') % _PRIME:016x}{len(listing):x}"
    return os.path.join(base, "edgar", "bytecode", f"{key}-{MAGIC_NUMBER.hex()}.zip")


def _ours(path: str) -> bool:
    """A regular file of this user's that nobody else may write: safe to import from."""
    try:
        info = os.stat(path)
    except OSError:
        return False
    owner = os.geteuid() if hasattr(os, "geteuid") else info.st_uid
    return (info.st_mode & 0o170022) == 0o100000 and info.st_uid == owner


def _cached(archive: str) -> str | None:
    """This interpreter's bytecode copy of `archive`, written first if need be; None if none."""
    target = cache_file(archive)
    if target is None:
        return None
    if not _ours(target):
        # A file there that is not ours alone is never used, and never worth rewriting each run.
        if sys.dont_write_bytecode or os.path.lexists(target):
            return None
        try:
            # Where the folder cannot be made, every run ends here: without importing the writer.
            os.makedirs(os.path.dirname(target), mode=0o700, exist_ok=True)
            from edgar_min.bytecode_writer import write_cache

            write_cache(archive, target)
        except (OSError, ValueError, SyntaxError):
            return None
        if not _ours(target):
            return None
    return target


def _first_module(path: str, name: str) -> object | None:
    """Module `name` from the `.pyc` that is the first entry of the zip at `path`, if it is."""
    entry = f"{name}.pyc".encode()
    try:
        with open(path, "rb") as handle:
            head = handle.read(30 + len(entry))
            size = int.from_bytes(head[18:22], "little")
            handle.seek(int.from_bytes(head[28:30], "little"), os.SEEK_CUR)
            data = handle.read(size)
        if head[:4] != b"PK\x03\x04" or head[30:] != entry or data[:4] != MAGIC_NUMBER:
            return None
        code = marshal.loads(memoryview(data)[16:])  # noqa: S302 - bytecode in a private copy (_ours)
    except (OSError, ValueError, EOFError, TypeError):
        return None
    module = type(sys)(name)
    module.__file__ = f"{path}/{name}.py"
    sys.modules[name] = module
    exec(code, module.__dict__)  # noqa: S102 - the importer, compiled by this Python's first run
    return module


def use_archive(archive: str, built_for: bytes) -> bool:
    """Import edgar from `archive` with bytecode for the running Python, through the importer.

    `built_for` is the magic number of the archive's own `.pyc` files. Returns False, changing
    nothing, when there is no such bytecode: zipimport then imports edgar from the sources.
    """
    if not hasattr(os, "pread"):
        return False
    listing = directory(archive)
    if listing is None:
        return False
    if built_for == MAGIC_NUMBER:
        code, code_listing = archive, listing
        importer = __import__(IMPORTER)
    else:
        code = _cached(archive)
        code_listing = None if code is None else directory(code)
        importer = None if code_listing is None else _first_module(code, IMPORTER)
    if importer is None:
        return False
    return importer.install(archive, code, code_listing, listing)
