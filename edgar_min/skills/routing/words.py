"""The words routing reads: lower-cased runs of letters and digits, function words dropped, stemmed.

General facts of English (which words carry no topic, which endings make one word's forms), not
of any one catalogue of skills.
"""

from __future__ import annotations

from edgar_min.charsets import DIGITS, LOWER
from edgar_min.regex import lazy

__all__ = [
    "MAX_QUERY_CHARS",
    "REDACTED",
    "STOP_WORDS",
    "WORD_RULE",
    "is_stop",
    "own_words",
    "split_words",
    "stem",
    "words",
]

# The longest text scored: a pasted log says no more about the task than its start.
MAX_QUERY_CHARS = 2000
# What redaction puts where a secret was (`redact.MARK`): no word of the message.
REDACTED = "[REDACTED]"

# A word is what this pattern finds in the lower-cased text ("c++" and "c#" kept whole).
# `split_words` finds it with string operations: it runs on every prompt, and as a pattern it
# would import `re`, about a third of a bare interpreter's start-up, for the prompt hook alone.
WORD_RULE = r"[a-z0-9]+(?:\+\+|#)?"
_APART = {code: " " for code in range(128) if chr(code) not in LOWER + DIGITS + "+#"}


def split_words(text: str) -> list[str]:
    """The words of `text` as `WORD_RULE` finds them in `text.lower()`."""
    lowered = text.lower()
    if not lowered.isascii():
        lowered = lowered.encode("ascii", "replace").decode("ascii")  # '?' parts words, as any other
    found: list[str] = []
    for chunk in lowered.translate(_APART).split():
        if chunk.isalnum():
            found.append(chunk)
            continue
        at = 0
        while at < len(chunk):  # letters and digits, then '++' or '#' if it follows
            if chunk[at] in "+#":
                at += 1
                continue
            end = at
            while end < len(chunk) and chunk[end] not in "+#":
                end += 1
            mark = "++" if chunk.startswith("++", end) else "#" if chunk.startswith("#", end) else ""
            found.append(chunk[at:end] + mark)
            at = end + len(mark)
    return found


# English function words, and the words people wrap any request in ("can u pls help me ..."):
# they say nothing of which skill is meant.
STOP_WORDS = """
    a about after again all also am an and any are as at be been before being but by can could did do
    does doing done for from get got had has have having he her here hers him his how i if in into is it
    its itself just let lets like me might more most must my need needs no not now of off ok okay on
    once only or other our out over own please pls plz same she should so some such than that the their
    them then there these they this those through to too u ur under until up us very via want wanna was
    way we were what whats when where which while who whom why will with would you your yours yourself
    hey hi hello thanks thank thx help something smth stuff thing things really actually maybe kinda
    sorta rn im ive dont doesnt cant wont isnt go going make made use using used new yes yeah
    yep sure fine good great cool nice awesome perfect lol haha hmm oh ah well looks look seems try
    instead another one ones still already last today tomorrow tonight yesterday
"""
_STOP = frozenset(STOP_WORDS.split())
# English inflection and derivation endings, longest first.
_SUFFIXES = (
    "izations",
    "ization",
    "ations",
    "ation",
    "ments",
    "ment",
    "ings",
    "ing",
    "ies",
    "ied",
    "ers",
    "er",
    "ed",
    "es",
    "ly",
    "s",
)
_stems: dict[str, str] = {}


def is_stop(word: str) -> bool:
    """Whether `word` (lower-cased, unstemmed) is a function word."""
    return word in _STOP


def stem(word: str) -> str:
    """A small suffix stripper: `tests`, `testing`, `tester` -> `test`; `debugging` -> `debug`."""
    found = _stems.get(word)
    if found is None:
        found = _stem(word)
        if len(_stems) < 200_000:
            _stems[word] = found
    return found


def _stem(word: str) -> str:
    if len(word) <= 3:
        return word
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                break
            word = word[: -len(suffix)] + ("y" if suffix in ("ies", "ied") else "")
            break
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":
        word = word[:-1]
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    return word


def words(text: str) -> list[str]:
    """The stemmed content words of `text`, in order (function words dropped)."""
    return [stem(w) for w in split_words(text) if w not in _STOP]


# A clause that sends the reader to another skill ("For IBM hardware use qiskit", "Not for
# affinity prediction", "Do NOT use for PDFs") names what this skill is not for.
_CLAUSE = lazy(r"(?i)(?<=[.;!?])\s+|\s*\u2014\s*(?=for\b)")
_REDIRECT = lazy(
    r"(?i)^(?:(?:do\s+)?not\s+for\b|(?:do\s+not|don't|never)\s+use\b|for\b.*\buse\b(?!\s+(?:when|for|this|it)\b))"
)


def own_words(text: str) -> str:
    """`text` without its clauses that point elsewhere: they are evidence for another skill, not this one."""
    return " ".join(c for c in _CLAUSE.split(text) if not _REDIRECT.match(c.strip()))
