"""The letter-slot readout on any OpenAI-compatible chat server (llama.cpp, Ollama, vLLM, hosted).

The options are shown as letters and the model is asked for one token with
`top_logprobs: 20`. Each letter's probability is the softmax, over the
letters only, of the log-probability of its first exact-match token; a letter
missing from the top 20 gets 0 and is listed in `extra.missing_letters`.
A server that returns no logprobs (or no letter among them) is asked again for
a constrained answer (a JSON-schema enum of the letters); that result gives the
chosen option probability 1 and says so in `extra.probability_status`.

`call_many` asks several questions over one state, one request each, with the
state first (see semif/prompt.py): the server's prompt cache keeps the system
text and the state, so each question after the first pays only for its own
words. There is no single request that reads 21 letter slots of a chat model;
on a 2-core CPU, parallel requests gave nothing either.
"""

from __future__ import annotations

import math
import os

from edgar_min import jsoncodec
from edgar_min.errors import ModelError
from edgar_min.models.endpoint import resolve
from edgar_min.models.http import post_json
from edgar_min.semif.prompt import SYSTEM, letters_for, render
from edgar_min.semif.types import DecisionResult

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from edgar_min.config import SemifConfig
    from edgar_min.semif.types import DecisionRequest, PromptOrder

__all__ = ["OpenAIEngine"]

TOP_LOGPROBS = 20


class OpenAIEngine:
    """SemIf decisions from an OpenAI-compatible `/chat/completions` endpoint."""

    name = "openai"

    def __init__(self, config: SemifConfig, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        endpoint = resolve(
            "openai", "semif engine openai", section="semif", base_url=config.base_url,
            api_key_env=config.api_key_env, environ=env,
        )  # fmt: skip
        self.base_url = endpoint.base_url
        self.model = config.model or "default"
        self.timeout = config.timeout_s
        self.headers: dict[str, str] = endpoint.headers()

    def _post(self, body: dict[str, Any]) -> Any:
        return post_json(
            "semif engine openai", f"{self.base_url}/chat/completions", body, self.headers, self.timeout
        )

    def letter_body(self, decision: DecisionRequest, order: PromptOrder = "options_first") -> dict[str, Any]:
        """The request body of the letter-slot readout (public so tests and the bench can reuse it)."""
        return {
            "model": self.model,
            "messages": [
                {"role": "system", "content": SYSTEM},
                {"role": "user", "content": render(decision, order)},
            ],
            "max_tokens": 1,
            "temperature": 0,
            "logprobs": True,
            "top_logprobs": TOP_LOGPROBS,
        }

    def call(self, decision: DecisionRequest) -> DecisionResult:
        return self.read(decision, self._post(self.letter_body(decision)))

    def call_many(self, decisions: Sequence[DecisionRequest]) -> list[DecisionResult]:
        """Several questions over one state: one letter-slot request each, the state first."""
        return [
            self.read(d, self._post(self.letter_body(d, "state_first")), "state_first") for d in decisions
        ]

    def read(
        self, decision: DecisionRequest, reply: Any, order: PromptOrder = "options_first"
    ) -> DecisionResult:
        """The result for `decision` from a letter-slot `reply`; asks again, constrained, without logprobs."""
        letters = letters_for(decision)
        top = _top_logprobs(reply)
        if top is None:
            return self.constrained(decision, "the server returned no logprobs", order)
        found: dict[str, float] = {}
        for entry in top:
            token = entry.get("token") if isinstance(entry, dict) else None
            logprob = entry.get("logprob") if isinstance(entry, dict) else None
            if token in letters and token not in found and isinstance(logprob, (int, float)):
                found[token] = float(logprob)
        if not found:
            return self.constrained(decision, "no option letter was among the top logprobs", order)
        peak = max(found.values())
        weights = [math.exp(found[x] - peak) if x in found else 0.0 for x in letters]
        total = sum(weights)
        missing = [x for x in letters if x not in found]
        extra: dict[str, Any] = {"letters": letters, "probability_status": "logprobs"}
        if missing:
            extra["missing_letters"] = missing
        return DecisionResult(
            decision, decision.option_ids, tuple(w / total for w in weights), "openai", extra, order
        )

    def constrained(
        self, decision: DecisionRequest, why: str, order: PromptOrder = "options_first"
    ) -> DecisionResult:
        """Ask for `{"choice": LETTER}` under a JSON-schema enum; probability 1 for the answer."""
        letters = letters_for(decision)
        schema = {
            "type": "object",
            "properties": {"choice": {"type": "string", "enum": list(letters)}},
            "required": ["choice"],
            "additionalProperties": False,
        }
        body = self.letter_body(decision, order)
        body.pop("logprobs")
        body.pop("top_logprobs")
        body["max_tokens"] = 16
        body["response_format"] = {"type": "json_schema", "json_schema": {"name": "choice", "schema": schema}}
        reply = self._post(body)
        try:
            content = reply["choices"][0]["message"]["content"]
            letter = jsoncodec.loads(content)["choice"]
        except (KeyError, IndexError, TypeError, ValueError):
            msg = "semif engine openai: the constrained answer was not a JSON object with a 'choice'"
            raise ModelError(msg) from None
        if letter not in letters:
            msg = f"semif engine openai: the constrained answer {str(letter)[:20]!r} is not one of {letters}"
            raise ModelError(msg)
        probs = tuple(1.0 if x == letter else 0.0 for x in letters)
        extra = {
            "letters": letters,
            "probability_status": f"constrained answer, no probabilities ({why}): the chosen option gets 1",
        }
        return DecisionResult(decision, decision.option_ids, probs, "openai", extra, order)


def _top_logprobs(reply: Any) -> list[Any] | None:
    try:
        content = reply["choices"][0]["logprobs"]["content"]
        top = content[0]["top_logprobs"]
    except (KeyError, IndexError, TypeError):
        return None
    return top if isinstance(top, list) and top else None
