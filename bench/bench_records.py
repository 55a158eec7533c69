#!/usr/bin/env python3
"""What edgar's records cost beside the standard dataclasses, in one run, side by side.

Prints, for `dataclasses` and `edgar_min.records`, each in a fresh `python3 -I -S` run after
run (interleaved, medians): importing the module; making 13 frozen, slotted classes of 3 to 10
fields with defaults and metadata, shaped like the config sections (what every command pays at
start); and, per record, building one of 5 fields, one with a default factory, comparing two and
hashing one (what 10,000 skills in a catalogue pay).

Usage: python3 bench/bench_records.py [--quick]
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

CLASSES = "\n\n".join(
    f"@dataclass(frozen=True, slots=True)\nclass C{i}:\n"
    + "\n".join(
        f"    f{j}: int = field(default={j}, metadata={{'min': 0}})" if j % 2 else f"    f{j}: str = 'x'"
        for j in range(3 + i % 8)
    )
    for i in range(13)
)

PROBE = """
import json, sys, time, timeit
sys.path.insert(0, {repo!r})
which = sys.argv[1]
start = time.perf_counter()
if which == "dataclasses":
    from dataclasses import dataclass, field
else:
    from edgar_min.records import dataclass, field
imported = time.perf_counter() - start
source = compile({classes!r}, "<classes>", "exec")
scope = {{"dataclass": dataclass, "field": field, "__name__": "classes"}}
sys.modules["classes"] = type(sys)("classes")
start = time.perf_counter()
exec(source, scope)
made = time.perf_counter() - start

@dataclass(frozen=True, slots=True)
class Hit:
    name: str
    score: float
    coverage: float
    evidence: float
    matched: int = 0

@dataclass(frozen=True, slots=True)
class Prediction:
    text: str
    decisions: list = field(default_factory=list)

a, b = Hit("a", 1.0, 0.5, 0.5), Hit("a", 1.0, 0.5, 0.5)
g = {{"Hit": Hit, "Prediction": Prediction, "a": a, "b": b}}
def per(stmt, n=20000):
    return min(timeit.repeat(stmt, globals=g, number=n, repeat=5)) / n
print(json.dumps({{
    "import": imported, "classes": made,
    "build": per("Hit('a', 1.0, 0.5, 0.5, 2)"), "factory": per("Prediction('x')"),
    "eq": per("a == b"), "hash": per("hash(a)"),
}}))
"""


def main() -> int:
    runs = 5 if "--quick" in sys.argv else 15
    code = PROBE.format(repo=str(REPO), classes=CLASSES)
    seen: dict[str, dict[str, list[float]]] = {"dataclasses": {}, "records": {}}
    for _ in range(runs):
        for which, figures in seen.items():
            done = subprocess.run(
                [sys.executable, "-I", "-S", "-c", code, which], capture_output=True, text=True, check=True
            )
            for key, value in json.loads(done.stdout).items():
                figures.setdefault(key, []).append(value)
    med = {w: {k: statistics.median(v) for k, v in f.items()} for w, f in seen.items()}
    d, r = med["dataclasses"], med["records"]
    print(f"records vs dataclasses, {runs} fresh interpreters each, interleaved, medians:")
    print(
        f"  import: {1000 * r['import']:.2f} ms vs {1000 * d['import']:.2f} ms "
        "(each with what it imports: for dataclasses inspect, ast, dis, tokenize, copy)"
    )
    print(
        f"  making 13 frozen, slotted classes: {1000 * r['classes']:.2f} ms vs "
        f"{1000 * d['classes']:.2f} ms ({d['classes'] / r['classes']:.1f}x less)"
    )
    for key, what in (
        ("build", "building a 5-field record"),
        ("factory", "building one with a default factory"),
        ("eq", "comparing two equal records"),
        ("hash", "hashing one"),
    ):
        print(f"  {what}: {1e9 * r[key]:.0f} ns vs {1e9 * d[key]:.0f} ns")
    return 0


if __name__ == "__main__":
    sys.exit(main())
