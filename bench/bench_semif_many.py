#!/usr/bin/env python3
"""21 decisions over one state on a real llama.cpp server (xllamacpp + SmolLM2-135M), five ways.

- `per question, one order` (the reference, as one decision was asked before position
  fairness): one chat request per question, criterion and options first, the evidence last,
  the options in their given order only; every question pays for the whole state again;
- `per question`: the openai engine's `call` once per question (each question in every cyclic
  order of its options, the state first, one request per question);
- `call_many`: the openai engine's `call_many` (every order of every question in one request
  where the server takes prompt lists, the state read once);
- `call_many, one order`: the same request with each question in its given order only, to show
  what the fair orders cost;
- `one JSON array`: one request asking every question, answered as one generated JSON array
  under a JSON schema (an enum of ids per position).

Each round uses a new state (a new ticket number on its first line), so no way is helped by a
prompt the server cached in an earlier round; the ways run in a rotating order within a round.
`--load N` runs N busy-loop processes beside the server for the whole run (each stops itself
after `--load-seconds`, and all are ended when the bench ends). Printed: medians over the
rounds of the total time, the ratios (median of the per-round ratios too), the load average,
and how the answers were read. `--ways each,many,json` runs only those ways (call_many always
among them), for a loaded machine where a round of all five takes a quarter of an hour.

The engine reads options by id where the server tokenizes (semif/cloze.py) and keeps each
question's content-free answers, so one engine kept over the rounds pays for them once. With
`--fresh` every way of every round gets a new engine, as one `edgar semif` command does: the
template, the ids' tokens and the content-free answers are learned again each time.

Usage: python3 bench/bench_semif_many.py [--rounds N] [--load N] [--ways W,W] [--fresh] [--base-url URL]
           [--no-model]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from bench_semif import single_order, start_server  # noqa: E402
from semif_workload import QUESTIONS, STATE  # noqa: E402

from edgar_min.config import SemifConfig  # noqa: E402
from edgar_min.models.http import post_json  # noqa: E402
from edgar_min.semif import DecisionRequest, Option, get_engine  # noqa: E402
from edgar_min.semif.prompt import render_many  # noqa: E402

WAYS = ("before", "each", "many", "one_order", "json")
LABELS = {
    "before": "per question, one order",
    "each": "per question",
    "many": "call_many",
    "one_order": "call_many, one order",
    "json": "one JSON array",
}
JSON_SYSTEM = (
    "You answer several multiple-choice questions about one piece of evidence. Reply with a "
    "JSON array holding the id of the best option of each question, in the order asked."
)
BUSY = "import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end:\n    pass\n"


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


class Counter:
    """Wraps the engine's `_post` to count its requests."""

    def __init__(self, engine) -> None:
        self.requests = 0
        self._post = engine._post
        engine._post = self

    def __call__(self, *args):
        self.requests += 1
        return self._post(*args)


def run_way(way, engine, counter, base_url, decisions):
    counter.requests = 0
    start = time.perf_counter()
    if way == "before":
        picks = [single_order(engine, d) for d in decisions]
    elif way == "each":
        picks = [engine.call(d) for d in decisions]
    elif way == "many":
        picks = engine.call_many(decisions)
    elif way == "one_order":
        picks = [
            engine.read(d, reply)
            for d, reply in zip(decisions, engine.letter_replies(decisions), strict=True)
        ]
    else:
        reply = post_json("bench", f"{base_url}/chat/completions", json_array_body(decisions), {}, 3600)
        counter.requests += 1
        elapsed = time.perf_counter() - start
        return elapsed, counter.requests, json.loads(reply["choices"][0]["message"]["content"]), None
    elapsed = time.perf_counter() - start
    read = sum(1 for r in picks if r.extra.get("probability_status") == "logprobs")
    return elapsed, counter.requests, [r.selected for r in picks], read


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3, help="rounds (each runs every way once)")
    parser.add_argument("--load", type=int, default=0, help="busy-loop processes to run beside the server")
    parser.add_argument("--load-seconds", type=int, default=7200, help="the most a busy loop runs")
    parser.add_argument(
        "--ways", default=",".join(WAYS), help=f"the ways to run, comma-separated (default {','.join(WAYS)})"
    )
    parser.add_argument("--base-url", help="an already running server (.../v1); else one is started")
    parser.add_argument("--no-model", action="store_true", help="skip (every figure here needs the model)")
    parser.add_argument("--fresh", action="store_true", help="a new engine for every way of every round")
    args = parser.parse_args()
    ways = tuple(w for w in WAYS if w in args.ways.split(","))
    if "many" not in ways or set(args.ways.split(",")) - set(WAYS):
        parser.error(f"--ways takes some of {', '.join(WAYS)}, call_many ('many') among them")
    if args.no_model:
        return 0
    proc = None
    base_url = args.base_url
    if base_url is None:
        proc, base_url = start_server()
        if proc is None:
            print(f"21-question figures skipped: {base_url}")
            return 0
    busy: list[subprocess.Popen] = []
    try:
        engine = get_engine(SemifConfig(engine="openai", base_url=base_url, timeout_s=3600), {})
        counter = Counter(engine)
        warm = decisions_for(-1)
        engine.call_many(warm[:2])
        busy = [
            subprocess.Popen([sys.executable, "-c", BUSY.format(seconds=args.load_seconds)])
            for _ in range(args.load)
        ]
        load_before = os.getloadavg()
        totals: dict[str, list[float]] = {w: [] for w in ways}
        requests: dict[str, int] = {}
        picks: dict[tuple[str, int], list[str]] = {}
        read: dict[str, int] = dict.fromkeys(ways, 0)
        for round_no in range(args.rounds):
            decisions = decisions_for(round_no)
            shift = round_no % len(ways)
            for way in ways[shift:] + ways[:shift]:
                if args.fresh:
                    engine = get_engine(SemifConfig(engine="openai", base_url=base_url, timeout_s=3600), {})
                    counter = Counter(engine)
                elapsed, count, chosen, by_logprobs = run_way(way, engine, counter, base_url, decisions)
                totals[way].append(elapsed)
                requests[way] = count
                picks[way, round_no] = chosen
                read[way] += by_logprobs or 0
                load = os.getloadavg()[0]
                print(f"  round {round_no + 1}: {LABELS[way]} {elapsed:.2f} s (load {load:.2f})", flush=True)
        load_after = os.getloadavg()
    finally:
        for process in busy:
            process.kill()
            process.wait(timeout=30)
        if proc is not None:
            proc.kill()
            proc.wait(timeout=30)

    n, rounds = len(QUESTIONS), args.rounds
    print(f"{n} decisions over one ticket state (~270 tokens), SmolLM2-135M on llama.cpp, {rounds} rounds,")
    loads = f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after"
    print(f"  {args.load} busy loop(s) beside it; {loads}")
    print(f"  the engine sent its prompts as {engine.transport}", end="")
    print(
        ", a new engine for every way of every round" if args.fresh else ", one engine kept over the rounds"
    )
    for way in ways:
        median = statistics.median(totals[way])
        print(f"  {LABELS[way]:<26} total {median:7.2f} s ({requests[way]} request(s) a round)")
    for other in (w for w in ("before", "each", "json", "one_order") if w in ways):
        per_round = [a / b for a, b in zip(totals[other], totals["many"], strict=True)]
        ratio = statistics.median(totals[other]) / statistics.median(totals["many"])
        print(
            f"  {LABELS[other]} / call_many: {ratio:.2f}x (median of per-round ratios "
            f"{statistics.median(per_round):.2f}x, range {min(per_round):.2f}-{max(per_round):.2f})"
        )
    print(f"  call_many: {read['many']}/{n * rounds} answers read from logprobs")
    if "json" in ways:
        same = sum(
            a == b for r in range(rounds) for a, b in zip(picks["many", r], picks["json", r], strict=False)
        )
        print(f"  same choice as the JSON array: {same}/{n * rounds}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
