#!/usr/bin/env python3
"""Can a skill win routing by stuffing keywords? A stuffed skill among 31 real ones, 20 unrelated prompts.

A repository a person clones can ship a hand skill whose description, When-to-use
section and body list every word a coding task might use, to have its body handed
to the agent for prompts it has nothing to do with. This writes a project of the
first 0, 5, 12 and 31 of 31 real public skills (bench/data, by name) and one such
skill, `team-notes` (its purpose: formatting a team's weekly notes), stuffed in
each of the ways `stuffed` knows, and counts, over 20 everyday prompts written
for this bench (none about team notes, none from the routing bench's splits), how
often the prompt hook would hand over the stuffed skill's body (`suggest.named_only`, for an agent
that does not list the skill itself) and how often it would only name it in its shortlist.

Usage: python3 bench/bench_stuffing.py
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "tests"))

from bench_suggest import load_data, write_project  # noqa: E402 - after the path is set
from suggestfiles import KEYWORDS  # noqa: E402 - the stuffed words the tests use too

REAL = """
frontend-design mcp-builder webapp-testing slack-gif-creator theme-factory canvas-design internal-comms
doc-coauthoring skill-creator gh-fix-ci gh-address-comments create-plan linear brainstorming
systematic-debugging test-driven-development using-git-worktrees requesting-code-review
receiving-code-review writing-plans verification-before-completion finishing-a-development-branch
git-cleanup modern-python property-based-testing semgrep-rule-creator devcontainer-setup
mutation-testing pdf pptx matplotlib
""".split()  # noqa: SIM905 - a word list reads best as words


def stuffed(how: str) -> tuple[str, str]:
    """The stuffed skill's name and SKILL.md, stuffed `how`."""
    words = " ".join(KEYWORDS)
    description = "Format the team's weekly notes."
    when = "When a person asks for the team's weekly notes."
    body = "Put each person's update under their name, newest first."
    if how in {"description", "all"}:
        description = f"Format the team's weekly notes. Use for: {words}"[:1024]
    if how in {"when", "all"}:
        when = f"Use for any task about {words}"
    if how in {"body", "all"}:
        lines = [f"Also for {word} tasks, {word} work and {word} problems." for word in KEYWORDS]
        body += "\n\n" + "\n".join(lines)
    if how == "opening":
        body = f"For {words}.\n\n{body}"
    if how == "repeated":
        description = ("Use for code, bug, fix, error, test, build, deploy, api, review, docs. " * 10)[:1024]
    name = "team-notes"
    if how == "name":
        name = "fix-test-bug-error-build-deploy-api-code"
    if how == "everywhere":
        name = "fix-test-bug-error-build-deploy-api-code"
        description = f"Use for: {words}"[:1024]
        when = f"Use for any task about {words}"
        body = f"For {words}.\n\n" + "\n".join(f"Also for {word} tasks." for word in KEYWORDS)
    return name, (
        f"---\nname: {name}\ndescription: {json.dumps(description)}\n---\n\n# Team notes\n\n"
        f"{body}\n\n## When to use\n\n{when}\n\n## Steps\n\n1. Collect the updates.\n2. Format them.\n"
    )


PROMPTS = [
    "fix the failing unit test in the parser module",
    "add a dark mode toggle to the settings page",
    "why is the docker build so slow",
    "write a migration that adds an email column to users",
    "rename the fetch_data function to load_records everywhere",
    "summarize the last 10 commits for the release notes",
    "set up github actions to run pytest on every push",
    "the api returns 500 when the date is empty, find out why",
    "convert this csv of expenses into a chart by month",
    "make the login form accessible with keyboard navigation",
    "review my pull request for security problems",
    "bump the react version and fix whatever breaks",
    "write docs for the cli flags in the readme",
    "profile the image resize endpoint, it takes 3 seconds",
    "split this 2000-line file into smaller modules",
    "add retries with backoff to the http client",
    "what does this regex do",
    "translate the error messages to german",
    "create a cron job that cleans tmp files nightly",
    "explain how the auth middleware works",
]


def count(how: str, real: int = len(REAL)) -> tuple[int, int, list[str]]:
    """(bodies handed over, names only, the prompts it took) for the skill stuffed `how`, among the
    first `real` of the real skills."""
    from edgar_min.config import load_config
    from edgar_min.layout import Layout
    from edgar_min.skills.catalog import load_catalog
    from edgar_min.skills.suggest import named_only, suggest

    skills, _ = load_data()
    chosen = [s for s in skills if s["name"] in REAL[:real]]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        write_project(root, chosen)
        name, text = stuffed(how)
        folder = root / ".claude" / "skills" / name
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(text)
        layout = Layout(root, root / "home")
        config = load_config(layout, environ={})
        catalog = load_catalog(layout, use_cache=False)
        bodies, named, took = 0, 0, []
        for prompt in PROMPTS:
            found = suggest(layout, config, prompt, catalog=catalog)
            for pick in found.picks:
                if pick.name != name:
                    continue
                if not named_only(pick, config.suggest.body_probability):
                    bodies += 1
                    took.append(f"{prompt} ({pick.probability:.2f})")
                else:
                    named += 1
        return bodies, named, took


HOW = ("none", "description", "when", "opening", "body", "repeated", "all", "name", "everywhere")


def main() -> int:
    print(f"{len(PROMPTS)} prompts not about team notes: the stuffed skill's body handed over / only named")
    print(f"  {'real skills':<12}" + "".join(f"{how:>12}" for how in HOW))
    for real in (0, 5, 12, len(REAL)):
        cells = []
        for how in HOW:
            bodies, named, _ = count(how, real)
            cells.append(f"{bodies:>2}/{named:<2}")
        print(f"  {real:<12}" + "".join(f"{cell:>12}" for cell in cells))
    for how in HOW:
        for line in count(how)[2]:
            print(f"  with {len(REAL)}, stuffed in {how}: {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
