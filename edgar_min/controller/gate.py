"""`skills.synthesis` = off | propose | auto, decided in one place.

`off` returns before any model call. `propose` (the default) writes to
`.edgar/proposals/`. `auto` writes into `.edgar/skills/learned/` only when the
declared check passed, `correction` did not fire, and `write_learned` accepts
the name and the body; otherwise it proposes. A model that fails or a reply
the writer refuses becomes a logged rejection, never a broken turn.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from edgar_min.errors import EdgarError, Refused
from edgar_min.logfile import append_row, timestamp

TYPE_CHECKING = False  # typing's own, without importing typing (~2 ms on every run)
if TYPE_CHECKING:
    from collections.abc import Callable

    from edgar_min.config import Config
    from edgar_min.layout import Layout
    from edgar_min.learning.similarity import NearDuplicate
    from edgar_min.learning.store import ExperienceStore
    from edgar_min.learning.turn import Turn
    from edgar_min.learning.walls import Source
    from edgar_min.models import Provider
    from edgar_min.skills.discovery import Index

__all__ = ["AUTO_SYNTHESIS", "Gate", "Outcome", "Pending", "log_rejection"]

AUTO_SYNTHESIS = (
    "edgar: warning: skills.synthesis is 'auto': skills from passing turns are written into "
    ".edgar/skills/learned/ with no review, so a mistake or an instruction injected into a task "
    "can become a standing instruction until someone removes it (set it to 'propose' to review first)"
)
INERT = "the controller is switched off (controller.enabled = false): learning is inert"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of one turn: the triggers that fired and what was written, if anything."""

    triggers: tuple[str, ...]
    outcome: str  # none | proposed | learned | refused | off
    path: str | None = None
    message: str = ""
    name: str | None = None
    # Patches asked for because a loaded skill's history reached skills.distill_after.
    distills: tuple[Outcome, ...] = ()
    # What went wrong beside the turn (a loaded skill's history that could not be written).
    problems: tuple[str, ...] = ()

    def as_json(self) -> dict[str, object]:
        doc: dict[str, object] = {
            "triggers": list(self.triggers),
            "outcome": self.outcome,
            "path": self.path,
            "message": self.message,
        }
        if self.distills:
            doc["distills"] = [
                {"skill": d.name, "outcome": d.outcome, "path": d.path, "message": d.message}
                for d in self.distills
            ]
        if self.problems:
            doc["problems"] = list(self.problems)
        return doc


def log_rejection(
    layout: Layout,
    *,
    trigger: str,
    skill: str | None,
    error: str,
    session: str = "",
    reply: str | None = None,
) -> None:
    """Append one JSON line to `.edgar/rejections.jsonl`: when, which trigger, which skill, why.

    A `reply` the model gave is kept beside it for a person (`edgar skills rejections`).
    """
    row = {"time": timestamp(), "trigger": trigger, "skill": skill, "session": session, "error": error}
    if reply is not None:
        from edgar_min.learning.rejected import keep

        row["kept"] = keep(layout, reply=reply, sentence=error, trigger=trigger, session=session, skill=skill)
    append_row(layout.rejections, row, root=layout.root)


class Pending:
    """A synthesis running in the background; `wait()` returns its `Outcome`."""

    def __init__(self, triggers: tuple[str, ...], immediate: Outcome | None = None) -> None:
        self.triggers = triggers
        self._outcome = immediate
        self._done = threading.Event()
        # Background distills started by this turn, and their outcomes as they finish.
        self.distill_threads: list[threading.Thread] = []
        self.distilled: list[Outcome] = []
        # Sentences for what watching the loaded skills could not record.
        self.problems: list[str] = []
        if immediate is not None:
            self._done.set()

    def _finish(self, outcome: Outcome) -> None:
        self._outcome = outcome
        self._done.set()

    def done(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout: float | None = None) -> Outcome:
        """The outcome; if it is not ready within `timeout`, a `refused` outcome saying so."""
        if not self._done.wait(timeout):
            return Outcome(self.triggers, "refused", message="the model did not answer in time")
        return self._outcome  # type: ignore[return-value]  # set before the event


class Gate:
    """Runs triggers, records the turn, and routes a model's skill through the writer."""

    def __init__(
        self,
        layout: Layout,
        config: Config,
        provider: Provider | None = None,
        store: ExperienceStore | None = None,
    ) -> None:
        from edgar_min.learning.store import ExperienceStore

        self.layout = layout
        self.config = config
        self._provider = provider
        self.store = store if store is not None else ExperienceStore(layout.experience, root=layout.root)

    @property
    def mode(self) -> str:
        return self.config.skills.synthesis

    @property
    def provider(self) -> Provider:
        if self._provider is None:
            from edgar_min.models import get_provider

            self._provider = get_provider(self.config.model)
        return self._provider

    def after_turn(self, turn: Turn, session: str) -> Pending:
        """Record the turn and start synthesis in the background; returns at once."""
        if not self.config.controller.enabled:
            return Pending((), Outcome((), "off", message=INERT))
        from edgar_min.learning.triggers import triggers

        fired = tuple(triggers(turn, self.config.skills, self.store, session))
        self.store.record(turn, session, fired)
        problems: list[str] = []
        due = self._observe(turn, problems)
        if not fired:
            pending = Pending(fired, Outcome(fired, "none", message="no trigger fired; nothing to learn"))
        elif self.mode == "off":
            message = (
                f"{', '.join(fired)} fired, but skills.synthesis is 'off': no model call, nothing written"
            )
            pending = Pending(fired, Outcome(fired, "off", message=message))
        else:
            pending = Pending(fired)
            thread = threading.Thread(
                target=self._run, args=(pending, turn, fired, session), name="edgar-synthesis", daemon=True
            )
            thread.start()
        pending.problems = problems
        if self.mode != "off":
            for name in due:
                thread = threading.Thread(
                    target=self._run_distill,
                    args=(pending, name, turn.verification == "passed", session),
                    name="edgar-distill",
                    daemon=True,
                )
                pending.distill_threads.append(thread)
                thread.start()
        return pending

    def learn(self, turn: Turn, session: str, timeout: float | None = None) -> Outcome:
        """`after_turn`, then wait for the synthesis and any distill (bounded by the model timeout)."""
        from dataclasses import replace

        pending = self.after_turn(turn, session)
        limit = self.config.model.timeout_s + 5 if timeout is None else timeout
        deadline = time.monotonic() + limit
        outcome = pending.wait(limit)
        for thread in pending.distill_threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        distills = tuple(pending.distilled)
        problems = tuple(pending.problems)
        if not distills and not problems:
            return outcome
        message = "; ".join([outcome.message, *(d.message for d in distills), *problems])
        return replace(outcome, message=message, distills=distills, problems=problems)

    def _observe(self, turn: Turn, problems: list[str]) -> list[str]:
        """Watching loaded skills: a bad turn appends a line to each one's history.

        Returns the names whose history just reached a multiple of `skills.distill_after`
        lines. Watching never breaks a turn: a history that cannot be written (a link, a
        file where its folder belongs) is a sentence in `problems` instead.
        """
        if not turn.skills:
            return []
        try:
            from edgar_min.learning.observations import observe
        except ImportError:
            return []
        every = self.config.skills.distill_after
        due = []
        for name in turn.skills:
            try:
                count = observe(self.layout, name, turn.errors, turn.corrections, turn.verification)
            except (EdgarError, OSError) as exc:
                why = exc.message if isinstance(exc, EdgarError) else (exc.strerror or str(exc))
                problems.append(f"watching {name}: {why}; this turn is not in its history")
                continue
            if every > 0 and count > 0 and count % every == 0:
                due.append(name)
        return due

    def _safely(
        self, work: Callable[[], Outcome], *, fired: tuple[str, ...], skill: str | None, session: str
    ) -> Outcome:
        """Run background work; anything it raises becomes a logged rejection, never a broken turn."""
        try:
            return work()
        except Exception as exc:  # noqa: BLE001 - a synthesiser that explodes must not break a turn
            sentence = exc.message if isinstance(exc, EdgarError) else f"internal error: {type(exc).__name__}"
            try:
                log_rejection(
                    self.layout, trigger=",".join(fired), skill=skill, error=sentence, session=session
                )
            except (OSError, EdgarError):
                pass
            if skill is not None:
                sentence = f"distill {skill}: {sentence}"
            return Outcome(fired, "refused", message=sentence, name=skill)

    def _run_distill(self, pending: Pending, name: str, verified: bool, session: str) -> None:
        from edgar_min.learning.distill import distill

        def work() -> Outcome:
            return distill(self.layout, self.config, name, self._provider, session=session, verified=verified)

        pending.distilled.append(self._safely(work, fired=("distill",), skill=name, session=session))

    def _run(self, pending: Pending, turn: Turn, fired: tuple[str, ...], session: str) -> None:
        def work() -> Outcome:
            return self.synthesize(turn, fired, session)

        pending._finish(self._safely(work, fired=fired, skill=None, session=session))

    def synthesize(self, turn: Turn, fired: tuple[str, ...], session: str) -> Outcome:
        """Ask the model for a skill from the turn's outline and route it through `apply`."""
        if self.mode == "off":
            return Outcome(fired, "off", message="skills.synthesis is 'off'")
        from edgar_min.learning.drafts import BRIEF, BRIEF_JSON, parse_reply, skill_schema
        from edgar_min.learning.outline import Outline
        from edgar_min.learning.walls import Source
        from edgar_min.models import ask

        trigger = ",".join(fired)
        outline = Outline.of(turn, fired)
        schema = skill_schema(self.config.model.max_tokens)
        reply = None
        try:
            reply = ask(self.provider, outline.render(), brief=BRIEF, json_brief=BRIEF_JSON, schema=schema)
            draft = parse_reply(reply)
        except EdgarError as exc:
            log_rejection(
                self.layout, trigger=trigger, skill=None, error=exc.message, session=session, reply=reply
            )
            return Outcome(fired, "refused", message=exc.message)
        return self.apply(
            draft.name,
            draft.description,
            draft.body,
            session=session,
            trigger=trigger,
            verified=turn.verification == "passed",
            source=Source.of(outline),
            reply=reply,
        )

    def apply(
        self,
        name: str,
        description: str,
        body: str,
        *,
        session: str,
        trigger: str,
        verified: bool,
        patch: bool = False,
        actor: str = "gate",
        source: Source | None = None,
        reply: str | None = None,
    ) -> Outcome:
        """Propose or learn: the one place that decides, for synthesis and for patches alike.

        A new skill that nearly duplicates an existing one becomes a patch proposal for that one.
        `source` is what the model was shown (the writer's content walls need it); a refused
        `reply` is kept for a person.
        """
        from edgar_min.learning.similarity import NearDuplicate
        from edgar_min.learning.writer import write_learned
        from edgar_min.skills.discovery import discover

        fired = tuple(t for t in trigger.split(",") if t)
        index = discover(self.layout)
        hand = index.owner(name) is not None
        reason = ""
        if self.mode == "auto":
            if not verified:
                reason = "the declared check did not pass"
            elif "correction" in fired:
                reason = "a correction can only ever propose"
            elif patch and hand:
                reason = "a patch to a hand-authored skill is always a proposal"
            else:
                try:
                    path = write_learned(
                        self.layout, name, description, body,
                        session=session, trigger=trigger, to="learned", patch=patch, index=index, actor=actor,
                        source=source,
                    )  # fmt: skip
                except NearDuplicate as dup:
                    return self._patch_instead(
                        dup, description=description, body=body, session=session, trigger=trigger,
                        fired=fired, index=index, actor=actor, source=source, reply=reply,
                    )  # fmt: skip
                except Refused as exc:
                    reason = exc.message
                else:
                    shown = self._shown(path)
                    return Outcome(fired, "learned", shown, f"learned {name}: {shown}", name)
        waiting = (self.layout.proposals / name / "SKILL.md").is_file()
        try:
            path = write_learned(
                self.layout, name, description, body,
                session=session, trigger=trigger, to="proposal", patch=patch, index=index, actor=actor,
                source=source,
            )  # fmt: skip
        except NearDuplicate as dup:
            return self._patch_instead(
                dup, description=description, body=body, session=session, trigger=trigger,
                fired=fired, index=index, actor=actor, reason=reason, source=source, reply=reply,
            )  # fmt: skip
        except Refused as exc:
            log_rejection(
                self.layout, trigger=trigger, skill=name, error=exc.message, session=session, reply=reply
            )
            return Outcome(fired, "refused", None, exc.message, name)
        shown = self._shown(path)
        message = f"proposed {name}: {shown} (review it, then `edgar skills accept {name}`)"
        if waiting:
            message += f"; it replaces the proposal that was waiting (`edgar skills log {name}` keeps it)"
        if reason:
            message += f"; not learned: {reason}"
        return Outcome(fired, "proposed", shown, message, name)

    def _patch_instead(
        self,
        dup: NearDuplicate,
        *,
        description: str,
        body: str,
        session: str,
        trigger: str,
        fired: tuple[str, ...],
        index: Index,
        actor: str,
        reason: str = "",
        source: Source | None = None,
        reply: str | None = None,
    ) -> Outcome:
        """A near-duplicate is never learned: it is proposed as a patch to the skill it duplicates."""
        from edgar_min.learning.writer import write_learned

        try:
            path = write_learned(
                self.layout, dup.existing, description, body,
                session=session, trigger=trigger, to="proposal", patch=True, index=index, actor=actor,
                source=source,
            )  # fmt: skip
        except Refused as exc:
            log_rejection(
                self.layout, trigger=trigger, skill=dup.name, error=exc.message, session=session, reply=reply
            )
            return Outcome(fired, "refused", None, exc.message, dup.name)
        shown = self._shown(path)
        message = (
            f"proposed a patch to {dup.existing}: {shown} ({dup.name} is a near-duplicate of it: "
            f"{dup.match.reason}; review it, then `edgar skills accept {dup.existing}`)"
        )
        if reason:
            message += f"; not learned: {reason}"
        return Outcome(fired, "proposed", shown, message, dup.existing)

    def _shown(self, path: object) -> str:
        from pathlib import Path

        p = Path(str(path))
        try:
            return str(p.relative_to(self.layout.root))
        except ValueError:
            return str(p)
