#!/usr/bin/env python3
"""What reaching every write from the root without following a link costs, measured side by side.

For each primitive, the same work is timed two ways in one run, interleaved: walked from the
project root folder by folder (`root=`, what edgar does) and opened by its full path as before
(`root=None`). Printed: the median of each, their ratio and the difference; and the per-turn
cost of recording a turn (the store's hot path) with its folder reached from the root.

Usage: python3 bench/bench_fs.py [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def paired(runs: int, walked, plain) -> tuple[float, float]:
    """Median seconds of `walked()` and `plain()`, alternated run for run."""
    a, b = [], []
    for i in range(runs):
        for fn, out in ((walked, a), (plain, b)) if i % 2 == 0 else ((plain, b), (walked, a)):
            t0 = time.perf_counter()
            fn(i)
            out.append(time.perf_counter() - t0)
    return statistics.median(a), statistics.median(b)


def report(what: str, walked: float, plain: float) -> None:
    print(
        f"{what}: walked {walked * 1e6:.1f} us, plain {plain * 1e6:.1f} us, "
        f"ratio {walked / plain:.2f}, extra {(walked - plain) * 1e6:.1f} us"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    runs = 400 if parser.parse_args().quick else 4000

    from edgar_min.atomic import append_line, write_text
    from edgar_min.layout import Layout
    from edgar_min.learning.store import ExperienceStore
    from edgar_min.learning.triggers import triggers
    from edgar_min.learning.turn import parse_turn

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        layout = Layout(root, root / "home")
        log = Path(layout.ledger)
        report(
            f"append one line to {log.relative_to(root)}",
            *paired(runs, lambda i: append_line(log, f"{i}", root=root), lambda i: append_line(log, f"{i}")),
        )
        deep = Path(layout.learned) / "pin-bump" / "SKILL.md"
        text = "x" * 2000
        report(
            f"replace {deep.relative_to(root)} atomically (with fsync)",
            *paired(
                max(runs // 10, 40),
                lambda _i: write_text(deep, text, root=root),
                lambda _i: write_text(deep, text),
            ),
        )
        turn = parse_turn({"prompt": "x", "tools": ["shell", "edit"], "verification": "passed"})
        config = __import__("edgar_min.config", fromlist=["SkillsConfig"]).SkillsConfig()
        rooted = ExperienceStore(layout.experience, host="bench", root=root)
        # The store is always walked: compared here from the project root (4 folders down)
        # with from its own folder (2 folders down), the depth it had no check for before.
        plain = ExperienceStore(layout.experience, host="bench", root=layout.experience)

        def record(store, i):
            session = f"s-{i}"
            store.record(turn, session, triggers(turn, config, store, session))

        report(
            "record a turn + triggers, store walked from the root vs from its own folder",
            *paired(runs, lambda i: record(rooted, i), lambda i: record(plain, i + runs)),
        )


if __name__ == "__main__":
    main()
