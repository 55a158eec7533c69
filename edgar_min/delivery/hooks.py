"""The agents' hooks (SessionStart, UserPromptSubmit, Stop), all run by one bounded runner.

`run_hook(event, layout, load_config, stdin)` never raises and never takes longer
than `adapters.hook_timeout_s` as a whole: reading the payload and the
transcript, discovering skills, a model's answer, learning. A problem of any
kind (a payload that is not JSON, a broken config, a transcript that never
ends, a bug) becomes one sentence appended to `.edgar/hook-problems.jsonl`,
and the hook still exits 0: a hook that fails would stop or confuse the agent.

What each prints on stdout follows the hooks reference of Claude Code 2.1
(https://code.claude.com/docs/en/hooks): SessionStart and UserPromptSubmit
print `{"hookSpecificOutput": {"hookEventName": ..., "additionalContext": ...}}`
or nothing at all, since anything they print reaches the model (SessionStart
gives no index to a resumed session, `source` `resume`, whose history holds it; it
adds a `systemMessage`, which Claude Code shows the person, when the project's
config has keys left untrusted or the mode is `auto`); Stop prints one
line for the transcript view (its stdout never reaches the model) and never a
`decision`, which would keep the agent going.

Codex (0.171) and Gemini CLI (0.61) run the same hooks with the same payloads (Gemini CLI
calls the events `BeforeAgent` and `AfterAgent`, and is answered under those names). A
Stop hook of theirs must print JSON: `{"continue": true}`, with a `systemMessage` for the
person when the turn wrote something for them or went wrong. Which agent sent a Stop payload
is told by the shape of the log it names, else by the payload itself (`adapters/logs.py`).
"""

from __future__ import annotations

import os
import time

from edgar_min import jsoncodec
from edgar_min.delivery.bound import (
    DEFAULT_TIMEOUT_S,
    Clock,
    Expired,
    HookTimeout,
    bounded,
    read_payload,
    seconds_or_default,
)
from edgar_min.errors import BadInput, EdgarError
from edgar_min.records import dataclass, field
from edgar_min.trust import untrusted_sentence

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, BinaryIO

    from edgar_min.adapters.common import AdaptedTurn
    from edgar_min.adapters.logs import Agent
    from edgar_min.config import Config
    from edgar_min.controller.gate import Outcome
    from edgar_min.layout import Layout
    from edgar_min.learning.turn import Turn

__all__ = ["EVENTS", "HookResult", "HookTimeout", "bounded", "learn_examples", "read_payload", "run_hook"]

# The command-line name of each hook, and Claude Code's name for its event.
EVENTS: dict[str, str] = {
    "session-start": "SessionStart",
    "user-prompt-submit": "UserPromptSubmit",
    "stop": "Stop",
}
# Every agent's name for each event: Claude Code's and Codex's, then Gemini CLI's.
AGENT_EVENTS: dict[str, tuple[str, ...]] = {
    "session-start": ("SessionStart",),
    "user-prompt-submit": ("UserPromptSubmit", "BeforeAgent"),
    "stop": ("Stop", "AfterAgent"),
}


@dataclass(slots=True)
class HookResult:
    """What a hook says: stdout text ('' for nothing), a document for --json, and its problems."""

    stdout: str = ""
    document: dict[str, Any] | None = None
    problems: list[str] = field(default_factory=list)
    # Lines for stderr only (never seen by the agent), such as the `auto` warning.
    notes: list[str] = field(default_factory=list)


def _path(payload: dict[str, Any], key: str, required: bool) -> str | None:
    value = payload.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip() or "\x00" in value:
        msg = f"the hook payload has no {key} (expected the path of the session's transcript)"
        raise BadInput(msg)
    return os.path.expanduser(value)


def _session(payload: dict[str, Any]) -> str | None:
    from edgar_min.learning.sessions import is_session

    value = payload.get("session_id")
    return value if isinstance(value, str) and is_session(value) else None


def _check_cwd(layout: Layout, payload: dict[str, Any], problems: list[str]) -> None:
    cwd = payload.get("cwd")
    if not isinstance(cwd, str) or not cwd:
        return
    if cwd == layout.root:  # what Claude Code sends when the hook runs with --root its project dir
        return
    try:
        here, root = os.path.realpath(cwd), os.path.realpath(layout.root)
        inside = here == root or here.startswith(root.rstrip(os.sep) + os.sep)
    except (OSError, ValueError):
        inside = False
    if not inside:
        problems.append(
            f"the hook payload's cwd {cwd[:200]!r} is not inside the project root {str(layout.root)!r}; "
            "the root's skills were used"
        )


def _context_document(event: str, text: str, payload: dict[str, Any]) -> dict[str, Any]:
    """The hook's output: its context under the name the agent gave the event (Gemini CLI runs the
    prompt hook as `BeforeAgent`), or Claude Code's name for it."""
    name = payload.get("hook_event_name")
    name = name if name in AGENT_EVENTS[event] else EVENTS[event]
    return {"hookSpecificOutput": {"hookEventName": name, "additionalContext": text}}


def payload_agent(payload: dict[str, Any]) -> Agent:
    """The agent that sent a payload, told without reading its log: Gemini CLI's prompt and Stop
    events are `BeforeAgent` and `AfterAgent` and its log is under `.gemini/`; Codex's payload
    names the turn (`turn_id`) and its log is a `rollout-*.jsonl`; anything else is Claude Code's."""
    if payload.get("hook_event_name") in ("BeforeAgent", "AfterAgent"):
        return "gemini"
    if "turn_id" in payload:
        return "codex"
    path = payload.get("transcript_path")
    path = path.replace(os.sep, "/") if isinstance(path, str) else ""
    if path.rpartition("/")[2].startswith("rollout-"):
        return "codex"
    return "gemini" if "/.gemini/" in path else "claude-code"


def _stop_json(result: HookResult) -> str:
    """What Codex and Gemini CLI read from a Stop hook: JSON that lets the agent stop, with a line
    for the person only when the turn wrote something for them or went wrong."""
    document: dict[str, Any] = {"continue": True}
    outcome = result.document.get("outcome") if result.document else None
    if result.problems:
        document["systemMessage"] = f"edgar: hook: {result.problems[0]}"
    elif outcome in ("proposed", "learned", "started") and result.stdout:
        document["systemMessage"] = result.stdout
    return jsoncodec.dumps(document, ensure_ascii=False)


def _session_start(layout: Layout, config: Config, payload: dict[str, Any]) -> HookResult:
    from edgar_min.delivery.framing import fenced_listing, listing_chars
    from edgar_min.layout import listed_by
    from edgar_min.learning.evidence import usefulness_order
    from edgar_min.skills.discovery import SkillSet, discover
    from edgar_min.skills.listing import build_index

    result = HookResult()
    _check_cwd(layout, payload, result.problems)
    document = {}
    # A resumed session's log holds the listing its start gave: a second would be a copy.
    if payload.get("source") != "resume":
        found = discover(layout)  # once: the order and the listing are of the same skills
        agent = payload_agent(payload)
        # What the agent lists to its model itself is not listed again.
        unseen = SkillSet({n: s for n, s in found.skills.items() if not listed_by(agent, s.scope)})
        if unseen.skills:
            room = config.suggest.index_budget_chars - listing_chars()
            index = build_index(layout, max(1, room), usefulness_order(layout, index=found), found=unseen)
            if index.entries:
                document = _context_document("session-start", fenced_listing(index.text), payload)
    # What the person must know of the config: Claude Code shows a hook's `systemMessage` to the
    # person (the context above goes to the model), and the session's start is when it matters.
    said = []
    if config.untrusted:
        sentence = untrusted_sentence(layout, config.untrusted)
        result.problems.append(sentence)
        said.append(f"edgar: {sentence}")
    if config.skills.synthesis == "auto":
        from edgar_min.config import AUTO_SYNTHESIS

        said.append(AUTO_SYNTHESIS)
    if said:
        document["systemMessage"] = "\n".join(said)
    if document:
        result.document = document
        result.stdout = jsoncodec.dumps(document, ensure_ascii=False)
    return result


def _user_prompt_submit(layout: Layout, config: Config, payload: dict[str, Any]) -> HookResult:
    from edgar_min.delivery.context import hand_over
    from edgar_min.delivery.record import record_offer

    result = HookResult()
    prompt = payload.get("prompt")
    if not isinstance(prompt, str):
        msg = "the hook payload has no prompt (expected the text the person submitted)"
        raise BadInput(msg)
    _check_cwd(layout, payload, result.problems)
    session = _session(payload)
    handed = hand_over(layout, config, prompt, payload_agent(payload), session=session)
    result.problems.extend(handed.problems)
    if session is not None:
        # The holdout's draw is recorded like an offer, though never said to the agent.
        bodies = [pick.name for pick, _ in handed.bodies]
        named = [pick.name for pick in handed.shortlist if pick.name not in bodies]
        record_offer(layout, session, bodies, named, handed.withheld)
    elif "session_id" in payload:
        result.problems.append(
            "the hook payload's session_id is not usable; what was suggested is not recorded"
        )
    if handed.text:
        document = _context_document("user-prompt-submit", handed.text, payload)
        result.document = document
        result.stdout = jsoncodec.dumps(document, ensure_ascii=False)
    return result


def _stop(layout: Layout, config: Config, payload: dict[str, Any], clock: Clock) -> HookResult:
    from edgar_min.delivery.waiting import turn_written

    if payload.get("stop_hook_active") is True:
        # Claude Code runs the Stop hooks again when another one kept the agent going: this
        # prompt's turn was recorded at its first Stop, and a second record would count it twice.
        message = "this turn was recorded at its first Stop (another Stop hook kept the agent going)"
        return _stop_said(message, "none", _session(payload))
    path = _path(payload, "transcript_path", required=True) or ""
    # Claude Code starts its Stop hooks before it writes the turn's last lines: rather than wait
    # while the agent waits, the turn is learned by a process of its own once they land.
    if not turn_written(path, payload) and _learn_later(layout, config, payload, path, clock.remaining()):
        return _stop_said(LATER, "later", _session(payload))
    return _learn_turn(layout, config, payload, path, clock)


# What the Stop hook says of a turn the agent has not yet written to its log.
LATER = "this turn is learned once the agent has written it to its log"


def _stop_said(message: str, outcome: str, session: str | None) -> HookResult:
    """A Stop hook's answer that learned nothing now: `message`, and the document saying so."""
    document = {"triggers": [], "outcome": outcome, "path": None, "message": message, "session": session}
    return HookResult(
        stdout=f"edgar: {message}", document={**document, "skills": [], "offered": [], "examples": []}
    )


def _learn_later(layout: Layout, config: Config, payload: dict[str, Any], path: str, seconds: float) -> bool:
    """`_learn_turn` in a process of its own, bounded by `seconds`, its problems written to
    `.edgar/hook-problems.jsonl`: True when it started, False where it cannot (then nothing ran)."""
    from edgar_min.detach import detach

    def work() -> None:
        result = _answered(lambda clock: _learn_turn(layout, config, payload, path, clock), seconds)
        for sentence in result.problems:
            log_problem(layout, "stop", sentence)

    return detach(work)


def _learn_turn(
    layout: Layout, config: Config, payload: dict[str, Any], path: str, clock: Clock
) -> HookResult:
    """Learn the Stop's turn from the agent's log, once the log holds it (waited for, bounded)."""
    from edgar_min.adapters.claude_code import read_transcript
    from edgar_min.adapters.common import tool_table
    from edgar_min.adapters.logs import last_turn, log_agent
    from edgar_min.controller.gate import Gate
    from edgar_min.delivery.record import last_offer
    from edgar_min.delivery.waiting import TRANSCRIPT_WAIT_S, wait_for_turn
    from edgar_min.learning.sessions import is_session, new_session_id
    from edgar_min.learning.turn import parse_turn
    from edgar_min.skills.discovery import SkillNames

    wait_for_turn(path, min(TRANSCRIPT_WAIT_S, clock.remaining()), payload)
    subagent: dict[str, Any] = {}
    agent_path = _path(payload, "agent_transcript_path", required=False)
    if agent_path is not None:
        agent_type = payload.get("agent_type")
        subagent = {
            "agent_path": agent_path,
            "agent_type": agent_type if isinstance(agent_type, str) else None,
        }
    table = tool_table(config.adapters.tool_map)
    names = SkillNames(layout)
    # The log says whose it is (Codex's `transcript_path` is its rollout, Gemini CLI's its session).
    agent = log_agent(path) or payload_agent(payload)

    def read_log() -> AdaptedTurn:
        if agent == "claude-code":
            return read_transcript(path, table, names, **subagent)
        return last_turn(agent, path, table, names)

    adapted = read_log()

    session = _session(payload)
    if session is None:
        session = adapted.session if adapted.session and is_session(adapted.session) else new_session_id()
    # The skills the turn used are what its log shows (the adapter's); what edgar offered for
    # its prompt is recorded beside them, never counted as a use.
    turn = parse_turn(adapted.record, config.skills.tools)
    offer = last_offer(layout, session, names)
    result = HookResult()
    # A skill the agent chose for a person's message teaches routing that message's words.
    learned = []
    if config.suggest.learn_from_use:
        # Every skill the agent used of itself teaches, an offered one too: the agent chose it
        # (a body edgar pasted is no use the log shows, so it teaches nothing).
        learned = learn_examples(layout, turn, result.problems)
    from functools import partial

    from edgar_min.delivery.verdict import from_log, learn_after_check, wants_check

    turn = from_log(config, turn, adapted.runs, layout.root)
    gate = Gate(layout, config)

    def learn(turn: Turn, timeout: float | None = None, *, apart: bool = False) -> Outcome:
        """The turn through the gate: at once, or once the check's verdict is in (in the background)."""
        return gate.learn(turn, session, timeout=timeout, offered=offer.names, apart=apart)

    if wants_check(config, gate, turn, session):

        def reread() -> Turn:
            later = read_log()
            return from_log(config, parse_turn(later.record, config.skills.tools), later.runs, layout.root)

        report = partial(log_problem, layout, "stop")  # the hook's stdout is closed by then
        said = learn_after_check(
            config, layout.root, turn, state=layout.state, learn=learn, report=report, log=(path, reread)
        )
        if said is not None:
            result.stdout = f"edgar: {said}"
            result.document = {
                "triggers": [],
                "outcome": "checking",
                "path": None,
                "message": said,
                "session": session,
                "skills": list(turn.skills),
                "examples": learned,
            }
            return result
        result.problems.append(
            "the declared check cannot run in the background here (no fork, or other threads); "
            "this turn is recorded unverified"
        )
    from edgar_min.models import AGENT_PROVIDERS

    # The person's own agent writing the skill takes a model turn: never while the person waits.
    outcome = learn(turn, timeout=clock.remaining(), apart=config.model.provider in AGENT_PROVIDERS)
    unkept = list(result.problems)  # the examples' own, which the outcome does not know of
    if outcome.outcome == "refused":
        result.problems.append(" ".join(outcome.message.split()))
    result.problems.extend(outcome.problems)
    result.document = {
        **outcome.as_json(),
        "session": session,
        "skills": list(turn.skills),
        "offered": list(offer.names),
        "examples": learned,
    }
    if unkept:
        result.document["problems"] = [*unkept, *outcome.problems]
    triggers = ", ".join(outcome.triggers) or "none"
    result.stdout = f"edgar: {' '.join(outcome.message.split())} (triggers: {triggers})"
    return result


def learn_examples(layout: Layout, turn: Turn, problems: list[str]) -> list[str]:
    """The turn's prompt as an example of each skill its agent used (a person's turn only).

    A skill edgar offered for this prompt counts when the agent used it: the agent read the
    shortlist and chose (a body edgar pasted is no use the log shows, so it teaches nothing). The
    skills recorded; a file that cannot be written is a problem, never a failure of the turn.
    """
    chosen = list(turn.skills)
    if turn.agent != "main" or not chosen:
        return []
    from edgar_min.skills.examples import learn_from_loads

    try:
        return learn_from_loads(layout, turn.prompt, chosen)
    except (OSError, EdgarError) as exc:
        reason = exc.message if isinstance(exc, EdgarError) else str(exc)
        problems.append(f"the prompt was not kept as a routing example: {reason}")
        return []


def log_problem(layout: Layout, event: str, sentence: str) -> None:
    """One line in `.edgar/hook-problems.jsonl`; a failure to write it is not another problem.

    The sentence is redacted: it may quote the payload or a refused turn.
    """
    from edgar_min.logfile import append_row, timestamp
    from edgar_min.redact import redact

    row = {"time": timestamp(), "hook": EVENTS.get(event, event), "problem": redact(sentence)}
    try:
        append_row(layout.hook_problems, row, root=layout.root)
    except (OSError, ValueError, EdgarError):
        pass


def _answered(work: Callable[[Clock], HookResult], seconds: float) -> HookResult:
    """`work` bounded by `seconds`, whatever goes wrong as a one-line problem; never raises."""
    try:
        result = bounded(work, seconds)
    except EdgarError as exc:
        result = HookResult(problems=[exc.message])
    except Expired:
        result = HookResult(problems=["the hook ran out of time and stopped where it was"])
    except Exception as exc:  # noqa: BLE001 - a hook must never fail the agent
        result = HookResult(problems=[f"internal error ({type(exc).__name__}); this is a bug in edgar"])
    result.problems = [" ".join(p.split()) for p in result.problems]
    return result


def run_hook(
    event: str,
    layout: Layout,
    load_config: Callable[[], Config],
    stdin: BinaryIO | Any,
    timeout_s: float | None = None,
) -> HookResult:
    """Run one hook, bounded as a whole; never raises. Problems are logged and returned."""
    started = time.monotonic()

    read: dict[str, Any] = {}  # the payload, once read: how a Stop hook answers depends on it

    def work(clock: Clock) -> HookResult:
        payload = read["payload"] = read_payload(stdin)
        config = load_config()
        limit = config.adapters.hook_timeout_s if timeout_s is None else timeout_s
        clock.extend_to(seconds_or_default(limit), started)
        if event == "session-start":
            result = _session_start(layout, config, payload)
        elif event == "user-prompt-submit":
            result = _user_prompt_submit(layout, config, payload)
        else:
            result = _stop(layout, config, payload, clock)
            if config.untrusted:  # where an untrusted check.command would have run
                result.notes.append(f"edgar: {untrusted_sentence(layout, config.untrusted)}")
            if config.skills.synthesis == "auto":
                from edgar_min.config import AUTO_SYNTHESIS

                result.notes.append(AUTO_SYNTHESIS)
        return result

    if event not in EVENTS:
        result = HookResult(problems=[f"unknown hook {event!r} (hooks: {', '.join(EVENTS)})"])
        log_problem(layout, event, result.problems[0])
        return result
    result = _answered(work, seconds_or_default(DEFAULT_TIMEOUT_S if timeout_s is None else timeout_s))
    for sentence in result.problems:
        log_problem(layout, event, sentence)
    if event == "stop" and "payload" in read and _answers_in_json(read["payload"]):
        result.stdout = _stop_json(result)
    return result


def _answers_in_json(payload: dict[str, Any]) -> bool:
    """Whether the agent that sent this Stop payload reads JSON from the hook (Codex, Gemini CLI)."""
    from edgar_min.adapters.logs import log_agent

    path = payload.get("transcript_path")
    try:
        agent = log_agent(os.path.expanduser(path)) if isinstance(path, str) and path else None
    except (EdgarError, OSError, ValueError):
        agent = None
    return (agent or payload_agent(payload)) != "claude-code"
