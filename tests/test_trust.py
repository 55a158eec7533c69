"""A committed `.edgar/config.toml` sets what only the person may choose once they trust that exact file.

For each kind of key (sending data, running a program, the gate's mode, widening writes): no
effect from a cloned project's file, its effect after `edgar trust`, none again once the file
changes; and the `edgar trust` command itself.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest
from conftest import tree_snapshot
from suggestfiles import write_skills
from test_agent_loop import make_tree, run_tree
from test_models_http import CANARY, FakeAPI
from transcripts import SESSION, Claude, recorded_turns, stdin_bytes, toml_list, wait_until

from edgar_min.digests import sha256_hex
from edgar_min.layout import user_home

SENTENCE = "which take effect only once you trust this file"


@pytest.fixture
def root(tmp_path):
    r = tmp_path / "proj"
    (r / ".edgar").mkdir(parents=True)
    return r


@pytest.fixture
def api():
    server = FakeAPI()
    yield server
    server.close()


def commit(root: Path, text: str) -> None:
    """The project's config as a clone brings it."""
    (root / ".edgar" / "config.toml").write_text(text)


def edit(root: Path) -> None:
    path = root / ".edgar" / "config.toml"
    path.write_text(path.read_text() + "# edited after it was trusted\n")


def turn(root: Path, prompt: str) -> str:
    """A passing turn with a recovered failure: the gate asks the model for a skill."""
    record = {
        "prompt": prompt,
        "tools": ["shell", "edit", "shell"],
        "errors": [{"tool": "shell", "kind": "nonzero_exit", "exit_code": 1, "program": "pytest"}],
        "verification": "passed",
    }
    path = root.parent / f"{prompt.replace(' ', '-')}.json"
    path.write_text(json.dumps(record))
    return str(path)


def marker_command(marker: Path, reply: str = "") -> list[str]:
    """A program that leaves `marker` behind, then prints `reply`."""
    script = f"import pathlib, sys; pathlib.Path({str(marker)!r}).touch(); sys.stdout.write({reply!r})"
    return [sys.executable, "-c", script]


# Sending data: where turns and prompts go, with which variable's key.


def test_a_committed_model_endpoint_gets_neither_a_request_nor_a_key_until_trusted(
    edgar, root, api, monkeypatch
):
    monkeypatch.setenv("DEPLOY_TOKEN", CANARY)
    commit(
        root,
        f'[model]\nprovider = "openai"\nname = "m"\nbase_url = "{api.root}/v1"\n'
        'api_key_env = "DEPLOY_TOKEN"\n',
    )
    untrusted = edgar("--root", str(root), "--json", "learn", turn(root, "bump the httpx pin"))
    assert untrusted.code == 0, untrusted
    assert api.requests == []
    assert untrusted.json()["outcome"] == "proposed"  # by the offline writer, the default
    assert (
        f".edgar/config.toml sets model.provider, model.name, model.base_url, model.api_key_env, {SENTENCE}"
        in untrusted.err
    )

    assert edgar("--root", str(root), "trust").code == 0
    trusted = edgar("--root", str(root), "--json", "learn", turn(root, "rotate the signing keys"))
    assert len(api.requests) >= 1
    headers = {k.lower(): v for k, v in api.requests[0]["headers"].items()}
    assert headers["authorization"] == f"Bearer {CANARY}"
    assert SENTENCE not in trusted.err

    edit(root)
    sent = len(api.requests)
    changed = edgar("--root", str(root), "--json", "learn", turn(root, "refresh the lock file"))
    assert len(api.requests) == sent
    assert "(it changed since you trusted it)" in changed.err


def test_a_committed_semif_engine_never_sees_a_typed_prompt_until_trusted(edgar, root, api, monkeypatch):
    write_skills(root / ".claude" / "skills")
    monkeypatch.setenv("OPENAI_API_KEY", CANARY)
    commit(root, f'[semif]\nengine = "openai"\nmodel = "m"\nbase_url = "{api.root}/v1"\n')
    prompt = "the ci checks on my pull request are failing, figure out why and fix it"

    def prompt_hook():
        payload = {"session_id": SESSION, "cwd": str(root), "prompt": prompt}
        stdin_bytes(monkeypatch, json.dumps(payload).encode())
        return edgar("--root", str(root), "hook", "user-prompt-submit")

    assert prompt_hook().code == 0
    assert api.requests == []
    assert edgar("--root", str(root), "trust").code == 0
    assert prompt_hook().code == 0
    assert any(prompt.encode() in r["raw"] for r in api.requests)
    edit(root)
    sent = len(api.requests)
    assert prompt_hook().code == 0
    assert len(api.requests) == sent


# Running a program.


def test_a_committed_model_command_runs_only_once_trusted(edgar, root, tmp_path):
    marker = tmp_path / "model-ran"
    commit(root, f'[model]\nprovider = "command"\ncommand = {toml_list(marker_command(marker))}\n')
    edgar("--root", str(root), "learn", turn(root, "bump the httpx pin"))
    assert not marker.exists()
    assert edgar("--root", str(root), "trust").code == 0
    edgar("--root", str(root), "learn", turn(root, "rotate the signing keys"))
    assert marker.exists()
    marker.unlink()
    edit(root)
    edgar("--root", str(root), "learn", turn(root, "refresh the lock file"))
    assert not marker.exists()


def test_a_committed_check_runs_at_stop_only_once_trusted(edgar, root, tmp_path, monkeypatch):
    marker = tmp_path / "check-ran"
    commit(root, f"[check]\ncommand = {toml_list(marker_command(marker))}\n[adapters]\nhook_check = true\n")
    t = Claude()
    t.user("bump the httpx pin and make the tests pass")
    t.tool("t1", "Bash", {"command": "pytest -x tests"})
    t.result("t1", "Exit code 1\nFAILED tests/test_http.py", is_error=True)
    t.tool("t2", "Bash", {"command": "pytest -x tests"})
    t.result("t2", "3 passed")
    transcript = t.write(tmp_path / "t.jsonl")

    def stop():
        stdin_bytes(
            monkeypatch, json.dumps({"session_id": SESSION, "transcript_path": str(transcript)}).encode()
        )
        return edgar("--root", str(root), "--json", "hook", "stop")

    untrusted = stop()
    assert untrusted.code == 0
    assert not marker.exists()
    assert "recovered" not in untrusted.json()["triggers"]  # it needs a passing check
    assert f"sets check.command, adapters.hook_check, {SENTENCE}" in untrusted.err
    assert edgar("--root", str(root), "trust").code == 0
    trusted = stop()
    # The check runs after the hook has answered; the turn is learned when its verdict is in.
    assert trusted.json()["outcome"] == "checking"
    assert wait_until(lambda: marker.exists() and len(recorded_turns(root)) == 2)
    assert recorded_turns(root)[-1][4:] == ["passed", "-", "recovered"]
    marker.unlink()
    edit(root)
    stop()
    assert not wait_until(marker.exists, seconds=2)


# The gate's mode.


def test_a_committed_auto_mode_writes_no_learned_skill_until_trusted(edgar, root):
    commit(root, '[skills]\nsynthesis = "auto"\n')
    untrusted = edgar("--root", str(root), "--json", "learn", turn(root, "bump the httpx pin"))
    assert untrusted.json()["outcome"] == "proposed"
    assert "skills.synthesis is 'auto'" not in untrusted.err
    assert "sets skills.synthesis, which takes effect only once you trust this file" in untrusted.err
    assert edgar("--root", str(root), "trust").code == 0
    trusted = edgar("--root", str(root), "--json", "learn", turn(root, "rotate the signing keys"))
    assert trusted.json()["outcome"] == "learned"
    assert "skills.synthesis is 'auto'" in trusted.err  # the person chose it: warned as ever
    edit(root)
    changed = edgar("--root", str(root), "--json", "learn", turn(root, "refresh the lock file"))
    assert changed.json()["outcome"] == "proposed"


def test_a_committed_switch_off_is_the_persons_to_make_too(edgar, root):
    commit(root, "[controller]\nenabled = false\n")
    assert (
        edgar("--root", str(root), "--json", "learn", turn(root, "bump the pin")).json()["outcome"]
        == "proposed"
    )
    assert edgar("--root", str(root), "trust").code == 0
    assert edgar("--root", str(root), "--json", "learn", turn(root, "rotate keys")).json()["outcome"] == "off"


# Widening what is written.


def test_a_committed_writable_folder_widens_no_write_until_trusted(edgar, tmp_path):
    root = make_tree(
        tmp_path,
        "Path(ctx.config['data'], 'categories.json').write_text('{}')\n"
        "return ActionResult(action_log='rewrote the tree', new_state='done')\n",
    )
    (root / ".edgar").mkdir()
    commit(root, '[agent]\nwritable = ["data"]\n')
    original = (root / "data/categories.json").read_text()
    r, doc = run_tree(edgar, root)
    assert "refused by the run-time wall: writing" in doc["action_log"]
    assert (root / "data/categories.json").read_text() == original
    assert ".edgar/config.toml sets agent.writable, which takes effect only once" in r.err
    assert edgar("--root", str(root), "trust").code == 0
    r, doc = run_tree(edgar, root)
    assert doc["action_log"].endswith("rewrote the tree"), doc
    assert (root / "data/categories.json").read_text() == "{}"
    (root / "data/categories.json").write_text(original)
    edit(root)
    r, doc = run_tree(edgar, root)
    assert "refused by the run-time wall: writing" in doc["action_log"]
    assert (root / "data/categories.json").read_text() == original


# The command.


def test_trust_records_the_digest_privately_and_says_what_it_enables(edgar, root):
    commit(root, '[check]\ncommand = ["make", "test"]\n[suggest]\nmax_skills = 3\n')
    result = edgar("--root", str(root), "trust")
    assert result.code == 0, result
    assert result.out.startswith("trusted .edgar/config.toml (sha256 ")
    assert "it now sets check.command." in result.out
    assert "max_skills" not in result.out
    record = Path(user_home()) / "trusted.json"
    assert stat.S_IMODE(record.stat().st_mode) == 0o600
    files = json.loads(record.read_text())["files"]
    key = os.path.join(os.path.realpath(root), ".edgar", "config.toml")
    assert files[key]["sha256"] == sha256_hex((root / ".edgar" / "config.toml").read_bytes())
    doc = edgar("--root", str(root), "--json", "trust").json()
    assert doc["enables"] == ["check.command"]
    assert doc["trusted"] is True


def test_trust_without_a_project_config_says_so_and_writes_nothing(edgar, tmp_path):
    home = Path(user_home())
    before = tree_snapshot(tmp_path), tree_snapshot(home)
    result = edgar("--root", str(tmp_path), "trust")
    assert result.code == 1
    assert f"there is no .edgar/config.toml in {tmp_path}: nothing to trust" in result.err
    assert (tree_snapshot(tmp_path), tree_snapshot(home)) == before


def test_a_config_with_nothing_to_trust_records_nothing(edgar, root):
    commit(root, "[skills]\nmin_tool_calls = 2\n")
    result = edgar("--root", str(root), "trust")
    assert result.code == 0
    assert "sets no key that needs trust: it applies in full as it is, so nothing was recorded" in result.out
    assert not (Path(user_home()) / "trusted.json").exists()


def test_a_broken_config_is_not_trusted(edgar, root):
    commit(root, '[check]\ncommand = "make test"\n')
    result = edgar("--root", str(root), "trust")
    assert result.code == 2
    assert "check.command must be a list of strings" in result.err
    assert not (Path(user_home()) / "trusted.json").exists()


def test_revoke_withdraws_the_trust(edgar, root, tmp_path):
    marker = tmp_path / "model-ran"
    commit(root, f'[model]\nprovider = "command"\ncommand = {toml_list(marker_command(marker))}\n')
    assert edgar("--root", str(root), "trust").code == 0
    result = edgar("--root", str(root), "trust", "--revoke")
    assert result.code == 0
    assert "is no longer trusted" in result.out
    learn = edgar("--root", str(root), "learn", turn(root, "bump the httpx pin"))
    assert not marker.exists()
    assert SENTENCE in learn.err
    assert "changed since" not in learn.err
    again = edgar("--root", str(root), "--json", "trust", "--revoke")
    assert again.json()["revoked"] is False


def test_a_trust_record_edgar_cannot_read_is_left_alone(edgar, root):
    commit(root, '[check]\ncommand = ["make", "test"]\n')
    record = Path(user_home()) / "trusted.json"
    record.write_text("my notes, not JSON")
    result = edgar("--root", str(root), "trust")
    assert result.code == 2
    assert f"{record} is not JSON; edgar keeps its trust record there" in result.err
    assert record.read_text() == "my notes, not JSON"
    doctor = edgar("--root", str(root), "--json", "doctor").json()
    assert doctor["trust"]["untrusted"] == ["check.command"]


def test_a_link_to_a_config_trusted_elsewhere_is_not_trusted(edgar, tmp_path):
    mine = tmp_path / "mine"
    (mine / ".edgar").mkdir(parents=True)
    commit(mine, '[check]\ncommand = ["make", "test"]\n')
    assert edgar("--root", str(mine), "trust").code == 0
    cloned = tmp_path / "cloned"
    cloned.mkdir()
    (cloned / ".edgar").symlink_to(mine / ".edgar")
    doc = edgar("--root", str(cloned), "--json", "doctor").json()
    assert doc["check"].startswith("declared check: none")
    assert doc["trust"]["untrusted"] == ["check.command"]
    assert edgar("--root", str(mine), "--json", "doctor").json()["trust"]["untrusted"] == []


def test_a_project_whose_config_is_the_persons_own_needs_no_trust(edgar, tmp_path, monkeypatch):
    monkeypatch.setenv("EDGAR_HOME", str(tmp_path / ".edgar"))
    (tmp_path / ".edgar").mkdir()
    commit(tmp_path, '[skills]\nsynthesis = "off"\n')
    result = edgar("--root", str(tmp_path), "trust")
    assert result.code == 0
    assert "is your own config" in result.out
    doc = edgar("--root", str(tmp_path), "--json", "doctor").json()
    assert doc["synthesis"]["mode"] == "off"
    assert doc["trust"]["untrusted"] == []
