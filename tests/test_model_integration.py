"""The openai provider against a real llama.cpp server (xllamacpp + SmolLM2-135M).

A 135M model may well write nonsense: these tests hold the protocol and the
gate's behaviour, not the quality. What the model was sent is captured at the
boundary by a small logging proxy between edgar and the server.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from conftest import start_llama, stop_llama, tree_snapshot

from edgar_min.config import ModelConfig
from edgar_min.learning.drafts import BRIEF_JSON, skill_schema
from edgar_min.learning.outline import Outline
from edgar_min.learning.turn import turn_from_json
from edgar_min.models import get_provider

pytestmark = pytest.mark.model

CANARY = "sk-canary-0c4f2e9d7b1a3e5f8a6d"


class LoggingProxy:
    """Forwards POSTs to `upstream` unchanged and keeps every request body it saw."""

    def __init__(self, upstream: str) -> None:
        self.bodies: list[dict] = []
        self.headers: list[dict] = []
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                proxy.bodies.append(json.loads(raw))
                proxy.headers.append(dict(self.headers.items()))
                request = urllib.request.Request(
                    upstream + self.path,
                    data=raw,
                    method="POST",
                    headers={"Content-Type": "application/json"},
                )
                try:
                    with urllib.request.urlopen(request, timeout=120) as response:
                        status, body = response.status, response.read()
                except urllib.error.HTTPError as exc:
                    status, body = exc.code, exc.read()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def proxy(llama_server):
    p = LoggingProxy(llama_server.root_url)
    yield p
    p.close()


def use_openai(monkeypatch, base_url: str, max_tokens: int = 96) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", CANARY)
    monkeypatch.setenv("EDGAR_MODEL_PROVIDER", "openai")
    monkeypatch.setenv("EDGAR_MODEL_NAME", "smollm2")
    monkeypatch.setenv("EDGAR_MODEL_BASE_URL", base_url)
    monkeypatch.setenv("EDGAR_MODEL_MAX_TOKENS", str(max_tokens))
    # What is held is where the reply goes, not how fast it comes: a loaded machine takes minutes.
    monkeypatch.setenv("EDGAR_MODEL_TIMEOUT_S", "900")


def test_openai_provider_completes_a_prompt(llama_server):
    config = ModelConfig(provider="openai", name="smollm2", base_url=llama_server.base_url, max_tokens=16)
    reply = get_provider(config, {}).complete("You are terse.", "Say hello.")
    assert isinstance(reply, str)
    assert reply.strip()


RECOVERED = {
    "prompt": "bump the httpx pin; my token is sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c",
    "corrections": [],
    "tools": ["shell", "edit", "shell"],
    "errors": [{"tool": "shell", "kind": "nonzero_exit", "exit_code": 1, "program": "pytest"}],
    "verification": "passed",
}


def test_learn_with_openai_ends_in_a_proposal_or_a_writer_refusal(edgar, tmp_path, proxy, monkeypatch):
    # A short answer keeps the suite quick on 2 cores; the schema's bounds follow max_tokens.
    use_openai(monkeypatch, proxy.base_url, max_tokens=400)
    turn = tmp_path / "turn.json"
    turn.write_text(json.dumps(RECOVERED))
    result = edgar("--root", str(tmp_path), "--json", "learn", str(turn))
    assert "Traceback" not in result.err
    doc = result.json()
    assert doc["triggers"] == ["recovered"]
    if doc["outcome"] == "proposed":
        assert result.code == 0
        assert edgar("--root", str(tmp_path), "skills", "validate", str(tmp_path / doc["path"])).code == 0
    else:
        # The writer said no, in a sentence, and the refusal is logged.
        assert (doc["outcome"], result.code) == ("refused", 1), doc
        assert doc["message"].startswith("refused")
        row = json.loads((tmp_path / ".edgar" / "rejections.jsonl").read_text().splitlines()[-1])
        assert row["error"] == doc["message"]
    # Exactly the outline went out: nothing else the turn file held, no secret it carried.
    (body,) = proxy.bodies
    expected = Outline.of(turn_from_json(turn.read_text()), ("recovered",)).render()
    assert body["messages"] == [
        {"role": "system", "content": BRIEF_JSON},
        {"role": "user", "content": expected},
    ]
    assert body["response_format"]["json_schema"]["schema"] == skill_schema(400).schema
    assert "sk-live-4f9a8b7c" not in json.dumps(body)
    assert body["temperature"] == 0.2
    assert {k.lower(): v for k, v in proxy.headers[0].items()}["authorization"] == f"Bearer {CANARY}"
    everything = b"".join(tree_snapshot(tmp_path).values()).decode("utf-8", "replace")
    assert CANARY not in everything + result.out + result.err


@pytest.mark.parametrize(
    "extra",
    [
        {"output": "FORBIDDEN-TOOL-OUTPUT"},
        {"errors": [{"tool": "shell", "kind": "crashed", "message": "FORBIDDEN-ERROR-MESSAGE"}]},
    ],
    ids=["output-key", "error-message"],
)
def test_a_turn_with_a_forbidden_field_never_reaches_the_model(edgar, tmp_path, proxy, monkeypatch, extra):
    use_openai(monkeypatch, proxy.base_url)
    turn = tmp_path / "turn.json"
    turn.write_text(json.dumps({**RECOVERED, **extra}))
    result = edgar("--root", str(tmp_path), "learn", str(turn))
    assert result.code == 2
    assert "turn record refused" in result.err
    assert proxy.bodies == []
    assert not (tmp_path / ".edgar").exists()


def test_server_killed_mid_request_is_a_model_error_and_a_logged_rejection(edgar, tmp_path, monkeypatch):
    server = start_llama()  # its own server: the session one must survive
    try:
        # Many tokens to write, so the kill lands while the answer is being generated.
        use_openai(monkeypatch, server.base_url, max_tokens=1500)
        turn = tmp_path / "turn.json"
        turn.write_text(json.dumps(RECOVERED))
        results = []
        worker = threading.Thread(
            target=lambda: results.append(edgar("--root", str(tmp_path), "--json", "learn", str(turn)))
        )
        worker.start()
        time.sleep(1.5)
        assert worker.is_alive(), "the model answered before it could be killed; the test cannot check a kill"
        stop_llama(server)
        worker.join(60)
        assert not worker.is_alive()
    finally:
        if server.alive():
            stop_llama(server)
    (result,) = results
    assert result.code == 1
    assert "Traceback" not in result.err
    doc = result.json()
    assert doc["outcome"] == "refused"
    assert doc["message"].startswith(f"openai provider: {server.base_url}/chat/completions") or (
        f"openai provider: the connection to {server.base_url}/chat/completions" in doc["message"]
    )
    rows = [json.loads(line) for line in (tmp_path / ".edgar" / "rejections.jsonl").read_text().splitlines()]
    assert rows[-1]["error"] == doc["message"]
    assert rows[-1]["trigger"] == "recovered"
    assert CANARY not in json.dumps(rows) + result.out + result.err
