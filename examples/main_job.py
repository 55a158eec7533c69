#!/usr/bin/env python3
"""The main job, on the built-in defaults (offline model, lexical engine), with the built zipapp.

1. `learn` on the example turn in a scratch folder, then show the proposal it wrote.
2. Accept it, as the person reviewing it would, and ask which skill fits two new messages: a task
   of the same kind in other words gets it, a chat line gets none.
3. `run` a request through the example code-skill tree, then show the draft and the decisions.

Usage: python3 build_zipapp.py && python3 examples/main_job.py
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PYZ = HERE.parent / "dist" / "edgar.pyz"


def edgar(cwd: Path, *args: str) -> int:
    print(f"$ python3 edgar.pyz {shlex.join(args)}", flush=True)
    return subprocess.run([sys.executable, str(PYZ), *args], cwd=cwd, check=False).returncode


def main() -> int:
    if not PYZ.is_file():
        print(f"{PYZ} is missing: run python3 build_zipapp.py first", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="edgar-demo-") as tmp:
        scratch = Path(tmp)
        shutil.copy(HERE / "turn.json", scratch / "turn.json")
        if edgar(scratch, "learn", "turn.json", "--session", "demo-1") != 0:
            return 1
        proposals = sorted((scratch / ".edgar" / "proposals").glob("*/SKILL.md"))
        if not proposals:
            print("no proposal was written", file=sys.stderr)
            return 1
        print(f"\n--- {proposals[0].relative_to(scratch)}")
        print(proposals[0].read_text(encoding="utf-8"))

        if edgar(scratch, "skills", "accept", proposals[0].parent.name) != 0:
            return 1
        for message in ("upgrade the requests pin and keep the tests green", "thanks, looks good"):
            if edgar(scratch, "skills", "suggest", message) != 0:
                return 1
        print()

        tree = scratch / "tree"
        shutil.copytree(HERE / "tree", tree)
        if edgar(scratch, "--root", "tree", "run", "write an email to bob about the boiler repair") != 0:
            return 1
        for draft in sorted((tree / "data" / "drafts").rglob("*.txt")):
            print(f"\n--- {draft.relative_to(scratch)}")
            print(draft.read_text(encoding="utf-8"))
        logs = (tree / ".edgar" / "decisions").glob("*.jsonl")
        rows = sum(len(p.read_text().splitlines()) for p in logs)
        print(
            f"--- {rows} decisions logged under tree/.edgar/decisions/ "
            "(python3 edgar.pyz decisions export --format chat)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
