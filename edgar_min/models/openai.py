"""The openai provider: any OpenAI-compatible chat-completions server.

llama.cpp's server, Ollama's `/v1`, vLLM and hosted services all speak it.
The base URL comes from `model.base_url`, else `OPENAI_BASE_URL`, else
`OPENAI_API_BASE`, else `OLLAMA_HOST` (with `/v1` added). The key comes from
the variable named by `model.api_key_env` (default `OPENAI_API_KEY`); it is
optional for local servers, and it lives only in a request header: no error
sentence, log line or `repr` ever shows it.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from edgar_min.errors import ConfigError

if TYPE_CHECKING:
    from collections.abc import Mapping

    from edgar_min.config import ModelConfig

__all__ = ["DEFAULT_KEY_ENV", "OpenAIProvider", "resolve_base_url"]

DEFAULT_KEY_ENV = "OPENAI_API_KEY"
WHO = "openai provider"
_OLLAMA_PORT = 11434


def resolve_base_url(config: ModelConfig, environ: Mapping[str, str]) -> tuple[str, str]:
    """The base URL (no trailing slash) and where it came from, or a `ConfigError`."""
    from edgar_min.models.http import check_base_url

    for source, value in (
        ("model.base_url", config.base_url),
        ("OPENAI_BASE_URL", environ.get("OPENAI_BASE_URL", "")),
        ("OPENAI_API_BASE", environ.get("OPENAI_API_BASE", "")),
    ):
        if value.strip():
            return check_base_url(f"{WHO} ({source})", value.strip()), source
    host = environ.get("OLLAMA_HOST", "").strip()
    if host:
        # Ollama's own clients read OLLAMA_HOST without a scheme or port ("127.0.0.1",
        # "0.0.0.0:11434"); its OpenAI-compatible API lives under /v1.
        if "://" not in host:
            hostport = host.rstrip("/")
            if ":" not in hostport.rsplit("]", 1)[-1]:
                hostport += f":{_OLLAMA_PORT}"
            host = f"http://{hostport}"
        url = check_base_url(f"{WHO} (OLLAMA_HOST)", host)
        if not url.endswith("/v1"):
            url += "/v1"
        return url, "OLLAMA_HOST"
    msg = (
        f"{WHO}: no base URL: set model.base_url in .edgar/config.toml or OPENAI_BASE_URL "
        "(e.g. http://127.0.0.1:8080/v1 for llama.cpp's server, https://api.openai.com/v1 for OpenAI)"
    )
    raise ConfigError(msg)


class OpenAIProvider:
    """`complete(system, prompt)` as one chat-completions call with an explicit temperature."""

    name = "openai"

    def __init__(self, config: ModelConfig, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        self.base_url, self.base_url_source = resolve_base_url(config, env)
        self.url = f"{self.base_url}/chat/completions"
        if not config.name:
            msg = (
                f"{WHO}: model.name is empty; the chat-completions API needs a model name "
                '(llama.cpp\'s server accepts any, e.g. name = "local")'
            )
            raise ConfigError(msg)
        self.model = config.name
        # An explicitly named variable must be set; the default one is optional,
        # because local servers (llama.cpp, Ollama) need no key.
        self.key_env = config.api_key_env or DEFAULT_KEY_ENV
        key = env.get(self.key_env, "")
        if config.api_key_env and not key:
            msg = f"{WHO}: model.api_key_env names {self.key_env}, but that environment variable is not set"
            raise ConfigError(msg)
        self.__key = key
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

    def complete(self, system: str, prompt: str) -> str:
        from edgar_min.models.http import post_json, reply_text

        headers = {"Accept": "application/json"}
        if self.__key:
            headers["Authorization"] = f"Bearer {self.__key}"
        body = self.request_body(system, prompt)
        reply = post_json(WHO, self.url, body, headers, self.timeout, secret=self.__key)
        return reply_text(WHO, self.url, _content(reply), "a chat completion (no choices[0].message)")


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
