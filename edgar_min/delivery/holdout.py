"""The randomised holdout: which skills the prompt hook keeps from a session, to learn what they do.

A learned skill the prompt hook would offer is withheld from a session with probability
`evidence.holdout`. The draw is a hash of the session id and the skill's name, so it is random
across sessions (a session id is random) and fixed within one: a skill offered once in a session
is offered on every later prompt of it, and one held out once is held out all session. It needs
no state, so concurrent sessions and a killed hook cannot disagree about it. A person's own skills
are held out only when `evidence.holdout_own` is set in the person's own config.

What is withheld is recorded with the session like an offer (`delivery/record.py`) and never
reaches the agent; `learning/trial.py` compares the turns that had the skill with those.
"""

from __future__ import annotations

from edgar_min.digests import sha256_hex

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from edgar_min.config import EvidenceConfig
    from edgar_min.skills.catalog import Catalog

__all__ = ["draw", "withheld"]

# The draw reads this many hex digits of the hash: 2**64 values, uniform for any probability.
_DIGITS = 16


def draw(session: str, name: str) -> float:
    """A number in [0, 1) that is the same for every prompt of `session` and random across sessions."""
    return int(sha256_hex(f"{session}\x00{name}".encode())[:_DIGITS], 16) / 16**_DIGITS


def withheld(
    config: EvidenceConfig, session: str | None, names: Iterable[str], catalog: Catalog
) -> tuple[str, ...]:
    """Of the skills about to be offered to `session`, those the holdout keeps from it.

    None without a usable session id: a draw that could not be recorded would be evidence of nothing.
    """
    if session is None or config.holdout <= 0:
        return ()
    held = []
    for name in names:
        try:
            origin = catalog.entries[name].origin
        except KeyError:  # not in the catalogue: nothing to offer, nothing to withhold
            continue
        if origin != "learned" and not config.holdout_own:
            continue
        if draw(session, name) < config.holdout:
            held.append(name)
    return tuple(held)
