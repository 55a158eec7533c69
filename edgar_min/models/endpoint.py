"""Where an HTTP model lives and which key opens it: one resolver for the providers and the SemIf engines.

OpenAI-compatible servers: the configured base URL, else `OPENAI_BASE_URL`,
else `OPENAI_API_BASE`, else `OLLAMA_HOST` (Ollama's own form: a host with or
without a scheme and port; `/v1` is added). Nothing set is an error that says
where to set one: edgar never sends a turn to a hosted API nobody named. The
key is read from the variable named in config (then it must be set), else
from `OPENAI_API_KEY` (optional: local servers need none).

Anthropic: the configured base URL, else `ANTHROPIC_BASE_URL`, else the hosted
API; given with or without its `/v1`. The key is required.

The key lives in the `Endpoint` and in request headers only; its `repr` and
every sentence leave it out.
"""

from __future__ import annotations

from edgar_min.errors import ConfigError
from edgar_min.models.http import check_base_url
from edgar_min.records import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Literal

    Protocol = Literal["openai", "anthropic"]


__all__ = ["ANTHROPIC_BASE_URL", "DEFAULT_KEY_ENV", "Endpoint", "resolve"]


DEFAULT_KEY_ENV: dict[Protocol, str] = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
ANTHROPIC_BASE_URL = "https://api.anthropic.com"
_OLLAMA_PORT = 11434


@dataclass(frozen=True, slots=True)
class Endpoint:
    """A resolved server: its base URL and where it came from, and the key's variable and value."""

    protocol: Protocol
    base_url: str
    source: str
    key_env: str
    key: str = field(repr=False)

    def headers(self) -> dict[str, str]:
        """The headers that carry the key, in the protocol's own form."""
        if self.protocol == "anthropic":
            return {"x-api-key": self.key} if self.key else {}
        return {"Authorization": f"Bearer {self.key}"} if self.key else {}


def _ollama(host: str) -> str:
    # Ollama's own clients read OLLAMA_HOST without a scheme or port ("127.0.0.1",
    # "0.0.0.0:11434"); its OpenAI-compatible API lives under /v1.
    if "://" not in host:
        hostport = host.rstrip("/")
        if ":" not in hostport.rsplit("]", 1)[-1]:
            hostport += f":{_OLLAMA_PORT}"
        host = f"http://{hostport}"
    return host


def _base_url(
    protocol: Protocol, who: str, configured: str, key: str, environ: Mapping[str, str]
) -> tuple[str, str]:
    if protocol == "anthropic":
        for source, value in (
            (key, configured),
            ("ANTHROPIC_BASE_URL", environ.get("ANTHROPIC_BASE_URL", "")),
        ):
            if value.strip():
                return check_base_url(f"{who} ({source})", value.strip()).removesuffix("/v1"), source
        return ANTHROPIC_BASE_URL, "default"
    for source, value in (
        (key, configured),
        ("OPENAI_BASE_URL", environ.get("OPENAI_BASE_URL", "")),
        ("OPENAI_API_BASE", environ.get("OPENAI_API_BASE", "")),
    ):
        if value.strip():
            return check_base_url(f"{who} ({source})", value.strip()), source
    host = environ.get("OLLAMA_HOST", "").strip()
    if host:
        url = check_base_url(f"{who} (OLLAMA_HOST)", _ollama(host))
        return (url if url.endswith("/v1") else url + "/v1"), "OLLAMA_HOST"
    msg = (
        f"{who}: no base URL: set {key} in .edgar/config.toml or OPENAI_BASE_URL "
        "(e.g. http://127.0.0.1:8080/v1 for llama.cpp's server, https://api.openai.com/v1 for OpenAI)"
    )
    raise ConfigError(msg)


def resolve(
    protocol: Protocol,
    who: str,
    *,
    section: str,
    base_url: str,
    api_key_env: str,
    environ: Mapping[str, str],
) -> Endpoint:
    """The endpoint for `[section] base_url` / `api_key_env`, or a `ConfigError` that names what to set.

    `who` starts every sentence ("openai provider", "semif engine openai").
    """
    url, source = _base_url(protocol, who, base_url, f"{section}.base_url", environ)
    key_env = api_key_env or DEFAULT_KEY_ENV[protocol]
    key = environ.get(key_env, "")
    if protocol == "anthropic" and not key:
        msg = f"{who}: the environment variable {key_env} is not set; it must hold the API key"
        raise ConfigError(msg)
    if api_key_env and not key:
        msg = f"{who}: {section}.api_key_env names {key_env}, but that environment variable is not set"
        raise ConfigError(msg)
    return Endpoint(protocol, url, source, key_env, key)
