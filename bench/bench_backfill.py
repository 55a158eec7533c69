#!/usr/bin/env python3
"""Importing routing examples from past sessions: time and peak memory against the folder's size.

Builds a Claude Code project folder of N sessions (each the real spotter lines of
tests/fixtures/transcripts/claude-code-project, its prompts made distinct, padded with the
tool traffic of a long session), then runs `skills examples --import claude-code` in a fresh
process, for two sizes side by side: memory should not grow with the number of sessions, only
with the examples found. `--logs DIR` reads a folder of your own instead (a dry run).

Usage: python3 bench/bench_backfill.py [--quick] [--logs DIR --agent claude-code|codex --skills A,B]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SAMPLE = REPO / "tests" / "fixtures" / "transcripts" / "claude-code-project"
SESSION = "ae4a77f8-aedd-4bc1-888f-c94edc91af04"
# A tool call and its result, as a long session has hundreds of (Read and its output).
PADDING = 200


def build(folder: Path, sessions: int) -> int:
    """Write `sessions` logs; their total size in bytes."""
    lines = (SAMPLE / f"{SESSION}.jsonl").read_text().splitlines()
    call = {"type": "assistant", "isSidechain": False, "sessionId": SESSION, "message": {"content": []}}
    result = {"type": "user", "isSidechain": False, "sessionId": SESSION, "message": {"content": []}}
    size = 0
    for n in range(sessions):
        out = []
        for i, line in enumerate(lines):
            row = json.loads(line)
            row["sessionId"] = f"{n:08d}-0000-4000-8000-000000000000"
            if i == 0:  # the prompt whose turn loads the skill: one example per session
                row["message"]["content"] = f"{row['message']['content']} (session {n})"
            out.append(json.dumps(row))
            if i == 3:
                for k in range(PADDING):
                    use = f"toolu_{n}_{k}"
                    call["message"]["content"] = [
                        {"type": "tool_use", "id": use, "name": "Read", "input": {"file_path": f"/p/f{k}.ex"}}
                    ]
                    result["message"]["content"] = [
                        {"type": "tool_result", "tool_use_id": use, "content": "defmodule X do\n" * 40}
                    ]
                    out.extend((json.dumps(call), json.dumps(result)))
        text = "\n".join(out) + "\n"
        (folder / f"{n:08d}-0000-4000-8000-000000000000.jsonl").write_text(text)
        size += len(text)
    return size


RUN = """
import json, resource, sys, time
sys.path.insert(0, {repo!r})
from edgar_min.adapters.common import tool_table
from edgar_min.delivery.backfill import backfill
from edgar_min.layout import Layout
from edgar_min.skills.discovery import SkillNames
layout = Layout({root!r}, {root!r} + "/home")
start = time.perf_counter()
found = backfill(layout, {agent!r}, [{logs!r}], tool_table(()), SkillNames(layout), dry_run={dry!r})
took = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({{"s": took, "kb": peak, "sessions": found.sessions, "turns": found.turns,
                  "examples": len(found.examples), "written": found.written}}))
"""


def run(root: Path, logs: Path, agent: str, *, dry: bool) -> dict[str, float]:
    code = RUN.format(repo=str(REPO), root=str(root), logs=str(logs), agent=agent, dry=dry)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def examples_of(root: Path) -> str:
    """Where the runs above keep the project's routing examples (their person's state folder)."""
    sys.path.insert(0, str(REPO))
    from edgar_min.layout import Layout

    return Layout(str(root), str(root) + "/home").routing_examples


def project(folder: Path, names: list[str]) -> Path:
    """A project whose discovered skills are `names`."""
    root = folder / "project"
    for name in names:
        skill = root / ".claude" / "skills" / name / "SKILL.md"
        skill.parent.mkdir(parents=True)
        skill.write_text(f"---\nname: {name}\ndescription: The {name} skill.\n---\nBody.\n")
    return root


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--logs", type=Path, help="a folder of your own session logs (read as a dry run)")
    parser.add_argument("--agent", default="claude-code", choices=("claude-code", "codex"))
    parser.add_argument(
        "--skills", default="hex-docs-search", help="with --logs: the skills the project has, comma-separated"
    )
    ns = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        root = project(folder, ns.skills.split(",") if ns.logs is not None else ["hex-docs-search"])
        if ns.logs is not None:
            got = run(root, ns.logs, ns.agent, dry=True)
            print(
                f"{ns.logs}: {got['sessions']} sessions, {got['turns']} turns, {got['examples']} examples "
                f"in {got['s']:.2f} s; peak RSS {got['kb'] / 1024:.1f} MB"
            )
            return 0
        sizes = (20, 200) if ns.quick else (100, 1000)
        for sessions in sizes:
            logs = folder / f"logs-{sessions}"
            logs.mkdir()
            size = build(logs, sessions)
            started = time.perf_counter()
            got = run(root, logs, "claude-code", dry=False)
            wall = time.perf_counter() - started
            print(
                f"{sessions} sessions ({size / 1e6:.0f} MB, {got['turns']} turns): "
                f"{got['examples']} examples, {got['written']} written, "
                f"import {got['s']:.2f} s ({size / 1e6 / got['s']:.0f} MB/s; "
                f"{wall:.2f} s with start-up), peak RSS {got['kb'] / 1024:.1f} MB"
            )
            Path(examples_of(root)).unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
