"""What every command gets (`Context`), and the one place exceptions become exit codes.

Kept apart from the parser (`cli/app.py`, argparse) so that the per-turn commands, whose
arguments `cli/quick.py` reads, run without importing argparse.
"""

from __future__ import annotations

import os
import sys

from edgar_min.errors import BadInput, EdgarError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TextIO

    from edgar_min.config import Config
    from edgar_min.layout import Layout

__all__ = ["Context", "execute", "read_input"]


class Context:
    """What every command handler gets: where, how to print, and the config (read once)."""

    def __init__(self, ns: Any, stdout: TextIO, stderr: TextIO) -> None:
        self.ns = ns
        self.json = bool(ns.json)
        self.stdout = stdout
        self.stderr = stderr
        self.root = _check_root(ns.root)
        self._layout: Layout | None = None
        self._config: Config | None = None
        self._said = False

    @property
    def layout(self) -> Layout:
        if self._layout is None:
            from edgar_min.layout import Layout, user_home

            self._layout = Layout(self.root, user_home())
        return self._layout

    @property
    def config(self) -> Config:
        if self._config is None:
            from edgar_min.config import load_config

            self._config = load_config(self.layout, overrides=self.ns.set or ())
        return self._config

    def say_config(self) -> None:
        """Say on stderr, once a run, what of the config a person must know: keys left out, `auto`."""
        if self._said:
            return
        self._said = True
        config = self.config
        if config.untrusted:
            from edgar_min.trust import untrusted_sentence

            self.warn(f"edgar: {untrusted_sentence(self.layout, config.untrusted)}")
        if config.skills.synthesis == "auto":
            from edgar_min.config import AUTO_SYNTHESIS

            self.warn(AUTO_SYNTHESIS)

    def out(self, text: str = "") -> None:
        """One line (or block) for a person; suppressed in --json mode."""
        if not self.json:
            print(text, file=self.stdout)

    def emit(self, document: Any) -> None:
        """The one JSON document of --json mode."""
        if self.json:
            from edgar_min import jsoncodec  # only --json needs it, and most commands run without

            jsoncodec.dump(document, self.stdout, ensure_ascii=False, indent=2)
            self.stdout.write("\n")

    def warn(self, text: str) -> None:
        print(text, file=self.stderr)

    def progress(self, doing: str) -> Progress:
        """A counter for long work, said on stderr at most once a second (`doing`: "reading session logs")."""
        return Progress(doing, self.stderr)


class Progress:
    """How far a long piece of work has got, on stderr, so a person sees it is moving.

    Said at most once a second, and only once the work has run for a second: quick work says
    nothing. On a terminal the line is rewritten in place; elsewhere each report is a line.
    """

    EVERY_S = 1.0

    def __init__(self, doing: str, stream: TextIO) -> None:
        import time

        self.doing, self.stream, self.clock = doing, stream, time.monotonic
        self.next_at = self.clock() + self.EVERY_S
        self.said = False
        try:
            self.inline = stream.isatty()
        except (AttributeError, ValueError):
            self.inline = False

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        if now < self.next_at and done < total:
            return
        if done >= total and not self.said:
            return  # over before anyone waited
        self.next_at = now + self.EVERY_S
        self.said = True
        end = "\r" if self.inline and done < total else "\n"
        print(f"edgar: {self.doing}: {done:,} of {total:,}", end=end, file=self.stream, flush=True)


def _check_root(value: str) -> str:
    root = value
    if not os.path.exists(root):
        msg = f"--root {value}: no such folder"
        raise BadInput(msg)
    if not os.path.isdir(root):
        msg = f"--root {value}: not a folder"
        raise BadInput(msg)
    if not os.access(root, os.R_OK | os.X_OK):
        msg = f"--root {value}: cannot be read (permission denied)"
        raise BadInput(msg)
    return os.path.abspath(root)


def read_input(source: str, *, limit: int, label: str, kind: str, too_big: str = "", tail: str = "") -> str:
    """The UTF-8 text of a file or stdin (`-`) a person named, at most `limit` bytes, or `BadInput`.

    `label` starts each sentence, `kind` says what the file should be, `too_big` and `tail`
    end the sentences for a file over the limit and one that is not UTF-8.
    """
    try:
        if source == "-":
            stream = getattr(sys.stdin, "buffer", None)
            data = stream.read(limit + 1) if stream else sys.stdin.read().encode()
        else:
            with open(source, "rb") as handle:
                data = handle.read(limit + 1)
    except FileNotFoundError:
        msg = f"{label}: no such file"
        raise BadInput(msg) from None
    except IsADirectoryError:
        msg = f"{label}: is a folder, not {kind}"
        raise BadInput(msg) from None
    except OSError as exc:
        msg = f"{label}: cannot be read ({exc.strerror})"
        raise BadInput(msg) from None
    if len(data) > limit:
        msg = f"{label}: larger than {limit} bytes{too_big}"
        raise BadInput(msg)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        msg = f"{label}: not UTF-8 text{tail}"
        raise BadInput(msg) from None


def execute(ns: Any, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Run the handler that `ns` (the parsed arguments) names; map what it raises to an exit code."""
    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    try:
        ctx = Context(ns, stdout, stderr)
        if getattr(ns, "needs_config", True):
            ctx.say_config()
        code = ns.handler(ctx)
    except EdgarError as exc:
        return _fail(exc.message, exc.exit_code, ns, stdout, stderr)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
    except RecursionError:
        # JSON or TOML nested thousands deep, met by a reader that has no sentence for it.
        sentence = "the input is nested too deeply to read; nothing was stored"
        return _fail(sentence, 2, ns, stdout, stderr)
    except UnicodeError:
        # An argument or file with bytes that are not UTF-8 reaches here as a lone surrogate.
        sentence = "the input holds text that is not valid UTF-8; nothing was stored"
        return _fail(sentence, 2, ns, stdout, stderr)
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        return _fail(f"{where}{exc.strerror or exc}", 1, ns, stdout, stderr)
    except Exception as exc:  # noqa: BLE001 - no traceback ever reaches the user
        sentence = f"internal error ({type(exc).__name__}: {exc}); this is a bug in edgar"
        return _fail(sentence, 1, ns, stdout, stderr)
    return int(code or 0)


def _fail(message: str, code: int, ns: Any, stdout: TextIO, stderr: TextIO) -> int:
    json_mode = bool(getattr(ns, "json", False))
    command = getattr(ns, "command", None)
    if command == "hook" or (command == "learn" and getattr(ns, "hook", False)):
        # A hook never fails the agent (cli/hook_cmd.py): said, logged where it can be, exit 0.
        from edgar_min.cli.hook_cmd import unrunnable

        event = "stop" if command == "learn" else str(getattr(ns, "event", None) or "hook")
        root = getattr(ns, "root", ".")
        return unrunnable(root, event, message, json_mode=json_mode, stdout=stdout, stderr=stderr)
    print(f"edgar: {message}", file=stderr)
    if json_mode:
        from edgar_min import jsoncodec

        jsoncodec.dump({"error": message, "exit_code": code}, stdout, ensure_ascii=False)
        stdout.write("\n")
    return code
