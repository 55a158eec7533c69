"""Scripted model servers on 127.0.0.1 for driving the real Codex and Gemini CLIs in tests.

The model is the only test double: the agent, its hooks, its log and its skill loading are
real. Each request the agent makes for a turn is kept (its JSON body) and answered with the
next scripted reply; when the script is used up every request gets a short text, so an
agent that asks more than expected still finishes.

- `ResponsesServer` speaks the OpenAI Responses API as Codex uses it (`POST /v1/responses`,
  streamed: `response.created`, `response.output_item.added/done`, `response.completed`).
  A reply is a list of output items (`message`, `function_call`, `custom_tool_call`). The
  text `__SESSION__` in a reply becomes the latest "session ID N" Codex reported, so a
  script can poll a background command with `write_stdin`.
- `GeminiServer` speaks the Gemini API (`:streamGenerateContent?alt=sse`); a reply is a list
  of parts (`{"text": ...}`, `{"functionCall": ...}`). Gemini CLI's side calls for a JSON
  value of a given schema (`:generateContent`, its model router) are answered from the
  schema and take no reply of the script.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

from messages_server import ScriptedServer

BIN = Path("/opt/agents/node_modules/.bin")
CODEX = Path(os.environ.get("EDGAR_TEST_CODEX", BIN / "codex"))
GEMINI = Path(os.environ.get("EDGAR_TEST_GEMINI", BIN / "gemini"))
SESSION_ID = re.compile(r"session ID (\d+)")


def binary(path: Path, name: str) -> str | None:
    """The real CLI at `path` if this machine has it, else `name` on PATH, else None."""
    if path.is_file() and os.access(path, os.X_OK):
        return str(path)
    return shutil.which(name)


def codex_binary() -> str | None:
    return binary(CODEX, "codex")


def gemini_binary() -> str | None:
    return binary(GEMINI, "gemini")


def text(words: str) -> dict[str, Any]:
    """A Responses API message item: the model's last words of a turn."""
    return {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": words}]}


def shell(call_id: str, command: str, **extra: Any) -> dict[str, Any]:
    """A Codex `exec_command` call."""
    arguments = json.dumps({"cmd": command, **extra})
    return {"type": "function_call", "name": "exec_command", "arguments": arguments, "call_id": call_id}


def patch(call_id: str, body: str) -> dict[str, Any]:
    """A Codex `apply_patch` call (a freeform tool: its input is the patch text)."""
    return {"type": "custom_tool_call", "name": "apply_patch", "input": body, "call_id": call_id}


def gemini_call(tool: str, **args: Any) -> dict[str, Any]:
    """A Gemini `functionCall` part."""
    return {"functionCall": {"name": tool, "args": args}}


class _Server(ScriptedServer):
    """A scripted server of one agent's model API (the replies' shapes are the subclass's)."""

    def handler(self) -> type[BaseHTTPRequestHandler]:
        return _handler(self)

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, str, bytes]:
        raise NotImplementedError


def _sse(events: list[tuple[str | None, dict[str, Any]]]) -> bytes:
    return b"".join(
        (f"event: {name}\n" if name else "").encode() + f"data: {json.dumps(data)}\n\n".encode()
        for name, data in events
    )


class ResponsesServer(_Server):
    """The Responses API, as Codex streams it; also the OpenTelemetry metrics Codex sends
    (`codex_home(..., metrics=True)`), kept in `metrics`."""

    def __init__(self, script: list[list[dict[str, Any]]] | None = None) -> None:
        super().__init__(script)
        self.metrics: list[dict[str, Any]] = []

    def hook_durations(self) -> dict[str, list[float]]:
        """Each hook's run times in milliseconds, as Codex reported them (`codex.hooks.run.duration_ms`)."""
        found: dict[str, list[float]] = {}
        for body in self.metrics:
            for scope in (m for r in body.get("resourceMetrics", []) for m in r.get("scopeMetrics", [])):
                for metric in scope.get("metrics", []):
                    if metric.get("name") != "codex.hooks.run.duration_ms":
                        continue
                    for point in metric.get("histogram", {}).get("dataPoints", []):
                        attrs = {a["key"]: a["value"].get("stringValue") for a in point.get("attributes", [])}
                        mean = point["sum"] / max(1, int(point.get("count", 1)))
                        found.setdefault(attrs.get("hook_name", "?"), []).append(mean)
        return found

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, str, bytes]:
        if path.endswith("/v1/metrics"):
            with self._lock:
                self.metrics.append(body)
            return 200, "application/json", b"{}"
        if not path.endswith("/responses"):
            return 404, "application/json", b'{"error": {"message": "no such path"}}'
        items = self.next_reply(body, [text("Done.")])
        found = SESSION_ID.findall(json.dumps(body.get("input", [])))
        if found:
            items = json.loads(json.dumps(items).replace("__SESSION__", found[-1]))
        n = len(self.requests)
        events: list[tuple[str | None, dict[str, Any]]] = [
            ("response.created", {"type": "response.created", "response": {"id": f"resp_{n}"}})
        ]
        for index, scripted in enumerate(items):
            item = {"id": f"item_{n}_{index}", **scripted}
            if item["type"] == "message":
                item.setdefault("status", "completed")
            events += [
                (kind, {"type": kind, "output_index": index, "item": item})
                for kind in ("response.output_item.added", "response.output_item.done")
            ]
        usage = {
            "input_tokens": 10,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 5,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 15,
        }
        completed = {"type": "response.completed", "response": {"id": f"resp_{n}", "usage": usage}}
        events.append(("response.completed", completed))
        return 200, "text/event-stream", _sse(events)


def _value(schema: Any) -> Any:
    """A value of a JSON schema as Gemini writes one (upper-case type names), for its side calls."""
    if not isinstance(schema, dict):
        return "scripted"
    kind = str(schema.get("type", "string")).lower()
    if schema.get("enum"):
        return schema["enum"][0]
    if kind == "object":
        return {key: _value(sub) for key, sub in schema.get("properties", {}).items()}
    if kind == "array":
        return [_value(schema.get("items"))]
    return {"integer": 1, "number": 1, "boolean": False}.get(kind, "scripted")


class GeminiServer(_Server):
    """The Gemini API, as Gemini CLI streams it."""

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, str, bytes]:
        usage = {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}
        if path.endswith(":countTokens"):
            return 200, "application/json", b'{"totalTokens": 10}'
        if path.endswith(":generateContent"):
            config = body.get("generationConfig", {})
            schema = config.get("responseJsonSchema", config.get("responseSchema"))
            part = {"text": json.dumps(_value(schema)) if schema else "scripted"}
            candidate = {"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}
            return (
                200,
                "application/json",
                json.dumps({"candidates": [candidate], "usageMetadata": usage}).encode(),
            )
        if not path.endswith(":streamGenerateContent"):
            return 404, "application/json", b'{"error": {"message": "no such path"}}'
        parts = self.next_reply(body, [{"text": "Done."}])
        candidate = {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
        return 200, "text/event-stream", _sse([(None, {"candidates": [candidate], "usageMetadata": usage})])


def _handler(server: _Server) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_args: object) -> None:
            pass

        def do_HEAD(self) -> None:
            self._send(200, "application/json", b"")

        def do_GET(self) -> None:
            self._send(200, "application/json", b'{"data": [], "models": []}')

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            status, kind, data = server.post(self.path.split("?", 1)[0], body)
            self._send(status, kind, data)

        def _send(self, status: int, kind: str, data: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


def codex_home(home: Path, base_url: str, *, config: str = "", metrics: bool = False) -> Path:
    """A Codex home under `home` whose model is the scripted server; returns `$CODEX_HOME`.

    `metrics`: Codex also sends its OpenTelemetry metrics (hook run times among them) there.
    """
    codex = home / ".codex"
    codex.mkdir(parents=True, exist_ok=True)
    if metrics:
        exporter = f'{{ otlp-http = {{ endpoint = "{base_url}/v1/metrics", protocol = "json" }} }}'
        config += f"\n[otel]\nmetrics_exporter = {exporter}\n"
    # `config` holds tables only (`[mcp_servers.x]`, `[otel]`): after the provider's, in any order.
    (codex / "config.toml").write_text(
        'model = "gpt-5.5"\nmodel_provider = "scripted"\n\n'
        "[model_providers.scripted]\n"
        f'name = "scripted"\nbase_url = "{base_url}/v1"\nwire_api = "responses"\n'
        'env_key = "SCRIPTED_MODEL_KEY"\n' + config
    )
    return codex


def codex_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "CODEX_"))}
    env.update(HOME=str(home), CODEX_HOME=str(home / ".codex"), SCRIPTED_MODEL_KEY="scripted")
    return env


def run_codex(
    args: list[str], *, cwd: Path, home: Path, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """`codex exec ARGS` in `cwd` with hooks run untrusted (`--dangerously-bypass-hook-trust`)."""
    found = codex_binary()
    if found is None:
        msg = "no Codex CLI here"
        raise FileNotFoundError(msg)
    command = [found, "exec", "--dangerously-bypass-hook-trust", "-s", "danger-full-access", *args]
    return subprocess.run(
        command, cwd=cwd, env=codex_env(home), input=stdin or "", capture_output=True, text=True,
        timeout=180, check=False,
    )  # fmt: skip


def gemini_home(home: Path, settings: dict[str, Any] | None = None) -> Path:
    """A Gemini home under `home` (API-key auth, hooks enabled, then `settings`); returns `~/.gemini`."""
    gemini = home / ".gemini"
    gemini.mkdir(parents=True, exist_ok=True)
    document = {"security": {"auth": {"selectedType": "gemini-api-key"}}, "hooksConfig": {"enabled": True}}
    document.update(settings or {})
    (gemini / "settings.json").write_text(json.dumps(document, indent=2))
    return gemini


def gemini_env(home: Path, base_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GEMINI_", "GOOGLE_"))}
    env.update(HOME=str(home), GOOGLE_GEMINI_BASE_URL=base_url, GEMINI_API_KEY="scripted")
    return env


def run_gemini(
    prompt: str, *, cwd: Path, home: Path, server: GeminiServer, extra: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    """`gemini -p PROMPT --yolo --skip-trust [EXTRA]` in `cwd`."""
    found = gemini_binary()
    if found is None:
        msg = "no Gemini CLI here"
        raise FileNotFoundError(msg)
    return subprocess.run(
        [found, "-p", prompt, "--yolo", "--skip-trust", *extra], cwd=cwd,
        env=gemini_env(home, server.base_url), stdin=subprocess.DEVNULL, capture_output=True, text=True,
        timeout=180, check=False,
    )  # fmt: skip
