"""Plain scalar resolution and the characters of the frontmatter subset (private to the reader).

Plain scalars are read with the YAML 1.2 core schema wherever YAML 1.1 (PyYAML)
agrees; where the two read a scalar differently the reader refuses it, except
dates and times, which are kept as the text the file holds. Every pattern here is
compiled on first use, so importing the reader costs no regular expression.
"""

from __future__ import annotations

from edgar_min.regex import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "BAD_CHAR",
    "ESCAPES",
    "HEX_DIGITS",
    "HEX_ESCAPES",
    "NUMBER_START",
    "PLAIN_ODD",
    "RESOLVE_START",
    "Ambiguous",
    "bad_char_sentence",
    "is_timestamp",
    "resolve",
]


class Ambiguous(ValueError):
    """A plain scalar the reader will not guess at; the argument is the sentence."""


# --- characters --------------------------------------------------------------------------------

# Characters PyYAML refuses, or reads as line breaks where YAML 1.2 does not.
BAD_CHAR = lazy("[^\t\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]")


def bad_char_sentence(char: str) -> str:
    code = f"U+{ord(char):04X}"
    if char == "\r":
        return "a carriage return without a line feed; save the file with LF or CRLF line endings"
    if char in "\x85\u2028\u2029":
        return f"character {code} is a line break in YAML 1.1 but not in YAML 1.2; remove it"
    if char == "\ufeff":
        return "a byte-order mark (U+FEFF) inside the frontmatter is not allowed; remove it"
    return f"character {code} is not allowed in the frontmatter"


ESCAPES = {
    "0": "\0",
    "a": "\a",
    "b": "\b",
    "t": "\t",
    "\t": "\t",
    "n": "\n",
    "v": "\v",
    "f": "\f",
    "r": "\r",
    "e": "\x1b",
    " ": " ",
    '"': '"',
    "/": "/",
    "\\": "\\",
    "N": "\x85",
    "_": "\xa0",
    "L": "\u2028",
    "P": "\u2029",
}
HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}
HEX_DIGITS = frozenset("0123456789abcdefABCDEF")

# --- plain scalar resolution -------------------------------------------------------------------

_WORDS: dict[str, bool | None] = {
    "null": None,
    "Null": None,
    "NULL": None,
    "true": True,
    "True": True,
    "TRUE": True,
    "false": False,
    "False": False,
    "FALSE": False,
}
# Booleans in YAML 1.1 (PyYAML), text in YAML 1.2.
_YAML11_BOOLS = frozenset(["yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF"])
_WORD_START = frozenset("nNtTfFyYoO")
NUMBER_START = frozenset("-+.0123456789")
RESOLVE_START = _WORD_START | NUMBER_START | frozenset("~<=")
# Number-like text with '_' in it: some YAML readers (ruamel, js-yaml) take '_' as a digit separator.
_NUMBER_CHARS = frozenset("0123456789_+-.:eExXoObBabcdfABCDF")
# First characters that need a closer look before a plain scalar (or key) may start.
PLAIN_ODD = frozenset("&*!{}%-?:[]|>,@`#\"'.")

# PyYAML's float, int and timestamp patterns, then YAML 1.2 core int and float.
_NUMBER_RES = (
    lazy(
        r"[-+]?[0-9][0-9_]*\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?"
        r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"
    ),
    lazy(
        r"[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+"
        r"|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+"
    ),
    # PyYAML's timestamp, with the groups its constructor reads.
    lazy(
        r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})"
        r"(?:(?:[Tt]|[ \t]+)([0-9]{1,2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]*))?"
        r"(?:[ \t]*(Z|([-+])([0-9]{1,2})(?::([0-9]{2}))?))?)?"
    ),
    lazy(r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+"),
    lazy(
        r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)"
        r"|\.(?:nan|NaN|NAN)"
    ),
    lazy(r"[0-9]{4}-[0-9]{2}-[0-9]{2}"),
)


def is_timestamp(text: str) -> bool:
    """Whether YAML 1.1 (PyYAML) reads this plain scalar as a date or a time."""
    if text[:1] not in NUMBER_START:
        return False
    time_re, date_only = _NUMBER_RES[2], _NUMBER_RES[5]
    found = time_re.fullmatch(text)
    return found is not None and (found.group(4) is not None or date_only.fullmatch(text) is not None)


def _valid_timestamp(text: str) -> bool:
    """Whether PyYAML can build the date or time it reads (it fails on 2024-02-30)."""
    found = _NUMBER_RES[2].fullmatch(text)
    if found is None:
        return False
    import datetime as dt

    year, month, day, hour, minute, second, _, zone, _, tz_hour, tz_minute = found.groups()
    try:
        dt.date(int(year), int(month), int(day))
        if hour is not None:
            dt.time(int(hour), int(minute), int(second))
        if zone and zone != "Z":
            dt.timezone(dt.timedelta(hours=int(tz_hour), minutes=int(tz_minute or 0)))
    except ValueError:
        return False
    return True


def _yaml11_number(text: str) -> tuple[str, Any]:
    """What PyYAML makes of a plain scalar starting like a number: (kind, value)."""
    float_re, int_re, *_ = _NUMBER_RES
    try:
        if float_re.fullmatch(text):
            digits = text.replace("_", "").lower()
            sign = -1.0 if digits[0] == "-" else 1.0
            digits = digits.lstrip("+-")
            if digits == ".inf":
                return "float", sign * float("inf")
            if digits == ".nan":
                return "float", float("nan")
            if ":" in digits:
                return "float", sign * _sexagesimal([float(part) for part in digits.split(":")])
            return "float", sign * float(digits)
        if int_re.fullmatch(text):
            digits = text.replace("_", "")
            sign = -1 if digits[0] == "-" else 1
            digits = digits.lstrip("+-")
            if digits == "0":
                return "int", 0
            if digits.startswith(("0b", "0x")):
                return "int", sign * int(digits, 0)
            if digits[0] == "0":
                return "int", sign * int(digits, 8)
            if ":" in digits:
                return "int", sign * int(_sexagesimal([int(part) for part in digits.split(":")]))
            return "int", sign * int(digits)
    except ValueError:
        return "error", None  # PyYAML itself would fail on this one
    if text[0] != "." and is_timestamp(text):
        return "timestamp", None
    return "str", text


def _sexagesimal(parts: list[Any]) -> Any:
    value = 0
    for part in parts:
        value = value * 60 + part
    return value


def _yaml12_number(text: str) -> tuple[str, Any]:
    """What the YAML 1.2 core schema makes of the same scalar: (kind, value)."""
    _, _, _, int_re, float_re, _ = _NUMBER_RES
    try:
        if int_re.fullmatch(text):
            return "int", int(text, 0) if text.startswith(("0o", "0x")) else int(text)
        if float_re.fullmatch(text):
            lowered = text.lower()
            if lowered.endswith((".inf", ".nan")):
                return "float", float(lowered.replace(".", ""))
            return "float", float(text)
    except ValueError:
        return "error", None
    return "str", text


def _describe(kind: str, value: Any) -> str:
    if kind in {"int", "float"}:
        return f"the number {value!r}"
    return {"str": "text", "bool": "a boolean", "timestamp": "a date", "error": "nothing"}[kind]


def resolve(text: str) -> Any:
    """The value of a plain scalar; raises `Ambiguous` for one YAML 1.1 and 1.2 read differently.

    A date or time (`2026-02-06`, `2026-02-06T09:00:00Z`) is the text itself: YAML 1.2
    reads text, PyYAML a `date`, and the text is what the file says.
    """
    if not text:
        return None
    first = text[0]
    if first not in RESOLVE_START:
        return text
    if first in _WORD_START:
        if text in _WORDS:
            return _WORDS[text]
        if text in _YAML11_BOOLS:
            msg = f"ambiguous plain scalar {text!r} (YAML 1.1 reads a boolean, YAML 1.2 text): quote it"
            raise Ambiguous(msg)
        return text
    if first in NUMBER_START:
        old = _yaml11_number(text)
        new = _yaml12_number(text)
        if old[0] == new[0] and repr(old[1]) == repr(new[1]) and old[0] != "error":
            if old[0] != "str" or "_" not in text or not _NUMBER_CHARS.issuperset(text):
                return old[1]
            msg = f"ambiguous plain scalar {text!r} (some YAML readers take it as a number): quote it"
            raise Ambiguous(msg)
        if old[0] == "timestamp" and new[0] == "str":
            if _valid_timestamp(text):
                return text
            msg = f"{text!r} looks like a date or time but is not a valid one: quote it"
            raise Ambiguous(msg)
        msg = (
            f"ambiguous plain scalar {text!r} (YAML 1.1 reads {_describe(*old)}, "
            f"YAML 1.2 {_describe(*new)}): quote it"
        )
        raise Ambiguous(msg)
    if first == "~" and text == "~":
        return None
    if text in {"<<", "="}:
        msg = f"the plain scalar {text!r} has a special meaning in YAML 1.1: quote it"
        raise Ambiguous(msg)
    return text
