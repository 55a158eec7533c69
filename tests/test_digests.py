"""digests: the same SHA-1 and SHA-256 as hashlib, without loading OpenSSL."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from edgar_min.digests import sha1_hex, sha256_hex

REPO = str(Path(__file__).resolve().parents[1])


@given(st.binary(max_size=300))
def test_the_digests_are_hashlibs(data):
    assert sha1_hex(data) == hashlib.sha1(data).hexdigest()
    assert sha256_hex(data) == hashlib.sha256(data).hexdigest()


def test_hashing_loads_no_openssl():
    script = (
        f"import sys; sys.path.insert(0, {REPO!r})\n"
        "from edgar_min.digests import sha1_hex, sha256_hex\n"
        "sha1_hex(b'x'); sha256_hex(b'x')\n"
        "print(sorted(m for m in sys.modules if m in ('hashlib', '_hashlib')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", script], capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stdout) == (0, "[]\n"), done.stderr


@given(st.binary(min_size=1, max_size=200), st.integers(min_value=0, max_value=199), st.integers(1, 255))
def test_a_cache_key_changes_with_any_one_byte(data, at, delta):
    from edgar_min.digests import cache_key

    at %= len(data)
    changed = bytearray(data)
    changed[at] = (changed[at] + delta) % 256
    assert cache_key(bytes(changed)) != cache_key(data)
    assert cache_key(data) == cache_key(bytes(data))
    assert cache_key(data) != cache_key(data + b"\0")  # the length is in it
