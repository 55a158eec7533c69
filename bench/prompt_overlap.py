#!/usr/bin/env python3
"""How much a split of the routing bench's prompts repeats the words of the others.

Usage: python3 bench/prompt_overlap.py SPLIT [--top N]

Prints the pairs of prompts (SPLIT's among themselves, and SPLIT's against every prompt of the
other splits) that share the largest part of their content words: Jaccard over the distinct
stemmed words that routing itself sees (`routing.split_words`, `routing.stem`, function words
`routing.words.is_stop` left out). A new split is written so that no pair goes over 45%. It reads the
prompts only; it ranks nothing and does not run the router.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from edgar_min.skills.routing.words import is_stop, split_words, stem  # noqa: E402

LIMIT = 0.45


def content_words(text: str) -> frozenset[str]:
    return frozenset(stem(w) for w in split_words(text) if not is_stop(w))


def shared(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 0.0


def main(argv: list[str]) -> int:
    if not argv or argv[0].startswith("-"):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    split = argv[0]
    top = int(argv[argv.index("--top") + 1]) if "--top" in argv else 10
    lines = (HERE / "data" / "suggest-prompts.jsonl").read_text().splitlines()
    rows = [json.loads(line) for line in lines if line]
    mine = [r for r in rows if r["split"] == split]
    others = [r for r in rows if r["split"] != split]
    if not mine:
        print(f"no prompts in split {split!r}", file=sys.stderr)
        return 2
    words = {r["id"]: content_words(r["prompt"]) for r in rows}
    pairs = [
        (shared(words[row["id"]], words[other["id"]]), row, other)
        for i, row in enumerate(mine)
        for other in mine[i + 1 :] + others
    ]
    pairs.sort(key=lambda p: p[0], reverse=True)
    empty = [r["prompt"] for r in mine if not words[r["id"]]]
    within = max((s for s, _, o in pairs if o["split"] == split), default=0.0)
    against = max((s for s, _, o in pairs if o["split"] != split), default=0.0)
    over = sum(s > LIMIT for s, _, _ in pairs)
    print(f"{split}: {len(mine)} prompts against {len(others)} others")
    print(f"  most shared within {split}: {within:.1%}; with another split: {against:.1%}")
    print(f"  pairs over {LIMIT:.0%}: {over}; prompts with no content word: {len(empty)}")
    for score, row, other in pairs[:top]:
        print(f"  {score:.0%}  {row['prompt']!r}  ~  {other['split']}: {other['prompt']!r}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
