"""`skills validate` for code skills: the tree, every body it names, and code proposals.

Every problem is reported at once, each as `PATH:LINE: sentence`. Nothing here
imports `edgar_min.learning`, so validation works in a build without it.
"""

from __future__ import annotations

import os

from edgar_min import jsoncodec
from edgar_min.agent.acceptance import check_body
from edgar_min.agent.loader import read_body_text
from edgar_min.agent.tree import Manifest, body_path, registry_problems

TYPE_CHECKING = False
if TYPE_CHECKING:
    from edgar_min.agent.tree import Registry
    from edgar_min.layout import Layout

__all__ = ["validate_code_file", "validate_tree"]


def _body_problems(path: str, manifest: Manifest, registry: Registry | None, new: bool = False) -> list[str]:
    if os.path.exists(path) and not os.path.isfile(path):  # a folder or a fifo, whose read would never end
        return [f"{path}:1: is not a regular file"]
    try:
        source = read_body_text(path)
    except (OSError, UnicodeDecodeError) as exc:
        return [f"{path}:1: cannot be read ({getattr(exc, 'strerror', None) or exc})"]
    return [str(p) for p in check_body(source, str(path), manifest, registry, new=new)]


def validate_tree(layout: Layout, registry_path: str | None = None) -> tuple[int, list[str]]:
    """Check the registry and every body it names; return (files checked, problems)."""
    path = registry_path or layout.registry
    registry, problems = registry_problems(path)
    checked = 1
    if registry is None:
        return checked, problems
    skills_dir = os.path.join(os.path.dirname(path), "skills")
    for category in registry.categories:
        for manifest in category.skills:
            body = body_path(skills_dir, manifest)
            checked += 1
            if not os.path.isfile(body):
                what = "is not a regular file" if os.path.exists(body) else "is missing"
                problems.append(f"{path}:{manifest.line}: {manifest.name}: its body {body} {what}")
                continue
            problems += _body_problems(body, manifest, registry)
    return checked, problems


def validate_code_file(layout: Layout, path: str) -> list[str]:
    """Check one `.py` body (in `data/skills/` or `.edgar/code-proposals/`) or one `categories.json`."""
    if os.path.basename(path) == "categories.json":
        return registry_problems(path)[1]
    resolved = os.path.realpath(path)
    proposals = os.path.realpath(layout.code_proposals)
    skills_dir = os.path.realpath(layout.code_skills)
    registry, tree_problems = registry_problems(layout.registry)
    if os.path.dirname(resolved) == proposals:
        entry = os.path.splitext(path)[0] + ".json"
        try:
            with open(entry, encoding="utf-8") as handle:
                raw = jsoncodec.loads(handle.read())
            manifest = Manifest(
                name=raw["name"], category=raw.get("category") or raw["name"].partition(".")[0],
                description=raw["description"],
            )  # fmt: skip
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return [f"{entry}:1: the manifest entry of this proposal is missing or unreadable"]
        return _body_problems(path, manifest, registry, new=True)
    if not resolved.startswith(skills_dir + os.sep):
        return [f"{path}:1: a code skill body lives in {layout.code_skills} or {layout.code_proposals}"]
    name = ".".join(os.path.splitext(resolved[len(skills_dir) + 1 :])[0].split(os.sep))
    if registry is None:
        return [f"{path}:1: {name} cannot be checked: {'; '.join(tree_problems)}"]
    manifest = registry.find(name)
    if manifest is None:
        return [f"{path}:1: {name} is not listed in the skill tree {layout.registry}"]
    return _body_problems(path, manifest, registry)
