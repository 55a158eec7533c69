"""The frontmatter reader: block and flow structure over the frontmatter lines (private).

`read(lines)` returns the data and the problems it stepped around: a top-level
entry that cannot be read is left out and reported, unless it is `name` or
`description`, which fail the whole read. Errors carry the index of the
frontmatter line; the public face (`frontmatter.py`) adds the file and the
line number.
"""

from __future__ import annotations

from edgar_min.skills._scalars import (
    ESCAPES,
    HEX_DIGITS,
    HEX_ESCAPES,
    PLAIN_ODD,
    RESOLVE_START,
    Ambiguous,
    is_timestamp,
    resolve,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NoReturn

__all__ = ["Failure", "read"]

# Collections nest exactly as in YAML; the limit keeps a hostile file from exhausting the stack.
MAX_DEPTH = 8
# Keys that cannot be stepped around: a skill without them is not a skill.
VITAL = frozenset({"name", "description"})

_SUBSET = "outside the supported subset"
_SLOW = object()  # the fast path's "not sure: read it the careful way"
_FLOW_END = frozenset(",[]{}")
_FLOW_STOP = frozenset(",[]{}?")


class Failure(Exception):
    """The reader cannot read line `index` of the frontmatter."""

    def __init__(self, index: int, sentence: str, end: int | None = None) -> None:
        super().__init__(sentence)
        self.index = index
        self.sentence = sentence
        self.end = end  # the line after the entry, when reading it found where it ends


def read(lines: list[str], bad: list[tuple[int, str]]) -> tuple[dict[str, Any], list[Failure]]:
    """The data of the frontmatter `lines`, and every entry left out (`bad`: lines already refused)."""
    reader = _Reader(list(lines))
    problems: list[Failure] = []
    for index, sentence in bad:
        if reader.lines[index]:  # not already left out with an earlier entry
            start, end = reader.leave_out(Failure(index, sentence), None, problems)
            for i in range(start, end):
                reader.lines[i] = ""
    data = reader.document(problems)
    problems.sort(key=lambda p: p.index)
    return data, problems


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _top_key_line(line: str) -> bool:
    """Whether a line could start a top-level entry (column 1, not a list item or a flow's end).

    A block scalar's `|` or `>` in column 1 belongs to the entry above, as YAML reads it
    (`a:` then `|` is `a: ''`), so a problem there leaves that entry out too.
    """
    first = line[:1]
    if not first or first in " \t#]},|>":
        return False
    return not (first == "-" and line[1:2] in {"", " ", "\t"})


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


def _written_key(line: str) -> str:
    """What a person wrote before the first ':' of a line, blanks and quotes taken off."""
    return line.partition(":")[0].strip(" \t").strip("\"'").strip(" \t")


def _after_colon_sentence(char: str, key: str) -> str:
    if char == "\t":
        # PyYAML refuses `name:<TAB>x` ("found character '\t' that cannot start any token").
        return f"tab characters are not allowed after {key[:60] + ':'!r}; use a space"
    return "expected a space after ':'"


class _Reader:
    """Reads the frontmatter lines (without their newlines)."""

    __slots__ = ("dropped", "fi", "fp", "lines")

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.dropped: set[str] = set()  # top-level keys left out: a second entry of one does not win
        # The flow cursor: line index and position inside a flow collection.
        self.fi = 0
        self.fp = 0

    def fail(self, index: int, sentence: str) -> NoReturn:
        raise Failure(index, sentence)

    def document(self, problems: list[Failure]) -> dict[str, Any]:
        """The top-level mapping, stepping around each entry that cannot be read.

        Its keys sit where the first one does (column 1, nearly always). Each entry is
        read once: one that fails is left out and reading goes on after it.
        """
        lines = self.lines
        data: dict[str, Any] = {}
        seen: dict[str, int] = {}
        index, indent = 0, -1
        while True:
            start = None
            try:
                index, at = self.next_content(index)
                if index >= len(lines):
                    return data
                start = index
                if indent < 0:
                    indent = at
                if at != indent:
                    self.fail(index, "unexpected indentation")
                key, value, index = self.entry(index, at, indent, 0, seen)
                data[key] = value
            except Failure as failure:
                _, index = self.leave_out(failure, start, problems)
                data = {k: v for k, v in data.items() if k not in self.dropped}

    # -- stepping around a broken entry --

    def leave_out(self, failure: Failure, start: int | None, problems: list[Failure]) -> tuple[int, int]:
        """The lines [start, end) of the top-level entry holding the failed line, to be left out.

        Re-raises when that entry is `name` or `description`, or may be. `start`: where the
        entry being read began, when it is known. Its key joins `dropped`: neither of two
        entries of one key wins.
        """
        first, end = self.span(failure.index)
        if first is None:
            raise failure
        if failure.end is not None:
            end = max(end, failure.end)
        if start is not None and start < first and _top_key_line(self.lines[start]):
            first = start
        try:
            key = self.key(first, 0)[0]
        except Failure:
            key = None
            line = self.lines[first]
            if line[0] in "?&!*" or _written_key(line) in VITAL:
                # A key edgar cannot read might be `name` itself; `name:<TAB>x` is, and is never dropped.
                raise failure from None
        if key in VITAL:
            raise failure
        if key is not None:
            self.dropped.add(key)
        problems.append(failure)
        return first, end

    def span(self, index: int) -> tuple[int | None, int]:
        """The lines of the top-level entry that holds line `index`: [start, end)."""
        lines = self.lines
        start = index if index < len(lines) else len(lines) - 1
        while start >= 0 and not _top_key_line(lines[start]):
            start -= 1
        if start < 0:
            return None, 0
        end = start + 1
        while end < len(lines) and not _top_key_line(lines[end]):
            end += 1
        return start, end

    # -- block structure --

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

    def mapping(self, index: int, indent: int, depth: int, first: bool = False) -> tuple[dict[str, Any], int]:
        """A block mapping whose keys sit at `indent`; stops at the first less-indented line.

        `first`: the first key is on line `index` at `indent`, after a list item's `- `.
        """
        data: dict[str, Any] = {}
        seen: dict[str, int] = {}
        count = len(self.lines)
        while True:
            if first:
                at, first = indent, False
            else:
                index, at = self.next_content(index)
                if index >= count or at < indent:
                    return data, index
                if at > indent:
                    self.fail(index, "unexpected indentation")
            key, value, index = self.entry(index, at, indent, depth, seen)
            data[key] = value

    def entry(
        self, index: int, at: int, indent: int, depth: int, seen: dict[str, int]
    ) -> tuple[str, Any, int]:
        """One `key: value` entry whose key is at `line[at]`: the key, the value and the next line."""
        found = self.plain_entry(self.lines[index], at, indent, index)
        if found is _SLOW:
            key, after = self.key(index, at)
            value, nxt = self.value(index, after, at, depth)
        else:
            key, value, nxt = found
        if key in seen or (not depth and key in self.dropped):
            # Told after the value is read: it may run on over lines that look like keys, and the
            # whole entry is left out, not only up to the next of those.
            raise Failure(index, f"duplicate key {key!r}", end=nxt)
        seen[key] = index
        return key, value, nxt

    def plain_entry(self, line: str, at: int, indent: int, index: int) -> Any:
        """The fast path: `(key, value, next line)` for a `key: text` line with nothing odd in it.

        Any doubt (quotes with escapes, indicators, comments, tabs, a line below that could
        continue the value) returns `_SLOW`, and the line is read the careful way.
        """
        colon = line.find(": ", at)
        if colon <= at or "\t" in line or " #" in line:
            return _SLOW
        key = line[at:colon]
        text = line[colon + 2 :].strip(" ")
        nxt = index + 1
        if not (
            text
            and key[0] not in PLAIN_ODD
            and key[-1] != " "
            and len(key) <= 1024
            and (nxt == len(self.lines) or _ends_plain(self.lines[nxt], indent))
        ):
            return _SLOW
        first = text[0]
        if first not in PLAIN_ODD:
            if ": " in text or text[-1] == ":":
                return _SLOW
            value = self.resolve(index, text) if first in RESOLVE_START else text
        elif (
            first in "\"'"
            and len(text) > 1
            and text[-1] == first
            and first not in text[1:-1]
            and (first == "'" or "\\" not in text)
        ):
            value = text[1:-1]
        else:
            return _SLOW
        if key[0] in RESOLVE_START and (not isinstance(self.resolve(index, key), str) or is_timestamp(key)):
            self.key(index, at)  # a key that does not read as text raises with the full sentence
        return key, value, nxt

    def sequence(self, index: int, indent: int, parent: int, depth: int) -> tuple[list[Any], int]:
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
            value, index = self.value(index, at + 1, at, depth, item=True)
            items.append(value)

    def key(self, index: int, at: int) -> tuple[str, int]:
        """The key of a `key: value` line; returns the key and the index just past its ':'."""
        line = self.lines[index]
        first = line[at]
        if first in PLAIN_ODD and at == 0:
            if line.startswith("...") and line[3:4] in {"", " ", "\t"}:
                self.fail(index, f"the '...' document end marker is {_SUBSET}")
            if line.startswith("---") and line[3:4] in {" ", "\t"}:
                self.fail(index, f"a second YAML document ('---') inside the frontmatter is {_SUBSET}")
        if first in "\"'":
            text, end_index, end = self.quoted(index, at)
            if end_index != index:
                self.fail(index, "a quoted key must fit on one line")
            colon = end
            while colon < len(line) and line[colon] == " ":
                colon += 1
            if colon >= len(line) or line[colon] != ":":
                self.fail(index, "expected ':' after the quoted key")
            if colon + 1 < len(line) and line[colon + 1] != " ":
                self.fail(index, _after_colon_sentence(line[colon + 1], text))
            return text, colon + 1
        if first in PLAIN_ODD:
            self.check_start(index, line, at, "a key")
        colon = line.find(":", at)
        while colon >= 0 and colon + 1 < len(line) and line[colon + 1] not in " \t":
            colon = line.find(":", colon + 1)
        text = line[at:colon] if colon >= 0 else line[at:]
        if colon < 0 or " #" in text:
            self.fail(index, "expected 'key: value', but this line has no ':' after a key")
        if colon + 1 < len(line) and line[colon + 1] == "\t":
            self.fail(index, _after_colon_sentence("\t", text.rstrip(" \t")))
        if "\t" in text:
            self.fail(index, "tab characters are not allowed in a key; quote the key")
        text = text.rstrip(" ")
        if len(text) > 1024:
            self.fail(index, "a key longer than 1024 characters is not allowed")
        return self.plain_key(index, text), colon + 1

    def plain_key(self, index: int, text: str) -> str:
        """A plain key's text; refuses one YAML reads as something else (a number, a date, null)."""
        key = self.resolve(index, text)
        if not isinstance(key, str):
            kind = "null" if key is None else type(key).__name__
            self.fail(index, f"key {text!r} does not read as text (YAML reads {kind}): quote it")
        if is_timestamp(key):
            self.fail(index, f"key {text!r} does not read as text (YAML 1.1 reads a date): quote it")
        return key

    def value(self, index: int, after: int, parent: int, depth: int, item: bool = False) -> tuple[Any, int]:
        """The value after a key's ':' or an item's '-' at `after`; `parent` is that line's indent."""
        line = self.lines[index]
        at = after
        while at < len(line) and line[at] == " ":
            at += 1
        if at < len(line):
            if line[at] == "\t":
                self.fail(index, "tab characters are not allowed between a ':' or '-' and its value")
            if line[at] != "#":
                if item and _is_item(line, at):
                    self.fail(index, f"block lists inside block lists are {_SUBSET}")
                if item and self.is_entry(line, at):
                    return self.nested(index, at, depth, first=True)
                return self.scalar(index, at, parent, depth)
        # Nothing on this line: the value is on the lines below, or it is null.
        nxt, indent = self.next_content(index + 1)
        if nxt >= len(self.lines):
            return None, nxt
        below = self.lines[nxt]
        if _is_item(below, indent):
            if indent < parent or (indent == parent and item):
                return None, nxt
            if item:
                self.fail(nxt, f"block lists inside block lists are {_SUBSET}")
            return self.sequence(nxt, indent, parent, depth)
        if indent <= parent:
            return None, nxt
        if self.is_entry(below, indent):
            return self.nested(nxt, indent, depth)
        return self.scalar(nxt, indent, parent, depth)

    def nested(self, index: int, indent: int, depth: int, first: bool = False) -> tuple[Any, int]:
        if depth >= MAX_DEPTH:
            self.fail(index, f"collections nested more than {MAX_DEPTH} levels deep are {_SUBSET}")
        return self.mapping(index, indent, depth + 1, first)

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

    def resolve(self, index: int, text: str) -> Any:
        try:
            return resolve(text)
        except Ambiguous as exc:
            self.fail(index, str(exc))

    def check_start(self, index: int, line: str, at: int, what: str) -> None:
        """Refuse what cannot start a plain scalar in block context, with the reason."""
        first = line[at]
        follow = line[at + 1 : at + 2]
        if first in "&*!":
            self.fail(index, f"anchors/aliases/tags are {_SUBSET}")
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
        if first in "[]{}|>,@`#\"'":
            self.fail(index, f"{first!r} cannot start {what}; quote it")

    def scalar(self, index: int, at: int, parent: int, depth: int) -> tuple[Any, int]:
        """Any scalar or flow collection starting at `line[at]`; returns it and the next line."""
        line = self.lines[index]
        first = line[at]
        if first in "\"'":
            text, end_index, end = self.quoted(index, at)
            what = "the closing quote" + ("" if first == '"' else " (inside single quotes, write ' as '')")
            self.tail(end_index, end, what)
            return text, end_index + 1
        if first in "|>":
            return self.block(index, at, parent)
        if first in "[{":
            self.fi, self.fp = index, at
            value = self.flow_node(depth)
            self.tail(self.fi, self.fp, "the flow collection")
            return value, self.fi + 1
        if first in PLAIN_ODD:
            self.check_start(index, line, at, "a value")
        return self.plain(index, at, parent)

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

    def quoted(self, index: int, at: int) -> tuple[str, int, int]:
        """A single- or double-quoted scalar at `at`: its text, and the line and position after it.

        Its next lines may sit at any indentation, as PyYAML reads them; a `...` line
        inside it would end the document, so it is refused.
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
                    return "".join(parts), index, close + 1
            if not joined:
                # Trailing blanks before a line break fold away; escaped ones were appended already.
                parts.append(line[pos:].rstrip(" \t"))
            blank = 0
            index += 1
            while True:
                if index >= len(lines):
                    self.fail(start, f"unclosed {kind} quote")
                line = lines[index]
                if line.startswith("...") and line[3:4] in {"", " ", "\t"}:
                    self.fail(
                        index, f"a '...' line inside a {kind}-quoted value ends the document; indent it"
                    )
                if line.strip(" \t"):
                    break
                blank += 1
                index += 1
            if blank:
                parts.append("\n" * blank)
            elif not joined:
                parts.append(" ")
            pos = len(line) - len(line.lstrip(" \t"))

    def escape(self, index: int, line: str, pos: int, parts: list[str]) -> int:
        """Decode the escape at `line[pos]` (a backslash) into `parts`; returns the index after it."""
        code = line[pos + 1]
        if code in ESCAPES:
            parts.append(ESCAPES[code])
            return pos + 2
        width = HEX_ESCAPES.get(code)
        digits = line[pos + 2 : pos + 2 + width] if width else ""
        if not width or len(digits) < width or not HEX_DIGITS.issuperset(digits):
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

    # -- flow collections: `[...]` and `{...}`, nested, over any number of lines --

    def flow_char(self, opened: int, closer: str) -> str:
        """Move the flow cursor past blanks, comments and line ends; the character there."""
        lines = self.lines
        while True:
            line = lines[self.fi]
            pos = self.fp
            while pos < len(line) and line[pos] == " ":
                pos += 1
            self.fp = pos
            if pos < len(line):
                char = line[pos]
                if char == "\t":
                    self.fail(self.fi, "tab characters are not allowed inside a flow collection")
                if char != "#":
                    return char
                if pos and line[pos - 1] != " ":
                    self.fail(self.fi, "a comment needs a space before its '#'")
            self.fi += 1
            self.fp = 0
            if self.fi >= len(lines):
                self.fail(opened, f"unclosed {closer!r}: the flow collection never closes")
            if lines[self.fi].startswith("...") and lines[self.fi][3:4] in {"", " ", "\t"}:
                self.fail(self.fi, f"the '...' document end marker is {_SUBSET}")

    def flow_node(self, depth: int) -> Any:
        """The collection or scalar at the flow cursor."""
        line = self.lines[self.fi]
        char = line[self.fp]
        if char in "[{":
            if depth >= MAX_DEPTH:
                self.fail(self.fi, f"collections nested more than {MAX_DEPTH} levels deep are {_SUBSET}")
            self.fp += 1
            return self.flow_list(depth + 1) if char == "[" else self.flow_map(depth + 1)
        if char in "\"'":
            text, self.fi, self.fp = self.quoted(self.fi, self.fp)
            return text
        return self.flow_plain()

    def flow_list(self, depth: int) -> list[Any]:
        opened = self.fi
        items: list[Any] = []
        while True:
            char = self.flow_char(opened, "[")
            if char == "]":
                self.fp += 1
                return items
            start = self.fi
            kind = char
            item = self.flow_node(depth)
            char = self.flow_char(opened, "[")
            if char == ":":
                # `[a: 1]` is a list holding the one-entry mapping {a: 1}.
                if kind in "[{":
                    self.fail(self.fi, f"a collection used as a key is {_SUBSET}")
                key = self.flow_key(start, item, quoted=kind in "\"'")
                self.fp += 1
                char = self.flow_char(opened, "[")
                item = {key: None if char in ",]" else self.flow_node(depth)}
                char = self.flow_char(opened, "[")
            items.append(item)
            if char == ",":
                self.fp += 1
            elif char != "]":
                self.fail(self.fi, "expected ',' or ']' in the flow list")

    def flow_map(self, depth: int) -> dict[str, Any]:
        opened = self.fi
        data: dict[str, Any] = {}
        while True:
            char = self.flow_char(opened, "{")
            if char == "}":
                self.fp += 1
                return data
            if char == ":":
                self.fail(self.fi, "expected a key before ':' in the flow mapping")
            if char in "[{":
                self.fail(self.fi, f"a collection used as a key is {_SUBSET}")
            start = self.fi
            key = self.flow_key(start, self.flow_node(depth), quoted=char in "\"'")
            char = self.flow_char(opened, "{")
            value = None
            if char == ":":
                if self.fi != start:
                    self.fail(self.fi, "a key inside a flow mapping must be on one line with its ':'")
                self.fp += 1
                char = self.flow_char(opened, "{")
                if char not in ",}":
                    value = self.flow_node(depth)
                    char = self.flow_char(opened, "{")
            if key in data:
                self.fail(start, f"duplicate key {key!r}")
            data[key] = value
            if char == ",":
                self.fp += 1
            elif char != "}":
                self.fail(self.fi, "expected ',' or '}' in the flow mapping")

    def flow_key(self, start: int, key: Any, quoted: bool) -> str:
        """A key read inside a flow collection: text on one line."""
        if self.fi != start:
            self.fail(start, "a key inside a flow collection must fit on one line")
        if not isinstance(key, str):
            kind = "null" if key is None else type(key).__name__
            self.fail(start, f"a key inside a flow collection does not read as text (YAML reads {kind})")
        if not quoted and is_timestamp(key):
            self.fail(start, f"key {key!r} does not read as text (YAML 1.1 reads a date): quote it")
        return key

    def flow_plain(self) -> Any:
        """A plain scalar inside a flow collection, folded over lines as YAML folds it."""
        lines = self.lines
        index, pos = self.fi, self.fp
        line = lines[index]
        char = line[pos]
        follow = line[pos + 1 : pos + 2]
        if char in "&*!":
            self.fail(index, f"anchors/aliases/tags are {_SUBSET}")
        if char == "?":
            self.fail(index, f"complex keys ('?') are {_SUBSET}")
        if char == "-" and follow in {"", " "}:
            self.fail(index, f"a block list item ('- ') inside a flow collection is {_SUBSET}")
        if char in "|>":
            self.fail(index, f"block scalars ('{char}') inside a flow collection are {_SUBSET}")
        if char in "%@`" or char in _FLOW_END or char == ":":
            self.fail(index, f"{char!r} cannot start a value inside a flow collection; quote it")
        parts: list[str] = []
        while True:
            start = pos
            while pos < len(line):
                char = line[pos]
                if char in _FLOW_STOP:
                    if char == "?":
                        self.fail(index, "'?' inside a value in a flow collection; quote the value")
                    break
                if char == ":" and line[pos + 1 : pos + 2] in {"", " ", ",", "[", "]", "{", "}"}:
                    break
                if char == "\t":
                    self.fail(index, "tab characters are not allowed inside a flow collection")
                if char == "#" and line[pos - 1] == " ":
                    break
                pos += 1
            parts.append(line[start:pos].rstrip(" "))
            self.fi, self.fp = index, pos
            if pos < len(line):
                break
            # The line ended inside the scalar: a next line that does not start a token goes on.
            nxt, blank = index + 1, 0
            while nxt < len(lines) and not lines[nxt].strip(" "):
                blank += 1
                nxt += 1
            if nxt >= len(lines):
                break
            more = lines[nxt]
            at = len(more) - len(more.lstrip(" "))
            char = more[at]
            if char == "\t":
                self.fail(nxt, "tab characters are not allowed inside a flow collection")
            if char in _FLOW_END or char == "#" or (char == ":" and more[at + 1 : at + 2] in {"", " "}):
                break
            if more.startswith("...") and more[3:4] in {"", " ", "\t"}:
                break
            parts.append("\n" * blank if blank else " ")
            index, pos, line = nxt, at, more
        return self.resolve(self.fi, "".join(parts))
