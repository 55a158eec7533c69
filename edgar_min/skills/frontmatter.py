"""Read the YAML frontmatter of a SKILL.md file: a strict, documented subset of YAML.

A SKILL.md starts with a line `---`, then YAML, then another `---` line, then
Markdown. Only the first `---` line after the opening one closes the
frontmatter (trailing spaces on either delimiter are fine; `...` does not
close it); the body may contain further `---` lines. CRLF line endings are
read as LF, in the body too. A file that starts with a byte-order mark is
refused.

Inside the subset the result is exactly what a full YAML parser (PyYAML's
`safe_load`, the test oracle) gives, so a skill reads the same here as in
any other agent. Everything outside it is a `FrontmatterError` naming the
file and the line, never a guess. The subset:

- The frontmatter is a block mapping whose keys start in column 1. Keys are
  plain (`allowed-tools`) or quoted on one line (`"a key"`), must read as
  text, and may not repeat.
- A value is a scalar, a list of scalars, or a block mapping of such values;
  mappings may nest up to 8 levels below the top (`metadata:` then
  `hermes:` then `tags: [...]`, as Hermes-style skills write it).
- Scalars: plain, also over several more-indented lines, folded as YAML
  folds them; single-quoted (`''` is a quote); double-quoted with every YAML
  escape (`\\ \\" \\n \\t \\xXX \\uXXXX \\UXXXXXXXX \\N \\_ \\L \\P ...`,
  escaped line breaks); both quoted styles may span lines. Block scalars
  `|` and `>` with chomping (`-`, `+`) and indentation (`1`-`9`)
  indicators. A value may also start on the line after its key.
- Lists: block lists of `- item` lines, indented under their key or level
  with it, and flow lists `[a, "b c", 'd']` that fit on one line.
- Comments: whole lines, and after a value when a space precedes the `#`.
- Plain scalars are read with the YAML 1.2 core schema: `null`, `Null`,
  `NULL`, `~` and nothing are None; `true`/`false` (also `True`, `TRUE` ...)
  are booleans; decimal integers, floats, `.inf` and `.nan` are numbers;
  anything else is text. Where YAML 1.1 (PyYAML) reads a plain scalar
  differently - `yes`/`no`/`on`/`off`, `0777`, `1_000`, `1:20`, `1e3`,
  `2024-01-31`, `0o17`, `+0x1F` - it is refused as ambiguous: quote it.
  So is number-like text with `_` in it (`-_4`), which some readers take as
  a number.

Outside the subset, each with its own sentence: flow mappings `{...}`,
flow lists over several lines or nested, anchors `&`, aliases `*`, tags
`!`, complex keys `? `, directives `%`, a second document (`--- ` or `...`
inside the frontmatter), lists of mappings, lists of lists, mappings nested
deeper than 8 levels, duplicate keys, tabs used for
indentation or between tokens, control characters, a byte-order mark, and
the YAML 1.1-only line breaks (U+0085, U+2028, U+2029). A frontmatter with
no keys reads as `{}` (PyYAML would give None).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn

from edgar_min.errors import BadInput

if TYPE_CHECKING:
    import pathlib
    import re

__all__ = ["Frontmatter", "FrontmatterError", "parse_skill", "read_skill"]


class FrontmatterError(BadInput):
    """A SKILL.md whose frontmatter cannot be read; the message names the file and line."""


@dataclass(frozen=True, slots=True)
class Frontmatter:
    """A parsed SKILL.md: the frontmatter's keys in file order, and the Markdown after it."""

    data: dict[str, Any]
    body: str
    body_line: int  # 1-based line of the file where `body` starts


def read_skill(path: pathlib.Path) -> Frontmatter:
    """Read and parse one SKILL.md (UTF-8); any failure is a `FrontmatterError`."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise FrontmatterError(f"{path}: cannot read the file ({exc.strerror or exc})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        msg = f"{path}:{line}: the file is not valid UTF-8 (byte 0x{raw[exc.start]:02x}); save it as UTF-8"
        raise FrontmatterError(msg) from None
    return parse_skill(text, str(path))


def parse_skill(text: str, source: str = "<string>") -> Frontmatter:
    """Split `text` into frontmatter data and body; `source` names the file in error messages."""
    if text.startswith("\ufeff"):
        _fail(source, 1, "the file starts with a byte-order mark (BOM); save it as UTF-8 without one")
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    first_end = text.find("\n")
    if (text if first_end < 0 else text[:first_end]).rstrip(" \t") != "---":
        _fail(source, 1, "no frontmatter: the file must start with a '---' line")
    if first_end < 0:
        _fail(source, 1, "frontmatter is never closed with a '---' line")
    # The closing line is the first later line that is `---` plus optional blanks.
    at = first_end
    while True:
        at = text.find("\n---", at)
        if at < 0:
            _fail(source, 1, "frontmatter is never closed with a '---' line")
        line_end = text.find("\n", at + 1)
        rest = text[at + 4 :] if line_end < 0 else text[at + 4 : line_end]
        if not rest.strip(" \t"):
            break
        at += 1
    block = text[first_end + 1 : at + 1]  # every frontmatter line, each ending in "\n"
    body = "" if line_end < 0 else text[line_end + 1 :]
    lines = block.split("\n")
    lines.pop()  # the empty string after the last "\n"
    if block:
        bad = _bad_char().search(block)
        if bad:
            _fail(source, block.count("\n", 0, bad.start()) + 2, _bad_char_sentence(bad.group()))
    data = _Reader(lines, source).document() if lines else {}
    return Frontmatter(data=data, body=body, body_line=len(lines) + 3)


def _fail(source: str, line: int, sentence: str) -> NoReturn:
    raise FrontmatterError(f"{source}:{line}: {sentence}")


# --- characters --------------------------------------------------------------------------------

_BAD_CHAR: re.Pattern[str] | None = None


def _bad_char() -> re.Pattern[str]:
    """Characters PyYAML refuses, or reads as line breaks where YAML 1.2 does not (compiled once)."""
    global _BAD_CHAR  # noqa: PLW0603 - compiled on first use to keep import cheap
    if _BAD_CHAR is None:
        import re

        _BAD_CHAR = re.compile(
            "[^\t\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
        )
    return _BAD_CHAR


def _bad_char_sentence(char: str) -> str:
    code = f"U+{ord(char):04X}"
    if char == "\r":
        return "a carriage return without a line feed; save the file with LF or CRLF line endings"
    if char in "\x85\u2028\u2029":
        return f"character {code} is a line break in YAML 1.1 but not in YAML 1.2; remove it"
    if char == "\ufeff":
        return "a byte-order mark (U+FEFF) inside the frontmatter is not allowed; remove it"
    return f"character {code} is not allowed in the frontmatter"


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
_NUMBER_START = frozenset("-+.0123456789")
_RESOLVE_START = _WORD_START | _NUMBER_START | frozenset("~<=")
# Number-like text with '_' in it: some YAML readers (ruamel, js-yaml) take '_' as a digit separator.
_NUMBER_CHARS = frozenset("0123456789_+-.:eExXoObBabcdfABCDF")
# First characters that need a closer look before a plain scalar (or key) may start.
_PLAIN_ODD = frozenset("&*!{}%-?:[]|>,@`#\"'.")

_NUMBER_RES: tuple[re.Pattern[str], ...] | None = None


def _number_res() -> tuple[re.Pattern[str], ...]:
    """PyYAML's float, int and timestamp patterns, then YAML 1.2 core int and float (compiled once)."""
    global _NUMBER_RES  # noqa: PLW0603 - compiled on first use to keep import cheap
    if _NUMBER_RES is None:
        import re

        _NUMBER_RES = (
            re.compile(
                r"[-+]?[0-9][0-9_]*\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?"
                r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"
            ),
            re.compile(
                r"[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+"
                r"|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+"
            ),
            re.compile(
                r"[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}"
                r":[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?"
            ),
            re.compile(r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+"),
            re.compile(
                r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)"
                r"|\.(?:nan|NaN|NAN)"
            ),
        )
    return _NUMBER_RES


def _yaml11_number(text: str) -> tuple[str, Any]:
    """What PyYAML makes of a plain scalar starting like a number: (kind, value)."""
    float_re, int_re, time_re, _, _ = _number_res()
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
    if text[0] != "." and time_re.fullmatch(text):
        return "timestamp", None
    return "str", text


def _sexagesimal(parts: list[Any]) -> Any:
    value = 0
    for part in parts:
        value = value * 60 + part
    return value


def _yaml12_number(text: str) -> tuple[str, Any]:
    """What the YAML 1.2 core schema makes of the same scalar: (kind, value)."""
    _, _, _, int_re, float_re = _number_res()
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


# --- the reader --------------------------------------------------------------------------------

_ESCAPES = {
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
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")

# Where a value sits: a list item, or a mapping at nesting depth 0 (top) to _MAX_DEPTH.
_ITEM, _TOP = -1, 0
# Mappings nest exactly as in YAML; the limit keeps a hostile file from exhausting the stack.
_MAX_DEPTH = 8

_SUBSET = "outside the supported subset"
_SLOW = object()  # the fast path's "not sure: read it the careful way"


class _Reader:
    """Reads the frontmatter lines (without their newlines); errors carry file line numbers."""

    __slots__ = ("lines", "source")

    def __init__(self, lines: list[str], source: str) -> None:
        self.lines = lines
        self.source = source

    def fail(self, index: int, sentence: str) -> NoReturn:
        # Frontmatter line 0 is line 2 of the file, after the opening '---'.
        raise FrontmatterError(f"{self.source}:{index + 2}: {sentence}")

    def document(self) -> dict[str, Any]:
        return self.mapping(0, 0, _TOP)[0]

    # -- structure --

    def next_content(self, index: int) -> tuple[int, int]:
        """The next line that is not blank or a comment, and its indentation (spaces)."""
        lines = self.lines
        while index < len(lines):
            line = lines[index]
            stripped = line.lstrip(" ")
            if stripped and stripped[0] != "#":
                if stripped[0] == "\t":  # also a blank line or a comment after a tab: PyYAML refuses both
                    self.fail(index, "tab characters are not allowed for indentation")
                return index, len(line) - len(stripped)
            index += 1
        return index, 0

    def mapping(self, index: int, indent: int, level: int) -> tuple[dict[str, Any], int]:
        """A block mapping whose keys sit at `indent`; stops at the first less-indented line."""
        data: dict[str, Any] = {}
        lines = self.lines
        count = len(lines)
        while True:
            index, at = self.next_content(index)
            if index >= count or at < indent:
                return data, index
            if at > indent:
                self.fail(index, "unexpected indentation")
            line = lines[index]
            # Fast path for the common `key: plain text` line with nothing odd in it; any doubt
            # (quotes, indicators, comments, tabs, a continuation line below) takes the full path.
            colon = line.find(": ", at)
            if colon > at and "\t" not in line and " #" not in line:
                key = line[at:colon]
                text = line[colon + 2 :].strip(" ")
                nxt = index + 1
                value: Any = _SLOW
                if (
                    text
                    and key[0] not in _PLAIN_ODD
                    and key[-1] != " "
                    and len(key) <= 1024
                    and (nxt == count or _ends_plain(lines[nxt], indent))
                ):
                    first = text[0]
                    if first not in _PLAIN_ODD:
                        if ": " not in text and text[-1] != ":":
                            value = self.resolve(index, text) if first in _RESOLVE_START else text
                    elif (
                        first in "\"'"
                        and len(text) > 1
                        and text[-1] == first
                        and first not in text[1:-1]
                        and (first == "'" or "\\" not in text)
                    ):
                        value = text[1:-1]
                if value is not _SLOW:
                    if key[0] in _RESOLVE_START and not isinstance(self.resolve(index, key), str):
                        self.key(index, at)  # raises with the full sentence
                    if key in data:
                        self.fail(index, f"duplicate key {key!r}")
                    data[key] = value
                    index = nxt
                    continue
            key, after = self.key(index, at)
            if key in data:
                self.fail(index, f"duplicate key {key!r}")
            data[key], index = self.value(index, after, at, level)

    def sequence(self, index: int, indent: int, parent: int) -> tuple[list[Any], int]:
        """A block list whose `- ` marks sit at `indent` (equal to `parent` when not indented)."""
        items: list[Any] = []
        while True:
            index, at = self.next_content(index)
            if index >= len(self.lines) or at < indent:
                return items, index
            if at > indent:
                self.fail(index, "unexpected indentation")
            if not _is_item(self.lines[index], at):
                if indent == parent:  # a list level with its key ends at the next key
                    return items, index
                self.fail(index, "expected a list item ('- ') at this indentation")
            value, index = self.value(index, at + 1, at, _ITEM)
            items.append(value)

    def key(self, index: int, at: int) -> tuple[str, int]:
        """The key of a `key: value` line; returns the key and the index just past its ':'."""
        line = self.lines[index]
        first = line[at]
        if first in _PLAIN_ODD and at == 0:
            if line.startswith("...") and line[3:4] in {"", " ", "\t"}:
                self.fail(index, f"the '...' document end marker is {_SUBSET}")
            if line.startswith("---") and line[3:4] in {" ", "\t"}:
                self.fail(index, f"a second YAML document ('---') inside the frontmatter is {_SUBSET}")
        if first in "\"'":
            text, end = self.quoted(index, at, -1, single_line=True)
            colon = end
            while colon < len(line) and line[colon] == " ":
                colon += 1
            if colon >= len(line) or line[colon] != ":":
                self.fail(index, "expected ':' after the quoted key")
            if colon + 1 < len(line) and line[colon + 1] != " ":
                self.fail(index, _after_colon_sentence(line[colon + 1]))
            return text, colon + 1
        if first in _PLAIN_ODD:
            self.check_start(index, line, at, "a key")
        colon = line.find(":", at)
        while colon >= 0 and colon + 1 < len(line) and line[colon + 1] not in " \t":
            colon = line.find(":", colon + 1)
        text = line[at:colon] if colon >= 0 else line[at:]
        if colon < 0 or " #" in text:
            self.fail(index, "expected 'key: value', but this line has no ':' after a key")
        if colon + 1 < len(line) and line[colon + 1] == "\t":
            self.fail(index, _after_colon_sentence("\t"))
        if "\t" in text:
            self.fail(index, "tab characters are not allowed in a key; quote the key")
        text = text.rstrip(" ")
        if len(text) > 1024:
            self.fail(index, "a key longer than 1024 characters is not allowed")
        key = self.resolve(index, text)
        if not isinstance(key, str):
            kind = "null" if key is None else type(key).__name__
            self.fail(index, f"key {text!r} does not read as text (YAML reads {kind}): quote it")
        return key, colon + 1

    def value(self, index: int, after: int, parent: int, level: int) -> tuple[Any, int]:
        """The value after a key's ':' or an item's '-' at `after`; `parent` is that line's indent."""
        line = self.lines[index]
        at = after
        while at < len(line) and line[at] == " ":
            at += 1
        if at < len(line):
            if line[at] == "\t":
                self.fail(index, "tab characters are not allowed between a ':' or '-' and its value")
            if line[at] != "#":
                if level == _ITEM:
                    self.check_item(index, line, at)
                return self.scalar(index, at, parent)
        # Nothing on this line: the value is on the lines below, or it is null.
        nxt, indent = self.next_content(index + 1)
        if nxt >= len(self.lines):
            return None, nxt
        below = self.lines[nxt]
        if _is_item(below, indent):
            if indent < parent or (indent == parent and level == _ITEM):
                return None, nxt
            if level == _ITEM:
                self.fail(nxt, f"lists inside lists are {_SUBSET}")
            return self.sequence(nxt, indent, parent)
        if indent <= parent:
            return None, nxt
        if level == _ITEM:
            self.check_item(nxt, below, indent)
        if self.is_entry(below, indent):
            # A list item holding a mapping was refused by check_item above.
            if level >= _MAX_DEPTH:
                self.fail(nxt, f"mappings nested more than {_MAX_DEPTH} levels deep are {_SUBSET}")
            return self.mapping(nxt, indent, level + 1)
        return self.scalar(nxt, indent, parent)

    def check_item(self, index: int, line: str, at: int) -> None:
        """A block list item must be a scalar: refuse lists and mappings inside it."""
        if _is_item(line, at) or line[at] == "[":
            self.fail(index, f"lists inside lists are {_SUBSET}")
        if self.is_entry(line, at):
            self.fail(index, f"lists of mappings are {_SUBSET}")

    def is_entry(self, line: str, at: int) -> bool:
        """Whether the text at `at` is a `key: value` entry (not a plain or quoted scalar)."""
        first = line[at]
        if first in "\"'":
            end = _quote_end(line, at)
            if end < 0:
                return False
            rest = line[end:].lstrip(" ")
            return rest[:1] == ":" and rest[1:2] in {"", " ", "\t"}
        if first in "[]{},#&*!|>%@`" or (first in "-?:" and line[at + 1 : at + 2] in {"", " ", "\t"}):
            return False
        colon = line.find(":", at)
        while colon >= 0:
            if colon + 1 == len(line) or line[colon + 1] in " \t":
                return " #" not in line[at:colon]
            colon = line.find(":", colon + 1)
        return False

    # -- scalars --

    def check_start(self, index: int, line: str, at: int, what: str) -> None:
        """Refuse what cannot start a plain scalar in block context, with the reason."""
        first = line[at]
        follow = line[at + 1 : at + 2]
        if first in "&*!":
            self.fail(index, f"anchors/aliases/tags are {_SUBSET}")
        if first == "{":
            self.fail(index, f"flow mappings ('{{...}}') are {_SUBSET}")
        if first == "%":
            self.fail(
                index,
                f"directives ('%') are {_SUBSET}" if at == 0 else "'%' cannot start a plain value; quote it",
            )
        if first in "-?:" and follow in {"", " ", "\t"}:
            if first == "?":
                self.fail(index, f"complex keys ('? ') are {_SUBSET}")
            if first == "-" and what == "a key":
                self.fail(index, "expected 'key: value', found a list item ('- ')")
            if first == "-":
                self.fail(index, f"a list item ('- ') cannot start here (nested lists are {_SUBSET})")
            self.fail(index, f"expected {what} before ':'")
        if first in "[]}|>,@`#\"'":
            self.fail(index, f"{first!r} cannot start {what}; quote it")

    def scalar(self, index: int, at: int, parent: int) -> tuple[Any, int]:
        """Any scalar (or one-line flow list) starting at `line[at]`; returns it and the next line."""
        line = self.lines[index]
        first = line[at]
        if first in "\"'":
            text, end = self.quoted(index, at, parent)
            return text, end
        if first in "|>":
            return self.block(index, at, parent)
        if first == "[":
            return self.flow(index, at), index + 1
        if first in _PLAIN_ODD:
            self.check_start(index, line, at, "a value")
        return self.plain(index, at, parent)

    def resolve(self, index: int, text: str) -> Any:
        """The value of a plain scalar; refuses the ones YAML 1.1 and 1.2 read differently."""
        if not text:
            return None
        first = text[0]
        if first not in _RESOLVE_START:
            return text
        if first in _WORD_START:
            if text in _WORDS:
                return _WORDS[text]
            if text in _YAML11_BOOLS:
                self.fail(
                    index,
                    f"ambiguous plain scalar {text!r} (YAML 1.1 reads a boolean, YAML 1.2 text): quote it",
                )
            return text
        if first in _NUMBER_START:
            old = _yaml11_number(text)
            new = _yaml12_number(text)
            if old[0] == new[0] and repr(old[1]) == repr(new[1]) and old[0] != "error":
                if old[0] != "str" or "_" not in text or not _NUMBER_CHARS.issuperset(text):
                    return old[1]
                self.fail(
                    index,
                    f"ambiguous plain scalar {text!r} (some YAML readers take it as a number): quote it",
                )
            self.fail(
                index,
                f"ambiguous plain scalar {text!r} (YAML 1.1 reads {_describe(*old)}, "
                f"YAML 1.2 {_describe(*new)}): quote it",
            )
        if first == "~" and text == "~":
            return None
        if text in {"<<", "="}:
            self.fail(index, f"the plain scalar {text!r} has a special meaning in YAML 1.1: quote it")
        return text

    def plain(self, index: int, at: int, parent: int) -> tuple[Any, int]:
        """A plain scalar; continuation lines must be indented more than `parent`."""
        lines = self.lines
        first, ended = self.plain_line(index, at)
        parts = [first]
        blank = 0
        nxt = index + 1
        while not ended and nxt < len(lines):
            line = lines[nxt]
            if line[:1] not in {" ", ""}:
                break  # the common case: the next key starts in column 1
            stripped = line.lstrip(" ")
            if not stripped:
                blank += 1
                nxt += 1
                continue
            if stripped[0] == "\t":
                self.fail(nxt, "tab characters are not allowed for indentation")
            indent = len(line) - len(stripped)
            if indent <= parent or stripped[0] == "#":
                break
            text, ended = self.plain_line(nxt, indent)
            parts.append("\n" * blank if blank else " ")
            parts.append(text)
            blank = 0
            nxt += 1
        return self.resolve(index, "".join(parts) if len(parts) > 1 else first), nxt

    def plain_line(self, index: int, at: int) -> tuple[str, bool]:
        """One line's part of a plain scalar, and whether a comment ended the scalar there."""
        line = self.lines[index]
        hash_at = line.find(" #", at)
        text = line[at:] if hash_at < 0 else line[at:hash_at]
        if "\t" in text:
            self.fail(index, "tab characters are not allowed in a plain value; quote the value")
        if ": " in text or text.endswith(":"):
            self.fail(index, f"': ' inside a plain value (a mapping here is {_SUBSET}); quote the value")
        return text.rstrip(" "), hash_at >= 0

    def quoted(self, index: int, at: int, parent: int, single_line: bool = False) -> tuple[str, int]:
        """A single- or double-quoted scalar starting at `at`.

        Returns the text and, for `single_line`, the index just past the closing
        quote; otherwise the index of the line after the scalar (its tail checked).
        """
        lines = self.lines
        start = index
        quote = lines[index][at]
        double = quote == '"'
        kind = "double" if double else "single"
        parts: list[str] = []
        line = lines[index]
        pos = at + 1
        while True:
            # One line of the scalar: raw text and escapes until the closing quote or the line end.
            joined = False  # the line ends in an escaped line break
            while True:
                close = line.find(quote, pos)
                slash = line.find("\\", pos, None if close < 0 else close) if double else -1
                if slash >= 0:
                    parts.append(line[pos:slash])
                    if slash + 1 == len(line):
                        joined = True
                        pos = len(line)
                        break
                    pos = self.escape(index, line, slash, parts)
                elif close < 0:
                    break
                elif not double and line[close + 1 : close + 2] == "'":
                    parts.append(line[pos : close + 1])
                    pos = close + 2
                else:
                    parts.append(line[pos:close])
                    if single_line:
                        return "".join(parts), close + 1
                    what = "the closing quote" + ("" if double else " (inside single quotes, write ' as '')")
                    self.tail(index, close + 1, what)
                    return "".join(parts), index + 1
            if single_line:
                self.fail(start, f"unclosed {kind} quote")
            if not joined:
                # Trailing blanks before a line break fold away; escaped ones were appended already.
                parts.append(line[pos:].rstrip(" \t"))
            blank = 0
            index += 1
            while True:
                if index >= len(lines):
                    self.fail(start, f"unclosed {kind} quote")
                line = lines[index]
                if line.strip(" \t"):
                    break
                blank += 1
                index += 1
            stripped = line.lstrip(" ")
            indent = len(line) - len(stripped)
            if indent <= parent:
                if stripped[0] == "\t":
                    self.fail(index, "tab characters are not allowed for indentation")
                self.fail(start, f"unclosed {kind} quote (its next lines must be indented under the key)")
            if blank:
                parts.append("\n" * blank)
            elif not joined:
                parts.append(" ")
            pos = len(line) - len(stripped.lstrip(" \t"))

    def escape(self, index: int, line: str, pos: int, parts: list[str]) -> int:
        """Decode the escape at `line[pos]` (a backslash) into `parts`; returns the index after it."""
        code = line[pos + 1]
        if code in _ESCAPES:
            parts.append(_ESCAPES[code])
            return pos + 2
        width = _HEX_ESCAPES.get(code)
        digits = line[pos + 2 : pos + 2 + width] if width else ""
        if not width or len(digits) < width or not _HEX_DIGITS.issuperset(digits):
            self.fail(
                index, f"invalid escape {line[pos : pos + 2 + (width or 0)]!r} in a double-quoted value"
            )
        number = int(digits, 16)
        if number > 0x10FFFF or 0xD800 <= number <= 0xDFFF:
            self.fail(index, f"escape {line[pos : pos + 2 + width]!r} is not a Unicode character")
        parts.append(chr(number))
        return pos + 2 + width

    def tail(self, index: int, pos: int, what: str) -> None:
        """Only blanks, then nothing or a comment, may follow a finished value on its line."""
        line = self.lines[index]
        at = pos
        while at < len(line) and line[at] == " ":
            at += 1
        if at == len(line):
            return
        if line[at] == "#":
            if at > pos:
                return
            self.fail(index, "a comment needs a space before its '#'")
        if line[at] == "\t":
            self.fail(index, f"tab characters are not allowed after {what}")
        self.fail(index, f"unexpected text after {what}")

    def block(self, index: int, at: int, parent: int) -> tuple[str, int]:
        """A literal (`|`) or folded (`>`) block scalar, read the way PyYAML reads it."""
        lines = self.lines
        line = lines[index]
        folded = line[at] == ">"
        chomp: bool | None = None  # None: clip, False: strip ('-'), True: keep ('+')
        step = 0
        pos = at + 1
        for _ in range(2):
            char = line[pos : pos + 1]
            if char and char in "+-" and chomp is None:
                chomp = char == "+"
            elif char and char in "123456789" and not step:
                step = int(char)
            else:
                break
            pos += 1
        if pos < len(line) and line[pos] != " ":
            self.fail(index, f"invalid block scalar header {line[at:].split(' ')[0]!r}")
        self.tail(index, pos, "the block scalar header")
        nxt = index + 1
        if step:
            indent = parent + step
            breaks, nxt = self.block_breaks(nxt, indent)
        else:
            # The first non-blank line sets the indentation; blank lines before it count too.
            breaks = widest = 0
            while nxt < len(lines) and not lines[nxt].strip(" "):
                widest = max(widest, len(lines[nxt]))
                breaks += 1
                nxt += 1
            first = _indent(lines[nxt]) if nxt < len(lines) else 0
            indent = max(parent + 1, widest, first)
            if parent < first < widest:
                self.fail(nxt, "a blank line before this block scalar's text is indented more than the text")
        chunks: list[str] = []
        line_break = ""
        while nxt < len(lines) and _indent(lines[nxt]) >= indent:
            chunks.append("\n" * breaks)
            text = lines[nxt][indent:]
            leading_blank = text[:1] in {" ", "\t"}
            chunks.append(text)
            line_break = "\n"
            breaks, nxt = self.block_breaks(nxt + 1, indent)
            if nxt < len(lines) and _indent(lines[nxt]) >= indent:
                if folded and not leading_blank and lines[nxt][indent] not in " \t":
                    if not breaks:
                        chunks.append(" ")
                else:
                    chunks.append("\n")
            else:
                break
        if chomp is not False:
            chunks.append(line_break)
        if chomp:
            chunks.append("\n" * breaks)
        return "".join(chunks), nxt

    def block_breaks(self, index: int, indent: int) -> tuple[int, int]:
        """Count the blank lines (only spaces, no wider than `indent`) from `index` on."""
        lines = self.lines
        count = 0
        while index < len(lines):
            line = lines[index]
            if len(line) > indent or line.strip(" "):
                break
            count += 1
            index += 1
        return count, index

    def flow(self, index: int, at: int) -> list[Any]:
        """A flow list of scalars on one line: `[a, "b c", 'd']`."""
        line = self.lines[index]
        end = len(line)
        items: list[Any] = []
        pos = at + 1
        want_item = True
        while True:
            while pos < end and line[pos] == " ":
                pos += 1
            if pos == end or (line[pos] == "#" and line[pos - 1] == " "):
                self.fail(index, "unclosed '[' (a flow list must close on the same line)")
            char = line[pos]
            if char == "\t":
                self.fail(index, "tab characters are not allowed inside a flow list")
            if char == "]":
                pos += 1
                break
            if not want_item:
                if char != ",":
                    self.fail(index, "expected ',' or ']' in the flow list")
                want_item = True
                pos += 1
                continue
            if char in "\"'":
                text, pos = self.quoted(index, pos, -1, single_line=True)
                items.append(text)
            elif char in "[{":
                self.fail(index, f"nested collections inside a flow list are {_SUBSET}")
            elif char in "&*!":
                self.fail(index, f"anchors/aliases/tags are {_SUBSET}")
            elif char in ",?:#|>%@`}" or (char == "-" and line[pos + 1 : pos + 2] in {"", " ", ",", "]"}):
                self.fail(index, f"{char!r} cannot start a flow list item; quote the item")
            else:
                start = pos
                while pos < end:
                    char = line[pos]
                    if char in ",]":
                        break
                    if char in "[]{}?":
                        self.fail(index, f"{char!r} inside a flow list item; quote the item")
                    if char == ":" and line[pos + 1 : pos + 2] in {"", " ", ",", "[", "]", "{", "}"}:
                        self.fail(index, f"mappings inside a flow list are {_SUBSET}")
                    if char == "\t":
                        self.fail(index, "tab characters are not allowed inside a flow list")
                    if char == "#" and line[pos - 1] == " ":
                        break
                    pos += 1
                items.append(self.resolve(index, line[start:pos].rstrip(" ")))
            want_item = False
        self.tail(index, pos, "the flow list")
        return items


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _ends_plain(line: str, parent: int) -> bool:
    """Whether `line` certainly cannot continue a plain scalar whose key sits at `parent`."""
    if parent == 0:
        return line[:1] not in {" ", "", "\t"}
    stripped = line.lstrip(" ")
    return bool(stripped) and stripped[0] != "\t" and len(line) - len(stripped) <= parent


def _is_item(line: str, at: int) -> bool:
    """Whether `line` has a block list mark (`-` then a blank or the end) at `at`."""
    return line[at] == "-" and line[at + 1 : at + 2] in {"", " ", "\t"}


def _quote_end(line: str, at: int) -> int:
    """The index just past the quoted scalar that starts at `at`, or -1 if it does not close."""
    quote = line[at]
    pos = at + 1
    while True:
        close = line.find(quote, pos)
        if close < 0:
            return -1
        if quote == "'" and line[close + 1 : close + 2] == "'":
            pos = close + 2
        elif quote == '"' and (len(line[pos:close]) - len(line[pos:close].rstrip("\\"))) % 2:
            pos = close + 1  # an escaped quote: an odd run of backslashes before it
        else:
            return close + 1


def _after_colon_sentence(char: str) -> str:
    if char == "\t":
        return "tab characters are not allowed after ':'; use a space"
    return "expected a space after ':'"
