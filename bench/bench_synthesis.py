#!/usr/bin/env python3
"""Figures for synthesis with a real model, the reply reader and the writer's content walls.

- on a real llama.cpp server (xllamacpp + SmolLM2-135M, started here unless --base-url names one):
  N synthesis calls through the gate over several turn outlines, with the default model settings
  (max_tokens 1024, timeout 60 s): how many ended as a shape refusal (no name or description,
  sections missing, out of order, empty), a timeout, a content-wall refusal, a proposal; and the
  median seconds per call;
- the style corpus in tests/fixtures/replies: the share of replies meant to be accepted that the
  reader and the writer accept, and of those meant to be refused that are refused;
- in process, per skill: the writer path with the content walls against the same path without
  them (the walls' own cost), over realistic drafts.

- with --skills DIR: which walls fire on real hand-written SKILL.md files (a sample of 3,000).

Usage: python3 bench/bench_synthesis.py [--quick] [--no-model] [--base-url URL] [--calls N] [--skills DIR]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from edgar_min.config import Config, ModelConfig  # noqa: E402
from edgar_min.controller.gate import Gate  # noqa: E402
from edgar_min.errors import EdgarError  # noqa: E402
from edgar_min.layout import Layout  # noqa: E402
from edgar_min.learning.drafts import parse_reply  # noqa: E402
from edgar_min.learning.outline import Outline  # noqa: E402
from edgar_min.learning.turn import parse_turn  # noqa: E402
from edgar_min.learning.walls import Source, content_problems  # noqa: E402
from edgar_min.learning.writer import Draft, Provenance, Target, write_learned  # noqa: E402

CORPUS = REPO / "tests" / "fixtures" / "replies"

TURNS = [
    {"prompt": "bump the httpx pin", "tools": ["shell", "edit", "shell"],
     "errors": [{"tool": "shell", "kind": "nonzero_exit", "exit_code": 1, "program": "pytest"}]},
    {"prompt": "add a --dry-run flag to the export command",
     "tools": ["read", "edit", "shell", "edit", "shell"],
     "errors": [{"tool": "shell", "kind": "nonzero_exit", "exit_code": 2, "program": "ruff"}]},
    {"prompt": "fix the flaky date test", "corrections": ["no, freeze the clock instead of sleeping"],
     "tools": ["search", "read", "edit", "shell"]},
    {"prompt": "migrate the settings loader to tomllib", "tools": ["search", "read", "edit", "edit", "shell"],
     "errors": [{"tool": "shell", "kind": "crashed", "exit_code": None, "program": "python3"}]},
    {"prompt": "make the docker build use the cache again",
     "tools": ["read", "edit", "shell", "shell", "shell"],
     "errors": [{"tool": "shell", "kind": "timeout", "exit_code": None, "program": "docker"}]},
]  # fmt: skip

SHAPE_WORDS = ("no 'name:' line", "no 'description:' line", "missing section", "out of order", "is empty",
               "appears more than once", "would not read back", "may use only", "longer than")  # fmt: skip


def classify(message: str, outcome: str) -> str:
    if outcome == "proposed":
        return "proposal"
    if "did not answer within" in message:
        return "timeout"
    if any(words in message for words in SHAPE_WORDS):
        return "shape refusal"
    if message.startswith("refused"):
        return "content-wall refusal"
    return "other failure"


def server_speed(base_url: str) -> str:
    """The server's own generation speed for 32 tokens (llama.cpp reports it), to read timeouts by."""
    from edgar_min.models.http import post_json

    body = {"model": "m", "messages": [{"role": "user", "content": "Count to fifty."}], "max_tokens": 32}
    try:
        reply = post_json("bench", f"{base_url}/chat/completions", body, {}, 300)
        return f"{reply['timings']['predicted_per_second']:.1f} tokens/s"
    except (EdgarError, KeyError, TypeError):
        return "unknown"


def synthesis(base_url: str, calls: int) -> None:
    import os

    before = server_speed(base_url)
    load = os.getloadavg()[0]
    counts: dict[str, int] = {}
    seconds = []
    examples: dict[str, str] = {}
    for i in range(calls):
        with tempfile.TemporaryDirectory() as tmp:
            layout = Layout(Path(tmp), Path(tmp) / "home")
            config = Config(model=ModelConfig(provider="openai", name="smollm2", base_url=base_url))
            gate = Gate(layout, config)
            turn = parse_turn({**TURNS[i % len(TURNS)], "verification": "passed"})
            start = time.perf_counter()
            try:
                outcome = gate.synthesize(turn, ("long", "recovered"), f"bench-{i}")
                kind, message = classify(outcome.message, outcome.outcome), outcome.message
            except EdgarError as exc:
                kind, message = classify(exc.message, "refused"), exc.message
            seconds.append(time.perf_counter() - start)
            counts[kind] = counts.get(kind, 0) + 1
            examples.setdefault(kind, message)
    print(f"synthesis with SmolLM2-135M on llama.cpp, {calls} calls, max_tokens 1024, timeout 60 s:")
    print(f"  the server generated {before} before and {server_speed(base_url)} after "
          f"(load average {load:.1f} at the start)")  # fmt: skip
    for kind in ("shape refusal", "timeout", "content-wall refusal", "proposal", "other failure"):
        print(f"  {kind + ':':<22} {counts.get(kind, 0)}/{calls}")
    print(f"  median {statistics.median(seconds):.1f} s per call (max {max(seconds):.1f} s)")
    for kind, message in examples.items():
        print(f"  e.g. {kind}: {message[:200]}")


def corpus() -> None:
    good = sorted((CORPUS / "accepted").glob("*.txt"))
    bad = sorted((CORPUS / "refused").glob("*.txt"))
    accepted = 0
    for path in good:
        with tempfile.TemporaryDirectory() as tmp:
            try:
                draft = parse_reply(path.read_text(encoding="utf-8"))
                write_learned(Layout(Path(tmp), Path(tmp) / "h"), draft, Provenance("s", ("long",)),
                              source=Source(prompt=_prompt(path)))  # fmt: skip
                accepted += 1
            except EdgarError as exc:
                print(f"  not accepted: {path.name}: {exc.message[:160]}")
    refused = 0
    for path in bad:
        with tempfile.TemporaryDirectory() as tmp:
            try:
                draft = parse_reply(path.read_text(encoding="utf-8"))
                write_learned(Layout(Path(tmp), Path(tmp) / "h"), draft, Provenance("s", ("long",)),
                              source=Source(prompt=_prompt(path)))  # fmt: skip
                print(f"  not refused: {path.name}")
            except EdgarError:
                refused += 1
    print(f"style corpus: {accepted}/{len(good)} accepted ({accepted / max(len(good), 1):.0%}); "
          f"{refused}/{len(bad)} wall-breaking replies refused")  # fmt: skip


def _prompt(path: Path) -> str:
    prompts = json.loads((CORPUS / "prompts.json").read_text(encoding="utf-8"))
    return prompts.get(path.stem, prompts["default"])


def walls_cost(n: int) -> None:
    drafts = []
    for path in sorted((CORPUS / "accepted").glob("*.txt")):
        draft = parse_reply(path.read_text(encoding="utf-8"))
        drafts.append(
            (
                draft,
                Source(
                    prompt=_prompt(path),
                    outline=tuple(
                        Outline.of(parse_turn({**TURNS[0], "prompt": _prompt(path)}), ("long",))
                        .render()
                        .splitlines()
                    ),
                ),
            )
        )
    start = time.perf_counter()
    for i in range(n):
        draft, source = drafts[i % len(drafts)]
        content_problems(draft, source)
    walls = (time.perf_counter() - start) / n
    timings: dict[bool, list[float]] = {True: [], False: []}
    with tempfile.TemporaryDirectory() as tmp:
        layout = Layout(Path(tmp), Path(tmp) / "h")
        for i in range(min(n, 200)):
            for with_walls in (False, True):
                draft, source = drafts[i % len(drafts)]
                # Letters, not numbers: a counter in a name is one of the things the walls refuse.
                tag = "".join(chr(97 + int(d)) for d in str(i))
                name = f"{draft.name[:40]}-{tag}-{'walled' if with_walls else 'plain'}"
                start = time.perf_counter()
                write_learned(layout, Draft(name, draft.description, draft.body), Provenance("s", ("long",)),
                              Target(patch=True), source=source if with_walls else None)  # fmt: skip
                timings[with_walls].append(time.perf_counter() - start)
    plain, walled = statistics.median(timings[False]), statistics.median(timings[True])
    print(f"content walls alone: {walls * 1000:.3f} ms per draft (median writer path "
          f"{plain * 1000:.2f} ms without them, {walled * 1000:.2f} ms with them)")  # fmt: skip


def real_skills(folder: Path, limit: int) -> None:
    """Which walls fire on hand-written SKILL.md files (no turn: only the walls that need none)."""
    import random
    import re

    from edgar_min.skills.frontmatter import parse_skill

    files = sorted(p for p in folder.rglob("*.md") if p.is_file())
    random.seed(1)
    files = random.sample(files, min(limit, len(files)))
    fired: dict[str, int] = {}
    read = clean = 0
    seconds = 0.0
    for path in files:
        try:
            skill = parse_skill(path.read_text(encoding="utf-8"), str(path))
        except (EdgarError, OSError, UnicodeDecodeError):
            continue
        name, description = skill.data.get("name"), skill.data.get("description")
        if not isinstance(name, str) or not isinstance(description, str):
            continue
        read += 1
        start = time.perf_counter()
        found = content_problems(Draft(name, description, skill.body), Source())
        seconds += time.perf_counter() - start
        clean += not found
        for problem in found:
            kind = re.sub(r"\s*\(.*", "", problem)[:60]
            fired[kind] = fired.get(kind, 0) + 1
    print(f"walls on {read} hand-written SKILL.md files: {clean} fire none; "
          f"{seconds / max(read, 1) * 1000:.2f} ms per file")  # fmt: skip
    for kind, count in sorted(fired.items(), key=lambda kv: -kv[1]):
        print(f"  {count:>5}  {kind}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer repetitions and model calls")
    parser.add_argument("--no-model", action="store_true", help="skip the llama.cpp figures")
    parser.add_argument("--base-url", help="an OpenAI-compatible server already running (…/v1)")
    parser.add_argument("--calls", type=int, help="synthesis calls (default 20, 5 with --quick)")
    parser.add_argument("--skills", type=Path, help="a folder of real SKILL.md files to run the walls over")
    args = parser.parse_args()
    if args.skills:
        real_skills(args.skills, 500 if args.quick else 3000)
    corpus()
    walls_cost(500 if args.quick else 5000)
    if args.no_model:
        return 0
    calls = args.calls or (5 if args.quick else 20)
    if args.base_url:
        synthesis(args.base_url, calls)
        return 0
    from bench_semif import start_server

    proc, url = start_server()
    if proc is None:
        print(f"llama.cpp figures skipped: {url}")
        return 0
    try:
        synthesis(url, calls)
    finally:
        proc.kill()
        proc.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
