"""Text model providers behind one method: `complete(system, prompt) -> str`.

Providers are looked up by name and imported only when used, so a command
that never asks a model never pays for `urllib` or `subprocess`. A provider
that can be held to a JSON schema (`openai` through `response_format`,
`anthropic` through a forced tool) also has `complete_object`; `ask` uses it
when it can and falls back to the text prompt when the server refuses it.
"""

from __future__ import annotations

import importlib

from edgar_min import jsoncodec
from edgar_min.errors import ConfigError, ModelError
from edgar_min.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, Protocol

    from edgar_min.config import ModelConfig

__all__ = [
    "AGENT_PROVIDERS",
    "MAX_REPLY_CHARS",
    "PROVIDERS",
    "Provider",
    "ReplySchema",
    "SchemaRefused",
    "ask",
    "get_provider",
    "probe_schema",
]

# A model reply larger than this is refused before it is parsed.
MAX_REPLY_CHARS = 64_000


if not TYPE_CHECKING:
    Protocol = object  # `Provider` is a description for type checkers; nothing checks it at run time


class Provider(Protocol):
    """A text model: one system text and one prompt in, one reply out (or `ModelError`)."""

    name: str

    def complete(self, system: str, prompt: str) -> str: ...


@dataclass(frozen=True, slots=True)
class ReplySchema:
    """The JSON object a reply must be; `name` is OpenAI's schema name and Anthropic's tool name."""

    name: str
    description: str
    schema: dict[str, Any]


class SchemaRefused(ModelError):
    """The server would not take a schema-held request; the caller may ask again as text."""


PROVIDERS = {
    "offline": "edgar_min.models.offline:OfflineProvider",
    "command": "edgar_min.models.command:CommandProvider",
    "openai": "edgar_min.models.openai:OpenAIProvider",
    "anthropic": "edgar_min.models.anthropic:AnthropicProvider",
    "claude-code": "edgar_min.models.agent_cli:AgentProvider",
}


# The providers that run the person's own agent headless (models/agent_cli.py): a call costs the
# agent's start and a whole model turn, so no hook waits for one, and one that fails leaves the
# offline writer's skill instead (controller/gate.py).
AGENT_PROVIDERS = ("claude-code",)


def get_provider(config: ModelConfig, environ: Mapping[str, str] | None = None) -> Provider:
    """Build the provider named by `[model] provider`."""
    target = PROVIDERS.get(config.provider)
    if target is None:
        msg = f"model.provider {config.provider!r} is not one of {', '.join(PROVIDERS)}"
        raise ConfigError(msg)
    module_name, _, class_name = target.partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    return cls(config, environ)


def ask(provider: Provider, prompt: str, *, brief: str, json_brief: str, schema: ReplySchema) -> str:
    """One reply to `prompt`: a JSON object under `schema` where the provider can give one, else text.

    A server that refuses the schema is asked again with the text brief; when that works, the
    provider remembers it (once per process) and asks that server in text from then on.
    """
    complete_object = getattr(provider, "complete_object", None)
    if complete_object is None:
        return provider.complete(brief, prompt)
    try:
        return complete_object(json_brief, prompt, schema)
    except SchemaRefused:
        reply = provider.complete(brief, prompt)
        provider.text_only()  # type: ignore[attr-defined]  # every provider with complete_object has it
        return reply


_PROBE = ReplySchema(
    "health",
    "Answer the health check.",
    {
        "type": "object",
        "properties": {"status": {"type": "string", "enum": ["ok"]}},
        "required": ["status"],
        "additionalProperties": False,
    },
)


def probe_schema(provider: Provider) -> tuple[bool, str]:
    """Whether the server takes a JSON-schema request, and a sentence saying so (one tiny request).

    A failure that is not a refusal of the schema (no connection, a bad key) raises `ModelError`.
    """
    system = "You are a health check. Answer with the JSON object."
    try:
        reply = provider.complete_object(system, "ok?", _PROBE)  # type: ignore[attr-defined]
    except SchemaRefused as exc:
        return False, f"the server refuses a JSON schema ({exc.message}); synthesis uses the text prompt"
    try:
        held = jsoncodec.loads(reply) == {"status": "ok"}
    except ValueError:
        held = False
    if held:
        return True, "the server answers under a JSON schema; synthesis asks for the skill as a JSON object"
    return True, "the server takes a JSON schema but did not hold to it; the reply is read either way"
