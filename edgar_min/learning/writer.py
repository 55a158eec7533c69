"""The one function that creates a skill file, and every rule inside it.

`write_learned` is the only code path that writes a learned skill or a
proposal. It refuses far more often than it writes, always with a sentence:
a body out of shape, a bad name, a name a person owns, a body over the size
limit, a file that would not read back as a valid skill. The path is built
here, from a name already checked, so it has nothing to climb out with.
"""

from __future__ import annotations

import os

from edgar_min.atomic import check_writable, read_text, write_text
from edgar_min.errors import EdgarError, Refused
from edgar_min.learning.ledger import check_record, record
from edgar_min.learning.similarity import NearDuplicate
from edgar_min.learning.triggers import as_text
from edgar_min.learning.walls import Source, content_problems
from edgar_min.learning.wordcache import near_duplicate
from edgar_min.logfile import timestamp
from edgar_min.records import dataclass, replace
from edgar_min.redact import redact
from edgar_min.regex import lazy
from edgar_min.skills.discovery import SkillSet, discover
from edgar_min.skills.frontmatter import parse_skill, render_scalar
from edgar_min.skills.names import name_problem
from edgar_min.skills.sections import shape_problems
from edgar_min.skills.validation import validate_frontmatter

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    from edgar_min.layout import Layout
    from edgar_min.learning.ledger import Action, Actor
    from edgar_min.learning.triggers import Trigger

__all__ = [
    "MAX_BODY_CHARS",
    "Draft",
    "Provenance",
    "Target",
    "owner_problem",
    "render_skill",
    "write_learned",
]

# A skill is read into every prompt that loads it; 16,000 characters is about
# 4,000 tokens, the size the Agent Skills guidance recommends staying under.
MAX_BODY_CHARS = 16_000

_CONTROL = lazy(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")


@dataclass(frozen=True, slots=True)
class Draft:
    """A skill's text before it is a file: its name, its one-line description and its body."""

    name: str
    description: str
    body: str


@dataclass(frozen=True, slots=True)
class Provenance:
    """Who asks for a write and why: stamped in the file's `metadata` and in its ledger row."""

    session: str
    triggers: tuple[Trigger, ...]
    actor: Actor = "gate"
    action: Action | None = None  # None: `write`, or `patch` for a patch
    created: str = ""  # empty: now

    def as_metadata(self, patch_of: str = "") -> dict[str, str]:
        meta = {
            "learned": "true",
            "session": self.session,
            "trigger": as_text(self.triggers),
            "created": self.created,
        }
        if patch_of:
            meta["patch_of"] = patch_of
        return meta


@dataclass(frozen=True, slots=True)
class Target:
    """Where a write goes: a proposal or the learned folder, as a new skill or as a patch of one."""

    place: Literal["proposal", "learned"] = "proposal"
    # A new body for an existing skill of that name: it may be proposed for a person's skill.
    patch: bool = False


def clean_description(text: str) -> str:
    """One line of printable text."""
    return " ".join(_CONTROL.sub(" ", text).split())


def render_skill(draft: Draft, provenance: Provenance, patch_of: str = "") -> str:
    """The SKILL.md text: Agent Skills frontmatter with provenance in `metadata`, then the body."""
    # Every scalar is written so that this reader, PyYAML and strictyaml read back the same text,
    # and none holds `---` (skills-ref ends the frontmatter at the first `---` anywhere).
    lines = [
        "---",
        f"name: {render_scalar(draft.name)}",
        f"description: {render_scalar(draft.description)}",
        "metadata:",
    ]
    for key, value in provenance.as_metadata(patch_of).items():
        lines.append(f"  {key}: {render_scalar(value, plain=False)}")
    lines.append("---")
    return "\n".join(lines) + "\n\n" + draft.body.strip("\n") + "\n"


def owner_problem(index: SkillSet, name: str, target: Target) -> str | None:
    """Why a write to `target` would take a name a person owns, or None: a patch may only be proposed."""
    owner = index.owner(name)
    if owner is None or (target.patch and target.place == "proposal"):
        return None
    return (
        f"a hand-authored skill of that name exists at {owner.path}; edgar never takes a name a person owns"
    )


def _refused(name: str, sentence: str) -> Refused:
    # A name that is not one may be anything a model wrote, a credential included.
    shown = name if name_problem(name) is None else repr(redact(name[:80]))
    return Refused(f"refused {shown}: {sentence}")


def write_learned(
    layout: Layout,
    draft: Draft,
    provenance: Provenance,
    target: Target = Target(),  # noqa: B008 - a frozen record, the same every call
    *,
    index: SkillSet | None = None,
    source: Source | None = None,
) -> str:
    """Write `.edgar/proposals/NAME/SKILL.md` or `.edgar/skills/learned/NAME/SKILL.md`, as `target` says.

    Raises `Refused` with a sentence when any rule says no; nothing is written then.
    A patch (`target.patch`) is a new body for an existing skill of that name: it may be
    proposed for a hand-authored skill, never written over one. A new skill that nearly
    duplicates an existing skill of any origin raises `NearDuplicate` naming that skill:
    the caller may offer it as a patch to it. Every write appends a ledger row and keeps
    the text it replaced. A model's draft comes with its `source` (what the model was
    shown), and then the brief's content rules are walls too (`learning/walls.py`); a
    text a person stored or accepted has none. `index` is the discovered skills, when the
    caller has them.
    """
    name, patch, to = draft.name, target.patch, target.place
    problem = name_problem(name)
    if problem:
        raise _refused(name, redact(problem))  # it quotes the name
    body = draft.body.replace("\r\n", "\n").replace("\r", "\n")
    control = _CONTROL.search(body)
    if control:
        # A file a person reads with `cat`, an editor or an agent would obey an escape sequence.
        line = body.count("\n", 0, control.start()) + 1
        char = control.group()
        raise _refused(
            name, f"the body holds a control character ({char!r}) on its line {line}; edgar writes none"
        )
    if len(body) > MAX_BODY_CHARS:
        raise _refused(name, f"the body is {len(body)} characters; the limit is {MAX_BODY_CHARS}")
    shape = shape_problems(body)
    if shape:
        raise _refused(name, "; ".join(shape))
    draft = Draft(name, clean_description(draft.description), body)
    if source is not None:
        content = content_problems(draft, source, patch=patch)
        if content:
            raise _refused(name, "; ".join(content))
    index = discover(layout) if index is None else index
    owned = owner_problem(index, name, target)
    if owned:
        raise _refused(name, owned)
    base = layout.learned if to == "learned" else layout.proposals
    path = os.path.join(base, name, "SKILL.md")
    # Nothing is written when any place this write touches is a link or a file in a folder's place.
    check_writable(path, root=layout.root)
    check_record(layout)
    try:
        before = read_text(path, root=layout.root)
    except UnicodeDecodeError:
        before = ""
    if to == "learned" and not patch and before is not None:
        raise _refused(name, "a learned skill of that name exists; a new body for it is a patch")
    # --- lifecycle: a new skill must not nearly duplicate an existing one (learning/similarity.py)
    if not patch:
        existing = [*index.skills.values(), *(lo for lo, _ in index.shadowed)]
        match = near_duplicate(layout, existing, name, draft.description, body)
        if match is not None:
            raise NearDuplicate(name, match)
    # ---
    if not provenance.created:
        provenance = replace(provenance, created=timestamp())
    text = render_skill(draft, provenance, patch_of=name if patch else "")
    # Read the file back before writing it: what lands must be a valid skill.
    try:
        parsed = parse_skill(text, str(path))
    except EdgarError as exc:
        raise _refused(name, f"the rendered file would not read back ({exc.message})") from None
    problems = validate_frontmatter(parsed.data, name) + shape_problems(parsed.body)
    if problems:
        raise _refused(name, "; ".join(problems))
    # --- keep the text being replaced and the new one, then one ledger row (learning/ledger.py)
    write_text(path, text, root=layout.root)
    action = provenance.action or ("patch" if patch else "write")
    record(
        layout, actor=provenance.actor, action=action, name=name, place=to, before=before or None,
        after=text, session=provenance.session, fired=provenance.triggers,
    )  # fmt: skip
    # ---
    return path
