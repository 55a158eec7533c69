"""The official MCP Python SDK connects to the built `edgar.pyz mcp` over stdio and calls every tool."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from fences import read_delivery
from skillfiles import write_skill

mcp = pytest.importorskip("mcp", reason="the mcp SDK (dev extra) is not installed")
anyio = pytest.importorskip("anyio")

REPO_ROOT = Path(__file__).resolve().parent.parent


async def _session_run(pyz: Path, root: Path, body):
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(
        command=sys.executable, args=[str(pyz), "--root", str(root), "mcp"], cwd=str(root)
    )
    async with stdio_client(params) as streams, ClientSession(streams[0], streams[1]) as session:
        init = await session.initialize()
        return init, await body(session)


def _text(result) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


@pytest.fixture(scope="module")
def calls(pyz, tmp_path_factory):
    """One SDK session against the built zipapp, calling every tool; the results by name."""
    tmp_path = tmp_path_factory.mktemp("project")
    write_skill(tmp_path / ".edgar" / "skills", "pin-bump", "Bump a pin.", "## Steps\n\nChange the pin.\n")
    write_skill(tmp_path / ".claude" / "skills", "lint-fix", "Fix lint findings in the changed files.")

    async def body(session):
        out = {"tools": await session.list_tools()}
        out["index"] = await session.call_tool("skills_index", {"budget_chars": 1000, "order": ["pin-bump"]})
        out["small"] = await session.call_tool("skills_index", {"budget_chars": 60})
        out["show"] = await session.call_tool("skill_show", {"name": "pin-bump"})
        out["missing"] = await session.call_tool("skill_show", {"name": "nope"})
        turn = {"prompt": "bump the pin", "corrections": ["also the lock file"], "tools": ["shell", "edit"]}
        out["learn"] = await session.call_tool("learn_turn", {"turn": turn, "session": "sdk-1"})
        out["refused"] = await session.call_tool("learn_turn", {"turn": {"prompt": "x", "output": "y"}})
        options = [{"id": "pytest", "description": "run the tests"}, {"id": "ruff", "description": "lint"}]
        out["decide"] = await session.call_tool(
            "decide", {"state": "tests fail", "question": "what next?", "options": options}
        )
        questions = [
            {"question": "Which tool first?", "options": options},
            {"question": "Is it urgent?", "options": [{"id": "yes"}, {"id": "no"}]},
        ]
        out["decide_many"] = await session.call_tool(
            "decide_many", {"state": "tests fail", "questions": questions}
        )
        out["decide_many_bad"] = await session.call_tool(
            "decide_many", {"state": "tests fail", "questions": []}
        )
        out["suggest"] = await session.call_tool(
            "skills_suggest", {"text": "lint findings in my changed files"}
        )
        out["no_suggest"] = await session.call_tool("skills_suggest", {"text": "thanks, that worked"})
        out["stats"] = await session.call_tool("skill_stats", {"name": "pin-bump"})
        await session.send_ping()
        return out

    init, out = anyio.run(_session_run, pyz, tmp_path, body)
    return init, out, tmp_path


def test_the_sdk_lists_and_calls_every_tool(calls):
    init, out, tmp_path = calls
    assert init.server_info.name == "edgar"
    assert [t.name for t in out["tools"].tools] == [
        "skills_index",
        "skill_show",
        "learn_turn",
        "decide",
        "decide_many",
        "skills_suggest",
        "skill_stats",
    ]
    # A skill no turn has had yet: nothing to compare, and it says so.
    assert out["stats"].is_error is False
    assert "holdout: can't tell yet: 0 decided turn(s) with it, 0 held out" in _text(out["stats"])

    assert out["index"].is_error is False
    assert read_delivery(_text(out["index"]))[1][0].text.splitlines() == [
        "- pin-bump: Bump a pin.",
        "- lint-fix: Fix lint findings in the changed files.",
        "(all 2 skills listed in full)",
    ]
    small = read_delivery(_text(out["small"]))[1][0].text
    assert len(small) <= 60
    assert "omitted" in small or "shortened" in small

    assert read_delivery(_text(out["show"]))[1][0].text.startswith("## Steps")
    assert out["missing"].is_error is True
    assert "no skill named 'nope'" in _text(out["missing"])

    assert out["learn"].is_error is False, _text(out["learn"])
    learned = out["learn"].structured_content
    assert learned["triggers"] == ["correction"]
    assert learned["outcome"] == "proposed"
    assert (tmp_path / learned["path"]).is_file()
    assert out["refused"].is_error is True
    assert "unknown key 'output'" in _text(out["refused"])

    assert out["suggest"].is_error is False, _text(out["suggest"])
    assert out["suggest"].structured_content["skills"][0]["name"] == "lint-fix"
    assert _text(out["no_suggest"]).startswith("none")


def test_the_sdk_gets_a_decision_or_a_clear_tool_error(calls):
    _, out, _ = calls
    try:
        import edgar_min.semif  # noqa: F401
    except ImportError:
        assert out["decide"].is_error is True
        assert "SemIf is not available" in _text(out["decide"])
        pytest.skip("edgar_min.semif not present")
    assert out["decide"].is_error is False, _text(out["decide"])
    assert out["decide"].structured_content["selected"] in {"pytest", "ruff"}
    json.dumps(out["decide"].structured_content)
    assert out["decide_many"].is_error is False, _text(out["decide_many"])
    many = out["decide_many"].structured_content
    assert [r["option_ids"] for r in many["results"]] == [["pytest", "ruff"], ["yes", "no"]]
    assert many["run_id"].startswith("r-")
    assert out["decide_many_bad"].is_error is True
    assert "questions must be a list of at least one" in _text(out["decide_many_bad"])


# The SDK's own serializer cannot send a lone surrogate or a message nested 100,000 deep, so a
# shim writes those raw lines to the server first, keeps their answers, then relays the SDK.
SHIM = """
import subprocess, sys, threading
proc = subprocess.Popen([sys.executable, {pyz!r}, "--root", {root!r}, "mcp"],
                        stdin=subprocess.PIPE, stdout=subprocess.PIPE)
hostile = [b"[" * 100_000, b'{{"jsonrpc": "2.0", "id": "\\\\ud800", "method": "ping"}}',
           b'{{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {{"name": "decide",'
           b' "arguments": {{"state": "\\\\udfff", "question": "q", "options": [{{"id": "a"}}]}}}}}}',
           b"\\xff\\xfe", b'{{"jsonrpc": "2.0", "id": 8, "method": "ping", "params": ' + b"{{" * 50_000]
proc.stdin.write(b"".join(line + b"\\n" for line in hostile))
proc.stdin.flush()
with open({log!r}, "wb") as out:
    for _ in hostile:
        out.write(proc.stdout.readline())
def relay():
    for line in sys.stdin.buffer:
        proc.stdin.write(line)
        proc.stdin.flush()
    proc.stdin.close()
threading.Thread(target=relay, daemon=True).start()
for line in proc.stdout:
    sys.stdout.buffer.write(line)
    sys.stdout.buffer.flush()
"""


def test_after_hostile_raw_lines_the_sdk_session_still_works(pyz, tmp_path):
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    write_skill(tmp_path / ".edgar" / "skills", "pin-bump", "Bump a pin.")
    log = tmp_path / "hostile-answers.jsonl"
    shim = tmp_path / "shim.py"
    shim.write_text(SHIM.format(pyz=str(pyz), root=str(tmp_path), log=str(log)))

    async def run():
        params = StdioServerParameters(command=sys.executable, args=[str(shim)], cwd=str(tmp_path))
        async with stdio_client(params) as streams, ClientSession(streams[0], streams[1]) as session:
            await session.initialize()
            index = await session.call_tool("skills_index", {})
            await session.send_ping()
            return index

    index = anyio.run(run)
    assert read_delivery(_text(index))[1][0].text.startswith("- pin-bump: Bump a pin.")
    answers = [json.loads(line) for line in log.read_bytes().splitlines()]
    assert [a.get("error", {}).get("code") for a in answers] == [-32700, -32600, None, -32700, -32700]
    assert answers[2]["result"]["isError"] is True
    assert "lone surrogate" in answers[2]["result"]["content"][0]["text"]
    assert not (tmp_path / ".edgar" / "decisions").exists()
