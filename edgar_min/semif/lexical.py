"""The offline engine: BM25 of state + question against each option, then a softmax.

Deterministic, no model, tens of thousands of decisions a second. Its
probabilities are a ranking turned into numbers, not a calibrated belief, and
every result says so in `extra`. An option whose id is `none` stands for
"none of these": it scores a fixed threshold (what one word shared by every
option scores), so it wins when no other option shares a word with the evidence.
"""

from __future__ import annotations

import math

from edgar_min.charsets import DIGITS, LOWER
from edgar_min.semif.types import DecisionResult

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    from edgar_min.semif.types import DecisionRequest, Option, PromptOrder

__all__ = ["NONE_SCORE", "LexicalEngine", "stem", "tokens"]

K1 = 1.2
B = 0.75
# What the `none` option scores: one shared word that every option has.
NONE_SCORE = 1.0
# The words are what `[a-z0-9]+` finds in the lower-cased text, found without the pattern (which
# would import `re` for every decision).
_APART = {code: " " for code in range(128) if chr(code) not in LOWER + DIGITS}
_STOP_WORDS = (
    "a an and are as at be by can could do does for from has have i in is it its me my of on or "
    "our please should so that the their them then there these this those to was we were what "
    "which who will with would you your"
)
_STOP = frozenset(_STOP_WORDS.split())
_SUFFIXES = ("ingly", "edly", "ing", "ies", "ied", "ed", "es", "ly", "s")
_stems: dict[str, str] = {}


def stem(word: str) -> str:
    """A crude suffix stripper: `drafts`, `drafting`, `drafted` -> `draft`."""
    found = _stems.get(word)
    if found is not None:
        return found
    result = word
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            result = word[: -len(suffix)]
            if suffix in ("ies", "ied"):
                result += "y"
            elif suffix == "es" and not result.endswith(("s", "x", "z", "ch", "sh")):
                result = word[:-1]
            break
    if len(_stems) < 100_000:
        _stems[word] = result
    return result


# Memos a long-lived process empties when full, in place of functools.lru_cache: functools is
# not imported by the interpreter on 3.12+, and this module runs on the prompt hook.
_tokens: dict[str, tuple[str, ...]] = {}
_indexes: dict[tuple[Option, ...], tuple[dict[str, list[tuple[int, float]]], int | None]] = {}


def _remembered(memo: dict, limit: int, key: object, make: Callable[[Any], Any]) -> Any:
    found = memo.get(key)
    if found is None:
        if len(memo) >= limit:
            memo.clear()
        found = memo[key] = make(key)
    return found


def tokens(text: str) -> tuple[str, ...]:
    """Lower-cased, stop words dropped, stemmed."""
    return _remembered(_tokens, 4096, text, _tokens_of)


def _tokens_of(text: str) -> tuple[str, ...]:
    lowered = text.lower()
    if not lowered.isascii():
        lowered = lowered.encode("ascii", "replace").decode("ascii")
    return tuple(stem(w) for w in lowered.translate(_APART).split() if w not in _STOP)


def _index(options: tuple[Option, ...]) -> tuple[dict[str, list[tuple[int, float]]], int | None]:
    """term -> [(option index, BM25 weight)] for one option set, and the index of `none`."""
    return _remembered(_indexes, 1024, options, _index_of)


def _index_of(options: tuple[Option, ...]) -> tuple[dict[str, list[tuple[int, float]]], int | None]:
    docs = []
    none_at = None
    for i, option in enumerate(options):
        if option.id == "none":
            none_at = i
            docs.append(())
            continue
        docs.append(tokens(option.id.replace("_", " ").replace(".", " ") + " " + option.description))
    scored = [d for d in docs if d]
    n = len(scored) or 1
    avgdl = (sum(len(d) for d in scored) / n) or 1.0
    df: dict[str, int] = {}
    for doc in scored:
        for term in set(doc):
            df[term] = df.get(term, 0) + 1
    postings: dict[str, list[tuple[int, float]]] = {}
    for i, doc in enumerate(docs):
        if not doc:
            continue
        norm = K1 * (1 - B + B * len(doc) / avgdl)
        for term in set(doc):
            tf = doc.count(term)
            # +1: a word shared with the evidence counts even when every option
            # has it (a lone option would otherwise score almost nothing).
            idf = 1 + math.log(1 + (n - df[term] + 0.5) / (df[term] + 0.5))
            postings.setdefault(term, []).append((i, idf * tf * (K1 + 1) / (tf + norm)))
    return postings, none_at


class LexicalEngine:
    """BM25-style matching; deterministic and uncalibrated."""

    name = "lexical"
    model = "bm25"

    def __init__(self, config: object = None, environ: object = None) -> None:
        # Same constructor as the model engines; this one needs neither.
        del environ
        self.config = config

    def call(self, decision: DecisionRequest) -> DecisionResult:
        return self._score(decision, set(tokens(decision.state)), "options_first")

    def call_many(self, decisions: Sequence[DecisionRequest]) -> list[DecisionResult]:
        """Each question scored as `call` would; a state shared by consecutive questions is read once."""
        results = []
        state, terms = None, set()
        for decision in decisions:
            if decision.state != state:
                state, terms = decision.state, set(tokens(decision.state))
            results.append(self._score(decision, terms, "state_first"))
        return results

    def _score(self, decision: DecisionRequest, state_terms: set[str], order: PromptOrder) -> DecisionResult:
        options = decision.options
        postings, none_at = _index(options)
        scores = [0.0] * len(options)
        if none_at is not None:
            scores[none_at] = NONE_SCORE
        question_terms = tokens(decision.question)
        if len(postings) < len(state_terms):
            # A long state shared by many questions: look its words up from the options' side,
            # so each question costs what its options hold, not what the state holds.
            found = [hits for term, hits in postings.items() if term in state_terms or term in question_terms]
        else:
            found = [postings.get(term, ()) for term in state_terms.union(question_terms)]
        for hits in found:
            for i, weight in hits:
                scores[i] += weight
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        total = sum(exps)
        return DecisionResult(
            decision,
            decision.option_ids,
            tuple(e / total for e in exps),
            "lexical",
            {"calibrated": False, "scores": scores},
            order,
        )
