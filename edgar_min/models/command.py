"""The command provider: a configured program gets the prompt on stdin; its stdout is the reply."""

from __future__ import annotations

import os

from edgar_min.errors import ConfigError, ModelError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from edgar_min.config import ModelConfig

__all__ = ["CommandProvider", "run_bounded"]

# Bytes read from the program at most; the writer caps the reply again.
MAX_OUTPUT = 1_000_000


class CommandProvider:
    """Runs `[model] command` with the system text and the prompt on stdin, with a timeout."""

    name = "command"

    def __init__(self, config: ModelConfig, environ: Mapping[str, str] | None = None) -> None:  # noqa: ARG002
        if not config.command:
            msg = (
                'model.provider is "command" but model.command is empty '
                '(e.g. command = ["llm", "-m", "NAME"])'
            )
            raise ConfigError(msg)
        self.command = list(config.command)
        self.timeout = config.timeout_s

    def complete(self, system: str, prompt: str) -> str:
        program = self.command[0]
        code, out = run_bounded(
            self.command, f"{system}\n\n{prompt}".encode(), timeout=self.timeout, who=self.name
        )
        if code != 0:
            msg = f"command provider: {program!r} exited with status {code}"
            raise ModelError(msg)
        reply = out.decode("utf-8", "replace").strip()
        if not reply:
            msg = f"command provider: {program!r} printed nothing"
            raise ModelError(msg)
        return reply


def run_bounded(
    argv: list[str],
    data: bytes,
    *,
    timeout: float,
    who: str,
    cwd: str | None = None,
    env: dict[str, str] | None = None,
) -> tuple[int, bytes]:
    """Run `argv` with `data` on stdin, for at most `timeout` seconds; (its exit status, its stdout).

    The program runs in a session of its own, so that on a timeout it and anything it started
    end together; each way it cannot run is a `ModelError` naming the `who` provider."""
    import signal
    import subprocess

    program = argv[0]
    try:
        process = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except FileNotFoundError:
        msg = f"{who} provider: the program {program!r} was not found"
        raise ModelError(msg) from None
    except PermissionError:
        msg = f"{who} provider: the program {program!r} cannot be run (permission denied)"
        raise ModelError(msg) from None
    except OSError as exc:
        msg = f"{who} provider: {program!r} could not be started ({exc.strerror})"
        raise ModelError(msg) from None
    try:
        out, _ = process.communicate(data, timeout=timeout)
    except subprocess.TimeoutExpired:
        msg = f"{who} provider: {program!r} did not answer within {timeout:g} s"
        raise ModelError(msg) from None
    finally:
        if process.returncode is None:
            # The program and anything it started go together.
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except OSError:
                process.kill()
            process.wait()
    return process.returncode, out[:MAX_OUTPUT]
