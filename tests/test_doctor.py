"""`edgar doctor [--network]`: what a person needs to know, exit 0 healthy / 1 needs attention."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import free_port, state_of, tree_snapshot
from test_models_http import CANARY, FakeAPI
from test_semif_openai import Letters, LlamaLike
from transcripts import trust_config

from edgar_min.invocation import program


@pytest.fixture
def llama_like():
    server = LlamaLike()
    yield server
    server.close()


@pytest.fixture
def api():
    server = FakeAPI()
    yield server
    server.close()


def config(root, text, *, trusted=False):
    (root / ".edgar").mkdir(exist_ok=True)
    (root / ".edgar" / "config.toml").write_text(text)
    if trusted:
        trust_config(root)


def skill(root, folder, name, description="Does a thing."):
    path = root / folder / name / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(f"---\nname: {name}\ndescription: {description}\n---\n\nProse.\n")
    return path


def test_an_empty_project_is_healthy_and_doctor_writes_nothing(edgar, tmp_path, monkeypatch):
    monkeypatch.delenv("EDGAR_EVIDENCE_HOLDOUT")  # no layer but the defaults (conftest.py pins it)
    before = tree_snapshot(tmp_path)
    result = edgar("--root", str(tmp_path), "doctor")
    assert result.code == 0, result
    lines = result.out.splitlines()
    assert lines[0] == "synthesis: propose (skills are proposed in .edgar/proposals/ for a person to review)"
    assert "controller: on" in lines
    assert "model: offline" in lines
    assert "config, lowest layer first: defaults" in lines
    assert "network: not checked (use --network to send one tiny request to the provider)" in lines
    assert lines[-1] == "healthy"
    assert tree_snapshot(tmp_path) == before


def test_json_is_one_document_with_every_part(edgar, tmp_path):
    doc = edgar("--root", str(tmp_path), "--json", "doctor").json()
    assert doc["healthy"] is True
    assert doc["attention"] == []
    assert set(doc) >= {
        "synthesis",
        "controller",
        "model",
        "config",
        "skills",
        "store",
        "proposals",
        "histories",
        "rejections",
        "hook_problems",
        "network",
        "trust",
    }
    assert doc["synthesis"] == {"mode": "propose", "warning": None}
    assert doc["trust"] == {"untrusted": [], "sentence": None}
    assert doc["network"] is None


def test_auto_mode_says_its_risk(edgar, tmp_path):
    config(tmp_path, '[skills]\nsynthesis = "auto"\n', trusted=True)
    result = edgar("--root", str(tmp_path), "doctor")
    assert result.code == 0
    assert "synthesis: auto (skills from passing turns are written into .edgar/skills/learned/" in result.out
    assert "warning: skills.synthesis is 'auto'" in result.err
    doc = edgar("--root", str(tmp_path), "--json", "doctor").json()
    assert "with no review" in doc["synthesis"]["warning"]


def test_controller_off_says_learning_is_inert(edgar, tmp_path):
    config(tmp_path, "[controller]\nenabled = false\n", trusted=True)
    result = edgar("--root", str(tmp_path), "doctor")
    assert (
        "controller: off; the controller is switched off (controller.enabled = false): learning is inert"
        in (result.out)
    )


def test_layers_are_listed_lowest_first(edgar, tmp_path, monkeypatch):
    monkeypatch.delenv("EDGAR_EVIDENCE_HOLDOUT")  # the layers this test writes, and no other
    home = Path(os.environ["EDGAR_HOME"])
    (home / "config.toml").write_text("[skills]\nmin_repeats = 2\n")
    config(tmp_path, "[skills]\nmin_repeats = 4\n")
    monkeypatch.setenv("EDGAR_SKILLS_DISTILL_AFTER", "5")
    doc = edgar("--root", str(tmp_path), "--set", "skills.min_tool_calls=7", "--json", "doctor").json()
    assert doc["config"]["sources"] == [
        "defaults",
        str(home / "config.toml"),
        str(tmp_path / ".edgar" / "config.toml"),
        "environment (EDGAR_SKILLS_DISTILL_AFTER)",
        "--set flags",
    ]
    assert doc["histories"]["distill_after"] == 5


def test_a_broken_config_is_reported_not_a_crash(edgar, tmp_path):
    config(tmp_path, "[skills\nsynthesis = 'auto'\n")
    result = edgar("--root", str(tmp_path), "doctor")
    assert result.code == 1
    assert "Traceback" not in result.err
    assert "- config: " in result.out
    assert "not valid TOML" in result.out


def test_unknown_provider_is_reported(edgar, tmp_path):
    config(tmp_path, '[model]\nprovider = "nope"\n')
    doc = edgar("--root", str(tmp_path), "--json", "doctor").json()
    assert doc["healthy"] is False
    assert any("model.provider must be one of" in a for a in doc["attention"])


def test_openai_setup_is_shown_without_the_key(edgar, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", CANARY)
    config(
        tmp_path,
        '[model]\nprovider = "openai"\nname = "local"\nbase_url = "http://127.0.0.1:9/v1"\n',
        trusted=True,
    )
    result = edgar("--root", str(tmp_path), "doctor")
    assert result.code == 0
    assert (
        'model: openai, model "local" at http://127.0.0.1:9/v1/chat/completions; key from OPENAI_API_KEY: set'
        in result.out
    )
    doc = edgar("--root", str(tmp_path), "--json", "doctor").json()
    assert doc["model"]["key_set"] is True
    assert CANARY not in result.out + result.err + json.dumps(doc)


def test_key_variable_unset_needs_attention_and_names_it(edgar, tmp_path):
    config(
        tmp_path,
        '[model]\nprovider = "openai"\nname = "m"\nbase_url = "http://h:1/v1"\napi_key_env = "TEAM_KEY"\n',
        trusted=True,
    )
    result = edgar("--root", str(tmp_path), "doctor")
    assert result.code == 1
    assert "TEAM_KEY, but that environment variable is not set" in result.out


def test_base_url_without_scheme_needs_attention(edgar, tmp_path):
    config(
        tmp_path, '[model]\nprovider = "openai"\nname = "m"\nbase_url = "localhost:8080/v1"\n', trusted=True
    )
    result = edgar("--root", str(tmp_path), "--json", "doctor")
    assert result.code == 1
    assert "must start with http:// or https://" in result.json()["model"]["problem"]


def test_skill_problems_and_shadowed_names(edgar, tmp_path):
    skill(tmp_path, ".edgar/skills", "deploy")
    skill(tmp_path, ".claude/skills", "deploy")
    bad = skill(tmp_path, ".agents/skills", "review")
    bad.write_text("---\nname: other\ndescription: Mismatched.\n---\nx\n")
    result = edgar("--root", str(tmp_path), "doctor")
    assert result.code == 1
    assert "skills: 2 (2 hand-authored, 0 learned), 1 problem(s)" in result.out
    assert "shadowed: deploy at .claude/skills/deploy/SKILL.md (hidden by .edgar/skills/deploy/SKILL.md)" in (
        result.out
    )
    assert "name 'other' does not match its folder 'review'" in result.out


def test_shadowing_alone_is_healthy(edgar, tmp_path):
    skill(tmp_path, ".edgar/skills", "deploy")
    skill(tmp_path, ".claude/skills", "deploy")
    assert edgar("--root", str(tmp_path), "doctor").code == 0


def test_store_torn_lines_need_attention(edgar, tmp_path):
    turn = tmp_path / "t.json"
    turn.write_text(json.dumps({"prompt": "x", "tools": ["shell"]}))
    assert edgar("--root", str(tmp_path), "learn", str(turn)).code == 0
    (tsv,) = (tmp_path / ".edgar" / "experience" / "turns").glob("*/*.tsv")
    with tsv.open("ab") as handle:
        handle.write(b"1\t2026-11-30T")
    doc = edgar("--root", str(tmp_path), "--json", "doctor").json()
    assert doc["store"] == {"records": 1, "torn": 1, "files": 1}
    assert doc["healthy"] is False


def test_proposals_histories_and_rejections_are_counted(edgar, tmp_path):
    skill(tmp_path, ".edgar/skills", "deploy")
    for _ in range(2):
        turn = tmp_path / "t.json"
        turn.write_text(json.dumps({"prompt": "deploy it", "skills": ["deploy"], "verification": "failed"}))
        edgar("--root", str(tmp_path), "learn", str(turn))
    turn.write_text(json.dumps({"prompt": "fix the flaky test", "corrections": ["rerun it"]}))
    edgar("--root", str(tmp_path), "learn", str(turn))
    (tmp_path / ".edgar" / "rejections.jsonl").write_text('{"error": "x"}\n')
    result = edgar("--root", str(tmp_path), "doctor")
    assert result.code == 0
    assert "proposals waiting: 1" in result.out
    assert "near a distill: deploy has 2 line(s)" in result.out
    assert "rejections logged: 1 (.edgar/rejections.jsonl)" in result.out
    doc = edgar("--root", str(tmp_path), "--json", "doctor").json()
    assert doc["histories"]["files"] == [
        {"skill": "deploy", "lines": 2, "skipped": 0, "until_distill": 1, "near": True}
    ]


def test_network_with_offline_needs_nothing(edgar, tmp_path):
    doc = edgar("--root", str(tmp_path), "--json", "doctor", "--network").json()
    assert doc["network"] == {"ok": True, "message": "the offline provider needs no network"}


def test_network_reaches_the_provider(edgar, tmp_path, api, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", CANARY)
    config(tmp_path, f'[model]\nprovider = "openai"\nname = "m"\nbase_url = "{api.root}/v1"\n', trusted=True)
    result = edgar("--root", str(tmp_path), "doctor", "--network")
    assert result.code == 0, result
    assert "network: ok: answered in" in result.out
    assert len(api.requests) == 1


@pytest.mark.parametrize("mode", ["401", "refused"])
def test_network_failure_needs_attention_and_never_shows_the_key(edgar, tmp_path, api, monkeypatch, mode):
    monkeypatch.setenv("OPENAI_API_KEY", CANARY)
    port = api.port if mode != "refused" else free_port()
    api.mode = mode
    config(
        tmp_path,
        f'[model]\nprovider = "openai"\nname = "m"\nbase_url = "http://127.0.0.1:{port}/v1"\n',
        trusted=True,
    )
    result = edgar("--root", str(tmp_path), "doctor", "--network")
    assert result.code == 1
    assert "network: failed: openai provider:" in result.out
    doc = edgar("--root", str(tmp_path), "--json", "doctor", "--network")
    assert doc.code == 1
    assert CANARY not in result.out + result.err + doc.out + doc.err


def test_doctor_without_network_makes_no_request(edgar, tmp_path, api, monkeypatch):
    config(tmp_path, f'[model]\nprovider = "openai"\nname = "m"\nbase_url = "{api.root}/v1"\n', trusted=True)
    assert edgar("--root", str(tmp_path), "doctor").code == 0
    assert api.requests == []


def test_doctor_shows_the_declared_check(edgar, tmp_path):
    assert "declared check: none" in edgar("--root", str(tmp_path), "doctor").out
    config(tmp_path, '[check]\ncommand = ["python3", "-m", "pytest", "-q"]\ntimeout_s = 120\n', trusted=True)
    result = edgar("--root", str(tmp_path), "doctor")
    assert "declared check: python3 -m pytest -q (timeout 120 s)" in result.out
    assert result.code == 0


def test_doctor_reports_a_skill_measured_as_hurting(edgar, tmp_path):
    from edgar_min.layout import Layout
    from edgar_min.learning.store import ExperienceStore
    from edgar_min.learning.turn import parse_turn

    skill(tmp_path, ".edgar/skills", "bad-advice")
    store = ExperienceStore(Layout(tmp_path, tmp_path / "home").experience, host="h")
    base = {"prompt": "x", "tools": ["shell", "edit"]}
    for i in range(30):
        store.record(parse_turn({**base, "verification": "failed", "skills": ["bad-advice"]}), f"a{i}")
        store.record(parse_turn({**base, "verification": "passed"}), f"b{i}")
    result = edgar("--root", str(tmp_path), "doctor")
    assert result.code == 1
    assert "skills: skill bad-advice (hand) is measured as hurting" in result.out
    doc = edgar("--root", str(tmp_path), "--json", "doctor").json()
    assert doc["store"]["records"] == 60
    assert any("bad-advice" in item for item in doc["lifecycle"])


def test_doctor_reports_torn_ledger_lines(edgar, tmp_path):
    (tmp_path / ".edgar").mkdir()
    (tmp_path / ".edgar" / "ledger.jsonl").write_text('{"time": "2026-11-30T09:00:00Z", "act')
    result = edgar("--root", str(tmp_path), "doctor")
    assert result.code == 1
    assert "ledger" in result.out
    assert "torn or garbage line(s)" in result.out


KILLED_WRITER = """
import os, sys, time
sys.path.insert(0, {repo!r})
import edgar_min.atomic as atomic
real_write = os.write
def slow_write(fd, data):
    n = real_write(fd, bytes(data[: len(data) // 2]))
    print("HALF", flush=True)
    time.sleep(60)
    return n
atomic.os.write = slow_write
from pathlib import Path
from edgar_min.layout import Layout
from edgar_min.learning.writer import Draft, Provenance, write_learned
from edgar_min.invocation import program
body = open({body!r}).read()
write_learned(Layout(Path({root!r}), Path({root!r}) / "home"), Draft("pin-bump", "Bump a pin.", body),
              Provenance("s-1", ("long",)))
"""


def test_doctor_removes_a_temp_file_left_by_a_killed_write_and_reports_it(edgar, tmp_path):
    import signal
    import subprocess
    import sys

    from skillfiles import BODY

    root = tmp_path / "proj"
    root.mkdir()
    body = tmp_path / "body.md"
    body.write_text(BODY)
    script = KILLED_WRITER.format(
        repo=str(Path(__file__).resolve().parents[1]), body=str(body), root=str(root)
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "HALF"
    # While the writer lives, its temp file may be a write under way: reported, left alone.
    (left,) = (root / ".edgar" / "proposals" / "pin-bump").glob(".SKILL.md.*.tmp")
    result = edgar("--root", str(root), "--json", "doctor")
    assert result.json()["places"]["temp_kept"] == [str(left.relative_to(root))]
    assert left.exists()
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    proc.stdout.close()
    result = edgar("--root", str(root), "doctor")
    assert f"removed {left.relative_to(root)}" in result.out
    assert not left.exists()
    assert result.code == 0, result
    assert "healthy" in result.out


def test_doctor_keeps_a_young_temp_file_of_a_running_process_and_removes_a_stale_one(edgar, tmp_path):
    versions = tmp_path / ".edgar" / "versions"
    versions.mkdir(parents=True)
    mine = versions / f".abc.{os.getpid()}.1.tmp"
    mine.write_text("half")
    stale = versions / f".def.{os.getpid()}.2.tmp"
    stale.write_text("half")
    os.utime(stale, (0, 0))
    data = edgar("--root", str(tmp_path), "--json", "doctor").json()
    assert data["places"]["temp_removed"] == [f".edgar/versions/.def.{os.getpid()}.2.tmp"]
    assert data["places"]["temp_kept"] == [f".edgar/versions/.abc.{os.getpid()}.1.tmp"]
    assert mine.exists()
    assert not stale.exists()
    assert data["healthy"] is False


@pytest.mark.parametrize(
    "place", [".edgar/proposals", ".edgar/skills/learned", ".edgar/versions", ".edgar/ledger.jsonl"]
)
def test_doctor_reports_a_link_where_edgar_writes(edgar, tmp_path, place):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "bashrc").write_text("mine\n")
    root = tmp_path / "proj"
    link = root / place
    link.parent.mkdir(parents=True)
    link.symlink_to(outside / "bashrc" if place.endswith(".jsonl") else outside)
    before = tree_snapshot(outside)
    result = edgar("--root", str(root), "doctor")
    assert result.code == 1
    assert f"- link: {place} is a symbolic link (to {outside}" in result.out
    assert tree_snapshot(outside) == before


def test_doctor_reports_links_inside_and_a_file_where_a_folder_belongs(edgar, tmp_path):
    root = tmp_path / "proj"
    (root / ".edgar" / "skills").mkdir(parents=True)
    (root / ".edgar" / "skills" / "learned").write_text("a file")
    (root / ".edgar" / "proposals" / "deploy").mkdir(parents=True)
    (root / ".edgar" / "proposals" / "deploy" / "SKILL.md").symlink_to("/etc/passwd")
    data = edgar("--root", str(root), "--json", "doctor").json()
    assert data["places"]["misplaced"] == [".edgar/skills/learned is a file where edgar keeps a folder"]
    assert data["places"]["links"] == [".edgar/proposals/deploy/SKILL.md is a symbolic link (to /etc/passwd)"]
    assert data["healthy"] is False


def test_doctor_reports_how_many_problems_the_hooks_logged_and_the_newest(edgar, tmp_path, monkeypatch):
    import io

    for payload in (b"not json", b'{"session_id": "abc", "hook_event_name": "Stop"}'):
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(payload)))
        assert edgar("--root", str(tmp_path), "learn", "--from", "claude-code", "--hook").code == 0
    newest = json.loads((tmp_path / ".edgar/hook-problems.jsonl").read_text().splitlines()[-1])
    r = edgar("--root", str(tmp_path), "doctor")
    assert r.code == 1, r
    assert "hook problems logged: 2 (.edgar/hook-problems.jsonl)" in r.out
    assert f"  newest ({newest['time']}): {newest['problem']}" in r.out
    doc = edgar("--root", str(tmp_path), "--json", "doctor").json()
    assert doc["hook_problems"] == {
        "logged": 2,
        "path": ".edgar/hook-problems.jsonl",
        "newest": newest["problem"],
        "newest_time": newest["time"],
    }
    assert any(a.startswith("hooks: 2 problem(s) logged") for a in doc["attention"])


def test_doctor_counts_the_routing_examples_and_those_of_skills_gone(edgar, tmp_path):
    skill(tmp_path, ".claude/skills", "deploy")
    assert edgar("--root", str(tmp_path), "skills", "teach", "deploy", "ship it to prod").code == 0
    assert edgar("--root", str(tmp_path), "skills", "teach", "deploy", "push the release live").code == 0
    assert edgar("--root", str(tmp_path), "skills", "teach", "none", "thanks!").code == 0
    with (state_of(tmp_path) / "routing-examples.jsonl").open("a") as log:
        log.write(json.dumps({"skill": "gone-skill", "text": "do the old thing", "source": "agent"}) + "\n")
    result = edgar("--root", str(tmp_path), "doctor")
    assert result.code == 0, result
    assert (
        "routing examples: 2 of 1 skill(s), 1 of none, 1 of skills not discovered now "
        f"({state_of(tmp_path) / 'routing-examples.jsonl'})" in result.out
    )
    doc = edgar("--root", str(tmp_path), "--json", "doctor").json()
    assert doc["examples"]["unused"] == ["gone-skill"]
    off = edgar("--root", str(tmp_path), "--set", "suggest.learn_from_use=false", "doctor")
    assert "(suggest.learn_from_use is off)" in off.out


def test_a_routing_examples_file_that_is_a_folder_needs_attention(edgar, tmp_path):
    (state_of(tmp_path) / "routing-examples.jsonl").mkdir(parents=True)
    result = edgar("--root", str(tmp_path), "doctor")
    assert result.code == 1
    assert "routing examples:" in result.out
    assert "is a folder, not a file of examples" in result.out
    assert "Traceback" not in result.err


def test_keys_an_untrusted_project_config_sets_need_attention(edgar, tmp_path):
    config(tmp_path, '[check]\ncommand = ["make", "test"]\n[skills]\nsynthesis = "auto"\n')
    result = edgar("--root", str(tmp_path), "doctor")
    assert result.code == 1
    sentence = (
        f"{tmp_path}/.edgar/config.toml sets check.command, skills.synthesis, which take effect only once "
        f"you trust this file: run `{program()} --root {tmp_path} trust`"
    )
    assert f"trust: {sentence}" in result.out.splitlines()
    assert f"- trust: {sentence}" in result.out.splitlines()
    assert "synthesis: propose" in result.out  # what is in force, not what the file says
    assert "declared check: none" in result.out
    doc = edgar("--root", str(tmp_path), "--json", "doctor").json()
    assert doc["trust"] == {"untrusted": ["check.command", "skills.synthesis"], "sentence": sentence}
    assert edgar("--root", str(tmp_path), "trust").code == 0
    trusted = edgar("--root", str(tmp_path), "doctor")
    assert "trust:" not in trusted.out
    assert "declared check: make test" in trusted.out


def test_doctor_names_the_state_folder_and_says_what_the_checkout_holds_at_the_old_places_is_ignored(
    edgar, tmp_path
):
    for old in ("cache/routing.json", "routing-examples.jsonl", "suggestions/s.jsonl"):
        (tmp_path / ".edgar" / old).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / ".edgar" / old).write_text("{}\n")
    result = edgar("--root", str(tmp_path), "doctor")
    state = state_of(tmp_path)
    assert f"derived data: {state} (" in result.out
    assert (
        f"  .edgar/cache, .edgar/routing-examples.jsonl, .edgar/suggestions: in the project, where edgar no "
        f"longer reads derived data; ignored (edgar keeps its own in {state})"
    ) in result.out
    doc = edgar("--root", str(tmp_path), "--json", "doctor").json()
    assert doc["derived"]["ignored"] == [
        ".edgar/cache",
        ".edgar/routing-examples.jsonl",
        ".edgar/suggestions",
    ]


def test_a_state_folder_others_can_read_needs_attention(edgar, tmp_path):
    state = state_of(tmp_path)
    state.mkdir(parents=True)
    state.chmod(0o755)
    result = edgar("--root", str(tmp_path), "doctor")
    assert result.code == 1
    assert f"- derived data: {state} can be read by other users (mode 755); `chmod 700 {state}`" in result.out
    state.chmod(0o700)
    assert edgar("--root", str(tmp_path), "doctor").code == 0


def test_a_password_in_the_base_url_is_never_printed(edgar, tmp_path):
    (Path(os.environ["EDGAR_HOME"]) / "config.toml").write_text(
        '[model]\nprovider = "openai"\nname = "m"\nbase_url = "http://bob:Hunter2Horse@127.0.0.1:9/v1"\n'
    )
    result = edgar("--root", str(tmp_path), "doctor")
    assert 'model: openai, model "m" at http://bob:[REDACTED]@127.0.0.1:9/v1/chat/completions' in result.out
    doc = edgar("--root", str(tmp_path), "--json", "doctor").json()
    assert doc["model"]["url"] == "http://bob:[REDACTED]@127.0.0.1:9/v1/chat/completions"
    network = edgar("--root", str(tmp_path), "doctor", "--network")
    assert "Hunter2Horse" not in result.out + result.err + json.dumps(doc) + network.out + network.err


def test_a_key_in_the_model_command_is_never_printed(edgar, tmp_path):
    key = "sk-proj-" + "Ab3" * 10
    (Path(os.environ["EDGAR_HOME"]) / "config.toml").write_text(
        f'[model]\nprovider = "command"\ncommand = ["llm", "--key", "{key}", "--url=https://me:pw9@h.example"]\n'
    )
    result = edgar("--root", str(tmp_path), "doctor")
    assert "model: command: runs llm --key [REDACTED] --url=https://me:[REDACTED]@h.example" in result.out
    doc = edgar("--root", str(tmp_path), "--json", "doctor").json()
    assert key not in result.out + json.dumps(doc)
    assert "pw9" not in result.out + json.dumps(doc)


def _gone_pid():
    """The id of a process that has exited and been reaped."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    return int(done.stdout)


@pytest.mark.parametrize(
    "folder",
    [
        ".edgar/skills/deploy-notes",  # a hand skill a patch proposal was read from
        ".edgar",
        ".edgar/skills",
    ],
)
def test_doctor_removes_what_a_killed_write_left_anywhere_under_edgar(edgar, tmp_path, folder):
    pid = _gone_pid()
    where = tmp_path / folder
    where.mkdir(parents=True, exist_ok=True)
    left = where / f".SKILL.md.{pid}.140230.tmp"
    left.write_text("half a skill")
    kept = where / "notes.tmp"  # not the atomic helper's name: never touched
    kept.write_text("mine")
    result = edgar("--root", str(tmp_path), "doctor")
    assert f"removed {folder}/{left.name} (a write killed before it finished left it)" in result.out
    assert not left.exists()
    assert kept.read_text() == "mine"
    assert result.code == 0, result


def test_doctor_removes_what_a_killed_write_left_in_the_persons_own_folder(edgar, tmp_path):
    pid = _gone_pid()
    left = Path(os.environ["EDGAR_HOME"]) / "skills" / "mine" / f".SKILL.md.{pid}.1.tmp"
    left.parent.mkdir(parents=True)
    left.write_text("half")
    doc = edgar("--root", str(tmp_path), "--json", "doctor").json()
    assert doc["places"]["temp_removed"] == [str(left)]
    assert not left.exists()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads a process's state in /proc")
def test_a_killed_writer_not_yet_reaped_is_gone_and_its_temp_file_is_removed(edgar, tmp_path):
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        left = tmp_path / ".edgar" / "versions" / f".abc.{proc.pid}.1.tmp"
        left.parent.mkdir(parents=True)
        left.write_text("half")
        os.kill(proc.pid, signal.SIGKILL)
        # Killed, and not waited for: the process lingers until its parent reads its status.
        deadline = time.monotonic() + 30
        while Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
            assert time.monotonic() < deadline
        doc = edgar("--root", str(tmp_path), "--json", "doctor").json()
        assert doc["places"]["temp_removed"] == [f".edgar/versions/{left.name}"]
        assert not left.exists()
    finally:
        proc.kill()
        proc.wait()


def semif_env(monkeypatch, url, engine="openai"):
    # The person's own environment chooses the engine, as a project's config may not.
    monkeypatch.setenv("EDGAR_SEMIF_ENGINE", engine)
    monkeypatch.setenv("EDGAR_SEMIF_BASE_URL", url)
    monkeypatch.setenv("EDGAR_SEMIF_TIMEOUT_S", "10")


def test_the_default_semif_engine_is_named_and_needs_no_server(edgar, tmp_path):
    result = edgar("--root", str(tmp_path), "doctor")
    assert result.code == 0
    assert "semif: lexical; readout: lexical offline, no model" in result.out.splitlines()
    doc = edgar("--root", str(tmp_path), "--json", "doctor").json()
    assert (doc["semif"]["engine"], doc["semif"]["ok"], doc["semif"]["readout"]) == (
        "lexical", True, "lexical offline"
    )  # fmt: skip


def test_a_semif_server_that_is_down_needs_attention(edgar, tmp_path, monkeypatch):
    port = free_port()
    semif_env(monkeypatch, f"http://127.0.0.1:{port}/v1")
    result = edgar("--root", str(tmp_path), "doctor")
    assert result.code == 1
    sentence = f"semif engine openai: http://127.0.0.1:{port}/v1/chat/completions refused the connection"
    assert f"- semif: {sentence}" in result.out
    assert not result.out.endswith("healthy\n")


def test_a_semif_url_with_a_password_is_shown_without_it(edgar, tmp_path, monkeypatch):
    semif_env(monkeypatch, f"http://dana:s3cret-pw@127.0.0.1:{free_port()}/v1")
    result = edgar("--root", str(tmp_path), "doctor")
    doc = edgar("--root", str(tmp_path), "--json", "doctor")
    assert result.code == doc.code == 1
    assert "semif: openai at http://127.0.0.1:" in result.out
    assert "s3cret-pw" not in result.out + result.err + doc.out + doc.err


def test_a_semif_server_that_answers_says_its_readout_and_how_prompts_go(
    edgar, tmp_path, monkeypatch, llama_like
):
    server = llama_like
    semif_env(monkeypatch, server.url)
    result = edgar("--root", str(tmp_path), "doctor")
    assert result.code == 0, result
    (line,) = [x for x in result.out.splitlines() if x.startswith("semif:")]
    assert line.startswith(f"semif: openai at {server.url}: answered a one-token decision in ")
    assert line.endswith("readout: letter-slot logprobs; the prompts of a call go as prompt lists")
    # The server here has no `/tokenize`, so its options go by letter.
    assert [path for path, _ in server.seen] == ["/apply-template", "/tokenize", "/v1/completions"]
    server.letters = Letters(logprobs=False)
    doc = edgar("--root", str(tmp_path), "--json", "doctor").json()
    assert doc["semif"]["readout"] == "constrained answer"
    assert doc["healthy"] is True


def test_a_semif_server_elsewhere_is_asked_only_with_network(edgar, tmp_path, monkeypatch):
    semif_env(monkeypatch, "http://semif.invalid/v1")
    result = edgar("--root", str(tmp_path), "doctor")
    assert result.code == 0, result
    assert (
        "semif: openai at http://semif.invalid/v1; not asked (a server elsewhere is asked with --network)"
        in (result.out)
    )
    network = edgar("--root", str(tmp_path), "doctor", "--network")
    assert network.code == 1
    assert "- semif: semif engine openai: http://semif.invalid/v1/chat/completions could not be reached" in (
        network.out
    )


@pytest.mark.model
def test_doctor_asks_the_real_semif_server(edgar, tmp_path, monkeypatch, llama_server):
    semif_env(monkeypatch, llama_server.base_url)
    monkeypatch.setenv("EDGAR_SEMIF_TIMEOUT_S", "120")
    doc = edgar("--root", str(tmp_path), "--json", "doctor").json()
    assert doc["semif"]["ok"] is True, doc["semif"]
    assert (doc["semif"]["readout"], doc["semif"]["transport"]) == ("option-id logprobs", "prompt lists")
