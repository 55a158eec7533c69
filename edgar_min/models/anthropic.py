"""The anthropic provider: the Messages API (`POST /v1/messages`).

The key comes from `ANTHROPIC_API_KEY` or the variable named by
`model.api_key_env` and is required; it travels only in the `x-api-key`
header, and no error sentence, log line or `repr` ever shows it.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from edgar_min.errors import ConfigError

if TYPE_CHECKING:
    from collections.abc import Mapping

    from edgar_min.config import ModelConfig

__all__ = ["API_VERSION", "DEFAULT_BASE_URL", "DEFAULT_KEY_ENV", "AnthropicProvider"]

API_VERSION = "2023-06-01"
DEFAULT_BASE_URL = "https://api.anthropic.com"
DEFAULT_KEY_ENV = "ANTHROPIC_API_KEY"
WHO = "anthropic provider"


class AnthropicProvider:
    """`complete(system, prompt)` as one Messages API call with an explicit temperature."""

    name = "anthropic"

    def __init__(self, config: ModelConfig, environ: Mapping[str, str] | None = None) -> None:
        from edgar_min.models.http import check_base_url

        env = os.environ if environ is None else environ
        if config.base_url.strip():
            source, raw = "model.base_url", config.base_url.strip()
        elif env.get("ANTHROPIC_BASE_URL", "").strip():
            source, raw = "ANTHROPIC_BASE_URL", env["ANTHROPIC_BASE_URL"].strip()
        else:
            source, raw = "default", DEFAULT_BASE_URL
        base = check_base_url(f"{WHO} ({source})", raw)
        # Accept a base URL given with or without the /v1 the API lives under.
        self.base_url = base.removesuffix("/v1")
        self.base_url_source = source
        self.url = f"{self.base_url}/v1/messages"
        if not config.name:
            msg = (
                f'{WHO}: model.name is empty; the Messages API needs a model name (e.g. name = "claude-...")'
            )
            raise ConfigError(msg)
        self.model = config.name
        self.key_env = config.api_key_env or DEFAULT_KEY_ENV
        key = env.get(self.key_env, "")
        if not key:
            msg = f"{WHO}: the environment variable {self.key_env} is not set; it must hold the API key"
            raise ConfigError(msg)
        self.__key = key
        self.temperature = config.temperature
        self.max_tokens = config.max_tokens
        self.timeout = config.timeout_s

    @property
    def has_key(self) -> bool:
        return bool(self.__key)

    def __repr__(self) -> str:
        return f"AnthropicProvider(url={self.url!r}, model={self.model!r}, key_env={self.key_env!r})"

    def request_body(self, system: str, prompt: str) -> dict[str, Any]:
        return {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "system": system,
            "messages": [{"role": "user", "content": prompt}],
            "temperature": self.temperature,
        }

    def complete(self, system: str, prompt: str) -> str:
        from edgar_min.models.http import post_json, reply_text

        headers = {"x-api-key": self.__key, "anthropic-version": API_VERSION, "Accept": "application/json"}
        body = self.request_body(system, prompt)
        reply = post_json(WHO, self.url, body, headers, self.timeout, secret=self.__key)
        return reply_text(WHO, self.url, _text(reply), "a message (no content list of text blocks)")


def _text(reply: Any) -> str | None:
    """The joined `text` blocks of `content` when the reply is a documented message, else None."""
    if not isinstance(reply, dict) or reply.get("type") != "message":
        return None
    content = reply.get("content")
    if not isinstance(content, list):
        return None
    parts = []
    for block in content:
        if not isinstance(block, dict):
            return None
        if block.get("type") == "text":
            text = block.get("text")
            if not isinstance(text, str):
                return None
            parts.append(text)
    return "".join(parts)
