"""Find every skill in every scope, with precedence and shadowing.

Scopes, highest precedence first: the project's `.edgar/skills`, the other
project folders (`.agents/skills`, `.claude/skills`), the user scope
(`~/.edgar/skills`), then learned skills. A shadowed skill is kept in
`SkillSet.shadowed`, never silently dropped. Discovery lists folders only; a
skill's frontmatter is read the first time something asks for it.

A skill in the project (every scope but the user's) is found and read only inside the
project: a link that stays in it is followed (`.claude/skills` linked to the folder where
a project keeps its skills), one that leads out of it (a checkout's link to
`/proc/self/environ`, a key, `/dev/zero`) is a sentence, never a skill. The user scope
is the person's own, and a link they made there is followed wherever it leads.
"""

from __future__ import annotations

import os
import stat

try:  # operator's C half, as records.py takes it
    from _operator import attrgetter
except ImportError:  # an interpreter without it
    from operator import attrgetter

from edgar_min.errors import EdgarError
from edgar_min.records import dataclass, field
from edgar_min.skills.frontmatter import read_skill
from edgar_min.skills.names import RESERVED

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    Origin = Literal["hand", "learned"]
    Scope = Literal["project", ".agents", ".claude", "user", "learned"]

    from edgar_min.layout import Layout
    from edgar_min.skills.frontmatter import Frontmatter

__all__ = ["Skill", "SkillNames", "SkillSet", "discover", "skill_files"]


class Skill:
    """One SKILL.md found on disk; its frontmatter is read on first use."""

    __slots__ = ("_frontmatter", "inside", "name", "origin", "path", "scope", "stat")

    def __init__(
        self,
        name: str,
        origin: Origin,
        scope: Scope,
        path: str,
        stat: os.stat_result | None = None,
        *,
        inside: str | None = None,
    ) -> None:
        self.name = name
        self.origin = origin
        self.scope = scope
        self.path = os.fspath(path)  # the SKILL.md file
        # The file's stat when discovery found it: the word cache compares it instead of a second stat.
        self.stat = stat
        # The real path of the project the file must stay inside, or None in the person's own scope.
        self.inside = inside
        self._frontmatter: Frontmatter | None = None

    def __repr__(self) -> str:
        return f"Skill({self.name!r}, {self.origin!r}, {self.scope!r}, {self.path!r})"

    def frontmatter(self) -> Frontmatter:
        """The parsed file; raises `FrontmatterError` when it cannot be read."""
        if self._frontmatter is None:
            self._frontmatter = read_skill(self.path, inside=self.inside)
        return self._frontmatter

    @property
    def description(self) -> str:
        """The description, or '' when the file cannot be read or has none."""
        try:
            value = self.frontmatter().data.get("description")
        except EdgarError:
            return ""
        return value if isinstance(value, str) else ""

    @property
    def declared_name(self) -> str | None:
        """The `name:` the file declares, when it reads as text; the folder name is the skill's name."""
        try:
            value = self.frontmatter().data.get("name")
        except EdgarError:
            return None
        return value if isinstance(value, str) else None

    @property
    def warning(self) -> str | None:
        """What a reader of the listing should know: a frontmatter problem, or a name unlike its folder."""
        try:
            parsed = self.frontmatter()
        except EdgarError as exc:
            return exc.message
        found = list(parsed.warnings)
        declared = parsed.data.get("name")
        if isinstance(declared, str) and declared != self.name:
            found.append(
                f"{self.path}: declares name {declared[:80]!r} but sits in folder {self.name!r}; "
                "it is listed by its folder, and both names stay its own"
            )
        return "; ".join(found) or None

    @property
    def provenance(self) -> dict[str, str]:
        """The `metadata` map of a learned skill (learned, session, trigger, created)."""
        try:
            meta = self.frontmatter().data.get("metadata")
        except EdgarError:
            return {}
        return {str(k): str(v) for k, v in meta.items()} if isinstance(meta, dict) else {}


@dataclass(slots=True)
class SkillSet:
    """The skills a session sees, by name, plus the ones shadowed by a higher scope."""

    skills: dict[str, Skill] = field(default_factory=dict)
    shadowed: list[tuple[Skill, Skill]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    # Hand-authored folders whose SKILL.md is there but cannot be read as a file (a dangling
    # link, a folder): not listed, but the name is still a person's.
    claimed: dict[str, Skill] = field(default_factory=dict)

    def get(self, name: str) -> Skill | None:
        return self.skills.get(name)

    def owner(self, name: str) -> Skill | None:
        """The hand-authored skill that owns `name` in any scope, shadowed or not.

        A person owns the name of their skill's folder, the `name:` its file declares,
        and the name of a skill folder whose SKILL.md cannot be read.
        """
        hand = [s for s in self.skills.values() if s.origin == "hand"]
        hand += [c for pair in self.shadowed for c in pair if c.origin == "hand"]
        for skill in hand:
            if skill.name == name:
                return skill
        if name in self.claimed:
            return self.claimed[name]
        for skill in hand:
            if skill.declared_name == name:
                return skill
        return None


_NAME = attrgetter("name")


def _through_link(base: str, folder: str) -> str | None:
    """The first symbolic link on the way from `base` down to `folder` (itself included), or None."""
    if not folder.startswith(base + os.sep):
        return None
    current = base
    for part in folder[len(base) + 1 :].split(os.sep):
        current = os.path.join(current, part)
        if os.path.islink(current):
            return current
    return None


def _outside(path: str, inside: str) -> str | None:
    """Where `path` really is when that is not below `inside` (a real path); None when it is."""
    real = os.path.realpath(path)
    return None if real.startswith(inside.rstrip(os.sep) + os.sep) else real


_LEADS_OUT = "a project's skills are read only inside it"


def _linked_stat(entry: os.DirEntry[str], path: str, inside: str) -> tuple[os.stat_result | None, str | None]:
    """The stat of a project's SKILL.md at `path` when a link is on the way (followed only inside
    the project), or None; and why it is not read when the link leads out of the project."""
    if entry.is_symlink():
        away = _outside(entry.path, inside)
        if away is not None:
            return None, f"its folder is a symbolic link out of the project (to {away}); {_LEADS_OUT}"
    away = _outside(path, inside)
    if away is not None:
        return None, f"a symbolic link out of the project (to {away}); {_LEADS_OUT}"
    try:
        return os.stat(path), None
    except (OSError, ValueError):
        return None, None


def _not_read(index: SkillSet, skill: Skill, why: str | None) -> None:
    """Say why a SKILL.md found is not read; a person's keeps its name."""
    if why is not None:
        index.problems.append(f"{skill.path}: not read: {why}")
    if skill.origin == "hand" and skill.name not in RESERVED and os.path.lexists(skill.path):
        if why is None:
            index.problems.append(
                f"{skill.path}: not a readable file (a dangling link?); its name stays a person's"
            )
        index.claimed.setdefault(skill.name, skill)


def _scan(
    folder: str, origin: str, scope: str, skip: frozenset[str], index: SkillSet, *, project: Layout | None
) -> list[Skill]:
    problems = index.problems
    found = []
    try:
        entries = sorted(os.scandir(folder), key=_NAME)
    except (FileNotFoundError, NotADirectoryError):
        return found
    except OSError as exc:
        problems.append(f"{folder}: cannot be read ({exc.strerror})")
        return found
    inside = None if project is None else project.real_root
    if inside is not None and entries:
        link = _through_link(project.root, folder)
        away = None if link is None else _outside(folder, inside)
        if away is not None:
            problems.append(
                f"{folder}: reached through the symbolic link {link}, which leads out of the project "
                f"(to {away}); {_LEADS_OUT}, so none was read there"
            )
            return found
    # Looked up once: the loop runs once per skill folder, on every prompt. In the project a
    # folder's entry says whether it is a real folder, and the file's own stat whether it is a
    # link: only then is the real path asked for.
    regular, tail, follow = stat.S_ISREG, os.sep + "SKILL.md", inside is None
    stat_of, link = (os.stat, None) if follow else (os.lstat, stat.S_ISLNK)
    for entry in entries:
        name = entry.name
        if name.startswith(".") or name in skip:
            continue
        linked = False
        if not entry.is_dir(follow_symlinks=follow):
            if follow or not entry.is_dir():
                continue
            linked = True  # a link to a folder
        path = entry.path + tail
        why = None
        # os.path.isfile stats the file and drops the answer; keep it for the word cache.
        try:
            found_stat = stat_of(path)
        except (OSError, ValueError):
            found_stat = None
        if linked or (link is not None and found_stat is not None and link(found_stat.st_mode)):
            found_stat, why = _linked_stat(entry, path, inside)
        if found_stat is None or not regular(found_stat.st_mode):
            _not_read(index, Skill(name, origin, scope, path, inside=inside), why)
            continue
        if name in RESERVED:
            problems.append(f"{entry.path}: '{name}' is a reserved name; this folder is not read as a skill")
            continue
        found.append(Skill(name, origin, scope, path, found_stat, inside=inside))
    return found


def skill_files(folder: str) -> list[str]:
    """Every `NAME/SKILL.md` one level below `folder` that is a plain file (a link to one is
    followed), sorted; hidden folders are not skills."""
    try:
        entries = os.scandir(folder)
    except OSError:
        return []
    with entries:
        found = [e.path + os.sep + "SKILL.md" for e in entries if not e.name.startswith(".") and e.is_dir()]
    return sorted(path for path in found if os.path.isfile(path))


class SkillNames:
    """The names of every discovered skill, discovered at the first `in`: a turn's log that
    loads no skill, and a prompt that was handed none, ask nothing (200 skills: about 1 ms)."""

    __slots__ = ("_layout", "_names")

    def __init__(self, layout: Layout) -> None:
        self._layout = layout
        self._names: frozenset[str] | None = None

    def __contains__(self, name: object) -> bool:
        if self._names is None:
            self._names = frozenset(discover(self._layout).skills)
        return name in self._names


def discover(layout: Layout) -> SkillSet:
    """Every skill in every scope; the first scope that has a name wins it."""
    index = SkillSet()
    scopes = [
        (layout.skills, "hand", "project", RESERVED, layout),
        (layout.shared_project_skills[0], "hand", ".agents", frozenset(), layout),
        (layout.shared_project_skills[1], "hand", ".claude", frozenset(), layout),
        (layout.user_skills, "hand", "user", frozenset(), None),
        (layout.learned, "learned", "learned", frozenset(), layout),
    ]
    for folder, origin, scope, skip, project in scopes:
        for skill in _scan(folder, origin, scope, skip, index, project=project):
            winner = index.skills.get(skill.name)
            if winner is None:
                index.skills[skill.name] = skill
            else:
                index.shadowed.append((skill, winner))
    return index
