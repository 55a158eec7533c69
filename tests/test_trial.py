"""The holdout's verdict: turns paired with their prompts, the sequential interval, and what a
person sees of it (`skills stats`, `skills prune`, doctor, MCP)."""

from __future__ import annotations

import io
import json
import random
import shlex
import sys
import uuid
from pathlib import Path

import pytest
from suggestfiles import write_skills
from transcripts import Claude

from edgar_min.config import load_config
from edgar_min.delivery.hooks import run_hook
from edgar_min.layout import Layout, user_home
from edgar_min.learning.store import ExperienceStore
from edgar_min.learning.trial import Arm, judge, trials
from edgar_min.learning.turn import parse_turn
from edgar_min.mcp.server import Server

SKILL = "gh-fix-ci"
PROMPT = "the ci checks on my pull request are failing, figure out why and fix it"
T0 = 1_790_000_000  # 2026-09-21, a whole second


@pytest.fixture(autouse=True)
def _holdout_as_configured(monkeypatch):
    """The holdout as the person's config sets it, not as the other tests pin it (conftest.py)."""
    monkeypatch.delenv("EDGAR_EVIDENCE_HOLDOUT")


def stamp(t: float) -> str:
    import time

    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


class Records:
    """A project's offer records and turn lines, written in the formats the hooks write them."""

    def __init__(self, root: Path) -> None:
        self.layout = Layout(str(root), user_home())
        self.store = ExperienceStore(self.layout.experience)

    def prompt(self, session: str, t: float, *, offered=(), withheld=()) -> None:
        folder = Path(self.layout.suggestions)
        folder.mkdir(parents=True, exist_ok=True)
        row = {"time": stamp(t), "skills": list(offered)}
        if withheld:
            row["withheld"] = list(withheld)
        with (folder / f"{session}.jsonl").open("a") as handle:
            handle.write(json.dumps(row) + "\n")

    def turn(self, session: str, t: float, verdict: str, skills=(), agent="main") -> None:
        record = {"prompt": "x", "tools": ["shell"], "verification": verdict, "skills": list(skills)}
        self.store.record(parse_turn({**record, "agent": agent}), session, now=t)

    def session(self, session: str, t: float, verdicts: list[str], *, held: bool) -> None:
        """One prompt and its turn per verdict, each pair within one second."""
        for i, verdict in enumerate(verdicts):
            if held:
                self.prompt(session, t + i, withheld=[SKILL])
                self.turn(session, t + i, verdict)
            else:
                self.prompt(session, t + i, offered=[SKILL])
                self.turn(session, t + i, verdict, [SKILL])


@pytest.fixture
def project(tmp_path):
    write_skills(tmp_path / ".edgar" / "skills" / "learned")
    return tmp_path


# --- the statistics ---------------------------------------------------------------------------


def test_too_few_turns_in_either_arm_tell_nothing_yet_and_say_how_many_more():
    verdict = judge(SKILL, Arm(30, 30, 0), Arm(5, 0, 5))
    assert verdict.verdict == "can't tell yet"
    assert verdict.effect is None
    assert verdict.more is not None
    assert verdict.more > 0
    assert "5 held out; 10 of each are needed" in verdict.sentence()


def test_a_clear_effect_is_a_verdict_with_its_interval_on_one_side():
    helps = judge(SKILL, Arm(200, 160, 40), Arm(60, 24, 36))
    assert helps.verdict == "helps"
    assert 0 < helps.low < helps.effect < helps.high
    assert helps.effect == pytest.approx(161 / 202 - 25 / 62)
    assert helps.more is None
    assert helps.sentence().startswith(
        "helps: effect +39 points on the pass rate (80% with it vs 40% held out; 95% interval +17"
    )
    hurts = judge(SKILL, Arm(200, 40, 160), Arm(60, 36, 24))
    assert hurts.verdict == "hurts"
    assert hurts.high < 0


def test_the_interval_is_wider_than_a_one_look_test_and_narrows_with_turns():
    few = judge(SKILL, Arm(40, 28, 12), Arm(40, 20, 20))
    many = judge(SKILL, Arm(400, 280, 120), Arm(400, 200, 200))
    # A one-look 95% interval at 40 + 40 turns is about +-21 points; looking after every turn costs more.
    assert few.high - few.low > 2 * 0.21
    assert many.high - many.low < few.high - few.low
    assert (few.verdict, many.verdict) == ("can't tell yet", "helps")
    # The estimate of the turns still needed shrinks as they come.
    assert (
        judge(SKILL, Arm(40, 26, 14), Arm(10, 5, 5)).more
        > judge(SKILL, Arm(160, 104, 56), Arm(40, 20, 20)).more
    )


def test_at_no_effect_looking_after_every_turn_rarely_gives_a_verdict():
    wrong = 0
    for seed in range(60):
        rng = random.Random(seed)  # noqa: S311 - a simulation
        arms = [Arm(), Arm()]
        for _ in range(600):
            k = rng.random() < 0.2
            passed = rng.random() < 0.5
            a = arms[k]
            arms[k] = Arm(a.turns + 1, a.passed + passed, a.failed + (not passed))
            if judge(SKILL, arms[0], arms[1]).verdict != "can't tell yet":
                wrong += 1
                break
    assert wrong <= 6  # at most 5% expected; 6 of 60 allows for the draw


# --- turns paired with their prompts ----------------------------------------------------------


def test_turns_are_paired_with_their_prompts_even_within_one_second(project):
    r = Records(project)
    # Five prompts and their turns all within one second: gh-fix-ci held out of the even ones,
    # pdf offered in the odd ones, whose turns alone pass.
    for i in range(5):
        r.prompt("s-tie", T0, offered=["pdf"]) if i % 2 else r.prompt("s-tie", T0, withheld=[SKILL])
    for i in range(5):
        r.turn("s-tie", T0, "passed" if i % 2 else "failed", ["pdf"] if i % 2 else [])
    found = trials(r.layout, None, [SKILL, "pdf"])
    assert (found[SKILL].withheld.passed, found[SKILL].withheld.failed) == (0, 3)
    assert (found["pdf"].used.passed, found["pdf"].used.failed) == (2, 0)


def test_a_prompt_whose_turn_was_never_recorded_takes_no_later_turn(project):
    r = Records(project)
    r.prompt("s-1", T0, withheld=[SKILL])  # its Stop never ran
    r.prompt("s-1", T0 + 5)  # a prompt the skill did not fit
    r.turn("s-1", T0 + 6, "failed")
    r.turn("s-1", T0 + 7, "failed", agent="helper")  # a subagent's turn is not the prompt's
    found = trials(r.layout, None, [SKILL])[SKILL]
    assert (found.used.turns, found.withheld.turns) == (0, 0)


def test_only_offered_and_used_turns_count_with_it_and_a_crossed_session_not_at_all(project):
    r = Records(project)
    r.prompt("s-1", T0, offered=[SKILL])
    r.turn("s-1", T0 + 1, "passed")  # offered, not used
    r.prompt("s-1", T0 + 2, offered=[SKILL])
    r.turn("s-1", T0 + 3, "unverified", [SKILL])  # used, says nothing either way
    r.prompt("s-2", T0, offered=[SKILL])
    r.turn("s-2", T0, "passed", [SKILL])
    r.prompt("s-2", T0 + 1, withheld=[SKILL])  # the probability changed mid-session
    r.turn("s-2", T0 + 1, "failed")
    found = trials(r.layout, None, [SKILL])[SKILL]
    assert (found.used.turns, found.used.decided, found.withheld.turns) == (1, 0, 0)


# --- what a person sees -----------------------------------------------------------------------


def hurting(project: Path) -> None:
    r = Records(project)
    for k in range(40):
        held = k % 4 == 0
        verdicts = ["passed" if (k + i) % 5 < (4 if held else 1) else "failed" for i in range(6)]
        r.session(f"s-{k}", T0 + 100 * k, verdicts, held=held)


def test_stats_shows_the_effect_its_interval_and_the_proposal_to_retire(project, edgar):
    hurting(project)
    doc = edgar("--root", str(project), "--json", "skills", "stats", SKILL).json()
    held = doc["holdout"]
    assert held["verdict"] == "hurts"
    assert held["with"]["turns"] == 180
    assert held["held_out"]["turns"] == 60
    assert held["interval"][1] < 0
    assert held["confidence"] == 0.95
    text = edgar("--root", str(project), "skills", "stats", SKILL).out
    assert "  holdout: hurts: effect -" in text
    assert "proposed for retirement: `edgar skills prune`" in text
    listing = edgar("--root", str(project), "skills", "stats").out
    assert any(line.startswith(SKILL) and " hurts " in line for line in listing.splitlines())
    dry = edgar("--root", str(project), "skills", "prune", "--dry-run").out
    assert f"would archive {SKILL}: the holdout measured it as hurting: hurts: effect -" in dry
    assert (project / ".edgar" / "skills" / "learned" / SKILL / "SKILL.md").exists()  # a person confirms
    assert any(
        "hurts by the holdout" in line for line in edgar("--root", str(project), "doctor").out.splitlines()
    )
    edgar("--root", str(project), "skills", "prune")
    assert not (project / ".edgar" / "skills" / "learned" / SKILL / "SKILL.md").exists()


def test_a_persons_own_skill_that_hurts_is_said_but_never_pruned(tmp_path, edgar):
    write_skills(tmp_path / ".claude" / "skills")
    hurting(tmp_path)
    assert "hurts by the holdout" in edgar("--root", str(tmp_path), "doctor").out
    assert SKILL not in edgar("--root", str(tmp_path), "skills", "prune", "--dry-run").out
    assert "proposed for retirement" not in edgar("--root", str(tmp_path), "skills", "stats", SKILL).out


def test_mcp_answers_like_the_cli(project, edgar):
    hurting(project)
    layout = Layout(str(project), user_home())
    server = Server(layout, lambda: load_config(layout))
    params = {"name": "skill_stats", "arguments": {"name": SKILL}}
    result = server.handle({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})["result"]
    cli = edgar("--root", str(project), "--json", "skills", "stats", SKILL).json()
    assert result["structuredContent"]["holdout"] == cli["holdout"]
    assert "holdout: hurts" in result["content"][0]["text"]
    params = {"name": "skill_stats", "arguments": {"name": "nope"}}
    missing = server.handle({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": params})["result"]
    assert missing["isError"] is True


def test_the_real_hooks_record_what_stats_reads_back(project, edgar):
    """Prompts and turns through the prompt hook and the Stop hook (its verdict from the agent's own
    run of the declared check), as fast as a script sends them: the counts read back are the stream's own."""
    outcome = project / "outcome"
    check = [
        sys.executable,
        "-I",
        "-S",
        "-c",
        f"import sys; sys.exit(open({str(outcome)!r}).read() != 'pass')",
    ]
    home = Path(user_home())
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(
        f"[check]\ncommand = {json.dumps(check)}\n[adapters]\nhook_check = true\n"
        '[skills]\nsynthesis = "off"\n[evidence]\nholdout = 0.5\n'
    )
    layout = Layout(str(project), user_home())
    rng = random.Random(3)  # noqa: S311 - a simulation
    truth = {"with": [0, 0], "held": [0, 0]}
    for k in range(8):
        session = str(uuid.UUID(int=k + 1, version=4))
        for _ in range(3):
            payload = json.dumps({"session_id": session, "prompt": PROMPT}).encode()
            said = run_hook("user-prompt-submit", layout, lambda: load_config(layout), io.BytesIO(payload))
            passed = rng.random() < 0.5
            outcome.write_text("pass" if passed else "fail")
            t = Claude().user(PROMPT)
            if SKILL in said.stdout:  # the agent reads what it was handed: a use its log shows
                t.skill("s1", SKILL)
            # The agent runs the declared check itself: the hook reads its verdict from the log.
            ran = {"command": shlex.join(check)}
            t.tool("b1", "Bash", ran).result("b1", "ok" if passed else "Exit code 1", is_error=not passed)
            stop = {"session_id": session, "transcript_path": str(t.write(project / "t.jsonl"))}
            done = run_hook(
                "stop", layout, lambda: load_config(layout), io.BytesIO(json.dumps(stop).encode())
            )
            assert done.problems == []
            truth["with" if SKILL in said.stdout else "held"][0 if passed else 1] += 1
    assert truth["held"] != [0, 0]
    assert truth["with"] != [0, 0]
    held = edgar("--root", str(project), "--json", "skills", "stats", SKILL).json()["holdout"]
    assert [held["with"]["passed"], held["with"]["failed"]] == truth["with"]
    assert [held["held_out"]["passed"], held["held_out"]["failed"]] == truth["held"]
