"""Structured synthesis: the skill asked for as a JSON object under a schema, and the fallback to text.

A loopback server plays an OpenAI-compatible server (one that decodes to the schema, one that
refuses `response_format` the way older servers do) and the Anthropic Messages API (a forced
tool call). What edgar sent is checked at the boundary.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from edgar_min.config import ModelConfig, SemifConfig
from edgar_min.learning.drafts import BRIEF, BRIEF_JSON, SECTION_FIELDS, skill_schema
from edgar_min.models import openai as openai_module
from edgar_min.models.anthropic import AnthropicProvider
from edgar_min.models.openai import OpenAIProvider
from edgar_min.semif import get_engine

CANARY = "sk-canary-5d2c8e1f9a7b3c6d4e0f"
SKILL = {
    "name": "pin-bump-with-lockfile",
    "description": "Bump a dependency pin and refresh the lock file so the tests pass.",
    "when_to_use": "A dependency pin has to move and the project keeps a lock file.",
    "procedure": "1. Change the version constraint.\n2. Regenerate the lock file with the project's tool.",
    "pitfalls": "- The tests fail until the lock file is refreshed: refresh it first.",
    "verification": "Run the project's declared check and see it pass.",
}
TEXT = (
    f"name: {SKILL['name']}\ndescription: {SKILL['description']}\n\n"
    + "\n\n".join(f"## {t}\n\n{SKILL[f]}" for t, f in SECTION_FIELDS.items())
    + "\n"
)


class Server:
    """`refuses_schema`: answer a request with `response_format` with HTTP 400, as older servers do."""

    def __init__(self) -> None:
        self.refuses_schema = False
        self.bodies: list[dict] = []
        self.headers: list[dict] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
                server.bodies.append(body)
                server.headers.append({k.lower(): v for k, v in self.headers.items()})
                status, doc = server.answer(self.path, body)
                raw = json.dumps(doc).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.http.daemon_threads = True
        self.root = f"http://127.0.0.1:{self.http.server_address[1]}"
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def answer(self, path: str, body: dict) -> tuple[int, dict]:
        if path == "/v1/messages":
            if "tools" in body:
                block = {"type": "tool_use", "id": "t1", "name": body["tools"][0]["name"], "input": SKILL}
            else:
                block = {"type": "text", "text": TEXT}
            return 200, {"type": "message", "role": "assistant", "content": [block]}
        if "response_format" in body and self.refuses_schema:
            message = 'response_format type must be one of "text" or "json_object", but got: json_schema'
            return 400, {"error": {"code": 400, "message": message, "type": "invalid_request_error"}}
        asked = body.get("response_format", {}).get("json_schema", {}).get("name")
        content = {"skill": json.dumps(SKILL), "health": '{"status": "ok"}', None: TEXT}[asked]
        return 200, {"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]}


@pytest.fixture
def server():
    s = Server()
    yield s
    s.http.shutdown()
    s.http.server_close()


@pytest.fixture(autouse=True)
def _fresh_process_memory(monkeypatch):
    # What a server refused is remembered per process; each test is a fresh process here.
    monkeypatch.setattr(openai_module, "_TEXT_ONLY", set())


def learn(edgar, tmp_path, *settings):
    (tmp_path / "proj").mkdir(exist_ok=True)
    turn = tmp_path / "turn.json"
    turn.write_text(
        json.dumps({"prompt": "bump the httpx pin", "tools": ["shell"] * 5, "verification": "passed"})
    )
    sets = [x for s in settings for x in ("--set", s)]
    return edgar("--root", str(tmp_path / "proj"), *sets, "--json", "learn", str(turn))


def test_openai_asks_for_the_skill_under_the_schema_and_code_renders_it(edgar, tmp_path, server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", CANARY)
    result = learn(
        edgar, tmp_path, "model.provider=openai", "model.name=m", f"model.base_url={server.root}/v1"
    )
    assert result.json()["outcome"] == "proposed", result
    (body,) = server.bodies
    assert body["messages"][0] == {"role": "system", "content": BRIEF_JSON}
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {
            "name": "skill",
            "description": "Record the reusable skill.",
            "schema": skill_schema(1024).schema,
        },
    }
    text = (tmp_path / "proj" / ".edgar" / "proposals" / SKILL["name"] / "SKILL.md").read_text()
    assert "## Pitfalls\n\n- The tests fail until the lock file is refreshed" in text


def test_a_server_that_refuses_the_schema_gets_the_text_prompt_once_per_process(edgar, tmp_path, server):
    server.refuses_schema = True
    args = ("model.provider=openai", "model.name=m", f"model.base_url={server.root}/v1")
    assert learn(edgar, tmp_path, *args).json()["outcome"] == "proposed"
    assert ["response_format" in b for b in server.bodies] == [True, False]
    assert server.bodies[1]["messages"][0] == {"role": "system", "content": BRIEF}
    (tmp_path / "proj" / ".edgar" / "proposals").rename(tmp_path / "first")
    assert learn(edgar, tmp_path, *args).json()["outcome"] == "proposed"
    # The second time the server is asked in text straight away.
    assert ["response_format" in b for b in server.bodies] == [True, False, False]


def test_an_error_that_is_not_about_the_schema_is_not_remembered(server):
    server.http.shutdown()  # nothing answers: a connection error, not a refusal of the schema
    provider = OpenAIProvider(
        ModelConfig(provider="openai", name="m", base_url=f"{server.root}/v1", timeout_s=2), {}
    )
    from edgar_min.errors import ModelError

    with pytest.raises(ModelError):
        provider.complete_object("s", "p", skill_schema(1024))
    assert provider.takes_schema


def test_anthropic_forces_one_tool_whose_input_schema_is_the_skill(edgar, tmp_path, server, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", CANARY)
    result = learn(
        edgar, tmp_path, "model.provider=anthropic", "model.name=claude-x", f"model.base_url={server.root}"
    )
    assert result.json()["outcome"] == "proposed", result
    (body,) = server.bodies
    assert body["system"] == BRIEF_JSON
    assert body["tools"] == [
        {
            "name": "skill",
            "description": "Record the reusable skill.",
            "input_schema": skill_schema(1024).schema,
        }
    ]
    assert body["tool_choice"] == {"type": "tool", "name": "skill"}
    assert server.headers[0]["x-api-key"] == CANARY
    assert CANARY not in result.out + result.err


def test_a_command_reply_in_json_is_accepted(edgar, tmp_path):
    script = tmp_path / "model.py"
    script.write_text(f"import sys\nsys.stdin.read()\nprint({json.dumps(json.dumps(SKILL))})\n")
    import sys

    command = json.dumps([sys.executable, str(script)])
    result = learn(edgar, tmp_path, "model.provider=command", f"model.command={command}")
    assert result.json()["outcome"] == "proposed", result


def test_with_only_ollama_host_set_provider_and_semif_engine_go_to_the_same_local_server():
    env = {"OLLAMA_HOST": "127.0.0.1:11500"}
    provider = OpenAIProvider(ModelConfig(provider="openai", name="m"), env)
    engine = get_engine(SemifConfig(engine="openai"), env)
    assert provider.base_url == engine.base_url == "http://127.0.0.1:11500/v1"
    assert provider.base_url_source == "OLLAMA_HOST"


def test_both_clients_resolve_urls_and_keys_alike():
    env = {"OPENAI_API_BASE": "http://b:2/v1", "TEAM_KEY": CANARY, "ANTHROPIC_BASE_URL": "http://a:3/v1"}
    provider = OpenAIProvider(ModelConfig(provider="openai", name="m", api_key_env="TEAM_KEY"), env)
    engine = get_engine(SemifConfig(engine="openai", api_key_env="TEAM_KEY"), env)
    assert provider.base_url == engine.base_url == "http://b:2/v1"
    assert engine.headers == {"Authorization": f"Bearer {CANARY}"}
    claude = AnthropicProvider(ModelConfig(provider="anthropic", name="c"), {**env, "ANTHROPIC_API_KEY": "k"})
    semif = get_engine(SemifConfig(engine="anthropic"), {**env, "ANTHROPIC_API_KEY": "k"})
    assert claude.base_url == semif.base_url == "http://a:3"
    assert CANARY not in repr(provider) + repr(engine.__dict__.get("base_url"))


def test_neither_client_sends_a_turn_to_a_hosted_api_nobody_named():
    from edgar_min.errors import ConfigError

    with pytest.raises(ConfigError, match=r"semif engine openai: no base URL: set semif\.base_url"):
        get_engine(SemifConfig(engine="openai"), {"OPENAI_API_KEY": CANARY})
    with pytest.raises(ConfigError, match=r"openai provider: no base URL: set model\.base_url"):
        OpenAIProvider(ModelConfig(provider="openai", name="m"), {"OPENAI_API_KEY": CANARY})


@pytest.mark.parametrize(
    ("refuses", "said", "requests"),
    [
        (False, "structured replies: the server answers under a JSON schema", 1),
        (True, "structured replies: the server refuses a JSON schema (openai provider: ", 2),
    ],
)
def test_doctor_network_says_whether_the_server_takes_a_schema(
    edgar, tmp_path, server, refuses, said, requests
):
    server.refuses_schema = refuses
    args = [
        "--set",
        "model.provider=openai",
        "--set",
        "model.name=m",
        "--set",
        f"model.base_url={server.root}/v1",
    ]
    result = edgar("--root", str(tmp_path), *args, "doctor", "--network")
    assert "network: ok: answered in" in result.out, result
    assert said in result.out
    assert len(server.bodies) == requests


def test_code_skill_generation_asks_for_the_body_as_one_string_field(edgar, tmp_path, server):
    import shutil
    from pathlib import Path

    from test_agent_generate import BODY as CODE

    from edgar_min.agent.generate import CONTRACT_JSON, code_schema

    shutil.copytree(
        Path(__file__).resolve().parent.parent / "examples" / "tree", tmp_path, dirs_exist_ok=True
    )
    server.answer = lambda _path, _body: (
        200,
        {"choices": [{"message": {"role": "assistant", "content": json.dumps({"body": CODE})}}]},
    )
    args = [
        "--set",
        "model.provider=openai",
        "--set",
        "model.name=m",
        "--set",
        f"model.base_url={server.root}/v1",
    ]
    result = edgar(
        "--root", str(tmp_path), *args, "--json", "skills", "generate", "email.reply",
        "--description", "Draft a reply to the last email from a contact.",
    )  # fmt: skip
    assert result.code == 0, result
    (body,) = server.bodies
    assert body["messages"][0]["content"] == CONTRACT_JSON
    assert body["response_format"]["json_schema"]["schema"] == code_schema(1024).schema
    assert (tmp_path / ".edgar" / "code-proposals" / "email.reply.py").read_text() == CODE


def test_a_text_retry_that_fails_too_is_not_remembered_as_text_only():
    from edgar_min.errors import ModelError
    from edgar_min.models import SchemaRefused, ask

    class Flaky:
        name = "flaky"
        told = False

        def complete_object(self, system, prompt, schema):
            raise SchemaRefused("refused the schema")

        def complete(self, system, prompt):
            raise ModelError("down")

        def text_only(self):
            self.told = True

    provider = Flaky()
    with pytest.raises(ModelError, match="down"):
        ask(provider, "p", brief=BRIEF, json_brief=BRIEF_JSON, schema=skill_schema(1024))
    assert not provider.told


def test_distill_asks_for_the_patch_under_its_schema_and_keeps_the_name(edgar, tmp_path, server):
    from edgar_min.layout import Layout
    from edgar_min.learning.drafts import PATCH_BRIEF_JSON, patch_schema
    from edgar_min.learning.writer import Draft, Provenance, Target, write_learned

    root = tmp_path / "proj"
    layout = Layout(root, tmp_path / "home")
    body = "\n".join(f"## {t}\n\n{SKILL[f]}\n" for t, f in SECTION_FIELDS.items())
    write_learned(
        layout, Draft("pin-bump", "Bump a pin.", body), Provenance("s", ("long",)), Target("learned")
    )
    history = Path(layout.history) / "pin-bump.md"
    history.parent.mkdir(parents=True, exist_ok=True)
    history.write_text("- the declared check failed; failures: shell nonzero_exit exit 1 (pytest)\n")
    patch = {k: v for k, v in SKILL.items() if k != "name"}
    patch["pitfalls"] = "- pytest fails while the lock file is stale: refresh it before running the tests."
    server.answer = lambda _path, _body: (200, {"choices": [{"message": {"content": json.dumps(patch)}}]})
    args = [
        "--set",
        "model.provider=openai",
        "--set",
        "model.name=m",
        "--set",
        f"model.base_url={server.root}/v1",
    ]
    result = edgar("--root", str(root), *args, "--json", "skills", "distill", "pin-bump")
    assert result.code == 0, result
    (sent,) = server.bodies
    assert sent["messages"][0]["content"] == PATCH_BRIEF_JSON
    assert sent["response_format"]["json_schema"]["schema"] == patch_schema(1024).schema
    proposal = (root / ".edgar" / "proposals" / "pin-bump" / "SKILL.md").read_text()
    assert "name: pin-bump\n" in proposal
    assert "pytest fails while the lock file is stale" in proposal
