"""Decisions from the Anthropic Messages API: a forced tool call whose input is an enum of the ids.

The API gives no token probabilities, so the chosen option gets 1, the others
0, and `extra.probability_status` says that these are not probabilities.

`call_many` asks several questions over one state in one request: one forced
tool whose input holds one enum per question (`q1`, `q2`, ...), all required,
so the state is sent and read once. A reply missing any answer is an error for
the whole batch, not a guess.
"""

from __future__ import annotations

import os

from edgar_min.errors import ModelError
from edgar_min.models.endpoint import resolve
from edgar_min.models.http import post_json
from edgar_min.semif.prompt import render, render_many
from edgar_min.semif.types import DecisionResult

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from edgar_min.config import SemifConfig
    from edgar_min.semif.types import DecisionRequest, PromptOrder

__all__ = ["AnthropicEngine"]

DEFAULT_MODEL = "claude-3-5-haiku-latest"
SYSTEM = "You choose one option of a multiple-choice decision by calling the choose tool."
SYSTEM_MANY = "You answer every question of a multiple-choice form by calling the choose tool once."
PROBABILITY_STATUS = "the API gives no probabilities: the chosen option gets 1, the rest 0"


class AnthropicEngine:
    name = "anthropic"

    def __init__(self, config: SemifConfig, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        endpoint = resolve(
            "anthropic", "semif engine anthropic", section="semif", base_url=config.base_url,
            api_key_env=config.api_key_env, environ=env,
        )  # fmt: skip
        self.base_url = endpoint.base_url
        self.model = config.model or DEFAULT_MODEL
        self.timeout = config.timeout_s
        self.headers = {**endpoint.headers(), "anthropic-version": "2023-06-01"}

    def body(self, decision: DecisionRequest) -> dict[str, Any]:
        tool = {
            "name": "choose",
            "description": "Record the id of the one best option.",
            "input_schema": {
                "type": "object",
                "properties": {"choice": {"type": "string", "enum": list(decision.option_ids)}},
                "required": ["choice"],
            },
        }
        return {
            "model": self.model,
            "max_tokens": 64,
            "temperature": 0,
            "system": SYSTEM,
            "tools": [tool],
            "tool_choice": {"type": "tool", "name": "choose"},
            "messages": [{"role": "user", "content": render(decision)}],
        }

    def body_many(self, decisions: Sequence[DecisionRequest]) -> dict[str, Any]:
        """One request for several questions over one state: an enum per question, all required."""
        properties = {
            f"q{number}": {"type": "string", "enum": list(decision.option_ids)}
            for number, decision in enumerate(decisions, 1)
        }
        tool = {
            "name": "choose",
            "description": "Record the id of the one best option of every question.",
            "input_schema": {"type": "object", "properties": properties, "required": list(properties)},
        }
        return {
            "model": self.model,
            "max_tokens": 64 + 24 * len(decisions),
            "temperature": 0,
            "system": SYSTEM_MANY,
            "tools": [tool],
            "tool_choice": {"type": "tool", "name": "choose"},
            "messages": [{"role": "user", "content": render_many(decisions)}],
        }

    def _tool_input(self, body: dict[str, Any]) -> tuple[str, dict[str, Any] | None]:
        url = f"{self.base_url}/v1/messages"
        reply = post_json("semif engine anthropic", url, body, self.headers, self.timeout)
        blocks = reply.get("content") if isinstance(reply, dict) else None
        for block in blocks if isinstance(blocks, list) else ():
            if isinstance(block, dict) and block.get("type") == "tool_use":
                tool_input = block.get("input")
                return url, tool_input if isinstance(tool_input, dict) else None
        return url, None

    def call(self, decision: DecisionRequest) -> DecisionResult:
        url, tool_input = self._tool_input(self.body(decision))
        choice = tool_input.get("choice") if tool_input else None
        if choice not in decision.option_ids:
            msg = f"semif engine anthropic: {url} answered without choosing one of the option ids"
            raise ModelError(msg)
        return _chosen(decision, choice, "options_first")

    def call_many(self, decisions: Sequence[DecisionRequest]) -> list[DecisionResult]:
        url, tool_input = self._tool_input(self.body_many(decisions))
        results = []
        for number, decision in enumerate(decisions, 1):
            choice = tool_input.get(f"q{number}") if tool_input else None
            if choice not in decision.option_ids:
                msg = f"semif engine anthropic: {url} answered q{number} with none of its option ids"
                raise ModelError(msg)
            results.append(_chosen(decision, choice, "state_first"))
        return results


def _chosen(decision: DecisionRequest, choice: str, order: PromptOrder) -> DecisionResult:
    probs = tuple(1.0 if i == choice else 0.0 for i in decision.option_ids)
    extra = {"probability_status": PROBABILITY_STATUS}
    return DecisionResult(decision, decision.option_ids, probs, "anthropic", extra, order)
