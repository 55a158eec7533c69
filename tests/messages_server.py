"""A scripted Anthropic Messages API on 127.0.0.1, for driving the real Claude Code CLI in tests.

The model is the only test double: each `POST /v1/messages` is kept (its JSON body) and
answered with the next scripted reply, streamed as server-sent events when the request asks
for a stream (Claude Code always does), as one JSON message otherwise. A reply is a list of
content blocks (`{"type": "text", ...}` or `{"type": "tool_use", ...}`); when the script is
used up every request gets a short text reply, so a client that asks more than expected
still finishes.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Self

# Where this machine keeps the agent CLIs when they are not on PATH (CI puts them on PATH).
AGENTS_BIN = Path("/opt/agents/node_modules/.bin")
DONE = [{"type": "text", "text": "Done."}]


def claude_binary() -> str | None:
    """The real Claude Code CLI: `EDGAR_TEST_CLAUDE`, else `claude` on PATH, else AGENTS_BIN's; or None."""
    named = os.environ.get("EDGAR_TEST_CLAUDE")
    if named:
        return named if os.access(named, os.X_OK) else None
    found = shutil.which("claude")
    if found:
        return found
    fallback = AGENTS_BIN / "claude"
    return str(fallback) if os.access(fallback, os.X_OK) else None


def claude_env(home: Path, base_url: str) -> dict[str, str]:
    """The environment that runs Claude Code offline against `base_url`, with its own `home`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE_"))}
    env.update(
        HOME=str(home),
        ANTHROPIC_BASE_URL=base_url,
        ANTHROPIC_API_KEY="dummy",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        DISABLE_AUTOUPDATER="1",
        DISABLE_TELEMETRY="1",
        IS_SANDBOX="1",  # as root, bypassPermissions is refused without it
    )
    return env


def run_claude(
    prompt: str,
    *,
    cwd: Path,
    home: Path,
    server: MessagesServer,
    debug_file: Path,
    args: tuple[str, ...] = (),
    extra_env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """One headless Claude Code turn (`claude -p PROMPT`) in `cwd`, its hooks logged to `debug_file`;
    `args` are more of the CLI's flags (`--resume SESSION`), `extra_env` more of its environment."""
    binary = claude_binary()
    if binary is None:
        msg = "no Claude Code CLI here"
        raise FileNotFoundError(msg)
    env = {**claude_env(home, server.base_url), "CLAUDE_CODE_DEBUG_LOG_LEVEL": "verbose", **(extra_env or {})}
    command = [binary, "-p", prompt, "--output-format", "json", "--debug-file", str(debug_file)]
    return subprocess.run(
        [*command, "--permission-mode", "bypassPermissions", *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=180, check=False, stdin=subprocess.DEVNULL,
    )  # fmt: skip


def timed_turn(
    prompt: str, script: list, *, cwd: Path, home: Path, env: dict[str, str], debug_file: Path
) -> float:
    """The wall time in ms of one headless turn against a server answering from `script`, with
    `env` added to its environment; a turn that fails ends the caller (the benches) with its error."""
    import time

    with MessagesServer(list(script)) as server:
        started = time.monotonic()
        ran = run_claude(prompt, cwd=cwd, home=home, server=server, debug_file=debug_file, extra_env=env)
        wall = (time.monotonic() - started) * 1000
    if ran.returncode != 0:
        raise SystemExit(f"claude -p exited {ran.returncode}: {ran.stderr[-2000:]}")
    return wall


class ScriptedServer:
    """`with Server([reply, ...]) as server:` serves `server.base_url` on loopback until the block
    ends, answering each request with the script's next reply (`next_reply`), then `done`."""

    def __init__(self, script: list[list[dict[str, Any]]] | None = None) -> None:
        self.script = list(script or [])
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self.handler())
        self.base_url = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    def handler(self) -> type[BaseHTTPRequestHandler]:
        raise NotImplementedError

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def next_reply(self, body: dict[str, Any], done: list[dict[str, Any]]) -> list[dict[str, Any]]:
        with self._lock:
            self.requests.append(body)
            return self.script.pop(0) if self.script else done


class MessagesServer(ScriptedServer):
    """A scripted Anthropic Messages API server."""

    def handler(self) -> type[BaseHTTPRequestHandler]:
        return _handler(self)

    def answer(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        return self.next_reply(body, DONE)


def _message(blocks: list[dict[str, Any]], model: str) -> dict[str, Any]:
    uses_tool = any(b["type"] == "tool_use" for b in blocks)
    return {
        "id": "msg_scripted",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": blocks,
        "stop_reason": "tool_use" if uses_tool else "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 5},
    }


def _events(blocks: list[dict[str, Any]], model: str) -> list[tuple[str, dict[str, Any]]]:
    """The stream of one message, as the Messages API sends it."""
    message = _message([], model)
    message["stop_reason"] = None
    events: list[tuple[str, dict[str, Any]]] = [
        ("message_start", {"type": "message_start", "message": message})
    ]
    for index, block in enumerate(blocks):
        if block["type"] == "text":
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        else:
            start = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        events += [
            ("content_block_start", {"type": "content_block_start", "index": index, "content_block": start}),
            ("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": index}),
        ]
    stop = _message(blocks, model)["stop_reason"]
    events += [
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": {"output_tokens": 5},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    return events


def _handler(server: MessagesServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_args: object) -> None:
            pass

        def do_HEAD(self) -> None:
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_GET(self) -> None:
            error = {"type": "not_found_error", "message": "no such path"}
            self._json(404, {"type": "error", "error": error})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            path = self.path.split("?", 1)[0]
            if path.endswith("/count_tokens"):
                self._json(200, {"input_tokens": 10})
                return
            if not path.endswith("/v1/messages"):
                self.do_GET()
                return
            blocks = server.answer(body)
            model = str(body.get("model", "claude-scripted"))
            if not body.get("stream"):
                self._json(200, _message(blocks, model))
                return
            events = _events(blocks, model)
            data = b"".join(f"event: {name}\ndata: {json.dumps(e)}\n\n".encode() for name, e in events)
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _json(self, status: int, document: dict[str, Any]) -> None:
            data = json.dumps(document).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler
