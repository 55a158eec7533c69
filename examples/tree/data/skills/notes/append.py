"""notes.append: choose the notes file (work or personal), then append one line to it."""

import time
from pathlib import Path

from edgar_min.agent.skills import ActionResult, DecisionRequest, Option, Prediction


def predict(ctx, request):
    decision = DecisionRequest(
        state=request.text,
        question="Is this note about work or about personal life?",
        options=[
            Option("work", "Work: the project, the office, meetings, clients, the report, a colleague."),
            Option("personal", "Personal: home, family, friends, shopping, health, the flat."),
        ],
    )
    result = ctx.engine.call(decision)
    return Prediction(text=result.selected, decisions=[(decision, result)])


def act(ctx, request, prediction):
    book = prediction.text if prediction.text in {"work", "personal"} else "personal"
    folder = Path(ctx.config["drafts"]) / "notes"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{book}.md"
    stamp = time.strftime("%Y-%m-%d %H:%M")
    with target.open("a", encoding="utf-8") as handle:
        handle.write(f"- {stamp} {' '.join(request.text.split())}\n")
    return ActionResult(
        action_log=f"notes.append: appended the note to {target}.",
        new_state=f"Note saved in {book} notes.",
    )
