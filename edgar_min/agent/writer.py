"""The one function that writes a code skill, with the acceptance criteria inside it.

`write_code_skill` is the only code path that creates a code skill body: as a
proposal (`.edgar/code-proposals/NAME.py` plus `NAME.json`, its manifest
entry) or into the tree (`data/skills/...` plus the entry in
`data/categories.json`). It refuses with a sentence when the body fails
acceptance, when the category is not in the tree, or when a file already
sits where the body would go (a person's file is never replaced).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Literal

from edgar_min.atomic import check_writable, remove_tree, write_text
from edgar_min.errors import Refused

if TYPE_CHECKING:
    from pathlib import Path

    from edgar_min.agent.registry import Manifest
    from edgar_min.layout import Layout

__all__ = ["write_code_skill"]


def write_code_skill(
    layout: Layout, manifest: Manifest, body: str, *, to: Literal["proposal", "tree"]
) -> Path:
    """Write `body` for `manifest` after acceptance; return the body's path."""
    from edgar_min.agent.acceptance import check_body
    from edgar_min.agent.registry import body_path, load_registry, read_registry_text

    registry = load_registry(layout.registry)
    if registry.category(manifest.category) is None:
        msg = (
            f"category {manifest.category!r} is not in the skill tree {layout.registry}; "
            "add the category (name and description) first"
        )
        raise Refused(msg)
    target = (
        body_path(layout.code_skills, manifest)
        if to == "tree"
        else layout.code_proposals / f"{manifest.name}.py"
    )
    problems = check_body(body, str(target), manifest, registry, new=True)
    if problems:
        msg = f"refused {manifest.name}: the body fails acceptance: " + "; ".join(str(p) for p in problems)
        raise Refused(msg)
    if not body.endswith("\n"):
        body += "\n"
    entry = json.dumps(manifest.as_json(), ensure_ascii=False, indent=2) + "\n"
    if to == "proposal":
        write_text(target, body, root=layout.root)
        write_text(target.with_suffix(".json"), entry, root=layout.root)
        return target
    if target.exists():
        msg = f"refused {manifest.name}: {target} already exists and is not replaced"
        raise Refused(msg)
    # The body first, the registry entry last: a crash in between leaves an
    # unlisted file (harmless), never a listed skill with no body.
    raw: dict[str, Any] = json.loads(read_registry_text(layout.registry))
    for category in raw["categories"]:
        if category.get("name") == manifest.category:
            category.setdefault("skills", []).append(manifest.as_json())
            break
    check_writable(target, layout.registry, root=layout.root)
    write_text(target, body, root=layout.root)
    try:
        write_text(layout.registry, json.dumps(raw, ensure_ascii=False, indent=2) + "\n", root=layout.root)
    except BaseException:
        remove_tree(target, root=layout.root)
        raise
    return target
