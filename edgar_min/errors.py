"""Every refusal edgar_min makes is one of these: a plain sentence, and a kind.

The CLI maps the kind to an exit code in exactly one place (`cli.main`);
library code raises or returns these and never calls `sys.exit`.
"""

from __future__ import annotations

__all__ = [
    "BadInput",
    "ConfigError",
    "EdgarError",
    "ModelError",
    "NotFound",
    "Refused",
]


class EdgarError(Exception):
    """Base error: carries one plain sentence meant for a person."""

    exit_code = 1

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class BadInput(EdgarError):
    """Input that could not be read or parsed (malformed JSON/TOML/frontmatter, a forbidden key)."""

    exit_code = 2


class ConfigError(BadInput):
    """A config file or variable with an unknown key or a wrong type."""


class Refused(EdgarError):
    """A rule said no: a write the writer refused, a failed validation."""

    exit_code = 1


class NotFound(Refused):
    """A name that is not there: an unknown skill, proposal or record."""


class ModelError(EdgarError):
    """A model provider failed: unreachable, timed out, or answered out of shape."""

    exit_code = 1
