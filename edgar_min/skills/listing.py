"""The skill listing a harness puts in its prompt: names and descriptions within a budget.

Most useful first (the caller's `order`, then the rest alphabetically). When
the listing does not fit, descriptions are shortened first (all to the same
length, never below `MIN_DESCRIPTION`), then the least useful skills are
omitted; the last line always says what was shortened or omitted, so nothing
is dropped silently, and how many skills have a frontmatter problem (a skill
whose file has a problem outside `name` and `description` is still listed, with
its `warning`). `--json` gives the full lists.
"""

from __future__ import annotations

import os

from edgar_min.errors import BadInput
from edgar_min.records import dataclass, field
from edgar_min.skills.discovery import discover
from edgar_min.skills.terminal import printable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from edgar_min.layout import Layout
    from edgar_min.skills.discovery import Skill, SkillSet

__all__ = ["MIN_DESCRIPTION", "DescriptionCache", "IndexEntry", "SkillIndex", "build_index"]

MIN_DESCRIPTION = 24
ELLIPSIS = "…"
NO_DESCRIPTION = "(no description)"
MORE = "edgar skills index --json"
VALIDATE = "edgar skills validate"


@dataclass(frozen=True, slots=True)
class IndexEntry:
    """One line of the index: a skill's name and description, and whether it was shortened."""

    name: str
    description: str
    shortened: bool = False
    warning: str | None = None  # why the skill shows less than its file may hold

    def line(self) -> str:
        return f"- {self.name}: {self.description}"


@dataclass(frozen=True, slots=True)
class SkillIndex:
    """The listing: the entries shown, the names shortened and omitted, and the text itself."""

    entries: tuple[IndexEntry, ...]
    shortened: tuple[str, ...]
    omitted: tuple[str, ...]
    budget_chars: int
    text: str
    warnings: tuple[tuple[str, str], ...] = ()  # (name, sentence) of every skill with a problem

    def as_json(self) -> dict[str, Any]:
        return {
            "budget_chars": self.budget_chars,
            "chars": len(self.text),
            "entries": [
                {"name": e.name, "description": e.description, "shortened": e.shortened, "warning": e.warning}
                for e in self.entries
            ],
            "shortened": list(self.shortened),
            "omitted": list(self.omitted),
            "warnings": dict(self.warnings),
            "text": self.text,
        }


@dataclass(slots=True)
class DescriptionCache:
    """Descriptions by file, reused while the file's size and mtime are unchanged (a long-lived server)."""

    seen: dict[str, tuple[int, int, tuple[str, str | None]]] = field(default_factory=dict)

    def get(self, skill: Skill) -> tuple[str, str | None]:
        """The description and the warning of `skill`."""
        key = skill.path
        try:
            st = os.stat(key)
        except OSError as exc:
            return "", f"{key}: cannot read the file ({exc.strerror or exc})"
        hit = self.seen.get(key)
        if hit is not None and hit[0] == st.st_mtime_ns and hit[1] == st.st_size:
            return hit[2]
        found = _describe(skill)
        self.seen[key] = (st.st_mtime_ns, st.st_size, found)
        return found


def _describe(skill: Skill) -> tuple[str, str | None]:
    return skill.description, skill.warning


def _one_line(text: str) -> str:
    return printable(" ".join(text.split())) or NO_DESCRIPTION


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + ELLIPSIS


def _final(
    shortened: list[str],
    omitted: list[str],
    total: int,
    room: int,
    strict: bool = False,
    *,
    problems: int = 0,
) -> str | None:
    """The closing line, naming as many cut skills as fit in `room`; None if even the bare line does not.

    `strict`: every cut skill must be named, or None. `problems`: how many skills have a
    frontmatter problem; "listed in full" is said only when none has.
    """
    problem = f"; {problems} with a frontmatter problem (`{VALIDATE}` says what)" if problems else ""
    if not shortened and not omitted:
        if problems:
            line = f"(all {total} skills listed{problem})"
        else:
            line = f"(all {total} skills listed in full)" if total else "(no skills found)"
        return line if len(line) <= room else None
    parts = []
    if shortened:
        parts.append(f"shortened {len(shortened)} description(s)")
    if omitted:
        parts.append(f"omitted {len(omitted)} skill(s)")
    bare = f"({'; '.join(parts)}; `{MORE}` lists them{problem})"
    if len(bare) > room:
        return None
    if strict:
        cut = [(label, names) for label, names in (("omitted", omitted), ("shortened", shortened)) if names]
        line = "(" + "; ".join(f"{label}: {', '.join(names)}" for label, names in cut) + problem + ")"
        return line if len(line) <= room else None
    # Name what was cut, omitted first (it is the bigger loss), while it fits.
    named: list[str] = []
    for label, names in (("omitted", omitted), ("shortened", shortened)):
        if not names:
            continue
        lead = len("(" + "; ".join([*named, ""]) + f"{label}: ") if named else len(f"({label}: ")
        used, count = 0, 0
        for name in names:
            grown = used + len(name) + (2 if count else 0)
            if lead + grown + len(_rest(names, count + 1)) + len(problem) + 1 > room:
                break
            used, count = grown, count + 1
        if count == 0:
            return bare  # a part not named at all still has to be counted
        named.append(f"{label}: {', '.join(names[:count])}{_rest(names, count)}")
    line = f"({'; '.join(named)}{problem})"
    return line if len(line) <= room else bare


def _rest(names: list[str], shown: int) -> str:
    left = len(names) - shown
    return f" and {left} more (`{MORE}`)" if left > 0 else ""


def _render(
    items: list[tuple[str, str]], keep: int, limit: int, budget: int, strict: bool, *, warned: dict[str, str]
) -> tuple[str, list[IndexEntry], list[str], list[str]] | None:
    entries, shortened = [], []
    for name, description in items[:keep]:
        text = _cut(description, limit)
        cut = text != description
        entries.append(IndexEntry(name, text, cut, warned.get(name)))
        if cut:
            shortened.append(name)
    omitted = [name for name, _ in items[keep:]]
    body = "".join(e.line() + "\n" for e in entries)
    final = _final(shortened, omitted, len(items), budget - len(body), strict, problems=len(warned))
    if final is None:
        return None
    return body + final, entries, shortened, omitted


def _size(items: list[tuple[str, str]], keep: int, limit: int) -> int:
    """The length of the body lines alone, for the searches."""
    return sum(4 + len(name) + min(len(d), limit) + 1 for name, d in items[:keep])


def build_index(
    layout: Layout,
    budget_chars: int,
    order: list[str] | tuple[str, ...] | None = None,
    *,
    cache: DescriptionCache | None = None,
    found: SkillSet | None = None,
) -> SkillIndex:
    """The listing of every discovered skill (`found`, when the caller has them) within `budget_chars`."""
    if isinstance(budget_chars, bool) or not isinstance(budget_chars, int):
        msg = "the budget must be a whole number of characters"
        raise BadInput(msg)
    skills = (discover(layout) if found is None else found).skills
    first = [name for name in dict.fromkeys(order or ()) if name in skills]
    placed = set(first)
    rest = sorted(name for name in skills if name not in placed)
    describe = cache.get if cache is not None else _describe
    items, warned = [], {}
    for name in [*first, *rest]:
        description, warning = describe(skills[name])
        items.append((name, _one_line(description)))
        if warning:
            warned[name] = warning
    longest = max((len(d) for _, d in items), default=0)
    n = len(items)

    def fits(
        keep: int, limit: int, strict: bool = False
    ) -> tuple[str, list[IndexEntry], list[str], list[str]] | None:
        if _size(items, keep, limit) > budget_chars:
            return None
        return _render(items, keep, limit, budget_chars, strict, warned=warned)

    def longest_fit(
        keep: int, low: int, strict: bool
    ) -> tuple[str, list[IndexEntry], list[str], list[str]] | None:
        """The kept skills with the longest descriptions the budget allows."""
        high = longest
        while low < high:
            mid = (low + high + 1) // 2
            if fits(keep, mid, strict) is not None:
                low = mid
            else:
                high = mid - 1
        return fits(keep, low, strict)

    found = fits(n, longest)
    floor = min(MIN_DESCRIPTION, longest)
    if found is None and fits(n, floor, strict=True) is not None:
        # Shortening alone is enough: keep room to name every shortened skill.
        found = longest_fit(n, floor, strict=True)
    elif found is None:
        # Omit the least useful: the most skills (from the top) that still fit at the floor.
        low, high = 0, n
        while low < high:
            mid = (low + high + 1) // 2
            if fits(mid, floor) is not None:
                low = mid
            else:
                high = mid - 1
        found = longest_fit(low, floor, strict=False)
    if found is None:
        msg = (
            f"a budget of {budget_chars} characters is smaller than one line: the listing needs room "
            "at least for the line saying what was left out (try 200 or more)"
        )
        raise BadInput(msg)
    text, entries, shortened, omitted = found
    return SkillIndex(
        tuple(entries), tuple(shortened), tuple(omitted), budget_chars, text, tuple(warned.items())
    )
