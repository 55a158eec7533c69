"""calendar.schedule: choose the weekday and the part of the day with SemIf, then write an event file.

The two sub-decisions read the same state (the request), so they are asked together with
`ctx.engine.call_many`: a model engine reads the request once for both.
"""

from email.message import EmailMessage
from pathlib import Path

from semif_agent.skills import ActionResult, DecisionRequest, Option, Prediction

DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
PARTS = {
    "morning": "In the morning, before noon (breakfast, am).",
    "afternoon": "In the afternoon (lunch, after noon, pm).",
    "evening": "In the evening or at night (dinner, tonight).",
    "none": "No time of day is given.",
}


def predict(ctx, request):
    day = DecisionRequest(
        state=request.text,
        question="On which day of the week is the event?",
        options=[Option(day, f"The event is on {day.title()}.") for day in DAYS]
        + [Option("none", "No day is given.")],
    )
    part = DecisionRequest(
        state=request.text,
        question="At what time of day is the event?",
        options=[Option(name, text) for name, text in PARTS.items()],
    )
    day_result, part_result = ctx.engine.call_many([day, part])
    return Prediction(
        text=f"{day_result.selected} {part_result.selected}",
        decisions=[(day, day_result), (part, part_result)],
    )


def act(ctx, request, prediction):
    weekday, _, part = prediction.text.partition(" ")
    if weekday == "none":
        return ActionResult(
            action_log="calendar.schedule: the request names no day, so no event was written.",
            new_state=request.text,
        )
    # The stdlib email package builds the invitation: loading this tree must not shadow it.
    invite = EmailMessage()
    invite["Subject"] = " ".join(request.text.split())[:120]
    invite.set_content(
        "BEGIN:VCALENDAR\nBEGIN:VEVENT\n"
        f"SUMMARY:{invite['Subject']}\nX-WEEKDAY:{weekday.upper()}\n"
        + (f"X-PART-OF-DAY:{part.upper()}\n" if part != "none" else "")
        + "END:VEVENT\nEND:VCALENDAR\n"
    )
    folder = Path(ctx.config["drafts"]) / "calendar"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{request.id}.eml"
    target.write_text(invite.as_string(), encoding="utf-8")
    when = weekday if part == "none" else f"{weekday} {part}"
    return ActionResult(
        action_log=f"calendar.schedule: wrote an invitation for {when} to {target}.",
        new_state=f"Event scheduled on {when.title()}.",
    )
