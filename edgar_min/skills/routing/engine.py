"""Scoring: which skills a text points at, how sure that is, and the SemIf engine answering from it.

Each distinct content word of the text matches index words: itself, a word one typo away when it
is no index word ("scna" for "scan"), and the longer name words it starts ("discord" for
`discordbot-automation`); two adjacent words that the project's skills write as one ("dev
container") are that word as well. Every skill gets a BM25F score, which orders them, and a coverage: the
share of the text's word weight (idf, counted over this project's skills) that the skill accounts
for, a body's word at BODY_SHARE of a description's. Coverage says whether a match is mostly what
use taught (`Hit.taught`) and weighs the `none` card's evidence against the best skill's.

How sure a skill applies is read from its score in this project's own unit (`Index.unit`, what one
ordinary shared word scores): one such word is coincidence, each further word's worth halves the
doubt, and two words' worth (`THRESHOLD`, a half) is the line for a skill: a chat line or a
question about something else shares a word or two with skills and no more. The constants below
are priors set by what each thing is, not fitted to a set of prompts.
"""

from __future__ import annotations

import heapq
from bisect import bisect_left
from itertools import pairwise

from edgar_min import deferred
from edgar_min.charsets import LOWER
from edgar_min.records import dataclass
from edgar_min.skills.routing.index import BODY, BODY_WEIGHT, DESCRIPTION_WEIGHT, Index
from edgar_min.skills.routing.taught import NONE_ID, taught_key
from edgar_min.skills.routing.words import MAX_QUERY_CHARS, REDACTED, is_stop, split_words, stem

TYPE_CHECKING = False
if TYPE_CHECKING:
    from edgar_min.semif.types import DecisionRequest, DecisionResult

# Only a prompt with a shortlist reaches a decision: one that shares no word with any skill is
# answered `none` without importing the decision types.
semif_types = deferred.module("edgar_min.semif.types")

__all__ = ["THRESHOLD", "Hit", "Ranking", "RoutingEngine", "RoutingIndex"]

# The best skill is meant from this confidence: two ordinary words' worth of agreement.
THRESHOLD = 0.5
# A body's word covers the share of a description's word that its weight is.
BODY_SHARE = BODY_WEIGHT / DESCRIPTION_WEIGHT
# A query word that is a skill's whole name ("seaborn", "terraform-test" typed together) is the
# strongest sign there is: that skill's score gains the name field's weight less one times the word's.
NAME_MATCH = 2.0
# A correction of a typo, or a name word the typed word starts, is a guess: it counts this much.
GUESS = 0.7
# A typed word that starts a longer run-together name word matches it from PREFIX_LETTERS letters
# typed, with at least PREFIX_REST left ("prime" does not name `primekg`).
PREFIX_LETTERS = 5
PREFIX_REST = 3
# A query with most of a longer name's words ("latex" and "poster" for `latex-posters`) names it:
# the words bring NAME_MATCH times their weight, scaled by their share of the name's word weight,
# when that share is over a half.
NAME_SHARE = 0.5
# How many hits the engine keeps: more than any shortlist (at most 15 skills and `none`).
RANKED = 64


@dataclass(frozen=True, slots=True)
class Hit:
    """One skill's match to a text: BM25F score, coverage, their product, and how sure it applies."""

    name: str
    score: float
    coverage: float
    evidence: float
    matched: int = 0  # how many distinct query words this skill matched
    # The share of the text's word weight that this skill accounts for: how sure it applies (0 to 1).
    confidence: float = 0.0
    # The text is in the words of a message that led to this skill, and to no other (`taught_key`).
    taught: bool = False


@dataclass(frozen=True, slots=True)
class Ranking:
    """The best hits for a text, how many distinct content words it has, and the `none` card's evidence."""

    hits: tuple[Hit, ...]
    terms: int
    # The evidence of the messages a person said need no skill (the `none` card), 0 without them.
    none_evidence: float = 0.0

    @property
    def taught_none(self) -> bool:
        """Whether the messages a person said need no skill are closer to the text than any skill is."""
        return self.none_evidence > (self.hits[0].evidence if self.hits else 0.0)

    @property
    def best(self) -> Hit | None:
        """The best hit if it is meant (its confidence reaches THRESHOLD), else None."""
        if not self.hits or self.taught_none:
            return None
        return self.hits[0] if self.hits[0].confidence >= THRESHOLD else None


class RoutingIndex(Index):
    """The index, queried: `rank(text)` orders the skills by evidence, each with its confidence."""

    def _started(self, raw: str) -> list[str]:
        """The name words (stemmed) that the typed word `raw` starts, PREFIX_REST letters or more short."""
        if not self._long_words:  # sorted once, on first use: a prefix is then a bisection
            least = PREFIX_LETTERS + PREFIX_REST
            self._long_words = sorted({w for name in self.names for w in name.split("-") if len(w) >= least})
        words, found = self._long_words, []
        at = bisect_left(words, raw)
        while at < len(words) and words[at].startswith(raw):
            word = words[at]
            if len(word) - len(raw) >= PREFIX_REST and stem(word) in self.idf:
                found.append(stem(word))
            at += 1
        return found

    def _near(self, raw: str) -> str | None:
        """What a typo most likely meant: the commonest index word one edit away, if any.

        Edits are made to the word as typed, then stemmed: "mutaton" -> "mutation" -> "mut". A
        word of four letters is only corrected by edits that keep every letter typed (a swap, a
        missed letter: "scna"): one changed letter turns "bill", "leak", "farm" into other words.
        """
        if len(raw) < 4:
            return None
        splits = [(raw[:i], raw[i:]) for i in range(len(raw) + 1)]
        edits = {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
        edits.update(a + c + b for a, b in splits for c in LOWER)
        if len(raw) > 4:
            edits.update(a + b[1:] for a, b in splits if b)
            edits.update(a + c + b[1:] for a, b in splits if b for c in LOWER)
        edits.discard(raw)
        found = [s for s in {stem(e) for e in edits if len(e) >= 3} if s in self.idf]
        # The likeliest word meant is the commonest: "nets" is "nest" or "net", not ten others.
        return max(found, key=lambda s: (self.df[s], s)) if found else None

    def _joined(self, raws: list[str]) -> list[str]:
        """The compounds typed apart: two adjacent content words that make one word of this
        project's skills when written together ("dev container", "plain text"). English writes
        a compound open or closed as the writer likes; the skill's text and the prompt may differ."""
        found = []
        for first, second in pairwise(raws):
            if len(first) < 2 or len(second) < 2 or is_stop(first) or is_stop(second):
                continue
            joined = first + second
            if joined.isalnum() and stem(joined) in self.idf:
                found.append(joined)
        return found

    def expand(self, text: str) -> list[tuple[str, list[tuple[str, float]]]]:
        """Each distinct query word with the index words it matches and how much each match counts."""
        typed: dict[str, list[str]] = {}
        raws = split_words(text.replace(REDACTED, " "))
        for raw in raws:
            if not is_stop(raw):
                forms = typed.setdefault(stem(raw), [])
                if raw not in forms:
                    forms.append(raw)
        for raw in self._joined(raws):
            typed.setdefault(stem(raw), [raw])
        expanded = []
        for term, forms in typed.items():
            matches: dict[str, float] = {}
            if term in self.idf or self.encoded.of_bodies(term) is not None:
                matches[term] = 1.0
            else:
                near = self._near(forms[0])
                if near is not None:
                    matches[near] = GUESS
            for raw in forms:
                for whole in self._started(raw) if len(raw) >= PREFIX_LETTERS else ():
                    matches.setdefault(whole, GUESS)
            expanded.append((term, list(matches.items())))
        return expanded

    def search(self, text: str, limit: int = 15) -> list[Hit]:
        """The `limit` skills with the most evidence for `text`, best first (ties by name)."""
        return list(self.rank(text, limit).hits)

    def rank(self, text: str, limit: int = 15) -> Ranking:
        """The `limit` best hits for `text`, best first, with what the `none` decision needs."""
        # A suggestion's text is already a query (`suggest.query_of`); other callers are bounded here.
        expanded = self.expand(text[:MAX_QUERY_CHARS])
        if not expanded:
            return Ranking((), 0)
        scores: dict[str, float] = {}
        covered: dict[str, float] = {}
        matched: dict[str, int] = {}
        parts_found: dict[str, dict[str, tuple[float, float]]] = {}
        total = 0.0
        for term, matches in expanded:
            weight = max((self.idf[m] * f for m, f in matches), default=0.0) or self.unknown_idf
            total += weight
            best: dict[str, float] = {}  # the most any match of this word covers of a skill
            for match, factor in matches:
                self._add(match, factor, scores, best)
                for name in self.by_part.get(match, ()):
                    found = parts_found.setdefault(name, {})
                    if factor > found.get(match, (0.0, 0.0))[0]:
                        found[match] = (factor, weight * factor)
            for name, factor in self._whole_names(term, matches).items():
                scores[name] = scores.get(name, 0.0) + NAME_MATCH * weight * factor
                best[name] = max(best.get(name, 0.0), weight * factor)
            for name, part in best.items():
                covered[name] = covered.get(name, 0.0) + part
                matched[name] = matched.get(name, 0) + 1
        for name, bonus in self._named_by_parts(parts_found).items():
            scores[name] += bonus
        for name, share in self.reach.items():  # past the fence: each match counts less
            if name in scores:
                scores[name] *= share
        # The messages that needed no skill are no skill: their evidence goes to the decision.
        none_score = scores.pop(NONE_ID, 0.0)
        # Only the best `limit` are made hits: with 10,000 skills most match some word.
        best_first = heapq.nsmallest(limit, scores.items(), key=_by_score)
        taught = self.taught_keys.get(taught_key(text[:MAX_QUERY_CHARS])) if self.taught_keys else None
        hits = []
        for name, score in best_first:
            coverage = self._coverage(name, covered, total)
            sure = self.confidence(score)
            hits.append(Hit(name, score, coverage, score * coverage, matched[name], sure, name == taught))
        none_evidence = none_score * self._coverage(NONE_ID, covered, total)
        return Ranking(tuple(hits), len(expanded), none_evidence)

    def _coverage(self, name: str, covered: dict[str, float], total: float) -> float:
        """The share of the query's word weight a skill accounts for (less past the fence)."""
        return min(1.0, covered.get(name, 0.0) / total) * self.reach.get(name, 1.0)

    def confidence(self, score: float) -> float:
        """How sure a skill with this score applies: 0 up to one ordinary word's worth (`Index.unit`),
        a shared word being coincidence; each further word's worth halves the doubt, so that two
        words' worth is THRESHOLD."""
        return max(0.0, 1.0 - 0.5 ** (score / self.unit - 1.0))

    def _add(self, match: str, factor: float, scores: dict[str, float], best: dict[str, float]) -> None:
        """Add what the index word `match`, matched at `factor`, gives each skill: to its score, and
        to `best`, the most any match of the query word covers of it."""
        share = self.idf[match] * factor
        body_share = share * BODY_SHARE if factor == 1.0 else 0.0  # a guess is too weak for a body's word
        get, held = scores.get, best.get
        for name, value, kind in self.postings(match):
            part = body_share if kind == BODY else share
            if not part:
                continue
            scores[name] = get(name, 0.0) + value * factor
            if part > held(name, 0.0):
                best[name] = part

    def _whole_names(self, term: str, matches: list[tuple[str, float]]) -> dict[str, float]:
        """The skills a query word is the whole name of, typed or mistyped ("semgrap"), by match factor."""
        whole = dict.fromkeys(self.by_name.get(term, ()), 1.0)
        for match, factor in matches:
            if factor == GUESS:
                for name in self.by_name.get(match, ()):
                    whole.setdefault(name, GUESS)
        return whole

    def _named_by_parts(self, found: dict[str, dict[str, tuple[float, float]]]) -> dict[str, float]:
        """The name bonus of each skill whose name's words the query holds mostly (NAME_SHARE)."""
        bonus = {}
        for name, parts in found.items():
            whole = sum(self.idf[p] for p in self.name_parts[name])
            share = sum(self.idf[p] * factor for p, (factor, _) in parts.items()) / whole
            if share > NAME_SHARE:
                bonus[name] = NAME_MATCH * share * sum(weight for _, weight in parts.values())
        return bonus


def _by_score(item: tuple[str, float]) -> tuple[float, str]:
    """Best score first, ties by name."""
    return -item[1], item[0]


class RoutingEngine:
    """A SemIf engine for one question: which of these skills applies? Answered from the routing index.

    The best skill's confidence is shared among the skills in proportion to their evidence, and
    `none` gets the rest (all of it when the text is closer to messages taught as needing none).
    """

    name = "lexical"
    model = "bm25f-routing"

    def __init__(self, index: RoutingIndex) -> None:
        self.index = index
        self._last: tuple[str, Ranking, dict[str, Hit]] | None = None

    def ranking(self, text: str) -> Ranking:
        """The best `RANKED` hits for `text`, kept: the shortlist and the decision share one search."""
        if self._last is None or self._last[0] != text:
            ranking = self.index.rank(text, limit=RANKED)
            self._last = (text, ranking, {h.name: h for h in ranking.hits})
        return self._last[1]

    def ranked(self, text: str) -> dict[str, Hit]:
        """`ranking(text)`'s hits by name; an option outside them has less evidence than all of them."""
        self.ranking(text)
        return self._last[2] if self._last is not None else {}

    def taught_none(self, text: str) -> bool:
        """Whether the messages a person said need no skill are closer to `text` than any skill is."""
        return self.ranking(text).taught_none

    def call(self, decision: DecisionRequest) -> DecisionResult:
        ranking = self.ranking(decision.state)
        hits = self.ranked(decision.state)
        sure = 0.0 if ranking.taught_none or not ranking.hits else ranking.hits[0].confidence
        evidence = [
            0.0 if o.id == NONE_ID else hits[o.id].evidence if o.id in hits else 0.0 for o in decision.options
        ]
        total = sum(evidence)
        probabilities = tuple(
            (1.0 - sure) if o.id == NONE_ID else (sure * e / total if total else 0.0)
            for o, e in zip(decision.options, evidence, strict=True)
        )
        return semif_types.DecisionResult(
            decision,
            decision.option_ids,
            probabilities,
            "lexical",
            {"calibrated": False, "evidence": evidence},
        )
