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

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from edgar_min.learning.turn import redact
from edgar_min.skills.catalog import Catalog, load_catalog
from edgar_min.skills.routing import MAX_QUERY_CHARS, NONE_ID, Card, RoutingEngine

if TYPE_CHECKING:
    from edgar_min.config import Config
    from edgar_min.layout import Layout
    from edgar_min.semif import Engine
    from edgar_min.semif.types import DecisionResult

__all__ = [
    "NONE_DESCRIPTION",
    "QUESTION",
    "Candidate",
    "Suggestion",
    "decide_skill",
    "suggest",
]

QUESTION = (
    "Which of these skills should the agent load for this task? Answer none when the message "
    "needs no skill (a chat line, a question, a small edit) or when no skill here fits it."
)
NONE_DESCRIPTION = "none of these: the message needs no skill, or a skill not in this list"
# What the decision reads of a description: enough to tell neighbours apart.
OPTION_CHARS = 300


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


def decide_skill(engine: Engine, text: str, shortlist: list[Card]) -> DecisionResult:
    """The one decision: the text, the shortlist and `none`. Kept whole so it can join a batch later."""
    from edgar_min.semif.types import DecisionRequest, Option

    options = [Option(card.name, card.description[:OPTION_CHARS]) for card in shortlist]
    options.append(Option(NONE_ID, NONE_DESCRIPTION))
    return engine.call(DecisionRequest(text, QUESTION, tuple(options)))


def suggest(
    layout: Layout,
    config: Config,
    text: str,
    *,
    limit: int | None = None,
    catalog: Catalog | None = None,
    engine: Engine | None = None,
) -> Suggestion:
    """The skills that apply to `text`, at most `limit` (default `suggest.max_skills`), or none.

    `catalog` and `engine` let a long-lived caller (the MCP server, a bench) reuse
    what it built; by default every skill is discovered (through the cache).
    """
    from edgar_min.semif import LoggedEngine
    from edgar_min.semif.log import DecisionLog

    settings = config.suggest
    most = settings.max_skills if limit is None else limit
    # The text is logged with the decision: a key a person pasted must not be.
    query = redact(" ".join(text[:MAX_QUERY_CHARS].split()))
    # A lone surrogate (from a JSON escape or a mis-decoded argument) cannot be written as UTF-8.
    query = query.encode("utf-8", "replace").decode("utf-8")
    if catalog is None:
        catalog = load_catalog(layout)
    routing = RoutingEngine(catalog.index)
    ranked = routing.ranked(query) if query else {}
    hits = sorted(ranked.values(), key=lambda h: (-h.evidence, h.name))[: settings.shortlist]
    shortlist = [catalog.entries[h.name] for h in hits if h.name in catalog.entries]
    warnings = tuple(catalog.warnings)
    if not shortlist:
        return Suggestion(query, (), (), 1.0, "none", "", warnings)
    if engine is None:
        if config.semif.engine == "lexical":
            engine = routing
        else:
            from edgar_min.semif import get_engine

            engine = get_engine(config.semif)
    logged = LoggedEngine(engine, DecisionLog.of(layout), phase="suggest")
    result = decide_skill(logged, query, [entry.card for entry in shortlist])
    probs = result.probs
    none_p = probs.get(NONE_ID, 0.0)
    candidates = sorted(
        (
            Candidate(e.card.name, probs.get(e.card.name, 0.0), e.card.description, e.path, e.origin)
            for e in shortlist
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
        warnings,
    )
