"""The skill tree: `data/categories.json`, parsed into categories and manifests.

    {"categories": [{"name": "email", "description": "...",
                     "skills": [{"name": "email.compose", "description": "...", ...}]}]}

Manifest fields: name, category, description, allowed_inputs, actions,
cost_budget, decision_log_ref (only name and description are required).
`registry_problems` reports every problem, each with the file and line;
`load_registry` raises `BadInput` (exit 2) with them.
"""

from __future__ import annotations

import os
import re

from edgar_min import jsoncodec
from edgar_min.errors import BadInput, NotFound
from edgar_min.invocation import program
from edgar_min.records import dataclass
from edgar_min.semif.lexical import tokens

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "CATEGORY_RE",
    "MANIFEST_FIELDS",
    "NAME_RE",
    "Category",
    "Manifest",
    "Registry",
    "body_path",
    "load_registry",
    "near_duplicate",
    "registry_problems",
]

NAME_RE = re.compile(r"[a-z0-9_]+(?:\.[a-z0-9_]+)*")
CATEGORY_RE = re.compile(r"[a-z0-9_]+")
MANIFEST_FIELDS = (
    "name",
    "category",
    "description",
    "allowed_inputs",
    "actions",
    "cost_budget",
    "decision_log_ref",
)
CATEGORY_FIELDS = ("name", "description", "skills")
# One level of the tree is one decision with a `none` option: 15 + none = 16 letters.
MAX_PER_LEVEL = 15
MAX_REGISTRY_BYTES = 2_000_000


@dataclass(frozen=True, slots=True)
class Manifest:
    """One leaf: a single-purpose skill and what it may take and do."""

    name: str
    category: str
    description: str
    allowed_inputs: tuple[str, ...] = ()
    actions: tuple[str, ...] = ()
    cost_budget: int | None = None
    decision_log_ref: str = ""
    line: int = 0

    @property
    def rest(self) -> str:
        """The name after its category: `email.compose` -> `compose`."""
        return self.name[len(self.category) + 1 :]

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "category": self.category, "description": self.description}
        if self.allowed_inputs:
            data["allowed_inputs"] = list(self.allowed_inputs)
        if self.actions:
            data["actions"] = list(self.actions)
        if self.cost_budget is not None:
            data["cost_budget"] = self.cost_budget
        if self.decision_log_ref:
            data["decision_log_ref"] = self.decision_log_ref
        return data


@dataclass(frozen=True, slots=True)
class Category:
    name: str
    description: str
    skills: tuple[Manifest, ...]
    line: int = 0


@dataclass(frozen=True, slots=True)
class Registry:
    path: str
    categories: tuple[Category, ...]

    def category(self, name: str) -> Category | None:
        return next((c for c in self.categories if c.name == name), None)

    def find(self, name: str) -> Manifest | None:
        for category in self.categories:
            for manifest in category.skills:
                if manifest.name == name:
                    return manifest
        return None


def body_path(skills_dir: str, manifest: Manifest) -> str:
    """`email.compose` -> `<skills_dir>/email/compose.py`; further dots become folders."""
    return os.path.join(skills_dir, manifest.category, *manifest.rest.split(".")) + ".py"


def near_duplicate(a: str, b: str) -> bool:
    """Two descriptions that say the same thing (same words, or nearly the same text)."""
    from difflib import SequenceMatcher

    ta, tb = set(tokens(a)), set(tokens(b))
    if ta and tb and len(ta & tb) / len(ta | tb) >= 0.8:
        return True
    na, nb = " ".join(a.lower().split()), " ".join(b.lower().split())
    return SequenceMatcher(None, na, nb).ratio() >= 0.9


class _Lines:
    """Finds the line of `"name": "VALUE"` entries in document order (json gives no positions)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.cursor = 0

    def of_name(self, value: object) -> int:
        if not isinstance(value, str):
            return self.line_at(self.cursor)
        pattern = re.compile(r'"name"\s*:\s*' + re.escape(jsoncodec.dumps(value)))
        match = pattern.search(self.text, self.cursor) or pattern.search(self.text)
        if match is None:
            return self.line_at(self.cursor)
        self.cursor = match.end()
        return self.line_at(match.start())

    def line_at(self, offset: int) -> int:
        return self.text.count("\n", 0, offset) + 1


def _strings(value: object) -> tuple[str, ...] | None:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    return None


def _parse_manifest(
    raw: object, category: str, where: str, line: int, problems: list[str]
) -> Manifest | None:
    if not isinstance(raw, dict):
        problems.append(f"{where}:{line}: a skill entry must be a JSON object")
        return None
    before = len(problems)
    fields = ", ".join(MANIFEST_FIELDS)
    problems.extend(
        f"{where}:{line}: unknown manifest field {key!r} (fields: {fields})"
        for key in raw
        if key not in MANIFEST_FIELDS
    )
    name = raw.get("name")
    if not isinstance(name, str) or not NAME_RE.fullmatch(name):
        problems.append(f"{where}:{line}: skill name {name!r} must match {NAME_RE.pattern}")
    elif not name.startswith(category + ".") or len(name) == len(category) + 1:
        problems.append(f"{where}:{line}: skill name {name!r} must start with its category, '{category}.'")
    if "category" in raw and raw["category"] != category:
        problems.append(
            f"{where}:{line}: skill {name!r} says category {raw['category']!r} but sits under {category!r}"
        )
    description = raw.get("description")
    if not isinstance(description, str) or not description.strip():
        problems.append(f"{where}:{line}: skill {name!r} needs a non-empty description")
    inputs = _strings(raw.get("allowed_inputs", []))
    actions = _strings(raw.get("actions", []))
    if inputs is None:
        problems.append(f"{where}:{line}: allowed_inputs of {name!r} must be text or a list of text")
    if actions is None:
        problems.append(f"{where}:{line}: actions of {name!r} must be text or a list of text")
    budget = raw.get("cost_budget")
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int) or budget < 1):
        problems.append(
            f"{where}:{line}: cost_budget of {name!r} must be a whole number of engine calls, at least 1"
        )
    ref = raw.get("decision_log_ref", "")
    if not isinstance(ref, str):
        problems.append(f"{where}:{line}: decision_log_ref of {name!r} must be text")
    if len(problems) > before:
        return None
    return Manifest(
        name=name,  # type: ignore[arg-type]
        category=category,
        description=description.strip(),  # type: ignore[union-attr]
        allowed_inputs=inputs or (),
        actions=actions or (),
        cost_budget=budget,
        decision_log_ref=ref,
        line=line,
    )


def parse_registry(text: str, path: str) -> tuple[Registry | None, list[str]]:
    """The registry in `text`, and every problem with it (`PATH:LINE: sentence`)."""
    where = str(path)
    try:
        data = jsoncodec.loads(text)
    except jsoncodec.JSONDecodeError as exc:
        return None, [f"{where}:{exc.lineno}:{exc.colno}: not valid JSON ({exc.msg})"]
    if not isinstance(data, dict) or not isinstance(data.get("categories"), list):
        return None, [f'{where}:1: the registry must be an object with a "categories" list']
    problems = [
        f"{where}:1: unknown top-level key {key!r} (only 'categories')" for key in data if key != "categories"
    ]
    lines = _Lines(text)
    categories: list[Category] = []
    seen_names: dict[str, int] = {}
    if len(data["categories"]) > MAX_PER_LEVEL:
        problems.append(
            f"{where}:1: {len(data['categories'])} categories; a level holds at most {MAX_PER_LEVEL}"
        )
    for raw in data["categories"]:
        if not isinstance(raw, dict):
            problems.append(f"{where}:{lines.line_at(lines.cursor)}: a category must be a JSON object")
            continue
        name = raw.get("name")
        line = lines.of_name(name)
        fields = ", ".join(CATEGORY_FIELDS)
        problems.extend(
            f"{where}:{line}: unknown category field {key!r} (fields: {fields})"
            for key in raw
            if key not in CATEGORY_FIELDS
        )
        ok = True
        if not isinstance(name, str) or not CATEGORY_RE.fullmatch(name) or name == "none":
            problems.append(
                f"{where}:{line}: category name {name!r} must match {CATEGORY_RE.pattern} (and not be 'none')"
            )
            ok = False
        elif name in seen_names:
            problems.append(
                f"{where}:{line}: category {name!r} is listed twice (first at line {seen_names[name]})"
            )
        else:
            seen_names[name] = line
        description = raw.get("description")
        if not isinstance(description, str) or not description.strip():
            problems.append(f"{where}:{line}: category {name!r} needs a non-empty description")
            ok = False
        skills_raw = raw.get("skills", [])
        if not isinstance(skills_raw, list):
            problems.append(f"{where}:{line}: 'skills' of category {name!r} must be a list")
            continue
        if len(skills_raw) > MAX_PER_LEVEL:
            problems.append(
                f"{where}:{line}: category {name!r} has {len(skills_raw)} skills; at most {MAX_PER_LEVEL}"
            )
        manifests: list[Manifest] = []
        for entry in skills_raw:
            entry_line = lines.of_name(entry.get("name") if isinstance(entry, dict) else None)
            manifest = _parse_manifest(
                entry, name if isinstance(name, str) else "?", where, entry_line, problems
            )
            if manifest is None:
                continue
            if manifest.name in seen_names:
                problems.append(
                    f"{where}:{entry_line}: skill {manifest.name!r} is listed twice "
                    f"(first at line {seen_names[manifest.name]})"
                )
                continue
            problems.extend(
                f"{where}:{entry_line}: skill {manifest.name!r} duplicates {other.name!r} "
                "(nearly the same description); a leaf must be single-purpose and distinct"
                for other in manifests
                if near_duplicate(other.description, manifest.description)
            )
            seen_names[manifest.name] = entry_line
            manifests.append(manifest)
        if ok:
            categories.append(Category(name, description.strip(), tuple(manifests), line))
    return Registry(path, tuple(categories)), problems


def read_registry_text(path: str) -> str:
    try:
        with open(path, "rb") as handle:  # bounded: a checkout may link the tree to /dev/zero
            data = handle.read(MAX_REGISTRY_BYTES + 1)
    except FileNotFoundError:
        msg = (
            f"no skill tree at {path}: create data/categories.json "
            '({"categories": [{"name", "description", "skills": [...]}]}, see examples/tree)'
        )
        raise NotFound(msg) from None
    except OSError as exc:
        msg = f"{path}: cannot be read ({exc.strerror})"
        raise BadInput(msg) from None
    if len(data) > MAX_REGISTRY_BYTES:
        msg = f"{path}: larger than {MAX_REGISTRY_BYTES} bytes; not a skill tree"
        raise BadInput(msg)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        msg = f"{path}: not UTF-8 text (byte {exc.start})"
        raise BadInput(msg) from None


def registry_problems(path: str) -> tuple[Registry | None, list[str]]:
    """The registry at `path` and every problem with it (a missing file is one problem)."""
    try:
        text = read_registry_text(path)
    except (BadInput, NotFound) as exc:
        return None, [exc.message]
    return parse_registry(text, path)


def load_registry(path: str) -> Registry:
    """The registry, or `NotFound` (no file) / `BadInput` (malformed: every problem, with file and line)."""
    registry, problems = parse_registry(read_registry_text(path), path)
    if problems or registry is None:
        more = (
            f" (and {len(problems) - 1} more problem(s); run `{program()} skills validate`)"
            if len(problems) > 1
            else ""
        )
        msg = f"malformed skill tree: {problems[0]}{more}"
        raise BadInput(msg)
    return registry
