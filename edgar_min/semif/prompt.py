"""The letter-slot prompt: criterion, lettered options, evidence, answer with one letter.

One renderer serves the model engines, the decision log's prompt hash and the
chat export, so a training row shows the prompt exactly as a model saw it.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from edgar_min.semif.types import LETTERS

if TYPE_CHECKING:
    from edgar_min.semif.types import DecisionRequest

__all__ = ["SYSTEM", "letters_for", "prompt_hash", "render"]

SYSTEM = (
    "You choose one option of a multiple-choice decision. Read the evidence, apply the "
    "criterion, and answer with the single capital letter of the best option, nothing else."
)


def letters_for(request: DecisionRequest) -> str:
    return LETTERS[: len(request.options)]


def render(request: DecisionRequest) -> str:
    """The user message a model engine sends for `request`.

    The criterion and the lettered options come before the evidence on purpose: decisions
    asked with the same options (every navigation step, say) then share a prompt prefix that
    llama.cpp and vLLM keep cached, so only the evidence is evaluated anew. Measured on
    SmolLM2-135M with llama.cpp's server, this halves the latency of a letter-slot decision.
    """
    lines = [f"Criterion: {request.question.strip()}", "", "Options:"]
    for letter, option in zip(LETTERS, request.options, strict=False):
        text = f"{letter}. {option.id}"
        if option.description.strip():
            text += f": {' '.join(option.description.split())}"
        lines.append(text)
    lines += [
        "",
        "Evidence:",
        request.state.strip(),
        "",
        f"Answer with one letter ({', '.join(letters_for(request))}).",
    ]
    return "\n".join(lines)


def prompt_hash(request: DecisionRequest) -> str:
    """sha256 of the system and user text: rows with the same prompt share it."""
    digest = hashlib.sha256(f"{SYSTEM}\n\n{render(request)}".encode())
    return "sha256:" + digest.hexdigest()[:32]
