"""The run loop: observe -> navigate (category, leaf) -> load -> predict -> act -> observe -> assess.

Every engine decision is logged with its phase and the run id, its texts
redacted first. The body runs in a child process (`child.py`); the engine, its
budget and the decision log stay here, out of the body's reach. The request is
never swallowed: when no skill fits, a body is refused, a skill raises,
returns the wrong type, blows its budget or its time, the run still returns an
`ActionResult` whose log says why and whose `new_state` is the request text.
"""

from __future__ import annotations

import math
import os
import stat
import time

from edgar_min.agent.child import MEMORY_MB, BodyJob, Stop, run_body
from edgar_min.agent.loader import module_name, read_body
from edgar_min.agent.skills import ActionResult, Request
from edgar_min.agent.tree import load_registry
from edgar_min.agent.walls import TIME_LIMIT_S, BudgetExceeded, Wall
from edgar_min.errors import BadInput, Refused
from edgar_min.records import dataclass, field
from edgar_min.redact import redact
from edgar_min.semif import ask_many, get_engine
from edgar_min.semif.log import DecisionLog
from edgar_min.semif.types import DecisionRequest, Option

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from edgar_min.config import Config
    from edgar_min.layout import Layout
    from edgar_min.semif import Engine
    from edgar_min.semif.types import DecisionResult

__all__ = ["DEFAULT_COST_BUDGET", "RunEngine", "RunOutcome", "agent_config", "run_request"]

# Engine calls one run may make (navigation included) when a manifest sets no cost_budget.
DEFAULT_COST_BUDGET = 8
NONE_CATEGORY = Option("none", "None of these categories fits the request.")
NONE_LEAF = Option("none", "None of these skills fits the request.")
ASSESS_QUESTION = "Did the action accomplish the request?"
ASSESS_OPTIONS = (
    Option("accomplished", "Yes: the action log shows the request was carried out (written, done, sent)."),
    Option("not_accomplished", "No: the action failed, was refused, or did something else."),
)


class RunEngine:
    """The configured engine, metered against the run's budget, logged with phase and run id.

    It lives in the parent process only: a body's `ctx.engine` is a pipe to it.
    """

    def __init__(
        self, engine: Engine, log: DecisionLog, run_id: str, budget: int = DEFAULT_COST_BUDGET
    ) -> None:
        self._engine = engine
        self._log = log
        self.run_id = run_id
        self.budget = budget
        self.phase = "observe"
        self.calls = 0
        self.engine_seconds = 0.0
        self.name = engine.name
        self.model = getattr(engine, "model", "")

    def call(self, decision: DecisionRequest, *, charged: bool = True) -> DecisionResult:
        """Answer `decision` (its texts redacted) and log it; `BudgetExceeded` past the budget."""
        if charged:
            if self.calls >= self.budget:
                msg = f"cost budget of {self.budget} engine call(s) for this run is spent; failing fast"
                raise BudgetExceeded(msg)
            self.calls += 1
        decision = DecisionRequest(
            redact(decision.state),
            redact(decision.question),
            tuple(Option(o.id, redact(o.description)) for o in decision.options),
            decision.id,
        )
        start = time.perf_counter()
        result = self._engine.call(decision)
        elapsed = time.perf_counter() - start
        self.engine_seconds += elapsed
        self._log.append(result, phase=self.phase, run_id=self.run_id, model=self.model, latency_s=elapsed)
        return result

    def call_many(
        self, decisions: Sequence[DecisionRequest], *, charged: bool = True
    ) -> tuple[DecisionResult, ...]:
        """Several questions over one state at once, charged one engine call per question."""
        decisions = tuple(decisions)
        if not all(isinstance(d, DecisionRequest) for d in decisions):
            msg = "ctx.engine.call_many takes a list of DecisionRequests"
            raise TypeError(msg)
        if charged:
            if self.calls + len(decisions) > self.budget:
                msg = (
                    f"cost budget of {self.budget} engine call(s) for this run cannot take "
                    f"{len(decisions)} more after {self.calls}; failing fast"
                )
                raise BudgetExceeded(msg)
            self.calls += len(decisions)
        decisions = tuple(
            DecisionRequest(
                redact(d.state), redact(d.question),
                tuple(Option(o.id, redact(o.description)) for o in d.options), d.id,
            )
            for d in decisions
        )  # fmt: skip
        start = time.perf_counter()
        results = ask_many(self._engine, decisions)
        elapsed = time.perf_counter() - start
        self.engine_seconds += elapsed
        for result in results:
            self._log.append(
                result, phase=self.phase, run_id=self.run_id, model=self.model,
                latency_s=elapsed / max(1, len(results)),
            )  # fmt: skip
        return results


@dataclass(frozen=True, slots=True)
class RunOutcome:
    """What one run did: the result, whether a skill acted, and how it got there."""

    request: Request
    result: ActionResult
    acted: bool
    category: str | None = None
    skill: str | None = None
    assessment: str | None = None
    engine_calls: int = 0
    engine_seconds: float = 0.0
    refused: tuple[str, ...] = ()
    decisions: tuple[dict[str, Any], ...] = field(default=())

    def as_json(self) -> dict[str, Any]:
        return {
            "run_id": self.request.id,
            "request": self.request.text,
            "acted": self.acted,
            "category": self.category,
            "skill": self.skill,
            "action_log": self.result.action_log,
            "new_state": self.result.new_state,
            "assessment": self.assessment,
            "engine_calls": self.engine_calls,
            "refused_by_walls": list(self.refused),
            "decisions": list(self.decisions),
        }


def agent_config(layout: Layout, config: Config) -> dict[str, Any]:
    """The `[agent]` table as a skill sees it: relative paths resolved against the project root.

    `data`, `drafts` and any text value containing a `/` are paths; a skill
    runs with the process's working folder wherever it is, so they are made
    absolute here.
    """
    table = dict(config.agent)
    for key, value in table.items():
        if isinstance(value, str) and (key in {"data", "drafts"} or "/" in value) and "://" not in value:
            table[key] = os.path.join(layout.root, os.path.expanduser(value))  # an absolute value wins
    return table


def writable_folders(table: dict[str, Any]) -> list[str]:
    """The folders named by `agent.writable` (keys of the [agent] table whose values are folders)."""
    keys = table.get("writable", [])
    if isinstance(keys, str):
        keys = [keys]
    if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
        msg = 'agent.writable must be a list of [agent] keys, e.g. ["drafts"]'
        raise BadInput(msg)
    folders = []
    for key in keys:
        value = table.get(key)
        if not isinstance(value, str) or not value:
            msg = f"agent.writable names {key!r}, but [agent] has no folder under that key"
            raise BadInput(msg)
        folders.append(value)
    return folders


class _Run:
    def __init__(
        self, layout: Layout, config: Config, request: Request, engine: Engine, log: DecisionLog
    ) -> None:
        self.layout = layout
        self.config = config
        self.request = request
        self.meter = RunEngine(engine, log, request.id)
        self.rows: list[dict[str, Any]] = []
        self.category: str | None = None
        self.skill: str | None = None

    def decide(
        self, phase: str, question: str, options: list[Option], state: str | None = None, *, charged=True
    ) -> DecisionResult:
        self.meter.phase = phase
        decision = DecisionRequest(state or self.request.text, question, tuple(options))
        result = self.meter.call(decision, charged=charged)
        self.rows.append({"phase": phase, "selected": result.selected, "probabilities": result.probs})
        return result

    def unacted(self, why: str, refused: tuple[str, ...] = ()) -> RunOutcome:
        result = ActionResult(action_log=why, new_state=self.request.text)
        return self.outcome(result, acted=False, refused=refused)

    def outcome(
        self, result: ActionResult, *, acted: bool, assessment: str | None = None, refused=()
    ) -> RunOutcome:
        return RunOutcome(
            self.request, result, acted, self.category, self.skill, assessment,
            self.meter.calls, self.meter.engine_seconds, tuple(refused), tuple(self.rows),
        )  # fmt: skip


def _positive(table: dict[str, Any], key: str, default: float) -> float:
    """`[agent] KEY` as a positive number, else `default`; a value that is not one is ignored."""
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return default
    try:
        number = float(value)
    except ValueError:
        return default
    return number if number > 0 and math.isfinite(number) else default


def linked_folder(root: str, folders: list[str]) -> str | None:
    """A sentence when a writable folder is a link, or is reached through one below the root; else None.

    The wall resolves links as the kernel does, so a `data/drafts` a checkout ships as a link
    would make the place it points to writable: such a folder is refused before anything runs.
    Above the root (and above a folder outside it) links are the person's own layout.
    """
    base = os.path.abspath(root)
    for folder in folders:
        path = os.path.abspath(folder)
        inside = path.startswith(base + os.sep)
        at = base if inside else os.path.dirname(path)
        for part in path[len(base) + 1 :].split(os.sep) if inside else [os.path.basename(path)]:
            at = os.path.join(at, part)
            try:
                if not stat.S_ISLNK(os.lstat(at).st_mode):
                    continue
                target = os.readlink(at)
            except OSError:
                break  # not there yet: the body may make it, and the wall sees any link it makes
            shown = os.path.relpath(at, base) if inside else at
            return (
                f"the writable folder {folder} goes through the link {shown} (to {target}); a skill may "
                "write only in real folders, so nothing ran (replace the link with a folder)"
            )
    return None


def run_request(
    layout: Layout, config: Config, text: str, engine: Engine | None = None, log: DecisionLog | None = None
) -> RunOutcome:
    """Handle `text` with the skill tree; raises only for bad input (an empty request, a malformed tree)."""
    if not text.strip():
        msg = "a run needs a request: the text to handle may not be empty"
        raise BadInput(msg)
    registry = load_registry(layout.registry)
    table = agent_config(layout, config)
    folders = writable_folders(table)
    engine = engine if engine is not None else get_engine(config.semif)
    run = _Run(layout, config, Request(text.strip()), engine, log or DecisionLog.of(layout))
    request = run.request
    linked = linked_folder(layout.root, folders)
    if linked is not None:
        return run.unacted(f"refused: {linked}")  # before any decision: nothing is charged
    wall = Wall.of(folders)

    if not registry.categories:
        return run.unacted(f"no skill fits: the skill tree {layout.registry} has no categories")
    try:
        options = [Option(c.name, c.description) for c in registry.categories] + [NONE_CATEGORY]
        chosen = run.decide(
            "navigate:category", "Which category of skills fits the request?", options
        ).selected
        if chosen == "none":
            return run.unacted("no skill fits: no category matches the request, so nothing was done")
        category = registry.category(chosen)
        if category is None:  # an engine answers with one of the ids it was given
            return run.unacted(f"the engine chose {chosen!r}, which is not a category")
        run.category = category.name
        if not category.skills:
            return run.unacted(f"no skill fits: category {category.name} has no skills yet")
        options = [Option(m.name, m.description) for m in category.skills] + [NONE_LEAF]
        leaf = run.decide("navigate:leaf", f"Which {category.name} skill fits the request?", options).selected
    except BudgetExceeded as exc:
        return run.unacted(f"blown budget during navigation: {exc}")
    if leaf == "none":
        return run.unacted(
            f"no skill fits: no {category.name} skill matches the request, so nothing was done"
        )
    manifest = registry.find(leaf)
    if manifest is None:
        return run.unacted(f"the engine chose {leaf!r}, which is not a skill of {category.name}")
    run.skill = manifest.name
    run.meter.budget = manifest.cost_budget or DEFAULT_COST_BUDGET
    try:
        body = read_body(layout.code_skills, registry, manifest)
    except Refused as exc:
        return run.unacted(f"refused body: {exc.message}")

    def answer(decision: DecisionRequest) -> DecisionResult:
        try:
            return run.meter.call(decision)
        except BudgetExceeded as exc:
            raise Stop(str(exc)) from None

    def answer_many(decisions: Sequence[DecisionRequest]) -> tuple[DecisionResult, ...]:
        try:
            return run.meter.call_many(decisions)
        except BudgetExceeded as exc:
            raise Stop(str(exc)) from None

    def on_phase(phase: str) -> None:
        run.meter.phase = phase

    run.meter.phase = "predict"
    job = BodyJob(
        manifest.name, module_name(manifest), str(body.path), request, table, layout.root,
        run.meter.name, run.meter.model,
    )  # fmt: skip
    try:
        report = run_body(
            body.code, job, wall=wall, seconds=_positive(table, "time_limit_s", TIME_LIMIT_S),
            answer=answer, answer_many=answer_many, on_phase=on_phase,
            memory_mb=_positive(table, "memory_mb", MEMORY_MB),
        )  # fmt: skip
    except Refused as exc:  # no way to run a body here (no fork)
        return run.unacted(f"refused body: {exc.message}")
    if report.kind == "blown":
        return run.unacted(f"{manifest.name}: blown budget: {report.message}", report.refused)
    if report.result is None:
        return run.unacted(report.message, report.refused)
    result = report.result

    # Observe, then assess: the loop's own check, not charged to the skill's budget.
    state = f"Request: {request.text}\nAction log: {result.action_log}\nNew state: {result.new_state}"
    assessment = run.decide(
        "assess", ASSESS_QUESTION, list(ASSESS_OPTIONS), state=state, charged=False
    ).selected
    return run.outcome(result, acted=True, assessment=assessment, refused=report.refused)
