"""The one function that writes a code skill, with the acceptance criteria inside it.

`write_code_skill` is the only code path that creates a code skill body: as a
proposal (`.edgar/code-proposals/NAME.py` plus `NAME.json`, its manifest
entry) or into the tree (`data/skills/...` plus the entry in
`data/categories.json`). It refuses with a sentence when the body fails
acceptance, when the category is not in the tree, or when a file already
sits where the body would go (a person's file is never replaced). Every body
written gets a ledger row (`edgar skills log NAME`), with its text kept.
"""

from __future__ import annotations

import os

from edgar_min import jsoncodec
from edgar_min.agent.acceptance import check_body
from edgar_min.agent.tree import body_path, load_registry, read_registry_text
from edgar_min.atomic import check_writable, read_text, remove_tree, write_text
from edgar_min.errors import EdgarError, Refused
from edgar_min.learning.ledger import check_record, record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Literal

    from edgar_min.agent.tree import Manifest
    from edgar_min.layout import Layout

__all__ = ["write_code_skill"]


def write_code_skill(
    layout: Layout, manifest: Manifest, body: str, *, to: Literal["proposal", "tree"]
) -> str:
    """Write `body` for `manifest` after acceptance; return the body's path."""
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
        else os.path.join(layout.code_proposals, f"{manifest.name}.py")
    )
    problems = check_body(body, str(target), manifest, registry, new=True)
    if problems:
        msg = f"refused {manifest.name}: the body fails acceptance: " + "; ".join(str(p) for p in problems)
        raise Refused(msg)
    if not body.endswith("\n"):
        body += "\n"
    entry = jsoncodec.dumps(manifest.as_json(), ensure_ascii=False, indent=2) + "\n"
    # The ledger row comes last: refuse first, so a body is never written without its row.
    check_record(layout)
    if to == "proposal":
        try:
            before = read_text(target, root=layout.root)
        except (OSError, UnicodeDecodeError, EdgarError):
            before = None
        write_text(target, body, root=layout.root)
        write_text(target[: -len(".py")] + ".json", entry, root=layout.root)
        _record(layout, manifest.name, "proposal", before, body)
        return target
    if os.path.exists(target):
        msg = f"refused {manifest.name}: {target} already exists and is not replaced"
        raise Refused(msg)
    # The body first, the registry entry last: a crash in between leaves an
    # unlisted file (harmless), never a listed skill with no body.
    raw: dict[str, Any] = jsoncodec.loads(read_registry_text(layout.registry))
    for category in raw["categories"]:
        if category.get("name") == manifest.category:
            category.setdefault("skills", []).append(manifest.as_json())
            break
    check_writable(target, layout.registry, root=layout.root)
    write_text(target, body, root=layout.root)
    try:
        write_text(
            layout.registry, jsoncodec.dumps(raw, ensure_ascii=False, indent=2) + "\n", root=layout.root
        )
    except BaseException:
        remove_tree(target, root=layout.root)
        raise
    _record(layout, manifest.name, "tree", None, body)
    return target


def _record(
    layout: Layout, name: str, place: Literal["proposal", "tree"], before: str | None, after: str
) -> None:
    record(
        layout,
        actor="gate",
        action="write",
        name=name,
        place=place,
        before=before,
        after=after,
        fired=("generate",),
    )
