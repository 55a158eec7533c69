#!/usr/bin/env python3
"""Figures for meeting agents where they are: the adapter, the hook, the MCP server, the index.

Prints:
- the Claude Code adapter on a 100 MB transcript (one 100 MB tool output, and 100 MB of
  ordinary lines): seconds and the child process's peak RSS against a bare import;
- the Stop-hook path end to end (`python3 edgar.pyz learn --from claude-code --hook`, no
  trigger) against the bare interpreter start-up `python3 -c pass`, and their ratio;
- an MCP `tools/call` round trip for `skills_index` over 1,000 skills;
- `build_index` over 10,000 skills;
- what running a code skill body in its own forked child costs per `edgar run`: the loop's
  overhead (engine time excluded) with the child, against the same run with the body called
  in the parent's own process (a reference stand-in, no walls), interleaved run for run, and
  the floor of any child (fork, exit, wait).

Usage: python3 bench/bench_agents.py [--quick]   (--quick: 20 MB transcripts, fewer runs)
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

SESSION = "3f2b8c1e-7d4a-4e59-9a61-0c5d2e8b7a10"


def _entry(kind: str, content: object, n: int) -> str:
    return json.dumps(
        {
            "parentUuid": f"u{n - 1}",
            "isSidechain": False,
            "userType": "external",
            "cwd": "/home/dev/project",
            "sessionId": SESSION,
            "version": "2.0.14",
            "type": kind,
            "message": {"role": kind, "content": content},
            "uuid": f"u{n}",
            "timestamp": "2026-11-30T09:00:00.000Z",
        }
    )


def one_big_output(path: Path, megabytes: int) -> None:
    with path.open("w") as out:
        out.write(_entry("user", "run the whole suite", 1) + "\n")
        tool = [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "pytest -q"}}]
        out.write(_entry("assistant", tool, 2) + "\n")
        out.write(
            '{"type":"user","isSidechain":false,"sessionId":"' + SESSION + '","message":{"role":"user",'
            '"content":[{"tool_use_id":"t1","type":"tool_result","content":"Exit code 1\\n'
        )
        piece = 'FAILED tests/test_x.py::test_y - AssertionError: \\"boom\\"\\n' * 1000
        written = 0
        while written < megabytes << 20:
            out.write(piece)
            written += len(piece)
        out.write('","is_error":true}]}}\n')


def many_lines(path: Path, megabytes: int) -> None:
    """Turn after turn of ordinary traffic: prompts, tool calls, 2 KB results."""
    result = "line of ordinary tool output\n" * 70
    n = 0
    with path.open("w") as out:
        while out.tell() < megabytes << 20:
            n += 1
            out.write(_entry("user", f"task number {n}", n) + "\n")
            for k in range(5):
                use = f"t{n}-{k}"
                tool = [
                    {"type": "tool_use", "id": use, "name": "Bash", "input": {"command": f"make step{k}"}}
                ]
                out.write(_entry("assistant", tool, n) + "\n")
                block = [{"tool_use_id": use, "type": "tool_result", "content": result, "is_error": k == 2}]
                out.write(_entry("user", block, n) + "\n")


CHILD = """
import json, resource, sys, time
sys.path.insert(0, {repo!r})
from pathlib import Path
from edgar_min.adapters.common import tool_table
from edgar_min.adapters.claude_code import read_transcript
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
adapted = read_transcript(Path({path!r}), tool_table(()))
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
tools = len(adapted.record["tools"])
print(json.dumps({{"seconds": seconds, "base_kb": base, "peak_kb": peak, "tools": tools}}))
"""


def adapter(path: Path) -> dict:
    code = CHILD.format(repo=str(REPO), path=str(path))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def median_run(argv: list[str], runs: int, stdin: bytes = b"", cwd: Path | None = None) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, input=stdin, capture_output=True, check=False, cwd=cwd)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def build_pyz(tmp: Path) -> Path:
    out = tmp / "edgar.pyz"
    subprocess.run(
        [sys.executable, str(REPO / "build_zipapp.py"), "-o", str(out)], check=True, capture_output=True
    )
    return out


def write_skills(root: Path, count: int) -> None:
    skills = root / ".edgar" / "skills"
    for i in range(count):
        folder = skills / f"skill-{i:05d}"
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: skill-{i:05d}\ndescription: Do task {i} the way this project does it, "
            "checked by the declared check.\n---\n\nSteps.\n"
        )


def mcp_round_trip(pyz: Path, root: Path, calls: int) -> tuple[float, float]:
    process = subprocess.Popen(
        [sys.executable, str(pyz), "--root", str(root), "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    if process.stdin is None or process.stdout is None:
        raise RuntimeError("no pipes to the server")

    def ask(rid: int, method: str, params: dict) -> dict:
        message = {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}
        process.stdin.write(json.dumps(message).encode() + b"\n")
        process.stdin.flush()
        return json.loads(process.stdout.readline())

    ask(0, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "b"}})
    process.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    args = {"name": "skills_index", "arguments": {"budget_chars": 4000}}
    start = time.perf_counter()
    ask(1, "tools/call", args)
    first = time.perf_counter() - start
    times = []
    for i in range(calls):
        start = time.perf_counter()
        answer = ask(i + 2, "tools/call", args)
        times.append(time.perf_counter() - start)
        if answer["result"]["isError"]:
            raise RuntimeError(f"skills_index failed: {answer}")
    process.stdin.close()
    process.wait(timeout=10)
    return first, statistics.median(times)


def _in_process_body(code, job, *, wall, seconds, answer, on_phase, answer_many=None):
    """Reference only: the body called in this process with no child and no wall (the old cost)."""
    import types

    from edgar_min.agent import skills
    from edgar_min.agent.child import BodyReport
    from edgar_min.agent.loader import install_aliases

    del wall, seconds, answer_many
    install_aliases(skills)

    class Engine:
        def call(self, decision):
            return answer(decision)

    module = types.ModuleType(job.module)
    exec(code, module.__dict__)  # noqa: S102 - the example tree's own bodies
    ctx = skills.ActionContext(engine=Engine(), config=job.config, root=job.root)
    prediction = module.predict(ctx, job.request)
    on_phase("act")
    result = module.act(ctx, job.request, prediction)
    return BodyReport("acted", "", result, ())


def child_cost(runs: int) -> None:
    import os
    import shutil

    from edgar_min.agent import child, loop
    from edgar_min.config import load_config
    from edgar_min.layout import Layout

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "tree"
        shutil.copytree(REPO / "examples" / "tree", root)
        layout = Layout(root, Path(tmp) / "home")
        config = load_config(layout, environ={})
        texts = ["write an email to bob about the boiler repair", "add a todo: renew the passport asap"]
        real = child.run_body
        loop.run_request(layout, config, texts[0])  # first run pays imports
        forked, inline, floor = [], [], []
        try:
            for i in range(runs):
                for runner, into in ((real, forked), (_in_process_body, inline)):
                    child.run_body = runner
                    start = time.perf_counter()
                    outcome = loop.run_request(layout, config, texts[i % 2])
                    into.append(time.perf_counter() - start - outcome.engine_seconds)
                    if not outcome.acted:
                        raise RuntimeError(outcome.result.action_log)
                start = time.perf_counter()
                pid = os.fork()
                if pid == 0:
                    os._exit(0)
                os.waitpid(pid, 0)
                floor.append(time.perf_counter() - start)
        finally:
            child.run_body = real
    f, n, b = (statistics.median(x) * 1000 for x in (forked, inline, floor))
    print(f"edgar run, example tree, {runs} runs each way interleaved (loop overhead, engine time excluded):")
    print(f"  body in a forked child (as shipped): {f:.2f} ms median")
    print(f"  body called in this process (reference, no walls): {n:.2f} ms median")
    print(f"  the child costs {f - n:.2f} ms per run; fork + exit + wait alone: {b:.2f} ms")


def main() -> int:
    quick = "--quick" in sys.argv[1:]
    child_cost(30 if quick else 200)
    megabytes = 20 if quick else 100
    runs = 5 if quick else 15
    with tempfile.TemporaryDirectory() as raw:
        tmp = Path(raw)

        for label, make in (("one 100 MB tool output", one_big_output), ("ordinary lines", many_lines)):
            path = tmp / "t.jsonl"
            make(path, megabytes)
            size = path.stat().st_size / 2**20
            figures = adapter(path)
            print(
                f"adapter, {label}: {size:.0f} MB in {figures['seconds']:.2f} s; peak RSS "
                f"{figures['peak_kb'] / 1024:.1f} MB (after imports {figures['base_kb'] / 1024:.1f} MB, "
                f"+{(figures['peak_kb'] - figures['base_kb']) / 1024:.1f} MB while reading)"
            )
            path.unlink()

        pyz = build_pyz(tmp)
        root = tmp / "proj"
        root.mkdir()
        transcript = tmp / "hook.jsonl"
        with transcript.open("w") as out:
            out.write(_entry("user", "list the files", 1) + "\n")
            tool = [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}}]
            out.write(_entry("assistant", tool, 2) + "\n")
            out.write(
                _entry("user", [{"tool_use_id": "t1", "type": "tool_result", "content": "a b"}], 3) + "\n"
            )
        payload = json.dumps(
            {"session_id": SESSION, "transcript_path": str(transcript), "hook_event_name": "Stop"}
        )
        bare = median_run([sys.executable, "-I", "-S", "-c", "pass"], runs)
        hook_command = ["learn", "--from", "claude-code", "--hook"]
        hook = median_run(
            [sys.executable, "-I", "-S", str(pyz), "--root", str(root), *hook_command],
            runs,
            payload.encode(),
        )
        print(
            f"hook end to end (no trigger): {hook * 1000:.1f} ms; "
            f"bare `python3 -I -S -c pass`: {bare * 1000:.1f} ms; ratio {hook / bare:.2f}x"
        )

        skills_root = tmp / "skills1k"
        write_skills(skills_root, 1000)
        first, median = mcp_round_trip(pyz, skills_root, 20 if quick else 100)
        print(
            f"MCP tools/call skills_index over 1,000 skills: first {first * 1000:.1f} ms, "
            f"then median {median * 1000:.2f} ms per round trip"
        )

        from edgar_min.layout import Layout
        from edgar_min.skills.listing import build_index

        big = tmp / "skills10k"
        write_skills(big, 10_000)
        start = time.perf_counter()
        index = build_index(Layout(big, tmp / "home"), 4000)
        seconds = time.perf_counter() - start
        print(
            f"build_index over 10,000 skills (cold, one process): {seconds:.3f} s; "
            f"{len(index.entries)} listed, {len(index.omitted)} omitted, {len(index.text)} chars"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
