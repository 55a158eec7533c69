"""email.compose: pick the recipient with a SemIf sub-decision, then write a draft file.

Written exactly as the worked example of the skill contract, with its imports.
"""

import json
from pathlib import Path

from semif_agent.skills import ActionResult, DecisionRequest, Option, Prediction


def read_contacts(config):
    """The contacts named by the `contacts` key of the agent config (a JSON list)."""
    path = config.get("contacts")
    if not path:
        return []
    return json.loads(Path(path).read_text(encoding="utf-8"))


def predict(ctx, request):
    contacts = read_contacts(ctx.config)          # config-driven, local data
    decision = DecisionRequest(
        state=f"{request.text} [current process: none]",
        question="Which contact is the intended recipient?",
        options=[Option(c["name"], c.get("description", "")) for c in contacts]
        + [Option("none", "None of the listed contacts.")],
    )
    result = ctx.engine.call(decision)
    return Prediction(text=f"recipient is {result.selected}",
                      decisions=[(decision, result)])


def act(ctx, request, prediction):
    recipient = prediction.text.removeprefix("recipient is ")
    drafts = Path(ctx.config.get("drafts", "data/drafts"))
    drafts.mkdir(parents=True, exist_ok=True)
    target = drafts / f"{request.id}.txt"
    target.write_text(f"To: {recipient}\nBody: {request.text}\n")
    return ActionResult(
        action_log=f"email.compose: wrote draft {target} for {recipient!r}.",
        new_state=f"Draft written to {target.name} for {recipient}.",
    )
