"""`skills.synthesis` = off | propose | auto, decided in one place.

`off` returns before any model call. `propose` (the default) writes to
`.edgar/proposals/`. `auto` writes into `.edgar/skills/learned/` only when the
declared check passed, `correction` did not fire, and `write_learned` accepts
the name and the body (a name a person owns it never takes: a patch to it is
proposed); otherwise it proposes. `route` is that rule, alone and pure; every
skill body (synthesis, distill, code skills) is placed by it, and whether
synthesis is off is its answer too, asked once before any model call. A model
that fails or a reply the writer refuses becomes a logged rejection, never a
broken turn.
"""

from __future__ import annotations

import os
import time

from edgar_min import deferred
from edgar_min.config import AUTO_SYNTHESIS, INERT
from edgar_min.controller.outcome import Outcome, Pending
from edgar_min.errors import EdgarError, ModelError, NotFound, Refused
from edgar_min.invocation import program
from edgar_min.learning.store import ExperienceStore, new_session_id
from edgar_min.learning.triggers import as_text, triggers
from edgar_min.logfile import append_row, timestamp
from edgar_min.records import replace
from edgar_min.redact import redact

# The synthesis path (a model, the drafts, the writer and its walls, the history) costs a per-turn
# command about 5 ms of imports, `re` and `typing` among them: a turn where nothing fired, most
# turns, never reads these names.
discovery = deferred.module("edgar_min.skills.discovery")
check = deferred.module("edgar_min.learning.check")
distill = deferred.module("edgar_min.learning.distill")
drafts = deferred.module("edgar_min.learning.drafts")
injection = deferred.module("edgar_min.learning.injection")
models = deferred.module("edgar_min.models")
detach_ = deferred.module("edgar_min.detach")
observations = deferred.module("edgar_min.learning.observations")
outline = deferred.module("edgar_min.learning.outline")
rejected = deferred.module("edgar_min.learning.rejected")
similarity = deferred.module("edgar_min.learning.similarity")
walls = deferred.module("edgar_min.learning.walls")
writer = deferred.module("edgar_min.learning.writer")

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Literal

    from edgar_min.config import Config
    from edgar_min.layout import Layout
    from edgar_min.learning.triggers import Trigger
    from edgar_min.learning.turn import Turn
    from edgar_min.learning.walls import Source
    from edgar_min.learning.writer import Draft, Provenance, Target
    from edgar_min.models import Provider, ReplySchema
    from edgar_min.skills.discovery import SkillSet

    Mode = Literal["off", "propose", "auto"]
    Place = Literal["nowhere", "proposal", "learned"]

__all__ = ["AUTO_SYNTHESIS", "Gate", "Outcome", "Pending", "log_rejection", "route"]


# Why a body that `auto` would learn is proposed instead; `route` says the first that holds.
OFF = "skills.synthesis is 'off'"
UNVERIFIED = "the declared check did not pass"
CORRECTED = "a correction can only ever propose"
FLAGGED = "its text is flagged for a person (learning/injection.py)"


def route(
    mode: Mode, *, verified: bool, fired: tuple[Trigger, ...], flagged: bool = False
) -> tuple[Place, str]:
    """Where a skill body goes, and why it goes no further: the one rule of proposal against learned.

    `verified`: the declared check passed; `fired`: the triggers (a `correction`
    among them means a person corrected the work); `flagged`: its text speaks to the
    agent rather than about the task. `nowhere` is the answer to "is synthesis off?",
    asked before any model call. The writer may still refuse (a name a person owns is
    its rule), and then the body is proposed.
    """
    if mode == "off":
        return "nowhere", OFF
    if mode != "auto":
        return "proposal", ""
    if flagged:
        return "proposal", FLAGGED
    if not verified:
        return "proposal", UNVERIFIED
    if "correction" in fired:
        return "proposal", CORRECTED
    return "learned", ""


def log_rejection(
    layout: Layout,
    *,
    fired: tuple[Trigger, ...],
    skill: str | None,
    error: str,
    session: str = "",
    reply: str | None = None,
) -> None:
    """Append one JSON line to `.edgar/rejections.jsonl`: when, which triggers, which skill, why.

    A `reply` the model gave is kept beside it for a person (`edgar skills rejections`). The
    sentence and the name are redacted: a refusal may quote what it refused.
    """
    error = redact(error)
    skill = None if skill is None else redact(skill)
    row = {"time": timestamp(), "trigger": as_text(fired), "skill": skill, "session": session, "error": error}
    if reply is not None:
        row["kept"] = rejected.keep(
            layout, reply=reply, sentence=error, fired=fired, session=session, skill=skill
        )
    append_row(layout.rejections, row, root=layout.root)


class Gate:
    """Runs triggers, records the turn, and routes a model's skill through the writer."""

    def __init__(
        self,
        layout: Layout,
        config: Config,
        provider: Provider | None = None,
        store: ExperienceStore | None = None,
    ) -> None:
        self.layout = layout
        self.config = config
        self._provider = provider
        self.store = store if store is not None else ExperienceStore(layout.experience, root=layout.root)

    @property
    def mode(self) -> Mode:
        return self.config.skills.synthesis  # type: ignore[return-value]  # the config checks its choices

    @property
    def provider(self) -> Provider:
        if self._provider is None:
            self._provider = models.get_provider(self.config.model)
        return self._provider

    def after_turn(
        self, turn: Turn, session: str, offered: tuple[str, ...] = (), *, apart: bool = False
    ) -> Pending:
        """Record the turn (with the skills edgar `offered` for it) and start synthesis in the
        background; returns at once.

        `apart`: the caller is a hook the person waits on, so the model's work (synthesis and
        any distill) runs in a process of its own that outlives it (`edgar_min/detach.py`).
        """
        if not self.config.controller.enabled:
            return Pending((), Outcome((), "off", message=INERT))
        fired = triggers(turn, self.config.skills, self.store, session)
        self.store.record(turn, session, fired, offered=offered)
        problems: list[str] = []
        due = self._observe(turn, problems)
        place, why = route(self.mode, verified=turn.verified, fired=fired)
        if place == "nowhere":
            due = []
        if not fired:
            pending = Pending(fired, Outcome(fired, "none", message="no trigger fired; nothing to learn"))
        elif place == "nowhere":
            message = f"{', '.join(fired)} fired, but {why}: no model call, nothing written"
            pending = Pending(fired, Outcome(fired, "off", message=message))
        else:
            pending = Pending(fired)
        asked = () if pending.done() else fired  # the triggers a synthesis answers, if one is due
        if asked or due:
            if apart and self._started_apart(pending, turn, asked, session, due):
                pending = Pending(fired, Outcome(fired, "started", message=self._apart_message(asked, due)))
            else:
                self._start_threads(pending, turn, asked, session, due)
        pending.problems = problems
        return pending

    def _start_threads(
        self, pending: Pending, turn: Turn, fired: tuple[Trigger, ...], session: str, due: list[str]
    ) -> None:
        """The synthesis (when `fired`) and each due distill, each in a thread of this process."""
        import threading

        if fired:
            thread = threading.Thread(
                target=self._run, args=(pending, turn, fired, session), name="edgar-synthesis", daemon=True
            )
            thread.start()
        # The turn's own corrections travel as a flag: its history line may be cut.
        verified, corrected = turn.verified, bool(turn.corrections)
        for name in due:
            thread = threading.Thread(
                target=self._run_distill,
                args=(pending, name, verified, corrected, session),
                name="edgar-distill",
                daemon=True,
            )
            pending.distill_threads.append(thread)
            thread.start()

    def _started_apart(
        self, pending: Pending, turn: Turn, fired: tuple[Trigger, ...], session: str, due: list[str]
    ) -> bool:
        """The model's work of this turn, started in a process that outlives this one (False: not started)."""

        def work() -> None:
            self._start_threads(pending, turn, fired, session, due)
            pending.wait(None)
            for thread in pending.distill_threads:
                thread.join()

        return detach_.detach(work)

    def _apart_message(self, fired: tuple[Trigger, ...], due: list[str]) -> str:
        what = []
        if fired:
            what.append(f"{', '.join(fired)} fired")
        if due:
            what.append(f"{', '.join(due)} due for a distill")
        return (
            f"{'; '.join(what)}: {self.config.model.provider} writes in the background "
            "(see `edgar skills proposals`, and `edgar skills rejections` if it refuses)"
        )

    def learn(
        self,
        turn: Turn,
        session: str,
        timeout: float | None = None,
        offered: tuple[str, ...] = (),
        *,
        apart: bool = False,
    ) -> Outcome:
        """`after_turn`, then wait for the synthesis and any distill (bounded by the model timeout)."""
        pending = self.after_turn(turn, session, offered, apart=apart)
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
        """Watching used skills: a bad turn appends a line to each one the turn used (never one
        only offered).

        Returns the names whose history just reached a multiple of `skills.distill_after`
        lines. Watching never breaks a turn: a history that cannot be written (a link, a
        file where its folder belongs) is a sentence in `problems` instead.
        """
        if not turn.skills:
            return []
        every = self.config.skills.distill_after
        due = []
        for name in turn.skills:
            try:
                count = observations.observe(
                    self.layout, name, turn.errors, turn.corrections, turn.verification
                )
            except (EdgarError, OSError) as exc:
                why = exc.message if isinstance(exc, EdgarError) else (exc.strerror or str(exc))
                problems.append(f"watching {name}: {why}; this turn is not in its history")
                continue
            if every > 0 and count > 0 and count % every == 0:
                due.append(name)
        return due

    def _safely(
        self, work: Callable[[], Outcome], *, fired: tuple[Trigger, ...], skill: str | None, session: str
    ) -> Outcome:
        """Run background work; anything it raises becomes a logged rejection, never a broken turn."""
        try:
            return work()
        except Exception as exc:  # noqa: BLE001 - a synthesiser that explodes must not break a turn
            sentence = exc.message if isinstance(exc, EdgarError) else f"internal error: {type(exc).__name__}"
            try:
                log_rejection(self.layout, fired=fired, skill=skill, error=sentence, session=session)
            except (OSError, EdgarError):
                pass
            if skill is not None:
                sentence = f"distill {skill}: {sentence}"
            return Outcome(fired, "refused", message=sentence, name=skill)

    def _run_distill(
        self, pending: Pending, name: str, verified: bool, corrected: bool, session: str
    ) -> None:
        def work() -> Outcome:
            return self.distill(name, verified=verified, corrected=corrected, session=session)

        pending.distilled.append(self._safely(work, fired=("distill",), skill=name, session=session))

    def _run(self, pending: Pending, turn: Turn, fired: tuple[Trigger, ...], session: str) -> None:
        def work() -> Outcome:
            return self._synthesize(turn, fired, session)

        pending._finish(self._safely(work, fired=fired, skill=None, session=session))

    def _synthesize(self, turn: Turn, fired: tuple[Trigger, ...], session: str) -> Outcome:
        """Ask the model for a skill from the turn's outline (`after_turn` asked `route` that it may)."""
        how = writer.Provenance(session, fired)
        outline_ = outline.Outline.of(turn, fired, check.check_program(self.config.check.command))
        schema = drafts.skill_schema(self.config.model.max_tokens)
        reply = None
        try:
            reply = self._ask(
                outline_.render(),
                brief=drafts.BRIEF,
                json_brief=drafts.BRIEF_JSON,
                schema=schema,
                fired=fired,
                skill=None,
                session=session,
            )
            draft = drafts.parse_reply(reply)
        except EdgarError as exc:
            log_rejection(
                self.layout, fired=fired, skill=None, error=exc.message, session=session, reply=reply
            )
            return Outcome(fired, "refused", message=exc.message)
        source = walls.Source.of(outline_)
        return self.apply(draft, how, verified=turn.verified, source=source, reply=reply)

    def _ask(
        self,
        prompt: str,
        *,
        brief: str,
        json_brief: str,
        schema: ReplySchema,
        fired: tuple[Trigger, ...],
        skill: str | None,
        session: str,
    ) -> str:
        """The model's reply. A provider that runs the person's agent and fails is a logged
        rejection, and the offline writer answers instead: a failed agent still leaves a proposal."""
        try:
            return models.ask(self.provider, prompt, brief=brief, json_brief=json_brief, schema=schema)
        except ModelError as exc:
            if self.provider.name not in models.AGENT_PROVIDERS:
                raise
            sentence = f"{exc.message}; the offline writer wrote this one instead"
            log_rejection(self.layout, fired=fired, skill=skill, error=sentence, session=session)
        offline = models.get_provider(replace(self.config.model, provider="offline", command=()))
        return models.ask(offline, prompt, brief=brief, json_brief=json_brief, schema=schema)

    def distill(self, name: str, *, verified: bool, corrected: bool, session: str = "") -> Outcome:
        """Ask for a patched body of NAME from its history and put it, as a patch, where `route` says.

        `verified`: the turn that asked for it passed its declared check (a distill by
        hand has none, so it can only propose); `corrected`: a person corrected that
        turn. A correction in any history line shown to the model proposes too.
        Raises `NotFound` for a skill that does not exist and `Refused` when there is
        nothing to distill.
        """
        history = observations.read_history(self.layout, name)  # checks the name
        skill = discovery.discover(self.layout).get(name)
        if skill is None:
            msg = f"no skill named {name!r} to distill"
            raise NotFound(msg)
        if not history.notes:
            where = f"{os.path.basename(self.layout.history)}/{name}.md"
            msg = f"{name} has no history lines yet ({where}); nothing to distill"
            raise Refused(msg)
        if not self.config.controller.enabled:
            return Outcome((), "off", message=INERT, name=name)
        shown = history.notes[-distill.HISTORY_LIMIT :]
        corrected = corrected or any(n.corrected for n in shown)
        fired: tuple[Trigger, ...] = ("distill", "correction") if corrected else ("distill",)
        if route(self.mode, verified=verified, fired=fired)[0] == "nowhere":
            return Outcome((), "off", message=f"{OFF}: no model call, nothing written", name=name)
        how = writer.Provenance(session or new_session_id(), fired, actor="distill")
        lines = [n.text for n in shown]
        reply = None
        try:
            body = skill.frontmatter().body
            if len(body) > writer.MAX_BODY_CHARS:
                msg = (
                    f"refused {name}: its body is {len(body)} characters; "
                    f"distill works on up to {writer.MAX_BODY_CHARS}"
                )
                raise Refused(msg)
            reply = self._ask(
                distill.outline(body, lines),
                brief=drafts.PATCH_BRIEF,
                json_brief=drafts.PATCH_BRIEF_JSON,
                schema=drafts.patch_schema(self.config.model.max_tokens),
                fired=fired,
                skill=name,
                session=how.session,
            )
            description, new_body = drafts.parse_patch(name, reply, skill.description)
        except EdgarError as exc:
            log_rejection(
                self.layout, fired=fired, skill=name, error=exc.message, session=how.session, reply=reply
            )
            return Outcome(fired, "refused", message=f"distill {name}: {exc.message}", name=name)
        # The notes are what the model was shown of the turns; what the skill already says stays allowed.
        source = walls.Source(
            corrections=tuple(lines), outline=tuple(lines), kept=f"{skill.description}\n{body}"
        )
        draft = writer.Draft(name, description, new_body)
        return self.apply(draft, how, verified=verified, patch=True, source=source, reply=reply)

    def apply(
        self,
        draft: Draft,
        how: Provenance,
        *,
        verified: bool,
        patch: bool = False,
        source: Source | None = None,
        reply: str | None = None,
    ) -> Outcome:
        """Propose or learn a body, as `route` says for `verified`, `how.triggers` and its flags.

        One write for each outcome, for synthesis and patches alike. A new skill that nearly
        duplicates an existing one becomes a patch proposal for that one. A learned write the
        writer refuses (a name a person owns, say) is proposed instead, with its sentence.
        `source` is what the model was shown (the writer's content walls need it); a refused
        `reply` is kept for a person.
        """
        fired, name = how.triggers, draft.name
        found = injection.aimed_at_agent(f"{draft.description}\n{draft.body}")
        flags = tuple(f.sentence for f in found)
        place, reason = route(self.mode, verified=verified, fired=fired, flagged=bool(found))
        if place == "nowhere":
            return Outcome(fired, "off", message=reason, name=name)
        flag = injection.describe(found) if found else ""
        index = discovery.discover(self.layout)
        waiting = os.path.isfile(os.path.join(self.layout.proposals, name, "SKILL.md"))
        try:
            if place == "learned":
                try:
                    path = self._write(draft, how, writer.Target("learned", patch), index, source)
                except similarity.NearDuplicate:
                    raise
                except Refused as exc:
                    place, reason = "proposal", exc.message
            if place == "proposal":
                path = self._write(draft, how, writer.Target("proposal", patch), index, source)
        except similarity.NearDuplicate as dup:
            # A near-duplicate is never learned: it is proposed as a patch to the skill it duplicates.
            try:
                path = self._write(
                    replace(draft, name=dup.existing),
                    how,
                    writer.Target("proposal", patch=True),
                    index,
                    source,
                )
            except Refused as exc:
                return self._refused(exc, how, dup.name, reply=reply)
            shown = self.layout.relative(path)
            message = (
                f"proposed a patch to {dup.existing}: {shown} ({dup.name} is a near-duplicate of it: "
                f"{dup.match.reason}; review it, then `{program()} skills accept {dup.existing}`)"
            )
            return Outcome(
                fired, "proposed", shown, _because(message, reason, flag), dup.existing, flags=flags
            )
        except Refused as exc:
            return self._refused(exc, how, name, reply=reply)
        shown = self.layout.relative(path)
        if place == "learned":
            return Outcome(fired, "learned", shown, f"learned {name}: {shown}", name)
        message = f"proposed {name}: {shown} (review it, then `{program()} skills accept {name}`)"
        if waiting:
            message += (
                f"; it replaces the proposal that was waiting (`{program()} skills log {name}` keeps it)"
            )
        return Outcome(fired, "proposed", shown, _because(message, reason, flag), name, flags=flags)

    def _write(
        self, draft: Draft, how: Provenance, target: Target, index: SkillSet, source: Source | None
    ) -> str:
        """The gate's one call of the writer."""
        return writer.write_learned(self.layout, draft, how, target, index=index, source=source)

    def _refused(self, exc: Refused, how: Provenance, name: str, *, reply: str | None) -> Outcome:
        log_rejection(
            self.layout, fired=how.triggers, skill=name, error=exc.message, session=how.session, reply=reply
        )
        return Outcome(how.triggers, "refused", None, exc.message, name)


def _because(message: str, reason: str, flag: str = "") -> str:
    """`message`, with why it was not learned and what its text is flagged for, when either is so."""
    if reason == FLAGGED:
        return f"{message}; not learned: {flag}"
    said = f"{message}; not learned: {reason}" if reason else message
    return f"{said}; flagged: {flag}" if flag else said
