#!/usr/bin/env python3
"""How edgar's frontmatter reader compares with PyYAML on a folder of real SKILL.md files.

For every file whose frontmatter PyYAML reads as a mapping it counts the files edgar refuses,
the files edgar reads with a warning (a key left out, name and description kept), and the files
edgar reads differently from PyYAML. Dates and times are compared the documented way: edgar gives
the text the file holds, and that text must be what PyYAML reads as the same date. It also counts
the files PyYAML refuses that edgar reads without a warning (edgar should refuse those too).

Usage: python3 bench/bench_frontmatter.py [FOLDER ...] [--quick] [--examples N]
  (default folder: tests/fixtures/skills; every *.md file below each folder is read;
   EDGAR_SRC=/path/to/checkout measures another checkout's reader)
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, os.environ.get("EDGAR_SRC") or str(REPO))


def block_of(text: str) -> str | None:
    """The frontmatter lines as PyYAML should see them, split by the documented rule; None if none."""
    text = text.replace("\r\n", "\n")
    lines = text.split("\n")
    if not lines or lines[0].rstrip(" \t") != "---":
        return None
    for end in range(1, len(lines)):
        if lines[end].rstrip(" \t") == "---":
            return "".join(line + "\n" for line in lines[1:end])
    return None


def same(ours: object, theirs: object) -> bool:
    """Equal as PyYAML reads it, telling True from 1; a date is equal to the text that reads as it."""
    import yaml

    if isinstance(theirs, dt.date):
        if not isinstance(ours, str):
            return False
        try:
            return yaml.safe_load(ours) == theirs
        except yaml.YAMLError:
            return False
    if isinstance(theirs, dict):
        return (
            isinstance(ours, dict)
            and list(ours) == list(theirs)
            and all(same(ours[k], theirs[k]) for k in theirs)
        )
    if isinstance(theirs, list):
        return (
            isinstance(ours, list)
            and len(ours) == len(theirs)
            and all(same(a, b) for a, b in zip(ours, theirs, strict=True))
        )
    return repr(ours) == repr(theirs)


def reason(message: str) -> str:
    """The sentence of an error without its file and line, and with quoted values masked."""
    import re

    sentence = message.split(": ", 1)[-1] if message.startswith("<") or ":" in message else message
    sentence = re.sub(r"^\d+: ", "", sentence)
    return re.sub(r"'[^']*'", "'…'", sentence)[:110]


def measure(files: list[Path], examples: int) -> None:
    import yaml

    from edgar_min.skills.frontmatter import FrontmatterError, parse_skill

    counts: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    warned: Counter[str] = Counter()
    shown: dict[str, list[str]] = {"refused": [], "warned": [], "different": [], "edgar-only": []}
    ours_time = theirs_time = 0.0
    for path in files:
        raw = path.read_bytes()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            counts["not UTF-8"] += 1
            continue
        block = block_of(text.removeprefix("\ufeff"))
        if block is None:
            counts["no frontmatter"] += 1
            continue
        start = time.perf_counter()
        try:
            theirs = yaml.safe_load(block)
        except yaml.YAMLError:
            theirs = None
            pyyaml_reads = False
        else:
            pyyaml_reads = isinstance(theirs, dict) or theirs is None
            theirs = theirs or {}
        theirs_time += time.perf_counter() - start
        start = time.perf_counter()
        try:
            parsed = parse_skill(text, str(path))
        except FrontmatterError as exc:
            ours, problems, error = None, (), exc.message
        else:
            ours, problems, error = parsed.data, tuple(getattr(parsed, "warnings", ())), ""
        ours_time += time.perf_counter() - start
        if not pyyaml_reads:
            counts["PyYAML refuses"] += 1
            if ours is not None and not problems:
                counts["PyYAML refuses, edgar reads in full"] += 1
                shown["edgar-only"].append(str(path))
            continue
        counts["PyYAML reads"] += 1
        if ours is None:
            counts["edgar refuses"] += 1
            refused[reason(error)] += 1
            shown["refused"].append(f"{path}: {error}")
            continue
        if problems:
            counts["edgar warns"] += 1
            for problem in problems:
                warned[reason(problem)] += 1
            shown["warned"].append(f"{path}: {problems[0]}")
            kept = {k: theirs[k] for k in ours if k in theirs}
            if not same(ours, kept) or any(k in theirs and k not in ours for k in ("name", "description")):
                counts["read differently"] += 1
                shown["different"].append(str(path))
            continue
        if not same(ours, theirs):
            counts["read differently"] += 1
            shown["different"].append(str(path))
    reads = counts["PyYAML reads"] or 1
    print(f"files: {len(files)}; PyYAML reads {counts['PyYAML reads']} frontmatters as a mapping")
    print(f"  edgar refuses: {counts['edgar refuses']} ({100 * counts['edgar refuses'] / reads:.2f}%)")
    print(
        f"  edgar reads with a warning: {counts['edgar warns']} ({100 * counts['edgar warns'] / reads:.2f}%)"
    )
    print(f"  read differently: {counts['read differently']}")
    print(
        f"PyYAML refuses: {counts['PyYAML refuses']} "
        f"(edgar reads {counts['PyYAML refuses, edgar reads in full']} of them in full); "
        f"no frontmatter: {counts['no frontmatter']}; not UTF-8: {counts['not UTF-8']}"
    )
    print(f"time: edgar {ours_time:.2f} s, PyYAML (pure Python) {theirs_time:.2f} s")
    for title, table in (("refusals", refused), ("warnings", warned)):
        if table:
            print(f"{title} by reason:")
            for sentence, n in table.most_common(12):
                print(f"  {n:6d}  {sentence}")
    for title, paths in shown.items():
        for line in paths[:examples]:
            print(f"  {title}: {line}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--quick", action="store_true", help="at most 2,000 files")
    parser.add_argument("--examples", type=int, default=3, help="example paths shown per category")
    args = parser.parse_args()
    try:
        import yaml  # noqa: F401 - the oracle
    except ImportError:
        print("PyYAML is not installed (pip install -e '.[dev]'): nothing to compare against")
        return 0
    folders = args.folders or [REPO / "tests" / "fixtures" / "skills"]
    files = sorted(p for folder in folders for p in folder.rglob("*.md") if p.is_file())
    if args.quick:
        files = files[:2000]
    measure(files, args.examples)
    return 0


if __name__ == "__main__":
    sys.exit(main())
