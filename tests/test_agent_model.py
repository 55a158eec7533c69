"""`edgar run` on the example tree with the openai engine on a real llama.cpp server.

Whatever a 135M model picks, the loop must finish, log every decision with
its phase and run id, keep the request when nothing acted, and write only
under the writable folder.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import tree_snapshot

pytestmark = pytest.mark.model

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "tree"


def test_run_on_the_example_tree_with_the_real_engine(edgar, tmp_path, llama_server):
    shutil.copytree(EXAMPLE, tmp_path, dirs_exist_ok=True)
    before = tree_snapshot(tmp_path)
    text = "write an email to bob about the boiler repair"
    r = edgar(
        "--root", str(tmp_path), "--json",
        "--set", "semif.engine=openai", "--set", f"semif.base_url={llama_server.base_url}",
        "run", text,
    )  # fmt: skip
    assert r.code in (0, 1), r
    doc = r.json()
    assert doc["acted"] is (r.code == 0)
    if not doc["acted"]:
        assert doc["new_state"] == text
        assert doc["action_log"]
    rows = []
    for path in (tmp_path / ".edgar/decisions").glob("*.jsonl"):
        rows += [json.loads(x) for x in path.read_text().splitlines()]
    assert rows, "every run decides at least the category"
    assert {row["run_id"] for row in rows} == {doc["run_id"]}
    assert {row["engine"] for row in rows} == {"openai"}
    phases = [row["phase"] for row in rows]
    assert phases[0] == "navigate:category"
    assert set(phases) <= {"navigate:category", "navigate:leaf", "predict", "act", "assess"}
    for row in rows:
        assert abs(sum(row["probabilities"]) - 1) < 1e-5  # rows keep 6 decimals
        assert row["selected"] in [o["id"] for o in row["options"]]
    assert doc["engine_calls"] <= 4  # email.compose's cost_budget
    changed = {k for k, v in tree_snapshot(tmp_path).items() if before.get(k) != v}
    assert all(k.startswith((".edgar/decisions/", "data/drafts/")) for k in changed), changed


def test_generate_in_auto_with_a_real_model_installs_only_what_passes_acceptance(
    edgar, tmp_path, llama_server
):
    from edgar_min.agent.acceptance import check_body
    from edgar_min.agent.tree import load_registry

    shutil.copytree(EXAMPLE, tmp_path, dirs_exist_ok=True)
    before = tree_snapshot(tmp_path)
    r = edgar(
        "--root", str(tmp_path), "--json",
        "--set", "skills.synthesis=auto", "--set", "model.provider=openai", "--set", "model.name=local",
        "--set", f"model.base_url={llama_server.base_url}", "--set", "model.max_tokens=120",
        "--set", "model.timeout_s=120",
        "skills", "generate", "email.reply",
        "--description", "Draft a reply to the last email from a contact.",
    )  # fmt: skip
    assert r.code in (0, 1), r
    assert "Traceback" not in r.err
    body = tmp_path / "data/skills/email/reply.py"
    if r.code == 0:
        registry = load_registry(tmp_path / "data/categories.json")
        manifest = registry.find("email.reply")
        assert check_body(body.read_text(), str(body), manifest, registry) == []
    else:
        # Whatever the model answered, a refused reply leaves the tree as it was: only the
        # rejection log is new (the reply is kept for a person in their state folder).
        changed = {k for k, v in tree_snapshot(tmp_path).items() if before.get(k) != v}
        assert changed <= {".edgar/rejections.jsonl"}, changed
        assert not body.exists()
