"""The real Claude Code CLI, offline against a scripted model server (the model is the only stand-in):
what edgar's hooks put in the model's request beside Claude Code's own listing of its skills."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from messages_server import MessagesServer, claude_binary, run_claude
from suggestfiles import SKILLS, write_skills

REPO = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(
    claude_binary() is None,
    reason="needs the Claude Code CLI on PATH: npm install @anthropic-ai/claude-code (.ci/run does)",
)

LEARNED = (
    "---\nname: pdf-invoice-totals\ndescription: Add up the totals of the invoice PDFs in a folder and "
    "write them to a CSV.\n---\n\n## Steps\n\n1. Read each invoice's total line.\n"
)


def test_claude_code_lists_its_own_skill_once_gets_no_body_and_edgars_skill_by_its_path(tmp_path, pyz):
    root, home = tmp_path / "project", tmp_path / "home"
    write_skills(root / ".claude" / "skills", ["pdf"])
    learned = root / ".edgar" / "skills" / "learned" / "pdf-invoice-totals"
    learned.mkdir(parents=True)
    (learned / "SKILL.md").write_text(LEARNED)
    home.mkdir()
    installed = subprocess.run(
        [sys.executable, str(pyz), "--root", str(root), "install", "claude-code"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stderr
    prompt = "merge the invoice pdfs into one file and add up their totals"
    with MessagesServer() as server:
        ran = run_claude(prompt, cwd=root, home=home, server=server, debug_file=tmp_path / "debug.log")
        assert ran.returncode == 0, ran.stderr
        before = len(server.requests)
        session = json.loads(ran.stdout)["session_id"]
        again = run_claude(
            "thanks",
            cwd=root,
            home=home,
            server=server,
            debug_file=tmp_path / "again.log",
            args=("--resume", session),
        )
    assert again.returncode == 0, again.stderr
    resumed = [json.dumps(r) for r in server.requests[before:] if '"thanks"' in json.dumps(r)]
    assert resumed, "the resumed prompt never reached the model"
    # The resumed session carries its start's listing of edgar's skill: the resume adds no second copy.
    assert resumed[0].count("- pdf-invoice-totals: Add up the totals") == 1
    asked = [json.dumps(r) for r in server.requests if prompt in json.dumps(r)]
    assert asked, "the prompt never reached the model"
    request = json.loads(asked[0])
    said = json.dumps(request)
    # Claude Code's own listing names `pdf` with its description: edgar's listing does not repeat it.
    described = json.dumps(" ".join(SKILLS["pdf"][0].split()[:12]))[1:-1]
    assert said.count(described) == 1, said
    # The prompt hook names it for the Skill tool, and hands no body of it over.
    assert "- `pdf` (project): one of your own skills: load it with the Skill tool" in said
    assert "Do the work for pdf." not in said
    # The skill only edgar knows is listed at the session's start and shortlisted with its path.
    assert said.count("Add up the totals of the invoice PDFs in a folder") == 2
    assert (
        '- `pdf-invoice-totals` (learned): read \\".edgar/skills/learned/pdf-invoice-totals/SKILL.md\\"'
        in said
    )
    assert "Read each invoice's total line." not in said  # named, not pasted
