"""The HTTP engines' wire formats.

The openai engine is tested against the real llama.cpp server in
test_semif_openai_model.py. No Anthropic API and no SemIf decision model can
run here, so those two engines are checked against a small local HTTP server
that answers in their documented shapes (and systemone also against the real
llama.cpp server, which refuses: its model is not a decision model).
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from edgar_min.config import SemifConfig
from edgar_min.errors import ConfigError, ModelError
from edgar_min.semif import DecisionRequest, Option, get_engine

REQ = DecisionRequest(
    "the boiler is broken", "Who to call?", [Option("alice", "lead"), Option("bob", "landlord")]
)


@pytest.fixture
def server():
    """A local server: set `.reply` (JSON-able); `.seen` holds (path, headers, body) of each request."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            state.seen.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
            data = json.dumps(state.reply).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    httpd = HTTPServer(("127.0.0.1", 0), Handler)
    state = type("State", (), {"reply": {}, "seen": [], "url": f"http://127.0.0.1:{httpd.server_port}"})()
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield state
    httpd.shutdown()
    httpd.server_close()


def test_anthropic_forced_tool_choice_with_an_enum(server):
    server.reply = {"content": [{"type": "tool_use", "name": "choose", "input": {"choice": "bob"}}]}
    engine = get_engine(
        SemifConfig(engine="anthropic", base_url=server.url), {"ANTHROPIC_API_KEY": "sk-test"}
    )
    result = engine.call(REQ)
    assert result.selected == "bob"
    assert result.probs == {"alice": 0.0, "bob": 1.0}
    assert "no probabilities" in result.extra["probability_status"]
    path, headers, body = server.seen[0]
    assert path == "/v1/messages"
    assert headers["x-api-key"] == "sk-test"
    assert body["tool_choice"] == {"type": "tool", "name": "choose"}
    assert body["tools"][0]["input_schema"]["properties"]["choice"]["enum"] == ["alice", "bob"]


def test_anthropic_without_a_key_is_a_config_sentence():
    with pytest.raises(ConfigError, match="the environment variable ANTHROPIC_API_KEY is not set"):
        get_engine(SemifConfig(engine="anthropic"), {})


def test_anthropic_choice_outside_the_ids_is_a_model_error(server):
    server.reply = {"content": [{"type": "tool_use", "input": {"choice": "mallory"}}]}
    engine = get_engine(SemifConfig(engine="anthropic", base_url=server.url), {"ANTHROPIC_API_KEY": "k"})
    with pytest.raises(ModelError, match="without choosing one of the option ids"):
        engine.call(REQ)


@pytest.mark.parametrize(
    "reply",
    [
        {"probabilities": [1.0, 3.0]},
        {"probabilities": {"bob": 0.75, "alice": 0.25}},
        {"options": [{"id": "alice", "probability": 0.25}, {"id": "bob", "probability": 0.75}]},
    ],
)
def test_systemone_reads_probabilities_in_each_shape(server, reply):
    server.reply = reply
    engine = get_engine(SemifConfig(engine="systemone", base_url=server.url + "/v1"), {})
    result = engine.call(REQ)
    assert result.probs == {"alice": 0.25, "bob": 0.75}
    path, _, body = server.seen[0]
    assert path == "/v1/systemone"
    assert body["question"]["type"] == "choice"
    assert [o["id"] for o in body["question"]["options"]] == ["alice", "bob"]


def test_systemone_reply_without_probabilities_is_a_model_error(server):
    server.reply = {"probabilities": [1.0]}
    engine = get_engine(SemifConfig(engine="systemone", base_url=server.url), {})
    with pytest.raises(ModelError, match="without a probability for each option"):
        engine.call(REQ)


def test_openai_server_without_logprobs_falls_back_to_a_constrained_answer(server):
    # A server that ignores `logprobs` (some hosted ones do) answers the letter
    # call with text only; the engine then asks under a JSON-schema enum.
    server.reply = {"choices": [{"message": {"content": '{"choice": "B"}'}}]}
    engine = get_engine(SemifConfig(engine="openai", base_url=server.url + "/v1"), {})
    result = engine.call(REQ)
    assert result.selected == "bob"
    assert result.probabilities == (0.0, 1.0)
    assert "constrained answer" in result.extra["probability_status"]
    assert "no logprobs" in result.extra["probability_status"]
    first, second = server.seen[0][2], server.seen[1][2]
    assert (first["max_tokens"], first["top_logprobs"], first["logprobs"]) == (1, 20, True)
    assert second["response_format"]["json_schema"]["schema"]["properties"]["choice"]["enum"] == ["A", "B"]


def test_unreachable_engine_is_a_sentence_naming_the_url():
    engine = get_engine(SemifConfig(engine="openai", base_url="http://127.0.0.1:9/v1", timeout_s=2), {})
    with pytest.raises(ModelError, match=r"semif engine openai: http://127.0.0.1:9/v1/chat/completions"):
        engine.call(REQ)


def test_unknown_engine_in_config_is_a_config_error(edgar, tmp_path):
    r = edgar("--root", str(tmp_path), "--set", "semif.engine=magic",
              "decide", "--state", "s", "--question", "q",
              "--option", "a")  # fmt: skip
    assert r.code == 2
    assert "semif.engine must be one of lexical, openai, systemone, anthropic" in r.err
