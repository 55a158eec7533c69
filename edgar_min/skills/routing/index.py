"""The routing index: every skill's words, weighted by the field they come from, as BM25F postings.

What the index knows comes from this project's skills (all their text) and its use: word weights
(idf) are counted over its own skills, and the messages that led to a skill are one more field of
that skill (`taught.py`). Nothing in it comes from another catalogue of skills.
"""

from __future__ import annotations

from edgar_min.digests import cache_key
from edgar_min.records import dataclass
from edgar_min.skills.routing import words as lexicon
from edgar_min.skills.routing.cachefile import Counts, Postings, Weights, document_problem, idf, split_line
from edgar_min.skills.routing.taught import NONE_ID, TAUGHT_WEIGHT, taught_keys, taught_terms
from edgar_min.skills.routing.words import is_stop, own_words, split_words, stem, words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any, Self

__all__ = ["BODY", "OWN", "TAUGHT", "Card", "Index", "Match", "card_terms", "rule_key"]

# Bumped whenever the words of a card change in a way the constants below do not show.
TERMS_RULE = 9
# BM25F field weights, set by how directly each field says what the skill is for and not fitted
# to any set of prompts: the name is the title (three times a description's word, as titles are
# commonly weighted); the description and its When-to-use text say it in full; the body's opening
# says it again in other words; the rest of the body's prose mostly says how, so each of its words
# that no other field has counts once, at a quarter of a description's word.
NAME_WEIGHT = 3.0
DESCRIPTION_WEIGHT = 1.0
WHEN_WEIGHT = 1.0
OPENING_WEIGHT = 0.5
BODY_WEIGHT = 0.25
# BM25's usual saturation and length normalisation.
K1 = 1.2
B = 0.75
# After this many words' postings were decoded one by one, decode them all at once.
EAGER_AFTER = 200

# What one index word gives a skill: its BM25F weight, and whether the skill's own fields (OWN),
# only what use taught it (TAUGHT) or only its body (BODY) have the word.
Match = tuple[str, float, int]
OWN, TAUGHT, BODY = 0, 1, 2


@dataclass(frozen=True, slots=True)
class Card:
    """What routing reads of one skill: its name, description, When-to-use text, body's opening and prose."""

    name: str
    description: str
    when: str = ""
    opening: str = ""
    # The body's prose (`skills/catalog.py`), the opening included: only its words count, once each.
    body: str = ""


def rule_key() -> str:
    """What the words of a card and their weights depend on: change any of it and cached indexes
    are stale."""
    rule = (
        lexicon.STOP_WORDS,
        lexicon.WORD_RULE,
        NAME_WEIGHT,
        DESCRIPTION_WEIGHT,
        WHEN_WEIGHT,
        OPENING_WEIGHT,
        BODY_WEIGHT,
        TAUGHT_WEIGHT,
        TERMS_RULE,
    )
    return cache_key(repr(rule).encode())


def _splits(raw: str) -> list[tuple[int, str, str]]:
    """The ways a run-together name word parts in two words of three letters or more."""
    if len(raw) < 7:
        return []
    return [
        (min(i, len(raw) - i), stem(raw[:i]), stem(raw[i:]))
        for i in range(3, len(raw) - 2)
        if not is_stop(raw[:i]) and not is_stop(raw[i:])
    ]


def _compound(raw: str, known: set[str] | dict[str, float]) -> list[str]:
    """The two known words a run-together name word is made of ("googlecalendar"), else nothing.

    A name word that is a word in its own right ("scanner") is left whole.
    """
    if stem(raw) in known:
        return []
    found = [(size, a, b) for size, a, b in _splits(raw) if a in known and b in known]
    return list(max(found)[1:]) if found else []


def name_parts(name: str, bag: dict[str, float]) -> tuple[str, ...]:
    """The distinct words of a skill's name, a run-together word as its two parts if the card has them."""
    parts: list[str] = []
    for raw in split_words(name.replace("-", " ")):
        if not is_stop(raw):  # the card holds the run-together word too: only its parts are asked for
            found = [(size, a, b) for size, a, b in _splits(raw) if a in bag and b in bag]
            parts.extend(max(found)[1:] if found else [stem(raw)])
    return tuple(p for p in dict.fromkeys(parts) if p in bag)


def py_named(raw: str) -> bool:
    """A name word made of the Python-package prefix and a word: "pydicom", "pyzotero"."""
    return raw.startswith("py") and len(raw) >= 6 and not is_stop(raw[2:])


def _own_fields(card: Card) -> list[tuple[float, list[str]]]:
    return [
        (DESCRIPTION_WEIGHT, words(own_words(card.description))),
        (WHEN_WEIGHT, words(own_words(card.when))),
        (OPENING_WEIGHT, words(own_words(card.opening))),
    ]


def card_terms(card: Card, known: set[str] | None = None) -> dict[str, float]:
    """A card's words with their field-weighted counts (the name's the most; a word only its body
    has at BODY_WEIGHT)."""
    own, body = _card_words(card, known)
    return {**own, **body}


def _card_words(card: Card, known: set[str] | None = None) -> tuple[dict[str, float], dict[str, float]]:
    """`card_terms`, the words only the body has apart. `known`: the words of the project's
    skills, by which a run-together name word is split (the card's own when not given)."""
    fields = _own_fields(card)
    vocabulary = known if known is not None else {t for _, found in fields for t in found}
    name_words = [*words(card.name.replace("-", " ")), stem(card.name.replace("-", ""))]
    for raw in split_words(card.name.replace("-", " ")):
        name_words.extend(_compound(raw, vocabulary))
        if py_named(raw):
            name_words.append(stem(raw[2:]))
    bag: dict[str, float] = {}
    for weight, found in [(NAME_WEIGHT, name_words), *fields]:
        for term in found:
            bag[term] = bag.get(term, 0.0) + weight
    body = {term: BODY_WEIGHT for term in dict.fromkeys(words(own_words(card.body))) if term not in bag}
    return bag, body


def _fence(counts: list[int]) -> float | None:
    """Tukey's upper fence (third quartile plus 1.5 interquartile ranges) of how many distinct words
    the project's skills claim, or None under four skills (no quartiles to speak of)."""
    if len(counts) < 4:
        return None
    ordered = sorted(counts)
    q1, q3 = ordered[len(ordered) // 4], ordered[(3 * len(ordered)) // 4]
    return q3 + 1.5 * (q3 - q1)


class Index:
    """An inverted index over skill cards and what use taught them (see `cachefile.py` for its text)."""

    def __init__(self, cards: Iterable[Card], examples: dict[str, list[str]] | None = None) -> None:
        """`examples`: the messages that led to each skill, and under `none` those that needed none.

        A card named `none` is left out: its words would say `none`, as the catalogue's warning explains.
        """
        self.cards: dict[str, Card] = {}  # the cards it was built from
        for card in cards:
            if card.name != NONE_ID:
                self.cards.setdefault(card.name, card)
        known = {t for card in self.cards.values() for _, found in _own_fields(card) for t in found}
        asked = examples or {}
        built = [
            (name, *_card_words(card, known), taught_terms(asked.get(name, ())))
            for name, card in self.cards.items()
        ]
        if asked.get(NONE_ID):
            built.append((NONE_ID, {}, {}, taught_terms(asked[NONE_ID])))
        # A skill whose own fields claim far more distinct words than this project's skills do
        # (past Tukey's fence of their counts) has each match count fence / its words: a skill
        # that lists every word a task might use does not become the one meant for every task.
        fence = _fence([len(bag) for name, bag, _, _ in built if name != NONE_ID])
        reach = {name: fence / len(bag) for name, bag, _, _ in built if fence and len(bag) > fence}
        self._build(built, reach)
        self.taught_keys = taught_keys(asked)  # the messages that led to one skill, by their words

    def _build(
        self,
        built: list[tuple[str, dict[str, float], dict[str, float], dict[str, float]]],
        reach: dict[str, float],
    ) -> None:
        """The index over each skill's (name, own field words, body-only words, taught words)."""
        names: list[str] = []
        lengths: list[float] = []
        own: dict[str, list[str]] = {}
        taught: dict[str, list[str]] = {}
        bodies: dict[str, list[str]] = {}
        parts_of: dict[str, tuple[str, ...]] = {}
        for name, bag, body, learned in built:
            at = len(names)
            names.append(name)
            lengths.append(sum(bag.values()) + sum(body.values()) + sum(learned.values()))
            for term, tf in bag.items():
                own.setdefault(term, []).append(f"{at}:{tf!r}")
            for term in body:
                bodies.setdefault(term, []).append(str(at))
            for term, tf in learned.items():
                taught.setdefault(term, []).append(f"{at}:{tf!r}")
            parts = name_parts(name, bag) if name != NONE_ID else ()
            if len(parts) >= 2:
                parts_of[name] = parts
        # Each skill by its whole name, stemmed as a typed word is (`none` is no skill's name).
        by_name: dict[str, list[str]] = {}
        for name in names:
            if name != NONE_ID:
                whole = name.replace("-", "")
                by_name.setdefault(stem(whole), []).append(name)
                if "-" not in name and py_named(name):  # "dicom" names `pydicom` as "pydicom" does
                    by_name.setdefault(stem(whole[2:]), []).append(name)
        fielded, only = {}, []
        for term in {**own, **taught, **bodies}:
            found = (own.get(term, ()), taught.get(term, ()), bodies.get(term, ()))
            text = "|".join(",".join(part) for part in found)
            if term in own or term in taught:
                fielded[term] = text
            else:
                only.append(f"{term} {text}")
        encoded = Postings(fielded, f" {' '.join(only)} " if only else "")
        self._setup(names, lengths, encoded, parts_of, by_name, reach=reach)
        self.unit = _unit(self.idf, fielded)

    def _setup(
        self,
        names: list[str],
        lengths: list[float],
        encoded: Postings,
        parts_of: dict[str, tuple[str, ...]],
        by_name: dict[str, list[str]],
        *,
        reach: dict[str, float],
    ) -> None:
        self.names = names
        self.size = len(names)
        self.reach = reach  # the skills past the fence: the share of a match each keeps
        self._lengths = lengths
        avg = (sum(lengths) / (self.size or 1)) or 1.0
        self.norms = [K1 * (1 - B + B * length / avg) for length in lengths]
        self.encoded = encoded
        self.df = Counts(encoded)
        self.idf = Weights(self.df, self.size)
        # A word no skill has says the text is about something else: it weighs what BM25 gives a
        # word no skill has, a little more than the rarest word of the index.
        self.unknown_idf = idf(self.size, 0)
        self.name_parts = parts_of
        self.by_part: dict[str, list[str]] = {}
        for name, parts in parts_of.items():
            for part in parts:
                self.by_part.setdefault(part, []).append(name)
        self.by_name = by_name
        self._postings: dict[str, list[Match]] = {}  # decoded when first asked for
        self._complete = False
        self._long_words: list[str] = []  # the long words of names, sorted when first asked for

    def _decode(self, term: str) -> list[Match]:
        """`term`'s matches with their BM25F weights; a malformed item (a damaged cache) is skipped."""
        fields, _, rest = self.encoded[term].partition("|")
        taught, _, bodies = rest.partition("|")
        held: dict[int, list] = {}  # skill number -> [tf, where the skill has the word]
        for part, kind in ((fields, OWN), (taught, TAUGHT)):
            for item in part.split(",") if part else ():
                at, _, weight = item.partition(":")
                try:
                    i, tf = int(at), float(weight)
                except ValueError:
                    continue
                if i in held:
                    held[i][0] += tf
                else:
                    held[i] = [tf, kind]
        for at in bodies.split(",") if bodies else ():
            try:
                i = int(at)
            except ValueError:
                continue
            if i in held:
                held[i][0] += BODY_WEIGHT
            else:
                held[i] = [BODY_WEIGHT, BODY]
        idf, names, norms, size = self.idf[term], self.names, self.norms, len(self.names)
        lift = idf * (K1 + 1)
        return [
            (names[i], lift * tf / (tf + norms[i]), kind) for i, (tf, kind) in held.items() if 0 <= i < size
        ]

    def postings(self, term: str) -> list[Match]:
        """The skills that have `term`, each with its BM25F weight and where it has it."""
        found = self._postings.get(term)
        if found is not None:
            return found
        if len(self._postings) >= EAGER_AFTER and not self._complete:
            # A long-lived caller: every word read once beats a pass per new word.
            self._complete = True
            self._postings = {**self._postings, **{word: self._decode(word) for word in self.encoded}}
            found = self._postings.get(term)
            if found is not None:
                return found
        if term not in self.encoded and self.encoded.of_bodies(term) is None:
            return []
        found = self._postings[term] = self._decode(term)
        return found

    def cached(self) -> dict[str, Any]:
        """What `from_cached` makes this index again from, beside `postings_text`: plain JSON values."""
        return {
            "unit": self.unit,
            "names": self.names,
            "lengths": self._lengths,
            "name_parts": self.name_parts,
            "by_name": self.by_name,
            "reach": self.reach,
            "taught_keys": self.taught_keys,
        }

    def postings_text(self) -> str:
        """Every word with its postings, as one line (`cachefile.py`)."""
        return self.encoded.text()

    @classmethod
    def from_cached(cls, document: dict[str, Any], postings: str, bodies: str | None = None) -> Self | None:
        """The index `cached` and `postings_text` gave `document` and `postings` for, or None
        when they are not one (`cachefile.split_line` says what `bodies` is)."""
        encoded = split_line(postings, bodies)
        if encoded is None or document_problem(document):
            return None
        names = document["names"]
        if not encoded and any(n != NONE_ID for n in names):  # every skill's name gives it words
            return None
        index = cls.__new__(cls)
        index.cards = {}
        parts = {k: tuple(v) for k, v in document["name_parts"].items()}
        index._setup(names, document["lengths"], encoded, parts, document["by_name"], reach=document["reach"])
        index.unit = document["unit"]
        index.taught_keys = document["taught_keys"]
        return index


def _unit(idf: Weights, words: Iterable[str]) -> float:
    """What one ordinary word shared with a skill scores: the median idf of the index's words (a
    word at tf 1 in a skill of average length scores its idf under BM25), 1.0 in an empty index."""
    found = sorted(idf[word] for word in words)
    return found[len(found) // 2] if found else 1.0
