"""Prompts in, drafts out: the briefs a model gets, the schema of its reply, and the reply read back.

A reply comes in one of two shapes. Asked under a JSON schema (an
OpenAI-compatible `response_format`, an Anthropic forced tool), it is one
object with the name, the description and the four sections as fields, and
code renders the sections. Asked as text, it is a `name:` line, a
`description:` line and the four `##` sections; the reader also takes the
ways strong models dress that up (a preamble line, the whole reply in a
fence, `**name:**` in bold, a `# Title`, trailing notes, CRLF) and a JSON
object of the schema's shape. Either way the result is a `Draft`, and the
writer checks it as ever: nothing here decides whether a skill is written.
"""

from __future__ import annotations

import re

from edgar_min import jsoncodec
from edgar_min.errors import Refused
from edgar_min.learning.walls import MIN_SECTION_WORDS, NAME_WORDS, RULES
from edgar_min.learning.writer import MAX_BODY_CHARS, Draft
from edgar_min.models import MAX_REPLY_CHARS, ReplySchema
from edgar_min.skills.names import NAME_MAX
from edgar_min.skills.sections import BODY_SECTIONS, fenced
from edgar_min.skills.validation import DESCRIPTION_MAX

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "BRIEF",
    "BRIEF_JSON",
    "MAX_REPLY_CHARS",
    "PATCH_BRIEF",
    "PATCH_BRIEF_JSON",
    "SECTION_FIELDS",
    "parse_patch",
    "parse_reply",
    "patch_schema",
    "render_sections",
    "reply_lines",
    "skill_schema",
]

# The object's field for each section: "When to use" -> "when_to_use".
SECTION_FIELDS = {title: title.lower().replace(" ", "_") for title in BODY_SECTIONS}

# The rules every brief states, each one a rule the writer's walls keep (learning/walls.py `RULES`).
_RULES = (
    "\n".join(rule.sentence for rule in RULES)
    + "\nConventional file names that belong to no one project (pyproject.toml, package.json) are fine.\n"
)

BRIEF = f"""\
You write one reusable skill for a coding agent from the outline of a turn that worked.
Reply with exactly this shape and nothing else:

name: a-short-name (lower-case letters, digits and single hyphens; at most {NAME_MAX} characters)
description: one sentence (at most {DESCRIPTION_MAX} characters) saying what the skill does and when to use it

## When to use
## Procedure
## Pitfalls
## Verification

Put the four sections in that order, each as a '## ' heading with text under it.
Do not put the four headings inside a code fence.
{_RULES}"""

BRIEF_JSON = f"""\
You write one reusable skill for a coding agent from the outline of a turn that worked.
Reply with one JSON object: "name" (lower-case words joined by single hyphens), "description"
(one sentence saying what the skill does and when to use it), and the skill's four sections as
plain text: "when_to_use", "procedure" (numbered steps), "pitfalls", "verification".
{_RULES}"""

_PATCH_INTRO = """\
You improve one reusable skill of a coding agent. You get the skill's current body (each line
quoted with '| ') and the observations recorded when a turn that had loaded the skill went
wrong: a failed check, failures the harness recorded, corrections a person typed.
"""

_PATCH_RULES = """\
Keep what still holds. Under Pitfalls, say what the observations teach and how to avoid it;
change the Procedure where they show it is wrong.
Write the general procedure, not one day's file names, paths or values.
"""

PATCH_BRIEF = f"""\
{_PATCH_INTRO}Reply with the better body, in exactly this shape and nothing else:

description: one sentence on what the skill does and when to use it (leave it out to keep the current one)

## When to use
## Procedure
## Pitfalls
## Verification

Put the four sections in that order, each as a '## ' heading with text under it, without the '| ' quotes.
{_PATCH_RULES}Do not put the four headings inside a code fence.
"""

PATCH_BRIEF_JSON = f"""\
{_PATCH_INTRO}Reply with one JSON object: "description" (one sentence on what the skill does and when
to use it) and the better body's four sections as plain text, without the '| ' quotes:
"when_to_use", "procedure", "pitfalls", "verification".
{_PATCH_RULES}"""


# --- the schema ------------------------------------------------------------------------------

# At worst a looping model writes about one character per token (digits, escapes), so the
# object's bounds add up to three quarters of `model.max_tokens`: the decoder must close the
# object before the server cuts it off, and a small model looping on a slow machine stops sooner.
_OBJECT_OVERHEAD = 64
_TOKEN_SHARE = 0.75
# Shares of what is left for the description and the four sections.
_SHARES = {"description": 0.15, "when_to_use": 0.15, "procedure": 0.38, "pitfalls": 0.2, "verification": 0.12}
# Fewest characters a section may have: the writer's wall asks for MIN_SECTION_WORDS words.
MIN_SECTION_CHARS = 4 * MIN_SECTION_WORDS
_WORD = 12  # longest word of a name the schema's pattern allows: 4 * 12 + 3 is within NAME_MAX
_NAME_PATTERN = f"^[a-z0-9]{{1,{_WORD}}}(-[a-z0-9]{{1,{_WORD}}}){{{NAME_WORDS[0] - 1},{NAME_WORDS[1] - 1}}}$"


def _bounds(max_tokens: int) -> dict[str, int]:
    """The longest each field may be so the whole object fits in `max_tokens` tokens."""
    room = max(int(max_tokens * _TOKEN_SHARE) - _OBJECT_OVERHEAD - NAME_MAX, 0)
    bounds = {}
    for field, share in _SHARES.items():
        cap = DESCRIPTION_MAX if field == "description" else int(MAX_BODY_CHARS * share)
        bounds[field] = max(min(int(room * share), cap), 2 * MIN_SECTION_CHARS)
    return bounds


def _object_schema(fields: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {"type": "object", "properties": fields, "required": list(fields), "additionalProperties": False}


def _text_fields(bounds: dict[str, int]) -> dict[str, dict[str, Any]]:
    return {
        SECTION_FIELDS[title]: {
            "type": "string",
            "description": f"the '{title}' section, as Markdown text without its heading",
            "minLength": MIN_SECTION_CHARS,
            "maxLength": bounds[SECTION_FIELDS[title]],
        }
        for title in BODY_SECTIONS
    }


def _description_field(bounds: dict[str, int]) -> dict[str, Any]:
    return {
        "type": "string",
        "description": "one sentence: what the skill does and when to use it",
        "minLength": 1,
        "maxLength": bounds["description"],
    }


def skill_schema(max_tokens: int) -> ReplySchema:
    """The object a synthesis reply must be, built from the writer's own limits."""
    bounds = _bounds(max_tokens)
    name = {"type": "string", "description": "the skill's name: what job it does", "pattern": _NAME_PATTERN}
    fields = {"name": name, "description": _description_field(bounds), **_text_fields(bounds)}
    return ReplySchema("skill", "Record the reusable skill.", _object_schema(fields))


def patch_schema(max_tokens: int) -> ReplySchema:
    """The object a distill reply must be: the skill's name is not the model's to choose."""
    bounds = _bounds(max_tokens)
    fields = {"description": _description_field(bounds), **_text_fields(bounds)}
    return ReplySchema("skill_patch", "Record the improved skill body.", _object_schema(fields))


# --- reading a reply -------------------------------------------------------------------------

_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})\s*([\w+-]*)")
_KEY = re.compile(
    r"\s*(?:[-*]\s+)?(?:\*\*|__)?\s*(name|description)\s*(?:\*\*|__)?\s*:\s*(?:\*\*|__)?(.*)$", re.IGNORECASE
)
_TITLE = re.compile(r"\s*#\s+\S")
_SECTION_LINE = re.compile(r" {0,3}(?:#{1,4}[ \t]+|\*\*|__)?(.+?)(?:\*\*|__)?\s*:?\s*(?:\*\*|__)?\s*#*\s*$")
_RULE = re.compile(r" {0,3}([-*_])(?:\s*\1){2,}\s*$")
_SIGN_OFF = re.compile(
    r"\s*(?:let me know|i hope|hope this|feel free|happy to|if you(?:'d| would) like|want me to)",
    re.IGNORECASE,
)
_SECTION_KEYS = {title.casefold(): title for title in BODY_SECTIONS}
# JSON field names a model may use for a section, beside the schema's own.
_FIELD_ALIASES = {
    **{field: title for title, field in SECTION_FIELDS.items()},
    **{title.casefold(): title for title in BODY_SECTIONS},
    **{title.casefold().replace(" ", ""): title for title in BODY_SECTIONS},
    "whentouse": "When to use",
}


def reply_lines(reply: str, who: str = "refused") -> list[str]:
    """A model reply's lines (CRLF read as LF), capped in size."""
    if len(reply) > MAX_REPLY_CHARS:
        msg = f"{who}: the model's reply is {len(reply)} characters; the cap is {MAX_REPLY_CHARS}"
        raise Refused(msg)
    return reply.replace("\r\n", "\n").replace("\r", "\n").strip().split("\n")


def _json_object(text: str) -> dict[str, Any] | None:
    """The JSON object the reply is (bare, fenced, or after a preamble), or None."""
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end < start:
        return None
    # Only an object that starts a line, after nothing but a preamble, is the reply: a JSON
    # example inside a text reply's sections is part of its body.
    if start > 0 and text[start - 1] != "\n":
        return None
    if any(_KEY.match(line) or _section_of(line) for line in text[:start].split("\n")):
        return None
    try:
        value = jsoncodec.loads(text[start : end + 1])
    except ValueError:
        return None
    if not isinstance(value, dict):
        return None
    known = {"name", "description", *SECTION_FIELDS.values()}
    return value if any(str(key).strip().casefold() in known for key in value) else None


def _as_text(title: str, value: object) -> str | None:
    """A section's text from a JSON value: a string, or a list of strings made into a list."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        items = [" ".join(item.split()) for item in value if item.strip()]
        if title == "Procedure":
            return "\n".join(f"{i}. {item}" for i, item in enumerate(items, 1))
        return "\n".join(f"- {item}" for item in items)
    return None


def _demoted(title: str, text: str) -> str:
    """A section field's text as Markdown under its heading: its own heading dropped, others demoted."""
    lines = text.replace("\r\n", "\n").strip("\n").split("\n")
    while lines and (not lines[0].strip() or _section_of(lines[0]) == title):
        lines.pop(0)
    out = []
    for line, code in zip(lines, fenced(lines), strict=True):
        if not code and re.match(r" {0,3}#{1,2}[ \t]", line):
            # A heading inside a field belongs to its section, so it nests one level under it.
            out.append("###" + line.lstrip(" ").lstrip("#"))
            continue
        out.append(line)
    return "\n".join(out).strip("\n")


def render_sections(sections: dict[str, str]) -> str:
    """The body: each of the four sections given, in order, under its `##` heading."""
    parts = []
    for title in BODY_SECTIONS:
        text = sections.get(title)
        if text is None:
            continue
        parts.append(f"## {title}\n\n{_demoted(title, text)}".rstrip() + "\n")
    return "\n".join(parts)


def _from_object(obj: dict[str, Any]) -> tuple[dict[str, str], str]:
    """(fields, body) from a reply object: name and description as given, the sections rendered."""
    fields: dict[str, str] = {}
    sections: dict[str, str] = {}
    for key, value in obj.items():
        norm = str(key).strip().casefold().replace("-", "_")
        if norm in {"name", "description"} and isinstance(value, str):
            fields[norm] = " ".join(value.split()).strip("\"'`")
            continue
        title = _FIELD_ALIASES.get(norm) or _FIELD_ALIASES.get(norm.replace("_", " "))
        text = _as_text(title, value) if title else None
        if title and text is not None and text.strip():
            sections[title] = text
    return fields, render_sections(sections)


def _section_of(line: str) -> str | None:
    """The section a line heads (`## Procedure`, `# Pitfalls:`, `**Verification**`), else None."""
    match = _SECTION_LINE.fullmatch(line)
    if not match:
        return None
    raw = line.strip()
    marked = raw.startswith(("#", "**", "__")) or raw.endswith(":")
    return _SECTION_KEYS.get(match.group(1).strip().rstrip(":").strip().casefold()) if marked else None


def _unfenced(lines: list[str]) -> list[str]:
    """The reply inside one fence that wraps the skill (preamble and trailing notes outside it dropped)."""
    opens = [i for i, line in enumerate(lines) if _FENCE.match(line)]
    if len(opens) < 2:
        return lines
    first, last = opens[0], opens[-1]
    language = _FENCE.match(lines[first]).group(2).lower()
    if language not in {"", "markdown", "md", "text", "yaml"} or lines[last].strip().strip("`~"):
        return lines
    inner = lines[first + 1 : last]
    # Only a fence holding the skill itself is unwrapped; a fence inside a section stays.
    if any(_KEY.match(line) for line in inner[:12]) or any(_section_of(line) for line in inner):
        before = [line for line in lines[:first] if line.strip()]
        if not any(_section_of(line) for line in before):
            return inner
    return lines


def _body(lines: list[str]) -> str:
    """The four sections from the first section heading on, headings normalised, trailing notes cut."""
    out: list[str] = []
    for line, code in zip(lines, fenced(lines), strict=True):
        title = None if code else _section_of(line)
        if title:
            out.append(f"## {title}")
        elif out:
            out.append(line)
    return "\n".join(_without_notes(out)).strip("\n") + "\n" if out else ""


def _without_notes(lines: list[str]) -> list[str]:
    """Lines with notes after the last section cut: a horizontal rule, or a closing sign-off paragraph."""
    last = max((i for i, line in enumerate(lines) if line.startswith("## ")), default=0)
    for i in range(last + 1, len(lines)):
        if _RULE.match(lines[i]):
            return lines[:i]
    i = len(lines)
    while i > last + 1 and not lines[i - 1].strip():
        i -= 1
    start = i
    while start > last + 1 and lines[start - 1].strip():
        start -= 1
    if start > last + 1 and _SIGN_OFF.match(lines[start]):
        return lines[:start]
    return lines


def _read(reply: str, who: str) -> tuple[dict[str, str], str]:
    """(the name and description found, the body) from a reply in either shape."""
    lines = reply_lines(reply, who)
    obj = _json_object("\n".join(lines))
    if obj is not None:
        return _from_object(obj)
    lines = _unfenced(lines)
    fields: dict[str, str] = {}
    at = 0
    # A preamble, a title, a rule or frontmatter fences may come before the two lines.
    while at < len(lines) and len(fields) < 2 and not _section_of(lines[at]):
        match = _KEY.match(lines[at])
        at += 1
        if match:
            key = match.group(1).lower()
            if key not in fields:
                fields[key] = match.group(2).strip().strip("*_").strip().strip("\"'`").strip()
            continue
        if (
            fields
            and lines[at - 1].strip()
            and not _TITLE.match(lines[at - 1])
            and not _RULE.match(lines[at - 1])
        ):
            break
    return fields, _body(lines[at:])


def parse_reply(reply: str) -> Draft:
    """The draft of a synthesis reply (text or JSON), or `Refused` when it has no name or description."""
    fields, body = _read(reply, "refused")
    if not fields.get("name"):
        msg = "refused: the model's reply has no 'name:' line at the top"
        raise Refused(msg)
    if not fields.get("description"):
        msg = f"refused {fields['name'][:80]!r}: the model's reply has no 'description:' line"
        raise Refused(msg)
    return Draft(name=fields["name"], description=fields["description"], body=body)


def parse_patch(name: str, reply: str, current_description: str) -> tuple[str, str]:
    """(description, body) from a patch reply; the name is always the skill's own."""
    fields, body = _read(reply, f"refused {name}")
    return fields.get("description") or current_description, body
