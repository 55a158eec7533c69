"""Synthesis on the real llama.cpp server (xllamacpp + SmolLM2-135M): every reply reaches the content walls.

A 135M model writes poor skills; that is not what is held here. Asked under the schema, its
reply always has the skill's shape, so each outcome is a proposal the validator accepts or a
refusal by one of the writer's content walls, with its sentence, and the refused reply kept.
"""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.model

SHAPE_SENTENCES = ("no 'name:' line", "no 'description:' line", "missing section", "out of order", "is empty")
CONTENT_SENTENCES = (
    "names a URL", "absolute or home path", "long hex or base64 id", "names a file or path the turn named",
    "copies a value from the request", "repeats", "almost no text", "only restate the request",
    "mostly echoes the outline", "starts with", "does not say the job", "holds a value", "may use only",
    "near-duplicate", "is longer than", "words joined by hyphens", "Pitfalls does not name the failure",
    "Verification does not name the project's declared check",
)  # fmt: skip

TURNS = [
    {"prompt": "bump the httpx pin", "tools": ["shell", "edit", "shell"],
     "errors": [{"tool": "shell", "kind": "nonzero_exit", "exit_code": 1, "program": "pytest"}]},
    {"prompt": "fix the flaky date test", "corrections": ["no, freeze the clock instead of sleeping"],
     "tools": ["search", "read", "edit", "shell", "shell"]},
    {"prompt": "make the docker build use the cache again",
     "tools": ["read", "edit", "shell", "shell", "shell"],
     "errors": [{"tool": "shell", "kind": "timeout", "exit_code": None, "program": "docker"}]},
]  # fmt: skip


@pytest.mark.parametrize("record", TURNS, ids=["recovered", "correction", "timeout"])
def test_every_reply_reaches_the_content_walls(edgar, tmp_path, llama_server, monkeypatch, record):
    monkeypatch.setenv("EDGAR_MODEL_PROVIDER", "openai")
    monkeypatch.setenv("EDGAR_MODEL_NAME", "smollm2")
    monkeypatch.setenv("EDGAR_MODEL_BASE_URL", llama_server.base_url)
    monkeypatch.setenv("EDGAR_MODEL_MAX_TOKENS", "512")
    # A loaded machine (CI beside other work) can take minutes for 512 tokens: what is held here is
    # where the reply goes, not how fast it comes.
    monkeypatch.setenv("EDGAR_MODEL_TIMEOUT_S", "900")
    turn = tmp_path / "turn.json"
    turn.write_text(json.dumps({**record, "verification": "passed"}))
    result = edgar("--root", str(tmp_path), "--json", "learn", str(turn))
    doc = result.json()
    assert "did not answer" not in doc["message"], doc
    assert not any(words in doc["message"] for words in SHAPE_SENTENCES), doc
    if doc["outcome"] == "proposed":
        assert edgar("--root", str(tmp_path), "skills", "validate", str(tmp_path / doc["path"])).code == 0
        return
    assert doc["outcome"] == "refused", doc
    assert doc["message"].startswith("refused ")
    assert any(words in doc["message"] for words in CONTENT_SENTENCES), doc
    (kept,) = edgar("--root", str(tmp_path), "--json", "skills", "rejections").json()["rejections"]
    assert kept["sentence"] == doc["message"]
    assert json.loads(kept["reply"])  # the reply was one JSON object under the schema
