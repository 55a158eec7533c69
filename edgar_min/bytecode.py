"""Bytecode for the Python that runs `edgar.pyz`, and how the entry point hands imports to it.

The archive carries `.pyc` files for the Python that built it. Any other Python would compile
every module it imports from source, on every run; so the first run on another Python compiles
the whole package once into a copy with its own `.pyc` files,
`$XDG_CACHE_HOME/edgar/bytecode/KEY-MAGIC.zip` (default `~/.cache/...`), keyed by a hash of the
archive's directory (every entry's name, size and CRC-32) and this interpreter's magic number.
`use_archive` then installs the importer (`edgar_min.importer`) over that copy, or over the
archive's own bytecode on the builder's Python. Where nothing can be written (no home, a
read-only one, `python3 -B`), it installs the importer over the archive's sources.

The build puts a copy of this module at the top of the archive (`_edgar_bytecode`), where the
entry point runs it without the package; another Python compiles it from source on every run,
so it stays small and imports nothing of edgar's. The importer it needs there is the copy's
first entry, compiled for that Python; the writer (`bytecode_writer`) is imported only on the
run that writes.
"""

from __future__ import annotations

import marshal
import os
import sys
from importlib.util import MAGIC_NUMBER

__all__ = ["cache_file", "run", "use_archive"]

IMPORTER = "_edgar_importer"  # the archive's copy of edgar_min/importer.py

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
    # Read here, not by the importer: on another Python the importer comes from the copy this names.
    try:
        with open(archive, "rb") as handle:
            end_at = handle.seek(-22, os.SEEK_END)
            end = handle.read(22)
            if end[:4] != b"PK\x05\x06":
                return None  # a zip comment or not a zip: no cheap key, run from sources
            size = int.from_bytes(end[12:16], "little")
            handle.seek(max(0, end_at - size))
            listing = handle.read(size) + end
    except OSError:
        return None
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


def _write(archive: str, target: str) -> bool:
    """Write this interpreter's copy of `archive`'s bytecode at `target`; whether it can be used."""
    try:
        # Where the folder cannot be made, every run ends here: without importing the writer.
        os.makedirs(os.path.dirname(target), mode=0o700, exist_ok=True)
        from edgar_min.bytecode_writer import write_cache

        write_cache(archive, target)
    except (OSError, ValueError, SyntaxError):
        return False
    return _ours(target)


def _module(name: str, file: str, code: object) -> object:
    module = type(sys)(name)
    module.__file__ = file
    sys.modules[name] = module
    exec(code, module.__dict__)  # noqa: S102 - the archive's importer, or this Python's copy of it
    return module


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
    return _module(name, f"{path}/{name}.py", code)


def use_archive(archive: str, built_for: bytes, loader: object) -> bool:
    """Install the importer for `archive`, with bytecode for the running Python where it can.

    `built_for` is the magic number of the archive's own `.pyc` files, `loader` the zipimporter
    that runs the entry point. False when the archive cannot be read: then edgar cannot be
    imported at all.
    """

    def archived() -> object:
        # Not `import`: zipimport reads a module twice, and compiles twice one it has no bytecode for.
        return sys.modules.get(IMPORTER) or _module(
            IMPORTER, f"{archive}/{IMPORTER}.py", loader.get_code(IMPORTER)
        )

    if built_for == MAGIC_NUMBER:
        return archived().install(archive)
    target = cache_file(archive)
    if target is not None and _ours(target):
        importer = _first_module(target, IMPORTER)
        if importer is not None and importer.install(archive, target):
            return True
        # A damaged copy: from sources, and not rewritten (other runs may be reading it).
        return archived().install(archive)
    # The importer from the archive's source, so that the writer can be imported at all.
    if not archived().install(archive):
        return False
    # A file there that is not ours alone is never used, and never worth rewriting each run.
    if target is None or sys.dont_write_bytecode or os.path.lexists(target) or not _write(archive, target):
        return True
    importer = _first_module(target, IMPORTER)
    if importer is not None:
        importer.install(archive, target)
    return True


def run(loader: object, built_for: bytes) -> None:
    """The entry point's work after `--version`: the importer installed, then edgar's command line.

    `loader` is the zipimporter running the archive's `__main__`. An archive whose package
    cannot be read is a sentence and exit 2; edgar itself never gets to say anything then.
    """
    archive = loader.archive
    if not use_archive(archive, built_for, loader):
        sys.stderr.write(f"edgar: {archive} cannot be read, or is damaged; copy edgar.pyz again\n")
        sys.exit(2)
    from edgar_min.cli import leave, main

    leave(main())
