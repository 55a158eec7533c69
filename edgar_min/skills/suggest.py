"""Which skills apply to a task: a lexical shortlist, then a SemIf decision with `none` among the options.

    from edgar_min.skills.suggest import suggest
    found = suggest(layout, config, "make a gif for slack")
    [(p.name, p.probability) for p in found.picks]

The shortlist ranks every discovered skill, all scopes, by the routing index
(name, description and `## When to use`). The configured engine then decides
among the best `suggest.shortlist` of them plus `none`; offline that is the
routing index itself (`RoutingEngine`), on a model server the letter slot. The
decision is logged with phase `suggest`. A skill counts when it beats `none`
and has at least `suggest.min_probability`; at most `suggest.max_skills` count.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from edgar_min.errors import EdgarError
from edgar_min.skills.routing import MAX_QUERY_CHARS, NONE_ID, Card, RoutingEngine, RoutingIndex

if TYPE_CHECKING:
    from edgar_min.config import Config
    from edgar_min.layout import Layout
    from edgar_min.semif import Engine
    from edgar_min.semif.types import DecisionResult
    from edgar_min.skills.discovery import Skill

__all__ = [
    "NONE_DESCRIPTION",
    "QUESTION",
    "Candidate",
    "Suggestion",
    "load_cards",
    "skill_cards",
    "suggest",
]

QUESTION = (
    "Which of these skills should the agent load for this task? Answer none when the message "
    "needs no skill (a chat line, a question, a small edit) or when no skill here fits it."
)
NONE_DESCRIPTION = "none of these: the message needs no skill, or a skill not in this list"
# What the decision reads of a description: enough to tell neighbours apart.
OPTION_CHARS = 300
WHEN_CHARS = 1000
_WHEN = re.compile(
    r"^ {0,3}#{2,3}[ \t]+when to use\b[^\n]*\n(.*?)(?=^ {0,3}#{1,3}[ \t]|\Z)",
    re.IGNORECASE | re.MULTILINE | re.DOTALL,
)


@dataclass(frozen=True, slots=True)
class Candidate:
    """One skill the decision weighed: its probability, and where it is."""

    name: str
    probability: float
    description: str
    path: str
    origin: str

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "probability": self.probability,
            "description": self.description,
            "path": self.path,
            "origin": self.origin,
        }


@dataclass(frozen=True, slots=True)
class Suggestion:
    """The skills chosen for a text (possibly none), the shortlist weighed, and how."""

    text: str
    picks: tuple[Candidate, ...]
    candidates: tuple[Candidate, ...]
    none_probability: float
    engine: str
    decision_id: str
    warnings: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.picks)

    def as_json(self) -> dict[str, Any]:
        return {
            "skills": [p.as_json() for p in self.picks],
            "none_probability": self.none_probability,
            "candidates": [c.as_json() for c in self.candidates],
            "engine": self.engine,
            "decision_id": self.decision_id,
            "warnings": list(self.warnings),
        }


def _when_to_use(body: str) -> str:
    found = _WHEN.search(body)
    return " ".join(found.group(1).split())[:WHEN_CHARS] if found else ""


def skill_cards(skills: dict[str, Skill]) -> tuple[list[tuple[Card, Skill]], list[str]]:
    """A routing card per readable skill; a skill whose file cannot be read is left out with a warning."""
    cards, warnings = [], []
    for name, skill in skills.items():
        if name == NONE_ID:
            warnings.append(
                f"{skill.path}: a skill named 'none' cannot be suggested (it is the decision's 'none')"
            )
            continue
        try:
            parsed = skill.frontmatter()
        except EdgarError as exc:
            warnings.append(f"skipped: {exc.message}")
            continue
        description = parsed.data.get("description")
        description = " ".join(description.split()) if isinstance(description, str) else ""
        cards.append((Card(name, description, _when_to_use(parsed.body)), skill))
    return cards, warnings


def load_cards(layout: Layout) -> tuple[list[tuple[Card, Skill]], list[str]]:
    """Every discovered skill's card, and the warnings met on the way."""
    from edgar_min.skills.discovery import discover

    index = discover(layout)
    cards, warnings = skill_cards(index.skills)
    return cards, [*index.problems, *warnings]


def _engine(config: Config, index: RoutingIndex) -> Engine:
    if config.semif.engine == "lexical":
        return RoutingEngine(index)
    from edgar_min.semif import get_engine

    return get_engine(config.semif)


def decide_skill(engine: Engine, text: str, shortlist: list[tuple[Card, Skill]]) -> DecisionResult:
    """The one decision: the text, the shortlist and `none`. Kept whole so it can join a batch later."""
    from edgar_min.semif.types import DecisionRequest, Option

    options = [Option(card.name, card.description[:OPTION_CHARS]) for card, _ in shortlist]
    options.append(Option(NONE_ID, NONE_DESCRIPTION))
    return engine.call(DecisionRequest(text, QUESTION, tuple(options)))


def suggest(
    layout: Layout,
    config: Config,
    text: str,
    *,
    limit: int | None = None,
    cards: tuple[list[tuple[Card, Skill]], list[str]] | None = None,
    index: RoutingIndex | None = None,
    engine: Engine | None = None,
) -> Suggestion:
    """The skills that apply to `text`, at most `limit` (default `suggest.max_skills`), or none.

    `cards`, `index` and `engine` let a long-lived caller (the MCP server, a bench)
    reuse what it built; by default every skill is discovered and read afresh.
    """
    from edgar_min.semif import LoggedEngine
    from edgar_min.semif.log import DecisionLog

    settings = config.suggest
    most = settings.max_skills if limit is None else limit
    query = " ".join(text[:MAX_QUERY_CHARS].split())
    found, warnings = cards if cards is not None else load_cards(layout)
    if index is None:
        index = RoutingIndex(card for card, _ in found)
    by_name = {card.name: (card, skill) for card, skill in found}
    hits = index.search(query, settings.shortlist) if query else []
    shortlist = [by_name[h.name] for h in hits if h.name in by_name]
    if not shortlist:
        return Suggestion(query, (), (), 1.0, "none", "", tuple(warnings))
    logged = LoggedEngine(engine or _engine(config, index), DecisionLog.of(layout), phase="suggest")
    result = decide_skill(logged, query, shortlist)
    probs = result.probs
    none_p = probs.get(NONE_ID, 0.0)
    candidates = sorted(
        (
            Candidate(card.name, probs.get(card.name, 0.0), card.description, str(skill.path), skill.origin)
            for card, skill in shortlist
        ),
        key=lambda c: -c.probability,
    )
    picks = [c for c in candidates if c.probability > none_p and c.probability >= settings.min_probability]
    return Suggestion(
        query,
        tuple(picks[: max(0, most)]),
        tuple(candidates),
        none_p,
        result.engine,
        result.request.id,
        tuple(warnings),
    )
