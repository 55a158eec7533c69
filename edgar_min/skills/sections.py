"""The `##` sections of a skill body, found outside fenced code, and the four-section rule.

Learned skills and proposals have `When to use`, `Procedure`, `Pitfalls` and
`Verification`, in that order, each with text under it. A heading inside a code
fence is text, not a heading: a fenced `## Install` neither counts as a section
nor ends one. `fenced` is the one fence rule: the writer's shape check, its content
walls, the reader of a model's reply and the offline writer all see the same code.
"""

from __future__ import annotations

from edgar_min.regex import lazy

__all__ = ["BODY_SECTIONS", "fenced", "headings", "section", "shape_problems"]

BODY_SECTIONS = ("When to use", "Procedure", "Pitfalls", "Verification")

_FENCE = lazy(r" {0,3}(`{3,}|~{3,})")
_H2 = lazy(r" {0,3}##[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")


def fenced(lines: list[str]) -> list[bool]:
    """For each line, whether it is fenced code (the fence lines included).

    A fence opens with three or more backticks or tildes, up to three spaces in, and closes
    at a line of nothing but the same character, at least as many (CommonMark's rule); a
    fence never closed runs to the end. A shorter run inside a longer fence is code.
    """
    marks = []
    fence = ""
    for line in lines:
        opener = _FENCE.match(line)
        if fence:
            marks.append(True)
            closes = opener and opener.group(1)[0] == fence[0] and len(opener.group(1)) >= len(fence)
            if closes and not line.strip().strip(fence[0]):
                fence = ""
        else:
            marks.append(opener is not None)
            if opener:
                fence = opener.group(1)
    return marks


def headings(body: str) -> list[tuple[str, int]]:
    """`##` headings outside fenced code, in order, each with the index of the line after it."""
    lines = body.splitlines()
    found = []
    for index, (line, code) in enumerate(zip(lines, fenced(lines), strict=True)):
        heading = None if code else _H2.match(line)
        if heading:
            found.append((heading.group(1).strip(), index + 1))
    return found


def _norm(heading: str) -> str:
    return heading.rstrip(":").strip().casefold()


def section(body: str, title: str) -> str | None:
    """The text under the first `## TITLE` (up to the next `##` outside a fence), or None."""
    heads = headings(body)
    for i, (text, after) in enumerate(heads):
        if _norm(text) == _norm(title):
            lines = body.splitlines()
            end = heads[i + 1][1] - 1 if i + 1 < len(heads) else len(lines)
            return "\n".join(lines[after:end])
    return None


def shape_problems(body: str) -> list[str]:
    """Every way `body` misses the four sections in order, each with text; empty when fine."""
    heads = headings(body)
    lines = body.splitlines()
    wanted = [_norm(s) for s in BODY_SECTIONS]
    positions: dict[str, int] = {}
    problems = []
    for i, (text, after) in enumerate(heads):
        key = _norm(text)
        if key not in wanted:
            continue
        if key in positions:
            sentence = f"section '{BODY_SECTIONS[wanted.index(key)]}' appears more than once"
            if sentence not in problems:
                problems.append(sentence)
            continue
        positions[key] = i
        end = heads[i + 1][1] - 1 if i + 1 < len(heads) else len(lines)
        if not any(line.strip() for line in lines[after:end]):
            problems.append(f"section '{BODY_SECTIONS[wanted.index(key)]}' is empty")
    missing = [s for s, k in zip(BODY_SECTIONS, wanted, strict=True) if k not in positions]
    if missing:
        problems.insert(0, f"missing section(s): {', '.join(missing)}")
    else:
        order = [positions[k] for k in wanted]
        if order != sorted(order):
            found = [BODY_SECTIONS[wanted.index(_norm(t))] for t, _ in heads if _norm(t) in wanted]
            problems.insert(
                0, f"sections out of order: expected {', '.join(BODY_SECTIONS)}; found {', '.join(found)}"
            )
    return problems
