"""Run one code skill body in a forked child process, with a hard time limit.

The body's module top level, `predict` and `act` all run in the child, behind
the wall (`walls.install`), which is up for the child's whole life and in every
thread. The parent keeps everything a body must not touch: the engine, the
budget, the decision log and the clock. The child asks for each engine decision
over a pipe (one JSON line each way) and reports its `ActionResult` the same way;
the parent answers, counts, logs, and kills the child with SIGKILL when its own
code (engine time not counted) runs past the limit or it asks for more than its
budget. Whatever the body catches, starts or calls (`except BaseException`, a
thread left running, `os._exit(0)`), the run ends when the parent says so and a
result is taken only from a child that reported one.

The child's stdin, stdout and stderr are /dev/null and every other inherited
descriptor is closed, so a body cannot write into the parent's output (a
harness's JSON, the MCP channel) or print a traceback at a person. Its
environment keeps only `ENVIRONMENT` (no key or token the person's shell
holds), and on Linux the kernel bounds the memory it may take on top of what it
held at the fork (`agent.memory_mb`): past it an allocation fails, and the run
says so.
"""

from __future__ import annotations

import gc
import math
import os
import select
import signal
import sys
import time
import types

from edgar_min import jsoncodec
from edgar_min.agent import skills
from edgar_min.agent.loader import install_aliases
from edgar_min.agent.skills import ActionContext, ActionResult, Prediction
from edgar_min.agent.walls import install
from edgar_min.errors import BadInput, EdgarError, ModelError, Refused
from edgar_min.records import dataclass
from edgar_min.semif.questions import MAX_QUESTIONS
from edgar_min.semif.types import DecisionRequest, DecisionResult, Option

try:  # imported here, so no child pays for it; POSIX only, like fork
    import resource
except ImportError:  # pragma: no cover - a system without fork never starts a child
    resource = None  # type: ignore[assignment]

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any, Literal

    from edgar_min.agent.skills import Request
    from edgar_min.agent.walls import Wall

__all__ = ["ENVIRONMENT", "MAX_MESSAGE", "MEMORY_MB", "BodyJob", "BodyReport", "Stop", "run_body"]

# The largest line either side sends (a decision, an action log): beyond it the child is stopped.
MAX_MESSAGE = 1 << 20
# What a body's process keeps of the environment (with the locale's LC_* variables): where programs
# and the home folder are, the language, the time zone and a temp folder. Nothing else: a shell's
# environment holds API keys and tokens, and a body has no use for them.
ENVIRONMENT = frozenset({"PATH", "HOME", "LANG", "LANGUAGE", "TZ", "TMPDIR"})
# Megabytes a body may allocate on top of what its process held at the fork (`agent.memory_mb`).
MEMORY_MB = 1024.0
# Kept aside in the child and let go when an allocation fails, so the sentence saying so can be sent.
_RESERVE_BYTES = 1 << 20
_ERRORS = {cls.__name__: cls for cls in (BadInput, ModelError, Refused, EdgarError)}


@dataclass(frozen=True, slots=True)
class BodyReport:
    """What the child did: `acted` with a result, `failed` with a sentence, or `blown` (budget, time)."""

    kind: Literal["acted", "failed", "blown"]
    message: str
    result: ActionResult | None
    refused: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BodyJob:
    """What the child runs: the skill's name, the module name and file it gets, and what it is handed."""

    name: str
    module: str
    path: str
    request: Request
    config: dict[str, Any]
    root: str | None
    engine: str
    model: str


class Stop(Exception):
    """Raised by the parent's answer function to stop the child at once (a blown budget)."""


def _limit_cpu(seconds: float) -> None:
    """The kernel's own bound on the child's CPU time, a second past the limit.

    The parent's clock is the limit; this one stops a child the parent can no
    longer stop (killed itself), and dumps no core where it dies.
    """
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    cpu = math.ceil(seconds) + 1
    if hard != resource.RLIM_INFINITY:
        cpu = min(cpu, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu if hard == resource.RLIM_INFINITY else hard))


def _keep_environment() -> None:
    """Only `ENVIRONMENT` and LC_* stay in the child's environment (os.environ and the C library's)."""
    kept = {k: v for k, v in os.environ.items() if k in ENVIRONMENT or k.startswith("LC_")}
    os.environ.clear()  # unsets each variable, so neither the body nor a C library finds it
    os.environ.update(kept)


def _limit_memory(megabytes: float) -> None:
    """The kernel's bound on the child's address space: what it holds now, plus `megabytes`.

    Counted from the fork, not from zero: the child starts with the parent's heap. Where
    /proc/self/statm cannot be read (not Linux) there is no bound.
    """
    try:
        with open("/proc/self/statm", "rb") as handle:
            held = int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return
    limit = held + int(megabytes * 1024 * 1024)
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _quiet(keep: tuple[int, ...]) -> None:
    """/dev/null on 0, 1, 2; every other descriptor but `keep` closed."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    high = 3
    for fd in sorted(keep):
        os.closerange(high, fd)
        high = fd + 1
    os.closerange(high, os.sysconf("SC_OPEN_MAX") if hasattr(os, "sysconf") else 1024)
    # The caller's sys.stdout may be no descriptor at all (a harness's buffer, a test's capture).
    sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - the child's for its whole life
    sys.stdout = sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - as above


class _Pipe:
    """One JSON line each way over two descriptors."""

    def __init__(self, rfd: int, wfd: int) -> None:
        self.rfd = rfd
        self.wfd = wfd
        self.buffer = bytearray()

    def send(self, message: dict[str, Any]) -> None:
        data = memoryview(jsoncodec.dumps(message, ensure_ascii=True, default=str).encode() + b"\n")
        while data:
            data = data[os.write(self.wfd, data) :]

    def receive(self) -> dict[str, Any] | None:
        """The next message (blocking); None at end of file."""
        while b"\n" not in self.buffer:
            chunk = os.read(self.rfd, 65536)
            if not chunk:
                return None
            self.buffer += chunk
        line, _, rest = bytes(self.buffer).partition(b"\n")
        self.buffer = bytearray(rest)
        return jsoncodec.loads(line)


class _ChildEngine:
    """`ctx.engine` inside the child: each call is a question to the parent, which holds the budget."""

    __slots__ = ("_pipe", "model", "name", "run_id")

    def __init__(self, pipe: _Pipe, name: str, model: str, run_id: str) -> None:
        self._pipe = pipe
        self.name = name
        self.model = model
        self.run_id = run_id

    def call(self, decision: DecisionRequest) -> DecisionResult:
        if not isinstance(decision, DecisionRequest):
            msg = f"ctx.engine.call takes a DecisionRequest, not {type(decision).__name__}"
            raise TypeError(msg)
        self._pipe.send({"op": "call", "call": _ask(decision)})
        return _result(decision, self._reply()["result"])

    def call_many(self, decisions: list[DecisionRequest]) -> list[DecisionResult]:
        """Several questions over one state, sent as one message; the parent charges each."""
        decisions = list(decisions) if isinstance(decisions, (list, tuple)) else decisions
        if not isinstance(decisions, list) or not all(isinstance(d, DecisionRequest) for d in decisions):
            msg = "ctx.engine.call_many takes a list of DecisionRequests"
            raise TypeError(msg)
        if not decisions:
            return []
        self._pipe.send({"op": "call_many", "calls": [_ask(d) for d in decisions]})
        answers = self._reply()["results"]
        if len(answers) != len(decisions):
            msg = f"the engine gave {len(answers)} answers to {len(decisions)} questions"
            raise ModelError(msg)
        return [_result(d, a) for d, a in zip(decisions, answers, strict=True)]

    def _reply(self) -> dict[str, Any]:
        reply = self._pipe.receive()
        if not isinstance(reply, dict):
            msg = "the engine did not answer"
            raise ModelError(msg)
        if "error" in reply:
            error = reply["error"]
            raise _ERRORS.get(error.get("type"), ModelError)(str(error.get("message")))
        return reply


def _ask(decision: DecisionRequest) -> dict[str, Any]:
    """One decision as the pipe carries it."""
    options = [[o.id, o.description] for o in decision.options]
    return {"id": decision.id, "state": decision.state, "question": decision.question, "options": options}


def _result(decision: DecisionRequest, answer: dict[str, Any]) -> DecisionResult:
    """The parent's answer to `decision`, rebuilt in the child."""
    return DecisionResult(
        decision,
        decision.option_ids,
        tuple(float(p) for p in answer["probabilities"]),
        str(answer["engine"]),
        dict(answer.get("extra") or {}),
    )


def _text(value: object) -> str | None:
    """`value` as a plain str (a str subclass is copied, never asked), or None when it is not text."""
    if type(value) is str:
        return value
    if isinstance(value, str):
        return str.__str__(value)
    return None


def _describe(exc: BaseException, name: str) -> str:
    try:
        detail = exc.message if isinstance(exc, EdgarError) else str(exc)
        detail = _text(detail) or ""
    except BaseException:  # noqa: BLE001 - a body's exception may fail even to say what it is
        detail = "(its message could not be read)"
    return f"{name} raised {type(exc).__name__}: {detail[:300]}"


def _over_memory(name: str, megabytes: float) -> dict[str, Any]:
    return {
        "op": "failed",
        "message": (
            f"{name}: the skill used more than {megabytes:g} MB of memory (agent.memory_mb) and was "
            "stopped; nothing it did after that counts"
        ),
    }


def _child(
    code: types.CodeType, job: BodyJob, wall: Wall, pipe: _Pipe, refused: list[str], *, megabytes: float
) -> dict[str, Any]:
    """Everything the child does, behind the wall; returns its last message (`done` or `failed`)."""
    name = job.name
    reserve = [bytearray(_RESERVE_BYTES)]  # let go at a MemoryError: room to say so
    install_aliases(skills)
    install(wall, refused)
    module = types.ModuleType(job.module)
    module.__file__ = job.path
    # In sys.modules under its own name so dataclasses and the like work inside a body.
    sys.modules[job.module] = module
    try:
        exec(code, module.__dict__)  # noqa: S102 - the body passed acceptance in the parent
    except MemoryError:
        reserve.clear()
        return _over_memory(name, megabytes)
    except BaseException as exc:  # noqa: BLE001 - whatever a body raises is a sentence
        return {
            "op": "failed",
            "message": f"the body of {name} failed while loading ({_describe(exc, name)})",
        }
    request = job.request
    engine = _ChildEngine(pipe, job.engine, job.model, request.id)
    ctx = ActionContext(engine=engine, config=job.config, root=job.root)
    try:
        prediction = module.predict(ctx, request)
        if not isinstance(prediction, Prediction):
            kind = type(prediction).__name__
            return {
                "op": "failed",
                "message": f"{name}: predict returned {kind}, not a Prediction; nothing was done",
            }
        pipe.send({"op": "phase", "phase": "act"})
        result = module.act(ctx, request, prediction)
        if not isinstance(result, ActionResult):
            kind = type(result).__name__
            return {"op": "failed", "message": f"{name}: act returned {kind}, not an ActionResult"}
        log, state = _text(result.action_log), _text(result.new_state)
    except MemoryError:
        reserve.clear()
        return _over_memory(name, megabytes)
    except BaseException as exc:  # noqa: BLE001 - a skill that raises must not take the run down
        return {"op": "failed", "message": _describe(exc, name)}
    if log is None or state is None:
        return {"op": "failed", "message": f"{name}: act returned an ActionResult whose fields are not text"}
    return {"op": "done", "action_log": log, "new_state": state}


def _status(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"was killed by signal {os.WTERMSIG(status)}"
    return f"exited with status {os.waitstatus_to_exitcode(status)}"


class _Supervisor:
    """The parent's side: the clock, the answers, the verdict.

    The clock runs from the fork, less the time spent answering decisions (the
    engine's time is not the skill's): a child that floods the pipe with
    messages spends its own time too.
    """

    def __init__(self, pid: int, pipe: _Pipe, seconds: float, name: str) -> None:
        self.pid = pid
        self.pipe = pipe
        self.seconds = seconds
        self.name = name
        self.started = time.monotonic()
        self.engine_seconds = 0.0
        self.poller = select.poll()
        self.poller.register(pipe.rfd, select.POLLIN)

    @property
    def own(self) -> float:
        return time.monotonic() - self.started - self.engine_seconds

    def over(self) -> str:
        return f"the skill's own code ran longer than {self.seconds:g} s (engine time not counted)"

    def wait_readable(self) -> bool:
        """True when the child has something to read (or closed its end); False when its time is up."""
        left = self.seconds - self.own
        if left <= 0:
            return False
        return bool(self.poller.poll(math.ceil(left * 1000)))

    def next_message(self) -> dict[str, Any] | tuple[Literal["failed", "blown"], str] | None:
        """The child's next message; (kind, sentence) when it must be stopped; None at end of file."""
        while b"\n" not in self.pipe.buffer:
            if len(self.pipe.buffer) > MAX_MESSAGE:
                return "failed", f"{self.name} sent a message over {MAX_MESSAGE} bytes"
            if not self.wait_readable():
                return "blown", self.over()
            chunk = os.read(self.pipe.rfd, 65536)
            if not chunk:
                return None
            self.pipe.buffer += chunk
        line, _, rest = bytes(self.pipe.buffer).partition(b"\n")
        self.pipe.buffer = bytearray(rest)
        try:
            message = jsoncodec.loads(line)
        except ValueError:
            message = None
        if not isinstance(message, dict):
            return "failed", f"{self.name} sent the run loop a message it cannot read"
        return message

    def exit_status(self) -> str:
        """How the child ended after closing its end: waited for within its remaining time."""
        while True:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.pid = 0
                return _status(status)
            if self.own >= self.seconds:
                return ""
            time.sleep(0.005)


def _decision(ask: dict[str, Any]) -> DecisionRequest:
    """A decision from the child's message, every field copied to a plain str."""
    options = tuple(Option(str(o[0]), str(o[1])) for o in ask["options"])
    return DecisionRequest(str(ask["state"]), str(ask["question"]), options, str(ask["id"]))


def _as_reply(result: DecisionResult) -> dict[str, Any]:
    return {"probabilities": list(result.probabilities), "engine": result.engine, "extra": result.extra}


def _answer(message: dict[str, Any], answer: Callable[[DecisionRequest], DecisionResult]) -> dict[str, Any]:
    """The reply to one `call` message: a result, or an error the body gets raised."""
    return _replying(lambda: {"result": _as_reply(answer(_decision(message["call"])))})


def _answer_many(
    message: dict[str, Any], answer_many: Callable[[Sequence[DecisionRequest]], Sequence[DecisionResult]]
) -> dict[str, Any]:
    """The reply to one `call_many` message: every result in order, or one error for the batch."""

    def batch() -> dict[str, Any]:
        calls = message["calls"]
        if not isinstance(calls, list) or len(calls) > MAX_QUESTIONS:
            msg = f"ctx.engine.call_many takes a list of at most {MAX_QUESTIONS} decisions"
            raise BadInput(msg)
        return {"results": [_as_reply(r) for r in answer_many([_decision(c) for c in calls])]}

    return _replying(batch)


def _replying(make: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """`make()`'s reply, or the error the body gets raised; `Stop` goes through."""
    try:
        return make()
    except Stop:
        raise
    except EdgarError as exc:
        return {"error": {"type": type(exc).__name__, "message": exc.message}}
    except (KeyError, TypeError, IndexError, ValueError) as exc:
        return {"error": {"type": "BadInput", "message": f"a decision the run loop cannot read ({exc})"}}
    except Exception as exc:  # noqa: BLE001 - an engine's own failure reaches the body as a sentence
        return {"error": {"type": "ModelError", "message": f"{type(exc).__name__}: {exc}"}}


def run_body(
    code: types.CodeType,
    job: BodyJob,
    *,
    wall: Wall,
    seconds: float,
    answer: Callable[[DecisionRequest], DecisionResult],
    on_phase: Callable[[str], None],
    answer_many: Callable[[Sequence[DecisionRequest]], Sequence[DecisionResult]] | None = None,
    memory_mb: float = MEMORY_MB,
) -> BodyReport:
    """Run the compiled body `code` in a child; `answer` and `answer_many` are the parent's engine.

    Either may raise `Stop`, which ends the run at once. Without `answer_many` a batch is
    answered question by question through `answer`. `memory_mb`: what the body may allocate.
    """
    if not hasattr(os, "fork"):
        msg = "running a code skill needs os.fork (a POSIX system), which this Python does not have"
        raise Refused(msg)
    if not (math.isfinite(seconds) and seconds > 0):
        msg = f"a skill's time limit must be a positive number of seconds, not {seconds!r}"
        raise BadInput(msg)
    if not (math.isfinite(memory_mb) and memory_mb > 0):
        msg = f"a skill's memory bound must be a positive number of megabytes, not {memory_mb!r}"
        raise BadInput(msg)
    child_r, parent_w = os.pipe()
    parent_r, child_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        try:
            # A collection would touch every object the parent had, copying its whole heap page by
            # page; the child lives for one run, so its cycles can wait for its exit.
            gc.disable()
            _limit_cpu(seconds)
            _keep_environment()
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops the child
            os.close(parent_r)
            os.close(parent_w)
            _quiet((child_r, child_w))
            refused: list[str] = []
            pipe = _Pipe(child_r, child_w)
            _limit_memory(memory_mb)  # last: what the steps above allocate is not the body's
            last = _child(code, job, wall, pipe, refused, megabytes=memory_mb)
            pipe.send({**last, "refused": refused[:50]})
        finally:
            os._exit(0)
    os.close(child_r)
    os.close(child_w)
    os.set_blocking(parent_w, False)
    supervisor = _Supervisor(pid, _Pipe(parent_r, parent_w), seconds, job.name)
    try:
        many = answer_many or (lambda decisions: [answer(d) for d in decisions])
        return _supervise(supervisor, answer, many, on_phase)
    finally:
        if supervisor.pid:
            try:
                os.kill(supervisor.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(supervisor.pid, 0)
        os.close(parent_r)
        os.close(parent_w)


def _supervise(
    supervisor: _Supervisor,
    answer: Callable[[DecisionRequest], DecisionResult],
    answer_many: Callable[[Sequence[DecisionRequest]], Sequence[DecisionResult]],
    on_phase: Callable[[str], None],
) -> BodyReport:
    name = supervisor.name
    while True:
        message = supervisor.next_message()
        if message is None:
            break
        if isinstance(message, tuple):
            return BodyReport(message[0], message[1], None, ())
        op = message.get("op")
        asking = op == "call" and isinstance(message.get("call"), dict)
        if asking or op == "call_many":
            start = time.monotonic()
            try:
                reply = _answer(message, answer) if asking else _answer_many(message, answer_many)
            except Stop as exc:
                return BodyReport("blown", str(exc), None, ())
            finally:
                supervisor.engine_seconds += time.monotonic() - start
            try:
                supervisor.pipe.send(reply)
            except (BlockingIOError, BrokenPipeError):
                return BodyReport("failed", f"{name} stopped reading the engine's answers", None, ())
        elif op == "phase" and message.get("phase") == "act":
            on_phase("act")  # said once by the child; a repeat changes nothing
        elif op in {"done", "failed"}:
            raw = message.get("refused")
            refused = tuple(str(r)[:300] for r in raw[:50]) if isinstance(raw, list) else ()
            if op == "failed":
                return BodyReport("failed", str(message.get("message"))[:2000], None, refused)
            log, state = message.get("action_log"), message.get("new_state")
            if type(log) is not str or type(state) is not str:
                return BodyReport(
                    "failed", f"{name} reported a result the run loop cannot read", None, refused
                )
            return BodyReport("acted", "", ActionResult(log, state), refused)
        else:
            return BodyReport("failed", f"{name} sent the run loop a message it cannot read", None, ())
    how = supervisor.exit_status()
    if not how:
        return BodyReport("blown", supervisor.over(), None, ())
    return BodyReport(
        "failed", f"{name} ended its process ({how}) without returning an ActionResult", None, ()
    )
