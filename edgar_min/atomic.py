"""How edgar_min puts bytes on disk, and how it reaches them without following a link.

Whole files a person may read are replaced atomically (temp file in the same
folder, flush, fsync, `os.replace`): a crash leaves the old file or the new
one, never half. Logs grow by single `O_APPEND` writes of whole lines, so
several processes may append at once without losing or interleaving lines.

Given a `root` (the project root, or EDGAR_HOME for the user scope), every
write, move, append, read-before-write and removal walks from the root one
folder at a time with `O_NOFOLLOW` and `dir_fd`-relative calls, so it never
leaves the root through a symbolic link: skills are shared through git, and git
carries links. A link, or a file where a folder belongs, anywhere between the
root and the target is refused with a sentence naming it, before anything is
written. `open_read` reaches a file to read the same way. The root itself is the
caller's choice and may be a link; one edgar has to make is made private to the
person (0700): it is a store of their own, such as the state folder under their home.
"""

from __future__ import annotations

import _thread
import os
import stat

from edgar_min.errors import Refused

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeAlias

    PathLike: TypeAlias = "os.PathLike[str] | str"

__all__ = [
    "append_line",
    "check_writable",
    "create_empty",
    "lstat",
    "move",
    "open_read",
    "read_text",
    "remove_tree",
    "temp_file_pid",
    "write_text",
]

# Every temp file `write_text` makes is `.NAME.PID.THREAD.tmp`; `doctor` finds leftovers by it.
_TEMP_NAME = r"\.(?P<name>.+)\.(?P<pid>[0-9]+)\.(?P<thread>[0-9]+)\.tmp"


def temp_file_pid(name: str) -> int | None:
    """The pid in a temp file name `write_text` made (`_TEMP_NAME`), or None for any other name.

    String operations, not the pattern: `doctor` asks this of every file edgar keeps.
    """
    if not (name.startswith(".") and name.endswith(".tmp")):
        return None
    parts = name[1:-4].rsplit(".", 2)
    if len(parts) != 3 or not parts[0] or "\n" in parts[0]:
        return None
    _, pid, thread = parts
    digits = all(p and p.isascii() and p.isdigit() for p in (pid, thread))
    return int(pid) if digits else None


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_FCHMOD = hasattr(os, "fchmod")  # not on Windows before 3.13, where modes mean little
_DIR_FLAGS = os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC
# Where the kernel can open relative to a folder without following links, it does the
# checking; elsewhere (Windows) each step is checked with lstat first.
_FD_WALK = bool(_NOFOLLOW and _DIRECTORY) and {os.open, os.stat, os.mkdir, os.rename, os.unlink} <= (
    os.supports_dir_fd
)


def _temp_name(name: str) -> str:
    # Unique per thread too: background syntheses and distills in one process may
    # write the same file at once, and a shared temp name would lose one of them.
    return f".{name}.{os.getpid()}.{_thread.get_ident()}.tmp"


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def write_text(path: PathLike, text: str, *, root: PathLike | None = None, mode: int | None = None) -> None:
    """Replace `path` with `text` (UTF-8) atomically, creating parent folders.

    With `root`, no link between the root and `path` (nor `path` itself) is followed. With
    `mode`, the new file has exactly those permission bits from its first byte on.
    """
    data = text.encode("utf-8")
    if root is None:
        folder_path, name = os.path.split(os.path.abspath(path))
        os.makedirs(folder_path, exist_ok=True)
        _replace_in(None, folder_path, name, data, mode)
        return
    walk = _Walk(root, path)
    folder = walk.parent(create=True)
    try:
        walk.leaf_is_file_or_missing(folder)
        _replace_in(folder, walk.parent_path, walk.name, data, mode)
    finally:
        walk.close(folder)


def _replace_in(folder: int | None, folder_path: str, name: str, data: bytes, mode: int | None) -> None:
    tmp = _temp_name(name)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _NOFOLLOW | _CLOEXEC
    # Created with no more than `mode` allows (a 0600 file holding keys is never readable by
    # others, not even for the moment before fchmod), then given exactly `mode` past the umask.
    created = 0o644 if mode is None else mode & 0o777
    if folder is None or not _FD_WALK:
        tmp_path, final = os.path.join(folder_path, tmp), os.path.join(folder_path, name)
        fd = os.open(tmp_path, flags, created)
        try:
            if mode is not None and _FCHMOD:
                os.fchmod(fd, mode)
            _write_all(fd, data)
            os.fsync(fd)
        except BaseException:
            os.close(fd)
            os.unlink(tmp_path)
            raise
        os.close(fd)
        os.replace(tmp_path, final)
        return
    fd = os.open(tmp, flags, created, dir_fd=folder)
    try:
        if mode is not None and _FCHMOD:
            os.fchmod(fd, mode)
        _write_all(fd, data)
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        os.unlink(tmp, dir_fd=folder)
        raise
    os.close(fd)
    os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)


def append_line(path: PathLike, line: str, *, root: PathLike | None = None) -> None:
    """Append one line (a newline is added) with a single O_APPEND write.

    With `root`, no link between the root and `path` (nor `path` itself) is followed. A file
    whose last line has no newline (cut by a crash, or two copies joined end to end) gets one
    first: the cut line stays a bad line of its own, and this one is whole.
    """
    if "\n" in line or "\r" in line:
        msg = "a log line may not contain a line break"
        raise ValueError(msg)
    data = (line + "\n").encode("utf-8")
    # Read and write: the last byte says whether the file ends a line.
    flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | _CLOEXEC
    if root is None:
        try:
            fd = os.open(path, flags, 0o644)
        except FileNotFoundError:
            os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
            fd = os.open(path, flags, 0o644)
    else:
        walk = _Walk(root, path)
        folder = walk.parent(create=True)
        try:
            # O_NOFOLLOW refuses a link; O_NONBLOCK keeps a fifo planted where a log belongs
            # from hanging the writer; fstat below refuses anything but a plain file.
            fd = walk.open_leaf(folder, flags | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
        finally:
            walk.close(folder)
    try:
        info = os.fstat(fd)
        plain = stat.S_ISREG(info.st_mode)
        if root is not None and not plain:
            raise walk.refusal(walk.rel, "is not a plain file")
        if plain and info.st_size and os.pread(fd, 1, info.st_size - 1) != b"\n":
            data = b"\n" + data
        os.write(fd, data)
    finally:
        os.close(fd)


def open_read(path: PathLike, *, root: PathLike) -> int:
    """A read-only fd of what is at `path`, reached from `root` with no link followed, `path` included.

    A link or a file where a folder belongs is `Refused` with a sentence; nothing there is
    FileNotFoundError. A fifo opens without blocking: the caller's fstat says what it opened.
    """
    walk = _Walk(root, path, reading=True)
    folder = walk.parent(create=False)
    try:
        return walk.open_leaf(folder, os.O_RDONLY | _NOFOLLOW | _CLOEXEC | getattr(os, "O_NONBLOCK", 0))
    finally:
        walk.close(folder)


def create_empty(path: PathLike, *, root: PathLike) -> bool:
    """Create an empty file at `path` (a marker) unless something is there; True when it made one."""
    walk = _Walk(root, path)
    folder = walk.parent(create=True)
    try:
        fd = walk.open_leaf(folder, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC)
    except FileExistsError:
        return False
    finally:
        walk.close(folder)
    os.close(fd)
    return True


def read_text(path: PathLike, *, root: PathLike) -> str | None:
    """The UTF-8 text of a file edgar keeps, or None when there is none; a link is refused, not read."""
    walk = _Walk(root, path)
    try:
        folder = walk.parent(create=False)
    except FileNotFoundError:
        return None
    try:
        if walk.lstat_leaf(folder) is None:
            return None
        walk.leaf_is_file_or_missing(folder)
        fd = walk.open_leaf(folder, os.O_RDONLY | _NOFOLLOW | _CLOEXEC)
    finally:
        walk.close(folder)
    with os.fdopen(fd, "rb") as handle:
        return handle.read().decode("utf-8")


def lstat(path: PathLike, *, root: PathLike) -> os.stat_result | None:
    """What is at `path` (a link is not followed), or None; a link on the way there is refused."""
    walk = _Walk(root, path)
    try:
        folder = walk.parent(create=False)
    except FileNotFoundError:
        return None
    try:
        return walk.lstat_leaf(folder)
    finally:
        walk.close(folder)


def check_writable(*paths: PathLike, root: PathLike) -> None:
    """Refuse, before anything is written, when a write to any of `paths` would meet a link or a file.

    Folders that do not exist yet are fine (they will be made); nothing is created here.
    """
    for path in paths:
        walk = _Walk(root, path)
        try:
            folder = walk.parent(create=False)
        except FileNotFoundError:
            continue
        try:
            walk.leaf_is_file_or_missing(folder)
        finally:
            walk.close(folder)


def move(src: PathLike, dst: PathLike, *, root: PathLike) -> None:
    """Rename `src` to `dst` (a file or a folder), both reached from `root` without following a link.

    `src` itself must not be a link: a link where edgar keeps a skill is refused, not moved.
    """
    source = _Walk(root, src)
    target = _Walk(root, dst)
    src_folder = source.parent(create=False)
    try:
        st = source.lstat_leaf(src_folder)
        if st is None:
            raise FileNotFoundError(2, "No such file or directory", str(src))
        if stat.S_ISLNK(st.st_mode):
            raise source.link_refusal(src_folder, source.rel)
        dst_folder = target.parent(create=True)
        try:
            if target.lstat_leaf(dst_folder) is not None:
                raise FileExistsError(17, "File exists", str(dst))
            if _FD_WALK:
                os.rename(source.name, target.name, src_dir_fd=src_folder, dst_dir_fd=dst_folder)
            else:
                os.rename(source.full, target.full)
        finally:
            target.close(dst_folder)
    finally:
        source.close(src_folder)


def remove_tree(path: PathLike, *, root: PathLike) -> None:
    """Delete the folder (or file) at `path` and everything in it, never following a link.

    A link at `path` or on the way to it is refused; links inside the tree are removed, not followed.
    """
    import shutil

    walk = _Walk(root, path)
    try:
        folder = walk.parent(create=False)
    except FileNotFoundError:
        return
    try:
        st = walk.lstat_leaf(folder)
        if st is None:
            return
        if stat.S_ISLNK(st.st_mode):
            raise walk.link_refusal(folder, walk.rel)
        if not stat.S_ISDIR(st.st_mode):
            if _FD_WALK:
                os.unlink(walk.name, dir_fd=folder)
            else:
                os.unlink(walk.full)
        elif _FD_WALK and shutil.rmtree.avoids_symlink_attacks:
            shutil.rmtree(walk.name, dir_fd=folder)
        else:
            shutil.rmtree(walk.full)
    finally:
        walk.close(folder)


def _make_root(path: str) -> None:
    """Make `path` and each missing folder above it, private to the person (0700)."""
    parent = os.path.dirname(path)
    if parent != path and not os.path.isdir(parent):
        _make_root(parent)
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass


class _Walk:
    """One path below a root, opened folder by folder without following links (to write, or `reading`)."""

    def __init__(self, root: PathLike, path: PathLike, *, reading: bool = False) -> None:
        self.root = os.path.abspath(root)
        self.full = os.path.abspath(path)
        self.reading = reading
        rel = os.path.relpath(self.full, self.root)
        parts = () if rel == os.curdir else tuple(rel.split(os.sep))
        if not parts or parts[0] == os.pardir:
            done = "it was not read" if reading else "edgar writes only below its root"
            msg = f"refused: {path} is not inside {root}; {done}"
            raise Refused(msg)
        self.parts = parts
        self.name = parts[-1]
        self.rel = "/".join(parts)
        self.parent_path = os.path.dirname(self.full)

    def _shown(self, upto: int) -> str:
        return "/".join(self.parts[:upto])

    def refusal(self, rel: str, what: str) -> Refused:
        if self.reading:
            return Refused(f"refused: {rel} {what}; it was not read")
        return Refused(
            f"refused: {rel} {what}; nothing was written (edgar keeps this place itself: move it away)"
        )

    def link_refusal(self, folder: int | None, rel: str) -> Refused:
        try:
            if folder is not None and _FD_WALK:
                target = os.readlink(rel.rsplit("/", 1)[-1], dir_fd=folder)
            else:
                target = os.readlink(os.path.join(self.root, rel))
            where = f" (to {target})"
        except OSError:
            where = ""
        if self.reading:
            return Refused(
                f"refused: {rel} is a symbolic link{where}; edgar reads it only with no link followed, "
                "so it was not read"
            )
        return Refused(
            f"refused: {rel} is a symbolic link{where}; edgar never follows a link where it keeps its "
            "files, so nothing was written (replace the link with a real folder or file)"
        )

    def parent(self, *, create: bool) -> int:
        """An open fd of the folder holding the target (-1 without fd support), or FileNotFoundError."""
        if not _FD_WALK:
            return self._checked_walk(create=create)
        try:
            fd = os.open(self.root, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
        except FileNotFoundError:
            if not create:
                raise
            # The root is the caller's choice (a store's own folder, say): made as asked.
            _make_root(self.root)
            fd = os.open(self.root, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
        try:
            for at, part in enumerate(self.parts[:-1], 1):
                nxt = self._open_dir(fd, part, at, create=create)
                os.close(fd)
                fd = nxt
        except BaseException:
            os.close(fd)
            raise
        return fd

    def _open_dir(self, fd: int, part: str, at: int, *, create: bool) -> int:
        try:
            return os.open(part, _DIR_FLAGS, dir_fd=fd)
        except FileNotFoundError:
            if not create:
                raise
            try:
                os.mkdir(part, 0o755, dir_fd=fd)
            except FileExistsError:
                pass
        except OSError:
            self._classify(fd, part, at)
            raise
        try:
            return os.open(part, _DIR_FLAGS, dir_fd=fd)
        except OSError:
            self._classify(fd, part, at)
            raise

    def _classify(self, fd: int, part: str, at: int) -> None:
        """Turn a failed step into a sentence when a link or a file stood in the way."""
        try:
            st = os.stat(part, dir_fd=fd, follow_symlinks=False)
        except OSError:
            return
        if stat.S_ISLNK(st.st_mode):
            raise self.link_refusal(fd, self._shown(at)) from None
        if not stat.S_ISDIR(st.st_mode):
            what = "is not a folder" if self.reading else "is a file where edgar keeps a folder"
            raise self.refusal(self._shown(at), what) from None

    def _checked_walk(self, *, create: bool) -> int:
        current = self.root
        if create:
            _make_root(current)
        for at, part in enumerate(self.parts[:-1], 1):
            current = os.path.join(current, part)
            try:
                st = os.lstat(current)
            except FileNotFoundError:
                if not create:
                    raise
                os.makedirs(current, exist_ok=True)
                st = os.lstat(current)
            if stat.S_ISLNK(st.st_mode):
                raise self.link_refusal(None, self._shown(at))
            if not stat.S_ISDIR(st.st_mode):
                what = "is not a folder" if self.reading else "is a file where edgar keeps a folder"
                raise self.refusal(self._shown(at), what)
        return -1

    def lstat_leaf(self, folder: int) -> os.stat_result | None:
        try:
            if _FD_WALK:
                return os.stat(self.name, dir_fd=folder, follow_symlinks=False)
            return os.lstat(self.full)
        except FileNotFoundError:
            return None

    def leaf_is_file_or_missing(self, folder: int) -> None:
        st = self.lstat_leaf(folder)
        if st is None:
            return
        if stat.S_ISLNK(st.st_mode):
            raise self.link_refusal(folder, self.rel)
        if stat.S_ISDIR(st.st_mode):
            raise self.refusal(self.rel, "is a folder where edgar keeps a file")
        if not stat.S_ISREG(st.st_mode):
            raise self.refusal(self.rel, "is not a plain file")

    def open_leaf(self, folder: int, flags: int) -> int:
        try:
            if _FD_WALK:
                return os.open(self.name, flags, 0o644, dir_fd=folder)
            return os.open(self.full, flags, 0o644)
        except OSError:
            # A link or folder slipped in after the check: say so rather than leak an errno.
            self.leaf_is_file_or_missing(folder)
            raise

    def close(self, folder: int) -> None:
        if folder >= 0:
            os.close(folder)
