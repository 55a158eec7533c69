"""SemIf decisions on any OpenAI-compatible server (llama.cpp, Ollama, vLLM, hosted).

Two readouts, each asked in every cyclic order of the options and combined (semif/cyclic.py),
so an option's probability does not depend on where it was listed:

- **By option id** (semif/cloze.py), where the server takes a list of plain prompts in one
  request (llama.cpp's `/apply-template` and `/v1/completions`) and its `/tokenize` tells the
  ids' first tokens apart: the log-probability of each id after `Answer:`, less that in the same
  prompt with no evidence. A small model reads this far better than a letter.
- **By letter** everywhere else: the options are shown as letters and the model is asked for one
  token with `top_logprobs: 20`. A letter's log-probability is that of its first exact-match
  token; a letter missing from the top 20 gets the lowest one listed (the most it can have) and
  is named in `extra.missing_letters`. A server that returns no logprobs (or no letter among them)
  is asked once more for a constrained answer (a JSON-schema enum of the letters); that result
  gives the chosen option probability 1 and says so in `extra.probability_status`.

The state comes first in every prompt, so the orders of one decision, and the questions of
`call_many`, share it in the server's prompt cache; every prompt of a call goes in one request
where the server takes lists, and is a chat request of its own elsewhere.
"""

from __future__ import annotations

import os

from edgar_min import jsoncodec
from edgar_min.errors import ModelError
from edgar_min.models.endpoint import resolve
from edgar_min.models.http import HTTPStatusError, post_json, shown_url
from edgar_min.semif.cloze import CONTENT_FREE, id_logprobs, pmi, read_top, render_cloze
from edgar_min.semif.cyclic import combined, rotations
from edgar_min.semif.prompt import SYSTEM, letters_for, render
from edgar_min.semif.types import DecisionResult

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any, Literal

    from edgar_min.config import SemifConfig
    from edgar_min.semif.types import DecisionRequest, PromptOrder

    # How the prompts of one call reach the server (`OpenAIEngine.transport`).
    Transport = Literal["prompt lists", "one request per prompt"]

__all__ = ["ID_TOP_LOGPROBS", "MAX_PROMPTS_PER_REQUEST", "TOP_LOGPROBS", "OpenAIEngine"]

TOP_LOGPROBS = 20
# Top tokens read by option id: an id's first token is one of the whole vocabulary, where a letter
# is one of a handful, so more are read (the figures in docs/semif.md were read with 50). An id
# outside them gets the lowest listed. Reading every id exactly (llama.cpp's `logit_bias` and
# `post_sampling_probs`) was measured and lost: docs/evaluation.md, "Every id at its own probability".
ID_TOP_LOGPROBS = 50
# Content-free answers kept per engine (one per option order of each question asked).
CONTENT_FREE_KEPT = 256
# Prompts sent in one list: enough for 16 questions of four options in their four orders, and a
# reply (about 2.5 KB a prompt) far under the size the HTTP reader takes.
MAX_PROMPTS_PER_REQUEST = 64
WHO = "semif engine openai"


class OpenAIEngine:
    """SemIf decisions from an OpenAI-compatible server's letter slot, every option at every letter."""

    name = "openai"

    def __init__(self, config: SemifConfig, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        endpoint = resolve(
            "openai", WHO, section="semif", base_url=config.base_url,
            api_key_env=config.api_key_env, environ=env,
        )  # fmt: skip
        self.base_url = endpoint.base_url
        self.model = config.model or "default"
        self.timeout = config.timeout_s
        self.headers: dict[str, str] = endpoint.headers()
        # Learned on the first call: the chat template around the user text when the server
        # takes prompt lists, or None when it does not.
        self._template: tuple[str, str] | None = None
        self.transport: Transport | None = None
        # The first token the server writes for each option id (" billing"), learned from its
        # `/tokenize`; `_tokenizes` turns False when it has none.
        self._pieces: dict[str, str] = {}
        self._tokenizes = True
        # Content-free replies by prompt text (semif/cloze.py), oldest first.
        self._content_free: dict[str, Any] = {}

    def _post(self, body: dict[str, Any], path: str = "/chat/completions", timeout: float = 0.0) -> Any:
        return post_json(WHO, f"{self.base_url}{path}", body, self.headers, timeout or self.timeout)

    def messages(self, decision: DecisionRequest, order: PromptOrder = "state_first") -> list[dict[str, str]]:
        return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": render(decision, order)}]

    def letter_body(self, decision: DecisionRequest, order: PromptOrder = "state_first") -> dict[str, Any]:
        """The chat request body of one letter slot (public so tests and the bench can reuse it)."""
        return {
            "model": self.model,
            "messages": self.messages(decision, order),
            "max_tokens": 1,
            "temperature": 0,
            "logprobs": True,
            "top_logprobs": TOP_LOGPROBS,
        }

    def call(self, decision: DecisionRequest) -> DecisionResult:
        return self.call_many([decision])[0]

    def call_many(self, decisions: Sequence[DecisionRequest]) -> list[DecisionResult]:
        """Each decision in every cyclic order of its options, in as few requests as the server takes.

        By option id where the server can read them, by letter for the rest.
        """
        results: list[DecisionResult | None] = [None] * len(decisions)
        try:
            by_id = bool(decisions) and self._reads_ids(decisions[0])
            if by_id:
                self._learn_pieces([i for d in decisions for i in d.option_ids])
            pieces = [self._id_pieces(d) if by_id else None for d in decisions]
        except _Unanswered:
            # Not answered at all: the chat requests below say what is wrong, without a second wait.
            pieces, lists = [None] * len(decisions), False
        else:
            lists = True
        readable = [i for i, p in enumerate(pieces) if p is not None]
        if readable:
            read = self._by_id([decisions[i] for i in readable], [pieces[i] or {} for i in readable])
            for i, result in zip(readable, read, strict=True):
                results[i] = result
        rest = [i for i, result in enumerate(results) if result is None]
        if rest:
            asked = [rotations(decisions[i]) for i in rest]
            replies = iter(self.letter_replies([r for orders in asked for r in orders], lists=lists))
            for i, orders in zip(rest, asked, strict=True):
                results[i] = self._fair(orders, [next(replies) for _ in orders])
        return [r for r in results if r is not None]

    def _reads_ids(self, decision: DecisionRequest) -> bool:
        """Whether the server may be read by option id: it takes prompt lists and may tokenize."""
        if self.transport == "one request per prompt" or not self._tokenizes:
            return False
        if self._template is None and self._learn_template(decision) is None:
            self.transport = "one request per prompt"
            return False
        return True

    def _id_pieces(self, decision: DecisionRequest) -> dict[str, str] | None:
        """Each option id's first token where the decision can be read by id, else None."""
        pieces: dict[str, str] = {}
        for option_id in decision.option_ids:
            piece = self._pieces.get(option_id) or (self._tokenizes and self._first_piece(option_id))
            if not piece:
                return None
            pieces[option_id] = piece
        distinct = len(set(pieces.values())) == len(pieces)
        return pieces if distinct else None

    def _learn_pieces(self, option_ids: Sequence[str]) -> None:
        """The first tokens of the ids not known yet, from one `/tokenize` of them all.

        The ids go one a line, each after a space as it follows `Answer:`. Kept only where the
        pieces spell the text exactly and each id's line begins at a token of its own that does
        not run past the id; otherwise (a tokenizer that marks spaces its own way, say) each id
        is asked alone by `_first_piece`.
        """
        new = [i for i in dict.fromkeys(option_ids) if i not in self._pieces]
        if len(new) < 2:
            return
        lines = [f" {option_id}\n" for option_id in new]
        pieces = self._tokens("".join(lines))
        if pieces is None or "".join(pieces) != "".join(lines):
            return
        starts, at = {}, 0
        for piece in pieces:
            starts[at] = piece
            at += len(piece)
        learned, at = {}, 0
        for option_id, line in zip(new, lines, strict=True):
            first = starts.get(at, "")
            if not first.strip() or not f" {option_id}".startswith(first):
                return
            learned[option_id] = first
            at += len(line)
        self._pieces.update(learned)

    def _first_piece(self, option_id: str) -> str | None:
        """The first token the server writes for ` option_id`."""
        pieces = self._tokens(f" {option_id}")
        if not pieces or not pieces[0].strip():
            return None
        self._pieces[option_id] = pieces[0]
        return pieces[0]

    def _tokens(self, content: str) -> list[str] | None:
        """The pieces llama.cpp's `/tokenize` gives `content`; None when it gives none, and a
        server that cannot answer is not asked again (its ids go by letter)."""
        url = f"{self.base_url.removesuffix('/v1')}/tokenize"
        try:
            reply = post_json(WHO, url, {"content": content, "with_pieces": True}, self.headers, self.timeout)
            pieces = [token["piece"] for token in reply["tokens"]]
        except (ModelError, KeyError, TypeError):
            self._tokenizes = False
            return None
        return pieces if all(isinstance(piece, str) for piece in pieces) else None

    def _by_id(
        self, decisions: Sequence[DecisionRequest], pieces: Sequence[Mapping[str, str]]
    ) -> list[DecisionResult | None]:
        """Each decision read by option id in every order, in one list request; None where it cannot be."""
        asked = [rotations(d) for d in decisions]
        texts = [render_cloze(order) for orders in asked for order in orders]
        free = list(dict.fromkeys(render_cloze(o, CONTENT_FREE) for orders in asked for o in orders))
        wanted = [text for text in free if text not in self._content_free]
        choices = self._completions(texts + wanted, ID_TOP_LOGPROBS)
        if choices is None:
            self.transport = "one request per prompt"
            return [None] * len(decisions)
        self.transport = "prompt lists"
        # This call's content-free answers, the new ones kept for later calls (the oldest dropped).
        blank_of = {text: self._content_free[text] for text in free if text in self._content_free}
        for text, choice in zip(wanted, choices[len(texts) :], strict=True):
            blank_of[text] = self._content_free[text] = choice
            if len(self._content_free) > CONTENT_FREE_KEPT:
                del self._content_free[next(iter(self._content_free))]
        with_evidence = iter(choices[: len(texts)])
        results: list[DecisionResult | None] = []
        for decision, orders, ids in zip(decisions, asked, pieces, strict=True):
            replies = [next(with_evidence) for _ in orders]
            per_order: list[list[float]] = []
            missing: set[str] = set()
            for order, reply in zip(orders, replies, strict=True):
                seen = id_logprobs(_top(reply), ids, decision.option_ids)
                blank = id_logprobs(
                    _top(blank_of[render_cloze(order, CONTENT_FREE)]), ids, decision.option_ids
                )
                if isinstance(seen, str) or isinstance(blank, str):
                    per_order = []
                    break
                per_order.append(pmi(seen[0], blank[0]))
                missing.update(seen[1])
            if not per_order:
                results.append(None)  # asked by letter instead
                continue
            extra: dict[str, Any] = {
                "readout": "option ids",
                "probability_status": "logprobs",
                "orders": len(orders),
                "content_free": CONTENT_FREE,
            }
            if missing:
                extra["missing_ids"] = sorted(missing)
            results.append(
                DecisionResult(
                    decision, decision.option_ids, combined(per_order), "openai", extra, "state_first"
                )
            )
        return results

    def letter_replies(self, prompts: Sequence[DecisionRequest], lists: bool = True) -> list[Any]:
        """One chat-shaped letter-slot reply per prompt, in order: in lists where the server takes them."""
        if lists and self.transport != "one request per prompt":
            try:
                replies = self._listed(prompts)
            except _Unanswered:
                replies = None  # not learned: the chat requests below say what is wrong
            else:
                self.transport = "prompt lists" if replies is not None else "one request per prompt"
            if replies is not None:
                return replies
        return [self._post(self.letter_body(p)) for p in prompts]

    def _listed(self, prompts: Sequence[DecisionRequest]) -> list[Any] | None:
        """The letter-slot replies to `prompts` from `/v1/completions` given lists; None if it takes none."""
        template = self._template or self._learn_template(prompts[0])
        if template is None:
            return None
        before, after = template
        choices = self._completions(
            [before + render(p, "state_first") + after for p in prompts], TOP_LOGPROBS
        )
        return None if choices is None else [{"choices": [choice]} for choice in choices]

    def _completions(self, texts: Sequence[str], top: int) -> list[Any] | None:
        """One choice per text from `/v1/completions` given lists of them; None if it takes none."""
        found: list[Any] = []
        for start in range(0, len(texts), MAX_PROMPTS_PER_REQUEST):
            chunk = texts[start : start + MAX_PROMPTS_PER_REQUEST]
            body = {
                "model": self.model,
                "prompt": list(chunk),
                "max_tokens": 1,
                "temperature": 0,
                "logprobs": top,
            }
            try:
                # The whole list is one request: it may take what its prompts one by one would.
                reply = self._post(body, "/completions", self.timeout * len(chunk))
            except HTTPStatusError:
                if found:
                    raise
                return None
            choices = _choices(reply, len(chunk))
            if choices is None:
                if found:
                    where = shown_url(f"{self.base_url}/completions")
                    msg = f"{WHO}: {where} answered {len(chunk)} prompts without a choice for each"
                    raise ModelError(msg)
                return None
            found += choices
        return found

    def _learn_template(self, prompt: DecisionRequest) -> tuple[str, str] | None:
        """The text the server's chat template puts before and after the user's, or None.

        Asked of llama.cpp's `/apply-template` once per engine, and used only when the user's
        text comes back whole and once, so a list prompt is exactly what the chat request renders.
        """
        if not self.base_url.endswith("/v1"):
            return None
        url = f"{self.base_url.removesuffix('/v1')}/apply-template"
        try:
            reply = post_json(WHO, url, {"messages": self.messages(prompt)}, self.headers, self.timeout)
        except HTTPStatusError:
            return None
        except ModelError:
            raise _Unanswered from None
        rendered = reply.get("prompt") if isinstance(reply, dict) else None
        user = render(prompt, "state_first")
        if not isinstance(rendered, str) or rendered.count(user) != 1:
            return None
        before, _, after = rendered.partition(user)
        self._template = (before, after)
        return self._template

    def read(
        self, decision: DecisionRequest, reply: Any, order: PromptOrder = "state_first"
    ) -> DecisionResult:
        """The result for `decision` from one letter-slot `reply` (asked without its other orders)."""
        return self._fair((decision,), [reply], order)

    def _fair(
        self, orders: Sequence[DecisionRequest], replies: Sequence[Any], order: PromptOrder = "state_first"
    ) -> DecisionResult:
        decision = orders[0]
        letters = letters_for(decision)
        per_order: list[list[float]] = []
        missing: list[str] = []
        for asked, reply in zip(orders, replies, strict=True):
            read = _letter_logprobs(reply, letters)
            if isinstance(read, str):
                return self.constrained(decision, read, order)
            found, lowest = read
            # Back in the decision's own option order: asked.options[j] had letter j.
            by_id = {o.id: found.get(letters[j], lowest) for j, o in enumerate(asked.options)}
            per_order.append([by_id[i] for i in decision.option_ids])
            missing += [f"{x}:{o.id}" for x, o in zip(letters, asked.options, strict=True) if x not in found]
        extra: dict[str, Any] = {"letters": letters, "probability_status": "logprobs", "orders": len(orders)}
        if missing:
            extra["missing_letters"] = missing
        return DecisionResult(decision, decision.option_ids, combined(per_order), "openai", extra, order)

    def constrained(
        self, decision: DecisionRequest, why: str, order: PromptOrder = "state_first"
    ) -> DecisionResult:
        """Ask for `{"choice": LETTER}` under a JSON-schema enum; probability 1 for the answer."""
        letters = letters_for(decision)
        schema = {
            "type": "object",
            "properties": {"choice": {"type": "string", "enum": list(letters)}},
            "required": ["choice"],
            "additionalProperties": False,
        }
        body = self.letter_body(decision, order)
        body.pop("logprobs")
        body.pop("top_logprobs")
        body["max_tokens"] = 16
        body["response_format"] = {"type": "json_schema", "json_schema": {"name": "choice", "schema": schema}}
        reply = self._post(body)
        try:
            content = reply["choices"][0]["message"]["content"]
            letter = jsoncodec.loads(content)["choice"]
        except (KeyError, IndexError, TypeError, ValueError):
            msg = f"{WHO}: the constrained answer was not a JSON object with a 'choice'"
            raise ModelError(msg) from None
        if letter not in letters:
            msg = f"{WHO}: the constrained answer {str(letter)[:20]!r} is not one of {letters}"
            raise ModelError(msg)
        probs = tuple(1.0 if x == letter else 0.0 for x in letters)
        extra = {
            "letters": letters,
            "probability_status": f"constrained answer, no probabilities ({why}): the chosen option gets 1",
        }
        return DecisionResult(decision, decision.option_ids, probs, "openai", extra, order)


class _Unanswered(Exception):
    """The template was not answered at all (down, too slow, not JSON): nothing learned about lists."""


def _letter_logprobs(reply: Any, letters: str) -> tuple[dict[str, float], float] | str:
    """The letters' log-probabilities found in a reply and the lowest one listed, or why there are none."""
    try:
        read = read_top(_top(reply["choices"][0]))
    except (KeyError, IndexError, TypeError):
        read = None
    if read is None:
        return "the server returned no logprobs"
    tokens, lowest = read
    wanted = set(letters)
    found = {token: logprob for token, logprob in tokens.items() if token in wanted}
    if not found:
        return "no option letter was among the top logprobs"
    return found, lowest


def _top(choice: Any) -> Any:
    """The top tokens of a list reply's choice (None when it has none)."""
    try:
        return choice["logprobs"]["content"][0]["top_logprobs"]
    except (KeyError, IndexError, TypeError):
        return None


def _choices(reply: Any, count: int) -> list[Any] | None:
    """The `count` choices of a list reply in prompt order, or None when it is not one."""
    choices = reply.get("choices") if isinstance(reply, dict) else None
    if not isinstance(choices, list) or len(choices) != count:
        return None
    by_index = {c.get("index"): c for c in choices if isinstance(c, dict)}
    if set(by_index) != set(range(count)):
        return None
    return [by_index[i] for i in range(count)]
