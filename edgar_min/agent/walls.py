"""The run-time wall around a skill body: what its process may write, start and reach.

A body runs in a child process of its own (`child.py`). Once the child is
forked, `install(wall)` adds an audit hook (PEP 578) that is up for the rest of
that process's life, in every thread, with no switch to turn it off: nothing in
the child ever lifts it, and its state lives in the hook's closure, not in a
module global a body could import its way to. While up it refuses, with a
`PermissionError`:

- opening a file for writing, renaming, removing, linking or creating anything
  outside the configured writable folders; a write to a relative path (with
  `dir_fd` the kernel and the hook would resolve it differently); any call
  given a `dir_fd`; extended attributes; changing the
  mode, owner or times of an open descriptor it cannot name;
- reading a file named `environ` (`/proc/self/environ` and its like: the
  environment the process started with, keys included);
- starting a process or a thread, any network access, sqlite3, ctypes, pickle loads,
  tracing, changing a resource limit, another audit hook, the garbage collector's object
  lists, and frame objects reached from tracebacks and generators.

This is defence in depth behind the static acceptance checks, not a sandbox:
Python code in one process can find a way round an audit hook that a
determined author looks for. What holds whatever the body does is in the
parent: the engine budget, the time limit (a SIGKILL) and the decision log.
"""

from __future__ import annotations

import os
import sys
import types

from edgar_min.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = ["TIME_LIMIT_S", "BudgetExceeded", "Wall", "install"]

# Seconds a skill's own code may run in one run, loading included (engine calls not counted).
TIME_LIMIT_S = 10.0

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
# event -> (indexes of path arguments, indexes of dir_fd arguments)
_PATH_EVENTS = {
    "os.remove": ((0,), (1,)),
    "os.rmdir": ((0,), (1,)),
    "os.rename": ((0, 1), (2, 3)),
    "os.link": ((0, 1), (2, 3)),
    "os.symlink": ((1,), (2,)),
    "os.truncate": ((0,), ()),
    "shutil.rmtree": ((0,), (1,)),
    "shutil.move": ((0, 1), ()),
    "shutil.copyfile": ((1,), ()),
}
# Metadata changes also work on a read-only descriptor, so an fd must be named to be allowed.
_METADATA_EVENTS = {"os.chmod": (0, 2), "os.chown": (0, 3), "os.utime": (0, 3)}
_PROCESS_EVENTS = frozenset(
    {"subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty",
     "os.startfile", "os.kill", "os.killpg", "pty.spawn", "signal.pthread_kill"}
)  # fmt: skip
_REFUSED_EVENTS = {
    "_thread.start_new_thread": "starting a thread",
    "_thread.start_joinable_thread": "starting a thread",
    "sqlite3.connect": "opening an sqlite3 database (ATTACH can write anywhere)",
    "sqlite3.enable_load_extension": "loading an sqlite3 extension",
    "sqlite3.load_extension": "loading an sqlite3 extension",
    "os.setxattr": "setting an extended attribute",
    "os.removexattr": "removing an extended attribute",
    "pickle.find_class": "loading a pickle (it runs code)",
    "sys.addaudithook": "adding an audit hook",
    "sys.setprofile": "setting a profiler",
    "sys.settrace": "setting a tracer",
    "sys._current_frames": "reading other threads' frames",
    "sys._current_exceptions": "reading other threads' exceptions",
    "gc.get_objects": "listing the interpreter's objects",
    "gc.get_referrers": "listing an object's referrers",
    "gc.get_referents": "listing an object's referents",
    "os.chdir": "changing the working folder",
    "fcntl.ioctl": "an ioctl",
    "resource.setrlimit": "changing a resource limit (the CPU bound is the kernel's half of the time limit)",
    "resource.prlimit": "changing a resource limit",
    "ctypes.dlopen": "ctypes",
    "ctypes.dlsym": "ctypes",
    "ctypes.cdata": "ctypes",
}
# Attributes that hand out frames (and, through them, every caller's variables).
_FRAME_ATTRS = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame", "f_back"})
# Importing socket or subprocess is harmless (the stdlib `email` package imports socket);
# using them is what the socket and process events refuse. ctypes is refused outright.
_FORBIDDEN_IMPORTS = frozenset({"ctypes", "_ctypes", "_sqlite3", "sqlite3"})


class BudgetExceeded(BaseException):
    """The run asked the engine for more than its budget (raised in the parent, by the meter).

    A BaseException, so no `except Exception` on the way can swallow it; the
    child that asked is stopped, whatever it would have done with it.
    """


@dataclass(frozen=True, slots=True)
class Wall:
    """The folders a skill may write under (real paths, resolved before the body runs)."""

    writable: tuple[str, ...]

    @classmethod
    def of(cls, folders: list[str]) -> Wall:
        return cls(tuple(os.path.realpath(p) for p in folders))


def _checker(writable: tuple[str, ...]) -> Callable[[str, tuple[Any, ...]], str | None]:
    """The wall's decision for one audit event: None (allowed), "" (refused quietly) or a sentence.

    Everything it calls is bound here, before the body runs: a body that
    replaces `os.path.realpath`, `os.fsdecode` or a global of this module
    changes nothing the check uses. Paths are resolved with `os.lstat` and
    `os.readlink` taken now, the way the kernel resolves them.
    """
    lstat, readlink, encoding = os.lstat, os.readlink, sys.getfilesystemencoding()
    write_flags, sep = _WRITE_FLAGS, os.sep
    path_events = types.MappingProxyType(dict(_PATH_EVENTS))
    metadata_events = types.MappingProxyType(dict(_METADATA_EVENTS))
    refused_events = types.MappingProxyType(dict(_REFUSED_EVENTS))
    process_events, frame_attrs, forbidden_imports = _PROCESS_EVENTS, _FRAME_ATTRS, _FORBIDDEN_IMPORTS
    cache = f"{sep}__pycache__{sep}"

    def text(path: Any) -> str | None:
        if type(path) is str:
            return path
        if type(path) is bytes:
            return path.decode(encoding, "surrogateescape")
        return None

    def real(path: str) -> str | None:
        """`path` (absolute) with every link resolved; None past 40 links."""
        todo = path.split(sep)[::-1]
        resolved, hops = "", 0
        while todo:
            part = todo.pop()
            if part in {"", "."}:
                continue
            if part == "..":
                resolved = resolved.rpartition(sep)[0]
                continue
            candidate = resolved + sep + part
            try:
                mode = lstat(candidate).st_mode
            except (OSError, ValueError):
                resolved = candidate
                continue
            if mode & 0o170000 != 0o120000:  # not a symbolic link
                resolved = candidate
                continue
            hops += 1
            if hops > 40:
                return None
            target = readlink(candidate)
            if target.startswith(sep):
                resolved = ""
            todo.extend(target.split(sep)[::-1])
        return resolved or sep

    def allows(path: Any, mkdir: bool = False) -> bool:
        named = text(path)
        if named is None or not named.startswith(sep):
            return False
        resolved = real(named)
        if resolved is None:
            return False
        for folder in writable:
            if resolved == folder or resolved.startswith(folder + sep):
                return True
            # `mkdir(parents=True)` of a writable folder creates its parents first.
            if mkdir and folder.startswith(resolved + sep):
                return True
        return False

    def shown(path: Any) -> str:
        if type(path) is int:
            return f"descriptor {path}"
        return text(path) or "a path that is not text"

    def dir_fd(args: tuple[Any, ...], indexes: tuple[int, ...]) -> bool:
        return any(i < len(args) and args[i] is not None and args[i] != -1 for i in indexes)

    def check(event: str, args: tuple[Any, ...]) -> str | None:
        if event == "open":
            path, mode, flags = args[0], args[1], args[2]
            writing = bool(flags & write_flags) if type(flags) is int else False
            if type(mode) is str and any(c in mode for c in "wax+"):
                writing = True
            named = text(path)
            # /proc/PID/environ holds the environment the process started with, which the child's
            # allow-list cannot take back; found by its name, as a `dir_fd` open gives no folder.
            if named is not None and named.rstrip(sep).rpartition(sep)[2] == "environ":
                return f"reading {named} (a process's environment, with the keys a skill is not given)"
            if not writing or type(path) is int or allows(path):
                return None
            named = shown(path)
            if cache in named:
                return ""  # the import system caching bytecode: refused quietly
            if not named.startswith(sep):
                return f"writing the relative path {named} (use an absolute path in a writable folder)"
            return f"writing {named} (outside the writable folders)"
        if event == "os.mkdir":
            if dir_fd(args, (2,)):
                return f"creating the folder {shown(args[0])} relative to a descriptor (dir_fd)"
            if not allows(args[0], mkdir=True):
                return f"creating the folder {shown(args[0])} (outside the writable folders)"
            return None
        if event in path_events:
            paths, fds = path_events[event]
            if dir_fd(args, fds):
                return f"{event} relative to a descriptor (dir_fd)"
            for i in paths:
                if i < len(args) and not allows(args[i]):
                    return f"{event} on {shown(args[i])} (outside the writable folders)"
            return None
        if event in metadata_events:
            index, fd_index = metadata_events[event]
            path = args[index]
            if dir_fd(args, (fd_index,)):
                return f"{event} relative to a descriptor (dir_fd)"
            if type(path) is int:
                try:
                    path = readlink(f"/proc/self/fd/{path}")
                except OSError:
                    path = None
            if path is None or not allows(path):
                return f"{event} on {shown(args[index])} (outside the writable folders)"
            return None
        if event in process_events:
            return f"starting a process ({event})"
        # A socket object alone reaches nothing (asyncio's loop makes a local pair for itself);
        # connecting, binding, sending and name lookups are what reach out.
        if event.startswith("socket.") and event != "socket.__new__":
            return f"network access ({event})"
        if event in refused_events:
            return f"{refused_events[event]} ({event})"
        if event == "object.__getattr__" and len(args) > 1 and args[1] in frame_attrs:
            return f"reaching a frame ({args[1]})"
        if (
            event == "import"
            and args
            and type(args[0]) is str
            and args[0].partition(".")[0] in forbidden_imports
        ):
            return f"importing {args[0]}"
        return None

    return check


def install(wall: Wall, refused: list[str]) -> Callable[[str, tuple[Any, ...]], None]:
    """Put `wall` up for the rest of this process, in every thread; refusals are appended to `refused`.

    Only a forked child calls this: an audit hook cannot be removed, and this
    one has no off switch.
    """
    check, note = _checker(wall.writable), refused.append

    def hook(event: str, args: tuple[Any, ...]) -> None:
        sentence = check(event, args)
        if sentence is None:
            return
        if not sentence:
            raise PermissionError(event)
        sentence = "refused by the run-time wall: " + sentence
        note(sentence)
        raise PermissionError(sentence)

    sys.addaudithook(hook)
    return hook
