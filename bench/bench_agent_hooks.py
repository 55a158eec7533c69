#!/usr/bin/env python3
"""What edgar's hooks cost each prompt, as Codex and Gemini CLI themselves report it.

Usage: python3 bench/bench_agent_hooks.py [--turns N] [PYZ]   (default: dist/edgar.pyz, 5 turns)

For each agent, a fresh home and project (two skills, one of them learned), `edgar install
AGENT` run from the archive as a person runs it, then N headless turns of the real CLI
against a scripted model on 127.0.0.1 (tests/agent_servers.py): each turn reads a skill's
`SKILL.md` and runs a command that fails. Codex reports each hook's run time as the
OpenTelemetry histogram `codex.hooks.run.duration_ms` (sent here over OTLP/HTTP); Gemini
CLI prints "Hook execution for EVENT: ... total duration: N ms" with --debug. Printed: the
median and range per event, and how many of the turns' typed prompts `learn --from AGENT
--dry-run` read back exactly.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "tests"))

from agent_servers import (  # noqa: E402 - after the path is set
    GeminiServer,
    ResponsesServer,
    codex_binary,
    codex_home,
    gemini_binary,
    gemini_call,
    gemini_home,
    run_codex,
    run_gemini,
    shell,
    text,
)

SKILL = "---\nname: {name}\ndescription: {description}\n---\n\n## When to use\n{description}\n"
GEMINI_TOOK = re.compile(r"Hook execution for (\w+): .* total duration: (\d+)ms")


def edgar(pyz: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-I", "-S", str(pyz), *args], env=env, capture_output=True, text=True, check=False
    )


def project(tmp: Path) -> Path:
    root = tmp / "project"
    for folder, name, description in (
        (".agents/skills", "release-notes", "Write release notes from the git log of a tag range."),
        (".edgar/skills/learned", "pin-bump", "Bump a dependency pin and refresh the lock file."),
    ):
        (root / folder / name).mkdir(parents=True)
        (root / folder / name / "SKILL.md").write_text(SKILL.format(name=name, description=description))
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def summary(times: dict[str, list[float]]) -> str:
    return "; ".join(
        f"{event} median {statistics.median(ms):.0f} ms ({min(ms):.0f}-{max(ms):.0f}, n={len(ms)})"
        for event, ms in times.items()
    )


def codex(pyz: Path, turns: int, tmp: Path) -> str:
    home, root = tmp / "codex-home", project(tmp)
    env = {**os.environ, "CODEX_HOME": str(home / ".codex"), "EDGAR_HOME": str(tmp / "edgar-home")}
    times: dict[str, list[float]] = {}
    exact = 0
    for n in range(turns):
        typed = f"<b>turn {n}</b>: write the release notes for v{n}"
        script = [
            [shell(f"r{n}", "sed -n '1,50p' .agents/skills/release-notes/SKILL.md")],
            [shell(f"f{n}", "python3 -c 'import sys; sys.exit(1)'")],
            [text("Done.")],
        ]
        with ResponsesServer(script) as server:
            codex_home(home, server.base_url, metrics=True)
            if n == 0:
                edgar(pyz, "--root", str(root), "install", "codex", env=env)
            os.environ.update(EDGAR_HOME=env["EDGAR_HOME"])
            run_codex([typed], cwd=root, home=home)
        for event, ms in server.hook_durations().items():
            times.setdefault(event, []).extend(ms)
        rollout = max((home / ".codex" / "sessions").rglob("rollout-*.jsonl"), key=os.path.getmtime)
        dry = edgar(
            pyz, "--root", str(root), "--json", "learn", "--from", "codex", str(rollout), "--dry-run", env=env
        )
        exact += json.loads(dry.stdout or "{}").get("turn", {}).get("prompt") == typed
    return f"codex: typed prompts read exactly {exact}/{turns}; hooks: {summary(times)}"


def gemini(pyz: Path, turns: int, tmp: Path) -> str:
    home, root = tmp / "gemini-home", project(tmp)
    env = {**os.environ, "GEMINI_CLI_HOME": str(home), "EDGAR_HOME": str(tmp / "edgar-home")}
    gemini_home(home)
    edgar(pyz, "--root", str(root), "install", "gemini", env=env)
    os.environ.update(EDGAR_HOME=env["EDGAR_HOME"])
    times: dict[str, list[float]] = {}
    exact = 0
    for n in range(turns):
        typed = f"<b>turn {n}</b>: write the release notes for v{n}"
        script = [
            [gemini_call("activate_skill", name="release-notes")],
            [
                gemini_call(
                    "run_shell_command", command="python3 -c 'import sys; sys.exit(1)'", description="t"
                )
            ],
            [{"text": "Done."}],
        ]
        with GeminiServer(script) as server:
            done = run_gemini(typed, cwd=root, home=home, server=server, extra=("--debug",))
        for event, ms in GEMINI_TOOK.findall(done.stdout + done.stderr):
            times.setdefault(event, []).append(float(ms))
        log = max((home / ".gemini" / "tmp").rglob("session-*.jsonl"), key=os.path.getmtime)
        dry = edgar(
            pyz, "--root", str(root), "--json", "learn", "--from", "gemini", str(log), "--dry-run", env=env
        )
        exact += json.loads(dry.stdout or "{}").get("turn", {}).get("prompt") == typed
    return f"gemini: typed prompts read exactly {exact}/{turns}; hooks: {summary(times)}"


def main(argv: list[str]) -> int:
    turns = int(argv[argv.index("--turns") + 1]) if "--turns" in argv else 5
    given = [a for i, a in enumerate(argv) if not a.startswith("--") and (i == 0 or argv[i - 1] != "--turns")]
    pyz = Path(given[0]) if given else REPO / "dist" / "edgar.pyz"
    if not pyz.is_file():
        sys.exit(f"{pyz}: no such archive; build it with python3 build_zipapp.py")
    for name, found, run in (("codex", codex_binary(), codex), ("gemini", gemini_binary(), gemini)):
        if found is None:
            print(f"{name}: not installed here; skipped")
            continue
        with tempfile.TemporaryDirectory(prefix=f"edgar-bench-{name}-") as tmp:
            print(run(pyz, turns, Path(tmp)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
