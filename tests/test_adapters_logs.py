"""Whose log a file is, by the shape of its records: the one place that tells the formats apart."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from edgar_min.adapters.logs import log_agent

FIXTURES = Path(__file__).parent / "fixtures" / "transcripts"


@pytest.mark.parametrize(
    ("name", "agent"),
    [
        ("claude-code-2.1.39-skill-tool.jsonl", "claude-code"),
        ("claude-code-2.0.76-subagent.jsonl", "claude-code"),
        ("codex-0.100-skill-read.jsonl", "codex"),
        ("codex-0.171-two-turns.jsonl", "codex"),
        ("gemini-0.61-two-turns.jsonl", "gemini"),
    ],
)
def test_each_agents_real_log_is_known_by_its_shape(name, agent):
    assert log_agent(str(FIXTURES / name)) == agent


def test_the_first_codex_format_a_bare_gemini_message_and_unknown_records(tmp_path):
    first = tmp_path / "rollout.jsonl"
    first.write_text(json.dumps({"id": "s1", "timestamp": "t", "instructions": None}) + "\n")
    assert log_agent(str(first)) == "codex"
    message = tmp_path / "session.jsonl"
    message.write_text(json.dumps({"id": "m1", "type": "gemini", "content": "hi"}) + "\n")
    assert log_agent(str(message)) == "gemini"
    other = tmp_path / "other.jsonl"
    other.write_text("".join(json.dumps({"n": n}) + "\n" for n in range(10)) + json.dumps({"type": "user"}))
    assert log_agent(str(other)) is None  # the first records say nothing known
    assert log_agent(str(tmp_path)) is None  # a folder: the reader says why
    assert log_agent(str(tmp_path / "missing.jsonl")) is None
