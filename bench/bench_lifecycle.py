#!/usr/bin/env python3
"""Figures for the skill lifecycle, measured in one run on this machine.

- `skills stats` over a store of 1,000,000 turns: the evidence pass alone, and the whole
  command in-process (`edgar --json skills stats`), medians of repeated runs;
- the near-duplicate check of one new skill against 10,000 existing ones held in memory
  (median over 50 new skills), building that index from texts in memory, and the whole
  path `write_learned` takes for a near-duplicate (discovery, the rules, the check, the
  refusal): cold, with no word cache, so every SKILL.md is read, and warm, with the cache
  present and nothing changed; and `discover()` alone, which the warm path includes;
- `usefulness_order` over 10,000 skills with 100,000 stored turns (what a budgeted index calls).

Usage: python3 bench/bench_lifecycle.py [--quick]   (--quick: 100,000 turns, 2,000 skills)
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from edgar_min.layout import Layout  # noqa: E402
from edgar_min.learning.evidence import collect, usefulness_order  # noqa: E402
from edgar_min.learning.similarity import NearDuplicate, SimilarityIndex  # noqa: E402
from edgar_min.learning.wordcache import SETTLE_NS  # noqa: E402
from edgar_min.learning.writer import Draft, Provenance, write_learned  # noqa: E402
from edgar_min.skills.discovery import discover  # noqa: E402

_WORDS = (
    "pin bump lock refresh dependency migrate schema column docker image rebuild cache seed flaky random "
    "merge conflict rebase branch commit client openapi generate deploy rollback config env secret"
)
VOCAB = [f"w{i}" for i in range(5000)] + _WORDS.split()


def median(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def make_store(folder: Path, turns: int, skills: list[str], rng: random.Random) -> None:
    """Turn lines as the store writes them, across 12 monthly files of one host."""
    shapes = [f"main:shell>edit>t{i}" for i in range(50)]
    verdicts = ("passed", "passed", "failed", "unverified")
    per_file = turns // 12
    start = 1_790_000_000
    for month in range(12):
        lines = []
        for i in range(per_file):
            n = month * per_file + i
            stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(start + n * 30))
            used = "-" if rng.random() < 0.6 else ",".join(rng.sample(skills, rng.randint(1, 2)))
            offered = "-" if rng.random() < 0.5 else ",".join(rng.sample(skills, rng.randint(1, 3)))
            shape, verdict = rng.choice(shapes), rng.choice(verdicts)
            lines.append(f"2\t{stamp}\ts-{n // 20}\t{shape}\t{verdict}\t{used}\t{offered}\t-\n")
        path = Path(folder) / "turns" / "box" / f"2026-{month + 1:02d}.tsv"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(lines))


def skill_text(rng: random.Random) -> tuple[str, str]:
    description = " ".join(rng.choices(VOCAB, k=12)) + "."
    procedure = "\n".join(f"{k}. " + " ".join(rng.choices(VOCAB, k=8)) + "." for k in range(1, 6))
    return description, procedure


def body(procedure: str) -> str:
    return (
        f"## When to use\n\nWhen needed.\n\n## Procedure\n\n{procedure}\n\n"
        "## Pitfalls\n\n- None known.\n\n## Verification\n\nThe check passes.\n"
    )


def run_cli(*args: str) -> int:
    """`edgar ARGS` in-process, output captured (as a harness calling `main` would)."""
    from edgar_min.cli.app import run

    return run(list(args), stdout=io.StringIO(), stderr=io.StringIO())


def bench_stats(turns: int, runs: int) -> None:
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        layout = Layout(root, root / "home")
        names = [f"skill-{i}" for i in range(40)]
        for name in names:
            folder = Path(layout.learned) / name
            folder.mkdir(parents=True)
            (folder / "SKILL.md").write_text(
                f"---\nname: {name}\ndescription: Skill {name}.\nmetadata:\n  learned: 'true'\n---\n\n"
                + body("1. x")
            )
        make_store(layout.experience, turns, names, rng)
        size = sum(p.stat().st_size for p in Path(layout.experience).rglob("*.tsv"))
        evidence_s = median(lambda: collect(layout).all_stats(), runs)
        if run_cli("--root", str(root), "--json", "skills", "stats") != 0:
            raise SystemExit("skills stats failed")
        cli_s = median(lambda: run_cli("--root", str(root), "--json", "skills", "stats"), runs)
        files = sorted(Path(layout.experience).rglob("*.tsv"))
        # The floor for any stdlib reader: read the same bytes and split them at tabs, nothing more.
        floor_s = median(lambda: [p.read_bytes().split(b"\t") for p in files], runs)
        check = collect(layout)
        print(f"skills stats over {check.scan.turns:,} turns ({size / 1e6:.0f} MB in 12 files, 40 skills):")
        print(f"  evidence pass + per-skill figures  {evidence_s * 1000:7.0f} ms (median of {runs})")
        print(f"  `edgar --json skills stats`        {cli_s * 1000:7.0f} ms (in-process, median of {runs})")
        print(
            f"  floor: read + split the bytes       {floor_s * 1000:7.0f} ms "
            f"(the pass costs {evidence_s / floor_s:.1f}x the floor)"
        )


def bench_similarity(count: int) -> None:
    rng = random.Random(2)
    texts = [(f"skill-{i}-{rng.choice(VOCAB)}", *skill_text(rng)) for i in range(count)]
    start = time.perf_counter()
    index = SimilarityIndex()
    for name, description, procedure in texts:
        index.add(name, description, body(procedure))
    build_s = time.perf_counter() - start
    news = [(f"new-skill-{i}", *skill_text(rng)) for i in range(50)]
    times = []
    for name, description, procedure in news:
        t = time.perf_counter()
        index.check(name, description, body(procedure))
        times.append(time.perf_counter() - t)
    # A planted duplicate must still be found at this size.
    name, description, procedure = texts[count // 2]
    found = index.check("copy-of-it", description, body(procedure))
    if found is None or found.existing != name:
        raise SystemExit("the planted duplicate was not found")
    print(f"near-duplicate check against {count:,} skills:")
    print(f"  one new skill (in-memory index)     {statistics.median(times) * 1000:7.1f} ms (median of 50)")
    print(f"  building the index from texts       {build_s * 1000:7.0f} ms")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        layout = Layout(root, root / "home")
        for name, description, procedure in texts:
            folder = Path(layout.skills) / name
            folder.mkdir(parents=True)
            (folder / "SKILL.md").write_text(
                f"---\nname: {name}\ndescription: {description}\n---\n\n{body(procedure)}"
            )
        # Files changed within the settle time are never cached: let them age as real skills have.
        time.sleep(SETTLE_NS / 1e9 + 0.1)
        planted, description, procedure = texts[count // 3]

        def writer_path() -> None:
            """`write_learned` of a near-duplicate: discovery, the owner rules, the check, the refusal."""
            try:
                draft = Draft("copy-of-it", description, body(procedure))
                write_learned(layout, draft, Provenance("s", ("long",)))
            except NearDuplicate as exc:
                if exc.existing != planted:
                    raise SystemExit("the writer named the wrong skill") from None
            else:
                raise SystemExit("the writer let a near-duplicate through")

        def cold() -> None:
            Path(layout.word_cache).unlink(missing_ok=True)
            writer_path()

        cold_s = median(cold, 3)
        warm_s = median(writer_path, 21)
        discover_s = median(lambda: discover(layout), 21)
        size = Path(layout.word_cache).stat().st_size
        print(
            f"  whole writer path, cold (no cache, reads each SKILL.md) {cold_s * 1000:7.0f} ms (median of 3)"
        )
        print(f"  whole writer path, warm (cache, nothing changed)  {warm_s * 1000:7.1f} ms (median of 21)")
        print(
            f"    of which discover() alone                      {discover_s * 1000:7.1f} ms (median of 21)"
        )
        print(f"    cache file {size / 1e6:.1f} MB ({layout.relative(layout.word_cache)})")


def bench_order(count: int, turns: int) -> None:
    rng = random.Random(3)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        layout = Layout(root, root / "home")
        names = [f"skill-{i}" for i in range(count)]
        for name in names:
            folder = Path(layout.skills) / name
            folder.mkdir(parents=True)
            (folder / "SKILL.md").write_text(
                f"---\nname: {name}\ndescription: Skill {name}.\n---\n\nProse.\n"
            )
        make_store(layout.experience, turns, names[:200], rng)
        order_s = median(lambda: usefulness_order(layout), 3)
        print(
            f"usefulness_order over {count:,} skills and {turns:,} turns"
            f"  {order_s * 1000:7.0f} ms (median of 3)"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    turns, skills, runs = (100_000, 2_000, 3) if args.quick else (1_000_000, 10_000, 5)
    bench_stats(turns, runs)
    bench_similarity(skills)
    bench_order(skills, turns // 10)


if __name__ == "__main__":
    main()
