"""`skills examples --import`: routing examples from every turn of an agent's past sessions."""

from __future__ import annotations

import json
import os
import shutil
import tracemalloc
from pathlib import Path

import pytest
from conftest import state_of, tree_snapshot
from skillfiles import write_skill
from transcripts import Claude, Codex

from edgar_min.adapters.common import tool_table
from edgar_min.delivery.backfill import backfill
from edgar_min.layout import Layout, user_home
from edgar_min.skills.examples import read_examples

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "transcripts"
CLAUDE_PROJECT = FIXTURES / "claude-code-project"
CODEX_SESSIONS = FIXTURES / "codex-sessions"


def skills(root: Path, *names: str) -> None:
    for name in names:
        write_skill(root / ".claude" / "skills", name, f"The {name} skill.")


def examples_file(root: Path) -> Path:
    return state_of(root) / "routing-examples.jsonl"


def three_turns(t: Claude, first: str = "pdf", third: str = "xlsx") -> Claude:
    """Turn 1 loads `first`, turn 2 loads nothing, turn 3 loads `third`."""
    t.user("stitch these two scans into one file")
    t.skill("s1", first)
    t.tool("b1", "Bash", {"command": "qpdf --empty --pages a.pdf b.pdf -- out.pdf"})
    t.result("b1", "")
    t.user("thanks, looks good")
    t.user("now put the totals in a spreadsheet")
    t.skill("s3", third)
    return t


def imported(edgar, root: Path, agent: str, *paths: Path, dry_run: bool = False):
    args = ["--root", str(root), "--json", "skills", "examples", "--import", agent, *map(str, paths)]
    return edgar(*args, *(["--dry-run"] if dry_run else []))


def test_every_turn_counts_not_only_the_last(tmp_path, edgar):
    skills(tmp_path, "pdf", "xlsx")
    log = three_turns(Claude()).write(tmp_path / "s.jsonl")
    result = imported(edgar, tmp_path, "claude-code", log)
    assert result.code == 0, result
    doc = result.json()
    assert (doc["sessions"], doc["turns"], doc["new"], doc["written"]) == (1, 3, 2, 2)
    assert [(e["skill"], e["text"]) for e in doc["examples"]] == [
        ("pdf", "stitch these two scans into one file"),
        ("xlsx", "now put the totals in a spreadsheet"),
    ]
    held = read_examples(Layout(tmp_path, user_home()))
    assert held == {
        "pdf": ["stitch these two scans into one file"],
        "xlsx": ["now put the totals in a spreadsheet"],
    }
    listed = edgar("--root", str(tmp_path), "skills", "examples")
    assert "pdf: 1 example(s)" in listed.out
    assert "xlsx: 1 example(s)" in listed.out


def test_importing_twice_changes_nothing_and_says_none_were_new(tmp_path, edgar):
    skills(tmp_path, "pdf", "xlsx")
    log = three_turns(Claude()).write(tmp_path / "s.jsonl")
    assert imported(edgar, tmp_path, "claude-code", log).code == 0
    before = tree_snapshot(tmp_path / ".edgar")
    again = edgar("--root", str(tmp_path), "skills", "examples", "--import", "claude-code", str(log))
    assert again.code == 0, again
    assert "read 1 session(s), 3 turn(s); kept 2 example(s), 0 new" in again.out
    assert "(already kept)" in again.out
    assert tree_snapshot(tmp_path / ".edgar") == before


def test_a_dry_run_prints_what_would_be_kept_and_writes_nothing(tmp_path, edgar):
    skills(tmp_path, "pdf", "xlsx")
    log = three_turns(Claude()).write(tmp_path / "s.jsonl")
    before = tree_snapshot(tmp_path)
    result = edgar(
        "--root", str(tmp_path), "skills", "examples", "--import", "claude-code", str(log), "--dry-run"
    )
    assert result.code == 0, result
    assert "pdf: stitch these two scans into one file" in result.out
    assert "would keep 2 example(s), 2 would be new; nothing was written" in result.out
    assert tree_snapshot(tmp_path) == before
    assert imported(edgar, tmp_path, "claude-code", log, dry_run=True).json()["written"] == 0


def test_a_skill_edgar_suggested_in_that_session_is_kept_when_the_agent_loaded_it(tmp_path, edgar):
    skills(tmp_path, "pdf", "xlsx")
    log = three_turns(Claude()).write(tmp_path / "s.jsonl")
    # edgar handed over `xlsx` and named `pdf` at some prompt of this session: the agent still chose.
    suggestions = state_of(tmp_path) / "suggestions"
    suggestions.mkdir(parents=True)
    (suggestions / f"{Claude().session}.jsonl").write_text(
        '{"time": "t", "skills": ["xlsx"], "named": ["pdf"]}\n'
    )
    doc = imported(edgar, tmp_path, "claude-code", log).json()
    assert sorted(e["skill"] for e in doc["examples"]) == ["pdf", "xlsx"]


def test_a_skill_not_discovered_now_is_left_out(tmp_path, edgar):
    skills(tmp_path, "pdf")  # xlsx was loaded then, and is gone now
    log = three_turns(Claude()).write(tmp_path / "s.jsonl")
    doc = imported(edgar, tmp_path, "claude-code", log).json()
    assert [e["skill"] for e in doc["examples"]] == ["pdf"]


def test_a_subagents_transcript_is_left_out_and_said(tmp_path, edgar):
    skills(tmp_path, "pdf", "xlsx")
    side = Claude(sidechain=True)
    side.user("convert the attached scans")  # the main agent's words, not a person's
    side.skill("s1", "pdf")
    folder = tmp_path / "project"
    (folder / "sess" / "subagents").mkdir(parents=True)
    side.write(folder / "sess" / "subagents" / "agent-a1.jsonl")
    three_turns(Claude(), third="pdf").write(folder / "sess.jsonl")
    doc = imported(edgar, tmp_path, "claude-code", folder).json()
    assert doc["sessions"] == 1
    assert "convert the attached scans" not in json.dumps(doc["examples"])
    assert any("1 subagent log(s) were left out" in s for s in doc["skipped"])


def test_a_person_who_took_an_example_back_keeps_it_gone(tmp_path, edgar):
    skills(tmp_path, "pdf", "xlsx")
    log = three_turns(Claude()).write(tmp_path / "s.jsonl")
    imported(edgar, tmp_path, "claude-code", log)
    forgot = edgar(
        "--root", str(tmp_path), "skills", "teach", "xlsx", "now put the totals in a spreadsheet", "--forget"
    )
    assert forgot.code == 0, forgot
    doc = imported(edgar, tmp_path, "claude-code", log).json()
    assert [e["skill"] for e in doc["examples"]] == ["pdf"]
    assert "xlsx" not in read_examples(Layout(tmp_path, user_home()))


def test_the_real_claude_code_project_folder(tmp_path, edgar):
    """marot/spotter's sessions: the Skill tool's load in turn 1 counts, its failed call in turn 3
    does not, the subagent log and the empty log are left out with a sentence each."""
    skills(tmp_path, "hex-docs-search", "commit")
    result = imported(edgar, tmp_path, "claude-code", CLAUDE_PROJECT)
    assert result.code == 0, result
    doc = result.json()
    assert (doc["sessions"], doc["turns"]) == (1, 3)
    assert [e["skill"] for e in doc["examples"]] == ["hex-docs-search"]
    assert doc["examples"][0]["text"].startswith("Work on bead spotter-4te. Run bd show spotter-4te")
    assert doc["skipped"] == [
        "1 subagent log(s) were left out: a subagent's task is not a person's message",
        "1 empty log(s) held no turn",
    ]
    assert "warning: 1 subagent log(s)" in result.err


def test_the_codex_sessions_folder(tmp_path, edgar):
    skills(tmp_path, "conversation-export", "gh-address-comments")
    doc = imported(edgar, tmp_path, "codex", CODEX_SESSIONS).json()
    assert (doc["sessions"], doc["turns"], doc["new"]) == (1, 3, 2)
    assert [(e["skill"], e["text"]) for e in doc["examples"]] == [
        ("conversation-export", "save this conversation."),
        ("gh-address-comments", "address the review comments on my pr"),
    ]
    # The review subagent's rollout read the same skill for its own task: left out.
    assert "Review the current code changes" not in json.dumps(doc)
    assert any("1 subagent log(s) were left out" in s for s in doc["skipped"])


def test_codex_turns_one_and_three(tmp_path, edgar):
    skills(tmp_path, "pdf", "xlsx")
    log = Codex()
    log.typed("stitch these scans")
    log.call("c1", "shell_command", {"command": "cat ~/.codex/skills/pdf/SKILL.md"})
    log.output("c1", "Exit code: 0\nOutput:\n---")
    log.typed("thanks")
    log.typed("totals in a spreadsheet please")
    log.call("c3", "shell_command", {"command": "sed -n '1,200p' .claude/skills/xlsx/SKILL.md"})
    log.output("c3", "Exit code: 0\nOutput:\n---")
    doc = imported(edgar, tmp_path, "codex", log.write(tmp_path / "rollout-1.jsonl")).json()
    assert doc["turns"] == 3
    assert [(e["skill"], e["text"]) for e in doc["examples"]] == [
        ("pdf", "stitch these scans"),
        ("xlsx", "totals in a spreadsheet please"),
    ]


def test_the_oldest_session_is_read_first(tmp_path, edgar):
    skills(tmp_path, "pdf")
    new = Claude(session="11111111-1111-4111-8111-111111111111")
    new.user("merge the newest scans").skill("s1", "pdf")
    old = Claude(session="22222222-2222-4222-8222-222222222222")
    old.user("merge the oldest scans").skill("s1", "pdf")
    folder = tmp_path / "p"
    folder.mkdir()
    a, b = new.write(folder / "a.jsonl"), old.write(folder / "b.jsonl")
    os.utime(b, (1_000_000, 1_000_000))
    os.utime(a, (2_000_000, 2_000_000))
    imported(edgar, tmp_path, "claude-code", folder)
    assert read_examples(Layout(tmp_path, user_home()))["pdf"] == [
        "merge the oldest scans",
        "merge the newest scans",
    ]


def test_bad_files_are_sentences_and_the_good_ones_are_still_read(tmp_path, edgar):
    skills(tmp_path, "pdf", "xlsx")
    folder = tmp_path / "p"
    folder.mkdir()
    three_turns(Claude()).write(folder / "good.jsonl", tail='{"type": "user", "mess')
    (folder / "notes.jsonl").write_text('{"a": 1}\nnot json at all\n')
    (folder / "binary.jsonl").write_bytes(b"\x00\xff\xfe" * 100)
    result = imported(edgar, tmp_path, "claude-code", folder, tmp_path / "missing.jsonl")
    assert result.code == 0, result
    assert "Traceback" not in result.err
    doc = result.json()
    assert doc["sessions"] == 1
    assert doc["new"] == 2
    said = "\n".join(doc["skipped"])
    assert f"{tmp_path / 'missing.jsonl'}: no such file or folder" in said
    assert f"{folder / 'notes.jsonl'}: no message a person typed was found" in said
    assert f"{folder / 'binary.jsonl'}: no message a person typed was found" in said
    assert f"{folder / 'good.jsonl'}: a torn last line was skipped" in said
    assert said.count("; skipped") == 2
    assert result.err.count("edgar: warning:") == len(doc["skipped"])


@pytest.mark.parametrize("kind", ["empty folder", "no logs", "only bad", "missing"])
def test_nothing_readable_is_exit_2_and_writes_nothing(tmp_path, edgar, kind):
    skills(tmp_path, "pdf")
    target = tmp_path / "p"
    if kind != "missing":
        target.mkdir()
    if kind == "no logs":
        (target / "notes.txt").write_text("hello")
    if kind == "only bad":
        (target / "x.jsonl").write_text("garbage\n")
    before = tree_snapshot(tmp_path)
    result = edgar("--root", str(tmp_path), "skills", "examples", "--import", "claude-code", str(target))
    assert result.code == 2, result
    assert result.err.startswith("edgar: no session could be read, so nothing was imported: ")
    assert "Traceback" not in result.err
    assert tree_snapshot(tmp_path) == before


def test_usage_mistakes_are_sentences(tmp_path, edgar):
    no_path = edgar("--root", str(tmp_path), "skills", "examples", "--import", "codex")
    assert no_path.code == 2
    assert "--import codex needs a PATH" in no_path.err
    stray = edgar("--root", str(tmp_path), "skills", "examples", "--dry-run")
    assert stray.code == 2
    assert "--dry-run goes with --import" in stray.err
    two = edgar("--root", str(tmp_path), "skills", "examples", "pdf", "xlsx")
    assert two.code == 2
    assert "at most one NAME" in two.err
    wrong = edgar("--root", str(tmp_path), "skills", "examples", "--import", "cursor", "x")
    assert wrong.code == 2


def test_learn_from_use_off_refuses_the_import_but_not_the_dry_run(tmp_path, edgar):
    skills(tmp_path, "pdf", "xlsx")
    (tmp_path / ".edgar").mkdir()
    (tmp_path / ".edgar" / "config.toml").write_text("[suggest]\nlearn_from_use = false\n")
    log = three_turns(Claude()).write(tmp_path / "s.jsonl")
    before = tree_snapshot(tmp_path)
    refused = edgar("--root", str(tmp_path), "skills", "examples", "--import", "claude-code", str(log))
    assert refused.code == 1
    assert "suggest.learn_from_use is false" in refused.err
    assert tree_snapshot(tmp_path) == before
    assert imported(edgar, tmp_path, "claude-code", log, dry_run=True).json()["new"] == 2


def test_an_examples_file_that_is_a_folder_is_refused_before_reading(tmp_path, edgar):
    skills(tmp_path, "pdf", "xlsx")
    examples_file(tmp_path).mkdir(parents=True)
    log = three_turns(Claude()).write(tmp_path / "s.jsonl")
    result = imported(edgar, tmp_path, "claude-code", log)
    assert result.code == 2
    assert "not a file of examples" in result.err


def test_a_link_where_edgar_keeps_its_files_is_refused_and_said(tmp_path, edgar):
    skills(tmp_path, "pdf", "xlsx")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    outside = elsewhere / "bashrc"
    outside.write_text("mine\n")
    # A checkout's link at the old place in the tree is no place of edgar's any more.
    (tmp_path / ".edgar").symlink_to(elsewhere)
    examples_file(tmp_path).parent.mkdir(parents=True)
    examples_file(tmp_path).symlink_to(outside)
    log = three_turns(Claude()).write(tmp_path / "s.jsonl")
    result = edgar("--root", str(tmp_path), "skills", "examples", "--import", "claude-code", str(log))
    assert result.code == 1, result
    assert "0 of 2 new example(s) were written, then: " in result.err
    assert "routing-examples.jsonl is a symbolic link" in result.err
    assert sorted(p.name for p in elsewhere.iterdir()) == ["bashrc"]
    assert outside.read_text() == "mine\n"


def test_a_folder_of_many_sessions_is_read_one_at_a_time(tmp_path):
    """Memory stays flat in the number of sessions: only the examples found are held."""
    root = tmp_path / "root"
    skills(root, "pdf")
    folder = tmp_path / "p"
    folder.mkdir()
    template = three_turns(Claude(), third="pdf").write(tmp_path / "t.jsonl")
    for n in range(400):
        shutil.copy(template, folder / f"{n:04d}.jsonl")
    layout = Layout(root, tmp_path / "home")
    from edgar_min.skills.discovery import SkillNames

    tracemalloc.start()
    found = backfill(layout, "claude-code", [str(folder)], tool_table(()), SkillNames(layout), dry_run=True)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert (found.sessions, found.turns, len(found.examples)) == (400, 1200, 2)
    assert peak < 8_000_000


def test_a_secret_in_a_past_prompt_is_redacted_and_a_second_import_still_adds_nothing(tmp_path, edgar):
    skills(tmp_path, "pdf")
    token = "glpat-AbCdEfGhIjKlMnOpQrSt12"  # noqa: S105 - a made-up token in a real shape
    t = (
        Claude()
        .user(f"upload the merged scans with GITLAB_TOKEN={token}\n\n  and   tell me")
        .skill("s1", "pdf")
    )
    log = t.write(tmp_path / "s.jsonl")
    first = imported(edgar, tmp_path, "claude-code", log).json()
    (example,) = first["examples"]
    assert token not in examples_file(tmp_path).read_text()
    assert example["text"] == "upload the merged scans with GITLAB_TOKEN=[REDACTED] and tell me"
    assert imported(edgar, tmp_path, "claude-code", log).json()["new"] == 0


def test_a_session_with_no_typed_message_is_counted_not_warned_of(tmp_path, edgar):
    # A session opened and left: Claude Code writes only its summary and file snapshots.
    skills(tmp_path, "pdf", "xlsx")
    folder = tmp_path / "p"
    folder.mkdir()
    three_turns(Claude()).write(folder / "good.jsonl")
    quiet = Claude(session="33333333-3333-4333-8333-333333333333")
    quiet.raw({"type": "summary", "summary": "Setting up the project", "leafUuid": "u-1"})
    quiet.raw(
        {"type": "file-history-snapshot", "messageId": "m-1", "snapshot": {}, "isSnapshotUpdate": False}
    )
    quiet.write(folder / "quiet.jsonl")
    codex_quiet = Codex().write(folder / "rollout-quiet.jsonl")  # only its header
    doc = imported(edgar, tmp_path, "claude-code", folder).json()
    assert doc["sessions"] == 1
    assert "1 log(s) held no message a person typed (nothing to learn from)" in doc["skipped"]
    assert not any(f"{folder / 'quiet.jsonl'}:" in s for s in doc["skipped"])
    assert any(f"{codex_quiet}: no message a person typed" in s for s in doc["skipped"])  # not Claude's
    codex_doc = imported(
        edgar, tmp_path, "codex", codex_quiet, FIXTURES / "codex-0.100-skill-read.jsonl"
    ).json()
    assert codex_doc["skipped"][-1] == "1 log(s) held no message a person typed (nothing to learn from)"


def test_a_real_gemini_session_gives_an_example_of_each_skill_its_agent_loaded(tmp_path, edgar):
    skills(tmp_path, "release-notes", "deploy-check")
    log = FIXTURES / "gemini-0.61-two-turns.jsonl"
    doc = imported(edgar, tmp_path, "gemini", log).json()
    assert (doc["sessions"], doc["turns"], doc["new"]) == (1, 2, 2)
    assert [(e["skill"], e["text"]) for e in doc["examples"]] == [
        ("release-notes", "<b>fix</b> the failing test, then write the release notes"),
        ("deploy-check", "now check the deploy"),
    ]
