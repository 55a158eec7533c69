"""Read the YAML frontmatter of a SKILL.md file: a strict, documented subset of YAML.

A SKILL.md starts with a line `---`, then YAML, then another `---` line, then
Markdown. Only the first `---` line after the opening one closes the
frontmatter (trailing spaces on either delimiter are fine; `...` does not
close it); the body may contain further `---` lines. CRLF line endings are
read as LF, in the body too.

Inside the subset the result is what a full YAML parser (PyYAML's
`safe_load`, the test oracle) gives, so a skill reads the same here as in
any other agent; the one documented difference is dates. Everything outside
it is a sentence naming the file and the line, never a guess. The subset:

- The frontmatter is a block mapping whose keys start in column 1. Keys are
  plain (`allowed-tools`) or quoted on one line (`"a key"`), must read as
  text, and may not repeat.
- A value is a scalar, a list, or a mapping, nested up to 8 levels below the
  top: block mappings (`metadata:` then `hermes:` then `tags: [...]`), block
  lists whose items are scalars, mappings (`- kind: pip` then
  `  package: x`) or flow collections, and flow collections `[...]` and
  `{...}` nested in any way, on one line or over several
  (`metadata: {"openclaw": {"requires": {"bins": ["gh"]}}}`), with trailing
  commas, `[a: 1]` pairs and `{a, b}` keys without values.
- Scalars: plain, also over several more-indented lines, folded as YAML
  folds them; single-quoted (`''` is a quote); double-quoted with every YAML
  escape (`\\ \\" \\n \\t \\xXX \\uXXXX \\UXXXXXXXX \\N \\_ \\L \\P ...`,
  escaped line breaks); both quoted styles may span lines, at any
  indentation, as PyYAML reads them. Block scalars `|` and `>` with chomping
  (`-`, `+`) and indentation (`1`-`9`) indicators. A value may also start on
  the line after its key.
- Comments: whole lines, and after a value when a space precedes the `#`.
- Plain scalars are read with the YAML 1.2 core schema: `null`, `Null`,
  `NULL`, `~` and nothing are None; `true`/`false` (also `True`, `TRUE` ...)
  are booleans; decimal integers, floats, `.inf` and `.nan` are numbers;
  anything else is text. Dates and times (`2026-02-06`,
  `2026-02-06T09:00:00Z`) are the text the file holds: YAML 1.2 reads text,
  PyYAML a `datetime.date` or `datetime`, and the text is what a person
  wrote (an impossible date such as `2026-02-30` is refused). Where YAML 1.1
  (PyYAML) reads any other plain scalar differently - `yes`/`no`/`on`/`off`,
  `0777`, `1_000`, `1:20`, `1e3`, `0o17`, `+0x1F` - it is refused as
  ambiguous: quote it. So is number-like text with `_` in it (`-_4`), which
  some readers take as a number.

Outside the subset, each with its own sentence: anchors `&`, aliases `*`,
tags `!`, complex keys `?`, directives `%`, a second document (`--- ` or
`...` inside the frontmatter), block lists directly inside block lists,
collections nested deeper than 8 levels, duplicate keys, tabs used for
indentation or between tokens (a tab right after a key's ':' too, which PyYAML
refuses), control characters, escapes of lone surrogates
(`\\uD83D`, which PyYAML keeps as a broken character), and the YAML 1.1-only
line breaks (U+0085, U+2028, U+2029). A frontmatter with no keys reads as
`{}` (PyYAML would give None).

A problem in one top-level entry other than `name` and `description` does
not lose the skill: that entry is left out of `data` and its sentence (with
file and line) is kept in `Frontmatter.warnings`. A problem in `name` or
`description`, or in the delimiters, is a `FrontmatterError`. A byte-order
mark at the start is read past, with a warning (some agents refuse it).
"""

from __future__ import annotations

from edgar_min.records import dataclass
from edgar_min.skills._reader import Failure, read
from edgar_min.skills._scalars import BAD_CHAR, PLAIN_ODD, Ambiguous, bad_char_sentence, is_timestamp, resolve
from edgar_min.skills.skillfile import FrontmatterError, read_skill_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NoReturn

__all__ = ["Frontmatter", "FrontmatterError", "parse_skill", "read_skill", "render_scalar"]


@dataclass(frozen=True, slots=True)
class Frontmatter:
    """A parsed SKILL.md: the frontmatter's keys in file order, the Markdown after it, what was left out."""

    data: dict[str, Any]
    body: str
    body_line: int  # 1-based line of the file where `body` starts
    warnings: tuple[str, ...] = ()  # `FILE:LINE: sentence` for each entry left out of `data`


def read_skill(path: str, *, inside: str | None = None) -> Frontmatter:
    """Read and parse one SKILL.md (UTF-8), reached as `read_skill_file` reaches it.

    Any failure is a `FrontmatterError`.
    """
    raw, _ = read_skill_file(path, inside=inside)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        msg = f"{path}:{line}: the file is not valid UTF-8 (byte 0x{raw[exc.start]:02x}); save it as UTF-8"
        raise FrontmatterError(msg) from None
    return parse_skill(text, str(path))


def parse_skill(text: str, source: str = "<string>") -> Frontmatter:
    """Split `text` into frontmatter data and body; `source` names the file in error messages."""
    warnings: list[str] = []
    if text.startswith("\ufeff"):
        text = text[1:]
        warnings.append(
            f"{source}:1: the file starts with a byte-order mark (BOM); save it as UTF-8 without one"
        )
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
    if not lines:
        return Frontmatter({}, body, 3, tuple(warnings))
    bad = []
    # Every character the pattern finds is one `isprintable` refuses too: a frontmatter of
    # printable text (nearly all) has none, and its big class of characters is not compiled.
    printable = block.replace("\t", "").replace("\n", "").isprintable()
    for found in () if printable else BAD_CHAR.finditer(block):
        index = block.count("\n", 0, found.start())
        if not bad or bad[-1][0] != index:
            bad.append((index, bad_char_sentence(found.group())))
    try:
        data, problems = read(lines, bad)
    except Failure as failure:
        _fail(source, failure.index + 2, failure.sentence)
    warnings += (f"{source}:{p.index + 2}: {p.sentence}" for p in problems)
    return Frontmatter(data, body, len(lines) + 3, tuple(warnings))


def _fail(source: str, line: int, sentence: str) -> NoReturn:
    raise FrontmatterError(f"{source}:{line}: {sentence}")


# What a double-quoted scalar must escape: the quote, the backslash, and every character
# the reader (or another agent's) would refuse or read as a line break.
_ESCAPE_NAMED = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t"}
_PLAIN_NEVER = frozenset(":#\"'{}[],&*!|>%@`")
_YAML11_SHORT = frozenset({"y", "Y", "n", "N"})


def render_scalar(text: str, *, plain: bool = True) -> str:
    """`text` as a YAML scalar that this reader, PyYAML and strictyaml all read back as `text`.

    Plain (when `plain`) if nothing could read it as anything else, else double-quoted.
    Never holds `---`, which some readers take for the end of the frontmatter wherever
    it stands.
    """
    if plain and _plain_reads_back(text):
        return text
    out = []
    for char in text:
        code = ord(char)
        if char in _ESCAPE_NAMED:
            out.append(_ESCAPE_NAMED[char])
        elif code < 0x20 or 0x7F <= code <= 0x9F or char in "\u2028\u2029\ufeff" or 0xD800 <= code <= 0xDFFF:
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(char)
    return '"' + "".join(out).replace("---", "--\\x2d") + '"'


def _plain_reads_back(text: str) -> bool:
    if not text or text != text.strip() or "---" in text or text in _YAML11_SHORT:
        return False
    if not (text[0].isalnum() or text[0] == "(") or text[0] in PLAIN_ODD:
        return False
    if "\t" in text or "\n" in text or _PLAIN_NEVER.intersection(text):
        return False
    if not text.isprintable() and BAD_CHAR.search(text):  # see parse_skill
        return False
    try:
        value = resolve(text)
    except Ambiguous:
        return False
    return value == text and isinstance(value, str) and not is_timestamp(text)
