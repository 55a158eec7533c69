"""calendar.schedule: choose the weekday with a SemIf sub-decision, then write an .ics event file."""

from email.message import EmailMessage
from pathlib import Path

from semif_agent.skills import ActionResult, DecisionRequest, Option, Prediction

DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def predict(ctx, request):
    decision = DecisionRequest(
        state=request.text,
        question="On which day of the week is the event?",
        options=[Option(day, f"The event is on {day.title()}.") for day in DAYS]
        + [Option("none", "No day is given.")],
    )
    result = ctx.engine.call(decision)
    return Prediction(text=result.selected, decisions=[(decision, result)])


def act(ctx, request, prediction):
    if prediction.text == "none":
        return ActionResult(
            action_log="calendar.schedule: the request names no day, so no event was written.",
            new_state=request.text,
        )
    # The stdlib email package builds the invitation: loading this tree must not shadow it.
    invite = EmailMessage()
    invite["Subject"] = " ".join(request.text.split())[:120]
    invite.set_content(
        "BEGIN:VCALENDAR\nBEGIN:VEVENT\n"
        f"SUMMARY:{invite['Subject']}\nX-WEEKDAY:{prediction.text.upper()}\n"
        "END:VEVENT\nEND:VCALENDAR\n"
    )
    folder = Path(ctx.config["drafts"]) / "calendar"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{request.id}.eml"
    target.write_text(invite.as_string(), encoding="utf-8")
    return ActionResult(
        action_log=f"calendar.schedule: wrote an invitation for {prediction.text} to {target}.",
        new_state=f"Event scheduled on {prediction.text.title()}.",
    )
