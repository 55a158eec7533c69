#!/usr/bin/env python3
"""What edgar's JSON codec costs beside the standard json module, in one run, side by side.

Prints, for `json` and `edgar_min.jsoncodec`, each in a fresh `python3 -I -S` run after run
(interleaved, medians): importing the module after what running a zipapp imports anyway
(`runpy`, with `collections` and `functools`), and after `re` as well (what it costs while
something else still imports `re`); and, per line of the real Claude Code logs in
tests/fixtures/transcripts (or the .jsonl files given), `loads` of the line and `dumps` of its
value with the options the logs and hooks write with.

Usage: python3 bench/bench_jsoncodec.py [--quick] [LOG.jsonl ...]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures" / "transcripts"

PROBE = """
import sys, time
sys.path.insert(0, {repo!r})
which, first = sys.argv[1], sys.argv[2]
import runpy
if first == "re":
    import re
start = time.perf_counter()
if which == "json":
    import json as codec
else:
    from edgar_min import jsoncodec as codec
imported = time.perf_counter() - start
lines = [line for path in sys.argv[3:] for line in open(path, "rb").read().split(b"\\n") if line.strip()]
start = time.perf_counter()
values = [codec.loads(line) for line in lines]
loaded = time.perf_counter() - start
start = time.perf_counter()
for value in values:
    codec.dumps(value, ensure_ascii=False)
    codec.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
dumped = time.perf_counter() - start
print(imported, loaded / len(lines), dumped / len(lines) / 2, len(lines))
"""


def main() -> int:
    runs = 5 if "--quick" in sys.argv else 21
    logs = [a for a in sys.argv[1:] if a != "--quick"] or [str(p) for p in sorted(FIXTURES.glob("*.jsonl"))]
    code = PROBE.format(repo=str(REPO))
    cases = [(which, first) for first in ("nothing", "re") for which in ("json", "jsoncodec")]
    seen: dict[tuple[str, str], list[list[float]]] = {case: [] for case in cases}
    lines = 0
    for _ in range(runs):
        for which, first in cases:
            done = subprocess.run(
                [sys.executable, "-I", "-S", "-c", code, which, first, *logs],
                capture_output=True, text=True, check=True,
            )  # fmt: skip
            *figures, count = done.stdout.split()
            seen[which, first].append([float(f) for f in figures])
            lines = int(count)
    med = {case: [statistics.median(col) for col in zip(*rows, strict=True)] for case, rows in seen.items()}
    print(f"jsoncodec vs json, {runs} fresh interpreters each, interleaved, medians:")
    for first, what in (("nothing", "import in a zipapp"), ("re", "import when re is already imported")):
        ours, theirs = med["jsoncodec", first][0], med["json", first][0]
        print(f"  {what}: {1000 * ours:.2f} ms vs {1000 * theirs:.2f} ms ({theirs / ours:.1f}x less)")
    ours, theirs = med["jsoncodec", "nothing"], med["json", "nothing"]
    print(f"  loads, per line of {lines} log lines: {1e6 * ours[1]:.1f} us vs {1e6 * theirs[1]:.1f} us")
    print(f"  dumps of each line's value: {1e6 * ours[2]:.1f} us vs {1e6 * theirs[2]:.1f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
