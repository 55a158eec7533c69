"""Several questions over one state: the typed question, and its readers.

`requests_for(state, questions)` turns questions into `DecisionRequest`s that
share the state, and names the question (by number and text) in any sentence
it raises, so a person knows which of many was wrong. `read_questions` reads
the JSONL form the CLI takes (`edgar decide --questions FILE`): one object per
line, `{"question": ..., "options": [...], "id": ...}`.
"""

from __future__ import annotations

from edgar_min import jsoncodec
from edgar_min.errors import BadInput
from edgar_min.records import dataclass
from edgar_min.semif.types import DecisionRequest, Option, as_options

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

__all__ = ["MAX_QUESTIONS", "QUESTION_KEYS", "Question", "parse_option", "read_questions", "requests_for"]

# Questions one call may ask over one state: far more than any prompt a model reads well, so a
# runaway caller is stopped by a sentence instead of a thousand requests.
MAX_QUESTIONS = 256
QUESTION_KEYS = ("question", "options", "id")


@dataclass(frozen=True, slots=True)
class Question:
    """A criterion and its options, asked over a state given beside it; `id` names the decision."""

    question: str
    options: tuple[Option, ...]
    id: str = ""


def parse_option(raw: str) -> tuple[str, str]:
    """`ID=DESCRIPTION` or `ID` -> (id, description)."""
    option_id, _, description = raw.partition("=")
    if not option_id.strip():
        msg = f"--option {raw[:60]!r}: the option id before '=' may not be empty"
        raise BadInput(msg)
    return option_id.strip(), description.strip()


def _named(number: int, text: object) -> str:
    shown = " ".join(text.split())[:60] if isinstance(text, str) else ""
    return f"question {number} ({shown!r})" if shown else f"question {number}"


def _as_question(item: Any) -> Question:
    if isinstance(item, Question):
        return item
    if isinstance(item, (tuple, list)) and len(item) == 2:
        return Question(item[0], as_options(item[1]))
    msg = f"a question must be a Question or a (question, options) pair, not {item!r:.80}"
    raise BadInput(msg)


def requests_for(state: str, questions: Iterable[Any]) -> tuple[DecisionRequest, ...]:
    """One checked `DecisionRequest` per question, all over `state`, in the order given."""
    # The state's own rule first, unadorned: it is no one question's fault.
    DecisionRequest(state, "check", (Option("check"),), "check")
    requests: list[DecisionRequest] = []
    seen: dict[str, int] = {}
    for number, item in enumerate(questions, 1):
        if number > MAX_QUESTIONS:
            msg = f"at most {MAX_QUESTIONS} questions may be asked over one state at once"
            raise BadInput(msg)
        try:
            question = _as_question(item)
        except BadInput as exc:
            msg = f"question {number}: {exc.message}"
            raise BadInput(msg) from None
        try:
            request = DecisionRequest(state, question.question, question.options, question.id)
        except BadInput as exc:
            msg = f"{_named(number, question.question)}: {exc.message}"
            raise BadInput(msg) from None
        if question.id:
            if question.id in seen:
                msg = (
                    f"{_named(number, question.question)}: id {question.id[:60]!r} is already "
                    f"the id of question {seen[question.id]}; decision ids must be unique"
                )
                raise BadInput(msg)
            seen[question.id] = number
        requests.append(request)
    if not requests:
        msg = "several questions over one state need at least one question"
        raise BadInput(msg)
    return tuple(requests)


def _options_of(raw: Any, where: str) -> tuple[Option, ...]:
    if not isinstance(raw, list):
        msg = f"{where}: 'options' must be a list of option ids or {{'id', 'description'}} objects"
        raise BadInput(msg)
    found = []
    for item in raw:
        if isinstance(item, str):
            found.append(Option(*parse_option(item)))
        elif isinstance(item, dict) and set(item) <= {"id", "description"} and "id" in item:
            found.append(Option(item["id"], item.get("description", "")))
        else:
            msg = f"{where}: an option is 'ID', 'ID=DESCRIPTION' or {{'id', 'description'}}, not {item!r:.50}"
            raise BadInput(msg)
    return tuple(found)


def read_questions(text: str, source: str) -> tuple[Question, ...]:
    """The questions of a JSONL text (blank lines skipped); a bad line is a sentence naming it."""
    questions = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{source} line {number}"
        try:
            row = jsoncodec.loads(line)
        except ValueError:
            msg = f"{where}: not a JSON object"
            raise BadInput(msg) from None
        if not isinstance(row, dict):
            msg = f"{where}: not a JSON object"
            raise BadInput(msg)
        extra = sorted(set(row) - set(QUESTION_KEYS))
        if extra:
            msg = f"{where}: unknown key {extra[0]!r} (a question has {', '.join(QUESTION_KEYS)})"
            raise BadInput(msg)
        question, decision_id = row.get("question", ""), row.get("id", "")
        if not isinstance(question, str) or not isinstance(decision_id, str):
            msg = f"{where}: 'question' and 'id' must be text"
            raise BadInput(msg)
        questions.append(Question(question, _options_of(row.get("options"), where), decision_id))
    if not questions:
        msg = f"{source}: no questions (one JSON object per line)"
        raise BadInput(msg)
    return tuple(questions)
