"""What use taught routing: the messages that led to a skill, and those that needed none.

The examples (`skills/examples.py`) are read as words, not as whole messages: a message that led
to a skill adds each of its content words to that skill's card once, at `TAUGHT_WEIGHT`, in a
field of their own (so a ranking can tell a match that use taught from one the skill's own text
gives). A later message that shares those words, in any order and among others, finds that skill
as it finds a word of its description. The messages a person said need no skill make a card of
their own, `none`, which says `none` when it beats every skill.
"""

from __future__ import annotations

from edgar_min.skills.routing.words import REDACTED, words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["NONE_ID", "TAUGHT_WEIGHT", "is_taught", "taught_terms"]

NONE_ID = "none"
# A message that led to a skill says what the skill is for in a person's words, as its description
# does in its author's: each of its words counts as a description's word counts (weight 1.0).
# Many messages with the same word count it more, and BM25's saturation keeps that bounded.
TAUGHT_WEIGHT = 1.0
# A match that use taught, rather than the skill's own text: its share of what the skill covers
# of the text is more than half.
TAUGHT_SHARE = 0.5


def taught_terms(asked: Iterable[str]) -> dict[str, float]:
    """The words of the messages that led to a skill, each message's words once, at TAUGHT_WEIGHT."""
    bag: dict[str, float] = {}
    for text in asked:
        for term in dict.fromkeys(words(text.replace(REDACTED, " "))):
            bag[term] = bag.get(term, 0.0) + TAUGHT_WEIGHT
    return bag


def is_taught(taught_coverage: float, coverage: float) -> bool:
    """Whether what use taught covers most of what a skill covers of a text (`TAUGHT_SHARE`)."""
    return coverage > 0 and taught_coverage / coverage > TAUGHT_SHARE
