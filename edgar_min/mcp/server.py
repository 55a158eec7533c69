"""A Model Context Protocol server over stdio: JSON-RPC 2.0, one message per line, stdlib only.

Methods: `initialize`, `notifications/initialized`, `ping`, `tools/list`,
`tools/call`; the server ends cleanly when stdin closes. Tools:
`skills_index`, `skill_show`, `learn_turn` (through the same `parse_turn` and
gate as `edgar learn`), `decide` (a SemIf decision), `decide_many` (several
questions over one state, as `edgar decide` with several `--question`s) and
`skills_suggest` (the skills that apply to a task, as `edgar skills suggest`).

Errors follow the protocol: a line that is not JSON gets -32700, a message that
is not a JSON-RPC request -32600, an unknown method -32601, bad `params` or an
unknown tool -32602, a failure inside the server -32603. A tool that refuses
(an unknown skill, a turn record with a forbidden key) answers with
`isError: true` and the sentence, so the model can read it. A message without
an `id` is a notification and gets no answer. No message stops the server.
"""

from __future__ import annotations

import sys

from edgar_min import __version__, jsoncodec, semif
from edgar_min.errors import EdgarError
from edgar_min.layout import AGENT_LISTS
from edgar_min.semif.questions import MAX_QUESTIONS
from edgar_min.semif.types import MAX_OPTIONS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, BinaryIO

    from edgar_min.config import Config
    from edgar_min.layout import Layout
    from edgar_min.semif.types import DecisionResult
    from edgar_min.skills.listing import DescriptionCache

__all__ = ["PROTOCOL_VERSIONS", "TOOLS", "Server", "serve"]

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

# Revisions this server speaks, oldest first; the newest is offered when the client's is unknown.
PROTOCOL_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
MAX_LINE = 8 * 1024 * 1024
DEFAULT_BUDGET = 4000

_TURN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "A turn record: only these seven keys; any other key refuses the whole record.",
    "properties": {
        "prompt": {"type": "string", "description": "what the person asked"},
        "corrections": {"type": "array", "items": {"type": "string"}},
        "tools": {"type": "array", "items": {"type": "string"}, "description": "tool names, in order"},
        "errors": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "tool": {"type": "string"},
                    "kind": {
                        "type": "string",
                        "enum": [
                            "nonzero_exit",
                            "not_found",
                            "timeout",
                            "denied",
                            "invalid_input",
                            "crashed",
                        ],
                    },
                    "exit_code": {"type": ["integer", "null"]},
                    "program": {"type": "string"},
                },
                "required": ["tool", "kind"],
                "additionalProperties": False,
            },
        },
        "verification": {"type": "string", "enum": ["passed", "failed", "unverified"]},
        "agent": {"type": "string"},
        "skills": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["prompt"],
    "additionalProperties": False,
}

_OPTIONS_SCHEMA = {
    "type": "array",
    "minItems": 1,
    "maxItems": MAX_OPTIONS,
    "items": {
        "type": "object",
        "properties": {"id": {"type": "string"}, "description": {"type": "string"}},
        "required": ["id"],
        "additionalProperties": False,
    },
}

TOOLS: list[dict[str, Any]] = [
    {
        "name": "skills_index",
        "description": (
            "The skills available, as name and description lines within a character budget, most useful "
            "first. The last line always says which descriptions were shortened and which skills were "
            "omitted. The lines come fenced, as reference material from the skills' files; budget_chars "
            "counts the lines, not the fence."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {
                "budget_chars": {"type": "integer", "minimum": 1, "default": DEFAULT_BUDGET},
                "order": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "skill names to list first, most useful first",
                },
            },
            "additionalProperties": False,
        },
    },
    {
        "name": "skill_show",
        "description": (
            "One skill's text (the body of its SKILL.md), by name: fenced, with its file and whose it is "
            "(the project's, the user's own, or learned), as reference material."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {"name": {"type": "string"}},
            "required": ["name"],
            "additionalProperties": False,
        },
    },
    {
        "name": "learn_turn",
        "description": (
            "Record one finished turn so edgar can learn a skill from it: the triggers run and, when one "
            "fires, a skill is proposed (or learned, if the project allows it)."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {
                "turn": _TURN_SCHEMA,
                "session": {"type": "string", "description": "the session id (default: a new one)"},
            },
            "required": ["turn"],
            "additionalProperties": False,
        },
    },
    {
        "name": "decide",
        "description": (
            "A SemIf decision: pick one of 1-16 options for a question about a state; returns the "
            "selected option and a probability per option."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {
                "state": {"type": "string"},
                "question": {"type": "string"},
                "options": _OPTIONS_SCHEMA,
            },
            "required": ["state", "question", "options"],
            "additionalProperties": False,
        },
    },
    {
        "name": "decide_many",
        "description": (
            "Several SemIf decisions over one state, read once: for each question, one of its 1-16 "
            "options; returns one result per question, in order, each logged under one run id."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {
                "state": {"type": "string"},
                "questions": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": MAX_QUESTIONS,
                    "items": {
                        "type": "object",
                        "properties": {"question": {"type": "string"}, "options": _OPTIONS_SCHEMA},
                        "required": ["question", "options"],
                        "additionalProperties": False,
                    },
                },
            },
            "required": ["state", "questions"],
            "additionalProperties": False,
        },
    },
    {
        "name": "skills_suggest",
        "description": (
            "The skills of this project that may apply to a task (at most three, likeliest first), or none: "
            "the same list the prompt hook hands the agent. named_only false means edgar is sure enough to "
            "hand the body over. Read a skill with skill_show."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {
                "text": {"type": "string", "description": "the task, as the person typed it"},
                "agent": {
                    "type": "string",
                    "enum": sorted(AGENT_LISTS),
                    "description": "the agent asking: a skill it lists itself is never handed over",
                },
            },
            "required": ["text"],
            "additionalProperties": False,
        },
    },
    {
        "name": "skill_stats",
        "description": (
            "What the evidence says of one skill, by name: the turns that used it and their verdicts, and "
            "the randomised holdout's comparison with turns it was withheld from (the effect on the pass "
            "rate with an interval, and helps, hurts or can't tell yet with about how many more turns)."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {"name": {"type": "string"}},
            "required": ["name"],
            "additionalProperties": False,
        },
    },
]
_TOOL_NAMES = frozenset(t["name"] for t in TOOLS)


class RpcError(Exception):
    """A JSON-RPC error answer: a code and a sentence."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class ToolRefused(Exception):
    """A tool that ran and said no: answered as a result with `isError: true`."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _args_check(arguments: dict[str, Any], schema: dict[str, Any]) -> None:
    """The few checks the input schemas promise: known keys, required keys, the types."""
    props = schema["properties"]
    for key in arguments:
        if key not in props:
            msg = f"unknown argument {key!r} (known: {', '.join(props)})"
            raise ToolRefused(msg)
    for key in schema.get("required", ()):
        if key not in arguments:
            msg = f"the argument {key!r} is required"
            raise ToolRefused(msg)
    kinds = {"string": str, "integer": int, "array": list, "object": dict}
    for key, value in arguments.items():
        want = props[key].get("type")
        if isinstance(want, str) and want in kinds:
            ok = isinstance(value, kinds[want]) and not (want == "integer" and isinstance(value, bool))
            if not ok:
                msg = f"the argument {key!r} must be {'an' if want[0] in 'aeio' else 'a'} {want}"
                raise ToolRefused(msg)


def _text_check(arguments: dict[str, Any]) -> None:
    """Refuse an argument holding a lone surrogate anywhere: no file, log or model can take it."""
    stack: list[tuple[str, Any]] = list(arguments.items())
    while stack:
        where, value = stack.pop()
        if isinstance(value, str):
            if not _is_text(value):
                msg = f"the argument {where!r} holds a lone surrogate, which is not text; nothing was stored"
                raise ToolRefused(msg)
        elif isinstance(value, dict):
            stack += [(where, v) for v in value.values()] + [(where, k) for k in value]
        elif isinstance(value, list):
            stack += [(where, v) for v in value]


class Server:
    """The protocol state and the tools, for one project; `handle` answers one decoded message."""

    def __init__(self, layout: Layout, load_config: Callable[[], Config]) -> None:
        from edgar_min.skills.listing import DescriptionCache

        self.layout = layout
        self.load_config = load_config
        self.cache: DescriptionCache = DescriptionCache()
        self._order_cache: tuple[tuple[tuple[str, int, int], ...], list[str]] | None = None
        self.initialized = False

    # Transport-independent: a decoded message in, an answer (or None) out.

    def handle_line(self, line: bytes) -> dict[str, Any] | None:
        try:
            message = jsoncodec.loads(line)
        except ValueError:
            return _error(None, PARSE_ERROR, "Parse error: the message is not valid JSON")
        except RecursionError:
            return _error(None, PARSE_ERROR, "Parse error: the message is nested too deeply to read")
        return self.handle(message)

    def handle(self, message: Any) -> dict[str, Any] | None:
        if isinstance(message, list):
            return _error(
                None, INVALID_REQUEST, "Invalid Request: batches are not supported; send one message"
            )
        if not isinstance(message, dict):
            return _error(None, INVALID_REQUEST, "Invalid Request: a message must be a JSON object")
        has_id = "id" in message
        rid = message.get("id")
        id_ok = isinstance(rid, str) or (isinstance(rid, int) and not isinstance(rid, bool))
        if "method" not in message and ("result" in message or "error" in message):
            return None  # an answer to a request this server never sends
        if message.get("jsonrpc") != "2.0":
            return _error(rid if id_ok else None, INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"')
        method = message.get("method")
        if not isinstance(method, str):
            return _error(
                rid if id_ok else None, INVALID_REQUEST, 'Invalid Request: "method" must be a string'
            )
        if has_id and not id_ok:
            return _error(None, INVALID_REQUEST, 'Invalid Request: "id" must be a string or an integer')
        if isinstance(rid, str) and not _is_text(rid):
            return _error(
                None, INVALID_REQUEST, 'Invalid Request: "id" holds a lone surrogate, which is not text'
            )
        params = message.get("params", {})
        if not has_id:
            self._notification(method)
            return None
        if params is not None and not isinstance(params, dict):
            return _error(rid, INVALID_PARAMS, 'Invalid params: "params" must be an object')
        try:
            result = self._request(method, params or {})
        except RpcError as exc:
            return _error(rid, exc.code, exc.message)
        except Exception as exc:  # noqa: BLE001 - the server outlives any one message
            return _error(
                rid, INTERNAL_ERROR, f"Internal error ({type(exc).__name__}); this is a bug in edgar"
            )
        return {"jsonrpc": "2.0", "id": rid, "result": result}

    def _notification(self, method: str) -> None:
        if method == "notifications/initialized":
            self.initialized = True
        elif not method.startswith("notifications/"):
            sys.stderr.write(
                f"edgar mcp: a {method[:60]!r} message came without an id, so it is a notification and "
                "gets no answer\n"
            )

    def _request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        if method == "initialize":
            asked = params.get("protocolVersion")
            version = asked if asked in PROTOCOL_VERSIONS else PROTOCOL_VERSIONS[-1]
            return {
                "protocolVersion": version,
                "capabilities": {"tools": {"listChanged": False}},
                "serverInfo": {"name": "edgar", "version": __version__},
                "instructions": (
                    "edgar keeps this project's skills. Call skills_index for the listing, skill_show "
                    "for one skill, learn_turn after a finished turn."
                ),
            }
        if method == "ping":
            return {}
        if method == "tools/list":
            return {"tools": TOOLS}
        if method == "tools/call":
            return self._call(params)
        msg = f"Method not found: {method[:80]!r}"
        raise RpcError(METHOD_NOT_FOUND, msg)

    def _call(self, params: dict[str, Any]) -> dict[str, Any]:
        name = params.get("name")
        if not isinstance(name, str):
            raise RpcError(INVALID_PARAMS, 'Invalid params: tools/call needs "name", a string')
        if name not in _TOOL_NAMES:
            msg = f"Unknown tool: {name[:80]!r} (tools: {', '.join(sorted(_TOOL_NAMES))})"
            raise RpcError(INVALID_PARAMS, msg)
        arguments = params.get("arguments", {})
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise RpcError(INVALID_PARAMS, 'Invalid params: "arguments" must be an object')
        schema = next(t["inputSchema"] for t in TOOLS if t["name"] == name)
        try:
            _args_check(arguments, schema)
            _text_check(arguments)
            text, structured = getattr(self, f"_tool_{name}")(arguments)
        except ToolRefused as exc:
            return _tool_error(f"{name}: {exc.message}")
        except EdgarError as exc:
            return _tool_error(f"{name}: {exc.message}")
        result: dict[str, Any] = {"content": [{"type": "text", "text": text}], "isError": False}
        if structured is not None:
            result["structuredContent"] = structured
        return result

    # The tools. Each returns (text for the model, structured content or None).

    def _usefulness(self) -> list[str]:
        """Skills most useful first by the evidence, recomputed only when the store has changed."""
        from edgar_min.learning.evidence import usefulness_order
        from edgar_min.learning.store import ExperienceStore

        store = ExperienceStore(self.layout.experience)
        signature = store.signature()
        if self._order_cache is None or self._order_cache[0] != signature:
            self._order_cache = (signature, usefulness_order(self.layout, store))
        return self._order_cache[1]

    def _tool_skills_index(self, arguments: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        from edgar_min.skills.listing import build_index

        budget = arguments.get("budget_chars", DEFAULT_BUDGET)
        if budget < 1:
            msg = "budget_chars must be at least 1"
            raise ToolRefused(msg)
        order = arguments.get("order", [])
        if not all(isinstance(n, str) for n in order):
            msg = "order must be a list of skill names"
            raise ToolRefused(msg)
        from edgar_min.delivery.framing import fenced_listing

        index = build_index(self.layout, budget, order or self._usefulness(), cache=self.cache)
        data = index.as_json()
        keys = ("entries", "shortened", "omitted", "warnings")
        return fenced_listing(index.text), {k: data[k] for k in keys}

    def _tool_skill_show(self, arguments: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        from edgar_min.delivery.framing import RULE, fence, new_key, provenance
        from edgar_min.skills.discovery import discover

        name = arguments["name"]
        skill = discover(self.layout).get(name)
        if skill is None:
            msg = f"no skill named {name[:80]!r} (skills_index lists them)"
            raise ToolRefused(msg)
        body = skill.frontmatter().body.strip("\n")
        whose = provenance(self.layout, skill.path)
        labels = {"name": skill.name, "whose": whose, "path": skill.path}
        text = fence(new_key([body, *labels.values()]), body, **labels)
        return f"{RULE}\n\n{text}", {
            "name": skill.name,
            "description": skill.description,
            "origin": skill.origin,
            "whose": whose,
            "path": skill.path,
            "warning": skill.warning,
        }

    def _tool_learn_turn(self, arguments: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        from edgar_min.controller.gate import Gate
        from edgar_min.learning.sessions import check_session, new_session_id
        from edgar_min.learning.turn import parse_turn

        config = self.load_config()
        session = arguments.get("session")
        session = check_session(session) if isinstance(session, str) and session else new_session_id()
        turn = parse_turn(arguments["turn"], config.skills.tools)
        outcome = Gate(self.layout, config).learn(turn, session)
        if outcome.outcome == "refused":
            raise ToolRefused(outcome.message)
        data = {**outcome.as_json(), "session": session}
        triggers = ", ".join(outcome.triggers) or "none"
        return f"triggers: {triggers}\n{outcome.message}", data

    def _tool_decide(self, arguments: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        built = _options(arguments["options"], "options")
        result = semif.decide(
            self.layout, self.load_config(), arguments["state"], arguments["question"], built, phase="decide"
        )
        data = {
            "selected": result.selected,
            "option_ids": list(result.option_ids),
            "probabilities": [float(p) for p in result.probabilities],
            "engine": str(result.engine),
        }
        return f"selected: {result.selected}", data

    def _tool_decide_many(self, arguments: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        questions = arguments["questions"]
        if not isinstance(questions, list) or not questions:
            msg = "questions must be a list of at least one {question, options} object"
            raise ToolRefused(msg)
        asked = []
        for i, item in enumerate(questions):
            where = f"questions[{i}]"
            if not isinstance(item, dict):
                msg = f"{where} must be an object with 'question' and 'options'"
                raise ToolRefused(msg)
            unknown = sorted(set(item) - {"question", "options"})
            if unknown:
                msg = f"{where} has the unknown key {unknown[0][:40]!r} (known: question, options)"
                raise ToolRefused(msg)
            if not isinstance(item.get("question"), str):
                msg = f"{where}.question must be a string"
                raise ToolRefused(msg)
            if not isinstance(item.get("options"), list):
                msg = f"{where}.options must be a list of {{id, description}} objects"
                raise ToolRefused(msg)
            asked.append(
                semif.Question(item["question"], tuple(_options(item["options"], f"{where}.options")))
            )
        run_id = semif.new_run_id()
        results = semif.decide_many(
            self.layout, self.load_config(), arguments["state"], asked, phase="decide", run_id=run_id
        )
        data = {"run_id": run_id, "results": [_result_json(r) for r in results]}
        text = "\n".join(f"question {i}: selected {r.selected}" for i, r in enumerate(results, 1))
        return text, data

    def _tool_skill_stats(self, arguments: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        from edgar_min.learning.evidence import collect
        from edgar_min.learning.trial import trials

        config = self.load_config()
        evidence = collect(self.layout, config)
        name = arguments["name"]
        if not evidence.known(name):
            msg = f"no skill named {name[:80]!r}, and no recorded turn loaded one"
            raise ToolRefused(msg)
        s = evidence.stats(name)
        trial = trials(self.layout, config, [name])[name]
        text = f"{s.name} ({s.origin}): {s.sentence(evidence.min_turns)}\nholdout: {trial.sentence()}"
        return text, {**s.as_json(), "holdout": trial.as_json()}

    def _tool_skills_suggest(self, arguments: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        from edgar_min.skills.suggest import named_note, suggest

        text = arguments["text"]
        if not text.strip():
            msg = "text is empty: give the task as the person typed it"
            raise ToolRefused(msg)
        config = self.load_config()
        agent = arguments.get("agent")
        if agent is not None and agent not in AGENT_LISTS:
            msg = f"agent must be one of {', '.join(sorted(AGENT_LISTS))}"
            raise ToolRefused(msg)
        found = suggest(self.layout, config, text)
        least = config.suggest.body_probability
        lines = [
            f"{p.name} ({p.probability:.2f}): {p.path}{named_note(p, least, agent)}" for p in found.picks
        ]
        return "\n".join(lines) or "none: no skill applies to this text", found.as_json(least, agent)


def _options(options: list[Any], where: str) -> list[Any]:
    """`options` as SemIf `Option`s; a malformed one refused by its place."""
    from edgar_min.semif.types import Option

    for i, option in enumerate(options):
        if not isinstance(option, dict) or not isinstance(option.get("id"), str):
            msg = f"{where}[{i}] must be an object with an 'id' string"
            raise ToolRefused(msg)
        if not isinstance(option.get("description", ""), str):
            msg = f"{where}[{i}].description must be a string"
            raise ToolRefused(msg)
        unknown = sorted(set(option) - {"id", "description"})
        if unknown:
            msg = f"{where}[{i}] has the unknown key {unknown[0][:40]!r} (known: id, description)"
            raise ToolRefused(msg)
    return [Option(o["id"], o.get("description", "")) for o in options]


def _result_json(result: DecisionResult) -> dict[str, Any]:
    """One decision's answer, as the `decide` tool gives it, with its id."""
    return {
        "id": result.request.id,
        "selected": result.selected,
        "option_ids": list(result.option_ids),
        "probabilities": [float(p) for p in result.probabilities],
        "engine": str(result.engine),
    }


def _error(rid: Any, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": message}}


def _tool_error(sentence: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": sentence}], "isError": True}


def _is_text(value: str) -> bool:
    """False for a string holding a lone surrogate (JSON's "\\ud800" decodes to one)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _encode(answer: dict[str, Any]) -> bytes:
    """One answer as one line of UTF-8 JSON; text that UTF-8 cannot hold (a lone surrogate) is escaped."""
    text = jsoncodec.dumps(answer, ensure_ascii=False, separators=(",", ":"))
    try:
        return text.encode("utf-8") + b"\n"
    except UnicodeEncodeError:
        return jsoncodec.dumps(answer, separators=(",", ":")).encode("ascii") + b"\n"


def _lines(stream: BinaryIO) -> Any:
    """Each line of `stream`, or None for a line longer than MAX_LINE (skipped, never held whole)."""
    while True:
        line = stream.readline(MAX_LINE + 1)
        if not line:
            return
        if len(line) > MAX_LINE and not line.endswith(b"\n"):
            while True:
                rest = stream.readline(MAX_LINE)
                if not rest or rest.endswith(b"\n"):
                    break
            yield None
            continue
        yield line


def serve(server: Server, stdin: BinaryIO, stdout: BinaryIO) -> int:
    """Answer messages until stdin closes; returns 0."""
    for line in _lines(stdin):
        if line is None:
            answer = _error(None, INVALID_REQUEST, f"Invalid Request: a message longer than {MAX_LINE} bytes")
        elif not line.strip():
            continue
        else:
            try:
                answer = server.handle_line(line)
            except Exception as exc:  # noqa: BLE001 - no message may end the server
                answer = _error(
                    None, INTERNAL_ERROR, f"Internal error ({type(exc).__name__}); this is a bug in edgar"
                )
        if answer is None:
            continue
        data = _encode(answer)
        try:
            stdout.write(data)
            stdout.flush()
        except BrokenPipeError:
            return 0
    return 0
