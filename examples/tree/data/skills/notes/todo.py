"""notes.todo: choose a priority, then add one task line to todo.md."""

from pathlib import Path

from edgar_min.agent.skills import ActionResult, DecisionRequest, Option, Prediction


def predict(ctx, request):
    decision = DecisionRequest(
        state=request.text,
        question="How urgent is this task?",
        options=[
            Option("high", "Urgent: today, now, asap, immediately, deadline, critical."),
            Option("normal", "This week, soon, when there is time."),
            Option("low", "Someday, eventually, maybe, no rush."),
        ],
    )
    result = ctx.engine.call(decision)
    return Prediction(text=result.selected, decisions=[(decision, result)])


def act(ctx, request, prediction):
    folder = Path(ctx.config["drafts"])
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "todo.md"
    with target.open("a", encoding="utf-8") as handle:
        handle.write(f"- [ ] ({prediction.text}) {' '.join(request.text.split())}\n")
    return ActionResult(
        action_log=f"notes.todo: added a {prediction.text}-priority task to {target}.",
        new_state=f"Task added to todo.md with priority {prediction.text}.",
    )
