"""Which skills may apply to a task: a shortlist of at most three for the agent's own model to judge.

    from edgar_min.skills.suggest import suggest
    found = suggest(layout, config, "make a gif for slack")
    [(p.name, p.probability) for p in found.picks]

The routing index ranks every discovered skill, all scopes, by its name,
description, `## When to use` and what this project's use taught
(`rank`, the one place the router is asked). The configured engine then decides
among the best `suggest.shortlist` of them plus `none`; offline that is the
routing index itself (`RoutingEngine`): each skill's probability is the
router's confidence that it applies, and a skill counts from `THRESHOLD`
(the decision is logged). On any other engine (a model server's
letter slot) every shortlisted skill is asked on its own, all at once over the
one text ("this skill, or none?", `semif.applicable`); one row per skill,
sharing a run id. A message closer to those a person taught as needing no skill
than to any skill gets none on either path (on a model, without asking it).

When some skill counts (with at least `suggest.min_probability`), the best
`suggest.max_skills` (3) of the ranking are the picks: the skills that may apply,
handed to the agent by name, description and how to load them, for its model to
decide. A pick is `taught` when the router says most of its match is what this
project's use taught for it (`Hit.taught`) and the match reaches `THRESHOLD`:
only then, or at `suggest.body_probability`, may its body be handed over, and
never for a skill the agent lists itself (`named_only`). Decisions are logged
with phase `suggest`.
"""

from __future__ import annotations

from edgar_min import deferred
from edgar_min.layout import listed_by
from edgar_min.records import dataclass
from edgar_min.redact import redact
from edgar_min.skills.catalog import Catalog, load_catalog
from edgar_min.skills.routing import MAX_QUERY_CHARS, NONE_ID, THRESHOLD, Card, RoutingEngine

# A prompt that shares no word with any skill (most chat) needs no decision: the decision layer
# is imported for the prompts that do.
semif = deferred.module("edgar_min.semif")
semif_applicable = deferred.module("edgar_min.semif.applicable")
semif_log = deferred.module("edgar_min.semif.log")
semif_types = deferred.module("edgar_min.semif.types")

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from edgar_min.config import Config
    from edgar_min.layout import Layout
    from edgar_min.semif import Engine
    from edgar_min.semif.applicable import Applicability
    from edgar_min.semif.types import DecisionResult

__all__ = [
    "NONE_DESCRIPTION",
    "QUESTION",
    "Candidate",
    "Ranked",
    "Suggestion",
    "decide_skill",
    "named_note",
    "named_only",
    "query_of",
    "rank",
    "suggest",
    "weigh_skills",
]

QUESTION = (
    "Which of these skills should the agent load for this task? Answer none when the message "
    "needs no skill (a chat line, a question, a small edit) or when no skill here fits it."
)
NONE_DESCRIPTION = "none of these: the message needs no skill, or a skill not in this list"
# How much of a text is read at all: a pasted log can be megabytes, and redaction reads all it is
# given. Redaction runs on this much, then the text is cut to MAX_QUERY_CHARS (`query_of`).
READ_CHARS = 20_000
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
    scope: str = "project"  # discovery's scope: which agents list the skill themselves
    taught: bool = False  # this project's use taught the text for this skill (`Hit.taught`, meant)

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "probability": self.probability,
            "description": self.description,
            "path": self.path,
            "origin": self.origin,
            "scope": self.scope,
            "taught": self.taught,
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

    def as_json(self, body_probability: float | None = None, agent: str | None = None) -> dict[str, Any]:
        """Plain JSON values; with `body_probability` (`suggest.body_probability`), each chosen
        skill says whether the prompt hook of `agent` would only name it (`named_only`) rather
        than hand its body over."""
        skills = [p.as_json() for p in self.picks]
        if body_probability is not None:
            for skill, pick in zip(skills, self.picks, strict=True):
                skill["named_only"] = named_only(pick, body_probability, agent)
        return {
            "skills": skills,
            **({} if body_probability is None else {"body_probability": body_probability}),
            **({} if agent is None else {"agent": agent}),
            "none_probability": self.none_probability,
            "candidates": [c.as_json() for c in self.candidates],
            "engine": self.engine,
            "decision_id": self.decision_id,
            "warnings": list(self.warnings),
        }


def named_only(pick: Candidate, body_probability: float, agent: str | None = None) -> bool:
    """Whether the prompt hook of `agent` only names `pick` (its body not handed over).

    Always for a skill the agent lists itself: it loads that one on demand. Otherwise the body
    goes over only when edgar is very sure: the text is one this project taught for the skill,
    or the pick is at least `suggest.body_probability` probable (below 1: 1 says never).
    """
    if listed_by(agent, pick.scope):
        return True
    # A router's probability is not calibrated: at 1 (the default) it never hands a body over alone.
    sure = body_probability < 1.0 and pick.probability >= body_probability
    return not (pick.taught or sure)


def named_note(pick: Candidate, body_probability: float, agent: str | None = None) -> str:
    """`named_only`'s answer, said after a pick in a listing."""
    if not named_only(pick, body_probability, agent):
        return "  (body handed over)"
    if listed_by(agent, pick.scope):
        return f"  (named only: {agent} lists it itself)"
    return "  (named only)"


def query_of(text: str) -> str:
    """The text a suggestion reads and logs: redacted, on one line, cut to `MAX_QUERY_CHARS`.

    The one place a prompt is cut. It is redacted before the cut, so a key across the cut is
    not kept in part, and only its first `READ_CHARS` are read at all.
    """
    query = " ".join(redact(text[:READ_CHARS]).split())[:MAX_QUERY_CHARS].rstrip()
    # A lone surrogate (from a JSON escape or a mis-decoded argument) cannot be written as UTF-8.
    return query.encode("utf-8", "replace").decode("utf-8")


def decide_skill(engine: Engine, text: str, shortlist: list[Card]) -> DecisionResult:
    """The routing index's one decision: the text, the shortlist and `none`."""
    options = [semif_types.Option(card.name, card.description[:OPTION_CHARS]) for card in shortlist]
    options.append(semif_types.Option(NONE_ID, NONE_DESCRIPTION))
    return engine.call(semif_types.DecisionRequest(text, QUESTION, tuple(options)))


def weigh_skills(engine: Engine, text: str, shortlist: list[Card]) -> tuple[Applicability, ...]:
    """A model's answer: every candidate asked "this skill, or none?" at once over `text`."""
    return semif_applicable.applicable(
        engine, text, [(card.name, card.description[:OPTION_CHARS]) for card in shortlist]
    )


@dataclass(frozen=True, slots=True)
class Ranked:
    """What the router says of a text: the shortlisted skills, likeliest first, those that beat
    `none`, `none`'s probability, and the decision that said so."""

    candidates: tuple[Candidate, ...]
    applies: frozenset[str]
    none_probability: float
    engine: str
    decision_id: str


NOTHING = Ranked((), frozenset(), 1.0, "none", "")


def rank(layout: Layout, config: Config, catalog: Catalog, query: str, engine: Engine | None) -> Ranked:
    """The one place the router is asked: the best `suggest.shortlist` skills for `query`, each
    weighed against `none` by the configured engine (the routing index itself, offline)."""
    settings = config.suggest
    routing = RoutingEngine(catalog.index)
    hits = routing.ranking(query).hits[: settings.shortlist] if query else ()
    shortlist = [catalog.entries[h.name] for h in hits if h.name in catalog.entries]
    if not shortlist:
        return NOTHING
    if engine is None:
        engine = routing if config.semif.engine == "lexical" else semif.get_engine(config.semif)
    cards, least = [entry.card for entry in shortlist], settings.min_probability
    taught_none = routing.taught_none(query)
    # Use taught these words for the skill, and they are enough to mean it (`Hit.taught`).
    taught = {h.name for h in hits if h.taught and h.confidence >= THRESHOLD and not taught_none}
    if isinstance(engine, RoutingEngine):
        logged = semif.LoggedEngine(engine, semif_log.DecisionLog.of(layout), phase="suggest")
        result = decide_skill(logged, query, cards)
        # Each skill's probability is the router's confidence that it applies (`routing.engine`).
        probs = {h.name: 0.0 if taught_none else h.confidence for h in hits}
        none_p = 1.0 - max(probs.values(), default=0.0)
        applies = {n for n, p in probs.items() if p >= max(least, THRESHOLD)}
    elif taught_none:
        # A person said messages like this need no skill: no model is asked to say otherwise.
        return NOTHING
    else:
        log = semif_log.DecisionLog.of(layout)
        logged = semif.LoggedEngine(engine, log, phase="suggest", run_id=semif.new_run_id())
        found = weigh_skills(logged, query, cards)
        probs = {a.name: a.probability for a in found}
        applies = {a.name for a in found if a.applies and a.probability >= least}
        # The message needs no skill as far as its likeliest skill's own `none` says.
        best = max(found, key=lambda a: a.probability)
        none_p, result = 1.0 - best.probability, best.result
    candidates = sorted(
        (
            Candidate(
                e.card.name, probs.get(e.card.name, 0.0), e.card.description, e.path, e.origin, e.scope,
                taught=e.card.name in taught,
            )
            for e in shortlist
        ),
        # What this project taught for these words comes first, whatever the ranking says.
        key=lambda c: (not c.taught, -c.probability),
    )  # fmt: skip
    return Ranked(tuple(candidates), frozenset(applies), none_p, result.engine, result.request.id)


def suggest(
    layout: Layout,
    config: Config,
    text: str,
    *,
    limit: int | None = None,
    catalog: Catalog | None = None,
    engine: Engine | None = None,
) -> Suggestion:
    """The skills that may apply to `text`, at most `limit` (default `suggest.max_skills`), or none.

    `catalog` and `engine` let a long-lived caller (the MCP server, a bench) reuse
    what it built; by default every skill is discovered (through the cache).
    """
    most = config.suggest.max_skills if limit is None else limit
    # The text is logged with the decision: a key a person pasted must not be.
    query = query_of(text)
    if catalog is None:
        catalog = load_catalog(layout)
    warnings = tuple(catalog.warnings)
    ranked = rank(layout, config, catalog, query, engine)
    meant = ranked.applies or any(c.taught for c in ranked.candidates)
    picks = ranked.candidates[: max(0, most)] if meant else ()
    return Suggestion(
        query, picks, ranked.candidates, ranked.none_probability, ranked.engine, ranked.decision_id, warnings
    )
