"""The brief's content rules as walls: each refusal a sentence, and what stays allowed."""

from __future__ import annotations

from pathlib import Path

import pytest
from skillfiles import BODY, NESTED_FENCE_BODY

from edgar_min.learning.drafts import BRIEF, BRIEF_JSON, parse_reply
from edgar_min.learning.outline import Outline
from edgar_min.learning.turn import ErrorRecord, parse_turn
from edgar_min.learning.walls import RULES, Source, content_problems, generalize
from edgar_min.learning.writer import Draft
from edgar_min.models.offline import OfflineProvider

GOOD = "Bump a dependency pin and refresh the lock file."


def problems(body=BODY, name="pin-bump-with-lockfile", description=GOOD, **source):
    return content_problems(Draft(name, description, body), Source(**source))


def with_step(text: str) -> str:
    return BODY.replace("3. Run the tests.", f"3. Run the tests.\n4. {text}")


def test_a_plain_general_skill_passes():
    assert (
        problems(prompt="bump the httpx pin and refresh the lock", corrections=("use the lock tool",)) == []
    )


@pytest.mark.parametrize(
    ("step", "words"),
    [
        ("Read https://pypi.org/project/httpx first.", "names a URL ('https://pypi.org/...')"),
        ("See www.example.org for the changelog.", "names a URL"),
        ("Edit /home/alice/proj/setup.cfg by hand.", "absolute or home path ('/home/alice/proj/setup.cfg')"),
        ("Keep notes in ~/notes/pins.txt.", "absolute or home path ('~/notes/pins.txt')"),
        ("Look under /etc for the proxy settings.", "absolute or home path ('/etc')"),
        ("Copy it to C:\\Users\\bob\\proj.", "absolute or home path"),
        ("Check out 3f9a2c7d1e8b4a6f0c2d first.", "long hex or base64 id (20 characters)"),
        ("Use the id 123e4567-e89b-12d3-a456-426614174000.", "long hex or base64 id"),
        ("Send the token aGVsbG8gd29ybGQgaGVsbG8gV29ybGQ1.", "long hex or base64 id"),
    ],
)
def test_specifics_any_turn_would_carry_are_refused(step, words):
    found = problems(with_step(step))
    assert any(words in p for p in found), found


def test_files_and_values_the_turn_named_are_refused_and_others_are_not():
    source = {
        "prompt": "bump httpx to 0.27.2 in requirements/base.txt and fix app/core/retry.py, it waits 30 s",
        "corrections": ("no, port 8080 and keep pyproject.toml",),
    }
    found = problems(with_step("Edit requirements/base.txt and retry.py, then pin 0.27.2."), **source)
    assert any("('base.txt', 'requirements/base.txt', 'retry.py')" in p for p in found), found
    assert any("copies a value from the request ('0.27.2')" in p for p in found), found
    found = problems(with_step("Raise the wait above 30 s and use port 8080."), **source)
    assert any("('30 s', '8080')" in p for p in found), found
    # Conventions, other files and other numbers are a general procedure's words.
    allowed = with_step(
        "Edit pyproject.toml or a requirements file; wait 10 s; use Python 3.12 and package.json."
    )
    assert problems(allowed, **source) == []


def test_what_a_patchs_current_body_already_says_stays_allowed():
    kept = with_step("Read https://example.org/pinning-guide first.")
    assert problems(kept, kept=kept) == []
    assert problems(kept + "\nSee https://new.example.org too.\n", kept=kept) != []


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (with_step("Refresh the lock file now. " * 3), "repeats a line or sentence 3 or more times"),
        (
            BODY.replace(
                "Refresh the lock file.", "Refresh -12-12-12-12-12-12-12-12-12-12-12-12-12-12-12-12"
            ),
            "over and over",
        ),
        (
            BODY.replace("- The tests fail until the lock file is refreshed.", "None."),
            "almost no text: Pitfalls",
        ),
    ],
)
def test_degenerate_bodies_are_refused(body, words):
    found = problems(body)
    assert any(words in p for p in found), found


def test_lines_a_longer_fence_holds_are_code_not_repeated_prose():
    # The repeated line sits between shorter fences inside a four-backtick one: it is code.
    assert problems(NESTED_FENCE_BODY, name="readme-check-commands", prompt="document the checks") == []
    unfenced = NESTED_FENCE_BODY.replace("````markdown\n", "").replace("````\n", "")
    assert any("repeats a line or sentence" in p for p in problems(unfenced, name="readme-check-commands"))


def test_rules_and_tables_are_not_loops():
    table = "| step | tool |\n|------|------|\n| one | shell |\n\n" + "-" * 60 + "\n"
    assert problems(BODY.replace("## Pitfalls\n", f"## Pitfalls\n\n{table}")) == []


def test_a_section_that_only_restates_the_request_is_refused():
    body = BODY.replace(
        "When a dependency pin must move and the lock file must follow.", "Bump the httpx pin now."
    )
    found = problems(body, prompt="please bump the httpx pin")
    assert "section(s) that only restate the request: When to use" in found


def test_a_body_that_mostly_echoes_the_outline_is_refused():
    turn = parse_turn({"prompt": "bump the httpx pin", "tools": ["shell", "edit"], "verification": "passed"})
    outline = Outline.of(turn, ("long",))
    echo = (
        "## When to use\n\nbump the httpx pin\n\n## Procedure\n\nshell, edit\n\n"
        "## Pitfalls\n\n- declared check: passed\n\n## Verification\n\ntask shape: main:shell>edit\n"
    )
    found = content_problems(Draft("pin-bump", GOOD, echo), Source.of(outline))
    assert any("mostly echoes the outline's own lines" in p for p in found), found


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("please-bump-the-pin", "starts with 'please'"),
        ("can-you-bump-it", "starts with 'can'"),
        ("yes", "starts with 'yes'"),
        ("task-1", "does not say the job"),
        ("new-skill", "does not say the job"),
        ("tutorial-1", "holds a value ('1')"),
        ("release-20261201", "holds a value ('20261201')"),
    ],
)
def test_a_name_that_does_not_say_the_job_is_refused(name, words):
    found = problems(name=name)
    assert any(words in p for p in found), found


@pytest.mark.parametrize(
    "name", ["pin-bump-with-lockfile", "oauth2-refresh", "python3-upgrade", "no-network-tests"]
)
def test_names_that_say_the_job_pass(name):
    assert problems(name=name) == []


PROMPTS = [
    "bump the httpx pin",
    "bump httpx to 0.27.2 in requirements/base.txt and src/app/settings.py",
    "please fix the flaky test in tests/test_api.py, the timeout is 30s",
    "yes",
    "can you deploy to https://example.com/app",
    "rename /home/bob/proj/foo.py to bar.py",
    "ok go ahead",
    "commit 3f9a2c7d1e8b4a6f0c2d9e7b1a3c5d8e broke the build, revert it",
    "set the cache to 512 MB and the port to 8080",
    "deploy",
    "bump the httpx pin and refresh the lock file then run the whole test suite again",
]


@pytest.mark.parametrize("prompt", PROMPTS)
@pytest.mark.parametrize("check", ["", "tox"])
@pytest.mark.parametrize("program", ["pytest", ""])
def test_the_offline_writer_passes_every_wall(prompt, check, program):
    turn = parse_turn(
        {
            "prompt": prompt,
            "corrections": ["no, keep uv.lock and use 5 ms"],
            "tools": ["shell", "edit", "shell"],
            "errors": [{"tool": "shell", "kind": "nonzero_exit", "exit_code": 1, "program": program}],
            "verification": "passed",
        }
    )
    outline = Outline.of(turn, ("recovered", "correction"), check)
    draft = parse_reply(OfflineProvider().complete("", outline.render()))
    assert content_problems(draft, Source.of(outline)) == []
    assert 2 <= len(draft.name.split("-")) <= 4


def test_generalize_says_the_specifics_in_words():
    text = generalize(
        "bump httpx to 0.27.2 in src/app/deps.py, see https://x.org/a, wait 30 s; keep package.json"
    )
    assert text == "bump httpx to a version in a file, see a URL, wait a value; keep package.json"


def test_real_skills_from_public_repositories_are_not_degenerate():
    # Hand-written skills (tests/fixtures/skills, sources in their README) repeat code, headings and
    # table rows, and link to docs; none of that is a loop, a repeated line or an echo.
    from pathlib import Path

    from edgar_min.skills.frontmatter import parse_skill

    found = {}
    for path in sorted((Path(__file__).parent / "fixtures" / "skills").glob("*/SKILL.md")):
        skill = parse_skill(path.read_text(encoding="utf-8"), str(path))
        found[path.parent.name] = [
            p
            for p in content_problems(
                Draft(skill.data["name"], skill.data["description"], skill.body), Source()
            )
            # What a person named their skill is theirs: the name rules are for a model's names.
            if "URL" not in p and not p.startswith("the name ")
        ]
    assert len(found) >= 6
    assert {name: p for name, p in found.items() if p} == {}


def test_a_url_with_a_password_is_refused_without_quoting_the_password():
    found = problems(with_step("Clone https://deploy:Hunter2Horse@git.example.com/org/repo first."))
    assert "it names a URL ('https://git.example.com/...'); a skill gives the general procedure" in found
    found = problems(with_step("Then open redis://:Hunter2Horse@cache.internal for the keys."))
    assert not [p for p in found if "Hunter2Horse" in p], found


def test_what_a_refusal_quotes_is_redacted():
    line = "Export DB_PASSWORD=Hunter2Horse in the shell before the tests."
    found = problems(with_step(f"{line} {line} {line}"))
    assert any(
        "it repeats a line or sentence 3 or more times ('export db_password=[REDACTED]" in p for p in found
    )
    assert not [p for p in found if "hunter2horse" in p.lower()], found


INVENTING_MODEL = """
import sys
sys.stdin.read()
print("name: repo-clone-deploy")
print("description: Clone the repository and deploy it.")
print("## When to use")
print("When the repository must be cloned before a deploy.")
print("## Procedure")
print("1. Clone https://deploy:Hunter2Horse@git.example.com/org/repo with git.")
print("2. Run the deploy script from the clone.")
print("## Pitfalls")
print("- A shallow clone misses the tags the deploy reads.")
print("## Verification")
print("The deploy script exits with status zero.")
"""


def test_a_refusal_of_a_url_password_never_carries_it_to_output_or_logs(edgar, tmp_path, monkeypatch):
    import json
    import sys

    from transcripts import SESSION, Claude, stdin_bytes

    root = tmp_path / "proj"
    root.mkdir()
    (tmp_path / "model.py").write_text(INVENTING_MODEL)
    model = [
        "--set",
        "model.provider=command",
        "--set",
        f"model.command={json.dumps([sys.executable, str(tmp_path / 'model.py')])}",
    ]
    turn = {
        "prompt": "clone the repo and deploy it",
        "corrections": ["no, clone it first"],
        "tools": ["shell", "shell"],
        "verification": "passed",
    }
    (tmp_path / "turn.json").write_text(json.dumps(turn))
    learned = edgar("--root", str(root), *model, "learn", str(tmp_path / "turn.json"))
    assert "names a URL ('https://git.example.com/...')" in learned.out
    t = Claude().user("clone the repo and deploy it")
    t.tool("t1", "Bash", {"command": "git clone"}).reject("t1", "no, clone it first")
    stdin_bytes(
        monkeypatch,
        json.dumps({"session_id": SESSION, "transcript_path": str(t.write(tmp_path / "t.jsonl"))}).encode(),
    )
    stopped = edgar("--root", str(root), *model, "hook", "stop")
    assert "names a URL ('https://git.example.com/...')" in stopped.out
    logs = [root / ".edgar" / "rejections.jsonl", root / ".edgar" / "hook-problems.jsonl"]
    assert all(log.is_file() for log in logs)
    for text in (learned.out, learned.err, stopped.out, *(log.read_text() for log in logs)):
        assert "Hunter2Horse" not in text


# --- every rule of the brief has a wall, and every wall is a rule of the brief ----------------

PYTEST_FAILED = ErrorRecord("shell", "nonzero_exit", 1, "pytest")
PITFALLS = "- The tests fail until the lock file is refreshed."
# For each fragment of `RULES`, a draft that breaks only that rule: (name, body, source).
BREAKS = {
    "names a file or path the turn named": (
        "pin-bump", with_step("Edit retry.py by hand."), {"prompt": "fix src/app/retry.py"}
    ),
    "names an absolute or home path": ("pin-bump", with_step("Edit /home/alice/pins.cfg by hand."), {}),
    "names a URL": ("pin-bump", with_step("Read https://pypi.org/project/httpx first."), {}),
    "holds a long hex or base64 id": ("pin-bump", with_step("Check out 3f9a2c7d1e8b4a6f0c2d first."), {}),
    "copies a value from the request": (
        "pin-bump", with_step("Pin it to 0.27.2 exactly."), {"prompt": "bump httpx to 0.27.2"}
    ),
    "a name says the job": ("please-bump-pin", BODY, {}),
    "does not say the job": ("task-1", BODY, {}),
    "holds a value": ("release-20261201", BODY, {}),
    "words joined by hyphens": ("bump", BODY, {}),
    "with almost no text": ("pin-bump", BODY.replace(PITFALLS, "None."), {}),
    "only restate the request": (
        "pin-bump",
        BODY.replace("When a dependency pin must move and the lock file must follow.", "Bump the httpx pin."),
        {"prompt": "please bump the httpx pin"},
    ),
    "Pitfalls does not name the failure the outline records": (
        "pin-bump", BODY, {"failures": (PYTEST_FAILED,)}
    ),
    "Verification does not name the project's declared check": ("pin-bump", BODY, {"check": "tox"}),
    "over and over": (
        "pin-bump", BODY.replace("Refresh the lock file.", "Refresh " + "-12" * 20), {}
    ),
    "repeats a line or sentence": ("pin-bump", with_step("Refresh the lock file now. " * 3), {}),
    "mostly echoes the outline": (
        "pin-bump",
        (
            "## When to use\n\nbump the httpx pin\n\n## Procedure\n\nshell, edit\n\n"
            "## Pitfalls\n\n- declared check: passed\n\n## Verification\n\ntask shape: main:shell>edit\n"
        ),
        {"outline": ("what was asked: bump the httpx pin", "tools called, in order: shell, edit",
                     "declared check: passed", "task shape: main:shell>edit")},
    ),
}  # fmt: skip


def test_the_briefs_say_every_rule_and_nothing_else_as_a_rule():
    sentences = [rule.sentence for rule in RULES]
    for brief in (BRIEF, BRIEF_JSON):
        # What follows the reply's shape is the rules, then the one allowance.
        assert brief[brief.index(sentences[0]) :].splitlines() == [
            *sentences,
            "Conventional file names that belong to no one project (pyproject.toml, package.json) are fine.",
        ]


@pytest.mark.parametrize("fragment", [f for rule in RULES for f in rule.walls])
def test_every_rule_of_the_brief_has_a_wall_that_refuses_its_breach(fragment):
    name, body, source = BREAKS[fragment]
    found = problems(body, name=name, **source)
    assert any(fragment in p for p in found), found


def test_every_wall_is_a_rule_of_the_brief():
    fragments = [f for rule in RULES for f in rule.walls]
    assert sorted(BREAKS) == sorted(fragments)
    refused = [p for name, body, source in BREAKS.values() for p in problems(body, name=name, **source)]
    refused += [p for path in (REPLIES / "refused").glob("*.txt") for p in refusals_of(path)]
    assert len(refused) >= len(fragments)
    assert [p for p in refused if not any(f in p for f in fragments)] == []


REPLIES = Path(__file__).parent / "fixtures" / "replies"


def refusals_of(path: Path) -> list[str]:
    import json

    draft = parse_reply(path.read_text())
    prompt = json.loads((REPLIES / "prompts.json").read_text())["default"]
    return content_problems(draft, Source(prompt=prompt))


# --- Pitfalls and Verification say what the outline recorded ---------------------------------


def test_pitfalls_must_name_a_failure_the_outline_records():
    named = BODY.replace(PITFALLS, "- pytest fails until the lock file is refreshed.")
    assert problems(named, failures=(PYTEST_FAILED,)) == []
    found = problems(BODY, failures=(PYTEST_FAILED, ErrorRecord("shell", "timeout", None, "docker")))
    assert found == [
        (
            "Pitfalls does not name the failure the outline records ('pytest, docker'); "
            "say what failed and how to get past it"
        )
    ]
    # Named in another section only does not count: Pitfalls is where a reader looks.
    assert problems(with_step("Run pytest again."), failures=(PYTEST_FAILED,)) != []
    assert problems(BODY) == []  # no failure recorded, nothing to name


def test_a_failure_without_a_program_is_named_by_its_tool_or_its_kind():
    timeout = ErrorRecord("web_fetch", "timeout", None, "")
    for line in (
        "- The fetch timed out; retry it once.",
        "- web_fetch can hang; bound it.",
        "- A timeout here.",
    ):
        assert problems(BODY.replace(PITFALLS, line), failures=(timeout,)) == [], line
    assert problems(BODY, failures=(timeout,)) != []
    exit_ = ErrorRecord("shell", "nonzero_exit", 2, "")
    assert (
        problems(BODY.replace(PITFALLS, "- A non-zero exit means the lock is stale."), failures=(exit_,))
        == []
    )


def test_verification_must_name_the_declared_check_when_one_is_configured():
    named = BODY.replace("Run the project's declared check", "Run the declared check (tox)")
    assert problems(named, check="tox") == []
    assert problems(BODY, check="tox") == [
        "Verification does not name the project's declared check ('tox'); say to run it"
    ]
    assert problems(BODY) == []  # no check configured, nothing to name
    # A word that only contains it is not it.
    assert problems(BODY.replace("declared check", "toxic check"), check="tox") != []


def test_a_patch_keeps_its_name_so_the_name_rules_are_not_its_to_answer():
    draft = Draft("deploy", GOOD, BODY)
    assert content_problems(draft, Source(), patch=True) == []
    assert content_problems(draft, Source()) != []
