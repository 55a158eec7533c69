"""JSON with the standard module's answers, without the standard module's import.

`json.decoder` and `json.encoder` compile regular expressions when they are
imported, for a pure-Python path that CPython's `_json` accelerator never takes;
importing `json` therefore imports `re`, and that costs a command run on every
agent turn more than the JSON it reads. This module drives `_json` directly,
with the arguments `json` itself gives it, so importing it imports neither
`json` nor `re`.

The promise, for the options these functions take: `loads` returns what
`json.loads` returns for every text, and `dumps` returns the text `json.dumps`
returns for every value. Whatever the fast path cannot answer (invalid JSON, a
value it cannot encode, `indent` before Python 3.13, a Python without `_json`)
goes to the standard function, so every error is the standard exception with
the standard message, and only those cases pay for importing `json`.
`JSONDecodeError` is `json.JSONDecodeError`, looked up when first asked for: an
`except jsoncodec.JSONDecodeError:` clause evaluates it only when an exception
arrives.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from json import JSONDecodeError
    from typing import IO, Any

try:
    from _json import encode_basestring, encode_basestring_ascii, make_encoder, make_scanner
except ImportError:  # not CPython: the standard module answers everything
    make_scanner = None

__all__ = ["JSONDecodeError", "dump", "dumps", "load", "loads"]

# json.decoder.WHITESPACE: what may surround a document.
_WHITESPACE = " \t\n\r"
# From 3.13 the C encoder indents, and json.encoder hands it the indent as a string; before, it cannot.
_C_INDENTS = sys.version_info >= (3, 13)


class _Decoding:
    """The attributes `_json.make_scanner` reads, as `json.loads` sets them when given no hooks."""

    __slots__ = ("strict",)
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}.__getitem__

    def __init__(self, strict: bool) -> None:
        self.strict = strict


if make_scanner is not None:
    _SCAN = make_scanner(_Decoding(strict=True))
    _SCAN_LAX = make_scanner(_Decoding(strict=False))


def __getattr__(name: str) -> object:
    if name == "JSONDecodeError":
        from json import JSONDecodeError

        return JSONDecodeError
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def loads(s: str | bytes | bytearray, *, strict: bool = True) -> Any:
    """`json.loads(s, strict=strict)`: the value of one JSON document."""
    if make_scanner is not None:
        try:
            # A text that starts with a byte order mark fails here too (U+FEFF is not whitespace).
            text = s if isinstance(s, str) else _decoded(s)
            value, end = (_SCAN if strict else _SCAN_LAX)(text, _skip_whitespace(text, 0))
            if _skip_whitespace(text, end) == len(text):
                return value
        except Exception:  # noqa: BLE001, S110 - the standard function raises its own exception for it, below
            pass
    import json

    return json.loads(s, strict=strict)


def load(fp: IO[str] | IO[bytes], *, strict: bool = True) -> Any:
    """`json.load(fp, strict=strict)`: the value of the JSON document `fp` reads."""
    return loads(fp.read(), strict=strict)


def dumps(
    obj: object,
    *,
    ensure_ascii: bool = True,
    separators: tuple[str, str] | None = None,
    sort_keys: bool = False,
    indent: int | str | None = None,
    default: Callable[[Any], Any] | None = None,
) -> str:
    """`json.dumps` with these options: the same text for every value."""
    if make_scanner is not None and (indent is None or _C_INDENTS):
        # What `json.JSONEncoder(...).encode(obj)` does on its C path.
        string = encode_basestring_ascii if ensure_ascii else encode_basestring
        try:
            if isinstance(obj, str):  # json's own shortcut: the same text as the encoder's
                return string(obj)
            if separators is not None:
                item_separator, key_separator = separators
            else:
                item_separator, key_separator = ("," if indent is not None else ", "), ": "
            encode = make_encoder(
                {},  # markers: a circular reference is refused
                _unencodable if default is None else default,
                string,
                indent if indent is None or isinstance(indent, str) else " " * indent,
                key_separator,
                item_separator,
                sort_keys,
                False,  # skipkeys  # noqa: FBT003 - the C signature is positional
                True,  # allow_nan  # noqa: FBT003
            )
            return "".join(encode(obj, 0))
        except Exception:  # noqa: BLE001, S110 - the standard function raises its own exception for it, below
            pass
    import json

    return json.dumps(
        obj,
        ensure_ascii=ensure_ascii,
        separators=separators,
        sort_keys=sort_keys,
        indent=indent,
        default=default,
    )


def dump(
    obj: object,
    fp: IO[str],
    *,
    ensure_ascii: bool = True,
    separators: tuple[str, str] | None = None,
    sort_keys: bool = False,
    indent: int | str | None = None,
    default: Callable[[Any], Any] | None = None,
) -> None:
    """Write `dumps(obj, ...)` to `fp` in one call: `json.dump`'s text, and none of it on an error."""
    fp.write(
        dumps(
            obj,
            ensure_ascii=ensure_ascii,
            separators=separators,
            sort_keys=sort_keys,
            indent=indent,
            default=default,
        )
    )


def _skip_whitespace(text: str, at: int) -> int:
    end = len(text)
    while at < end and text[at] in _WHITESPACE:
        at += 1
    return at


def _decoded(data: bytes | bytearray) -> str:
    """The text of JSON bytes that `json.loads` reads as UTF-8 (what JSON on the wire is), else ValueError."""
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError("not bytes")  # the standard function words it
    # `json.detect_encoding` reads UTF-16 or UTF-32 when a byte order mark says so (never valid UTF-8,
    # or U+FEFF first once decoded: the scan fails on it), or when the first or the second byte is zero.
    # A zero first byte decodes to U+0000 first, which the scan fails on too; a zero second one could
    # be read inside a string, so it is not left to the scan.
    if data[1:2] == b"\x00":
        raise ValueError("maybe not UTF-8")
    return data.decode("utf-8", "surrogatepass")


def _unencodable(obj: object) -> object:
    raise TypeError(f"Object of type {obj.__class__.__name__} is not JSON serializable")
