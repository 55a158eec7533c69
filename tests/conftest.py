"""Shared fixtures: an isolated user scope for every test, and a real llama.cpp server."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory, monkeypatch):
    """Point EDGAR_HOME at an empty folder and drop EDGAR_* variables, so no test reads the real user's."""
    home = tmp_path_factory.mktemp("edgar-home")
    for name in list(os.environ):
        if name.startswith("EDGAR_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("EDGAR_HOME", str(home))
    # The holdout withholds a learned skill from one session in ten, drawn from the session's id:
    # a test of what is offered would fail one run in ten. The holdout's own tests set it back.
    monkeypatch.setenv("EDGAR_EVIDENCE_HOLDOUT", "0")
    # The agents' own folders under the person's home (`~/.codex/skills`, ...) are read too.
    person = tmp_path_factory.mktemp("person")
    monkeypatch.setattr("edgar_min.layout.person_home", lambda: str(person))
    for name in ("CODEX_HOME", "CLAUDE_CONFIG_DIR", "GEMINI_CLI_HOME"):
        monkeypatch.delenv(name, raising=False)
    # A pyz run on a Python other than the builder's writes bytecode under the cache folder.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
    for name in ("OPENAI_BASE_URL", "OPENAI_API_BASE", "OLLAMA_HOST"):
        monkeypatch.delenv(name, raising=False)
    return home


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LlamaServer:
    """A running llama.cpp server process; `base_url` ends in `/v1`."""

    def __init__(self, process: subprocess.Popen, port: int) -> None:
        self.process = process
        self.port = port
        self.root_url = f"http://127.0.0.1:{port}"
        self.base_url = f"{self.root_url}/v1"

    def alive(self) -> bool:
        return self.process.poll() is None


def start_llama(timeout: float = 120.0) -> LlamaServer:
    """Start the server in its own process and wait until /health says ok; fail with the reason."""
    port = free_port()
    log = TESTS / ".llama-server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, str(TESTS / "llama_server.py"), str(port)],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            tail = log.read_text(errors="replace")[-2000:]
            pytest.fail(f"the llama.cpp server exited with {process.returncode} before it was ready:\n{tail}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
                if json.loads(r.read() or b"{}").get("status") == "ok":
                    return LlamaServer(process, port)
        except (OSError, ValueError):
            pass
        time.sleep(0.25)
    process.kill()
    pytest.fail(f"the llama.cpp server did not become ready within {timeout:g} s (log: {log})")
    raise AssertionError  # unreachable


def stop_llama(server: LlamaServer) -> None:
    server.process.kill()
    server.process.wait(timeout=30)


@pytest.fixture(scope="session")
def pyz(tmp_path_factory) -> Path:
    """The archive as `build_zipapp.py` builds it, built once a session: a test that changes or
    moves it works on a copy."""
    out = tmp_path_factory.mktemp("dist") / "edgar.pyz"
    build = [sys.executable, str(Path(__file__).resolve().parents[1] / "build_zipapp.py"), "-o", str(out)]
    subprocess.run(build, check=True, capture_output=True, timeout=300)
    return out


@pytest.fixture(scope="session")
def llama_server():
    """One real llama.cpp server (xllamacpp + SmolLM2-135M) for the whole session."""
    server = start_llama()
    yield server
    stop_llama(server)


class CliResult:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code = code
        self.out = out
        self.err = err

    def json(self):
        return json.loads(self.out)

    def __repr__(self) -> str:
        return f"CliResult(code={self.code}, out={self.out!r}, err={self.err!r})"


def run_cli(*args: str) -> CliResult:
    """Run `edgar ARGS...` in-process and capture what a person would see."""
    import io

    from edgar_min.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), stdout=out, stderr=err)
    return CliResult(code, out.getvalue(), err.getvalue())


@pytest.fixture
def edgar():
    """`edgar("--root", str(tmp_path), "skills", "list")` -> CliResult(code, out, err)."""
    return run_cli


def tree_snapshot(root: Path) -> dict[str, bytes]:
    """Every file under `root` with its bytes: compare before and after to prove nothing was written."""
    root = Path(root)
    if not root.exists():
        return {}
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def state_of(root) -> Path:
    """The state folder edgar keeps for the project at `root` under this test's EDGAR_HOME."""
    from edgar_min.layout import Layout, user_home

    return Path(Layout(os.path.abspath(root), user_home()).state)
