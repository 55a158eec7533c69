"""Decisions from the Anthropic Messages API: a forced tool call whose input is an enum of the ids.

The API gives no token probabilities, so the chosen option gets 1, the others
0, and `extra.probability_status` says that these are not probabilities.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from edgar_min.errors import ModelError
from edgar_min.semif.prompt import render
from edgar_min.semif.types import DecisionResult

if TYPE_CHECKING:
    from collections.abc import Mapping

    from edgar_min.config import SemifConfig
    from edgar_min.semif.types import DecisionRequest

__all__ = ["AnthropicEngine"]

DEFAULT_MODEL = "claude-3-5-haiku-latest"
SYSTEM = "You choose one option of a multiple-choice decision by calling the choose tool."


class AnthropicEngine:
    name = "anthropic"

    def __init__(self, config: SemifConfig, environ: Mapping[str, str] | None = None) -> None:
        from edgar_min.models.endpoint import resolve

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

    def call(self, decision: DecisionRequest) -> DecisionResult:
        from edgar_min.models.http import post_json

        url = f"{self.base_url}/v1/messages"
        reply = post_json("semif engine anthropic", url, self.body(decision), self.headers, self.timeout)
        choice = None
        blocks = reply.get("content") if isinstance(reply, dict) else None
        for block in blocks if isinstance(blocks, list) else ():
            if isinstance(block, dict) and block.get("type") == "tool_use":
                tool_input = block.get("input")
                choice = tool_input.get("choice") if isinstance(tool_input, dict) else None
                break
        if choice not in decision.option_ids:
            msg = f"semif engine anthropic: {url} answered without choosing one of the option ids"
            raise ModelError(msg)
        probs = tuple(1.0 if i == choice else 0.0 for i in decision.option_ids)
        extra = {"probability_status": "the API gives no probabilities: the chosen option gets 1, the rest 0"}
        return DecisionResult(decision, decision.option_ids, probs, "anthropic", extra)
