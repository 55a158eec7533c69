#!/usr/bin/env python3
"""What a chat turn's Stop hook costs in the real Claude Code when a check is declared, before and after.

Usage: python3 bench/bench_stop_check.py [--turns N] [--before-ref REF]   (defaults: 5, main)

Two archives: this tree's, and the one built from git REF (the code before). For each, a fresh
home and a small Python project whose test suite takes about a second, `[check] command =
["python3", "-m", "pytest", "-q"]` with `adapters.hook_check = true` in the person's own config
(so both run the check at Stop if they would), and `edgar install claude-code` run from the
archive. Then N headless turns of `claude -p "write a haiku"` against a scripted model
(tests/messages_server.py), interleaved between the two. Printed for each: the Stop hook's
duration as Claude Code's debug log shows it (from "Getting matching hook commands for Stop" to
the hook's result line), the whole `claude -p` wall time, and how many times the test suite ran.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from datetime import datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "tests"))

from messages_server import claude_binary, timed_turn  # noqa: E402 - after the path is set

SUITE = "import time\n\n\ndef test_slow_enough():\n    time.sleep(1.0)\n"


def build(tree: Path, out: Path) -> Path:
    subprocess.run(
        [sys.executable, str(tree / "build_zipapp.py"), "-o", str(out)], check=True, capture_output=True
    )
    return out


def build_ref(ref: str, tmp: Path) -> Path:
    """The archive of git REF, built by that tree's own build script."""
    tree = tmp / f"tree-{ref.replace('/', '-')}"
    tree.mkdir()
    archive = tmp / "tree.tar"
    subprocess.run(["git", "-C", str(REPO), "archive", "-o", str(archive), ref], check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    return build(tree, tmp / f"edgar-{ref.replace('/', '-')}.pyz")


def setup(pyz: Path, tmp: Path, name: str) -> tuple[Path, Path, dict[str, str], Path]:
    root, home, edgar_home = tmp / name / "project", tmp / name / "home", tmp / name / "edgar-home"
    (root / "tests").mkdir(parents=True)
    home.mkdir()
    edgar_home.mkdir()
    (root / "pyproject.toml").write_text(
        '[project]\nname = "x"\nversion = "0"\n\n[tool.pytest.ini_options]\n'
    )
    (root / "tests" / "test_suite.py").write_text(SUITE)
    runs = tmp / name / "suite-runs"
    (root / "conftest.py").write_text(
        f"def pytest_sessionstart(session):\n    open({str(runs)!r}, 'a').write('x')\n"
    )
    (edgar_home / "config.toml").write_text(
        '[check]\ncommand = ["python3", "-m", "pytest", "-q"]\n\n[adapters]\nhook_check = true\n'
    )
    env = {**os.environ, "EDGAR_HOME": str(edgar_home)}
    done = subprocess.run(
        [sys.executable, str(pyz), "--root", str(root), "install", "claude-code"],
        env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    return root, home, env, runs


def _time(line: str) -> datetime:
    return datetime.fromisoformat(line.split(" ", 1)[0])


def stop_ms(debug: Path) -> float:
    """The Stop hook's duration as Claude Code's debug log shows it."""
    start = end = None
    for line in debug.read_text().splitlines():
        if "Getting matching hook commands for Stop" in line:
            start = _time(line)
        elif start is not None and end is None and "Hook Stop (Stop)" in line:
            end = _time(line)
    if start is None or end is None:
        raise SystemExit(f"no Stop hook in {debug}")
    return (end - start).total_seconds() * 1000


# The two turns measured: a chat, and five shell commands (enough for `long`, if a check passes)
# with no run of the check among them.
TURNS = {
    "a chat turn (no tool call)": ("write a haiku about the sea", []),
    "a work turn that did not run the check": (
        "tidy the build folder",
        [
            [{"type": "tool_use", "id": f"toolu_0{n}", "name": "Bash", "input": {"command": "true"}}]
            for n in range(5)
        ],
    ),
}


def turn(root: Path, home: Path, env: dict[str, str], debug: Path, kind: str) -> tuple[float, float]:
    prompt, script = TURNS[kind]
    wall = timed_turn(prompt, script, cwd=root, home=home, env=env, debug_file=debug)
    return stop_ms(debug), wall


def measure(kind: str, archives: dict[str, Path], tmp: Path, turns: int) -> None:
    slug = "".join(c for c in kind if c.isalpha())[:12]
    setups = {label: setup(pyz, tmp, f"{slug}-{n}") for n, (label, pyz) in enumerate(archives.items())}
    stops: dict[str, list[float]] = {label: [] for label in archives}
    walls: dict[str, list[float]] = {label: [] for label in archives}
    for n in range(turns):
        for m, (label, (root, home, env, _)) in enumerate(setups.items()):
            hook, wall = turn(root, home, env, tmp / f"debug-{slug}-{n}-{m}.log", kind)
            stops[label].append(hook)
            walls[label].append(wall)
    time.sleep(5)  # what the hooks left running in the background ends
    print(f"{kind}, a ~1 s test suite declared, {turns} turns each, interleaved:")
    for label, (_, _, _, runs) in setups.items():
        ran = len(runs.read_text()) if runs.exists() else 0
        print(
            f"  {label}: Stop hook median {statistics.median(stops[label]):.0f} ms "
            f"({min(stops[label]):.0f}-{max(stops[label]):.0f}); claude -p wall median "
            f"{statistics.median(walls[label]):.0f} ms; test suite ran {ran} time(s)"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--turns", type=int, default=5)
    parser.add_argument("--before-ref", default="main")
    args = parser.parse_args()
    if claude_binary() is None:
        print("no Claude Code CLI here (npm install @anthropic-ai/claude-code)")
        return 1
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        archives = {
            f"before ({args.before_ref})": build_ref(args.before_ref, tmp),
            "after (this tree)": build(REPO, tmp / "edgar-after.pyz"),
        }
        for kind in TURNS:
            measure(kind, archives, tmp, args.turns)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
