"""Which skills apply to a task: a lexical shortlist, then a SemIf decision with `none` among the options.

    from edgar_min.skills.suggest import suggest
    found = suggest(layout, config, "make a gif for slack")
    [(p.name, p.probability) for p in found.picks]

The shortlist ranks every discovered skill, all scopes, by the routing index
(name, description and `## When to use`). The configured engine then decides
among the best `suggest.shortlist` of them plus `none`; offline that is the
routing index itself (`RoutingEngine`): one decision over the shortlist plus
`none`, and a skill counts when it beats `none`. On any other engine (a model
server's letter slot) every shortlisted skill is asked on its own, all at once
over the one text ("this skill, or none?", `semif.applicable`), and a skill
counts when it beats its own `none`; one row per skill, sharing a run id. A
message closer to those a person taught as needing no skill than to any skill
gets none on either path (on a model, without asking it).
Either way a skill needs at least `suggest.min_probability`, decisions are
logged with phase `suggest`, and at most `suggest.max_skills` count.
"""

from __future__ import annotations

from edgar_min import deferred
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
    "Suggestion",
    "decide_skill",
    "named_note",
    "named_only",
    "query_of",
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

    def as_json(self, body_probability: float | None = None) -> dict[str, Any]:
        """Plain JSON values; with `body_probability` (`suggest.body_probability`), each chosen
        skill says whether the prompt hook would only name it (`named_only`) rather than hand
        its body over."""
        skills = [p.as_json() for p in self.picks]
        if body_probability is not None:
            for skill, pick in zip(skills, self.picks, strict=True):
                skill["named_only"] = named_only(pick.probability, body_probability)
        return {
            "skills": skills,
            **({} if body_probability is None else {"body_probability": body_probability}),
            "none_probability": self.none_probability,
            "candidates": [c.as_json() for c in self.candidates],
            "engine": self.engine,
            "decision_id": self.decision_id,
            "warnings": list(self.warnings),
        }


def named_only(probability: float, body_probability: float) -> bool:
    """Whether the prompt hook only names a pick (its body not handed over): `suggest.body_probability`."""
    return probability < body_probability


def named_note(probability: float, body_probability: float) -> str:
    """`named_only`, said after a pick in a listing; empty for a pick whose body is handed over."""
    if not named_only(probability, body_probability):
        return ""
    return f"  (named only: under suggest.body_probability {body_probability:g})"


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
    settings = config.suggest
    most = settings.max_skills if limit is None else limit
    # The text is logged with the decision: a key a person pasted must not be.
    query = query_of(text)
    if catalog is None:
        catalog = load_catalog(layout)
    routing = RoutingEngine(catalog.index)
    hits = routing.ranking(query).hits[: settings.shortlist] if query else ()
    shortlist = [catalog.entries[h.name] for h in hits if h.name in catalog.entries]
    warnings = tuple(catalog.warnings)
    if not shortlist:
        return Suggestion(query, (), (), 1.0, "none", "", warnings)
    if engine is None:
        engine = routing if config.semif.engine == "lexical" else semif.get_engine(config.semif)
    cards, least = [entry.card for entry in shortlist], settings.min_probability
    if isinstance(engine, RoutingEngine):
        logged = semif.LoggedEngine(engine, semif_log.DecisionLog.of(layout), phase="suggest")
        result = decide_skill(logged, query, cards)
        # Each skill's probability is the router's confidence that it applies (`routing.engine`).
        taught_none = routing.taught_none(query)
        probs = {h.name: 0.0 if taught_none else h.confidence for h in hits}
        none_p = 1.0 - max(probs.values(), default=0.0)
        counted = {n for n, p in probs.items() if p >= max(least, THRESHOLD)}
    elif routing.taught_none(query):
        # A person said messages like this need no skill: no model is asked to say otherwise.
        return Suggestion(query, (), (), 1.0, "none", "", warnings)
    else:
        log = semif_log.DecisionLog.of(layout)
        logged = semif.LoggedEngine(engine, log, phase="suggest", run_id=semif.new_run_id())
        found = weigh_skills(logged, query, cards)
        probs = {a.name: a.probability for a in found}
        counted = {a.name for a in found if a.applies and a.probability >= least}
        # The message needs no skill as far as its likeliest skill's own `none` says.
        best = max(found, key=lambda a: a.probability)
        none_p, result = 1.0 - best.probability, best.result
    candidates = sorted(
        (
            Candidate(e.card.name, probs.get(e.card.name, 0.0), e.card.description, e.path, e.origin)
            for e in shortlist
        ),
        key=lambda c: -c.probability,
    )
    picks = [c for c in candidates if c.name in counted]
    return Suggestion(
        query, tuple(picks[: max(0, most)]), tuple(candidates), none_p, result.engine, result.request.id,
        warnings,
    )  # fmt: skip
