"""The command provider: a configured program gets the prompt on stdin; its stdout is the reply."""

from __future__ import annotations

from edgar_min.errors import ConfigError, ModelError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from edgar_min.config import ModelConfig

__all__ = ["CommandProvider"]

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
        import subprocess

        program = self.command[0]
        try:
            done = subprocess.run(
                self.command,
                input=f"{system}\n\n{prompt}".encode(),
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                timeout=self.timeout,
                check=False,
            )
        except FileNotFoundError:
            msg = f"command provider: the program {program!r} was not found"
            raise ModelError(msg) from None
        except PermissionError:
            msg = f"command provider: the program {program!r} cannot be run (permission denied)"
            raise ModelError(msg) from None
        except subprocess.TimeoutExpired:
            msg = f"command provider: {program!r} did not answer within {self.timeout:g} s"
            raise ModelError(msg) from None
        except OSError as exc:
            msg = f"command provider: {program!r} could not be started ({exc.strerror})"
            raise ModelError(msg) from None
        if done.returncode != 0:
            msg = f"command provider: {program!r} exited with status {done.returncode}"
            raise ModelError(msg)
        reply = done.stdout[:MAX_OUTPUT].decode("utf-8", "replace").strip()
        if not reply:
            msg = f"command provider: {program!r} printed nothing"
            raise ModelError(msg)
        return reply
