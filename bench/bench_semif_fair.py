#!/usr/bin/env python3
"""How well SemIf decides, and whether its choice leans on the letter an option got.

Scores the labelled decisions of bench/data/semif-decisions.jsonl (see bench/data/README.md)
with the openai engine on a real llama.cpp server (xllamacpp + SmolLM2-135M, started here
unless --base-url names one) and with the offline lexical engine. Printed per split: top-1,
the share of answers at each letter against the labels' own share, the mean probability on
the right answer, the calibration error (5 equal-width bins of the top probability), and the
time and requests it took. Failures are not listed: the test split is scored, never read.

With `--rotated N` it asks the first N decisions twice instead, the second time with the options
turned by one place, and prints how often the top choice stayed and the largest move of a
probability.

With `--one-order` the model is asked as the openai engine asked before position fairness: one
chat request per decision, the options in their given order only, the letter slot read by the
engine's own `read` (bench_semif.single_order). Without it, the engine's `call`: every cyclic
order of the options, combined.

Usage: python3 bench/bench_semif_fair.py [--split test|test2|test3|test4|dev|all] [--base-url URL]
           [--no-model] [--rotated N] [--one-order]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from bench_semif import single_order, start_server  # noqa: E402

from edgar_min.config import SemifConfig  # noqa: E402
from edgar_min.semif import LETTERS, DecisionRequest, Option, get_engine  # noqa: E402

DATA = REPO / "bench" / "data" / "semif-decisions.jsonl"
BINS = 5


def cases(split: str) -> list[tuple[DecisionRequest, str, str]]:
    found = []
    for line in DATA.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if split in {"all", row["split"]}:
            options = [Option(o["id"], o["description"]) for o in row["options"]]
            found.append(
                (DecisionRequest(row["state"], row["question"], options), row["label"], row["family"])
            )
    return found


def calibration_error(confidence: list[float], right: list[bool]) -> float:
    """Expected calibration error over equal-width bins of the top probability."""
    total = 0.0
    for b in range(BINS):
        low, high = b / BINS, (b + 1) / BINS
        inside = [i for i, c in enumerate(confidence) if low <= c < high or (b == BINS - 1 and c == 1.0)]
        if inside:
            accuracy = sum(right[i] for i in inside) / len(inside)
            mean = sum(confidence[i] for i in inside) / len(inside)
            total += len(inside) / len(confidence) * abs(accuracy - mean)
    return total


class Counted:
    """Counts the engine's HTTP requests (its `_post`) without changing them."""

    def __init__(self, engine) -> None:
        self.requests = 0
        self._post = engine._post
        engine._post = self

    def __call__(self, *args, **kwargs):
        self.requests += 1
        return self._post(*args, **kwargs)


def score(name: str, engine, asked: list[tuple[DecisionRequest, str, str]], ask=None) -> None:
    """Print the figures of `asked` answered by `ask` (by default the engine's own `call`)."""
    ask = ask or engine.call
    counter = Counted(engine) if hasattr(engine, "_post") else None
    start = time.perf_counter()
    results = [ask(decision) for decision, _, _ in asked]
    elapsed = time.perf_counter() - start
    n = len(asked)
    right = [r.selected == label for r, (_, label, _) in zip(results, asked, strict=True)]
    confidence = [max(r.probabilities) for r in results]
    on_right = [r.probs[label] for r, (_, label, _) in zip(results, asked, strict=True)]
    chosen = [LETTERS[r.option_ids.index(r.selected)] for r in results]
    labelled = [LETTERS[d.option_ids.index(label)] for d, label, _ in asked]
    chance = sum(1 / len(d.options) for d, _, _ in asked) / n
    first = sum(label == d.option_ids[0] for d, label, _ in asked) / n
    print(f"{name}: {n} decisions, {elapsed:.1f} s" + (f", {counter.requests} requests" if counter else ""))
    print(f"  top-1 {sum(right) / n:.1%} (chance {chance:.1%}, always the first option {first:.1%})")
    letters = sorted(set(labelled) | set(chosen))
    shares = ", ".join(f"{x} {chosen.count(x) / n:.0%}/{labelled.count(x) / n:.0%}" for x in letters)
    excess = max((chosen.count(x) - labelled.count(x)) / n for x in letters)
    print(
        f"  answers at each letter / labels there: {shares}; most above its share: {excess * 100:+.0f} points"
    )
    print(f"  mean probability on the right answer {sum(on_right) / n:.3f}")
    print(f"  calibration error ({BINS} bins) {calibration_error(confidence, right):.3f}")
    families = sorted({f for _, _, f in asked})
    per_family = ", ".join(
        f"{f} {sum(r for r, (_, _, g) in zip(right, asked, strict=True) if g == f)}"
        f"/{sum(1 for _, _, g in asked if g == f)}"
        for f in families
    )
    print(f"  right per family: {per_family}")


def rotated(ask, asked: list[tuple[DecisionRequest, str, str]], count: int) -> None:
    """The first `count` decisions asked again by `ask` with their options turned by one place."""
    same, moved = 0, 0.0
    for decision, _, _ in asked[:count]:
        first = ask(decision)
        options = decision.options[1:] + decision.options[:1]
        again = ask(DecisionRequest(decision.state, decision.question, options))
        same += first.selected == again.selected
        moved = max(moved, *(abs(p - again.probs[i]) for i, p in first.probs.items()))
    print(f"  asked again with the options turned by one: same top choice {same}/{count}, ", end="")
    print(f"largest move of a probability {moved:.3f}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--split", choices=("test", "test2", "test3", "test4", "dev", "all"), default="test")
    parser.add_argument("--base-url", help="an already running server (.../v1); else one is started")
    parser.add_argument("--no-model", action="store_true", help="only the offline lexical engine")
    parser.add_argument("--rotated", type=int, default=0, metavar="N", help="only ask N decisions turned")
    parser.add_argument(
        "--one-order", action="store_true", help="ask as before position fairness: one order, one request"
    )
    args = parser.parse_args()
    asked = cases(args.split)
    print(f"split {args.split}: {len(asked)} labelled decisions from {DATA.relative_to(REPO)}")
    score("lexical", get_engine(SemifConfig(engine="lexical"), {}), asked)
    if args.no_model:
        return 0
    proc, base_url = None, args.base_url
    if base_url is None:
        proc, base_url = start_server()
        if proc is None:
            print(f"model figures skipped: {base_url}")
            return 0
    try:
        engine = get_engine(SemifConfig(engine="openai", base_url=base_url, timeout_s=600), {})
        ask = (lambda d: single_order(engine, d)) if args.one_order else engine.call
        ask(asked[0][0])  # warm the server; not counted
        name = "openai, SmolLM2-135M" + (", one order (as before)" if args.one_order else ", every order")
        if args.rotated:
            print(name)
            rotated(ask, asked, args.rotated)
        else:
            score(name, engine, asked, ask)
    finally:
        if proc is not None:
            proc.kill()
            proc.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
