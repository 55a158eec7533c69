"""The offline writer: its wording fits the triggers and the check; a long run's procedure stays short."""

from __future__ import annotations

import re

from edgar_min.models.offline import MAX_TOOL_STEPS, write_from_outline


def _outline(
    tripped: str, check: str, tools: list[str], corrections: str = "", failures: str = "none"
) -> str:
    lines = [f"what tripped: {tripped}", "what was asked: migrate the config"]
    if corrections:
        lines.append(f"corrections a human typed: {corrections}")
    lines += [
        f"tools called, in order: {', '.join(tools) or 'none'}",
        f"failures the harness recorded: {failures}",
        f"declared check: {check}",
        "task shape: main:read>edit>shell",
    ]
    return "\n".join(lines) + "\n"


def _procedure(reply: str) -> list[str]:
    body = reply.split("## Procedure\n\n", 1)[1].split("\n\n## ", 1)[0]
    return [line for line in body.splitlines() if re.match(r"\d+\. ", line)]


def test_a_correction_only_unverified_turn_is_not_said_to_have_worked():
    reply = write_from_outline(_outline("correction", "unverified", ["read", "edit"], "use the v2 schema"))
    description = reply.splitlines()[1]
    assert "worked" not in reply
    assert "passed" not in description
    assert "a person corrected" in description
    assert "not checked" in description


def test_a_passing_turn_says_it_passed_its_check():
    reply = write_from_outline(_outline("long, recovered", "passed", ["read", "edit", "shell"] * 2))
    assert "recovered from failures and passed its declared check" in reply.splitlines()[1]
    assert "it passed when this skill was recorded" in reply


def test_a_failed_turn_says_so():
    reply = write_from_outline(_outline("correction", "failed", ["shell"], "stop"))
    assert "its declared check failed" in reply.splitlines()[1]
    assert "it failed in the turn this was learned from" in reply


def test_a_124_tool_run_gives_a_short_procedure():
    tools = ["read", "search", "edit", "shell"] * 31
    reply = write_from_outline(_outline("long", "passed", tools))
    steps = _procedure(reply)
    assert len(steps) <= MAX_TOOL_STEPS + 2
    assert "124 tool calls" in reply
    assert "more than once" not in reply


def test_runs_of_one_tool_collapse():
    reply = write_from_outline(_outline("long", "passed", ["shell"] * 7 + ["edit"] + ["shell"] * 3))
    assert _procedure(reply)[:3] == [
        "1. Use shell (7 calls in a row).",
        "2. Use edit.",
        "3. Use shell (3 calls in a row).",
    ]


def test_repeated_failures_are_one_pitfall_each():
    failures = ", ".join(["shell nonzero_exit exit 2 (mix)"] * 4 + ["read not_found"])
    reply = write_from_outline(_outline("recovered", "passed", ["shell"], failures=failures))
    pitfalls = reply.split("## Pitfalls\n\n", 1)[1].split("\n\n## ", 1)[0].splitlines()
    assert pitfalls[0].startswith("- shell nonzero_exit exit 2 (mix) (4 times):")
    assert len(pitfalls) == 2
