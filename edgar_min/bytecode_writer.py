"""Write the bytecode copy of `edgar.pyz` for the running Python (see `edgar_min.bytecode`)."""

from __future__ import annotations

import io
import marshal
import os
import zipfile
from importlib.util import MAGIC_NUMBER, source_hash

from edgar_min.importer import IMPORTER, PACKED

__all__ = ["write_cache"]

# A new file, never one already there (O_EXCL) nor one a link leads to (O_NOFOLLOW).
_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def write_cache(archive: str, folder: int, name: str) -> None:
    """Write this interpreter's unchecked-hash `.pyc` of each of `archive`'s modules as `name`
    in the folder open at `folder` (opened and checked by `edgar_min.bytecode`).

    Written to a new temporary file first and linked into place, so a reader sees the whole
    file or none; a copy that another run wrote first is kept, since other runs may be reading
    it. Raises OSError, or ValueError for an archive that is not edgar's.
    """
    tmp = f".{name}.{os.getpid()}.tmp"
    # Private whatever the umask: a copy others could write would never be used.
    fd = os.open(tmp, _NEW, 0o600, dir_fd=folder)
    try:
        with os.fdopen(fd, "wb") as raw:
            try:
                _write(archive, raw)
            except (zipfile.BadZipFile, KeyError) as exc:
                msg = f"{archive} is not an edgar archive: {exc}"
                raise ValueError(msg) from None
            raw.flush()
            os.fsync(raw.fileno())
        try:
            os.link(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
        except FileExistsError:
            pass
        except OSError:  # a file system without hard links
            os.rename(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
    finally:
        try:
            os.unlink(tmp, dir_fd=folder)
        except FileNotFoundError:
            pass


def _write(archive: str, raw: io.RawIOBase) -> None:
    with zipfile.ZipFile(archive) as outer, zipfile.ZipFile(raw, "w") as copy:
        # The importer first: the entry point finds it there without reading the directory.
        found = [(outer.getinfo(f"{IMPORTER}.py"), outer.read(f"{IMPORTER}.py"))]
        with zipfile.ZipFile(io.BytesIO(outer.read(PACKED))) as package:
            found += [(i, package.read(i)) for i in package.infolist() if i.filename.endswith(".py")]
        for info, data in found:
            # Only bytecode, stored: it is read on every import, and the importer reads sources
            # (to check each module's hash, for tracebacks, for a module missing here) from the
            # archive itself.
            name = info.filename
            code = compile(data, name, "exec", dont_inherit=True)
            flags = (0b01).to_bytes(4, "little")  # hash-based: checked by the importer, not importlib
            pyc = MAGIC_NUMBER + flags + source_hash(data) + marshal.dumps(code)
            copy.writestr(_entry(name[:-3] + ".pyc", info, zipfile.ZIP_STORED), pyc)


def _entry(name: str, like: zipfile.ZipInfo, compression: int) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=like.date_time)
    info.compress_type = compression
    info.external_attr = like.external_attr
    return info
