#!/usr/bin/env python3
"""Run every benchmark script in bench/ and print their figures.

Usage: python3 bench/run.py [--quick]
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    extra = sys.argv[1:]
    failed = 0
    for script in sorted(HERE.glob("bench_*.py")):
        print(f"== {script.name}", flush=True)
        done = subprocess.run([sys.executable, str(script), *extra], check=False)
        if done.returncode != 0:
            print(f"{script.name} exited with {done.returncode}")
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
