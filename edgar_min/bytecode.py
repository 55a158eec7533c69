"""Bytecode for the Python that runs `edgar.pyz`, and how the entry point hands imports to it.

The archive carries `.pyc` files for the Python that built it. Any other Python would compile
every module it imports from source, on every run; so the first run on another Python compiles
the whole package once into a copy with its own `.pyc` files,
`$XDG_CACHE_HOME/edgar/bytecode/KEY-MAGIC.zip` (default `~/.cache/...`), named by the archive's
directory (every entry's name, size and CRC-32) and this interpreter's magic number.
`use_archive` then installs the importer (`edgar_min.importer`) over that copy, or over the
archive's own bytecode on the builder's Python, or over the archive's sources where there is no
copy it may use (no home, a read-only one, `python3 -B`, a refused folder).

A copy is bytecode that runs, so it is read only from places nobody else can write: `edgar/`
and `edgar/bytecode/` are each opened without following a link and must be folders of this
user's that no other user may write (they are made 0700), and the copy such a file. The name
is not a digest of the archive, so the copy's bytecode runs only for the source it records, as
the archive holds it now: the importer checks each module, and this module the importer.

The build puts a copy of this module at the top of the archive (`_edgar_bytecode`), where the
entry point runs it without the package; another Python compiles it from source on every run,
so it stays small and imports nothing of edgar's (the folder checks cost about 0.4 ms of
compiling there). The importer it needs there is the copy's entry after its listing, compiled
for that Python; the writer (`bytecode_writer`) is imported only on the run that writes.
"""

from __future__ import annotations

import marshal
import os
import stat
import sys
from importlib.util import MAGIC_NUMBER, source_hash

__all__ = ["cache_file", "run", "use_archive"]

IMPORTER = "_edgar_importer"  # edgar_min.importer.IMPORTER, which this module cannot import
FOLDERS = ("edgar", "bytecode")  # what edgar makes in the cache folder, each private to the user

_PRIME = 2**61 - 1
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
# Non-blocking: a fifo where a copy belongs is opened (then refused), not waited on.
_READ = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)
# Where a folder cannot be opened relative to another without following a link (Windows), no
# copy is read or written: every run compiles from the archive's sources.
_SAFE = bool(_NOFOLLOW) and hasattr(os, "geteuid") and {os.open, os.mkdir, os.stat} <= os.supports_dir_fd


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
    # CRC-32, a size, a name) always changes it, and it needs no extension module (zlib). A
    # name, not a digest: what the directory states, not the data, and collisions can be made.
    key = f"{int.from_bytes(listing, 'little') % _PRIME:016x}{len(listing):x}"
    return os.path.join(base, *FOLDERS, f"{key}-{MAGIC_NUMBER.hex()}.zip")


def _open(folder: int, name: str, path: str, kind: int) -> int | str | None:
    """`name` in the open `folder`, opened without following a link, if it is a `kind` (a folder
    or a plain file) of this user's that no other user may write; else the sentence why it may
    not hold bytecode that runs, or None when nothing is there (or it cannot be read)."""
    fd = None
    try:
        fd = os.open(name, _READ | _NOFOLLOW | (os.O_DIRECTORY if kind == stat.S_IFDIR else 0), dir_fd=folder)
        info = os.fstat(fd)
    except FileNotFoundError:
        return None
    except OSError:  # a link, or a file where a folder belongs: said by what is there
        try:
            info = os.stat(name, dir_fd=folder, follow_symlinks=False)
        except OSError:
            return None
    if stat.S_IFMT(info.st_mode) != kind:
        what = "not a folder" if kind == stat.S_IFDIR else "not a plain file"
        why = f"{path} is {'a symbolic link' if stat.S_ISLNK(info.st_mode) else what}"
    elif info.st_uid != os.geteuid():
        why = f"{path} belongs to another user"
    elif info.st_mode & 0o022:
        why = f"{path} can be written by other users"
    else:
        return fd  # None when it could not be opened (no permission): not used, not refused
    if fd is not None:
        os.close(fd)
    return why


def _folder(copy: str) -> int | str | None:
    """The open folder that holds `copy`, walked down from the cache folder; else the sentence
    why it may not be used, or None when it is missing."""
    path = os.path.dirname(os.path.dirname(os.path.dirname(copy)))
    try:
        fd = os.open(path, _READ | os.O_DIRECTORY)  # the person's choice, which may be a link
    except OSError:
        return None
    for part in FOLDERS:
        path = os.path.join(path, part)
        found = _open(fd, part, path, stat.S_IFDIR)
        os.close(fd)
        if not isinstance(found, int):
            return found
        fd = found
    return fd


def _write(archive: str, folder: int, name: str) -> bool:
    """Write this interpreter's copy of `archive`'s bytecode as `name` in `folder`; whether it did."""
    try:
        from edgar_min.bytecode_writer import write_cache

        write_cache(archive, folder, name)
    except (OSError, ValueError, SyntaxError):
        return False
    return True


def _module(name: str, file: str, code: object) -> object:
    module = type(sys)(name)
    module.__file__ = file
    sys.modules[name] = module
    exec(code, module.__dict__)  # noqa: S102 - the archive's importer, or this Python's copy of it
    return module


def _first_module(fd: int, path: str, archive: str, loader: object) -> object | None:
    """The importer, from the `.pyc` that follows the listing of the copy open at `fd` (at
    `path`), if it is one, compiled from the importer's source in `archive`."""
    entry = f"{IMPORTER}.pyc".encode()
    try:
        head = os.pread(fd, 30, 0)  # the listing's local header: the importer's follows its data
        at = 30 + int.from_bytes(head[18:22], "little") + int.from_bytes(head[26:28], "little")
        at += int.from_bytes(head[28:30], "little")
        head = os.pread(fd, 30 + len(entry), at)
        size = int.from_bytes(head[18:22], "little")
        data = os.pread(fd, size, at + len(head) + int.from_bytes(head[28:30], "little"))
        if head[:4] != b"PK\x03\x04" or head[30:] != entry or data[:4] != MAGIC_NUMBER:
            return None
        if data[8:16] != source_hash(loader.get_data(f"{archive}/{IMPORTER}.py")):
            return None  # bytecode of another source than the archive's
        code = marshal.loads(memoryview(data)[16:])  # noqa: S302 - the archive's importer, in a private copy
    except (OSError, ImportError, ValueError, EOFError, TypeError):  # ImportError: zipimport's
        return None
    return _module(IMPORTER, f"{path}/{IMPORTER}.py", code)


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
    path = cache_file(archive) if _SAFE else None
    folder = None if path is None else _folder(path)
    if folder is None and path is not None and not sys.dont_write_bytecode:
        # Each level in turn, since makedirs gives its mode to the last folder only: 0700, which
        # a umask can only narrow. Then walked and checked like any other.
        made = os.path.dirname(path)
        for each in (os.path.dirname(os.path.dirname(made)), os.path.dirname(made), made):
            try:
                os.makedirs(each, 0o700)
            except OSError:  # there already, or nothing can be made here (then without the writer)
                pass
        folder = _folder(path)
    copy = folder
    if isinstance(folder, int):
        name = os.path.basename(path)
        copy = _open(folder, name, path, stat.S_IFREG)
        # The importer from the archive's source first, so that the writer can be imported at all.
        if copy is None and not sys.dont_write_bytecode and archived().install(archive):
            copy = _open(folder, name, path, stat.S_IFREG) if _write(archive, folder, name) else None
        os.close(folder)
    if isinstance(copy, int):
        importer = _first_module(copy, path, archive, loader)
        if importer is not None and importer.install(archive, (path, copy)):
            return True
        os.close(copy)
        copy = f"{path} is damaged, or is not bytecode of {archive}"
    # No copy it may use: from sources, and none rewritten (other runs may be reading it). Why
    # one is refused goes with the importer, for `doctor` to say.
    return archived().install(archive, refused=copy)


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
