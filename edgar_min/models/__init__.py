"""Text model providers behind one method: `complete(system, prompt) -> str`.

Providers are looked up by name and imported only when used, so a command
that never asks a model never pays for `urllib` or `subprocess`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Protocol

from edgar_min.errors import ConfigError

if TYPE_CHECKING:
    from collections.abc import Mapping

    from edgar_min.config import ModelConfig

__all__ = ["PROVIDERS", "Provider", "get_provider"]


class Provider(Protocol):
    """A text model: one system text and one prompt in, one reply out (or `ModelError`)."""

    name: str

    def complete(self, system: str, prompt: str) -> str: ...


PROVIDERS = {
    "offline": "edgar_min.models.offline:OfflineProvider",
    "command": "edgar_min.models.command:CommandProvider",
    "openai": "edgar_min.models.openai:OpenAIProvider",
    "anthropic": "edgar_min.models.anthropic:AnthropicProvider",
}


def get_provider(config: ModelConfig, environ: Mapping[str, str] | None = None) -> Provider:
    """Build the provider named by `[model] provider`."""
    target = PROVIDERS.get(config.provider)
    if target is None:
        msg = f"model.provider {config.provider!r} is not one of {', '.join(PROVIDERS)}"
        raise ConfigError(msg)
    module_name, _, class_name = target.partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    return cls(config, environ)
