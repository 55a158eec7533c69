"""The openai and anthropic providers against a stdlib HTTP server that checks their requests.

The server in this file holds each request to what the real APIs require
(OpenAI chat completions: `POST /v1/chat/completions`, `Authorization: Bearer`,
`model` + `messages`; Anthropic Messages: `POST /v1/messages`, `x-api-key`,
`anthropic-version`, `model` + `max_tokens` + `messages` with `system` on top)
and answers in their documented response shapes, or in the broken ways a
real server can fail. A canary key is used throughout: it must never appear
in an error, a log line, a proposal, or a provider's repr.
"""

from __future__ import annotations

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from conftest import free_port, tree_snapshot

from edgar_min.config import ModelConfig
from edgar_min.errors import ConfigError, ModelError
from edgar_min.models import get_provider
from edgar_min.models.anthropic import AnthropicProvider
from edgar_min.models.openai import OpenAIProvider
from edgar_min.records import replace

CANARY = "sk-canary-7f3e9b2c4d1a8e6f0b5c"


class FakeAPI:
    """A loopback server; `mode` picks the answer, `requests` records what arrived."""

    def __init__(self) -> None:
        self.mode = "ok"
        self.reply_text = "hello from the server"
        self.requests: list[dict] = []
        api = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                record = {"path": self.path, "headers": dict(self.headers.items()), "raw": raw}
                api.requests.append(record)
                api.handle(self, record)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.root = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    @staticmethod
    def send(handler, status: int, body: bytes, ctype: str = "application/json") -> None:
        handler.send_response(status)
        handler.send_header("Content-Type", ctype)
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    def problems(self, record: dict) -> list[str]:
        """What the real API would reject in this request."""
        h = {k.lower(): v for k, v in record["headers"].items()}
        found = []
        if not h.get("content-type", "").startswith("application/json"):
            found.append("content-type is not application/json")
        try:
            body = json.loads(record["raw"])
        except ValueError:
            return [*found, "body is not JSON"]
        if not isinstance(body.get("model"), str) or not body["model"]:
            found.append("model missing")
        if not isinstance(body.get("temperature"), (int, float)):
            found.append("temperature not sent")
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            return [*found, "messages missing"]
        if record["path"] == "/v1/chat/completions":
            if h.get("authorization") != f"Bearer {CANARY}":
                found.append("Authorization: Bearer KEY missing")
            for m in messages:
                if m.get("role") not in {"system", "user", "assistant", "developer"}:
                    found.append(f"bad role {m.get('role')!r}")
                if not isinstance(m.get("content"), str):
                    found.append("content not a string")
            if not isinstance(body.get("max_tokens"), int):
                found.append("max_tokens not an integer")
        elif record["path"] == "/v1/messages":
            if h.get("x-api-key") != CANARY:
                found.append("x-api-key missing")
            if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", h.get("anthropic-version", "")):
                found.append("anthropic-version missing")
            if "authorization" in h:
                found.append("the Messages API takes x-api-key, not Authorization")
            if not isinstance(body.get("max_tokens"), int) or body["max_tokens"] < 1:
                found.append("max_tokens is required")
            if not isinstance(body.get("system"), str):
                found.append("system text belongs in the top-level 'system' field")
            found += [
                f"bad role {m.get('role')!r} (system is not a message role here)"
                for m in messages
                if m.get("role") not in {"user", "assistant"}
            ]
            if messages[0].get("role") != "user":
                found.append("the first message must be the user's")
        else:
            found.append(f"unknown path {record['path']}")
        return found

    def handle(self, handler, record: dict) -> None:
        mode = self.mode
        anthropic = record["path"] == "/v1/messages"
        if mode == "slow":
            time.sleep(3)
        if mode == "drop":
            handler.close_connection = True
            handler.connection.shutdown(2)
            return
        problems = self.problems(record)
        if problems:
            error = {"message": "; ".join(problems), "type": "invalid_request_error"}
            doc = {"type": "error", "error": error} if anthropic else {"error": error}
            self.send(handler, 400, json.dumps(doc).encode())
            return
        if mode == "401":
            # Some servers echo the key they were given: it must still never be shown.
            message = f"Incorrect API key provided: {CANARY}"
            doc = {"type": "error", "error": {"type": "authentication_error", "message": message}}
            self.send(handler, 401, json.dumps(doc if anthropic else {"error": doc["error"]}).encode())
            return
        if mode == "500":
            self.send(handler, 500, b"internal failure", "text/plain")
            return
        if mode == "html":
            self.send(handler, 200, b"<html><body>gateway</body></html>", "text/html")
            return
        if mode == "shape":
            self.send(handler, 200, json.dumps({"result": "ok"}).encode())
            return
        text = {"empty": "", "huge": "x" * 200_000}.get(mode, self.reply_text)
        model = json.loads(record["raw"])["model"]
        if anthropic:
            doc = {
                "id": "msg_01",
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": [{"type": "text", "text": text}],
                "stop_reason": "end_turn",
                "stop_sequence": None,
                "usage": {"input_tokens": 10, "output_tokens": 5},
            }
        else:
            doc = {
                "id": "chatcmpl-1",
                "object": "chat.completion",
                "created": 1764493200,
                "model": model,
                "choices": [
                    {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
                ],
                "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
            }
        self.send(handler, 200, json.dumps(doc).encode())


@pytest.fixture
def api():
    server = FakeAPI()
    yield server
    server.close()


def openai_cfg(api, **kw) -> ModelConfig:
    base = {"provider": "openai", "name": "test-model", "base_url": f"{api.root}/v1", "timeout_s": 5.0}
    return ModelConfig(**{**base, **kw})


def anthropic_cfg(api, **kw) -> ModelConfig:
    base = {"provider": "anthropic", "name": "claude-test", "base_url": api.root, "timeout_s": 5.0}
    return ModelConfig(**{**base, **kw})


ENV = {"OPENAI_API_KEY": CANARY, "ANTHROPIC_API_KEY": CANARY}


def test_openai_request_and_reply_match_the_api(api):
    provider = get_provider(openai_cfg(api, temperature=0.0), ENV)
    assert provider.complete("be brief", "say hello") == "hello from the server"
    (req,) = api.requests
    body = json.loads(req["raw"])
    assert req["path"] == "/v1/chat/completions"
    assert body["messages"] == [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": "say hello"},
    ]
    # Sent explicitly even at 0: servers differ in their defaults.
    assert body["temperature"] == 0.0
    assert body["model"] == "test-model"


def test_anthropic_request_and_reply_match_the_api(api):
    provider = get_provider(anthropic_cfg(api), ENV)
    assert provider.complete("be brief", "say hello") == "hello from the server"
    (req,) = api.requests
    body = json.loads(req["raw"])
    assert req["path"] == "/v1/messages"
    assert {k.lower(): v for k, v in req["headers"].items()}["anthropic-version"] == "2023-06-01"
    assert body["system"] == "be brief"
    assert body["messages"] == [{"role": "user", "content": "say hello"}]
    assert body["temperature"] == 0.2


def test_anthropic_base_url_with_v1_is_not_doubled(api):
    provider = get_provider(anthropic_cfg(api, base_url=f"{api.root}/v1/"), ENV)
    assert provider.complete("s", "p") == "hello from the server"
    assert api.requests[0]["path"] == "/v1/messages"


def test_anthropic_joins_text_blocks_and_skips_others(api, monkeypatch):
    def handle(handler, record):
        doc = {
            "id": "msg_02",
            "type": "message",
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "hmm", "signature": "x"},
                {"type": "text", "text": "part one, "},
                {"type": "text", "text": "part two"},
            ],
            "stop_reason": "end_turn",
        }
        FakeAPI.send(handler, 200, json.dumps(doc).encode())

    monkeypatch.setattr(api, "handle", handle)
    assert get_provider(anthropic_cfg(api), ENV).complete("s", "p") == "part one, part two"


def test_openai_local_server_needs_no_key(api):
    api.problems = lambda _record: []  # a local server that checks nothing
    provider = get_provider(openai_cfg(api), {})
    assert provider.complete("s", "p") == "hello from the server"
    headers = {k.lower() for k in api.requests[0]["headers"]}
    assert "authorization" not in headers


FAILURES = [
    ("500", "answered HTTP 500"),
    ("401", "answered HTTP 401"),
    ("html", "not JSON"),
    ("shape", "not a"),
    ("empty", "empty reply"),
    ("huge", "the cap is 64000"),
    ("drop", "connection"),
]


@pytest.mark.parametrize("cfg", [openai_cfg, anthropic_cfg], ids=["openai", "anthropic"])
@pytest.mark.parametrize(("mode", "words"), FAILURES, ids=[m for m, _ in FAILURES])
def test_failures_are_model_errors_naming_provider_and_url_never_the_key(api, cfg, mode, words):
    api.mode = mode
    provider = get_provider(cfg(api), ENV)
    with pytest.raises(ModelError) as caught:
        provider.complete("s", "p")
    sentence = caught.value.message
    assert words in sentence
    assert provider.name in sentence
    assert f"127.0.0.1:{api.port}" in sentence
    assert CANARY not in sentence
    assert CANARY not in repr(provider)
    assert "\n" not in sentence


@pytest.mark.parametrize("cfg", [openai_cfg, anthropic_cfg], ids=["openai", "anthropic"])
def test_timeout_is_a_model_error(api, cfg):
    api.mode = "slow"
    provider = get_provider(cfg(api, timeout_s=0.3), ENV)
    started = time.monotonic()
    with pytest.raises(ModelError, match=r"did not answer within 0\.3 s"):
        provider.complete("s", "p")
    assert time.monotonic() - started < 2.5


@pytest.mark.parametrize("cfg", [openai_cfg, anthropic_cfg], ids=["openai", "anthropic"])
def test_refused_connection_is_a_model_error(api, cfg):
    port = free_port()
    model = cfg(api)
    model = replace(model, base_url=model.base_url.replace(str(api.port), str(port)))
    with pytest.raises(ModelError, match="refused the connection") as caught:
        get_provider(model, ENV).complete("s", "p")
    assert str(port) in caught.value.message


def test_a_request_out_of_shape_is_refused_by_the_checking_server(api):
    """The checker is real: a request without the Bearer header gets the API's 400."""
    provider = get_provider(openai_cfg(api), {"OPENAI_API_KEY": "another-key"})
    with pytest.raises(ModelError, match="HTTP 400: Authorization: Bearer KEY missing"):
        provider.complete("s", "p")


# --- configuration ---------------------------------------------------------------------------


def test_unknown_provider_is_a_sentence():
    with pytest.raises(ConfigError, match=r"model\.provider 'nope' is not one of offline, command, openai"):
        get_provider(ModelConfig(provider="nope"), {})


def test_unknown_provider_in_config_file_exits_2_and_writes_nothing(edgar, tmp_path):
    (tmp_path / ".edgar").mkdir()
    (tmp_path / ".edgar" / "config.toml").write_text('[model]\nprovider = "nope"\n')
    turn = tmp_path / "turn.json"
    turn.write_text(json.dumps({"prompt": "x", "tools": ["shell"], "verification": "passed"}))
    before = tree_snapshot(tmp_path)
    result = edgar("--root", str(tmp_path), "learn", str(turn))
    assert result.code == 2
    assert (
        "model.provider must be one of offline, openai, anthropic, command, claude-code, not 'nope'"
        in result.err
    )
    assert "Traceback" not in result.err
    assert tree_snapshot(tmp_path) == before


@pytest.mark.parametrize("url", ["127.0.0.1:8080/v1", "localhost", "ftp://host/v1", "http://"])
def test_base_url_without_scheme_or_host_is_a_config_error(url):
    with pytest.raises(ConfigError, match="must start with http:// or https://"):
        OpenAIProvider(ModelConfig(provider="openai", name="m", base_url=url), {})
    with pytest.raises(ConfigError, match="must start with http:// or https://"):
        AnthropicProvider(ModelConfig(provider="anthropic", name="m", base_url=url), ENV)


def test_openai_base_url_order_config_then_environment():
    cfg = ModelConfig(provider="openai", name="m")
    env = {
        "OPENAI_BASE_URL": "http://a:1/v1",
        "OPENAI_API_BASE": "http://b:2/v1",
        "OLLAMA_HOST": "c:3",
    }
    assert (
        OpenAIProvider(replace(cfg, base_url="http://z:9/v1/"), env).url == "http://z:9/v1/chat/completions"
    )
    assert OpenAIProvider(cfg, env).base_url == "http://a:1/v1"
    env.pop("OPENAI_BASE_URL")
    assert OpenAIProvider(cfg, env).base_url == "http://b:2/v1"
    env.pop("OPENAI_API_BASE")
    assert OpenAIProvider(cfg, env).base_url == "http://c:3/v1"


@pytest.mark.parametrize(
    ("host", "url"),
    [
        ("127.0.0.1", "http://127.0.0.1:11434/v1"),
        ("0.0.0.0:9999", "http://0.0.0.0:9999/v1"),
        ("https://ollama.example", "https://ollama.example/v1"),
        ("http://127.0.0.1:11434/v1", "http://127.0.0.1:11434/v1"),
    ],
)
def test_ollama_host_forms(host, url):
    assert OpenAIProvider(ModelConfig(provider="openai", name="m"), {"OLLAMA_HOST": host}).base_url == url


def test_openai_without_any_base_url_says_where_to_set_one():
    with pytest.raises(ConfigError, match=r"no base URL: set model\.base_url .* or OPENAI_BASE_URL"):
        OpenAIProvider(ModelConfig(provider="openai", name="m"), {})


def test_model_name_is_required():
    with pytest.raises(ConfigError, match=r"model\.name is empty"):
        OpenAIProvider(ModelConfig(provider="openai", base_url="http://h:1/v1"), {})
    with pytest.raises(ConfigError, match=r"model\.name is empty"):
        AnthropicProvider(ModelConfig(provider="anthropic"), ENV)


def test_explicit_key_variable_unset_names_the_variable():
    cfg = ModelConfig(provider="openai", name="m", base_url="http://h:1/v1", api_key_env="MY_LLM_KEY")
    with pytest.raises(ConfigError, match="MY_LLM_KEY, but that environment variable is not set"):
        OpenAIProvider(cfg, {"OPENAI_API_KEY": CANARY})
    assert OpenAIProvider(cfg, {"MY_LLM_KEY": CANARY}).has_key


def test_anthropic_key_unset_names_the_variable():
    with pytest.raises(ConfigError, match="ANTHROPIC_API_KEY is not set"):
        AnthropicProvider(ModelConfig(provider="anthropic", name="m"), {})
    cfg = ModelConfig(provider="anthropic", name="m", api_key_env="TEAM_CLAUDE_KEY")
    with pytest.raises(ConfigError, match="TEAM_CLAUDE_KEY is not set"):
        AnthropicProvider(cfg, ENV)


# --- through the gate: a failing model never breaks the command, and the key stays hidden ----


def _recovered_turn(tmp_path):
    turn = tmp_path / "turn.json"
    turn.write_text(
        json.dumps(
            {
                "prompt": "bump the httpx pin",
                "tools": ["shell", "edit", "shell"],
                "errors": [{"tool": "shell", "kind": "nonzero_exit", "exit_code": 1, "program": "pytest"}],
                "verification": "passed",
            }
        )
    )
    return turn


@pytest.mark.parametrize("mode", ["500", "401", "html", "empty"])
def test_learn_with_a_failing_server_logs_a_rejection_and_exits_1(api, edgar, tmp_path, monkeypatch, mode):
    api.mode = mode
    monkeypatch.setenv("OPENAI_API_KEY", CANARY)
    monkeypatch.setenv("EDGAR_MODEL_PROVIDER", "openai")
    monkeypatch.setenv("EDGAR_MODEL_NAME", "test-model")
    monkeypatch.setenv("EDGAR_MODEL_BASE_URL", f"{api.root}/v1")
    result = edgar("--root", str(tmp_path), "--json", "learn", str(_recovered_turn(tmp_path)))
    assert result.code == 1
    doc = result.json()
    assert doc["outcome"] == "refused"
    assert "openai provider" in doc["message"]
    assert "Traceback" not in result.err
    rows = [json.loads(line) for line in (tmp_path / ".edgar" / "rejections.jsonl").read_text().splitlines()]
    assert len(rows) == 1
    assert rows[0]["trigger"] == "recovered"
    assert rows[0]["error"] == doc["message"]
    assert not (tmp_path / ".edgar" / "proposals").exists()
    everything = b"".join(tree_snapshot(tmp_path).values()).decode("utf-8", "replace")
    assert CANARY not in everything + result.out + result.err


def test_learn_with_a_good_server_proposes_and_the_key_is_nowhere(api, edgar, tmp_path, monkeypatch):
    api.reply_text = (
        "name: pin-bump\ndescription: Bump a pin and refresh the lock file.\n\n"
        "## When to use\nA pin must change.\n\n## Procedure\n1. Edit the pin.\n2. Refresh the lock.\n\n"
        "## Pitfalls\n- pytest fails until the lock is refreshed.\n\n## Verification\nRun the check.\n"
    )
    monkeypatch.setenv("OPENAI_API_KEY", CANARY)
    args = [
        "--set",
        "model.provider=openai",
        "--set",
        "model.name=m",
        "--set",
        f"model.base_url={api.root}/v1",
    ]
    result = edgar("--root", str(tmp_path), *args, "--json", "learn", str(_recovered_turn(tmp_path)))
    assert result.code == 0, result
    assert result.json()["outcome"] == "proposed"
    proposal = tmp_path / ".edgar" / "proposals" / "pin-bump" / "SKILL.md"
    assert "Refresh the lock." in proposal.read_text()
    sent = json.loads(api.requests[0]["raw"])["messages"][1]["content"]
    assert "failures the harness recorded: shell nonzero_exit exit 1 (pytest)" in sent
    everything = b"".join(tree_snapshot(tmp_path).values()).decode("utf-8", "replace")
    assert CANARY not in everything + result.out + result.err


def test_a_password_in_the_base_url_never_reaches_a_sentence():
    from edgar_min.errors import ModelError
    from edgar_min.models.http import post_json

    with pytest.raises(ModelError) as err:
        post_json("openai provider", "http://user:CANARY-PASS@127.0.0.1:9/v1/chat/completions", {}, {}, 2)
    assert "CANARY-PASS" not in err.value.message
    assert "127.0.0.1:9/v1/chat/completions" in err.value.message


@pytest.mark.parametrize("engine", ["openai", "anthropic"])
def test_semif_engines_never_show_an_echoed_key(api, engine):
    from edgar_min.config import SemifConfig
    from edgar_min.semif import get_engine
    from edgar_min.semif.types import DecisionRequest, Option

    api.mode = "401"
    base = f"http://127.0.0.1:{api.port}" + ("/v1" if engine == "openai" else "")
    cfg = SemifConfig(engine=engine, base_url=base, model="m", api_key_env="MY_KEY", timeout_s=5)
    decision = DecisionRequest("state", "question?", [Option("a", "first"), Option("b", "second")])
    with pytest.raises(ModelError) as caught:
        get_engine(cfg, {"MY_KEY": CANARY}).call(decision)
    assert "HTTP 401" in caught.value.message
    assert CANARY not in caught.value.message


def test_a_person_at_a_terminal_is_told_once_before_the_model_is_asked(api, monkeypatch):
    import os
    import pty

    from edgar_min.models import http

    monkeypatch.setattr(http, "_SAID", set())
    leader, follower = pty.openpty()
    with open(follower, "w") as terminal, open(leader, "rb", buffering=0) as screen:
        monkeypatch.setattr("sys.stderr", terminal)
        provider = get_provider(openai_cfg(api), ENV)
        assert provider.complete("be brief", "say hello") == "hello from the server"
        assert provider.complete("be brief", "say it again") == "hello from the server"
        terminal.flush()
        said = os.read(screen.fileno(), 4096).decode()
    assert said.splitlines() == [
        f"edgar: openai provider: asking {api.root}/v1/chat/completions (up to 5 s)..."
    ]


def test_stderr_that_is_not_a_terminal_is_told_nothing(api, monkeypatch, capsys):
    from edgar_min.models import http

    monkeypatch.setattr(http, "_SAID", set())
    provider = get_provider(openai_cfg(api), ENV)
    assert provider.complete("be brief", "say hello") == "hello from the server"
    assert capsys.readouterr() == ("", "")
