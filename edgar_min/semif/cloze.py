"""The option-id readout: which option's id the model would write after the evidence, less its habit.

A small model reads a letter slot badly: on SmolLM2-135M the letter of an option says almost
nothing about its content, even once every option is asked at every letter (semif/cyclic.py):
on 123 labelled decisions, 32% right against 30% by chance. Robinson et al. ("Leveraging Large
Language Models for Multiple Choice Question Answering", ICLR 2023) find that small models lack
this "symbol binding" and do better scored on the answer's own words. So this readout asks for no
letter. The prompt is plain text ending in `Answer:`, and an option's score is the log-probability
of the first token of its id there.

Some ids are likelier than others whatever the evidence says ("yes" over "no", a short common
word over a rare one). Holtzman et al. ("Surface Form Competition: Why the Highest Probability
Answer Isn't Always Right", EMNLP 2021) divide each answer's probability by its probability in a
prompt whose evidence says nothing (domain-conditional PMI). That prompt is the same text with
the evidence `N/A`, so it depends only on the question and the options, and the engine keeps its
answer for the next decision that asks the same. Each order of the options is divided by its own
content-free answer, and the orders are combined as the letter slot's are, so the listing order
cancels as the letters do.

On those 123 decisions with SmolLM2-135M, in every order: 42.3% right with the division, and
30.1% without it. In one order only it is 40.7%, but a decision asked again with its options
turned keeps its top choice in only 66 of 123. The ids' first tokens must differ; a decision
whose ids share one is asked by letter instead.
"""

from __future__ import annotations

import math

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from edgar_min.semif.types import DecisionRequest

__all__ = ["CONTENT_FREE", "id_logprobs", "pmi", "read_top", "render_cloze"]

# The evidence of the content-free prompt, as in Zhao et al.'s contextual calibration.
CONTENT_FREE = "N/A"


def render_cloze(decision: DecisionRequest, state: str | None = None) -> str:
    """The plain-text prompt for `decision`: the evidence first (shared by its orders), then the options.

    `state` replaces the decision's evidence (the content-free prompt passes `CONTENT_FREE`).
    """
    evidence = (decision.state if state is None else state).strip()
    lines = [f"Text: {evidence}", f"Question: {' '.join(decision.question.split())}", "Options:"]
    for option in decision.options:
        text = f"- {option.id}"
        if option.description.strip():
            text += f": {' '.join(option.description.split())}"
        lines.append(text)
    return "\n".join([*lines, "Answer:"])


def read_top(top: Any) -> tuple[dict[str, float], float] | None:
    """Each token's first finite log-probability in a reply's top tokens, and the lowest listed.

    None when `top` holds no usable entry. Shared by both readouts: the letter slot looks up its
    letters in it, this one its ids' first tokens.
    """
    if not isinstance(top, list):
        return None
    found: dict[str, float] = {}
    listed: list[float] = []
    for entry in top:
        token = entry.get("token") if isinstance(entry, dict) else None
        logprob = entry.get("logprob") if isinstance(entry, dict) else None
        if isinstance(logprob, (int, float)) and not isinstance(logprob, bool) and math.isfinite(logprob):
            listed.append(float(logprob))
            if isinstance(token, str) and token not in found:
                found[token] = float(logprob)
    return (found, min(listed)) if listed else None


def id_logprobs(
    top: Any, pieces: Mapping[str, str], option_ids: Sequence[str]
) -> tuple[list[float], list[str]] | str:
    """Each option's log-probability read from one reply's top tokens, and the ids missing from them.

    `pieces` maps an option id to the first token the server writes for it (` billing`). An id
    missing from the top tokens gets the lowest one listed, the most it can have. Returns why
    there is nothing to read instead, when the reply holds no usable list.
    """
    read = read_top(top)
    if read is None:
        return "the server returned no logprobs"
    found, lowest = read
    wanted = [pieces[i] for i in option_ids]
    missing = [i for i, piece in zip(option_ids, wanted, strict=True) if piece not in found]
    return [found.get(piece, lowest) for piece in wanted], missing


def pmi(with_evidence: Sequence[float], without: Sequence[float]) -> list[float]:
    """Each option's log-probability less its log-probability in the content-free prompt."""
    return [a - b for a, b in zip(with_evidence, without, strict=True)]
