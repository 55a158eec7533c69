"""`edgar skills generate NAME --description TEXT`: ask a model for a code skill body.

The model is given `CONTRACT` (what a body must be, built from the checker's
own constants so the two cannot drift) and the category's existing leaves.
The reply goes through the gate's `route` and `write_code_skill` (acceptance
inside, a ledger row for every body): `skills.synthesis = propose` (the
default) writes a proposal, `auto` writes the body and its manifest entry into
the tree, `off` makes no call.
"""

from __future__ import annotations

import re

from edgar_min import jsoncodec
from edgar_min.agent.acceptance import (
    FORBIDDEN_MODULES,
    FORBIDDEN_NAMES,
    FORBIDDEN_SUBMODULES,
    MAX_BODY_CHARS,
    check_body,
)
from edgar_min.agent.tree import NAME_RE, Manifest, body_path, load_registry
from edgar_min.agent.writer import write_code_skill
from edgar_min.controller.gate import log_rejection, route
from edgar_min.errors import BadInput, EdgarError, Refused
from edgar_min.models import ReplySchema, ask, get_provider
from edgar_min.records import dataclass
from edgar_min.redact import redact

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    from edgar_min.config import Config
    from edgar_min.layout import Layout
    from edgar_min.models import Provider

__all__ = ["CONTRACT", "CONTRACT_JSON", "Generated", "code_schema", "extract_code", "generate", "reply_code"]

CONTRACT = f"""\
You write one code skill for a stdlib-only Python agent. A skill is a leaf of a skill tree:
one specific action, reached by multiple-choice decisions (category, then skill). Reply with
one Python module in a ```python fence and nothing else.

The module defines, at the top level:

    def predict(ctx, request):   # settle what is ambiguous; return Prediction(text, decisions)
    def act(ctx, request, prediction):  # do the one action; return ActionResult(action_log, new_state)

Import the types with: from semif_agent.skills import ActionResult, DecisionRequest, Option, Prediction
- ctx.engine answers decisions: build DecisionRequest(state=..., question=..., options=[Option(id,
  description), ...]) with 1 to 16 options (add Option("none", "None of these.") when nothing may
  fit), call result = ctx.engine.call(decision) and read result.selected (an option id). To ask
  several questions over one state, results = ctx.engine.call_many([decision, ...]) answers them
  at once, one result each in order, each charged as one call. Put each (decision, result) pair
  in Prediction.decisions. Never fake an answer: use ctx.engine.
- ctx.config is a dict of settings; ctx.config["drafts"] is the folder you may write files in.
  Write nowhere else. request.text is the request, request.id is safe to use in a file name.
- If the skill cannot act, return ActionResult(action_log="<why, in one line>", new_state=request.text).
- action_log is one readable line saying what was done and where, for a reviewer.
- Only the Python standard library and semif_agent.skills may be imported. Never import
  {", ".join(sorted(FORBIDDEN_MODULES | FORBIDDEN_SUBMODULES))}, or any module whose name starts with _.
- Never use {", ".join(sorted(FORBIDDEN_NAMES))}, dunder attributes such as __dict__ or
  __class__, modules reached as attributes (os.sys), getattr, setattr or delattr with a name that
  is not a constant, threads or executors, dir_fd= arguments, fifos or extended attributes.
- No loops that retry, no network, no processes: each run has a small budget of engine calls
  and fails fast when it is spent.
- Do not duplicate a skill the category already has.
"""


# Asked under a JSON schema, the same contract with the reply's shape said as the object's.
_TEXT_SHAPE = "Reply with\none Python module in a ```python fence and nothing else."
CONTRACT_JSON = CONTRACT.replace(
    _TEXT_SHAPE, 'Reply with\none JSON object whose "body" is the Python module\'s source, with no fence.'
)


def code_schema(max_tokens: int) -> ReplySchema:
    """The object a generation reply must be: the body as one string, bounded by the checker's limit."""
    # Code runs about four characters a token; a reply cut short fails acceptance with a sentence.
    longest = max(min(MAX_BODY_CHARS, 4 * max_tokens), 1)
    body = {
        "type": "string",
        "description": "the Python module's source",
        "minLength": 1,
        "maxLength": longest,
    }
    schema = {
        "type": "object",
        "properties": {"body": body},
        "required": ["body"],
        "additionalProperties": False,
    }
    return ReplySchema("code_skill", "Record the code skill's Python source.", schema)


def reply_code(reply: str) -> str:
    """The module's source from a reply: the `body` of a JSON object, else the first fenced block."""
    try:
        obj = jsoncodec.loads(reply.strip())
    except ValueError:
        obj = None
    if isinstance(obj, dict) and isinstance(obj.get("body"), str):
        return extract_code(obj["body"])
    return extract_code(reply)


@dataclass(frozen=True, slots=True)
class Generated:
    outcome: Literal["proposed", "written"]
    path: str
    message: str


def extract_code(reply: str) -> str:
    """The first fenced Python block of `reply`, or the whole reply when it has no fence."""
    match = re.search(r"```(?:python|py)?[ \t]*\n(.*?)```", reply, re.DOTALL)
    return (match.group(1) if match else reply).strip() + "\n"


def build_prompt(name: str, description: str, category: str, leaves: list[tuple[str, str]]) -> str:
    existing = "\n".join(f"- {n}: {d}" for n, d in leaves) or "- (none yet)"
    return (
        f"Skill name: {name}\nCategory: {category}\nWhat it does: {description}\n\n"
        f"Skills the category already has (do not duplicate them):\n{existing}\n"
    )


def generate(
    layout: Layout, config: Config, name: str, description: str, provider: Provider | None = None
) -> Generated:
    """Ask the model for a body for `name` and route it through the writer and the gate."""
    if not NAME_RE.fullmatch(name) or "." not in name:
        msg = f"skill name {name[:80]!r} must be category.skill in lower case ({NAME_RE.pattern})"
        raise BadInput(msg)
    if not description.strip() or "\n" in description.strip():
        msg = "--description must be one or two sentences on one line"
        raise BadInput(msg)
    mode = config.skills.synthesis
    place, _ = route(mode, verified=False, fired=("generate",))  # type: ignore[arg-type]
    if place == "nowhere":
        msg = "skills.synthesis is 'off': no model call, nothing generated"
        raise Refused(msg)
    category_name = name.partition(".")[0]
    registry = load_registry(layout.registry)
    category = registry.category(category_name)
    if category is None:
        msg = f"category {category_name!r} is not in the skill tree {layout.registry}; add it first"
        raise Refused(msg)
    if registry.find(name) is not None:
        msg = f"{name!r} is already a leaf of category {category_name!r}"
        raise Refused(msg)
    if provider is None:
        provider = get_provider(config.model)
    if provider.name == "offline":
        msg = (
            "generating a code skill needs a model: the offline provider only writes SKILL.md files from "
            "turn outlines; set [model] provider to openai, anthropic or command"
        )
        raise Refused(msg)
    leaves = [(m.name, m.description) for m in category.skills]
    # The description goes to the model and into the proposal's manifest: a pasted key must not.
    manifest = Manifest(name=name, category=category_name, description=redact(description.strip()))
    reply = None
    try:
        prompt = build_prompt(name, manifest.description, category_name, leaves)
        schema = code_schema(config.model.max_tokens)
        reply = ask(provider, prompt, brief=CONTRACT, json_brief=CONTRACT_JSON, schema=schema)
        code = reply_code(reply)
        # A code skill's declared check is its acceptance criteria: the body is verified when it
        # passes them, and only then may `auto` put it into the tree (the writer checks again).
        verified = not check_body(code, body_path(layout.code_skills, manifest), manifest, registry, new=True)
        place, _ = route(mode, verified=verified, fired=("generate",))  # type: ignore[arg-type]
        target = write_code_skill(layout, manifest, code, to="tree" if place == "learned" else "proposal")
    except EdgarError as exc:
        log_rejection(layout, fired=("generate",), skill=name, error=exc.message, reply=reply)
        raise
    shown = layout.relative(target)
    if place == "learned":
        return Generated("written", shown, f"wrote {name}: {shown} and its entry in data/categories.json")
    return Generated(
        "proposed",
        shown,
        f"proposed {name}: {shown} (with its manifest entry beside it); review it before use",
    )
