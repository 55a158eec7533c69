"""Skill text made safe to print on a terminal: control sequences shown, never obeyed.

A skill file is text anyone can write (a checkout, a model's reply). An escape
sequence in it (`ESC [ 2 J`, a title change, a hyperlink) would act on the
terminal that prints it; here each control character is shown as `\\xNN` or
`\\uNNNN` instead, and so are the bidirectional overrides that make text read
other than it is stored. Line breaks and tabs stay as they are.
"""

from __future__ import annotations

__all__ = ["printable"]

_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _shown(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """`text` with every control character but line feed and tab written out as an escape."""
    if text.isprintable() and not _BIDI.intersection(text):
        return text  # the common case: nothing to do
    out = []
    for char in text:
        code = ord(char)
        if char in "\n\t":
            out.append(char)
        elif code < 0x20 or 0x7F <= code <= 0x9F or char in _BIDI or char in "\u2028\u2029":
            out.append(_shown(char))
        else:
            out.append(char)
    return "".join(out)
