"""Write the bytecode copy of `edgar.pyz` for the running Python (see `edgar_min.bytecode`)."""

from __future__ import annotations

import io
import marshal
import os
import zipfile
from collections.abc import Callable
from importlib.util import MAGIC_NUMBER, source_hash

from edgar_min.importer import IMPORTER, LISTING, PACKED

__all__ = ["with_listing", "write_cache"]

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
    with zipfile.ZipFile(archive) as outer:
        # The importer right after the listing: the entry point finds it there without
        # reading the listing.
        found = [(f"{IMPORTER}.py", outer.read(f"{IMPORTER}.py"))]
        with zipfile.ZipFile(io.BytesIO(outer.read(PACKED))) as package:
            found += [(n, package.read(n)) for n in package.namelist() if n.endswith(".py")]
    pycs = []
    for name, data in found:
        # Only bytecode: the importer reads sources (to check each module's hash, for
        # tracebacks, for a module missing here) from the archive itself.
        code = compile(data, name, "exec", dont_inherit=True)
        flags = (0b01).to_bytes(4, "little")  # hash-based: checked by the importer, not importlib
        pycs.append((name[:-3] + ".pyc", MAGIC_NUMBER + flags + source_hash(data) + marshal.dumps(code)))
    raw.write(with_listing(pycs, _zip))


def with_listing(files: list[tuple[str, bytes]], zipped: Callable[[list[tuple[str, bytes]]], bytes]) -> bytes:
    """The zip `zipped` makes of `files`, led by `LISTING`: where each of them is in it.

    `zipped` stores each entry without an extra field. Each entry's place is counted from the
    end of the listing's own entry, so the listing can say it before its own size is known.
    Marshal format 2 has no back-references, so the same listing gives the same bytes on every
    build. Raises ValueError when an entry is not where the listing says.
    """
    with zipfile.ZipFile(io.BytesIO(zipped(files))) as plain:
        listing = {i.filename: (i.header_offset, i.file_size) for i in plain.infolist()}
    data = marshal.dumps(listing, 2)
    packed = zipped([(LISTING, data), *files])
    shift = 30 + len(LISTING) + len(data)  # the listing's local header (no extra field) and data
    with zipfile.ZipFile(io.BytesIO(packed)) as zf:
        moved = {i.filename: (i.header_offset - shift, i.file_size) for i in zf.infolist()[1:]}
    if moved != listing:
        msg = "the zip's entries are not where its listing says"
        raise ValueError(msg)
    return packed


def _zip(files: list[tuple[str, bytes]]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:  # stored: read on every import, never inflated
        for name, data in files:
            zf.writestr(zipfile.ZipInfo(name), data)
    return out.getvalue()
