#!/usr/bin/env python3
"""Figures for SemIf decisions and the code-skill run loop, measured in one run on this machine.

- the lexical engine: decisions per second with 10 options, in process (a fixed option set
  with a new state each call, as navigation sees it; and a new option set every call);
- on a real llama.cpp server (xllamacpp + SmolLM2-135M, started here): the median latency of a
  letter-slot decision against the same decision asked as generated JSON (`{"choice": "<id>"}`
  under a JSON-schema enum), over at least 20 decisions, and the ratio;
- `edgar run` on the example tree: the loop's own time per run, engine time excluded (median),
  and a whole `python3 -m edgar_min run` process for scale.

Usage: python3 bench/bench_semif.py [--quick] [--no-model]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from edgar_min.semif import DecisionRequest, Option  # noqa: E402
from edgar_min.semif.lexical import LexicalEngine  # noqa: E402

TOPICS = ["email", "calendar", "notes", "billing", "travel", "files", "search", "weather", "music", "code"]


def lexical(n: int) -> None:
    engine = LexicalEngine()
    options = [
        Option(t, f"Handle {t} requests: {t} tasks, {t} questions and {t} changes.") for t in TOPICS[:9]
    ]
    options.append(Option("none", "None of these fits."))
    states = [f"please look at the {TOPICS[i % 10]} thing number {i} for me today" for i in range(n)]
    start = time.perf_counter()
    for state in states:
        engine.call(DecisionRequest(state, "Which category fits the request?", options))
    warm = n / (time.perf_counter() - start)
    sets = [
        [Option(f"{t}{i}", f"Handle {t} requests number {i}, and {t} tasks.") for t in TOPICS]
        for i in range(n // 10)
    ]
    start = time.perf_counter()
    for i, opts in enumerate(sets):
        engine.call(DecisionRequest(states[i], "Which category fits the request?", opts))
    cold = len(sets) / (time.perf_counter() - start)
    print(f"lexical engine, 10 options, same option set:  {warm:,.0f} decisions/s")
    print(f"lexical engine, 10 options, new option set:   {cold:,.0f} decisions/s")


def single_order(engine, decision: DecisionRequest):
    """`decision` asked as the openai engine asked one before position fairness.

    One chat request, the options in their given order only (criterion and options first, the
    evidence last), the letter slot read by the engine's own `read`: a softmax over the letters.
    """
    reply = engine._post(engine.letter_body(decision, "options_first"))
    return engine.read(decision, reply, "options_first")


def start_server() -> tuple[subprocess.Popen | None, str]:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = Path(tempfile.gettempdir()) / "edgar-bench-llama.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, str(REPO / "tests" / "llama_server.py"), str(port)],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return None, f"the server exited ({log.read_text(errors='replace')[-300:].strip()})"
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
                if json.loads(r.read() or b"{}").get("status") == "ok":
                    return proc, f"http://127.0.0.1:{port}/v1"
        except (OSError, ValueError):
            pass
        time.sleep(0.25)
    proc.kill()
    return None, "the server did not become ready in 120 s"


def letter_vs_json(base_url: str, count: int) -> None:
    from edgar_min.config import SemifConfig
    from edgar_min.models.http import post_json
    from edgar_min.semif import get_engine
    from edgar_min.semif.prompt import SYSTEM, render

    engine = get_engine(SemifConfig(engine="openai", base_url=base_url, timeout_s=120), {})
    options = [Option(t, f"Requests about {t}.") for t in TOPICS[:6]]
    # The same instructions, asking for JSON instead of a letter, so both prompts are as long.
    json_system = SYSTEM.replace(
        "with the single capital letter of the best option", 'with JSON {"choice": "<id of the best option>"}'
    )
    server_ms: dict[str, list[tuple[float, float]]] = {"letter": [], "json": []}

    def note(way: str, reply: dict) -> None:
        t = reply.get("timings") or {}
        server_ms[way].append((t.get("prompt_ms", 0.0), t.get("predicted_ms", 0.0)))

    def as_letter(decision: DecisionRequest) -> str:
        # One letter slot in one order, keeping the timings (engine.call asks every cyclic order).
        reply = engine._post(engine.letter_body(decision))
        note("letter", reply)
        return engine.read(decision, reply).selected

    def as_json(decision: DecisionRequest) -> str:
        user = render(decision).rsplit("\n", 1)[0] + '\nAnswer with JSON {"choice": "<option id>"}.'
        schema = {
            "type": "object",
            "properties": {"choice": {"type": "string", "enum": list(decision.option_ids)}},
            "required": ["choice"],
        }
        body = {
            "messages": [{"role": "system", "content": json_system}, {"role": "user", "content": user}],
            "max_tokens": 48,
            "temperature": 0,
            "response_format": {"type": "json_schema", "json_schema": {"name": "choice", "schema": schema}},
        }
        reply = post_json("bench", f"{base_url}/chat/completions", body, {}, 120)
        note("json", reply)
        return json.loads(reply["choices"][0]["message"]["content"])["choice"]

    warm = DecisionRequest("warm up", "Which?", options)
    engine.call(warm)
    as_json(warm)
    letter_times, json_times, agree = [], [], 0
    picks: dict[tuple[str, int], str] = {}
    # Blocks of 6 decisions, each way in turn; the first call of a block is not timed (it
    # re-reads the system prompt the other way evicted from llama.cpp's prompt cache).
    block = 6
    for start_i in range(0, count + count // (block - 1) + block, block):
        for way in ("letter", "json"):
            for i in range(start_i, start_i + block):
                decision = DecisionRequest(
                    f"Request {i}: I have a question about my {TOPICS[i % 6]} from last week, item {i * 7}.",
                    "Which topic does the request belong to?",
                    options,
                )
                start = time.perf_counter()
                picks[way, i] = as_letter(decision) if way == "letter" else as_json(decision)
                elapsed = time.perf_counter() - start
                if i != start_i:
                    (letter_times if way == "letter" else json_times).append(elapsed)
        if len(letter_times) >= count:
            break
    agree = sum(picks["letter", i] == picks.get(("json", i)) for w, i in picks if w == "letter")
    count = len(letter_times)
    lm, jm = statistics.median(letter_times), statistics.median(json_times)
    print(f"llama.cpp SmolLM2-135M, 6 options, {count} decisions each way (median):")
    print(f"  letter-slot readout:        {lm * 1000:.1f} ms")
    print(f"  generated JSON choice:      {jm * 1000:.1f} ms")
    print(f"  ratio (JSON / letter-slot): {jm / lm:.2f}x")
    print(f"  same answer both ways:      {agree}/{len(picks) // 2}")
    for way, label in (("letter", "letter-slot"), ("json", "JSON")):
        prompt = statistics.median(p for p, _ in server_ms[way])
        gen = statistics.median(g for _, g in server_ms[way])
        print(f"  server time, {label:<12} prompt {prompt:.1f} ms + generation {gen:.1f} ms (median)")


def run_overhead(runs: int) -> None:
    from edgar_min.agent.loop import run_request
    from edgar_min.config import load_config
    from edgar_min.layout import Layout

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "tree"
        shutil.copytree(REPO / "examples" / "tree", root)
        layout = Layout(root, Path(tmp) / "home")
        config = load_config(layout, environ={})
        texts = ["write an email to bob about the boiler repair", "add a todo: renew the passport asap"]
        run_request(layout, config, texts[0])  # first run pays imports
        overheads, totals = [], []
        for i in range(runs):
            start = time.perf_counter()
            outcome = run_request(layout, config, texts[i % 2])
            total = time.perf_counter() - start
            totals.append(total)
            overheads.append(total - outcome.engine_seconds)
        cli = []
        for i in range(max(3, runs // 10)):
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "edgar_min", "--root", str(root), "run", texts[i % 2]],
                cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                env={"EDGAR_HOME": str(Path(tmp) / "home"), "PATH": "/usr/bin:/bin"},
            )  # fmt: skip
            cli.append(time.perf_counter() - start)
    print(f"edgar run (example tree, lexical engine), {runs} runs in process:")
    print(f"  loop overhead, engine time excluded (median): {statistics.median(overheads) * 1000:.2f} ms")
    print(f"  whole run including engine (median):          {statistics.median(totals) * 1000:.2f} ms")
    print(f"  whole `python3 -m edgar_min run` process:     {statistics.median(cli) * 1000:.1f} ms")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--no-model", action="store_true", help="skip the llama.cpp figures")
    args = parser.parse_args()
    lexical(20_000 if args.quick else 100_000)
    run_overhead(30 if args.quick else 200)
    if args.no_model:
        return 0
    proc, url = start_server()
    if proc is None:
        print(f"llama.cpp figures skipped: {url}")
        return 0
    try:
        letter_vs_json(url, 20 if args.quick else 40)
    finally:
        proc.kill()
        proc.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
