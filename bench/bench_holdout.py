#!/usr/bin/env python3
"""A design simulation of the randomised holdout (delivery/holdout.py, learning/trial.py).

Turn streams with a known effect of a skill on the pass rate (+20, +10, 0 and -10 points, base
rates 0.3 to 0.8) go through edgar's own functions, never a copy of them:

1. Statistics, many streams: sessions with random ids, each with 1-4 prompts the skill fits; the
   session is held out or not by `holdout.draw` (what the prompt hook asks), each turn passes or
   fails at the rate of its arm, and `trial.judge` (what `skills stats` answers) is asked after
   every turn, as a person who looks after every turn would. Printed per effect: the share of
   streams given a verdict within the horizon, the compared turns it took (median, 90th
   percentile), and the share of wrong verdicts (`helps` or `hurts` at effect 0, the opposite
   sign elsewhere): the target is at most 5% at effect 0.
2. End to end, a few streams: every prompt through the real prompt hook (`hooks.run_hook`, in
   process), every turn through the real Stop hook on a Claude Code transcript, its verdict from
   the project's declared check (a program that exits 0 or 1 as the stream says); then
   `trial.trials` reads the records back, and its counts are compared with what the stream did.
3. Cost per prompt, in process: the prompt hook with the holdout on against off (interleaved,
   medians), and the holdout's own decision alone; then what the verdict adds to `skills stats`
   over a store whose every prompt has its offer recorded.

`--design` prints, on the design seeds only, the grid the defaults were chosen from: the mixture
scale `trial.TAU` and the default `evidence.holdout`, by the passes lost until a verdict (withheld
turns of a skill that helps, offered turns of one that hurts). The figures in docs/evaluation.md
are from the report seeds, which no choice was made on.

Usage: python3 bench/bench_holdout.py [--quick] [--design] [--no-e2e]
"""

from __future__ import annotations

import io
import json
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from edgar_min.config import EvidenceConfig  # noqa: E402
from edgar_min.delivery import holdout  # noqa: E402
from edgar_min.learning import trial  # noqa: E402
from edgar_min.learning.trial import Arm, judge  # noqa: E402

EFFECTS = (0.20, 0.10, 0.0, -0.10)
BASES = (0.3, 0.5, 0.65, 0.8)
# Seeds: the design grid is run on these only ...
DESIGN_SEEDS = range(1000, 1100)
# ... and the reported figures on these, on which nothing was chosen.
REPORT_SEEDS = range(5000, 5500)
E2E_SEED = 77
HORIZON = 3000  # compared turns a stream runs for at most
SKILL = "gh-fix-ci"
PROMPT = "the ci checks on my pull request are failing, figure out why and fix it"


def stream(seed: int, base: float, effect: float, p: float, horizon: int = HORIZON) -> tuple[int, str]:
    """Compared turns until the first verdict (or the horizon), and that verdict."""
    rng = random.Random(seed)
    on = off = 0
    u = Arm()
    w = Arm()
    n = 0
    while n < horizon:
        session = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        held = holdout.draw(session, SKILL) < p
        rate = base if held else min(1.0, max(0.0, base + effect))
        for _ in range(rng.randint(1, 4)):
            passed = rng.random() < rate
            if held:
                w = Arm(w.turns + 1, w.passed + passed, w.failed + (not passed))
                off += 1
            else:
                u = Arm(u.turns + 1, u.passed + passed, u.failed + (not passed))
                on += 1
            n += 1
            verdict = judge(SKILL, u, w, holdout=p).verdict
            if verdict != "can't tell yet":
                return n, verdict
    return n, "can't tell yet"


def wrong(effect: float, verdict: str) -> bool:
    if effect == 0:
        return verdict != "can't tell yet"
    return verdict == ("hurts" if effect > 0 else "helps")


def statistics_table(seeds: range, p: float, horizon: int) -> dict[float, dict[str, float]]:
    rows = {}
    for effect in EFFECTS:
        turns, wrongs, decided, runs = [], 0, 0, 0
        for base in BASES:
            for seed in seeds:
                n, verdict = stream(seed * 31 + int(base * 100), base, effect, p, horizon)
                runs += 1
                wrongs += wrong(effect, verdict)
                if verdict != "can't tell yet" and not wrong(effect, verdict):
                    decided += 1
                    turns.append(n)
        turns.sort()
        rows[effect] = {
            "runs": runs,
            "decided": decided / runs,
            "median": statistics.median(turns) if turns else float("nan"),
            "p90": turns[int(0.9 * (len(turns) - 1))] if turns else float("nan"),
            "wrong": wrongs / runs,
        }
    return rows


def print_table(title: str, rows: dict[float, dict[str, float]], horizon: int) -> None:
    print(title)
    print(
        f"  {'effect':>7}  {'streams':>7}  {'right verdict':>13}  {'median turns':>12}"
        f"  {'p90 turns':>9}  wrong"
    )
    for effect, r in rows.items():
        print(
            f"  {effect * 100:+6.0f}pt  {r['runs']:>7}  {r['decided']:>12.1%}  {r['median']:>12.0f}"
            f"  {r['p90']:>9.0f}  {r['wrong']:.1%}"
        )
    print(f"  (right verdict: within {horizon} compared turns; wrong at 0: any helps or hurts)")


def design(seeds: range, horizon: int) -> None:
    """The grid the defaults were chosen from (design seeds only).

    For each mixture scale and holdout probability: wrong verdicts at effect 0, the median compared
    turns to a right verdict at +10 and -10 points, and the passes lost per 1,000 compared turns
    over the horizon, averaged over +20, +10 and -10: a skill that helps is withheld from a share
    p of its turns for as long as the holdout runs (it goes on after a verdict), and one that hurts
    is offered in the other 1 - p until its verdict retires it (or to the horizon). The rule,
    fixed before the grid was run: of the settings whose wrong rate at 0 is at most 4% (a margin
    under the 5% target for the draw), the one that loses the fewest passes.
    """
    print(f"design grid ({len(seeds)} design seeds per base, horizon {horizon} compared turns)")
    print(
        f"  {'tau':>5}  {'holdout':>7}  {'wrong at 0':>10}  {'median +10':>10}  {'median -10':>10}"
        "  lost passes per 1,000 turns"
    )
    chosen = None
    for tau in (0.05, 0.1, 0.2):
        trial.TAU = tau
        for p in (0.1, 0.2, 0.3):
            lost, zero_wrong, zero_runs, runs = 0.0, 0, 0, 0
            medians: dict[float, list[int]] = {0.10: [], -0.10: []}
            for effect in EFFECTS:
                for base in BASES:
                    for seed in seeds:
                        n, verdict = stream(seed * 31 + int(base * 100), base, effect, p, horizon)
                        if effect == 0:
                            zero_runs += 1
                            zero_wrong += verdict != "can't tell yet"
                            continue
                        runs += 1
                        if effect > 0:
                            lost += p * effect * horizon
                        else:
                            lost += (1 - p) * -effect * (n if verdict == "hurts" else horizon)
                        if effect in medians and not wrong(effect, verdict) and verdict != "can't tell yet":
                            medians[effect].append(n)
            wrong0 = zero_wrong / zero_runs
            per_1000 = lost / runs / horizon * 1000
            if wrong0 <= 0.04 and (chosen is None or per_1000 < chosen[2]):
                chosen = (tau, p, per_1000)
            med = {e: statistics.median(v) if v else float("nan") for e, v in medians.items()}
            print(
                f"  {tau:>5}  {p:>7}  {wrong0:>10.1%}  {med[0.10]:>10.0f}  {med[-0.10]:>10.0f}"
                f"  {per_1000:.1f}"
            )
    trial.TAU = 0.1
    if chosen is not None:
        print(f"  chosen by the rule: tau {chosen[0]}, holdout {chosen[1]}")


def end_to_end(quick: bool) -> None:
    """Streams through the real prompt and Stop hooks; `trials` reads them back."""
    from edgar_min.config import load_config
    from edgar_min.delivery.hooks import run_hook
    from edgar_min.layout import Layout, user_home

    sys.path.insert(0, str(HERE.parent / "tests"))
    from suggestfiles import write_skills
    from transcripts import Claude

    print("end to end through the hooks (prompt hook, Stop hook with the declared check, then `trials`)")
    cases = ((0.20, 0.5), (0.0, 0.5), (-0.10, 0.65)) if not quick else ((0.20, 0.5),)
    for effect, base in cases:
        with tempfile.TemporaryDirectory() as tmp:
            os.environ["EDGAR_HOME"] = str(Path(tmp, "home"))
            root = Path(tmp, "project")
            write_skills(root / ".edgar" / "skills" / "learned")
            outcome = root / "outcome"
            user = Path(os.environ["EDGAR_HOME"], "config.toml")
            user.parent.mkdir(parents=True)
            check = [
                "python3",
                "-I",
                "-S",
                "-c",
                f"import sys; sys.exit(open({str(outcome)!r}).read() != 'pass')",
            ]
            user.write_text(
                f"[check]\ncommand = {json.dumps(check)}\n[adapters]\nhook_check = true\n"
                '[skills]\nsynthesis = "off"\n'
            )
            layout = Layout(str(root), user_home())

            def config(layout=layout):
                return load_config(layout, {})

            rng = random.Random(E2E_SEED)
            truth = {"with": [0, 0], "held": [0, 0]}
            turns = 0
            start = time.perf_counter()
            while turns < (120 if quick else 400):
                session = str(uuid.UUID(int=rng.getrandbits(128), version=4))
                for _ in range(rng.randint(1, 4)):
                    payload = {"session_id": session, "prompt": PROMPT, "hook_event_name": "UserPromptSubmit"}
                    said = run_hook(
                        "user-prompt-submit", layout, config, io.BytesIO(json.dumps(payload).encode())
                    )
                    offered = SKILL in said.stdout
                    rate = min(1.0, base + effect) if offered else base
                    passed = rng.random() < rate
                    outcome.write_text("pass" if passed else "fail")
                    t = Claude().user(PROMPT)
                    if offered:  # the agent loads what it was handed: a use its log shows
                        t.skill("s1", SKILL)
                    t.tool("b1", "Bash", {"command": "pytest -q"}).result(
                        "b1", "ok" if passed else "Exit code 1"
                    )
                    path = t.write(root / "t.jsonl")
                    stop = {"session_id": session, "transcript_path": str(path), "hook_event_name": "Stop"}
                    done = run_hook("stop", layout, config, io.BytesIO(json.dumps(stop).encode()))
                    if done.problems:
                        print("  stop hook problem:", done.problems)
                    arm = truth["with" if offered else "held"]
                    arm[0 if passed else 1] += 1
                    turns += 1
            took = time.perf_counter() - start
            found = trial.trials(layout, config())[SKILL]
            read = {
                "with": [found.used.passed, found.used.failed],
                "held": [found.withheld.passed, found.withheld.failed],
            }
            same = "same as the stream" if read == truth else f"DIFFERENT from the stream {truth}"
            print(
                f"  effect {effect * 100:+.0f}pt, base {base:.2f}: {turns} turns in {took:.1f} s; "
                f"read back {read} ({same}); {found.sentence()}"
            )


def cost(quick: bool) -> None:
    """The prompt hook with the holdout on and off, and the holdout's decision alone."""
    from edgar_min.config import load_config
    from edgar_min.delivery.hooks import run_hook
    from edgar_min.layout import Layout, user_home
    from edgar_min.records import replace

    sys.path.insert(0, str(HERE.parent / "tests"))
    from suggestfiles import write_skills

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["EDGAR_HOME"] = str(Path(tmp, "home"))
        root = Path(tmp, "project")
        write_skills(root / ".edgar" / "skills" / "learned")
        layout = Layout(str(root), user_home())
        base = load_config(layout, {})
        configs = {
            "off": replace(base, evidence=replace(base.evidence, holdout=0.0)),
            "on": replace(base, evidence=replace(base.evidence, holdout=0.2)),
        }
        times: dict[str, list[float]] = {"off": [], "on": []}
        rounds = 300 if quick else 2000
        for k in range(rounds):
            payload = json.dumps({"session_id": str(uuid.UUID(int=k, version=4)), "prompt": PROMPT}).encode()
            for name in ("off", "on") if k % 2 else ("on", "off"):
                c = configs[name]
                t0 = time.perf_counter()
                run_hook("user-prompt-submit", layout, lambda c=c: c, io.BytesIO(payload))
                times[name].append(time.perf_counter() - t0)
        on, off = statistics.median(times["on"]), statistics.median(times["off"])
        print(
            f"cost per prompt, in process ({rounds} interleaved runs, medians): "
            f"prompt hook {off * 1e3:.3f} ms "
            f"with the holdout off, {on * 1e3:.3f} ms on ({(on - off) * 1e3:+.3f} ms)"
        )
        from edgar_min.skills.catalog import load_catalog

        catalog = load_catalog(layout)
        ev = configs["on"].evidence
        n = 20000 if not quick else 2000
        t0 = time.perf_counter()
        for k in range(n):
            holdout.withheld(ev, f"s{k}", (SKILL, "pdf"), catalog)
        alone = (time.perf_counter() - t0) / n
        print(
            f"  the holdout's decision alone (two skills offered): {alone * 1e3:.4f} ms per prompt"
            " (target <= 0.2 ms)"
        )


def stats_cost(quick: bool) -> None:
    """`trials` (what `skills stats` adds) over a store whose every turn has its offer recorded."""
    import calendar

    from edgar_min.layout import Layout, user_home

    turns, sessions = (20_000, 200) if quick else (200_000, 2_000)
    rng = random.Random(E2E_SEED)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["EDGAR_HOME"] = str(Path(tmp, "home"))
        layout = Layout(str(Path(tmp, "project")), user_home())
        Path(layout.experience, "turns", "h").mkdir(parents=True)
        Path(layout.suggestions).mkdir(parents=True)
        start = calendar.timegm((2026, 1, 1, 0, 0, 0))
        lines, rows = [], {}
        for i in range(turns):
            s = i % sessions
            stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(start + i))
            held = holdout.draw(f"s-{s}", SKILL) < 0.1
            row = {"time": stamp, "skills": [] if held else [SKILL]} | ({"withheld": [SKILL]} if held else {})
            rows.setdefault(s, []).append(json.dumps(row))
            verdict = "passed" if rng.random() < 0.5 else "failed"
            lines.append(f"1\t{stamp}\ts-{s}\tmain:shell\t{verdict}\t{'-' if held else SKILL}\t-")
        Path(layout.experience, "turns", "h", "2026-01.tsv").write_text("\n".join(lines) + "\n")
        for s, found in rows.items():
            Path(layout.suggestions, f"s-{s}.jsonl").write_text("\n".join(found) + "\n")
        took = []
        for _ in range(3):
            t0 = time.perf_counter()
            trial.trials(layout, None, [SKILL])
            took.append(time.perf_counter() - t0)
        print(
            f"the holdout's verdict (`trials`, what `skills stats` adds) over {turns:,} turns in "
            f"{sessions:,} sessions, every prompt's offer recorded: "
            f"{statistics.median(took):.2f} s (median of 3)"
        )


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    if "--design" in argv:
        design(DESIGN_SEEDS[:20] if quick else DESIGN_SEEDS, 1000 if quick else 2000)
        return 0
    seeds = REPORT_SEEDS[:60] if quick else REPORT_SEEDS
    horizon = 1000 if quick else HORIZON
    p = EvidenceConfig().holdout
    rows = statistics_table(seeds, p, horizon)
    print_table(
        f"statistics: holdout {p}, tau {trial.TAU}, alpha {trial.ALPHA}, bases {', '.join(map(str, BASES))}, "
        f"verdict looked at after every turn (report seeds)",
        rows,
        horizon,
    )
    if "--no-e2e" not in argv:
        end_to_end(quick)
    cost(quick)
    stats_cost(quick)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
