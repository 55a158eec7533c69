#!/usr/bin/env python3
"""21 decisions over one state on a real llama.cpp server (xllamacpp + SmolLM2-135M), three ways.

- `per-question, today's order`: the openai engine's `call` once per question (criterion and
  options first, the evidence last: every question pays for the whole state again);
- `call_many, state first`: the openai engine's `call_many` (one letter-slot request per
  question, the state first, so the server's prompt cache keeps it);
- `one JSON array`: one request asking every question, answered as one generated JSON array
  under a JSON schema (an enum of ids per position).

Each round uses a new state (a new ticket number on its first line), so no way is helped by a
prompt the server cached in an earlier round; the three ways run in a rotating order within a
round. Printed: medians over the rounds of the total time, the time per decision, and the
server's own prompt/generation split (the `timings` of its replies), the ratios, the load
average, and whether every option got a probability.

Usage: python3 bench/bench_semif_many.py [--quick] [--rounds N] [--base-url URL] [--no-model]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from bench_semif import start_server  # noqa: E402
from semif_workload import QUESTIONS, STATE  # noqa: E402

from edgar_min.config import SemifConfig  # noqa: E402
from edgar_min.models.http import post_json  # noqa: E402
from edgar_min.semif import DecisionRequest, Option, get_engine  # noqa: E402
from edgar_min.semif.prompt import render_many  # noqa: E402

WAYS = ("today", "many", "json")
LABELS = {
    "today": "per-question, today's order",
    "many": "call_many, state first",
    "json": "one JSON array",
}
JSON_SYSTEM = (
    "You answer several multiple-choice questions about one piece of evidence. Reply with a "
    "JSON array holding the id of the best option of each question, in the order asked."
)


def decisions_for(round_no: int) -> list[DecisionRequest]:
    state = f"Ticket #{48_213 + round_no * 7919}\n{STATE}"
    return [DecisionRequest(state, q, [Option(i, d) for i, d in opts]) for q, opts in QUESTIONS]


def json_array_body(decisions: list[DecisionRequest]) -> dict:
    schema = {
        "type": "array",
        "prefixItems": [{"type": "string", "enum": list(d.option_ids)} for d in decisions],
        "minItems": len(decisions),
        "maxItems": len(decisions),
    }
    return {
        "messages": [
            {"role": "system", "content": JSON_SYSTEM},
            {"role": "user", "content": render_many(decisions)},
        ],
        "max_tokens": 400,
        "temperature": 0,
        "response_format": {"type": "json_schema", "json_schema": {"name": "answers", "schema": schema}},
    }


class Recorder:
    """Wraps the engine's `_post` to keep the server's `timings` of each reply."""

    def __init__(self, engine) -> None:
        self.timings: list[dict] = []
        self._post = engine._post
        engine._post = self

    def __call__(self, body):
        reply = self._post(body)
        self.timings.append(reply.get("timings") or {})
        return reply


def run_way(way, engine, recorder, base_url, decisions):
    recorder.timings.clear()
    start = time.perf_counter()
    if way == "today":
        picks = [engine.call(d) for d in decisions]
    elif way == "many":
        picks = engine.call_many(decisions)
    else:
        reply = post_json("bench", f"{base_url}/chat/completions", json_array_body(decisions), {}, 600)
        recorder.timings.append(reply.get("timings") or {})
        picks = json.loads(reply["choices"][0]["message"]["content"])
    elapsed = time.perf_counter() - start
    t = recorder.timings
    figures = {
        "total": elapsed,
        "prompt_ms": sum(x.get("prompt_ms", 0.0) for x in t),
        "predicted_ms": sum(x.get("predicted_ms", 0.0) for x in t),
        "prompt_n": sum(x.get("prompt_n", 0) for x in t),
        "predicted_n": sum(x.get("predicted_n", 0) for x in t),
        "requests": len(t),
    }
    if way == "json":
        return figures, list(picks), None
    full = sum(1 for r in picks if r.extra.get("probability_status") == "logprobs")
    missing = sum(len(r.extra.get("missing_letters", ())) for r in picks)
    return figures, [r.selected for r in picks], (full, missing)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="2 rounds instead of 5")
    parser.add_argument("--rounds", type=int, help="rounds (each runs every way once)")
    parser.add_argument("--base-url", help="an already running server (.../v1); else one is started")
    parser.add_argument("--no-model", action="store_true", help="skip (every figure here needs the model)")
    args = parser.parse_args()
    if args.no_model:
        return 0
    rounds = args.rounds or (2 if args.quick else 5)
    proc = None
    base_url = args.base_url
    if base_url is None:
        proc, base_url = start_server()
        if proc is None:
            print(f"21-question figures skipped: {base_url}")
            return 0
    try:
        engine = get_engine(SemifConfig(engine="openai", base_url=base_url, timeout_s=600), {})
        recorder = Recorder(engine)
        warm = decisions_for(-1)[:2]
        engine.call(warm[0])
        engine.call_many(warm)
        run_way("json", engine, recorder, base_url, decisions_for(-1))
        load_before = os.getloadavg()
        results: dict[str, list[dict]] = {w: [] for w in WAYS}
        picks: dict[tuple[str, int], list[str]] = {}
        coverage = []
        for round_no in range(rounds):
            decisions = decisions_for(round_no)
            shift = round_no % len(WAYS)
            for way in WAYS[shift:] + WAYS[:shift]:
                figures, chosen, cover = run_way(way, engine, recorder, base_url, decisions)
                results[way].append(figures)
                picks[way, round_no] = chosen
                if way == "many":
                    coverage.append(cover)
        load_after = os.getloadavg()
    finally:
        if proc is not None:
            proc.kill()
            proc.wait(timeout=30)

    n = len(QUESTIONS)
    med = {w: {k: statistics.median(r[k] for r in results[w]) for k in results[w][0]} for w in WAYS}
    print(f"{n} decisions over one ticket state (~270 tokens), SmolLM2-135M on llama.cpp, {rounds} rounds:")
    print(f"  load average before {load_before[0]:.2f}, after {load_after[0]:.2f} (2 cores, shared)")
    for way in WAYS:
        m = med[way]
        print(
            f"  {LABELS[way]:<28} total {m['total']:6.2f} s   per decision {m['total'] / n * 1000:6.0f} ms   "
            f"server: prompt {m['prompt_ms'] / 1000:5.2f} s ({m['prompt_n']:.0f} tokens) + "
            f"generation {m['predicted_ms'] / 1000:5.2f} s ({m['predicted_n']:.0f} tokens), "
            f"{m['requests']:.0f} request(s)"
        )
    for other in ("today", "json"):
        per_round = [a["total"] / b["total"] for a, b in zip(results[other], results["many"], strict=True)]
        print(
            f"  {LABELS[other]} / call_many: {med[other]['total'] / med['many']['total']:.2f}x "
            f"(median of per-round ratios {statistics.median(per_round):.2f}x, "
            f"range {min(per_round):.2f}-{max(per_round):.2f})"
        )
    full = sum(c[0] for c in coverage)
    missing = sum(c[1] for c in coverage)
    print(
        f"  call_many: {full}/{n * rounds} answers read from logprobs, {missing} option letter(s) "
        "missing from the top 20"
    )
    same_today = sum(
        a == b for r in range(rounds) for a, b in zip(picks["many", r], picks["today", r], strict=True)
    )
    same_json = sum(
        a == b for r in range(rounds) for a, b in zip(picks["many", r], picks["json", r], strict=False)
    )
    print(
        f"  same choice as today's order: {same_today}/{n * rounds}; "
        f"as the JSON array: {same_json}/{n * rounds}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
