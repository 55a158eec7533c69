"""What the hooks hand each agent of the skills it lists itself: named with its own tool, never pasted,
never listed twice; and a skill only edgar knows, named by its file."""

from __future__ import annotations

import json

import pytest
from fences import read_delivery
from suggestfiles import write_skills
from transcripts import SESSION, stdin_bytes

from edgar_min.delivery.hooks import payload_agent

PROMPT = "the ci checks on my pull request are failing, figure out why and fix it"
CODEX_ROLLOUT = "/h/.codex/sessions/2026/12/02/rollout-2026-12-02T05-32-13-01a2353d.jsonl"


@pytest.fixture
def project(tmp_path):
    """Claude Code's own skills folder, and one skill only edgar knows (it learned it here)."""
    write_skills(tmp_path / ".claude" / "skills")
    learned = tmp_path / ".edgar" / "skills" / "learned" / "ci-log-triage"
    learned.mkdir(parents=True)
    (learned / "SKILL.md").write_text(
        "---\nname: ci-log-triage\ndescription: Read a failing CI job's log and name the first error."
        "\n---\n\n## Steps\n\n1. Open the failing job's log.\n"
    )
    # Bodies handed over from 0.5 on: never for a skill the agent lists itself.
    (tmp_path / ".edgar" / "config.toml").write_text("[suggest]\nbody_probability = 0.5\n")
    return tmp_path


def hook(edgar, monkeypatch, root, event, **payload):
    stdin_bytes(monkeypatch, json.dumps({"session_id": SESSION, "cwd": str(root), **payload}).encode())
    result = edgar("--root", str(root), "hook", event)
    assert result.code == 0, result
    return json.loads(result.out)["hookSpecificOutput"]["additionalContext"] if result.out else ""


def test_claude_code_gets_its_own_skills_named_for_the_skill_tool_and_edgars_by_their_file(
    project, edgar, monkeypatch
):
    context = hook(
        edgar, monkeypatch, project, "user-prompt-submit", hook_event_name="UserPromptSubmit", prompt=PROMPT
    )
    edgars, fenced = read_delivery(context)
    lines = [line for line in edgars.splitlines() if line.startswith("- ")]
    assert "- `gh-fix-ci` (project): one of your own skills: load it with the Skill tool" in lines
    assert '- `ci-log-triage` (learned): read ".edgar/skills/learned/ci-log-triage/SKILL.md"' in "\n".join(
        lines
    )
    assert len(lines) <= 3
    # No body of a skill Claude Code lists itself, however sure edgar is: its Skill tool loads it.
    assert "Do the work for gh-fix-ci." not in context
    assert "## Skill `gh-fix-ci`" not in context
    assert [f.labels["name"] for f in fenced if f.labels["name"] == "gh-fix-ci"] == []


def test_codex_reads_every_skill_from_its_file(project, edgar, monkeypatch):
    context = hook(
        edgar, monkeypatch, project, "user-prompt-submit",
        hook_event_name="UserPromptSubmit", turn_id="t1", transcript_path=CODEX_ROLLOUT, prompt=PROMPT,
    )  # fmt: skip
    assert '- `gh-fix-ci` (project): read ".claude/skills/gh-fix-ci/SKILL.md"' in context
    assert "Skill tool" not in context


def test_session_start_lists_only_what_the_agent_cannot_see_and_nothing_again_on_resume(
    project, edgar, monkeypatch
):
    claude = hook(
        edgar, monkeypatch, project, "session-start", hook_event_name="SessionStart", source="startup"
    )
    _, (listing,) = read_delivery(claude)
    assert listing.text.splitlines()[0].startswith("- ci-log-triage: Read a failing CI job's log")
    assert "gh-fix-ci" not in claude  # Claude Code lists .claude/skills itself
    # Codex does not list .claude/skills: edgar does.
    codex = hook(
        edgar, monkeypatch, project, "session-start",
        hook_event_name="SessionStart", source="startup", transcript_path=CODEX_ROLLOUT,
    )  # fmt: skip
    assert "- gh-fix-ci: " in codex
    assert "- ci-log-triage: " in codex
    # A resumed session's log holds the listing of its start: no second copy.
    assert (
        hook(edgar, monkeypatch, project, "session-start", hook_event_name="SessionStart", source="resume")
        == ""
    )


def test_session_start_says_nothing_when_the_agent_lists_every_skill(tmp_path, edgar, monkeypatch):
    write_skills(tmp_path / ".claude" / "skills")
    assert (
        hook(edgar, monkeypatch, tmp_path, "session-start", hook_event_name="SessionStart", source="startup")
        == ""
    )


@pytest.mark.parametrize(
    ("payload", "agent"),
    [
        (
            {"hook_event_name": "UserPromptSubmit", "transcript_path": "/h/.claude/projects/-p/s.jsonl"},
            "claude-code",
        ),
        ({"hook_event_name": "UserPromptSubmit", "turn_id": "t"}, "codex"),
        ({"hook_event_name": "SessionStart", "transcript_path": CODEX_ROLLOUT}, "codex"),
        ({"hook_event_name": "BeforeAgent"}, "gemini"),
        (
            {"hook_event_name": "SessionStart", "transcript_path": "/h/.gemini/tmp/p/chats/session-1.json"},
            "gemini",
        ),
        ({}, "claude-code"),
    ],
)
def test_the_agent_is_told_by_its_payload(payload, agent):
    assert payload_agent(payload) == agent
