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
from pathlib import Path

import pytest
from transcripts import trust_config

from edgar_min.config import SemifConfig
from edgar_min.errors import ConfigError, ModelError
from edgar_min.semif import DecisionRequest, Option, get_engine

REQ = DecisionRequest(
    "the boiler is broken", "Who to call?", [Option("alice", "lead"), Option("bob", "landlord")]
)


@pytest.fixture
def server():
    """A local server: set `.reply` (JSON-able, or a function of the request body); `.seen` holds
    (path, headers, body) of each request."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            state.seen.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
            reply = state.reply(body) if callable(state.reply) else state.reply
            data = json.dumps(reply).encode()
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


JEV = json.loads((Path(__file__).parent / "fixtures" / "semif" / "jev-systemone.json").read_text())


def systemone(server):
    return get_engine(SemifConfig(engine="systemone", base_url=server.url + "/v1"), {})


def test_systemone_speaks_the_jev_format(server):
    # The documented reply to a choice question, served as the answer to edgar's first question.
    server.reply = {"model": "jev-1.13.0", "answers": {"q1": JEV["reply"]["answers"]["urgency"]}}
    decision = DecisionRequest(
        JEV["request"]["state"],
        "How urgent is this?",
        [Option("low", "can wait a week"), Option("high", "needs action today")],
    )
    result = systemone(server).call(decision)
    assert result.probs == {"low": 0.0, "high": 1.0}
    assert result.extra["confidence"] == 1.0
    path, _, body = server.seen[0]
    assert path == "/v1/systemone"
    assert body["state"] == JEV["request"]["state"]
    assert body["questions"] == {"q1": JEV["request"]["questions"]["urgency"]}


def answer_each(body):
    """A server answering every choice question, favouring its last label 3:1."""
    answers = {}
    for name, question in body["questions"].items():
        labels = list(question["criteria"])
        answers[name] = {
            "type": "choice",
            "choice": labels[-1],
            "probabilities": {label: (3.0 if label == labels[-1] else 1.0) for label in labels},
        }
    return {"answers": answers}


def test_systemone_sends_questions_over_one_state_together(server):
    from edgar_min.semif.systemone import MAX_PER_REQUEST

    server.reply = answer_each
    decisions = [
        DecisionRequest("one ticket", f"Question {i}?", [Option("a"), Option(f"b{i}")]) for i in range(12)
    ]
    results = systemone(server).call_many(decisions)
    assert [r.selected for r in results] == [f"b{i}" for i in range(12)]
    assert results[0].probs == {"a": 0.25, "b0": 0.75}
    assert [len(body["questions"]) for _, _, body in server.seen] == [MAX_PER_REQUEST, 12 - MAX_PER_REQUEST]
    first = server.seen[0][2]["questions"]
    assert list(first) == [f"q{i}" for i in range(1, 11)]
    assert first["q3"] == {
        "type": "choice",
        "instructions": "Question 2?",
        "criteria": {"a": None, "b2": None},
    }
    assert {r.prompt_order for r in results} == {"state_first"}


def test_systemone_starts_a_new_request_for_a_new_state(server):
    server.reply = answer_each
    decisions = [DecisionRequest(s, "Q?", [Option("a"), Option("b")]) for s in ("one", "one", "two")]
    systemone(server).call_many(decisions)
    assert [(body["state"], len(body["questions"])) for _, _, body in server.seen] == [("one", 2), ("two", 1)]


@pytest.mark.parametrize(
    ("reply", "sentence"),
    [
        ({"probabilities": [0.25, 0.75]}, "answered without an 'answers' object"),
        ({"answers": {"q1": {"type": "choice", "probabilities": {"alice": 1.0}}}},
         "answered q1 without a probability for each option"),
        ({"answers": {"q1": {"type": "choice", "probabilities": {"alice": 0, "bob": 0}}}},
         "gave every option of q1 probability 0"),
        ({"answers": {"q1": {"type": "choice", "probabilities": {"alice": True, "bob": 1}}}},
         "answered q1 without a probability for each option"),
    ],
)  # fmt: skip
def test_systemone_reply_out_of_shape_is_a_model_error(server, reply, sentence):
    server.reply = reply
    with pytest.raises(ModelError, match=sentence):
        systemone(server).call(REQ)


def test_anthropic_answers_several_questions_with_one_forced_tool(server):
    server.reply = {"content": [{"type": "tool_use", "name": "choose", "input": {"q1": "bob", "q2": "no"}}]}
    engine = get_engine(SemifConfig(engine="anthropic", base_url=server.url), {"ANTHROPIC_API_KEY": "k"})
    second = DecisionRequest(REQ.state, "Urgent?", [Option("yes"), Option("no")])
    results = engine.call_many([REQ, second])
    assert [r.selected for r in results] == ["bob", "no"]
    assert results[1].probs == {"yes": 0.0, "no": 1.0}
    assert len(server.seen) == 1
    body = server.seen[0][2]
    schema = body["tools"][0]["input_schema"]
    assert schema["properties"] == {
        "q1": {"type": "string", "enum": ["alice", "bob"]},
        "q2": {"type": "string", "enum": ["yes", "no"]},
    }
    assert schema["required"] == ["q1", "q2"]
    assert body["tool_choice"] == {"type": "tool", "name": "choose"}
    assert body["messages"][0]["content"].startswith("Evidence:\nthe boiler is broken\n\nQuestions:")
    server.reply = {"content": [{"type": "tool_use", "name": "choose", "input": {"q1": "bob"}}]}
    with pytest.raises(ModelError, match="answered q2 with none of its option ids"):
        engine.call_many([REQ, second])


def letter_reply(body):
    """A server that favours the last letter offered, with logprobs as llama.cpp gives them."""
    text = body["messages"][1]["content"]
    letters = text.rsplit("(", 1)[1].rstrip(").").split(", ")
    top = [{"token": x, "logprob": -0.1 if x == letters[-1] else -2.5} for x in letters]
    return {
        "choices": [{"message": {"content": letters[-1]}, "logprobs": {"content": [{"top_logprobs": top}]}}]
    }


def test_openai_call_many_puts_the_state_first_in_every_request(server):
    server.reply = letter_reply
    engine = get_engine(SemifConfig(engine="openai", base_url=server.url + "/v1"), {})
    second = DecisionRequest(REQ.state, "Urgent?", [Option("yes"), Option("no"), Option("later")])
    results = engine.call_many([REQ, second])
    assert [r.selected for r in results] == ["bob", "later"]
    users = [body["messages"][1]["content"] for _, _, body in server.seen]
    assert [u.split("\n\n")[0] for u in users] == ["Evidence:\nthe boiler is broken"] * 2
    assert {r.prompt_order for r in results} == {"state_first"}
    assert engine.call(REQ).prompt_order == "options_first"
    assert server.seen[-1][2]["messages"][1]["content"].startswith("Criterion: Who to call?")


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


def test_openai_call_many_falls_back_to_a_constrained_answer_with_the_state_first(server):
    server.reply = {"choices": [{"message": {"content": '{"choice": "A"}'}}]}
    engine = get_engine(SemifConfig(engine="openai", base_url=server.url + "/v1"), {})
    (result,) = engine.call_many([REQ])
    assert result.selected == "alice"
    assert "constrained answer" in result.extra["probability_status"]
    assert result.prompt_order == "state_first"
    second = server.seen[1][2]
    assert second["messages"][1]["content"].startswith("Evidence:\nthe boiler is broken")
    assert "response_format" in second


KEY = "ghp_" + "k" * 36


def _keyed_root(tmp_path, server, monkeypatch):
    """A project whose decisions go to the Anthropic engine at the recording server."""
    # One answer, `choice` for one question and `q1`, `q2` for a batch.
    answer = {"choice": "deploy", "q1": "deploy", "q2": "deploy"}
    server.reply = {"content": [{"type": "tool_use", "name": "choose", "input": answer}]}
    (tmp_path / ".edgar").mkdir()
    (tmp_path / ".edgar" / "config.toml").write_text(
        f'[semif]\nengine = "anthropic"\nbase_url = "{server.url}"\n'
    )
    trust_config(tmp_path, tmp_path / "home")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    return tmp_path


def _assert_key_reached_no_one(root, server):
    assert server.seen, "the engine was never asked"
    assert all(KEY not in json.dumps(body) for _, _, body in server.seen)
    assert any("[REDACTED]" in json.dumps(body) for _, _, body in server.seen)
    logged = b"".join(p.read_bytes() for p in (root / ".edgar").rglob("*") if p.is_file())
    assert b"[REDACTED]" in logged
    assert KEY.encode() not in logged


def test_the_cli_decide_redacts_state_question_and_options(edgar, tmp_path, server, monkeypatch):
    root = _keyed_root(tmp_path, server, monkeypatch)
    r = edgar(
        "--root", str(root), "--json", "decide", "--state", f"deploy failed, GITHUB_TOKEN={KEY}",
        "--question", f"retry with token {KEY}?", "--option", f"deploy=push with --token {KEY}",
        "--option", "wait=do nothing",
    )  # fmt: skip
    assert r.code == 0, r
    assert r.json()["selected"] == "deploy"
    _assert_key_reached_no_one(root, server)


def test_the_cli_decide_with_several_questions_redacts_each(edgar, tmp_path, server, monkeypatch):
    root = _keyed_root(tmp_path, server, monkeypatch)
    r = edgar(
        "--root", str(root), "--json", "decide", "--state", f"password={KEY}",
        "--question", "first?", "--option", "deploy=go", "--option", "wait=stop",
        "--question", f"second, api_key={KEY}?", "--option", "deploy=go", "--option", f"wait=token {KEY}",
    )  # fmt: skip
    assert r.code == 0, r
    _assert_key_reached_no_one(root, server)


def test_the_mcp_decide_tool_redacts(tmp_path, server, monkeypatch):
    from edgar_min.config import load_config
    from edgar_min.layout import Layout
    from edgar_min.mcp.server import Server

    root = _keyed_root(tmp_path, server, monkeypatch)
    layout = Layout(root, tmp_path / "home")
    mcp = Server(layout, lambda: load_config(layout))
    arguments = {
        "state": f"the secret is {KEY}",
        "question": "what now?",
        "options": [{"id": "deploy", "description": f"use {KEY}"}, {"id": "wait"}],
    }
    answer = mcp.handle(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "decide", "arguments": arguments},
        }
    )
    assert not answer["result"].get("isError"), answer
    _assert_key_reached_no_one(root, server)


def test_the_library_decide_and_decide_many_redact(tmp_path, server, monkeypatch):
    from edgar_min.config import load_config
    from edgar_min.layout import Layout
    from edgar_min.semif import decide, decide_many

    root = _keyed_root(tmp_path, server, monkeypatch)
    layout = Layout(root, tmp_path / "home")
    config = load_config(layout)
    options = [("deploy", f"token {KEY}"), ("wait", "")]
    assert decide(layout, config, f"AWS secret {KEY}", "go?", options).selected == "deploy"
    results = decide_many(layout, config, f"token: {KEY}", [(f"go with {KEY}?", options), ("now?", options)])
    assert [r.selected for r in results] == ["deploy", "deploy"]
    _assert_key_reached_no_one(root, server)
