#!/usr/bin/env python3
"""What edgar's hooks add to a real Claude Code session against a trivial Python hook, as Claude Code logs it.

Usage: python3 bench/bench_claude_hooks.py [--turns N] [--place edgar|claude|both] [PYZ]
       (defaults: 7 turns, both places, dist/edgar.pyz)

A small Python project (a one-test pytest suite declared in `pyproject.toml`, so `install`
records it as the check) with 300 real public skills (the 288 of bench/data/suggest-skills.json
and the first 12 other names of blind-skills.json, bodies included) written as `SKILL.md` files
in `.edgar/skills` (the project's own skills, which only edgar lists) or in `.claude/skills`
(which Claude Code lists itself too). Three copies of it, each with its own home:

- `edgar`: `edgar install claude-code --offline-writer` run from the archive by this interpreter;
- `trivial`: a hook `PY -I -S -c pass` (PY this interpreter, by absolute path) on each of
  SessionStart, UserPromptSubmit and Stop, in the same `.claude/settings.local.json`;
- `none`: no hook at all.

The files are dated an hour back, as a person's skills are, and each copy has one session first
that is not counted (edgar builds its caches there; its hooks' durations are printed apart). Then
each gets N headless `claude -p` sessions of each kind of turn (a chat turn with no tool call, and
a work turn that runs the project's tests with the Bash tool), interleaved round by round with the
order of the three rotating. The hooks of one event run in parallel in Claude Code and its debug
log does not say which command a result line belongs to: edgar's and the trivial hook are
therefore measured in sessions of their own rather than side by side in one settings file.

Printed per event: the median and range of the hook's duration as Claude Code's debug log shows
it (from "Getting matching hook commands for EVENT" to the line of the hook's result), edgar's
against the trivial hook's and their ratio; the sum over the three events of edgar's median minus
the trivial one's; and the `claude -p` wall time of each copy with the medians of the paired
(same round) differences edgar - none and edgar - trivial. The load average is printed at the
start and end of each block: the machine may be shared.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(HERE))

from bench_suggest import load_data, write_project  # noqa: E402 - after the path is set
from messages_server import claude_binary, timed_turn  # noqa: E402

EVENTS = ("SessionStart", "UserPromptSubmit", "Stop")
SETUPS = ("edgar", "trivial", "none")
PLACES = {"edgar": ".edgar/skills", "claude": ".claude/skills"}
SKILLS = 300
# The lines Claude Code writes when a hook's command has ended: its output as text, or as JSON.
RESULT = ("Hook output does not start with {", "Successfully parsed and validated hook JSON output")
TURNS = {
    "chat turn (no tool call)": ("write a haiku about the sea", []),
    "work turn (runs the tests)": (
        "run the tests",
        [[{"type": "tool_use", "id": "toolu_01", "name": "Bash", "input": {"command": "python3 -m pytest"}}]],
    ),
}


def real_skills() -> list[dict]:
    """300 real public skills: every one of the suggest set, then blind ones of other names."""
    skills, _ = load_data("suggest")
    names = {s["name"] for s in skills}
    blind, _ = load_data("blind")
    return (skills + [s for s in blind if s["name"] not in names])[:SKILLS]


def make_project(root: Path, place: str, skills: list[dict]) -> None:
    (root / "tests").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.pytest.ini_options]\n')
    (root / "tests" / "test_ok.py").write_text("def test_ok():\n    assert 1 + 1 == 2\n")
    write_project(root, skills, PLACES[place])
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    # Skills written an hour ago, as a person's are: edgar caches what it read of files that
    # have not changed for two seconds, and a bench that begins at once would time a cold cache.
    past = time.time() - 3600
    for path in root.rglob("*"):
        os.utime(path, (past, past), follow_symlinks=False)


def trivial_hooks(root: Path) -> None:
    command = f"{Path(sys.executable).resolve()} -I -S -c pass"
    entry = [{"hooks": [{"type": "command", "command": command, "timeout": 30}]}]
    settings = root / ".claude" / "settings.local.json"
    settings.parent.mkdir(exist_ok=True)
    settings.write_text(json.dumps({"hooks": dict.fromkeys(EVENTS, entry)}, indent=2))


def setup(pyz: Path, tmp: Path, place: str, kind: str, skills: list[dict]) -> tuple[Path, Path, dict]:
    base = tmp / f"{place}-{kind}"
    root, home, edgar_home = base / "project", base / "home", base / "edgar-home"
    make_project(root, place, skills)
    home.mkdir()
    edgar_home.mkdir()
    env = {"EDGAR_HOME": str(edgar_home)}
    if kind == "edgar":
        done = subprocess.run(
            [str(Path(sys.executable).resolve()), str(pyz), "--root", str(root), "install", "claude-code",
             "--offline-writer"],
            env={**os.environ, **env}, capture_output=True, text=True, check=False,
        )  # fmt: skip
        if done.returncode != 0:
            raise SystemExit(done.stderr)
    elif kind == "trivial":
        trivial_hooks(root)
    return root, home, env


def _time(line: str) -> datetime:
    return datetime.fromisoformat(line.split(" ", 1)[0])


def hook_ms(debug: Path) -> dict[str, float]:
    """Each event's hook duration as the debug log shows it: from the line that looks the hooks
    up to the first line that reads the (one) hook's output once it ended."""
    found: dict[str, float] = {}
    event, start = None, None
    for line in debug.read_text(errors="replace").splitlines():
        for name in EVENTS:
            if f"Getting matching hook commands for {name} " in line:
                event, start = name, _time(line)
        if event is not None and start is not None and any(mark in line for mark in RESULT):
            found.setdefault(event, (_time(line) - start).total_seconds() * 1000)
            event = start = None
    return found


def one_session(project: tuple[Path, Path, dict], debug: Path, turn: tuple[str, list]) -> tuple[dict, float]:
    (root, home, env), (prompt, script) = project, turn
    wall = timed_turn(prompt, script, cwd=root, home=home, env=env, debug_file=debug)
    return hook_ms(debug), wall


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):6.0f} ({min(values):.0f}-{max(values):.0f})"


def load() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def measure(pyz: Path, tmp: Path, place: str, skills: list[dict], turns: int) -> None:
    projects = {kind: setup(pyz, tmp, place, kind, skills) for kind in SETUPS}
    # One session each first, not counted: edgar builds its caches of the skills in the first.
    chat = next(iter(TURNS.values()))
    first = {
        kind: one_session(projects[kind], tmp / f"debug-{place}-{kind}-first.log", chat)[0]
        for kind in SETUPS[:2]
    }
    print(f"\n{SKILLS} real skills in {PLACES[place]}: the first session (not counted), edgar's hooks "
          + ", ".join(f"{e} {first['edgar'][e]:.0f} ms" for e in EVENTS)
          + "; the trivial ones " + ", ".join(f"{first['trivial'][e]:.0f}" for e in EVENTS))  # fmt: skip
    for label, turn in TURNS.items():
        before = load()
        hooks: dict[str, dict[str, list[float]]] = {k: {e: [] for e in EVENTS} for k in SETUPS}
        walls: dict[str, list[float]] = {k: [] for k in SETUPS}
        for n in range(turns):
            order = SETUPS[n % 3 :] + SETUPS[: n % 3]
            for kind in order:
                debug = tmp / f"debug-{place}-{kind}-{label[:4]}-{n}.log"
                found, wall = one_session(projects[kind], debug, turn)
                walls[kind].append(wall)
                for event in EVENTS:
                    if kind != "none":
                        if event not in found:
                            raise SystemExit(f"no {event} hook result in {debug}")
                        hooks[kind][event].append(found[event])
        print(f"{SKILLS} real skills in {PLACES[place]}, {label}, {turns} sessions each, interleaved "
              f"(load average {before} -> {load()}):")  # fmt: skip
        print(f"  {'hook, ms':18} {'edgar median (range)':>22} {'trivial median (range)':>24}  ratio")
        added = 0.0
        for event in EVENTS:
            mine, floor = hooks["edgar"][event], hooks["trivial"][event]
            added += statistics.median(mine) - statistics.median(floor)
            ratio = statistics.median(mine) / statistics.median(floor)
            print(f"  {event:18} {spread(mine):>22} {spread(floor):>24}  {ratio:4.1f}x")
        print(f"  added by edgar's hooks (sum over the events of edgar - trivial medians): {added:.0f} ms")
        paired = {
            k: [a - b for a, b in zip(walls["edgar"], walls[k], strict=True)] for k in ("none", "trivial")
        }
        print(
            f"  claude -p wall, ms: edgar {spread(walls['edgar'])}, trivial {spread(walls['trivial'])}, "
            f"none {spread(walls['none'])}; paired edgar - none {spread(paired['none'])}, "
            f"edgar - trivial {spread(paired['trivial'])}"
        )
        print()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--turns", type=int, default=7)
    parser.add_argument("--place", choices=("edgar", "claude", "both"), default="both")
    parser.add_argument("pyz", nargs="?", default=str(REPO / "dist" / "edgar.pyz"))
    args = parser.parse_args()
    pyz = Path(args.pyz).resolve()
    if not pyz.is_file():
        sys.exit(f"{pyz}: no such archive; build it with python3 build_zipapp.py")
    if claude_binary() is None:
        print("no Claude Code CLI here (npm install @anthropic-ai/claude-code)")
        return 1
    version = subprocess.run([claude_binary(), "--version"], capture_output=True, text=True, check=False)
    print(f"Claude Code {version.stdout.strip()}; hooks run by {Path(sys.executable).resolve()} "
          f"(Python {sys.version.split()[0]}); {os.cpu_count()} CPUs")  # fmt: skip
    skills = real_skills()
    places = ("edgar", "claude") if args.place == "both" else (args.place,)
    with tempfile.TemporaryDirectory(prefix="edgar-bench-claude-") as folder:
        for place in places:
            measure(pyz, Path(folder), place, skills, args.turns)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
