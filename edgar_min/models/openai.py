"""The openai provider: any OpenAI-compatible chat-completions server.

llama.cpp's server, Ollama's `/v1`, vLLM and hosted services all speak it.
Where it lives and which key it takes come from `models.endpoint.resolve`,
the resolver the SemIf engine uses too. The key is optional for local
servers, and it lives only in a request header: no error sentence, log line
or `repr` ever shows it.

`complete_object` asks for a JSON object under a schema (`response_format`
of type `json_schema`, which llama.cpp, vLLM, Ollama and OpenAI decode to).
A server that answers such a request with an error status is remembered for
the rest of the process, and asked in text from then on.
"""

from __future__ import annotations

import os

from edgar_min.errors import ConfigError
from edgar_min.models import SchemaRefused
from edgar_min.models.endpoint import DEFAULT_KEY_ENV as _KEY_ENVS
from edgar_min.models.endpoint import resolve
from edgar_min.models.http import HTTPStatusError, post_json, reply_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from edgar_min.config import ModelConfig
    from edgar_min.models import ReplySchema

__all__ = ["DEFAULT_KEY_ENV", "SCHEMA_STATUSES", "OpenAIProvider"]

DEFAULT_KEY_ENV = _KEY_ENVS["openai"]
WHO = "openai provider"
# Statuses with which servers refuse a `response_format` they cannot decode to (400 and 422 for an
# unknown field or schema, 500 and 501 from servers whose grammar step fails).
SCHEMA_STATUSES = frozenset({400, 422, 500, 501})
# (chat-completions URL, model) pairs that refused a schema in this process: asked in text from then on.
_TEXT_ONLY: set[tuple[str, str]] = set()


class OpenAIProvider:
    """`complete(system, prompt)` as one chat-completions call with an explicit temperature."""

    name = "openai"

    def __init__(self, config: ModelConfig, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        endpoint = resolve(
            "openai",
            WHO,
            section="model",
            base_url=config.base_url,
            api_key_env=config.api_key_env,
            environ=env,
        )
        self.base_url, self.base_url_source = endpoint.base_url, endpoint.source
        self.url = f"{self.base_url}/chat/completions"
        if not config.name:
            msg = (
                f"{WHO}: model.name is empty; the chat-completions API needs a model name "
                '(llama.cpp\'s server accepts any, e.g. name = "local")'
            )
            raise ConfigError(msg)
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
        return f"OpenAIProvider(url={self.url!r}, model={self.model!r}, key_env={self.key_env!r})"

    def request_body(self, system: str, prompt: str) -> dict[str, Any]:
        return {
            "model": self.model,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": prompt}],
            # Sent explicitly: servers differ in their defaults.
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "stream": False,
        }

    def object_body(self, system: str, prompt: str, schema: ReplySchema) -> dict[str, Any]:
        """The request body that holds the reply to `schema` (no `strict`: it has no length bounds)."""
        body = self.request_body(system, prompt)
        body["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": schema.name, "description": schema.description, "schema": schema.schema},
        }
        return body

    def _post(self, body: dict[str, Any]) -> str:
        headers = {"Accept": "application/json"}
        if self.__key:
            headers["Authorization"] = f"Bearer {self.__key}"
        reply = post_json(WHO, self.url, body, headers, self.timeout, secret=self.__key)
        return reply_text(WHO, self.url, _content(reply), "a chat completion (no choices[0].message)")

    def complete(self, system: str, prompt: str) -> str:
        return self._post(self.request_body(system, prompt))

    @property
    def takes_schema(self) -> bool:
        """False once this server refused a schema in this process."""
        return (self.url, self.model) not in _TEXT_ONLY

    def text_only(self) -> None:
        """Ask this server in text from now on, for the rest of the process."""
        _TEXT_ONLY.add((self.url, self.model))

    def complete_object(self, system: str, prompt: str, schema: ReplySchema) -> str:
        """The reply as the JSON text of one object under `schema`; `SchemaRefused` if the server says no."""
        if not self.takes_schema:
            msg = f"{WHO}: {self.url} refused a JSON schema earlier in this process"
            raise SchemaRefused(msg)
        try:
            return self._post(self.object_body(system, prompt, schema))
        except HTTPStatusError as exc:
            if exc.status in SCHEMA_STATUSES:
                raise SchemaRefused(exc.message) from None
            raise


def _content(reply: Any) -> str | None:
    """`choices[0].message.content` when the reply has the documented shape, else None."""
    if not isinstance(reply, dict):
        return None
    choices = reply.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        return None
    message = choices[0].get("message")
    if not isinstance(message, dict):
        return None
    content = message.get("content")
    if content is None and "content" in message:
        # A null content (e.g. a refusal or a tool call) is an empty reply, not a shape error.
        return ""
    return content if isinstance(content, str) else None
