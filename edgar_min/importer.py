"""The importer `edgar.pyz` runs its own modules with: each one's bytecode read once.

zipimport reads and unmarshals a module's bytecode twice (once to name its file, once to run
it), and takes only the `.pyc` files beside each `.py`, which are the builder's Python's.
`ArchiveImporter` goes first on `sys.meta_path` for `edgar_min` and reads each module's `.pyc`
entry once, with one `pread`, from the archive or from this Python's copy of its bytecode
(`edgar_min.bytecode`). A module it has no bytecode for is left to zipimport, which compiles it
from the archive's source.

The build puts a copy of this module at the top of the archive (`_edgar_importer`), and the
bytecode copy for another Python starts with it, so that Python loads it already compiled.
"""

from __future__ import annotations

import marshal
import os
import sys
from importlib.machinery import ModuleSpec
from importlib.util import MAGIC_NUMBER

__all__ = ["ArchiveImporter", "entries", "install"]

PACKAGE = "edgar_min"
_ENTRY = b"PK\x01\x02"  # a central directory entry
_LOCAL = b"PK\x03\x04"  # a local file header


def entries(directory: bytes, start: int) -> dict[str, tuple[int, int]]:
    """Each uncompressed entry of a zip directory: where its local header is in the file, and its size.

    `start` is where the zip begins in the file (after a `#!` line, say). Raises ValueError
    for anything that is not a zip directory.
    """
    found: dict[str, tuple[int, int]] = {}
    at, last = 0, len(directory) - 22  # the end record closes it
    while at < last:
        if directory[at : at + 4] != _ENTRY:
            msg = "not a zip central directory"
            raise ValueError(msg)
        method = int.from_bytes(directory[at + 10 : at + 12], "little")
        size = int.from_bytes(directory[at + 20 : at + 24], "little")
        name_size = int.from_bytes(directory[at + 28 : at + 30], "little")
        skip = int.from_bytes(directory[at + 30 : at + 32], "little")
        skip += int.from_bytes(directory[at + 32 : at + 34], "little")
        local = int.from_bytes(directory[at + 42 : at + 46], "little")
        if method == 0:
            name = directory[at + 46 : at + 46 + name_size].decode("utf-8", "replace")
            found[name] = (start + local, size)
        at += 46 + name_size + skip
    return found


def read_entry(fd: int, where: tuple[int, int], name: str) -> bytes | None:
    """The data of the stored entry `name` at `where`, or None when the file does not hold it."""
    offset, size = where
    head = 30 + len(name.encode())
    data = os.pread(fd, head + size, offset)
    if data[:4] != _LOCAL:
        return None
    name_size = int.from_bytes(data[26:28], "little")
    extra = int.from_bytes(data[28:30], "little")
    if extra or name_size != head - 30:  # a local header unlike its directory entry
        data = os.pread(fd, size, offset + 30 + name_size + extra)
        return data if len(data) == size else None
    return data[head:] if len(data) == head + size else None


def _loads(pyc: bytes) -> object:
    # Bytecode of the archive being run, or of this user's private copy of it (bytecode._ours).
    return marshal.loads(memoryview(pyc)[16:])  # noqa: S302 - an importer unmarshals bytecode


class ArchiveImporter:
    """Finds and loads `edgar_min` modules from the `.pyc` entries of one zip, each read once.

    `archive` is the `edgar.pyz` being run: modules' `__file__`, their sources (for tracebacks)
    and what `edgar install` writes into a hook name it. `code` is the file whose bytecode runs:
    the archive itself, or this Python's copy of its bytecode.
    """

    def __init__(self, archive: str, code: str, found: dict[str, tuple[int, int]], sources: object) -> None:
        self.archive = archive
        self.code = code
        self._entries = found
        self._sources = sources  # the archive's entries, or its (directory, start) until asked
        self._fd = os.open(code, os.O_RDONLY)  # kept for the run: one pread per module

    def _bytecode(self, name: str) -> tuple[str, bool, bytes] | None:
        """The entry stem, whether it is a package, and the `.pyc` data of module `name`."""
        if name != PACKAGE and not name.startswith(PACKAGE + "."):
            return None
        stem = name.replace(".", "/")
        for key, package in ((stem + "/__init__", True), (stem, False)):
            where = self._entries.get(key + ".pyc")
            if where is not None:
                data = read_entry(self._fd, where, key + ".pyc")
                # Another Python's bytecode, or a damaged entry: left to zipimport, from source.
                if data is None or data[:4] != MAGIC_NUMBER:
                    return None
                return key, package, data
        return None

    def find_spec(self, name: str, _path: object = None, _target: object = None) -> ModuleSpec | None:
        found = self._bytecode(name)
        if found is None:
            return None
        key, package, data = found
        spec = ModuleSpec(name, self, origin=f"{self.archive}/{key}.py", is_package=package)
        spec.has_location = True
        spec.loader_state = data
        if package:
            spec.submodule_search_locations = [f"{self.archive}/{key.rpartition('/')[0]}"]
        return spec

    def create_module(self, _spec: ModuleSpec) -> None:
        return None

    def exec_module(self, module: object) -> None:
        spec = module.__spec__
        data, spec.loader_state = spec.loader_state, None
        code = self.get_code(spec.name) if data is None else _loads(data)
        exec(code, module.__dict__)  # noqa: S102 - an importer runs the module's code

    def get_code(self, name: str) -> object:
        found = self._bytecode(name)
        if found is None:
            msg = f"no bytecode for {name} in {self.code}"
            raise ImportError(msg, name=name)
        return _loads(found[2])

    def is_package(self, name: str) -> bool:
        return f"{name.replace('.', '/')}/__init__.pyc" in self._entries

    def get_filename(self, name: str) -> str:
        stem = name.replace(".", "/")
        return f"{self.archive}/{stem}/__init__.py" if self.is_package(name) else f"{self.archive}/{stem}.py"

    def get_source(self, name: str) -> str | None:
        """The module's source from the archive, for tracebacks; None when it cannot be read."""
        if isinstance(self._sources, tuple):
            try:
                self._sources = entries(*self._sources)
            except ValueError:
                self._sources = {}
        key = self.get_filename(name)[len(self.archive) + 1 :]
        where = self._sources.get(key)
        if where is None:
            return None
        try:
            fd = os.open(self.archive, os.O_RDONLY)
        except OSError:
            return None
        try:
            data = read_entry(fd, where, key)
        finally:
            os.close(fd)
        return None if data is None else data.decode("utf-8", "replace")


def install(archive: str, code: str, code_directory: tuple[bytes, int], directory: tuple[bytes, int]) -> bool:
    """Import edgar from `code`'s bytecode from now on; False, changing nothing, if it holds none.

    `code_directory` and `directory` are the zip directories of `code` and of `archive`.
    """
    try:
        found = entries(*code_directory)
    except ValueError:
        return False
    if f"{PACKAGE}/__init__.pyc" not in found:
        return False
    try:
        importer = ArchiveImporter(archive, code, found, found if code == archive else directory)
    except OSError:
        return False
    sys.meta_path.insert(0, importer)
    # Modules already imported from the archive's sources (the package and the writer, on the
    # run that wrote the copy) go, so that every edgar module of this run comes from `code`.
    for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
        del sys.modules[name]
    return True
