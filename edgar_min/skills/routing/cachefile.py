"""How an index's postings are kept as text, in the routing cache and in memory until asked for.

Each word's postings are one string, `fields|taught|bodies`: `fields` the skills whose own text
(name, description, When-to-use, opening) has the word, as "skill number:weight" apart by commas;
`taught` the same for the messages that led to a skill (`taught.py`); `bodies` the numbers of the
skills whose body's prose has it and no field of theirs does. A fresh process per prompt reads a
few dozen of some thousands of words, so each is decoded when a prompt first asks for it.

The whole index is one line: `word postings` pairs apart by single spaces (neither has a space),
then `BODIES` (" !") and the words only skills' bodies have, kept as one text (" word ||3,17 ") and searched
when asked for: they are half the words of an index over real skills, and making them all into a
dict cost the prompt hook more than the rest of its reading.
"""

from __future__ import annotations

import math

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["BODIES", "Counts", "Postings", "Weights", "document_problem", "idf", "split_line"]


# What parts the line's words from those only bodies have: no word or postings holds a '!'.
BODIES = " !"


class Postings(dict):
    """Each index word's postings text, by word; the words only skills' bodies have are kept apart,
    as one text, and found in it when asked for.

    `in` answers for the other words only: a typo is corrected, and a name word's prefix reaches,
    only words of a skill's own fields or of what use taught it.
    """

    __slots__ = ("_found", "bodies")

    def __init__(self, words: dict[str, str], bodies: str = "") -> None:
        super().__init__(words)
        self.bodies = bodies  # " word ||postings word ||postings ", or ""
        self._found: dict[str, str | None] = {}

    def __missing__(self, term: str) -> str:
        found = self.of_bodies(term)
        if found is None:
            raise KeyError(term)
        return found

    def of_bodies(self, term: str) -> str | None:
        """The postings of `term` if it is a word only skills' bodies have, else None."""
        if term in self._found:
            return self._found[term]
        # A word and its postings are apart by single spaces, and postings hold a '|': a word
        # with a space on each side is found only where a word is.
        at = self.bodies.find(f" {term} ") if term and not dict.__contains__(self, term) else -1
        found = None
        if at >= 0:
            start = at + len(term) + 2
            found = self.bodies[start : self.bodies.find(" ", start)]
        self._found[term] = found
        return found

    def text(self) -> str:
        """Every word with its postings as one line (the module's docstring)."""
        words = " ".join(f"{term} {found}" for term, found in self.items())
        return f"{words}{BODIES}{self.bodies}" if self.bodies else words


class Counts(dict):
    """How many skills have each index word (in a field, in what use taught, or in the body),
    counted from its postings when first asked for."""

    __slots__ = ("_encoded",)

    def __init__(self, encoded: Postings) -> None:
        super().__init__()
        self._encoded = encoded

    def __missing__(self, term: str) -> int:
        fields, _, rest = self._encoded[term].partition("|")  # KeyError for a word no skill has
        taught, _, bodies = rest.partition("|")
        skills = {
            item.partition(":")[0] for part in (fields, taught, bodies) if part for item in part.split(",")
        }
        count = self[term] = max(1, len(skills))
        return count

    def __contains__(self, term: object) -> bool:
        return term in self._encoded


class Weights(dict):
    """Each index word's idf among this project's skills, worked out when first asked for.

    `in` answers for every word a skill's fields or what use taught have, as a dict of all would.
    """

    __slots__ = ("_df", "_n")

    def __init__(self, df: Counts, n: int) -> None:
        super().__init__()
        self._df, self._n = df, n

    def __missing__(self, term: str) -> float:
        weight = self[term] = idf(self._n, self._df[term])  # KeyError for a word no skill has
        return weight

    def __contains__(self, term: object) -> bool:
        return term in self._df


def idf(n: int, seen: int) -> float:
    """BM25's idf of a word that `seen` of `n` skills have."""
    return math.log(1 + (n - seen + 0.5) / (seen + 0.5))


def split_line(postings: str, bodies: str | None = None) -> Postings | None:
    """The postings a cached line holds, or None when it is not one. `bodies`: the text after
    `BODIES`, when the caller has cut it off already (the prompt hook reads each part from the bytes)."""
    words, _, rest = postings.partition(BODIES) if bodies is None else (postings, "", bodies)
    items = words.split(" ") if words else []
    # The bodies' words: pairs apart by single spaces, each postings with one '||' (no field's).
    if len(items) % 2 or (
        rest and not (rest[0] == rest[-1] == " " and 2 * rest.count("||") + 1 == rest.count(" "))
    ):
        return None
    pairs = iter(items)
    return Postings(dict(zip(pairs, pairs, strict=True)), rest)


def document_problem(document: dict[str, Any]) -> bool:
    """Whether the cached index's header is not what `Index.cached` writes (a torn or foreign file)."""
    names, lengths = document["names"], document["lengths"]
    parts, by_name, reach = document["name_parts"], document["by_name"], document["reach"]
    unit, keys = document["unit"], document["taught_keys"]
    return not (
        type(unit) is float
        and unit > 0
        and isinstance(names, list)
        and all(isinstance(n, str) for n in names)
        and isinstance(lengths, list)
        and len(lengths) == len(names)
        and all(type(x) in (int, float) for x in lengths)
        and isinstance(parts, dict)
        and isinstance(by_name, dict)
        # One pass over every list, not a generator per list: a few hundred of them.
        and all(isinstance(v, list) for v in (*parts.values(), *by_name.values()))
        and all(isinstance(n, str) for v in (*parts.values(), *by_name.values()) for n in v)
        and isinstance(reach, dict)
        and all(type(x) is float and 0 < x < 1 for x in reach.values())
        and isinstance(keys, dict)
        and all(isinstance(v, str) for v in keys.values())
    )
