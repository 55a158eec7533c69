"""The importer `edgar.pyz` runs its own modules with: each one read once, from one packed entry.

The archive keeps the package in one stored entry, `edgar_min.zip` (its sources and the
builder's `.pyc` files), so that the archive's own directory, which zipimport reads in Python on
every run, has a handful of entries instead of two hundred. That zip's first entry, `.listing`,
is its directory as the build wrote it, read at once: walking two hundred directory entries in
Python was a fiftieth of a prompt hook. Without it (or damaged) the directory is walked.
`ArchiveImporter` goes first on `sys.meta_path` for `edgar_min` and reads each module with
one read: its bytecode from the packed entry, or from this Python's copy of it
(`edgar_min.bytecode`); a module without bytecode for this Python is compiled from its source,
once (zipimport compiles such a module twice, and reads every `.pyc` twice). Bytecode from the
copy runs only when the source hash it records is that of the module's source in the archive:
the copy is named by the archive's directory, not by a digest of its data, so a stale or
planted module is compiled from the archive's source instead.

The build puts a copy of this module at the top of the archive (`_edgar_importer`), and the
bytecode copy for another Python has it right after its own listing, so that Python loads it
already compiled.
"""

from __future__ import annotations

import marshal
import os
import sys
from importlib.machinery import ModuleSpec
from importlib.util import MAGIC_NUMBER, source_hash

__all__ = [
    "IMPORTER",
    "LISTING",
    "PACKED",
    "ArchiveImporter",
    "directory",
    "entries",
    "install",
    "listed",
    "packed",
]

IMPORTER = "_edgar_importer"  # this module's name at the top of the archive, and in a copy
PACKAGE = "edgar_min"
PACKED = "edgar_min.zip"  # the archive's entry holding the package
# The packed zip's first entry: {name: (where its local header is, counted from the end of this
# entry, its size)} for every other entry, marshalled (the archive's own data, like its bytecode).
LISTING = ".listing"
_END = b"PK\x05\x06"  # the end of a zip's central directory, 22 bytes without a comment
_ENTRY = b"PK\x01\x02"  # a central directory entry
_LOCAL = b"PK\x03\x04"  # a local file header

Listing = dict[str, tuple[int, int]]  # entry name -> where its local header is in the file, its size


def directory(path: str, end: int | None = None) -> tuple[bytes, int] | None:
    """The central directory of the zip that ends at `end` in `path` (default: the file's end).

    Returned with its end record, and with where that zip starts in the file; None for a zip
    with a comment, or anything that is not a zip: no cheap reading of it.
    """
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        return _directory(fd, end)
    finally:
        os.close(fd)


def _directory(fd: int, end: int | None) -> tuple[bytes, int] | None:
    try:
        end_at = (os.fstat(fd).st_size if end is None else end) - 22
        record = _pread(fd, 22, end_at)
        if record[:4] != _END:
            return None
        size = int.from_bytes(record[12:16], "little")
        if size > end_at:
            return None
        listing = _pread(fd, size, end_at - size) + record
    except (OSError, ValueError):
        return None
    # A prefix before the zip (the `#!` line, or the archive around a packed zip) moves every
    # offset the directory gives.
    return listing, end_at - size - int.from_bytes(record[16:20], "little")


def entries(listing: bytes, start: int) -> Listing:
    """Each uncompressed entry of a zip directory: where its local header is in the file, and its size.

    `start` is where the zip begins in the file. Raises ValueError for anything that is not a
    zip directory.
    """
    found: Listing = {}
    at, last = 0, len(listing) - 22  # the end record closes it
    while at < last:
        if listing[at : at + 4] != _ENTRY:
            msg = "not a zip central directory"
            raise ValueError(msg)
        method = int.from_bytes(listing[at + 10 : at + 12], "little")
        size = int.from_bytes(listing[at + 20 : at + 24], "little")
        name_size = int.from_bytes(listing[at + 28 : at + 30], "little")
        skip = int.from_bytes(listing[at + 30 : at + 32], "little")
        skip += int.from_bytes(listing[at + 32 : at + 34], "little")
        local = int.from_bytes(listing[at + 42 : at + 46], "little")
        if method == 0:
            name = listing[at + 46 : at + 46 + name_size].decode("utf-8", "replace")
            found[name] = (start + local, size)
        at += 46 + name_size + skip
    return found


def _pread(fd: int, size: int, offset: int) -> bytes:
    """`os.pread`, or a seek and a read where the platform has no pread (Windows)."""
    if _HAS_PREAD:
        return os.pread(fd, size, offset)
    os.lseek(fd, offset, os.SEEK_SET)
    return os.read(fd, size)


_HAS_PREAD = hasattr(os, "pread")


def read_entry(fd: int, where: tuple[int, int], name: str) -> bytes | None:
    """The data of the stored entry `name` at `where`, or None when the file does not hold it."""
    offset, size = where
    head = 30 + len(name.encode())
    data = _pread(fd, head + size, offset)
    if data[:4] != _LOCAL:
        return None
    name_size = int.from_bytes(data[26:28], "little")
    extra = int.from_bytes(data[28:30], "little")
    if data[30:head] != name.encode():  # another entry than the listing says
        return None
    if extra or name_size != head - 30:  # a local header unlike its directory entry
        data = _pread(fd, size, offset + 30 + name_size + extra)
        return data if len(data) == size else None
    return data[head:] if len(data) == head + size else None


def _listing(found: tuple[bytes, int] | None) -> Listing | None:
    """The `entries` of a directory `directory` found; None for none, or one that is damaged."""
    if found is None:
        return None
    try:
        return entries(*found)
    except ValueError:
        return None


def packed(archive: str) -> int | None:
    """Where the packed package's zip ends in `archive`, or None when the archive has none."""
    span = _packed_span(archive)
    return None if span is None else span[1]


def _packed_span(archive: str) -> tuple[int, int] | None:
    """Where the packed package's zip starts and ends in `archive`, or None when it has none."""
    try:
        fd = os.open(archive, os.O_RDONLY)
    except OSError:
        return None
    try:
        found = _listing(_directory(fd, None))
        where = None if found is None else found.get(PACKED)
        head = b"" if where is None else _pread(fd, 30, where[0])
    except OSError:
        return None
    finally:
        os.close(fd)
    if head[:4] != _LOCAL:
        return None
    start = where[0] + 30 + int.from_bytes(head[26:28], "little") + int.from_bytes(head[28:30], "little")
    return start, start + where[1]


def listed(archive: str, start: int, end: int) -> Listing | None:
    """The entries of the zip from `start` to `end` in `archive` from its first entry, `LISTING`,
    as `entries` gives them; None when it has no such entry, or one that is not this zip's.

    A zip rewritten since (an entry added, removed or resized) moves its directory or changes
    its count: the listing's last entry must end where the directory begins, and the directory
    must count the listing's entries and the listing itself.
    """
    try:
        fd = os.open(archive, os.O_RDONLY)
    except OSError:
        return None
    try:
        return _listed(fd, start, end)
    finally:
        os.close(fd)


def _listed(fd: int, start: int, end: int) -> Listing | None:
    name = LISTING.encode()
    try:
        head = _pread(fd, 30 + len(name), start)
        record = _pread(fd, 22, end - 22)
        if head[:4] != _LOCAL or head[30:] != name or head[8:10] != b"\0\0" or record[:4] != _END:
            return None  # not a stored listing first, or a zip with a comment
        size = int.from_bytes(head[22:26], "little")
        base = start + len(head) + int.from_bytes(head[28:30], "little")
        found = marshal.loads(_pread(fd, size, base))  # noqa: S302 - the archive's own data, like its bytecode
        base += size
        last, (at, length) = next(reversed(found.items()))
        if int.from_bytes(record[10:12], "little") != len(found) + 1 or (
            base + at + 30 + len(last.encode()) + length != start + int.from_bytes(record[16:20], "little")
        ):
            return None
        return {key: (base + at, length) for key, (at, length) in found.items()}
    except (OSError, ValueError, EOFError, TypeError, AttributeError, StopIteration):
        return None


def _loads(pyc: bytes) -> object:
    # Bytecode of the archive being run, or of this user's private copy of it, checked against
    # the archive's source (`ArchiveImporter._find`).
    return marshal.loads(memoryview(pyc)[16:])  # noqa: S302 - an importer unmarshals bytecode


class ArchiveImporter:
    """Finds and loads `edgar_min` modules from one archive: bytecode if it has this Python's, else source.

    `archive` is the `edgar.pyz` being run: modules' `__file__`, their sources and what `edgar
    install` writes into a hook name it. `code` is the file whose `.pyc` entries (`compiled`)
    run, open at `fd` if given; `sources` are the packed entries of the archive (`.py` and the
    builder's `.pyc`). `refused` says why this Python's bytecode copy is not used, or not all of
    it, when it is not (for `doctor`).
    """

    def __init__(
        self, archive: str, code: str, compiled: Listing, sources: Listing, fd: int | None = None
    ) -> None:
        self.archive = archive
        self.code = code
        self.refused: str | None = None
        self._compiled = compiled
        self._sources = sources
        # Kept for the run: one read per module.
        self._fd = os.open(code, os.O_RDONLY) if fd is None else fd
        self._archive_fd = self._fd if code == archive else None

    def _read_source(self, key: str) -> bytes | None:
        where = self._sources.get(key)
        if where is None:
            return None
        if self._archive_fd is None:
            self._archive_fd = os.open(self.archive, os.O_RDONLY)
        return read_entry(self._archive_fd, where, key)

    def _find(self, name: str) -> tuple[str, bool, bytes, bool] | None:
        """The entry stem, whether it is a package, and its `.pyc` data (True) or source (False)."""
        if name != PACKAGE and not name.startswith(PACKAGE + "."):
            return None
        stem = name.replace(".", "/")
        candidates = ((stem + "/__init__", True), (stem, False))
        for key, package in candidates:
            where = self._compiled.get(key + ".pyc")
            data = None if where is None else read_entry(self._fd, where, key + ".pyc")
            if data is None or data[:4] != MAGIC_NUMBER:
                continue
            if self.code == self.archive:  # the archive's own
                return key, package, data, True
            # The copy's, run only for the source it records as the archive holds it now (the
            # source hash of a hash-based `.pyc`): else that source, compiled here.
            source = self._read_source(key + ".py")
            if source is None:
                continue
            if data[8:16] == source_hash(source):
                return key, package, data, True
            self.refused = f"{self.code} holds bytecode that is not of {self.archive}'s sources"
            return key, package, source, False
        # Another Python's bytecode, none, or a damaged entry: the source, compiled here.
        for key, package in candidates:
            source = self._read_source(key + ".py")
            if source is not None:
                return key, package, source, False
        return None

    def find_spec(self, name: str, _path: object = None, _target: object = None) -> ModuleSpec | None:
        found = self._find(name)
        if found is None:
            return None
        key, package, _data, compiled = found
        spec = ModuleSpec(name, self, origin=f"{self.archive}/{key}.py", is_package=package)
        spec.has_location = True
        if compiled:
            # Where its bytecode is, for `__cached__`: left unset, importlib works out a
            # `__pycache__` path (one no archive has) on every import, a tenth of importing it.
            spec.cached = f"{self.code}/{key}.pyc"
        spec.loader_state = found
        if package:
            spec.submodule_search_locations = [f"{self.archive}/{key.rpartition('/')[0]}"]
        return spec

    def create_module(self, _spec: ModuleSpec) -> None:
        return None

    def exec_module(self, module: object) -> None:
        spec = module.__spec__
        found, spec.loader_state = spec.loader_state, None
        code = self.get_code(spec.name) if found is None else self._code(found)
        exec(code, module.__dict__)  # noqa: S102 - an importer runs the module's code

    @staticmethod
    def _code(found: tuple[str, bool, bytes, bool]) -> object:
        key, _package, data, compiled = found
        # The name a traceback shows, as the builder's bytecode has it.
        return _loads(data) if compiled else compile(data, f"{key}.py", "exec", dont_inherit=True)

    def get_code(self, name: str) -> object:
        found = self._find(name)
        if found is None:
            msg = f"no module {name} in {self.archive}"
            raise ImportError(msg, name=name)
        return self._code(found)

    def is_package(self, name: str) -> bool:
        key = f"{name.replace('.', '/')}/__init__"
        return f"{key}.pyc" in self._compiled or f"{key}.py" in self._sources

    def get_filename(self, name: str) -> str:
        stem = name.replace(".", "/")
        return f"{self.archive}/{stem}/__init__.py" if self.is_package(name) else f"{self.archive}/{stem}.py"

    def get_source(self, name: str) -> str | None:
        """The module's source from the archive, for tracebacks; None when it cannot be read."""
        key = self.get_filename(name)[len(self.archive) + 1 :]
        try:
            data = self._read_source(key)
        except OSError:
            return None
        return None if data is None else data.decode("utf-8", "replace")


def _copy_listing(fd: int) -> Listing | None:
    """The entries of the bytecode copy open at `fd`: led by its listing, as the packed zip is."""
    try:
        end = os.fstat(fd).st_size
    except OSError:
        return None
    return _listed(fd, 0, end) or _listing(_directory(fd, end))


def install(archive: str, copy: tuple[str, int] | None = None, refused: str | None = None) -> bool:
    """Import edgar from `archive` from now on: with `copy`'s bytecode, else its own, else its sources.

    `copy` is this Python's bytecode copy of the archive, if it has one: its path, and a
    descriptor open on it (opened and checked by `edgar_min.bytecode`); `refused` why one was
    not used. Returns False, changing nothing, when the archive holds no packed package or
    cannot be read.
    """
    span = _packed_span(archive)
    if span is None:
        return False
    start, end = span
    sources = listed(archive, start, end) or _listing(directory(archive, end))
    compiled = sources if copy is None else _copy_listing(copy[1])
    if not compiled or not sources:
        return False
    code, fd = (archive, None) if copy is None else copy
    try:
        importer = ArchiveImporter(archive, code, compiled, sources, fd)
    except OSError:
        return False
    importer.refused = refused
    sys.meta_path.insert(0, importer)
    # Modules already imported another way (the writer, on the run that wrote the copy; the
    # package's stand-in for a program with the archive on sys.path) go, so that every edgar
    # module of this run comes from here.
    for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
        del sys.modules[name]
    return True
