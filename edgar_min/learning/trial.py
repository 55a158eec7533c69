"""Whether a skill helps, from the randomised holdout: turns that had it against turns that could have.

The prompt hook withholds a learned skill from some sessions (`delivery/holdout.py`) and records
each prompt's offers and holdouts (`delivery/record.py`). Here each recorded turn of the main
agent is paired with the prompt it answered, and for each skill:

- with it: turns whose prompt offered the skill (handed over or named) and that used it;
- held out: turns whose prompt would have offered it, had the holdout not kept it back.

A session where a skill was both offered and withheld (the probability changed mid-session) says
nothing about it. The outcome is the turn's verdict: passed or failed (an `unverified` turn says
nothing either way); corrections are counted beside it.

The statistics. Each arm's pass rate has a Beta(1, 1) prior, so its posterior after s passes in n
decided turns has mean (s+1)/(n+2) and variance mean(1-mean)/(n+3). The effect is the difference of
the two means. A person looks after every turn, and a test at a fixed 5% would, looked at that
often, say `helps` or `hurts` of a skill that does nothing far more than 5% of the time. So the
interval is a confidence sequence: a mixture sequential probability ratio test (normal mixture of
scale `TAU` over the effect, with the two posterior variances), whose interval holds at every turn
at once with probability 1 - `ALPHA` (Ville's inequality). The verdict is `helps` when the whole
interval is above zero, `hurts` when below, else `can't tell yet`, and never before each arm has
`skills.min_evidence_turns` decided turns. bench/bench_holdout.py measures the wrong verdicts
when the effect is zero, looking after every turn.
"""

from __future__ import annotations

import gc
import math
from bisect import bisect_left, bisect_right

from edgar_min.config import EvidenceConfig
from edgar_min.delivery.record import offers, recorded_sessions
from edgar_min.errors import EdgarError
from edgar_min.learning.store import ExperienceStore, lines_of
from edgar_min.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import Literal

    from edgar_min.config import Config
    from edgar_min.delivery.record import Offer
    from edgar_min.layout import Layout

    Verdict = Literal["helps", "hurts", "can't tell yet"]

__all__ = ["ALPHA", "TAU", "Arm", "Trial", "judge", "trials", "used_in"]

# The chance of a wrong `helps` or `hurts`, however often the verdict is looked at.
ALPHA = 0.05
# The scale of the mixture over the effect: the test is quickest for effects near it. Chosen on the
# design seeds of bench/bench_holdout.py, never on the seeds whose figures docs/evaluation.md reports.
TAU = 0.1
# The smallest effect "how many more turns" aims at, when the one seen so far is smaller.
SMALLEST = 0.1
MIN_TURNS = 10
HOLDOUT = EvidenceConfig().holdout


@dataclass(frozen=True, slots=True)
class Arm:
    """The turns of one arm: how many, their verdicts, and how many carried a correction."""

    turns: int = 0
    passed: int = 0
    failed: int = 0
    corrections: int = 0

    @property
    def decided(self) -> int:
        return self.passed + self.failed

    @property
    def rate(self) -> float:
        """The posterior mean pass rate (Beta(1, 1) prior)."""
        return (self.passed + 1) / (self.decided + 2)

    @property
    def variance(self) -> float:
        return self.rate * (1 - self.rate) / (self.decided + 3)

    def as_json(self) -> dict[str, object]:
        return {
            "turns": self.turns,
            "passed": self.passed,
            "failed": self.failed,
            "corrections": self.corrections,
            "pass_rate": round(self.rate, 4) if self.decided else None,
        }


@dataclass(frozen=True, slots=True)
class Trial:
    """What the holdout says of one skill."""

    name: str
    used: Arm
    withheld: Arm
    effect: float | None  # pass rate with it minus held out, in [-1, 1]
    low: float | None
    high: float | None
    verdict: Verdict
    min_turns: int
    holdout: float  # the share of sessions held out, for the estimate of turns still needed

    @property
    def more(self) -> int | None:
        """About how many more compared turns a verdict needs; None once there is one."""
        if self.verdict != "can't tell yet":
            return None
        return _more_turns(self.used, self.withheld, self.min_turns, self.holdout)

    def as_json(self) -> dict[str, object]:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, 4)

        return {
            "with": self.used.as_json(),
            "held_out": self.withheld.as_json(),
            "effect": r(self.effect),
            "interval": None if self.low is None else [r(self.low), r(self.high)],
            "confidence": 1 - ALPHA,
            "verdict": self.verdict,
            "more_turns": self.more,
        }

    def sentence(self) -> str:
        """One plain line: the effect, its interval, the verdict and what it still needs."""
        u, w = self.used, self.withheld
        counts = f"{u.decided} decided turn(s) with it, {w.decided} held out"
        if self.effect is None or self.low is None or self.high is None:
            return f"can't tell yet: {counts}; {self.min_turns} of each are needed{self._more()}"
        shown = (
            f"effect {_points(self.effect)} on the pass rate ({u.rate:.0%} with it vs {w.rate:.0%} held "
            f"out; {1 - ALPHA:.0%} interval {_points(self.low)} to {_points(self.high)}; {counts})"
        )
        return f"{self.verdict}: {shown}{self._more()}"

    def _more(self) -> str:
        return "" if self.more is None else f"; about {self.more} more turn(s) to tell"


def _points(x: float) -> str:
    return f"{x * 100:+.0f} points"


def _half_width(variance: float) -> float:
    """Half the width of the confidence sequence for an estimate of this variance."""
    t2 = TAU * TAU
    return math.sqrt(
        2 * variance * (variance + t2) / t2 * math.log(math.sqrt((variance + t2) / variance) / ALPHA)
    )


def judge(name: str, used: Arm, withheld: Arm, min_turns: int = MIN_TURNS, holdout: float = HOLDOUT) -> Trial:
    """The verdict on one skill from its two arms (`holdout`: the share held out, for the estimate)."""
    if used.decided < min_turns or withheld.decided < min_turns:
        return Trial(name, used, withheld, None, None, None, "can't tell yet", min_turns, holdout)
    effect = used.rate - withheld.rate
    h = _half_width(used.variance + withheld.variance)
    low, high = effect - h, effect + h
    verdict: Verdict = "helps" if low > 0 else "hurts" if high < 0 else "can't tell yet"
    return Trial(name, used, withheld, effect, low, high, verdict, min_turns, holdout)


def _more_turns(used: Arm, withheld: Arm, min_turns: int, holdout: float) -> int:
    """About how many more compared turns until the interval would leave zero, if the effect seen
    so far (at least `SMALLEST`) holds and the arms keep growing in their present proportion."""
    n1, n0 = used.decided, withheld.decided
    share = n0 / (n1 + n0) if n1 and n0 else min(max(holdout, 0.01), 0.99)
    p1, p0 = used.rate, withheld.rate
    target = max(abs(p1 - p0), SMALLEST)
    if p1 - p0 < 0:
        p1, p0 = p0, p1
    # The rates the target implies, kept inside (0, 1); their variances at n turns in all.
    mid = (p1 + p0) / 2
    a, b = min(0.99, mid + target / 2), max(0.01, mid - target / 2)

    def enough(n: int) -> bool:
        m1, m0 = n * (1 - share), n * share
        if m1 < min_turns or m0 < min_turns:
            return False
        return _half_width(a * (1 - a) / (m1 + 3) + b * (1 - b) / (m0 + 3)) < target

    hi = 16
    while not enough(hi):
        hi *= 2
    lo = hi // 2
    while lo + 1 < hi:
        mid_n = (lo + hi) // 2
        lo, hi = (lo, mid_n) if enough(mid_n) else (mid_n, hi)
    return max(1, hi - n1 - n0)


def used_in(line: tuple[bytes, ...]) -> frozenset[str]:
    """The skills a recorded turn used (its sixth field, in every version of the line): the only
    place the comparison asks."""
    skills = line[5]
    return frozenset() if skills == b"-" else frozenset(skills.decode("utf-8", "replace").split(","))


def _pairs(
    prompts: list[Offer], lines: Iterable[tuple[bytes, ...]]
) -> Iterator[tuple[Offer, tuple[bytes, ...]]]:
    """Each turn of the main agent with the prompt it answered, each prompt at most once.

    Times have one-second steps, so a prompt and the turn before it can share a second: a turn
    takes the earliest prompt not yet taken among the last one strictly before it and those of
    its own second. A turn with no prompt left before it is left out.
    """
    prompts = sorted(prompts, key=lambda o: o.time)
    times = [o.time.encode() for o in prompts]
    taken = 0
    for line in sorted(lines, key=lambda x: x[1]):
        stamp = line[1]
        if bisect_right(times, stamp) <= taken:
            continue
        start = max(taken, bisect_left(times, stamp) - 1)
        yield prompts[start], line
        taken = start + 1


def trials(
    layout: Layout, config: Config | None = None, names: Iterable[str] | None = None
) -> dict[str, Trial]:
    """The holdout's verdict on every skill it has turns of (or on each of `names`)."""
    min_turns = config.skills.min_evidence_turns if config is not None else MIN_TURNS
    holdout = config.evidence.holdout if config is not None else HOLDOUT
    # Reading every offer and turn makes a few small objects per turn, none holding another:
    # the collector would run hundreds of times over them for nothing (a third of the time).
    paused = gc.isenabled()
    gc.disable()
    try:
        counts = _counts(layout)
    finally:
        if paused:
            gc.enable()
    wanted = sorted(counts) if names is None else list(names)
    empty = [0] * 8
    return {
        name: judge(
            name, Arm(*counts.get(name, empty)[:4]), Arm(*counts.get(name, empty)[4:]), min_turns, holdout
        )
        for name in wanted
    }


def _counts(layout: Layout) -> dict[str, list[int]]:
    """Per skill: [turns, passed, failed, corrections] with it, then the same held out."""
    sessions: dict[str, list[Offer]] = {}
    for session in recorded_sessions(layout):
        try:
            found = offers(layout, session)
        except EdgarError:  # a file whose name is no session id
            continue
        if any(o.withheld or o.names for o in found):
            sessions[session] = found
    by_session: dict[bytes, list[tuple[bytes, ...]]] = {}
    for line in lines_of(ExperienceStore(layout.experience), set(sessions)):
        by_session.setdefault(line[2], []).append(line)
    counts: dict[str, list[int]] = {}
    for session, prompts in sessions.items():
        withheld = set().union(*(o.withheld for o in prompts))
        crossed = withheld & set().union(*(o.names for o in prompts))
        for prompt, line in _pairs(prompts, by_session.get(session.encode(), ())):
            held = [n for n in prompt.withheld if n not in crossed]
            had = [n for n in prompt.names if n not in crossed]
            if had:
                used = used_in(line)
                had = [n for n in had if n in used]
            if not held and not had:
                continue
            verdict, correction = line[4], b"correction" in line[-1].split(b",")
            for name, at in (*((n, 4) for n in held), *((n, 0) for n in had)):
                c = counts.setdefault(name, [0] * 8)
                c[at] += 1
                c[at + 1] += verdict == b"passed"
                c[at + 2] += verdict == b"failed"
                c[at + 3] += correction
    return counts
