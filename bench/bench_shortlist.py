#!/usr/bin/env python3
"""Figures for what the prompt hook hands an agent: the shortlist, the bodies, the context added.

On the labelled set in bench/data (288 real skills, the prompts by split; see bench/data/README.md),
each prompt goes through what the prompt hook of Claude Code runs (`delivery.context.hand_over`,
in process, the routing cache warm), with the skills in the project's `.edgar/skills` (a folder no
agent lists itself, so edgar names each by its path and may hand a body over). Per split:

- recall: of the prompts that need a skill, the share whose right skill is among the (at most
  three) skills handed over; beside it the ranking's own top three, handed over or not (what
  recall would be if every prompt got a shortlist);
- wrong body: of all prompts, the share handed the body of a skill that is not a right one;
- no-skill prompts handed anything, and handed a body;
- the median characters added to the agent's context, over all prompts and over those handed
  something; ms per prompt (median).

Twice: in a new project (no routing examples), and once the project has learned from use (every
prompt of the other splits that needs a skill kept as an example of its first right skill, and
each that needs none taught as `none`, as `bench_suggest.py` does): the only way a body is handed
over by default is a prompt whose words this project's history taught.

The splits `dev` to `holdout6` and `hard` were read while the router was tuned: they flatter.
`holdout7` to `holdout11` were not: the figures to trust.

Usage: python3 bench/bench_shortlist.py [--split NAME ...]
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from bench_suggest import load_data, write_examples, write_project  # noqa: E402

AGENT = "claude-code"


def handed(layout, config, rows: list[dict]) -> list[dict]:
    """Each row with what the prompt hook handed over for it, and how long that took."""
    from edgar_min.delivery.context import hand_over
    from edgar_min.skills.catalog import load_catalog

    load_catalog(layout)  # writes the routing cache the hook reads
    out = []
    for row in rows:
        start = time.perf_counter()
        given = hand_over(layout, config, row["prompt"], AGENT)
        seconds = time.perf_counter() - start
        out.append(
            {
                **row,
                "names": [pick.name for pick in given.shortlist],
                "ranked": [c.name for c in given.found.candidates[:3]],
                "bodies": [pick.name for pick, _ in given.bodies],
                "chars": len(given.text),
                "seconds": seconds,
            }
        )
    return out


def figures(results: list[dict]) -> dict[str, float]:
    need = [r for r in results if r["gold"]]
    none = [r for r in results if not r["gold"]]
    given = [r["chars"] for r in results if r["chars"]]
    return {
        "n": len(results),
        "recall": sum(any(n in r["gold"] for n in r["names"]) for r in need) / max(1, len(need)),
        "top3": sum(any(n in r["gold"] for n in r["ranked"]) for r in need) / max(1, len(need)),
        "wrong_body": sum(any(b not in r["gold"] for b in r["bodies"]) for r in results)
        / max(1, len(results)),
        "none_any": sum(bool(r["names"]) for r in none) / max(1, len(none)),
        "none_body": sum(bool(r["bodies"]) for r in none) / max(1, len(none)),
        "bodies": sum(bool(r["bodies"]) for r in results) / max(1, len(results)),
        "median_chars": statistics.median(r["chars"] for r in results),
        "median_given": statistics.median(given) if given else 0,
        "ms": 1000 * statistics.median(r["seconds"] for r in results),
    }


def report(label: str, results: list[dict]) -> None:
    print(f"{label}:")
    for split in ["all", *sorted({r["split"] for r in results})]:
        f = figures([r for r in results if split in {"all", r["split"]}])
        print(
            f"  {split:<9} n={f['n']:<4} recall@<=3 {f['recall']:.1%} (ranking's top 3: {f['top3']:.1%})  "
            f"wrong body {f['wrong_body']:.1%}  "
            f"no-skill: anything {f['none_any']:.1%}, a body {f['none_body']:.1%}  "
            f"bodies {f['bodies']:.1%}  median chars {f['median_chars']:.0f} "
            f"({f['median_given']:.0f} when handed something)  {f['ms']:.2f} ms/prompt"
        )


def project(tmp: str, skills: list[dict]):
    from edgar_min.layout import Layout

    root = Path(tmp)
    write_project(root, skills)
    # The skills where no agent lists them: edgar names each by its path, and may hand a body over.
    (root / ".edgar").mkdir(exist_ok=True)
    (root / ".claude" / "skills").rename(root / ".edgar" / "skills")
    return Layout(root, root / "home")


def settle(layout) -> None:
    """Files written an hour ago, as in a real project: the routing cache trusts them."""
    past = time.time() - 3600
    paths = [*Path(layout.root).rglob("SKILL.md")]
    if Path(layout.routing_examples).exists():
        paths.append(Path(layout.routing_examples))
    for path in paths:
        os.utime(path, (past, past))


def main() -> int:
    from edgar_min.config import load_config

    if {"-h", "--help"} & set(sys.argv[1:]):
        print(__doc__)
        return 0
    skills, rows = load_data()
    if "--split" in sys.argv:
        wanted = set(sys.argv[sys.argv.index("--split") + 1 :])
        rows = [r for r in rows if r["split"] in wanted]
    with tempfile.TemporaryDirectory() as tmp:
        layout = project(tmp, skills)
        settle(layout)
        report("new project (no routing examples)", handed(layout, load_config(layout, environ={}), rows))
    results = []
    for split in sorted({r["split"] for r in rows}):
        with tempfile.TemporaryDirectory() as tmp:
            layout = project(tmp, skills)
            history = [r for r in load_data()[1] if r["split"] != split]
            write_examples(layout.routing_examples, history, taught_none=True)
            settle(layout)
            config = load_config(layout, environ={})
            results += handed(layout, config, [r for r in rows if r["split"] == split])
    report("learned from use (every load and every none of the other splits as examples)", results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
