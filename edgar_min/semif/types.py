"""The typed multiple-choice decision: options in, one probability per option out.

A `DecisionRequest` is checked when it is built (1-16 options, unique
non-empty ids, non-empty state and question), so no engine ever sees a
malformed one. `DecisionResult.selected` is always one of the option ids.
"""

from __future__ import annotations

import os

from edgar_min.errors import BadInput
from edgar_min.records import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any, Literal

    PromptOrder = Literal["options_first", "state_first"]

__all__ = [
    "LETTERS",
    "MAX_OPTIONS",
    "PROMPT_ORDERS",
    "DecisionRequest",
    "DecisionResult",
    "Option",
    "as_options",
]

# The letter-slot readout names options A..P: one letter is one token in every
# tokenizer we know of, and 16 keeps the letters inside a top-20 logprob list.
LETTERS = "ABCDEFGHIJKLMNOP"
MAX_OPTIONS = len(LETTERS)
MAX_ID_CHARS = 200
# Where the evidence sits in a letter-slot prompt (see semif/prompt.py): after the options for
# one decision at a time, before them for several questions over one state (`PromptOrder`).
PROMPT_ORDERS: tuple[PromptOrder, ...] = ("options_first", "state_first")


@dataclass(frozen=True, slots=True)
class Option:
    """One answer: a short id (what the caller gets back) and a description (what an engine reads)."""

    id: str
    description: str = ""


def _option_problem(option: Option) -> str | None:
    if not isinstance(option.id, str) or not option.id.strip():
        return "an option id may not be empty"
    if len(option.id) > MAX_ID_CHARS:
        return f"option id {option.id[:40]!r}... is longer than {MAX_ID_CHARS} characters"
    if "\n" in option.id or "\r" in option.id:
        return f"option id {option.id[:40]!r} may not contain a line break"
    if not isinstance(option.description, str):
        return f"the description of option {option.id!r} must be text"
    return None


def as_options(options: Iterable[Any]) -> tuple[Option, ...]:
    """`Option`s from `Option` objects or `(id, description)` pairs (a bare string is an id)."""
    found = []
    for item in options:
        if type(item) is Option:
            found.append(item)
        elif isinstance(item, Option):  # a subclass may override what reading a field does
            found.append(Option(item.id, item.description))
        elif isinstance(item, str):
            found.append(Option(item, ""))
        elif isinstance(item, (tuple, list)) and len(item) in (1, 2):
            found.append(Option(item[0], item[1] if len(item) == 2 else ""))
        else:
            msg = f"an option must be an Option or an (id, description) pair, not {item!r:.80}"
            raise BadInput(msg)
    return tuple(found)


def _plain(value: Any) -> Any:
    return str.__str__(value) if type(value) is not str and isinstance(value, str) else value


def _new_id() -> str:
    return "d-" + os.urandom(8).hex()


@dataclass(frozen=True, slots=True)
class DecisionRequest:
    """A state (the evidence), a question (the criterion) and 1-16 options; `id` is made when empty."""

    state: str
    question: str
    options: tuple[Option, ...]
    id: str = ""

    def __post_init__(self) -> None:
        options = self.options
        if type(options) is not tuple or any(type(o) is not Option for o in options):
            options = as_options(options)
            object.__setattr__(self, "options", options)
        # An engine reads these texts: a str subclass could run its own code there, so keep plain copies.
        if type(self.state) is not str or type(self.question) is not str or type(self.id) is not str:
            for name in ("state", "question", "id"):
                object.__setattr__(self, name, _plain(getattr(self, name)))
        if not self.id:
            object.__setattr__(self, "id", _new_id())
        if not isinstance(self.state, str) or not self.state.strip():
            msg = "a decision needs a non-empty state (the evidence to decide on)"
            raise BadInput(msg)
        if not isinstance(self.question, str) or not self.question.strip():
            msg = "a decision needs a non-empty question"
            raise BadInput(msg)
        if not options:
            msg = "a decision needs at least one option"
            raise BadInput(msg)
        if len(options) > MAX_OPTIONS:
            msg = f"a decision takes at most {MAX_OPTIONS} options (letters A-P); {len(options)} were given"
            raise BadInput(msg)
        seen = set()
        for option in options:
            oid = option.id
            # The common case inline (this runs on every decision); the sentence only on failure.
            if (
                type(oid) is not str
                or len(oid) > MAX_ID_CHARS
                or "\n" in oid
                or "\r" in oid
                or not oid.strip()
                or type(option.description) is not str
            ):
                if _plain(oid) is not oid or _plain(option.description) is not option.description:
                    plain = tuple(Option(_plain(o.id), _plain(o.description)) for o in options)
                    object.__setattr__(self, "options", plain)
                    self.__post_init__()  # once more, on the plain copies
                    return
                raise BadInput(_option_problem(option) or f"option {oid!r:.60} is not usable")
            if oid in seen:
                msg = f"option id {option.id!r} is given twice; ids must be unique"
                raise BadInput(msg)
            seen.add(option.id)

    @property
    def option_ids(self) -> tuple[str, ...]:
        return tuple(o.id for o in self.options)


@dataclass(frozen=True, slots=True)
class DecisionResult:
    """One probability per option, in the request's order; `engine` names who answered."""

    request: DecisionRequest
    option_ids: tuple[str, ...]
    probabilities: tuple[float, ...]
    engine: str
    extra: dict[str, Any] = field(default_factory=dict)
    # How the question was put to a prompt-reading engine; the log and the export render it so.
    prompt_order: PromptOrder = "options_first"

    @property
    def selected(self) -> str:
        """The id with the highest probability (the first one on a tie)."""
        probs = self.probabilities
        return self.option_ids[probs.index(max(probs))]

    @property
    def probs(self) -> dict[str, float]:
        return dict(zip(self.option_ids, self.probabilities, strict=True))

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.request.id,
            "selected": self.selected,
            "option_ids": list(self.option_ids),
            "probabilities": list(self.probabilities),
            "engine": self.engine,
            "extra": self.extra,
        }
