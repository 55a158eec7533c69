"""What use taught routing: the messages that led to a skill, and those that needed none.

The examples (`skills/examples.py`) are read as words, not as whole messages: a message that led
to a skill adds each of its content words to that skill's card once, at `TAUGHT_WEIGHT`, in a
field of their own (so a ranking can tell a match that use taught from one the skill's own text
gives). A later message that shares those words, in any order and among others, finds that skill
as it finds a word of its description. The messages a person said need no skill make a card of
their own, `none`, which says `none` when it beats every skill.

A message in the same words as one that led to a skill, and to no other (`taught_key`), is what
this project's use taught for that skill (`Hit.taught`): the sign for handing its body over.
"""

from __future__ import annotations

from edgar_min.skills.routing.words import REDACTED, words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["NONE_ID", "TAUGHT_WEIGHT", "taught_key", "taught_keys", "taught_terms"]

NONE_ID = "none"
# A message that led to a skill says what the skill is for in a person's words, as its description
# does in its author's: each of its words counts as a description's word counts (weight 1.0).
# Many messages with the same word count it more, and BM25's saturation keeps that bounded.
TAUGHT_WEIGHT = 1.0


def taught_terms(asked: Iterable[str]) -> dict[str, float]:
    """The words of the messages that led to a skill, each message's words once, at TAUGHT_WEIGHT."""
    bag: dict[str, float] = {}
    for text in asked:
        for term in dict.fromkeys(words(text.replace(REDACTED, " "))):
            bag[term] = bag.get(term, 0.0) + TAUGHT_WEIGHT
    return bag


def taught_key(text: str) -> str:
    """What a message is matched to a taught one by: its content words, each once, in the
    alphabet's order (their order, case and word forms aside); "" for a message without any."""
    return " ".join(sorted(set(words(text.replace(REDACTED, " ")))))


def taught_keys(asked: dict[str, list[str]]) -> dict[str, str]:
    """Each taught message's `taught_key` and the one skill it led to; "" when messages in the
    same words led to more than one (then they say nothing of either). `none`'s are left out."""
    out: dict[str, str] = {}
    for skill, texts in asked.items():
        if skill == NONE_ID:
            continue
        for key in filter(None, map(taught_key, texts)):
            out[key] = skill if out.get(key, skill) == skill else ""
    return out
