"""SHA-1 and SHA-256 hex digests from CPython's own implementations, not hashlib's.

`import hashlib` loads OpenSSL, about a third of a bare interpreter's start-up: a hook that
logs one decision, or a turn that names one file, paid it every time. The digests are the
same; each implementation is loaded when it is first asked for. A Python without them
(another implementation, a build that left them out) gets hashlib's.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = ["cache_key", "sha1_hex", "sha256_hex"]

_made: dict[str, Callable[[bytes], Any]] = {}


def cache_key(data: bytes) -> str:
    """A key that changes when `data` does: for caches of derived data, not for trust.

    `data` as one number modulo the prime 2**61 - 1, and its length: a change to any one byte
    always changes it, chance collisions are one in 2**61, and it needs no extension module
    (zlib) on a prompt hook that would load nothing else of it.
    """
    return f"{int.from_bytes(data, 'little') % _PRIME:016x}{len(data):x}"


_PRIME = 2**61 - 1


def sha1_hex(data: bytes) -> str:
    """The SHA-1 of `data`, in hex (it names files; it protects nothing)."""
    return _hasher("sha1")(data).hexdigest()


def sha256_hex(data: bytes) -> str:
    """The SHA-256 of `data`, in hex."""
    return _hasher("sha256")(data).hexdigest()


def _hasher(name: str) -> Callable[[bytes], Any]:
    found = _made.get(name)
    if found is None:
        try:
            if name == "sha1":
                from _sha1 import sha1 as found
            else:
                import sys

                if sys.version_info >= (3, 12):
                    from _sha2 import sha256 as found
                else:
                    from _sha256 import sha256 as found
        except ImportError:
            import hashlib

            found = getattr(hashlib, name)
        _made[name] = found
    return found
