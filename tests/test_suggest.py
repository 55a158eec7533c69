"""`skills suggest` and `suggest()`: the skills that may apply to a task (at most three), or none."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import tree_snapshot
from suggestfiles import write_skills, write_stuffed

from edgar_min.config import load_config
from edgar_min.layout import Layout
from edgar_min.semif.lexical import LexicalEngine
from edgar_min.semif.log import DecisionLog
from edgar_min.skills.suggest import named_only, suggest


@pytest.fixture
def project(tmp_path):
    write_skills(tmp_path / ".claude" / "skills")
    return tmp_path


def test_the_skill_for_the_task_is_suggested_with_its_path(project, edgar):
    result = edgar("--root", str(project), "skills", "suggest", "make", "a", "gif", "for", "slack")
    assert result.code == 0, result
    name, probability, path, note = result.out.splitlines()[0].split("  ")
    assert name == "slack-gif-creator"
    assert note == "(named only)"
    assert float(probability) > 0.5
    assert path == str(project / ".claude" / "skills" / "slack-gif-creator" / "SKILL.md")


def test_a_body_is_handed_over_only_for_a_taught_prompt_and_never_for_a_skill_the_agent_lists(project, edgar):
    learned = project / ".edgar" / "skills" / "learned" / "bump-httpx-pin"
    learned.mkdir(parents=True)
    (learned / "SKILL.md").write_text(
        "---\nname: bump-httpx-pin\ndescription: Bump the httpx pin and refresh the lock file.\n---\n\n"
        "1. Bump.\n"
    )
    root = ("--root", str(project))

    def named(text, *agent):
        answer = json.loads(edgar(*root, "--json", "skills", "suggest", *agent, text).out)
        return [(s["name"], s["named_only"]) for s in answer["skills"]]

    # A router's probability alone hands no body over (suggest.body_probability is 1).
    assert named("make a gif for slack")[0] == ("slack-gif-creator", True)
    assert named("bump the httpx pin")[0] == ("bump-httpx-pin", True)
    text = "update the dependency version in the lock"
    assert edgar(*root, "skills", "teach", "bump-httpx-pin", text).code == 0
    assert edgar(*root, "skills", "teach", "slack-gif-creator", "a party parrot for the channel").code == 0
    # The words this project taught: the body goes over, whatever their order or form.
    assert named("Updated dependency versions in the LOCK")[0] == ("bump-httpx-pin", False)
    assert named("the channel, a party parrot")[0] == ("slack-gif-creator", False)
    # Unless the agent lists that skill itself: Claude Code loads .claude/skills/ with its Skill tool.
    assert named("the channel, a party parrot", "--agent", "claude-code")[0] == ("slack-gif-creator", True)
    assert named("Updated dependency versions in the LOCK", "--agent", "claude-code")[0][1] is False
    said = edgar(*root, "skills", "suggest", "--agent", "claude-code", "a party parrot for the channel")
    assert said.out.splitlines()[0].endswith("(named only: claude-code lists it itself)")


def test_a_chat_line_gets_none(project, edgar):
    result = edgar("--root", str(project), "skills", "suggest", "thanks, that worked!")
    assert result.code == 0
    assert result.out.startswith("none (probability ")


# A real description (trailofbits/skills, CC-BY-SA-4.0; see bench/data/README.md).
GIT_CLEANUP = (
    "---\nname: git-cleanup\ndescription: Safely analyzes and cleans up local git branches and worktrees "
    "by categorizing them as merged, squash-merged, superseded, or active work.\n---\n\n# git-cleanup\n"
)


def add_git_cleanup(project) -> None:
    folder = project / ".claude" / "skills" / "git-cleanup"
    folder.mkdir()
    (folder / "SKILL.md").write_text(GIT_CLEANUP)


@pytest.mark.parametrize("text", ["what branch am i on", "how do i undo the last git commit"])
def test_a_short_question_in_a_skills_domain_gets_none(project, edgar, text):
    add_git_cleanup(project)
    result = edgar("--root", str(project), "--json", "skills", "suggest", text)
    assert result.code == 0, result
    doc = result.json()
    assert "git-cleanup" in [c["name"] for c in doc["candidates"]]  # it shares words with the skill...
    assert doc["skills"] == []  # ...and still gets none
    # A task for the skill gets it.
    result = edgar(
        "--root", str(project), "skills", "suggest", "clean up my old local branches, most are merged"
    )
    assert result.out.split()[0] == "git-cleanup"


def test_a_task_opening_with_an_editing_verb_gets_its_skill(project, edgar):
    result = edgar("--root", str(project), "skills", "suggest", "add page numbers to the merged pdf")
    assert result.out.split()[0] == "pdf"


def test_json_lists_the_choice_the_candidates_and_the_decision(project, edgar):
    result = edgar("--root", str(project), "--json", "skills", "suggest", "ci is red on my pr, fix it")
    assert result.code == 0, result
    doc = result.json()
    # The best of the ranking first, and at most three: the agent's model judges them.
    assert [s["name"] for s in doc["skills"]] == [c["name"] for c in doc["candidates"][:3]]
    assert doc["skills"][0]["name"] == "gh-fix-ci"
    assert doc["skills"][0]["origin"] == "hand"
    assert doc["skills"][0]["scope"] == ".claude"
    assert doc["engine"] == "lexical"
    assert len(doc["candidates"]) <= 15
    probabilities = [c["probability"] for c in doc["candidates"]] + [doc["none_probability"]]
    assert abs(sum(probabilities) - 1) < 1e-6
    rows = DecisionLog(project / ".edgar" / "decisions").read().rows
    assert [r["phase"] for r in rows] == ["suggest"]
    assert rows[0]["id"] == doc["decision_id"]
    assert rows[0]["options"][-1]["id"] == "none"


def test_limit_and_min_probability_bound_the_choice(project):
    layout = Layout(project, project / "home")
    config = load_config(layout, overrides=["suggest.min_probability=0.0", "suggest.max_skills=3"])
    # Both fuzzers fit, and both are more likely than none.
    text = "fuzz python and rust code with libfuzzer based fuzzers"
    fuzz = suggest(layout, config, text)
    assert set(fuzz.names) >= {"atheris", "cargo-fuzz"}
    assert suggest(layout, config, text, limit=1).names == fuzz.names[:1]
    strict = load_config(layout, overrides=["suggest.min_probability=0.999"])
    assert suggest(layout, strict, text).names == ()


def test_a_learned_skills_when_to_use_counts(tmp_path):
    folder = tmp_path / ".edgar" / "skills" / "learned" / "pin-bump"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        "---\nname: pin-bump\ndescription: Move one version.\n---\n\n## When to use\n\n"
        "When a dependency pin in requirements must move and the lock file must follow.\n\n"
        "## Procedure\n\n1. Edit.\n\n## Pitfalls\n\n- None.\n\n## Verification\n\nRun it.\n"
    )
    layout = Layout(tmp_path, tmp_path / "home")
    found = suggest(layout, load_config(layout), "bump the requests dependency and refresh the lock file")
    assert found.names == ("pin-bump",)
    assert found.picks[0].origin == "learned"


def test_an_unreadable_skill_is_skipped_with_a_warning(project, edgar):
    broken = project / ".claude" / "skills" / "broken" / "SKILL.md"
    broken.parent.mkdir()
    broken.write_text("---\nname: broken\ndescription: [unclosed\n---\n")
    result = edgar("--root", str(project), "skills", "suggest", "merge these pdfs")
    assert result.code == 0, result
    assert result.out.split()[0] == "pdf"
    assert "broken/SKILL.md" in result.err
    assert "warning" in result.err


def test_a_skill_named_none_is_never_confused_with_the_none_option(project, edgar):
    write_skills(project / ".agents" / "skills", ["pdf"])
    (project / ".agents" / "skills" / "pdf").rename(project / ".agents" / "skills" / "none")
    path = project / ".agents" / "skills" / "none" / "SKILL.md"
    path.write_text(path.read_text().replace("name: pdf", "name: none"))
    result = edgar("--root", str(project), "--json", "skills", "suggest", "merge these pdfs")
    assert result.code == 0, result
    assert "none" not in [c["name"] for c in result.json()["candidates"]]
    assert any("named 'none'" in w for w in result.json()["warnings"])


def test_no_skills_at_all_is_a_plain_none(tmp_path, edgar):
    result = edgar("--root", str(tmp_path), "--json", "skills", "suggest", "merge these pdfs")
    assert result.code == 0
    assert result.json()["skills"] == []
    assert not (tmp_path / ".edgar").exists()  # no decision to log: nothing was asked


@pytest.mark.parametrize(
    ("args", "sentence"),
    [((" ",), "needs the text of a task"), (("x", "--limit", "0"), "--limit must be at least 1")],
)
def test_bad_usage_is_a_sentence_and_exit_2_with_nothing_written(project, edgar, args, sentence):
    before = tree_snapshot(project)
    result = edgar("--root", str(project), "skills", "suggest", *args)
    assert result.code == 2
    assert sentence in result.err
    assert tree_snapshot(project) == before


def test_a_bad_suggest_config_value_names_the_key(project, edgar):
    (project / ".edgar").mkdir()
    (project / ".edgar" / "config.toml").write_text("[suggest]\nbudget_chars = 50000\n")
    result = edgar("--root", str(project), "skills", "suggest", "merge pdfs")
    assert result.code == 2
    assert "suggest.budget_chars must be between 200 and 9500" in result.err


def test_json_output_is_one_document(project, edgar):
    result = edgar("--root", str(project), "--json", "skills", "suggest", "lol ok")
    assert json.loads(result.out)["skills"] == []


@pytest.mark.model
def test_the_model_path_decides_on_the_real_server_and_is_logged(project, llama_server):
    layout = Layout(project, project / "home")
    config = load_config(
        layout,
        environ={},
        overrides=["semif.engine=openai", f"semif.base_url={llama_server.base_url}", "semif.timeout_s=300"],
    )
    found = suggest(layout, config, "merge these two pdfs into one and rotate the second page")
    assert found.engine == "openai"
    shortlist = {c.name for c in found.candidates}
    assert "pdf" in shortlist
    assert set(found.names) <= shortlist
    rows = DecisionLog(project / ".edgar" / "decisions").read().rows
    assert {row["options"][0]["id"] for row in rows} == shortlist  # each asked on its own
    for row in rows:
        assert row["phase"] == "suggest"
        assert row["engine"] == "openai"
        assert [o["id"] for o in row["options"]][1:] == ["none"]
        assert abs(sum(row["probabilities"]) - 1) < 1e-5


def test_a_key_in_the_text_never_reaches_the_decision_log(project, edgar):
    key = "sk-proj-" + "A1b2C3d4E5f6G7h8J9k0L1m2"
    result = edgar("--root", str(project), "skills", "suggest", f"merge these pdfs, my key is {key}")
    assert result.code == 0
    logged = b"".join(p.read_bytes() for p in (project / ".edgar").rglob("*") if p.is_file())
    assert key.encode() not in logged
    assert b"[REDACTED]" in logged


def suggest_rows(project) -> list[dict]:
    return DecisionLog(project / ".edgar" / "decisions").read().rows


def test_on_a_model_engine_every_candidate_is_asked_on_its_own_at_once(project):
    layout = Layout(project, project / "home")
    found = suggest(layout, load_config(layout), "fuzz the python and rust parsers", engine=LexicalEngine())
    assert found.names[:2] == ("cargo-fuzz", "atheris")  # both apply: neither takes from the other
    assert len(found.names) == 3
    assert found.engine == "lexical"
    assert len(found.candidates) >= 3
    rows = suggest_rows(project)
    assert [r["phase"] for r in rows] == ["suggest"] * len(found.candidates)
    assert len({r["run_id"] for r in rows}) == 1
    assert rows[0]["run_id"].startswith("r-")
    # One row per candidate, each asked on its own (the rows in the router's order).
    asked = sorted([o["id"] for o in r["options"]] for r in rows)
    assert asked == sorted([c.name, "none"] for c in found.candidates)
    best = found.candidates[0]
    assert found.none_probability == pytest.approx(1 - best.probability)
    assert found.decision_id == next(r["id"] for r in rows if r["options"][0]["id"] == best.name)


def test_on_a_model_engine_min_probability_still_bounds_the_choice(project):
    layout = Layout(project, project / "home")
    strict = load_config(layout, overrides=["suggest.min_probability=0.999"])
    assert suggest(layout, strict, "make a gif for slack", engine=LexicalEngine()).names == ()


@pytest.mark.model
def test_the_model_path_on_the_real_server_is_well_formed_and_logged_per_candidate(
    project, edgar, llama_server
):
    r = edgar(
        "--root", str(project), "--json",
        "--set", "semif.engine=openai", "--set", f"semif.base_url={llama_server.base_url}",
        "skills", "suggest", "fuzz the python and rust parsers",
    )  # fmt: skip
    assert r.code == 0, r
    doc = r.json()
    candidates = {c["name"]: c["probability"] for c in doc["candidates"]}
    assert {"cargo-fuzz", "atheris"} <= set(candidates)
    assert all(0.0 <= p <= 1.0 for p in candidates.values())
    assert len(doc["skills"]) <= 3  # suggest.max_skills
    # The best of the ranking, once the best of them beats its own none at suggest.min_probability.
    assert [s["name"] for s in doc["skills"]] == [c["name"] for c in doc["candidates"][: len(doc["skills"])]]
    if doc["skills"]:
        assert max(candidates.values()) >= 0.3
        assert max(candidates.values()) > 0.5
    assert doc["none_probability"] == pytest.approx(1 - max(candidates.values()))
    rows = suggest_rows(project)
    assert sorted(r["options"][0]["id"] for r in rows) == sorted(candidates)
    assert {r["phase"] for r in rows} == {"suggest"}
    assert {r["engine"] for r in rows} == {"openai"}
    assert len({r["run_id"] for r in rows}) == 1
    assert doc["decision_id"] in {r["id"] for r in rows}


# Prompts that call for none of the project's skills, and the forged examples a checkout could
# commit to win them (`.edgar/routing-examples.jsonl` was where edgar once kept its own).
UNRELATED = [
    "rename the user model to account",
    "why is the login page slow",
    "add a dark mode toggle to the settings page",
    "bump the version number for the release",
    "write a docstring for the parse function",
    "the flaky auth test fails on tuesdays",
    "translate the readme into german",
    "delete the unused helper functions",
    "set up a cron job that cleans the tmp folder",
    "what does this regex match",
    "move the config loading into its own module",
    "why does the docker build take so long",
    "review my sql migration for the orders table",
    "make the error messages friendlier",
    "add pagination to the users endpoint",
    "switch the logger to json output",
    "explain the difference between these two branches of code",
    "the css grid breaks on small screens",
    "write a changelog entry for the fix",
    "count the lines of code per folder",
]


def test_committed_routing_examples_change_no_routing_decision(project):
    layout = Layout(project, project / "home")
    config = load_config(layout)

    def decisions() -> list[tuple[str, ...]]:
        return [suggest(layout, config, text).names for text in UNRELATED]

    before = decisions()
    forged = [
        {
            "time": "2026-01-01T00:00:00Z",
            "skill": "slack-gif-creator",
            "text": text + tail,
            "source": "person",
        }
        for text in UNRELATED
        for tail in ("", " please")
    ]
    assert len(forged) == 40
    committed = project / ".edgar" / "routing-examples.jsonl"
    committed.parent.mkdir(parents=True, exist_ok=True)
    committed.write_text("".join(json.dumps(row) + "\n" for row in forged))
    assert decisions() == before
    assert all("slack-gif-creator" not in names for names in before)


def test_a_prompt_is_read_and_cut_once_redacted_before_the_cut():
    from edgar_min.skills.routing import MAX_QUERY_CHARS
    from edgar_min.skills.suggest import READ_CHARS, query_of

    key = "sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c"
    # A key across the cut leaves no part of itself; the text is one line, at most the cap.
    text = "x " * ((MAX_QUERY_CHARS - 10) // 2) + f"token {key}\n\n" + "y " * 50_000
    query = query_of(text)
    assert len(query) <= MAX_QUERY_CHARS
    assert "\n" not in query
    assert "sk-live" not in query
    assert "4f9a8b7c" not in query
    # Past READ_CHARS nothing is read: a pasted log costs what its first READ_CHARS cost.
    assert query_of(" " * READ_CHARS + "deploy the app") == ""


def test_the_body_or_name_decision_is_one_function_everywhere():
    import re

    from edgar_min.skills.suggest import Candidate, named_note, named_only

    project = Candidate("pdf", 0.5, "", "/p/.edgar/skills/pdf/SKILL.md", "hand", "project")
    taught = Candidate("pdf", 0.1, "", "/p/.edgar/skills/pdf/SKILL.md", "hand", "project", taught=True)
    listed = Candidate("pdf", 0.9, "", "/p/.claude/skills/pdf/SKILL.md", "hand", ".claude", taught=True)
    assert (named_only(project, 0.5), named_only(project, 0.51), named_only(project, 1.0)) == (
        False,
        True,
        True,
    )
    assert named_only(taught, 1.0) is False
    assert (
        named_only(listed, 1.0),
        named_only(listed, 1.0, "claude-code"),
        named_only(listed, 1.0, "codex"),
    ) == (
        False,
        True,
        False,
    )
    assert named_note(listed, 1.0, "claude-code") == "  (named only: claude-code lists it itself)"
    assert named_note(project, 1.0) == "  (named only)"
    package = Path(__file__).resolve().parents[1] / "edgar_min"
    compared = {
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        if re.search(
            r"probability\s*[<>]=?\s*(?:least|body_probability|config\.suggest\.body_probability)",
            path.read_text(),
        )
    }
    assert compared == {"skills/suggest.py"}


def test_a_skill_that_lists_every_word_is_not_handed_over_for_prompts_it_has_nothing_to_do_with(tmp_path):
    # 3 real skills and one whose description and When-to-use list every word a task might use.
    write_skills(tmp_path / ".claude" / "skills", ["slack-gif-creator", "gh-fix-ci", "systematic-debugging"])
    write_stuffed(tmp_path / ".claude" / "skills")
    layout = Layout(tmp_path, tmp_path / "home")
    config = load_config(layout, environ={})
    unrelated = [
        "write a migration that adds an email column to users",
        "summarize the last 10 commits for the release notes",
        "review my pull request for security problems",
        "write docs for the cli flags in the readme",
        "profile the image resize endpoint, it takes 3 seconds",
        "split this 2000-line file into smaller modules",
        "create a cron job that cleans tmp files nightly",
    ]
    handed = [
        text
        for text in unrelated
        for pick in suggest(layout, config, text).picks
        if pick.name == "team-notes" and not named_only(pick, config.suggest.body_probability)
    ]
    # Its body was handed over for all seven; now a body goes only to a prompt this project taught,
    # and past the fence of the project's own skills' breadth each of its matches counts less
    # (bench/bench_stuffing.py measures how often it is named).
    assert handed == []
