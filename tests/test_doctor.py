"""`edgar doctor [--network]`: what a person needs to know, exit 0 healthy / 1 needs attention."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import free_port, tree_snapshot
from test_models_http import CANARY, FakeAPI


@pytest.fixture
def api():
    server = FakeAPI()
    yield server
    server.close()


def config(root, text):
    (root / ".edgar").mkdir(exist_ok=True)
    (root / ".edgar" / "config.toml").write_text(text)


def skill(root, folder, name, description="Does a thing."):
    path = root / folder / name / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(f"---\nname: {name}\ndescription: {description}\n---\n\nProse.\n")
    return path


def test_an_empty_project_is_healthy_and_doctor_writes_nothing(edgar, tmp_path):
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
        "network",
    }
    assert doc["synthesis"] == {"mode": "propose", "warning": None}
    assert doc["network"] is None


def test_auto_mode_says_its_risk(edgar, tmp_path):
    config(tmp_path, '[skills]\nsynthesis = "auto"\n')
    result = edgar("--root", str(tmp_path), "doctor")
    assert result.code == 0
    assert "synthesis: auto (skills from passing turns are written into .edgar/skills/learned/" in result.out
    assert "warning: skills.synthesis is 'auto'" in result.err
    doc = edgar("--root", str(tmp_path), "--json", "doctor").json()
    assert "with no review" in doc["synthesis"]["warning"]


def test_controller_off_says_learning_is_inert(edgar, tmp_path):
    config(tmp_path, "[controller]\nenabled = false\n")
    result = edgar("--root", str(tmp_path), "doctor")
    assert (
        "controller: off; the controller is switched off (controller.enabled = false): learning is inert"
        in (result.out)
    )


def test_layers_are_listed_lowest_first(edgar, tmp_path, monkeypatch):
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
    config(tmp_path, '[model]\nprovider = "openai"\nname = "local"\nbase_url = "http://127.0.0.1:9/v1"\n')
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
    )
    result = edgar("--root", str(tmp_path), "doctor")
    assert result.code == 1
    assert "TEAM_KEY, but that environment variable is not set" in result.out


def test_base_url_without_scheme_needs_attention(edgar, tmp_path):
    config(tmp_path, '[model]\nprovider = "openai"\nname = "m"\nbase_url = "localhost:8080/v1"\n')
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
    config(tmp_path, f'[model]\nprovider = "openai"\nname = "m"\nbase_url = "{api.root}/v1"\n')
    result = edgar("--root", str(tmp_path), "doctor", "--network")
    assert result.code == 0, result
    assert "network: ok: answered in" in result.out
    assert len(api.requests) == 1


@pytest.mark.parametrize("mode", ["401", "refused"])
def test_network_failure_needs_attention_and_never_shows_the_key(edgar, tmp_path, api, monkeypatch, mode):
    monkeypatch.setenv("OPENAI_API_KEY", CANARY)
    port = api.port if mode != "refused" else free_port()
    api.mode = mode
    config(tmp_path, f'[model]\nprovider = "openai"\nname = "m"\nbase_url = "http://127.0.0.1:{port}/v1"\n')
    result = edgar("--root", str(tmp_path), "doctor", "--network")
    assert result.code == 1
    assert "network: failed: openai provider:" in result.out
    doc = edgar("--root", str(tmp_path), "--json", "doctor", "--network")
    assert doc.code == 1
    assert CANARY not in result.out + result.err + doc.out + doc.err


def test_doctor_without_network_makes_no_request(edgar, tmp_path, api, monkeypatch):
    config(tmp_path, f'[model]\nprovider = "openai"\nname = "m"\nbase_url = "{api.root}/v1"\n')
    assert edgar("--root", str(tmp_path), "doctor").code == 0
    assert api.requests == []


def test_doctor_shows_the_declared_check(edgar, tmp_path):
    assert "declared check: none" in edgar("--root", str(tmp_path), "doctor").out
    config(tmp_path, '[check]\ncommand = ["python3", "-m", "pytest", "-q"]\ntimeout_s = 120\n')
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
