"""A SemIf/Jev-compatible decision server: `POST /v1/systemone`, several questions per request.

The wire format is TypeSafe Jev's System One API (also served by colibri,
LiteLLM and other gateways): one `state` and a `questions` object of named,
typed questions. edgar asks `choice` questions only:

    {"model": ..., "state": "...",
     "questions": {"q1": {"type": "choice", "instructions": "Which team?",
                          "criteria": {"billing": "payments", "technical": "bugs"}}}}

and reads `answers[name].probabilities` (by option id), renormalised over the
declared options. The server reads the state once for every question of a
request, so `call_many` sends the questions over one state together: up to
`MAX_PER_REQUEST` per request, the limit hosted Jev documents.
"""

from __future__ import annotations

import os

from edgar_min.errors import ConfigError, ModelError
from edgar_min.models.http import check_base_url, post_json
from edgar_min.semif.types import DecisionResult

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from edgar_min.config import SemifConfig
    from edgar_min.semif.types import DecisionRequest, PromptOrder

__all__ = ["MAX_PER_REQUEST", "SystemOneEngine"]

# Hosted Jev takes up to 10 questions about one state per call; more are sent in further requests.
MAX_PER_REQUEST = 10


class SystemOneEngine:
    name = "systemone"

    def __init__(self, config: SemifConfig, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        if not config.base_url:
            msg = "semif.engine = 'systemone' needs semif.base_url (the server's root URL)"
            raise ConfigError(msg)
        root = check_base_url("semif engine systemone", config.base_url)
        # Accept a base URL given with or without the /v1 suffix.
        self.url = f"{root.removesuffix('/v1')}/v1/systemone"
        self.model = config.model or "default"
        self.timeout = config.timeout_s
        self.headers: dict[str, str] = {}
        if config.api_key_env:
            key = env.get(config.api_key_env, "")
            if not key:
                msg = (
                    f"semif.api_key_env names {config.api_key_env}, but that environment variable is not set"
                )
                raise ConfigError(msg)
            self.headers["Authorization"] = f"Bearer {key}"

    def body(self, decisions: Sequence[DecisionRequest]) -> dict[str, Any]:
        """One request for questions over one state, named `q1`, `q2`, ... in order."""
        questions = {
            f"q{number}": {
                "type": "choice",
                "instructions": decision.question,
                "criteria": {o.id: (o.description or None) for o in decision.options},
            }
            for number, decision in enumerate(decisions, 1)
        }
        return {"model": self.model, "state": decisions[0].state, "questions": questions}

    def call(self, decision: DecisionRequest) -> DecisionResult:
        return self._ask([decision], "options_first")[0]

    def call_many(self, decisions: Sequence[DecisionRequest]) -> list[DecisionResult]:
        """Questions over one state in as few requests as the server takes; a new state starts a new one."""
        results: list[DecisionResult] = []
        batch: list[DecisionRequest] = []
        for decision in decisions:
            if batch and (len(batch) == MAX_PER_REQUEST or decision.state != batch[0].state):
                results += self._ask(batch, "state_first")
                batch = []
            batch.append(decision)
        if batch:
            results += self._ask(batch, "state_first")
        return results

    def _ask(self, decisions: list[DecisionRequest], order: PromptOrder) -> list[DecisionResult]:
        body = self.body(decisions)
        reply = post_json("semif engine systemone", self.url, body, self.headers, self.timeout)
        answers = reply.get("answers") if isinstance(reply, dict) else None
        if not isinstance(answers, dict):
            msg = f"semif engine systemone: {self.url} answered without an 'answers' object"
            raise ModelError(msg)
        return [
            self._result(decision, answers.get(f"q{number}"), f"q{number}", order)
            for number, decision in enumerate(decisions, 1)
        ]

    def _result(
        self, decision: DecisionRequest, answer: Any, name: str, order: PromptOrder
    ) -> DecisionResult:
        raw = _read_probabilities(answer, decision.option_ids)
        if raw is None:
            msg = f"semif engine systemone: {self.url} answered {name} without a probability for each option"
            raise ModelError(msg)
        total = sum(raw)
        if total <= 0:
            msg = f"semif engine systemone: {self.url} gave every option of {name} probability 0"
            raise ModelError(msg)
        extra: dict[str, Any] = {"reported_total": total}
        if isinstance(answer.get("confidence"), (int, float)):
            extra["confidence"] = answer["confidence"]
        return DecisionResult(
            decision, decision.option_ids, tuple(p / total for p in raw), "systemone", extra, order
        )


def _read_probabilities(answer: Any, ids: tuple[str, ...]) -> list[float] | None:
    if not isinstance(answer, dict):
        return None
    probs = answer.get("probabilities")
    if not isinstance(probs, dict) or set(probs) != set(ids):
        return None
    values = [probs[i] for i in ids]
    ok = all(isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0 for v in values)
    return [float(v) for v in values] if ok else None
