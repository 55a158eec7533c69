"""Evidence that a skill helps, from the experience store: one streaming pass over the turn lines.

For each skill: the turns that used it (the agent's log shows it: an offer is not a use) and
their verdicts, the turns it was offered in, and its pass rate against turns of the same task
shapes that did not use it. Definitions:

- pass rate = passed / (passed + failed): turns whose declared check did not
  run (`unverified`) say nothing either way and are left out of both rates.
- "without" is weighted to the skill's own mix of shapes: for each shape the
  skill was used in, the pass rate of that shape's turns without it, weighted
  by how many decided turns the skill had in that shape. Shapes seen only with
  the skill (or only without) are not compared.
- too few turns to tell: fewer than `skills.min_evidence_turns` (default 10)
  decided turns with the skill, or without it, in the compared shapes.
- helps / hurts: the two rates differ by more than chance would explain (a
  one-sided two-proportion z-test at 5%, |z| >= 1.645); otherwise "no clear
  difference". Only "hurts" makes a skill a prune candidate, as does a `hurts` from the
  randomised holdout (`learning/trial.py`), which a person confirms with `skills prune`.
- stale (learned skills only): not used since it was last used (or
  created) for `skills.stale_turns` (200) recorded turns, or for
  `skills.stale_days` (30) days up to the newest recorded turn while at least
  `min_evidence_turns` turns were recorded. Days are counted against the
  newest turn in the store, not the wall clock: an idle project ages nothing.

Speed: the store's own `scan` reads it in one streaming pass (no object per turn).
"""

from __future__ import annotations

import math
import os
import time

from edgar_min.errors import EdgarError
from edgar_min.invocation import program
from edgar_min.learning.ledger import read_ledger
from edgar_min.learning.observations import read_history
from edgar_min.learning.store import VERDICTS, ExperienceStore, Scan
from edgar_min.learning.trial import trials
from edgar_min.logfile import timestamp
from edgar_min.records import dataclass
from edgar_min.skills.discovery import discover

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    from edgar_min.config import Config
    from edgar_min.layout import Layout
    from edgar_min.skills.discovery import SkillSet

    Verdict = Literal["too few turns to tell", "helps", "hurts", "no clear difference"]


__all__ = [
    "Evidence",
    "SkillStats",
    "collect",
    "lifecycle_findings",
    "usefulness_order",
]

MIN_EVIDENCE_TURNS = 10
STALE_TURNS = 200
STALE_DAYS = 30
Z_CRITICAL = 1.645  # one-sided 5%


@dataclass(frozen=True, slots=True)
class SkillStats:
    """What the store says about one skill."""

    name: str
    origin: Literal["hand", "learned", "gone"]  # gone: only in the store
    used: int
    offered: int
    passed: int
    failed: int
    unverified: int
    with_rate: float | None
    without_rate: float | None
    with_turns: int  # decided turns with the skill, in the compared shapes
    without_turns: int  # decided turns without it, in the same shapes
    verdict: Verdict
    last_used: str
    history_lines: int
    stale: str = ""  # why a learned skill is stale; empty when it is not

    def as_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "origin": self.origin,
            "used": self.used,
            "offered": self.offered,
            "verdicts": {"passed": self.passed, "failed": self.failed, "unverified": self.unverified},
            "pass_rate_with": self.with_rate,
            "pass_rate_without": self.without_rate,
            "compared_turns_with": self.with_turns,
            "compared_turns_without": self.without_turns,
            "verdict": self.verdict,
            "last_used": self.last_used or None,
            "history_lines": self.history_lines,
            "stale": self.stale or None,
        }

    def sentence(self, minimum: int) -> str:
        """One plain line on what the evidence says."""
        if self.verdict == "too few turns to tell":
            return (
                f"too few turns to tell: {self.with_turns} decided turn(s) with it and "
                f"{self.without_turns} without it in the same task shapes; {minimum} of each are needed"
            )
        return (
            f"pass rate {self.with_rate:.0%} with it vs {self.without_rate:.0%} without it over the same "
            f"task shapes ({self.with_turns} vs {self.without_turns} decided turns): {self.verdict}"
        )


def _z(p1: float, n1: int, p2: float, n2: int) -> float:
    pooled = (p1 * n1 + p2 * n2) / (n1 + n2)
    spread = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
    if spread <= 0:
        return 0.0
    return (p1 - p2) / math.sqrt(spread)


def _epoch(stamp: str) -> float | None:
    try:
        import calendar  # with time.strptime, ~2 ms to import: only where there are stamps to read

        return calendar.timegm(time.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ"))
    except ValueError:
        return None


class Evidence:
    """Per-skill figures from one `Scan`, for the skills `discover()` finds and names in the store."""

    def __init__(
        self,
        layout: Layout,
        found: Scan,
        *,
        min_turns: int = MIN_EVIDENCE_TURNS,
        stale_turns: int = STALE_TURNS,
        stale_days: int = STALE_DAYS,
        index: SkillSet | None = None,
        config: Config | None = None,
    ) -> None:
        self.layout = layout
        self.config = config
        self.scan = found
        self.min_turns = min_turns
        self.stale_turns = stale_turns
        self.stale_days = stale_days
        self.index = discover(layout) if index is None else index
        # shape -> [passed, failed, unverified], all turns; skill -> shape -> the same, turns that
        # used it; skill -> turns it was offered in. Shapes stay bytes (never shown); each
        # distinct skills field is split once.
        shapes: dict[bytes, list[int]] = {}
        used_by: dict[str, dict[bytes, list[int]]] = {}
        offers: dict[str, int] = {}
        names_of: dict[bytes, set[str]] = {}
        for offered, n in found.offers.items():
            if offered != b"-":
                for name in set(offered.decode("utf-8", "replace").split(",")):
                    offers[name] = offers.get(name, 0) + n
        for key, n in found.combos.items():
            shape, verdict, used = key.split(b"\t")
            slot = VERDICTS[verdict]
            row = shapes.get(shape)
            if row is None:
                row = shapes[shape] = [0, 0, 0]
            row[slot] += n
            if used == b"-":
                continue
            names = names_of.get(used)
            if names is None:
                names = names_of[used] = set(used.decode("utf-8", "replace").split(","))
            for name in names:
                per = used_by.get(name)
                if per is None:
                    per = used_by[name] = {}
                row = per.get(shape)
                if row is None:
                    row = per[shape] = [0, 0, 0]
                row[slot] += n
        self._shapes = shapes
        self._with = used_by
        self._offers = offers
        self._history = self._history_files()

    def _history_files(self) -> set[str]:
        try:
            return {n[:-3] for n in os.listdir(self.layout.history) if n.endswith(".md")}
        except OSError:
            return set()

    def names(self) -> list[str]:
        """Every skill on disk and every name a recorded turn used or was offered, sorted."""
        return sorted(set(self.index.skills) | set(self._with) | set(self._offers))

    def known(self, name: str) -> bool:
        return name in self.index.skills or name in self._with or name in self._offers

    def history_lines(self, name: str) -> int:
        if name not in self._history:
            return 0
        try:
            return len(read_history(self.layout, name).notes)
        except (EdgarError, OSError):
            return 0

    def _compare(self, name: str) -> tuple[int, int, float | None, float | None, Verdict]:
        with_passed = with_decided = without_decided = 0
        weighted = 0.0
        for shape, (p, f, _u) in self._with.get(name, {}).items():
            total = self._shapes[shape]
            op, of = total[0] - p, total[1] - f
            if p + f == 0 or op + of == 0:
                continue
            with_passed += p
            with_decided += p + f
            without_decided += op + of
            weighted += (p + f) * op / (op + of)
        if with_decided == 0:
            return with_decided, without_decided, None, None, "too few turns to tell"
        rate_with = with_passed / with_decided
        rate_without = weighted / with_decided
        if with_decided < self.min_turns or without_decided < self.min_turns:
            return with_decided, without_decided, rate_with, rate_without, "too few turns to tell"
        z = _z(rate_with, with_decided, rate_without, without_decided)
        verdict: Verdict = (
            "helps" if z >= Z_CRITICAL else "hurts" if z <= -Z_CRITICAL else "no clear difference"
        )
        return with_decided, without_decided, rate_with, rate_without, verdict

    def _stale(self, name: str, last: str) -> str:
        skill = self.index.skills.get(name)
        if skill is None or skill.origin != "learned":
            return ""
        since = last
        what = f"last used {last}"
        if not since:
            since = skill.provenance.get("created", "")
            what = f"never used since it was created {since}" if since else ""
        if not since:
            try:
                mtime = os.stat(skill.path).st_mtime
            except OSError:
                return ""
            since = timestamp(mtime)
            what = f"never used since its file was written {since}"
        turns = self.scan.turns_after(since)
        if turns >= self.stale_turns:
            return f"{what}; {turns} turns recorded since (stale after {self.stale_turns})"
        start, newest = _epoch(since), _epoch(self.scan.newest) if self.scan.newest else None
        if start is None or newest is None or turns < self.min_turns:
            return ""
        days = int((newest - start) // 86400)
        if days >= self.stale_days:
            return f"{what}; {days} days of use since (stale after {self.stale_days})"
        return ""

    def stats(self, name: str) -> SkillStats:
        """The figures for one skill (zero counts for a skill no turn used)."""
        p = f = u = 0
        for sp, sf, su in self._with.get(name, {}).values():
            p, f, u = p + sp, f + sf, u + su
        n_with, n_without, rate_with, rate_without, verdict = self._compare(name)
        skill = self.index.skills.get(name)
        last = self.scan.last_used.get(name, "")
        return SkillStats(
            name=name,
            origin=skill.origin if skill is not None else "gone",
            used=p + f + u,
            offered=self._offers.get(name, 0),
            passed=p,
            failed=f,
            unverified=u,
            with_rate=rate_with,
            without_rate=rate_without,
            with_turns=n_with,
            without_turns=n_without,
            verdict=verdict,
            last_used=last,
            history_lines=self.history_lines(name),
            stale=self._stale(name, last),
        )

    def all_stats(self) -> list[SkillStats]:
        return [self.stats(name) for name in self.names()]

    def prune_candidates(self) -> list[tuple[str, str]]:
        """Learned skills (never a person's) that are stale or measured as hurting, with the reason.

        Measured as hurting: by the randomised holdout with confidence (`learning/trial.py`), or
        by the comparison with turns of the same shapes.
        """
        learned = sorted(name for name, skill in self.index.skills.items() if skill.origin == "learned")
        held = trials(self.layout, self.config, learned)
        found = []
        for name in learned:
            s = self.stats(name)
            if held[name].verdict == "hurts":
                found.append((name, f"the holdout measured it as hurting: {held[name].sentence()}"))
            elif s.verdict == "hurts":
                found.append((name, f"measured as hurting: {s.sentence(self.min_turns)}"))
            elif s.stale:
                found.append((name, f"stale: {s.stale}"))
        return found

    def order(self) -> list[str]:
        """Every skill on disk, most useful first (see `usefulness_order`)."""
        ranked = []
        for name, skill in self.index.skills.items():
            _n_with, _n_without, rate_with, rate_without, verdict = self._compare(name)
            used = sum(sum(v) for v in self._with.get(name, {}).values())
            lift = rate_with - rate_without if rate_with is not None and rate_without is not None else 0.0
            tier = {"helps": 0, "no clear difference": 1, "too few turns to tell": 1, "hurts": 4}[verdict]
            if tier == 1 and used == 0:
                tier = 2 if skill.origin == "hand" else 3
            ranked.append((tier, -lift if tier == 0 else 0.0, -used, self.scan.last_used.get(name, ""), name))
        # Stable sorts: by name, then most recently used first, then by tier, lift and use.
        ranked.sort(key=lambda r: r[4])
        ranked.sort(key=lambda r: r[3], reverse=True)
        ranked.sort(key=lambda r: r[:3])
        return [r[4] for r in ranked]


def collect(
    layout: Layout,
    config: Config | None = None,
    store: ExperienceStore | None = None,
    index: SkillSet | None = None,
) -> Evidence:
    """Read the store once and return the evidence for every skill (`index`: the discovered skills)."""
    store = store if store is not None else ExperienceStore(layout.experience)
    kw = {}
    if config is not None:
        kw = {
            "min_turns": config.skills.min_evidence_turns,
            "stale_turns": config.skills.stale_turns,
            "stale_days": config.skills.stale_days,
        }
    return Evidence(layout, store.scan(), index=index, config=config, **kw)


def usefulness_order(
    layout: Layout, store: ExperienceStore | None = None, index: SkillSet | None = None
) -> list[str]:
    """Every discovered skill's name, most useful first by the evidence.

    Measured as helping (largest lift first); then used but not (yet) measured either
    way, most used and most recently used first; then hand-authored skills never
    used; then learned skills never used; last, skills measured as hurting.
    """
    return collect(layout, None, store, index).order()


def lifecycle_findings(layout: Layout, config: Config, evidence: Evidence | None = None) -> list[str]:
    """Sentences for `doctor`: hurting skills, stale learned skills, torn ledger lines.

    Torn store lines are `doctor`'s own line (from the store's own `scan`), so they are not repeated here.
    """
    evidence = evidence if evidence is not None else collect(layout, config)
    found = []
    every = evidence.all_stats()
    held = trials(layout, config, [s.name for s in every if s.origin != "gone"])
    for s in every:
        if s.origin == "gone":
            continue
        if held[s.name].verdict == "hurts":
            line = f"skill {s.name} ({s.origin}) hurts by the holdout: {held[s.name].sentence()}"
            if s.origin == "learned":
                line += "; proposed for retirement (`edgar skills prune` archives it)"
            found.append(line)
        if s.verdict == "hurts":
            found.append(
                f"skill {s.name} ({s.origin}) is measured as hurting: {s.sentence(evidence.min_turns)}"
            )
        if s.stale:
            found.append(
                f"learned skill {s.name} is stale: {s.stale} (`{program()} skills prune` archives it)"
            )
    torn = read_ledger(layout).torn
    if torn:
        found.append(
            f"the change ledger {layout.ledger} has {torn} torn or garbage line(s); they are skipped"
        )
    return found
