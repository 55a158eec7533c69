#!/usr/bin/env python3
"""Figures for handing the right skill to an agent: routing quality, its speed, and the prompt hook.

Prints:
- routing quality on the labelled set in bench/data (288 real skills, 2,419 prompts), per split
  (`dev`: what the routing was tuned on; `test`: what later rules were chosen on; `fresh`,
  `holdout` to `holdout11`: written later, each before the changes it is reported on; `hard`:
  everyday prompts of the kind `holdout8` holds, written to be read and tuned on; see
  bench/data/README.md): top-1 and top-3 accuracy over prompts that need a skill, precision and
  recall of `none`, end-to-end accuracy (the top answer right, or no answer when none was right),
  the share of prompts handed a skill they did not need (in brackets, those handed its body:
  the prompt hook only names a skill under `suggest.body_probability`), and the failures of `test` and `fresh`
  by kind (the holdouts' only with `--show-holdout`: they are kept unread while tuning);
  then the same once routing has learned from use (`skills/examples.py`): each split scored with
  the examples the other splits would have left in the routing examples file: every load
  (each prompt that needs a skill as the agent loading its first right skill; with and without
  each prompt that needs none taught as `none` by a person), with a tenth, a quarter and all of
  them, as importing past sessions and the live loop give (every load the agent makes is an
  example, of a skill edgar suggested too); and a history of misses alone, where only what the
  router in a new project missed becomes an example (the live loop before every load taught);
  `--quality-only` stops there;
- the same with the model path (`--model`, or `--model-only`: SemIf's letter slot on the real
  llama.cpp server with SmolLM2-135M, over the `fresh` prompts unless `--model-all`; slow);
- `suggest()` in process over 1,000 and 10,000 skills (index built once, as a long-lived caller
  holds it), and what building the index costs;
- the UserPromptSubmit hook end to end with every skill of the set (`python3 -I -S edgar.pyz hook
  user-prompt-submit`, routing cache warm) against `python3 -I -S -c pass`, interleaved run for
  run, medians, with `edgar.pyz --version` in the same run to show how loaded the machine was;
  `--hook-only` runs only this, in a new project and after learning.

`--blind` scores only the blind split (bench/data/blind-*, its own project), never listing its failures.

`--sweep` scores every split in a new project with `suggest.min_probability` from 0.3 to 0.8:
end to end, the share handed a wrong skill, and `none` precision at each.

Usage: python3 bench/bench_suggest.py [--quick] [--quality-only] [--show-holdout] [--model | --model-only]
       [--model-all] [--sweep] [--blind] [--hook-only]
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

DATA = HERE / "data"
# Splits kept unread while tuning: their failures are listed only with --show-holdout.
HOLDOUTS = (
    "holdout",
    "holdout2",
    "holdout3",
    "holdout4",
    "holdout5",
    "holdout6",
    "holdout7",
    "holdout8",
    "holdout9",
    "holdout10",
    "holdout11",
)
# Holdouts whose failures have been read and tuned on since: `--fit-none` may learn from them.
# `holdout7` to `holdout11` are not among them: the figures to trust.
TUNED = ("holdout", "holdout2", "holdout3", "holdout4", "holdout5", "holdout6")


def load_data(prefix: str = "suggest") -> tuple[list[dict], list[dict]]:
    skills = json.loads((DATA / f"{prefix}-skills.json").read_text())["skills"]
    rows = [json.loads(line) for line in (DATA / f"{prefix}-prompts.jsonl").read_text().splitlines() if line]
    return skills, rows


def blind_quality() -> None:
    """The blind split (bench/data/blind-*): its own project of skills from repositories the rest
    of the bench never drew from; figures only, its failures are never listed."""
    skills, rows = load_data("blind")
    from edgar_min.config import load_config
    from edgar_min.layout import Layout

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        write_project(root, skills)
        layout = Layout(root, root / "home")
        results = evaluate(layout, load_config(layout, environ={}), rows)
    report(
        f"blind split, a new project of its {len(skills)} skills (failures never listed)",
        results,
        show_failures=False,
    )


def write_project(root: Path, skills: list[dict], place: str = ".claude/skills") -> None:
    for skill in skills:
        folder = root / place / skill["name"]
        folder.mkdir(parents=True, exist_ok=True)
        when = f"\n## When to use\n\n{skill['when_to_use']}\n" if skill["when_to_use"] else ""
        opening = f"\n{skill['opening']}\n" if skill["opening"] else ""
        # The body's prose begins with its opening: the rest follows as a paragraph of its own.
        body = skill.get("body", "")
        rest = body[len(skill["opening"]) :].strip() if body.startswith(skill["opening"]) else body
        prose = f"\n{rest}\n" if rest else ""
        (folder / "SKILL.md").write_text(
            f"---\nname: {skill['name']}\ndescription: {json.dumps(skill['description'])}\n---\n"
            f"\n# {skill['name']}\n{opening}{prose}{when}\n## Steps\n\nFollow the project's way.\n"
        )


def evaluate(layout, config, rows: list[dict], engine=None) -> list[dict]:
    from edgar_min.skills.catalog import load_catalog
    from edgar_min.skills.suggest import named_only, suggest

    catalog = load_catalog(layout, use_cache=False)
    out = []
    from edgar_min.errors import ModelError

    for row in rows:
        start = time.perf_counter()
        try:
            found = suggest(layout, config, row["prompt"], catalog=catalog, engine=engine)
        except ModelError as exc:
            print(f"  model failure, counted as a wrong answer: {exc.message}")
            out.append(
                {**row, "ranked": [], "chosen": "(model failure)", "seconds": time.perf_counter() - start}
            )
            continue
        elapsed = time.perf_counter() - start
        out.append(
            {
                **row,
                "ranked": [c.name for c in found.candidates],
                "chosen": found.names[0] if found.names else None,
                # Handed over with its body (`suggest.named_only`, for an agent that does not list it), or
                # only named.
                "body": bool(found.picks) and not named_only(found.picks[0], config.suggest.body_probability),
                "seconds": elapsed,
            }
        )
    return out


def scores(results: list[dict]) -> dict[str, float]:
    need = [r for r in results if r["gold"]]
    said_none = [r for r in results if r["chosen"] is None]
    truly_none = [r for r in results if not r["gold"]]
    right = sum((r["chosen"] in r["gold"]) if r["gold"] else (r["chosen"] is None) for r in results)
    return {
        "prompts": len(results),
        "top1": sum(bool(r["ranked"]) and r["ranked"][0] in r["gold"] for r in need) / max(1, len(need)),
        "top3": sum(any(n in r["gold"] for n in r["ranked"][:3]) for r in need) / max(1, len(need)),
        "none_precision": sum(not r["gold"] for r in said_none) / len(said_none) if said_none else 1.0,
        "none_recall": sum(r["chosen"] is None for r in truly_none) / max(1, len(truly_none)),
        "end_to_end": right / max(1, len(results)),
        # What a wrong answer costs most: a skill handed to the agent that the prompt did not need.
        "wrong_skill": sum(r["chosen"] is not None and r["chosen"] not in r["gold"] for r in results)
        / max(1, len(results)),
        # Of those, the ones whose body the prompt hook hands over (the rest it only names).
        "wrong_body": sum(
            r["chosen"] is not None and r["chosen"] not in r["gold"] and r.get("body", True) for r in results
        )
        / max(1, len(results)),
        "ms_per_prompt": 1000 * statistics.median(r["seconds"] for r in results),
    }


def report(label: str, results: list[dict], *, show_failures: bool = True, timed: bool = True) -> None:
    splits = ["all", *sorted({r["split"] for r in results})]
    print(f"{label}:")
    for split in splits:
        part = [r for r in results if split in {"all", r["split"]}]
        s = scores(part)
        print(
            f"  {split:<9} n={s['prompts']:<4} top-1 {s['top1']:.1%}  top-3 {s['top3']:.1%}  "
            f"none P {s['none_precision']:.2f} R {s['none_recall']:.2f}  end-to-end {s['end_to_end']:.1%}  "
            f"wrong skill {s['wrong_skill']:.1%} (body {s['wrong_body']:.1%})"
            + (f"  {s['ms_per_prompt']:.2f} ms/prompt" if timed else "")
        )
    if not show_failures:
        return
    wrong = [
        r
        for r in results
        if r["split"] not in {"dev", *(() if "--show-holdout" in sys.argv else HOLDOUTS)}
        and ((r["chosen"] not in r["gold"]) if r["gold"] else (r["chosen"] is not None))
    ]
    kinds = Counter(r["kind"] for r in wrong)
    print(f"  held-out failures by kind: {dict(kinds)}")
    for r in wrong:
        wanted, got = r["gold"] or "none", r["chosen"] or "none"
        print(f"    [{r['kind']}] {r['prompt'][:70]!r}: wanted {wanted}, got {got}")


def lexical_quality(skills: list[dict], rows: list[dict]) -> list[dict]:
    from edgar_min.config import load_config
    from edgar_min.layout import Layout

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        write_project(root, skills)
        layout = Layout(root, root / "home")
        results = evaluate(layout, load_config(layout, environ={}), rows)
        report("lexical path (offline)", results)
    return results


def baseline_quality(skills: list[dict], rows: list[dict]) -> None:
    """Plain BM25 over each skill's name and description, the usual baseline, per split.

    Words are lower-cased runs of letters and digits, neither stemmed nor stopped; k1 1.2, b 0.75.
    A prompt gets `none` when its best score is under a threshold, fitted for end-to-end accuracy
    on the readable splits; beside it, the best threshold for each split itself (the baseline's
    ceiling). It tells how hard a split is: a split the baseline reads well shares words with the
    skills' descriptions.
    """
    import math
    import re

    def words(text: str) -> list[str]:
        return re.findall(r"[a-z0-9]+", text.lower())

    postings: dict[str, list[tuple[str, int]]] = {}
    lengths = {}
    for skill in skills:
        bag = Counter(words(skill["name"].replace("-", " ") + " " + skill["description"]))
        lengths[skill["name"]] = sum(bag.values())
        for word, tf in bag.items():
            postings.setdefault(word, []).append((skill["name"], tf))
    count, average = len(lengths), sum(lengths.values()) / len(lengths)

    def best(prompt: str) -> tuple[str | None, float]:
        found: Counter = Counter()
        for word in set(words(prompt)):
            have = postings.get(word, [])
            idf = math.log(1 + (count - len(have) + 0.5) / (len(have) + 0.5))
            for name, tf in have:
                found[name] += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * lengths[name] / average))
        return found.most_common(1)[0] if found else (None, 0.0)

    scored = [(r, *best(r["prompt"])) for r in rows]

    def end_to_end(part: list[tuple], threshold: float) -> float:
        right = 0
        for row, name, score in part:
            chosen = name if score >= threshold else None
            right += (chosen in row["gold"]) if row["gold"] else (chosen is None)
        return right / len(part)

    grid = [step / 4 for step in range(81)]
    readable = {"dev", "test", "fresh", "hard", *TUNED}
    fitted = max(grid, key=lambda t: end_to_end([x for x in scored if x[0]["split"] in readable], t))
    print(f"plain BM25 over name + description (the usual baseline; `none` under {fitted}, fitted):")
    for split in ["all", *sorted({r["split"] for r in rows})]:
        part = [x for x in scored if split in {"all", x[0]["split"]}]
        need = [x for x in part if x[0]["gold"]]
        top1 = sum(name in row["gold"] for row, name, _ in need) / len(need)
        ceiling = max(end_to_end(part, t) for t in grid)
        print(
            f"  {split:<9} n={len(part):<4} top-1 {top1:.1%}  end-to-end {end_to_end(part, fitted):.1%}  "
            f"(best threshold for this split: {ceiling:.1%})"
        )


def sweep(skills: list[dict], rows: list[dict]) -> None:
    """End to end, the share handed a wrong skill, and `none` precision, for `suggest.min_probability`
    from 0.3 (the default) to 0.8: what a project that would rather miss a skill than be handed a
    wrong one gives up by raising it."""
    from edgar_min.config import load_config
    from edgar_min.layout import Layout

    readable = {"dev", "test", "fresh", *TUNED}
    groups = {"readable splits": readable, "hard": {"hard"}}
    groups.update((split, {split}) for split in HOLDOUTS if split not in TUNED)
    print("suggest.min_probability: end to end / wrong skill / `none` precision, in a new project")
    for least in (0.3, 0.4, 0.5, 0.6, 0.7, 0.8):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            write_project(root, skills)
            (root / ".edgar").mkdir(exist_ok=True)
            (root / ".edgar" / "config.toml").write_text(f"[suggest]\nmin_probability = {least}\n")
            layout = Layout(root, root / "home")
            results = evaluate(layout, load_config(layout, environ={}), rows)
        cells = []
        for label, splits in groups.items():
            got = scores([r for r in results if r["split"] in splits])
            figures = f"{got['end_to_end']:.1%} / {got['wrong_skill']:.1%} / {got['none_precision']:.2f}"
            cells.append(f"{label} {figures}")
        print(f"  {least}: " + ";  ".join(cells))


def write_examples(path: str, history: list[dict], *, taught_none: bool) -> None:
    """The examples file a project would have after `history`: each prompt that needed a skill as the
    agent loading its first right skill, and (`taught_none`) each that needed none as a person's `none`."""
    lines = []
    for r in history:
        if r["gold"]:
            lines.append(
                {
                    "time": "2026-12-01T00:00:00Z",
                    "skill": r["gold"][0],
                    "text": r["prompt"],
                    "source": "agent",
                }
            )
        elif taught_none:
            lines.append(
                {"time": "2026-12-01T00:00:00Z", "skill": "none", "text": r["prompt"], "source": "person"}
            )
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text("".join(json.dumps(x) + "\n" for x in lines))


def share_of(prompt: str, share: float) -> bool:
    """Whether a prompt is in the first `share` of the history, by a hash of its text (the same every run)."""
    import hashlib

    return int(hashlib.sha256(prompt.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF < share


def learned_quality(skills: list[dict], rows: list[dict], cold: list[dict]) -> None:
    """Each split scored with the examples the other splits would have left (leave-one-split-out).

    Two histories. Every load: each prompt that needs a skill is an example of its first right
    skill (and, taught, each that needs none a person's `none`), as importing sessions and the live
    loop give when the agent loads the skill it needs. Misses alone: a prompt the router in a new
    project already got right is no example (as when a suggestion taught nothing); one it missed is
    an example of the skill the agent then loaded itself, and one that needs no skill but was
    handed one is a person's `none`.
    """
    from edgar_min.config import load_config
    from edgar_min.layout import Layout

    chosen = {r["prompt"]: r["chosen"] for r in cold}
    live = [
        r
        for r in rows
        if (r["gold"] and chosen[r["prompt"]] not in r["gold"]) or (not r["gold"] and chosen[r["prompt"]])
    ]
    runs = [(share, taught, rows) for share in (0.1, 0.25, 1.0) for taught in (False, True)]
    if "--quick" in sys.argv:
        runs = [(1.0, False, rows), (1.0, True, rows)]
    for share, taught_none, pool in [*runs, (1.0, True, live)]:
        results = []
        for split in sorted({r["split"] for r in rows}):
            with tempfile.TemporaryDirectory() as tmp:
                root = Path(tmp)
                write_project(root, skills)
                history = [r for r in pool if r["split"] != split and share_of(r["prompt"], share)]
                layout = Layout(root, root / "home")
                write_examples(layout.routing_examples, history, taught_none=taught_none)
                held = Counter(r["gold"][0] for r in history if r["gold"])
                for result in evaluate(
                    layout, load_config(layout, environ={}), [r for r in rows if r["split"] == split]
                ):
                    result["examples"] = max((held[g] for g in result["gold"]), default=None)
                    results.append(result)
        used = sum(1 for r in pool if share_of(r["prompt"], share))
        if pool is live:
            label = (
                f"learned from use, misses alone: only what a new project's router missed ({used:,} of "
                f"{len(rows):,} prompts, about {used * 11 // 12:,} a split)"
            )
        else:
            what = "the agent's loads" + (" and a person's `none`s" if taught_none else "")
            label = (
                f"learned from use, every load: examples from the other splits ({share:.0%} of them, "
                f"about {used * 11 // 12:,} a split; {what})"
            )
        report(label, results, show_failures=False, timed=False)
        if share == 1.0 and taught_none:
            by_examples(results)


def by_examples(results: list[dict]) -> None:
    """End to end on the splits not tuned on, by how many examples the right skill had."""
    bands = (("none", 0, 0), ("1-4", 1, 4), ("5-9", 5, 9), ("10 or more", 10, 10**9))
    for split in (h for h in HOLDOUTS if h not in TUNED):
        cells = []
        for label, low, high in bands:
            part = [r for r in results if r["split"] == split and r["gold"] and low <= r["examples"] <= high]
            if part:
                right = sum(r["chosen"] in r["gold"] for r in part)
                cells.append(f"{label}: {right}/{len(part)} ({right / len(part):.0%})")
        print(f"  {split}, prompts needing a skill, by the examples that skill had: " + ", ".join(cells))


def start_llama() -> tuple[subprocess.Popen, str]:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, str(REPO / "tests" / "llama_server.py"), str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
                if json.loads(r.read() or b"{}").get("status") == "ok":
                    return process, f"http://127.0.0.1:{port}/v1"
        except (OSError, ValueError):
            time.sleep(0.25)
    process.kill()
    msg = "the llama.cpp server did not start"
    raise SystemExit(msg)


def model_quality(skills: list[dict], rows: list[dict]) -> None:
    from edgar_min.config import load_config
    from edgar_min.layout import Layout

    process, base_url = start_llama()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            write_project(root, skills)
            layout = Layout(root, root / "home")
            config = load_config(
                layout,
                environ={},
                overrides=[
                    "semif.engine=openai",
                    f"semif.base_url={base_url}",
                    "semif.model=smollm2",
                    "semif.timeout_s=300",
                ],
            )
            # Slow on two shared cores: the `fresh` prompts only, unless --model-all.
            chosen = rows if "--model-all" in sys.argv else [r for r in rows if r["split"] == "fresh"]
            report("model path (letter slot, SmolLM2-135M on llama.cpp)", evaluate(layout, config, chosen))
    finally:
        process.kill()
        process.wait(timeout=30)


def synthetic(skills: list[dict], count: int) -> list[dict]:
    """`count` skills: the real ones, then variants of them under new names (words reordered)."""
    out = []
    i = 0
    while len(out) < count:
        base = skills[i % len(skills)]
        round_ = i // len(skills)
        if round_ == 0:
            out.append(base)
        else:
            words = base["description"].split()
            shift = round_ % max(1, len(words))
            out.append(
                {
                    **base,
                    "name": f"{base['name']}-v{round_}",
                    "description": " ".join(words[shift:] + words[:shift]),
                }
            )
        i += 1
    return out


def speed(skills: list[dict], rows: list[dict], quick: bool) -> None:
    from edgar_min.config import load_config
    from edgar_min.layout import Layout
    from edgar_min.skills.catalog import load_catalog
    from edgar_min.skills.suggest import suggest

    prompts = [r["prompt"] for r in rows][: 40 if quick else len(rows)]
    for count in (1_000, 10_000):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            write_project(root, synthetic(skills, count))
            past = time.time() - 3600  # settled files, as in a real project: the cache may trust them
            for path in root.rglob("SKILL.md"):
                os.utime(path, (past, past))
            layout = Layout(root, root / "home")
            config = load_config(layout, environ={})
            (root / ".edgar").mkdir()
            start = time.perf_counter()
            catalog = load_catalog(layout)
            built = time.perf_counter() - start
            start = time.perf_counter()
            load_catalog(layout)
            cached = time.perf_counter() - start
            times = []
            for prompt in prompts:
                start = time.perf_counter()
                suggest(layout, config, prompt, catalog=catalog)
                times.append(time.perf_counter() - start)
            times.sort()
            p95 = times[int(0.95 * (len(times) - 1))]
            print(
                f"suggest() over {count:,} skills, in process: "
                f"median {1000 * statistics.median(times):.2f} ms, "
                f"p95 {1000 * p95:.2f} ms (decision logged); discovering, reading and indexing them "
                f"{built:.3f} s, or {cached:.3f} s from the routing cache"
            )


def hook_end_to_end(skills: list[dict], quick: bool, history: list[dict] | None = None) -> None:
    """The prompt hook against the bare interpreter; with `history`, after learning from it."""
    runs = 11 if quick else 25
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        pyz = tmp_path / "edgar.pyz"
        subprocess.run(
            [sys.executable, str(REPO / "build_zipapp.py"), "-o", str(pyz)], check=True, capture_output=True
        )
        from edgar_min.layout import Layout

        root = tmp_path / "project"
        write_project(root, skills)
        # Where the hook's person (EDGAR_HOME below) keeps this project's examples.
        examples_file = Layout(root, tmp_path / "home").routing_examples
        if history is not None:
            names = {s["name"] for s in skills}
            kept = [r for r in history if not r["gold"] or r["gold"][0] in names]
            write_examples(examples_file, kept, taught_none=True)
        past = time.time() - 3600  # skills written an hour ago, as in a real project: the cache trusts them
        for path in [*root.rglob("SKILL.md"), *([examples_file] if history is not None else [])]:
            os.utime(path, (past, past))
        payload = json.dumps(
            {
                "session_id": "bench-1",
                "prompt": "the ci checks on my pr are failing, fix them",
                "cwd": str(root),
            }
        ).encode()
        hook = [sys.executable, "-I", "-S", str(pyz), "--root", str(root), "hook", "user-prompt-submit"]
        bare = [sys.executable, "-I", "-S", "-c", "pass"]
        env = {**os.environ, "EDGAR_HOME": str(tmp_path / "home")}
        examples = Path(examples_file).read_text().count("\n") if history else 0
        check = subprocess.run(hook, input=payload, capture_output=True, check=False, env=env)
        context = json.loads(check.stdout)["hookSpecificOutput"]["additionalContext"]
        chosen = sum(line.startswith("- ") for line in context.splitlines())
        version = [sys.executable, "-I", "-S", str(pyz), "--version"]
        hook_times, bare_times, version_times = [], [], []
        for _ in range(runs):
            for argv, times in ((bare, bare_times), (hook, hook_times), (version, version_times)):
                start = time.perf_counter()
                subprocess.run(argv, input=payload, capture_output=True, check=False, env=env)
                times.append(time.perf_counter() - start)
        h, b, v = (statistics.median(t) for t in (hook_times, bare_times, version_times))
        learned = "" if history is None else f", {examples} routing examples"
        print(
            f"UserPromptSubmit hook end to end, {len(skills)} skills{learned} "
            f"({chosen} skill(s) handed over): "
            f"{1000 * h:.1f} ms; bare `python3 -I -S -c pass`: {1000 * b:.1f} ms; ratio {h / b:.2f}x "
            f"({runs} runs each, interleaved; `edgar.pyz --version` in the same run: {v / b:.2f}x)"
        )


def main() -> int:
    quick = "--quick" in sys.argv
    if {"-h", "--help"} & set(sys.argv[1:]):
        print(__doc__)
        return 0
    skills, rows = load_data()
    if "--sweep" in sys.argv:
        sweep(skills, rows)
        return 0
    if "--model-only" in sys.argv:
        model_quality(skills, rows)
        return 0
    if "--blind" in sys.argv:
        blind_quality()
        return 0
    if "--hook-only" in sys.argv:
        hook_end_to_end(skills, quick)
        hook_end_to_end(skills, quick, rows)
        return 0
    cold = lexical_quality(skills, rows)
    baseline_quality(skills, rows)
    learned_quality(skills, rows, cold)
    if "--quality-only" in sys.argv:
        return 0
    if "--model" in sys.argv:
        model_quality(skills, rows)
    speed(skills, rows, quick)
    hook_end_to_end(skills, quick)
    hook_end_to_end(skills, quick, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
