"""The anthropic provider: the Messages API (`POST /v1/messages`).

Where it lives and which key it takes come from `models.endpoint.resolve`,
the resolver the SemIf engine uses too. The key is required; it travels only
in the `x-api-key` header, and no error sentence, log line or `repr` ever
shows it. `complete_object` forces one tool whose `input_schema` is the
reply's schema, and answers with the JSON text of the tool's input.
"""

from __future__ import annotations

import os

from edgar_min import jsoncodec
from edgar_min.errors import ConfigError
from edgar_min.models import SchemaRefused
from edgar_min.models.endpoint import ANTHROPIC_BASE_URL as DEFAULT_BASE_URL
from edgar_min.models.endpoint import DEFAULT_KEY_ENV as _KEY_ENVS
from edgar_min.models.endpoint import resolve
from edgar_min.models.http import HTTPStatusError, post_json, reply_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from edgar_min.config import ModelConfig
    from edgar_min.models import ReplySchema

__all__ = ["API_VERSION", "DEFAULT_BASE_URL", "DEFAULT_KEY_ENV", "AnthropicProvider"]

API_VERSION = "2023-06-01"
DEFAULT_KEY_ENV = _KEY_ENVS["anthropic"]
WHO = "anthropic provider"
# Messages API servers that refused a forced tool in this process (a proxy that speaks text only).
_TEXT_ONLY: set[tuple[str, str]] = set()


class AnthropicProvider:
    """`complete(system, prompt)` as one Messages API call with an explicit temperature."""

    name = "anthropic"

    def __init__(self, config: ModelConfig, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        if not config.name:
            msg = (
                f'{WHO}: model.name is empty; the Messages API needs a model name (e.g. name = "claude-...")'
            )
            raise ConfigError(msg)
        endpoint = resolve(
            "anthropic",
            WHO,
            section="model",
            base_url=config.base_url,
            api_key_env=config.api_key_env,
            environ=env,
        )
        self.base_url, self.base_url_source = endpoint.base_url, endpoint.source
        self.url = f"{self.base_url}/v1/messages"
        self.model = config.name
        self.key_env = endpoint.key_env
        self.__key = endpoint.key
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

    def object_body(self, system: str, prompt: str, schema: ReplySchema) -> dict[str, Any]:
        """The request body that forces one tool call whose input is held to `schema`."""
        body = self.request_body(system, prompt)
        body["tools"] = [
            {"name": schema.name, "description": schema.description, "input_schema": schema.schema}
        ]
        body["tool_choice"] = {"type": "tool", "name": schema.name}
        return body

    def _post(self, body: dict[str, Any]) -> Any:
        headers = {"x-api-key": self.__key, "anthropic-version": API_VERSION, "Accept": "application/json"}
        return post_json(WHO, self.url, body, headers, self.timeout, secret=self.__key)

    def complete(self, system: str, prompt: str) -> str:
        reply = self._post(self.request_body(system, prompt))
        return reply_text(WHO, self.url, _text(reply), "a message (no content list of text blocks)")

    @property
    def takes_schema(self) -> bool:
        return (self.url, self.model) not in _TEXT_ONLY

    def text_only(self) -> None:
        _TEXT_ONLY.add((self.url, self.model))

    def complete_object(self, system: str, prompt: str, schema: ReplySchema) -> str:
        """The forced tool's input as JSON text (or the text blocks, when the model wrote text instead)."""
        if not self.takes_schema:
            msg = f"{WHO}: {self.url} refused a forced tool earlier in this process"
            raise SchemaRefused(msg)
        try:
            reply = self._post(self.object_body(system, prompt, schema))
        except HTTPStatusError as exc:
            if exc.status == 400:
                raise SchemaRefused(exc.message) from None
            raise
        tool_input = _tool_input(reply, schema.name)
        text = jsoncodec.dumps(tool_input, ensure_ascii=False) if tool_input is not None else _text(reply)
        return reply_text(WHO, self.url, text, "a message (no tool_use block and no text blocks)")


def _tool_input(reply: Any, tool: str) -> dict[str, Any] | None:
    """The input of the `tool_use` block calling `tool`, when there is one."""
    content = reply.get("content") if isinstance(reply, dict) else None
    for block in content if isinstance(content, list) else ():
        if isinstance(block, dict) and block.get("type") == "tool_use" and block.get("name") == tool:
            value = block.get("input")
            return value if isinstance(value, dict) else None
    return None


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
