"""The randomised holdout at the offer: who is held out, that the agent never hears of it, and
that the record holds up under concurrent sessions and a killed hook."""

from __future__ import annotations

import io
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from conftest import state_of
from suggestfiles import write_skills
from transcripts import config_toml

from edgar_min.config import load_config
from edgar_min.delivery import holdout
from edgar_min.delivery.hooks import run_hook
from edgar_min.delivery.record import offers
from edgar_min.errors import ConfigError
from edgar_min.layout import Layout, user_home

PROMPT = "the ci checks on my pull request are failing, figure out why and fix it"
SKILL = "gh-fix-ci"


@pytest.fixture(autouse=True)
def _holdout_as_configured(monkeypatch):
    """The holdout as the person's config sets it, not as the other tests pin it (conftest.py)."""
    monkeypatch.delenv("EDGAR_EVIDENCE_HOLDOUT")


def sessions(n: int) -> list[str]:
    return [str(uuid.UUID(int=k + 1, version=4)) for k in range(n)]


def user_config(text: str) -> None:
    path = Path(user_home()) / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def prompt(root: Path, session: str | None, text: str = PROMPT) -> str:
    layout = Layout(str(root), user_home())
    payload = {"prompt": text, "hook_event_name": "UserPromptSubmit"}
    if session is not None:
        payload["session_id"] = session
    result = run_hook(
        "user-prompt-submit", layout, lambda: load_config(layout), io.BytesIO(json.dumps(payload).encode())
    )
    assert result.problems == []
    return result.stdout


def rows(root: Path, session: str) -> list[dict]:
    path = state_of(root) / "suggestions" / f"{session}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line]


@pytest.fixture
def learned(tmp_path):
    write_skills(tmp_path / ".edgar" / "skills" / "learned")
    return tmp_path


@pytest.fixture
def own(tmp_path):
    write_skills(tmp_path / ".claude" / "skills")
    return tmp_path


def test_a_held_out_session_never_hears_of_the_skill_and_records_it_like_an_offer(learned):
    user_config("[evidence]\nholdout = 0.5\n")
    held, offered = [], []
    for session in sessions(40):
        out = prompt(learned, session)
        (held if SKILL not in out else offered).append(session)
        row = rows(learned, session)[-1]
        if session in held:
            assert SKILL in row["withheld"]
            assert SKILL not in row["skills"]
            assert SKILL not in row.get("named", [])
            assert "withheld" not in out
            assert "holdout" not in out.lower()
        else:
            assert SKILL not in row.get("withheld", [])
            # Offered in the shortlist by name (a body goes only to a prompt this project taught).
            assert SKILL in row["named"]
    # About half of 40 sessions each way (a binomial draw: 40 at 0.5 lands in 10..30 but for 1e-3).
    assert 10 <= len(held) <= 30


def test_the_draw_is_fixed_for_the_whole_session(learned):
    user_config("[evidence]\nholdout = 0.5\n")
    for session in sessions(12):
        seen = {SKILL in prompt(learned, session) for _ in range(4)}
        prompt(learned, session, "thanks, that worked!")  # a prompt it does not fit in between
        seen.add(SKILL in prompt(learned, session))
        assert len(seen) == 1
        withheld = [
            row.get("withheld", [])
            for row in rows(learned, session)
            if row.get("named") or row.get("withheld")
        ]
        assert len({tuple(w) for w in withheld}) == 1


def test_the_default_holds_out_about_one_session_in_ten(learned):
    held = sum(SKILL not in prompt(learned, s) for s in sessions(200))
    assert 6 <= held <= 36  # 200 at 0.1: 20 expected, and this range holds but for 1e-3


def test_a_persons_own_skill_is_held_out_only_when_they_say_so(own):
    user_config("[evidence]\nholdout = 0.5\n")
    assert all(SKILL in prompt(own, s) for s in sessions(30))
    # A project's config cannot choose it for them: left out until the person trusts the file.
    config_toml(own, "[evidence]\nholdout_own = true\n")
    assert all(SKILL in prompt(own, s) for s in sessions(30))
    user_config("[evidence]\nholdout = 0.5\nholdout_own = true\n")
    assert sum(SKILL not in prompt(own, s) for s in sessions(30)) >= 5


def test_off_or_without_a_session_nothing_is_held_out(learned):
    user_config("[evidence]\nholdout = 0.5\n")
    assert all(SKILL in prompt(learned, None) for _ in range(10))  # no session: nothing to record it in
    user_config("[evidence]\nholdout = 0.0\n")
    assert all(SKILL in prompt(learned, s) for s in sessions(30))


def test_a_probability_out_of_bounds_is_a_sentence(learned):
    user_config("[evidence]\nholdout = 0.7\n")
    with pytest.raises(ConfigError, match=r"evidence.holdout must be between 0 and 0.5, not 0.7"):
        load_config(Layout(str(learned), user_home()))
    config_toml(learned, "[evidence]\nholdout = 'often'\n")
    user_config("")
    with pytest.raises(ConfigError, match=r"evidence\.holdout must be a number"):
        load_config(Layout(str(learned), user_home()))


def test_the_draw_is_uniform_and_independent_of_the_skill():
    draws = [holdout.draw(s, SKILL) for s in sessions(4000)]
    assert all(0 <= d < 1 for d in draws)
    assert abs(sum(d < 0.2 for d in draws) / len(draws) - 0.2) < 0.03
    other = [holdout.draw(s, "pdf") for s in sessions(4000)]
    both = sum(a < 0.5 and b < 0.5 for a, b in zip(draws, other, strict=True)) / len(draws)
    assert abs(both - 0.25) < 0.03


def _prompts(root: str, home: str, names: list[str], count: int) -> None:
    os.environ["EDGAR_HOME"] = home
    for i in range(count):
        prompt(Path(root), names[i % len(names)])


def test_concurrent_sessions_lose_and_tear_no_offer_and_agree_on_every_draw(learned):
    user_config("[evidence]\nholdout = 0.5\n")
    names = sessions(6)
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_prompts, args=(str(learned), user_home(), names, 30)) for _ in range(6)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    total = 0
    for session in names:
        found = offers(Layout(str(learned), user_home()), session)
        total += len(found)
        assert all((SKILL in o.names) != (SKILL in o.withheld) for o in found)  # each row says one
        assert len({SKILL in o.withheld for o in found}) == 1  # every process drew the same
    assert total == 6 * 30


KILLED = """
import io, json, sys
sys.path.insert(0, {repo!r})
from edgar_min.config import load_config
from edgar_min.delivery.hooks import run_hook
from edgar_min.layout import Layout, user_home
layout = Layout({root!r}, user_home())
payload = json.dumps({{"session_id": {session!r}, "prompt": {prompt!r}}}).encode()
while True:
    run_hook("user-prompt-submit", layout, lambda: load_config(layout), io.BytesIO(payload))
"""


def test_a_hook_killed_mid_session_leaves_whole_rows_and_the_same_draw(learned):
    user_config("[evidence]\nholdout = 0.5\n")
    repo = str(Path(__file__).resolve().parents[1])
    layout = Layout(str(learned), user_home())
    for session in sessions(6):
        script = KILLED.format(repo=repo, root=str(learned), session=session, prompt=PROMPT)
        proc = subprocess.Popen([sys.executable, "-c", script], env={**os.environ})
        path = state_of(learned) / "suggestions" / f"{session}.jsonl"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (not path.exists() or path.read_bytes().count(b"\n") < 5):
            time.sleep(0.01)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        before = {SKILL in o.withheld for o in offers(layout, session)}
        out = prompt(learned, session)  # the session goes on after the crash
        found = offers(layout, session)
        assert len(found) >= 6
        assert {SKILL in o.withheld for o in found} == before == {SKILL not in out}
        # Every line but a torn one is a whole row; a torn one is followed by a whole row.
        lines = path.read_bytes().split(b"\n")
        assert lines[-1] == b""
        whole = [line for line in lines if line]
        assert len(found) >= len(whole) - 1
