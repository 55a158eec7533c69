#!/usr/bin/env python3
"""Start-up of the per-turn commands, against the bare interpreter, on every Python 3.11+ here.

Each command runs the way a harness runs it, `python3 -I -S edgar.pyz ...`, interleaved run for
run with the floor `python3 -I -S -c pass` of the same interpreter; figures are medians. The pyz
is built once, by the interpreter that runs this script (the builder); on every other minor
version it is measured cold (an empty bytecode cache, so the run compiles and writes it), warm
(the cache written), and with a home that cannot be written (sources compiled on every run).
Every run gets its own HOME, EDGAR_HOME and XDG_CACHE_HOME under a temporary folder. Beside
wall-clock time it prints CPU time (user + system), which a loaded machine disturbs less.

Usage: python3 bench/bench_startup.py [--quick] [--python PATH ...]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SESSION = "3f2b8c1e-7d4a-4e59-9a61-0c5d2e8b7a10"
OTHER_SESSION = "9d1e5a7c-2b3f-4c8d-8e6a-1f0b3c5d7e92"

# label -> (arguments after the pyz, stdin, target ratio to bare). The prompt hook is measured
# when the build has it (see OPTIONAL).
COMMANDS: dict[str, tuple[list[str], str | None, float | None]] = {
    "--version": (["--version"], None, 1.5),
    "learn, nothing fires": (["learn", "turn.json", "--session", "bench-1"], None, 2.5),
    "Stop hook, nothing to say": (["learn", "--from", "claude-code", "--hook"], "stop.json", 2.5),
    "skills list, 200 skills": (["skills", "list"], None, 3.0),
    "doctor": (["doctor"], None, 4.0),
}
OPTIONAL: dict[str, tuple[list[str], str | None, float | None]] = {
    "prompt hook, nothing to say": (["hook", "user-prompt-submit"], "prompt.json", 2.5),
    "prompt hook, hands over a skill": (["hook", "user-prompt-submit"], "prompt-skill.json", 3.0),
}


def interpreters(extra: list[str]) -> list[tuple[str, str, str]]:
    """(path, cache tag, version) of each distinct Python 3.11+ found, the builder first."""
    candidates = [sys.executable, *extra]
    candidates += sorted(str(p) for p in Path.home().glob(".pyenv/versions/*/bin/python3"))
    candidates += [
        p for n in ("python3.11", "python3.12", "python3.13", "python3.14") if (p := shutil.which(n))
    ]
    probe = (
        "import sys; print(sys.version_info >= (3, 11), sys.implementation.cache_tag, sys.version.split()[0])"
    )
    found: dict[str, tuple[str, str, str]] = {}
    for path in candidates:
        try:
            done = subprocess.run([path, "-I", "-S", "-c", probe], capture_output=True, text=True, timeout=30)
        except OSError:
            continue
        ok, tag, version = [*done.stdout.split(), "", "", ""][:3]
        if done.returncode == 0 and ok == "True" and tag not in found:
            found[tag] = (path, tag, version)
    return list(found.values())


# What `edgar install` records in a project it finds a test command in (the project is then trusted).
CHECK_CONFIG = (
    '[check]\ncommand = ["python3", "-m", "pytest", "-q"]  # found in pyproject.toml by `edgar install`\n'
)


def configured(root: Path) -> dict[str, tuple[list[str], str | None, float | None]]:
    """The hooks a harness runs, in the project at `root`, which has a `.edgar/config.toml`."""
    at = ["--root", str(root), "hook"]
    return {
        "prompt hook, project with a config": ([*at, "user-prompt-submit"], "prompt.json", 2.5),
        "Stop hook, project with a config": ([*at, "stop"], "stop.json", 2.5),
    }


def make_project(root: Path) -> None:
    skills = root / ".edgar" / "skills"
    for i in range(200):
        folder = skills / f"skill-{i:03d}"
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: skill-{i:03d}\ndescription: Does thing number {i} when the task asks for it.\n"
            f"metadata:\n  author: bench\n---\n\n# Skill {i}\n\nSome prose.\n"
        )
    # Passed, two tool calls, no error, no correction, always the same session: nothing fires.
    turn = {"prompt": "list the files", "tools": ["shell", "shell"], "verification": "passed"}
    (root / "turn.json").write_text(json.dumps(turn))
    transcript = root / "session.jsonl"
    lines = [
        {"type": "user", "message": {"role": "user", "content": "list the files"}},
        {
            "type": "assistant",
            "message": {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}}],
            },
        },
        {
            "type": "user",
            "message": {
                "role": "user",
                "content": [{"tool_use_id": "t1", "type": "tool_result", "content": "a"}],
            },
        },
    ]
    with transcript.open("w") as out:
        for n, line in enumerate(lines, 1):
            line.update(sessionId=SESSION, uuid=f"u{n}", timestamp=f"2026-11-30T09:00:0{n}.000Z")
            out.write(json.dumps(line) + "\n")
    stop = {"session_id": SESSION, "transcript_path": str(transcript), "hook_event_name": "Stop"}
    (root / "stop.json").write_text(json.dumps(stop))
    prompt = {
        "session_id": SESSION,
        "transcript_path": str(transcript),
        "hook_event_name": "UserPromptSubmit",
        "prompt": "zq xv",
    }
    (root / "prompt.json").write_text(json.dumps(prompt))
    # A prompt that names one skill: routed, decided, logged, and the skill handed over.
    # Another session: what it is handed must not reach the Stop hook's turns measured above.
    handed = {
        **prompt,
        "session_id": "9d1e5a7c-2b3f-4c8d-8e6a-1f0b3c5d7e92",
        "prompt": "run skill-042 on this repo",
    }
    (root / "prompt-skill.json").write_text(json.dumps(handed))


class Runner:
    """Runs one interpreter's commands in the project with an environment of its own."""

    def __init__(self, python: str, pyz: Path, root: Path, home: Path, cache: Path) -> None:
        self.python = python
        self.pyz = pyz
        self.root = root
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(home),
            "EDGAR_HOME": str(home / ".edgar"),
            "XDG_CACHE_HOME": str(cache),
            "LANG": "C.UTF-8",
        }

    def once(self, args: list[str], stdin: str | None, check: bool = True) -> tuple[float, float]:
        """Wall-clock and CPU (user + system) seconds of one run."""
        data = (self.root / stdin).read_bytes() if stdin else b""
        own = args == ["-c", "pass"] or args[0].endswith(("empty.pyz", "stdlib.pyz"))
        cmd = [self.python, "-I", "-S", *([] if own else [str(self.pyz)]), *args]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(cmd, cwd=self.root, env=self.env, input=data, capture_output=True)
        took = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if check and done.returncode not in (0, 1):  # doctor says 1 when something needs attention
            sys.exit(f"{' '.join(cmd)} exited with {done.returncode}: {done.stderr.decode(errors='replace')}")
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        return took, cpu

    def works(self, args: list[str], stdin: str | None) -> bool:
        data = (self.root / stdin).read_bytes() if stdin else b""
        done = subprocess.run(
            [self.python, "-I", "-S", str(self.pyz), *args],
            cwd=self.root, env=self.env, input=data, capture_output=True,
        )  # fmt: skip
        return done.returncode != 2


def imports(runner: Runner, args: list[str], stdin: str | None, runs: int) -> dict[str, tuple[int, bool]]:
    """module -> (cumulative microseconds, imported at top level) of one command, least of `runs`."""
    data = (runner.root / stdin).read_bytes() if stdin else b""
    best: dict[str, tuple[int, bool]] = {}
    for _ in range(runs):
        cmd = [runner.python, "-X", "importtime", "-I", "-S", str(runner.pyz), *args]
        err = subprocess.run(cmd, cwd=runner.root, env=runner.env, input=data, capture_output=True).stderr
        for line in err.decode(errors="replace").splitlines():
            parts = line.split("|")
            if len(parts) != 3 or not parts[1].strip().isdigit():
                continue
            name, cumulative = parts[2].strip(), int(parts[1])
            top = not parts[2].startswith("  ")  # nested imports are indented further
            best[name] = (min(best.get(name, (cumulative, top))[0], cumulative), top)
    return best


def interleaved(
    runners: list[Runner], commands: list[dict], runs: int, before=None
) -> list[dict[str, float]]:
    """Median wall-clock seconds of each runner's commands and its bare floor (key "bare"), run
    for run; the median CPU seconds of each under LABEL + " cpu"."""
    times = [{"bare": [], **{label: [] for label in table}} for table in commands]
    for _ in range(runs):
        for runner, table, mine in zip(runners, commands, times, strict=True):
            mine["bare"].append(runner.once(["-c", "pass"], None))
            for label, (args, stdin, _target) in table.items():
                if before is not None:
                    before()
                mine[label].append(runner.once(args, stdin))
    figures = []
    for mine in times:
        medians = {label: statistics.median(w for w, _c in values) for label, values in mine.items()}
        medians.update(
            {f"{label} cpu": statistics.median(c for _w, c in values) for label, values in mine.items()}
        )
        figures.append(medians)
    return figures


def report(version: str, figures: dict[str, float], commands: dict, how: str) -> None:
    bare, bare_cpu = figures["bare"], figures["bare cpu"]
    print(
        f"{version} {how}: bare `python3 -I -S -c pass` {bare * 1000:.1f} ms (CPU {bare_cpu * 1000:.1f} ms)"
    )
    for label, (_args, _stdin, target) in commands.items():
        ms, ratio = figures[label] * 1000, figures[label] / bare
        cpu = figures[f"{label} cpu"] / bare_cpu
        verdict = (
            "" if target is None else f" (target <= {target:g}x, {'ok' if ratio <= target else 'MISSED'})"
        )
        print(f"{version} {how}: {label}: {ms:.1f} ms = {ratio:.2f}x bare, CPU {cpu:.2f}x{verdict}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--python", action="append", default=[], help="another interpreter to measure")
    ns = parser.parse_args()
    runs = 7 if ns.quick else 21
    found = interpreters(ns.python)
    builder_tag = sys.implementation.cache_tag
    print("start-up: interpreters " + ", ".join(f"{v} ({p})" for p, _t, v in found))
    with tempfile.TemporaryDirectory() as raw:
        tmp = Path(raw)
        pyz = tmp / "edgar.pyz"
        build = [sys.executable, str(REPO / "build_zipapp.py"), "-o", str(pyz)]
        subprocess.run(build, check=True, stdout=subprocess.DEVNULL)
        # What any zipapp costs before its own code runs (runpy, importlib.util, zipimport), and
        # one that only imports the stdlib a command of edgar's cannot do without.
        with zipfile.ZipFile(tmp / "empty.pyz", "w") as zf:
            zf.writestr("__main__.py", "")
        with zipfile.ZipFile(tmp / "stdlib.pyz", "w") as zf:
            zf.writestr("__main__.py", "import argparse, json, pathlib\n")
        root = tmp / "project"
        root.mkdir()
        make_project(root)
        # The same project once `edgar install` has recorded its check: every hook reads the config.
        with_config = tmp / "project-with-config"
        with_config.mkdir()
        make_project(with_config)
        (with_config / ".edgar" / "config.toml").write_text(CHECK_CONFIG)
        hooks_with_config = configured(with_config)
        runners, tables = [], []
        for python, tag, _version in found:
            home = tmp / f"home-{tag}"
            (home / ".edgar").mkdir(parents=True)
            runner = Runner(python, pyz, root, home, tmp / f"cache-{tag}")
            table = {
                "empty zipapp (the floor of any pyz)": ([str(tmp / "empty.pyz")], None, None),
                "zipapp importing argparse, json, pathlib": ([str(tmp / "stdlib.pyz")], None, None),
                **COMMANDS,
            }
            table.update({k: v for k, v in OPTIONAL.items() if runner.works(v[0], v[1])})
            if runner.works(["--root", str(with_config), "trust"], None):  # as install trusts it
                table.update({k: v for k, v in hooks_with_config.items() if runner.works(v[0], v[1])})
            runner.once(["--version"], None)  # writes the bytecode cache where one is needed
            runners.append(runner)
            tables.append(table)
        # Every interpreter in one loop, so that the versions share the machine's noise.
        figures = interleaved(runners, tables, runs)
        builder = figures[0]
        for (_python, tag, version), mine, table in zip(found, figures, tables, strict=True):
            report(version, mine, table, "builder" if tag == builder_tag else "warm")
            if tag == builder_tag:
                continue
            for label in table:
                if table[label][2] is not None:
                    ratio = (mine[label] / mine["bare"]) / (builder[label] / builder["bare"])
                    print(f"{version} warm vs builder: {label}: {ratio:.2f}x the builder's (target <= 1.2x)")
        # Where the time of the per-turn command goes, on the builder (-X importtime, least of runs).
        seen = imports(runners[0], *COMMANDS["learn, nothing fires"][:2], runs=max(runs // 3, 3))
        ours = sorted(
            ((us, n) for n, (us, top) in seen.items() if top and n.startswith("edgar_min")), reverse=True
        )
        shown = ", ".join(f"{name} {us / 1000:.1f}" for us, name in ours[:6])
        print(
            f"{found[0][2]} builder: learn, nothing fires: edgar's top-level imports, cumulative ms: {shown}"
        )
        stdlib = (
            "dataclasses",
            "argparse",
            "pathlib",
            "json",
            "typing",
            "hashlib",
            "threading",
            "tomllib",
            "runpy",
        )
        shown = ", ".join(f"{n} {seen[n][0] / 1000:.1f}" for n in stdlib if n in seen)
        absent = ", ".join(n for n in stdlib if n not in seen) or "none"
        print(
            f"{found[0][2]} builder: learn, nothing fires: stdlib within, ms: {shown}; not imported: {absent}"
        )
        for label in hooks_with_config:
            if label in tables[0]:
                seen = imports(runners[0], *tables[0][label][:2], runs=max(runs // 3, 3))
                toml = f"tomllib {seen['tomllib'][0] / 1000:.1f} ms" if "tomllib" in seen else "no tomllib"
                print(f"{found[0][2]} builder: {label}: {toml}")
        for python, tag, version in found[1:]:
            home = tmp / f"home-{tag}"
            some = {k: COMMANDS[k] for k in ("--version", "learn, nothing fires")}
            cold_cache = tmp / f"cold-{tag}"
            cold = Runner(python, pyz, root, home, cold_cache)
            empty = lambda folder=cold_cache: shutil.rmtree(folder, ignore_errors=True)  # noqa: E731
            report(version, interleaved([cold], [some], runs, empty)[0], some, "cold")
            # A cache folder below a plain file cannot be made, whoever runs this (root too).
            blocked = tmp / f"blocked-{tag}"
            blocked.write_text("")
            nowhere = Runner(python, pyz, root, home, blocked / "cache")
            report(version, interleaved([nowhere], [some], runs)[0], some, "cache not writable")
    return 0


if __name__ == "__main__":
    sys.exit(main())
