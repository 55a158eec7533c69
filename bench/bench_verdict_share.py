#!/usr/bin/env python3
"""How many real turns end with the verdict of the agent's own run of the check, so the Stop hook runs none.

Usage: python3 bench/bench_verdict_share.py [--check "CMD" | --root PROJECT] LOG_OR_FOLDER ...
       (no log given: the committed samples under tests/fixtures/transcripts)

Each log (Claude Code, Codex or Gemini CLI, told apart as `learn --from` tells them) is read turn
by turn with edgar's own adapters (`AdaptedTurn.runs`: the shell commands since the turn's last
edit, with the exit codes the log states). The project's check is the one `--check` names (the
test command the logs themselves show, stated by whoever runs this), else the one
`delivery/declare.py` finds in `--root` (what `edgar install` records), else none. A turn's
verdict is the agent's own when `check.verdict_of_runs` finds a run of that check after the last
edit, with its exit code, the way the Stop hook's `verdict.from_log` takes it; the project root
each run is compared against is the log's own working folder where it states one.

Printed, per log and in all: the turns, the turns with a tool call, those whose verdict the
agent's own run gives (passed / failed), and their share of the turns with a tool call. A log
with no typed prompt (a subagent's own) is named and left out.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

from edgar_min.adapters.common import tool_table  # noqa: E402 - after the path is set
from edgar_min.adapters.logs import log_agent, turns_reader  # noqa: E402
from edgar_min.delivery.declare import find_checks  # noqa: E402
from edgar_min.errors import EdgarError  # noqa: E402
from edgar_min.learning.check import verdict_of_runs  # noqa: E402

SAMPLES = REPO / "tests" / "fixtures" / "transcripts"


def logs(paths: list[str]) -> list[Path]:
    found: list[Path] = []
    for given in paths or [str(SAMPLES)]:
        path = Path(given)
        found += sorted(path.rglob("*.jsonl")) if path.is_dir() else [path]
    return found


def working_folder(path: Path) -> str:
    """The folder the agent ran in, as the log states it (`cwd` of Claude Code and Codex lines)."""
    with path.open(errors="replace") as lines:
        for n, line in enumerate(lines):
            if n > 200:
                break
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if not isinstance(record, dict):
                continue
            payload = record.get("payload")
            for source in (record, payload if isinstance(payload, dict) else {}):
                if isinstance(source.get("cwd"), str):
                    return source["cwd"]
    return str(path.parent)


def count(path: Path, check: tuple[str, ...]) -> tuple[int, int, int, int] | str:
    """(turns, with a tool call, own verdict passed, own verdict failed), or why the log was left out."""
    agent = log_agent(str(path))
    if agent is None:
        return "not a log edgar reads (empty, or no record says whose)"
    root = working_folder(path)
    turns = with_tools = passed = failed = 0
    try:
        for turn in turns_reader(agent)(str(path), tool_table(())):
            turns += 1
            if not turn.record["tools"]:
                continue
            with_tools += 1
            verdict = verdict_of_runs(turn.runs, check, root)
            passed += verdict == "passed"
            failed += verdict == "failed"
    except EdgarError as exc:
        return str(exc).split(": ", 1)[-1].split(";")[0]
    return turns, with_tools, passed, failed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("logs", nargs="*")
    parser.add_argument("--check", help="the project's test command, as a person would declare it")
    parser.add_argument("--root", help="the project whose declared check edgar install would find")
    args = parser.parse_args()
    if args.check:
        check, source = tuple(shlex.split(args.check)), "given with --check"
    elif args.root:
        found = find_checks(args.root)
        check, source = (found[0].command, f"found in {found[0].source}") if found else ((), "none found")
    else:
        check, source = (), "none declared"
    print(f"check: {' '.join(check) or '(none)'} ({source})")
    total = [0, 0, 0, 0]
    for path in logs(args.logs):
        result = count(path, check)
        if isinstance(result, str):
            print(f"  {path.name}: left out: {result}")
            continue
        total = [a + b for a, b in zip(total, result, strict=True)]
        turns, with_tools, passed, failed = result
        print(f"  {path.name}: {turns} turn(s), {with_tools} with a tool call, own verdict {passed + failed} "
              f"({passed} passed, {failed} failed)")  # fmt: skip
    turns, with_tools, passed, failed = total
    share = (passed + failed) / with_tools if with_tools else 0.0
    print(
        f"all: {turns} turns, {with_tools} with a tool call; the agent's own run of the check after its "
        f"last edit gives the verdict in {passed + failed} ({passed} passed, {failed} failed): "
        f"{share:.0%} of the turns with a tool call"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
