"""SemIf: typed multiple-choice decisions, engines behind one `call(decision)`, and the decision log.

    from edgar_min.semif import decide, decide_many
    result = decide(layout, config, "the user asked for a draft", "Which skill?",
                    [("email.compose", "write an email draft"), ("none", "none of these")])
    result.selected, result.probs
    results = decide_many(layout, config, ticket_text, [
        ("Which team?", [("billing", "payments"), ("technical", "bugs")]),
        ("Is it urgent?", ["yes", "no"]),
    ])

Engines are looked up by `[semif] engine` and imported only when used. An
engine may also answer several questions over one state at once
(`call_many(decisions)`); `ask_many` uses that when it exists and asks one by
one otherwise.
"""

from __future__ import annotations

import importlib
import os
import time

from edgar_min import deferred
from edgar_min.errors import ConfigError, ModelError
from edgar_min.redact import redact
from edgar_min.semif.log import DecisionLog
from edgar_min.semif.types import LETTERS, MAX_OPTIONS, DecisionRequest, DecisionResult, Option, as_options

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence
    from typing import Any, Literal, Protocol

    from edgar_min.config import Config, SemifConfig
    from edgar_min.layout import Layout

    # How an answer's probabilities were read (`readout`).
    Readout = Literal[
        "option-id logprobs",
        "letter-slot logprobs",
        "constrained answer",
        "server probabilities",
        "lexical offline",
    ]

# Several questions over one state are their own module: the prompt hook asks one question and
# skips it (its record class alone is about 0.1 ms).
semif_questions = deferred.module("edgar_min.semif.questions")

__all__ = [
    "ENGINES",
    "LETTERS",
    "MAX_OPTIONS",
    "MAX_QUESTIONS",
    "DecisionRequest",
    "DecisionResult",
    "Engine",
    "LoggedEngine",
    "Option",
    "Question",
    "ask_many",
    "decide",
    "decide_many",
    "get_engine",
    "new_run_id",
    "readout",
]


if TYPE_CHECKING:
    from edgar_min.semif.questions import MAX_QUESTIONS, Question
else:
    Protocol = object  # `Engine` is a description for type checkers; nothing checks it at run time


class Engine(Protocol):
    """Anything that answers a decision: `call(decision) -> DecisionResult`.

    An engine may also have `call_many(decisions)`: several questions over one state, answered
    in order, one result each. `ask_many` uses it when it is there.
    """

    name: str
    model: str

    def call(self, decision: DecisionRequest) -> DecisionResult: ...


def __getattr__(name: str) -> object:
    if name in {"MAX_QUESTIONS", "Question"}:
        return getattr(semif_questions, name)
    msg = f"module {__name__!r} has no attribute {name!r}"
    raise AttributeError(msg)


def new_run_id() -> str:
    """An id shared by the rows of one batch of decisions (`r-` and hex digits)."""
    return "r-" + os.urandom(6).hex()


def readout(result: DecisionResult) -> Readout:
    """How `result`'s probabilities were read, from the engine that answered and what it says it did."""
    if result.engine == "lexical":
        return "lexical offline"
    if result.engine == "systemone":
        return "server probabilities"
    if result.engine == "openai" and result.extra.get("probability_status") == "logprobs":
        return "option-id logprobs" if result.extra.get("readout") == "option ids" else "letter-slot logprobs"
    return "constrained answer"


def ask_many(engine: Engine, decisions: Sequence[DecisionRequest]) -> tuple[DecisionResult, ...]:
    """The engine's answers to `decisions`, in order: by `call_many` when it has one, else one by one."""
    many = getattr(engine, "call_many", None)
    if many is None:
        return tuple(engine.call(d) for d in decisions)
    results = tuple(many(decisions))
    if len(results) != len(decisions) or any(
        r.request is not d for r, d in zip(results, decisions, strict=False)
    ):
        msg = f"semif engine {engine.name}: did not answer the {len(decisions)} questions each, in order"
        raise ModelError(msg)
    return results


ENGINES = {
    "lexical": "edgar_min.semif.lexical:LexicalEngine",
    "openai": "edgar_min.semif.openai:OpenAIEngine",
    "systemone": "edgar_min.semif.systemone:SystemOneEngine",
    "anthropic": "edgar_min.semif.anthropic:AnthropicEngine",
}


def get_engine(config: SemifConfig, environ: Mapping[str, str] | None = None) -> Engine:
    """Build the engine named by `[semif] engine`."""
    target = ENGINES.get(config.engine)
    if target is None:
        msg = f"semif.engine {config.engine!r} is not one of {', '.join(ENGINES)}"
        raise ConfigError(msg)
    module_name, _, class_name = target.partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    return cls(config, environ)


class LoggedEngine:
    """An engine that writes a decision-log row for every call, tagged with a phase and a run id."""

    def __init__(
        self, engine: Engine, log: DecisionLog, phase: str = "decide", run_id: str | None = None
    ) -> None:
        self.engine = engine
        self.log = log
        self.phase = phase
        self.run_id = run_id
        self.name = engine.name
        self.model = getattr(engine, "model", "")
        # Seconds spent inside the engine, so callers can tell their own overhead from the model's.
        self.engine_seconds = 0.0
        self.calls = 0

    def call(self, decision: DecisionRequest) -> DecisionResult:
        if not isinstance(decision, DecisionRequest):
            msg = f"engine.call takes a DecisionRequest, not {type(decision).__name__}"
            raise TypeError(msg)
        start = time.perf_counter()
        result = self.engine.call(decision)
        elapsed = time.perf_counter() - start
        self.engine_seconds += elapsed
        self.calls += 1
        self.log.append(result, phase=self.phase, run_id=self.run_id, model=self.model, latency_s=elapsed)
        return result

    def call_many(self, decisions: Sequence[DecisionRequest]) -> tuple[DecisionResult, ...]:
        """Answer several questions over one state; one row each, the batch's time shared evenly."""
        decisions = tuple(decisions)
        if not all(isinstance(d, DecisionRequest) for d in decisions):
            msg = "engine.call_many takes DecisionRequests"
            raise TypeError(msg)
        if not decisions:
            return ()
        start = time.perf_counter()
        results = ask_many(self.engine, decisions)
        elapsed = time.perf_counter() - start
        self.engine_seconds += elapsed
        self.calls += len(results)
        share = elapsed / len(results)
        for result in results:
            self.log.append(result, phase=self.phase, run_id=self.run_id, model=self.model, latency_s=share)
        return results


def _redacted(request: DecisionRequest, state: str | None = None) -> DecisionRequest:
    """`request` with secrets a person typed in its state, question and options replaced.

    Both the engine (a model server, perhaps remote) and the decision log see only this copy.
    `state` is the request's state already redacted, when several questions share it.
    """
    options = tuple(Option(o.id, redact(o.description)) for o in request.options)
    shared = redact(request.state) if state is None else state
    return DecisionRequest(shared, redact(request.question), options, request.id)


def decide(  # noqa: PLR0917 - a published signature: callers pass these positionally
    layout: Layout,
    config: Config,
    state: str,
    question: str,
    options: Iterable[Any],
    phase: str = "decide",
    run_id: str | None = None,
) -> DecisionResult:
    """Build the configured engine, answer one decision and log it.

    `options` are `Option`s or (id, description) pairs.
    """
    request = _redacted(DecisionRequest(state, question, as_options(options)))
    engine = LoggedEngine(get_engine(config.semif), DecisionLog.of(layout), phase, run_id)
    return engine.call(request)


def decide_many(  # noqa: PLR0917 - mirrors `decide`
    layout: Layout,
    config: Config,
    state: str,
    questions: Iterable[Any],
    phase: str = "decide",
    run_id: str | None = None,
) -> tuple[DecisionResult, ...]:
    """Answer several questions over one state with the configured engine; one result per question.

    `questions` are `Question`s or (question, options) pairs. Every answer is logged as its own
    row, all with one run id (`run_id`, or a new one). Bad input raises before any engine is built.
    """
    requests = semif_questions.requests_for(state, questions)
    # The state is redacted once and the one copy shared, so an engine that reads a state once
    # for consecutive questions (by identity, before comparing text) sees it as one.
    shared = redact(requests[0].state)
    requests = tuple(_redacted(r, shared) for r in requests)
    engine = LoggedEngine(get_engine(config.semif), DecisionLog.of(layout), phase, run_id or new_run_id())
    return engine.call_many(requests)
