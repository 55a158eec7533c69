#!/usr/bin/env python3
"""Figures for the learning core, measured in one run on this machine.

- the per-turn cost of recording a turn and computing triggers with 1,000,000 turns already
  in the store (median), and how much memory grows over 10,000 more turns;
- discovery of 10,000 skills in a fresh process (names only, and with every description read).

Start-up of the commands is measured by bench_startup.py.

Usage: python3 bench/bench_core.py [--quick]   (--quick: 100,000 stored turns)
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def make_skills(folder: Path, count: int) -> None:
    for i in range(count):
        d = folder / f"skill-{i:05d}"
        d.mkdir(parents=True)
        (d / "SKILL.md").write_text(
            f"---\nname: skill-{i:05d}\ndescription: Does thing number {i} when the task asks for it.\n"
            f"metadata:\n  author: bench\n---\n\n# Skill {i}\n\nSome prose.\n"
        )


def fill_store(folder: Path, turns: int, sessions: int, shapes: int) -> None:
    """Write `turns` records the way the store does, plus the markers they imply."""
    rng = random.Random(7)
    shape_names = [f"main:shell>edit>t{i}" for i in range(shapes)]
    from edgar_min.learning.store import MARKER_CAP, _slug

    per_file = turns // 4
    pairs = set()
    lines_written = 0
    for month in range(4):
        path = folder / "turns" / "benchhost" / f"2026-{month + 1:02d}.tsv"
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w") as handle:
            chunk = []
            for _ in range(per_file):
                session = f"s-{rng.randrange(sessions)}"
                shape = shape_names[rng.randrange(shapes)]
                pairs.add((shape, session))
                chunk.append(f"1\t2026-{month + 1:02d}-01T00:00:00Z\t{session}\t{shape}\tpassed\t-\tlong\n")
                if len(chunk) >= 10000:
                    handle.write("".join(chunk))
                    lines_written += len(chunk)
                    chunk = []
            handle.write("".join(chunk))
            lines_written += len(chunk)
    # The store keeps markers for the first MARKER_CAP sessions of each shape only.
    kept: dict[str, int] = {}
    for shape, session in sorted(pairs):
        if kept.get(shape, 0) >= MARKER_CAP:
            continue
        kept[shape] = kept.get(shape, 0) + 1
        d = folder / "shapes" / _slug(shape)
        d.mkdir(parents=True, exist_ok=True)
        (d / _slug(session, 100)).touch()
    markers = sum(kept.values())
    print(f"store: {lines_written:,} turns, {len(pairs):,} shape/session pairs, {markers:,} markers")


def per_turn(turns: int) -> None:
    from edgar_min.config import SkillsConfig
    from edgar_min.learning.store import ExperienceStore
    from edgar_min.learning.triggers import triggers
    from edgar_min.learning.turn import parse_turn

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        start = time.perf_counter()
        fill_store(folder, turns, sessions=max(turns // 50, 10), shapes=50)
        print(f"store: filled in {time.perf_counter() - start:.1f} s")
        store = ExperienceStore(folder, host="benchhost")
        config = SkillsConfig()
        turn = parse_turn({"prompt": "x", "tools": ["shell", "edit", "t7"], "verification": "passed"})
        times = []
        for i in range(2000):
            session = f"new-{i}"
            t0 = time.perf_counter()
            fired = triggers(turn, config, store, session)
            store.record(turn, session, fired)
            times.append(time.perf_counter() - t0)
        median_ms = statistics.median(times) * 1000
        p95_ms = sorted(times)[int(len(times) * 0.95)] * 1000
        print(f"per turn (record + triggers), {turns:,} turns stored: median {median_ms:.3f} ms")
        print(f"per turn: p95 {p95_ms:.3f} ms")
        print("per turn: target median <= 0.3 ms")
        rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        for i in range(10000):
            session = f"more-{i}"
            store.record(turn, session, triggers(turn, config, store, session))
        rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(f"per turn: peak RSS grew {rss1 - rss0} KB over 10,000 more turns (flat memory)")


DISCOVER = """
import sys, time
sys.path.insert(0, {repo!r})
t0 = time.perf_counter()
from pathlib import Path
from edgar_min.layout import Layout
from edgar_min.skills.discovery import discover
index = discover(Layout(Path({root!r}), Path({root!r}) / "home"))
t1 = time.perf_counter()
n = sum(1 for s in index.skills.values() if s.description)
t2 = time.perf_counter()
print(len(index.skills), n, t1 - t0, t2 - t0)
"""


def discovery(count: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        make_skills(root / ".edgar" / "skills", count)
        out = subprocess.run(
            [sys.executable, "-c", DISCOVER.format(repo=str(REPO), root=str(root))],
            capture_output=True, text=True, check=True,
        ).stdout.split()  # fmt: skip
        found, described, names_s, all_s = int(out[0]), int(out[1]), float(out[2]), float(out[3])
        if not found == described == count:
            print(f"discovery found {found} and described {described} of {count}: something is wrong")
        print(f"discovery of {count:,} skills in a fresh process: {names_s:.3f} s names, "
              f"{all_s:.3f} s with every frontmatter parsed (target <= 0.3 s)")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    per_turn(100_000 if args.quick else 1_000_000)
    discovery(10_000)
    return 0


if __name__ == "__main__":
    sys.exit(main())
