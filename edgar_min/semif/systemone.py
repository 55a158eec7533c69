"""A SemIf/Jev-compatible decision server: `POST /v1/systemone` with a `choice` question.

The server does the readout itself and answers with a probability per option.
Accepted reply shapes: `{"probabilities": [p, ...]}` in option order,
`{"probabilities": {id: p}}`, or `{"options": [{"id": ..., "probability": p}]}`.
The probabilities are renormalised over the declared options.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from edgar_min.errors import ConfigError, ModelError
from edgar_min.semif.types import DecisionResult

if TYPE_CHECKING:
    from collections.abc import Mapping

    from edgar_min.config import SemifConfig
    from edgar_min.semif.types import DecisionRequest

__all__ = ["SystemOneEngine"]


class SystemOneEngine:
    name = "systemone"

    def __init__(self, config: SemifConfig, environ: Mapping[str, str] | None = None) -> None:
        from edgar_min.models.http import check_base_url

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

    def body(self, decision: DecisionRequest) -> dict[str, Any]:
        return {
            "model": self.model,
            "state": decision.state,
            "question": {
                "type": "choice",
                "text": decision.question,
                "options": [{"id": o.id, "description": o.description} for o in decision.options],
            },
        }

    def call(self, decision: DecisionRequest) -> DecisionResult:
        from edgar_min.models.http import post_json

        reply = post_json("semif engine systemone", self.url, self.body(decision), self.headers, self.timeout)
        raw = _read_probabilities(reply, decision.option_ids)
        if raw is None:
            msg = f"semif engine systemone: {self.url} answered without a probability for each option"
            raise ModelError(msg)
        total = sum(raw)
        if total <= 0:
            msg = f"semif engine systemone: {self.url} gave every option probability 0"
            raise ModelError(msg)
        return DecisionResult(
            decision,
            decision.option_ids,
            tuple(p / total for p in raw),
            "systemone",
            {"reported_total": total},
        )


def _read_probabilities(reply: Any, ids: tuple[str, ...]) -> list[float] | None:
    if not isinstance(reply, dict):
        return None
    probs = reply.get("probabilities")
    if isinstance(probs, list) and len(probs) == len(ids):
        values = probs
    elif isinstance(probs, dict) and set(probs) == set(ids):
        values = [probs[i] for i in ids]
    elif isinstance(reply.get("options"), list):
        by_id = {o.get("id"): o.get("probability") for o in reply["options"] if isinstance(o, dict)}
        if set(by_id) != set(ids):
            return None
        values = [by_id[i] for i in ids]
    else:
        return None
    ok = all(isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0 for v in values)
    return [float(v) for v in values] if ok else None
