"""The letter-slot prompt: criterion, lettered options and evidence, answered with one letter.

One renderer serves the letter-reading engines, the decision log's prompt hash and
the chat export, so a training row shows a decision in one canonical prompt. (The
openai engine reads a decision by option id where its server allows, in the plain
prompt of semif/cloze.py; the log and the export still render the letter prompt.)
The order of the parts follows what the calls around it share, so the part
that repeats comes first and a server's prompt cache keeps it:

- `options_first` (one decision at a time, e.g. navigation): the criterion and
  the options, then the evidence. A stream of states asked over the same
  options shares everything up to the evidence.
- `state_first` (several questions over one state, `call_many`): the evidence,
  then the criterion and the options. Every question after the first pays only
  for its own words. The openai engine asks every decision this way, since it
  asks each in every cyclic order of its options (semif/cyclic.py): the orders
  share the state, where they could not share the options.

Both orders end with the same answer line, so the letter slot is read the same way.
"""

from __future__ import annotations

from edgar_min.digests import sha256_hex
from edgar_min.semif.types import LETTERS, PROMPT_ORDERS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from edgar_min.semif.types import DecisionRequest, PromptOrder

__all__ = ["PROMPT_ORDERS", "SYSTEM", "letters_for", "prompt_hash", "render", "render_many"]

SYSTEM = (
    "You choose one option of a multiple-choice decision. Read the evidence, apply the "
    "criterion, and answer with the single capital letter of the best option, nothing else."
)


def letters_for(request: DecisionRequest) -> str:
    return LETTERS[: len(request.options)]


def _option_lines(request: DecisionRequest) -> list[str]:
    lines = []
    for letter, option in zip(LETTERS, request.options, strict=False):
        text = f"{letter}. {option.id}"
        if option.description.strip():
            text += f": {' '.join(option.description.split())}"
        lines.append(text)
    return lines


def render(request: DecisionRequest, order: PromptOrder = "options_first") -> str:
    """The user message a letter-slot engine sends for `request`, its parts in `order`.

    Measured on SmolLM2-135M with llama.cpp's server: `options_first` halves the latency of
    a navigation step (the options are cached); `state_first` makes 21 questions over one
    state several times faster than sending the state again with each.
    """
    if order not in PROMPT_ORDERS:
        msg = f"prompt order must be one of {', '.join(PROMPT_ORDERS)}, not {order!r}"
        raise ValueError(msg)
    ask = [f"Criterion: {request.question.strip()}", "", "Options:", *_option_lines(request)]
    evidence = ["Evidence:", request.state.strip()]
    parts = [*ask, "", *evidence] if order == "options_first" else [*evidence, "", *ask]
    return "\n".join([*parts, "", f"Answer with one letter ({', '.join(letters_for(request))})."])


def render_many(decisions: Sequence[DecisionRequest]) -> str:
    """One message asking every question over the shared state, for engines that answer all at once.

    Questions are named `q1`, `q2`, ... (the keys of the one reply); the options keep their ids.
    """
    lines = ["Evidence:", decisions[0].state.strip(), "", "Questions:"]
    for number, decision in enumerate(decisions, 1):
        lines += ["", f"q{number}. Criterion: {decision.question.strip()}", "Options:"]
        for option in decision.options:
            text = f"- {option.id}"
            if option.description.strip():
                text += f": {' '.join(option.description.split())}"
            lines.append(text)
    lines += ["", "Answer every question with the id of its best option."]
    return "\n".join(lines)


def prompt_hash(request: DecisionRequest, order: PromptOrder = "options_first") -> str:
    """sha256 of the system and user text: rows with the same prompt share it."""
    return "sha256:" + sha256_hex(f"{SYSTEM}\n\n{render(request, order)}".encode())[:32]
