"""Near-duplicate skills: the same name under another spelling, or the same procedure in other words.

Two measures, either one is enough:

- **Name variant**: the names' parts (split at hyphens, suffix-stemmed) are the
  same in any order (`pin-bump` / `bump-pin` / `pin-bumps`), or one name
  written without hyphens is the other's parts run together in some order
  (`pinbump` / `pin-bump` / `bump-pin`).
- **Text**: the Jaccard overlap of the two skills' word sets is at least
  `THRESHOLD` (0.35). The words come from the name, the description and the
  `## Procedure` section (a hand-authored skill without one: its whole body,
  first 4,000 characters), lower-cased, split at anything not a letter or
  digit, without English function words and without words every procedure
  uses (run, test, file, fix, check ...), each cut to a crude stem (`-ing`,
  `-ed`, `-es`, `-s`, `-ation` ... dropped).

The threshold comes from the realistic pairs in `tests/test_similarity.py`:
there, paraphrased duplicates score 0.38 to 0.76, and distinct skills of the
same field (bump a pin vs remove a dependency, both of which refresh the lock
file; seed a flaky test vs fix a flaky timeout) score 0.33 at most.
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations

from edgar_min.errors import Refused
from edgar_min.records import dataclass
from edgar_min.regex import lazy
from edgar_min.skills.sections import section

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

__all__ = [
    "THRESHOLD",
    "Match",
    "NameColumns",
    "NearDuplicate",
    "SimilarityIndex",
    "name_key",
    "name_parts",
    "skill_words",
    "words",
]

THRESHOLD = 0.35
_BODY_CAP = 4000
_WORD = lazy(r"[a-z0-9]+")
_STOP_WORDS = (
    # English function words
    "a an the and or of to for in on at by with from as is are be been it its this that these those "
    "then so when into onto any each all their your you we our us not no do does did done before after "
    "if else until while there here what which who how why can could should would will may might must "
    "only just also very more most other some such same than too up out over under again once "
    # words nearly every procedure uses, which say nothing about which procedure it is
    "run runs running test tests testing suite file files check checks fix fixes make use using new "
    "step steps project code sure need needs like one two three first last way"
)
_STOP = frozenset(_STOP_WORDS.split())
_SUFFIXES = (
    "ational",
    "ation",
    "ingly",
    "edly",
    "ness",
    "ment",
    "ing",
    "ies",
    "ied",
    "ed",
    "es",
    "ly",
    "er",
    "s",
)
_MAX_PARTS_PERMUTED = 5


def _stem(word: str) -> str:
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def words(text: str) -> frozenset[str]:
    """The normalised word set of `text` (see the module notes)."""
    return frozenset(_stem(w) for w in _WORD.findall(text.lower()) if len(w) > 1 and w not in _STOP)


def procedure_of(body: str) -> str:
    """The `## Procedure` section of a body, or the first 4,000 characters when it has none."""
    procedure = section(body, "Procedure")
    return body[:_BODY_CAP] if procedure is None else procedure


def skill_words(name: str, description: str, body: str) -> frozenset[str]:
    """The word set a skill is compared by: name, description and procedure."""
    return words(f"{name.replace('-', ' ')} {description} {procedure_of(body)}")


def name_key(name: str) -> tuple[str, ...]:
    """The name's stemmed parts, sorted: equal keys are the same name in another order."""
    return tuple(sorted(_stem(p) for p in name.split("-") if p))


def _joined(parts: tuple[str, ...]) -> str:
    return "".join(parts)


def name_parts(name: str) -> tuple[str, ...]:
    """The name's parts, stemmed: what a name is compared by, beside its parts as written."""
    return tuple(_stem(p) for p in name.split("-") if p)


def _name_variants(name: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The name's parts stemmed, and as written: the two spellings a name is compared by."""
    return name_parts(name), tuple(p for p in name.split("-") if p)


def _letters_key(variant: tuple[str, ...]) -> str:
    """The letters of a name's parts, sorted: equal keys are candidates for a run-together spelling."""
    return "".join(sorted(_joined(variant)))


def _run_together(mine: tuple[str, ...], theirs: tuple[str, ...]) -> bool:
    """Is one of the two a single word that is the other's parts run together in some order?"""
    short, long_ = (mine, theirs) if len(mine) <= len(theirs) else (theirs, mine)
    if len(short) != 1 or len(long_) > _MAX_PARTS_PERMUTED:
        return False
    return any(_joined(order) == short[0] for order in permutations(long_))


def _same_name_reason(name: str, same: str) -> str:
    return "the same name" if same == name else f"the same name parts as {same} in another order"


def _run_together_reason(name: str, other: str) -> str:
    return f"{name} and {other} are one name spelled two ways"


def _words_reason(score: float, threshold: float) -> str:
    return f"{score:.0%} of their words in common; the limit is {threshold:.0%}"


def normalisation_key() -> str:
    """A short fingerprint of how words and names are normalised: a cache made under another one is void."""
    import zlib

    spec = repr((_WORD.pattern, _STOP_WORDS, _SUFFIXES, _BODY_CAP, _MAX_PARTS_PERMUTED))
    return f"{zlib.crc32(spec.encode('utf-8')):08x}"


@dataclass(frozen=True, slots=True)
class Match:
    """An existing skill a new one nearly duplicates, and why."""

    existing: str
    score: float  # Jaccard overlap of the word sets; 1.0 for a name variant
    reason: str


class NearDuplicate(Refused):
    """`write_learned` refused a new skill because it nearly duplicates `existing`."""

    def __init__(self, name: str, match: Match) -> None:
        super().__init__(
            f"refused {name}: a near-duplicate of the existing skill {match.existing} ({match.reason}); "
            f"a new body for it is a patch to {match.existing}"
        )
        self.name = name
        self.existing = match.existing
        self.match = match


class NameColumns:
    """What the name measure needs of each existing skill, one list per field, in order."""

    __slots__ = ("by_parts", "by_raw", "keys", "stemmed")

    def __init__(self) -> None:
        self.keys: list[str] = []  # stemmed parts, sorted, joined by "-": equal keys are one name
        self.stemmed: list[str] = []  # stemmed parts in order, joined by "-"
        self.by_parts: list[str] = []  # letters of the stemmed parts, sorted
        self.by_raw: list[str] = []  # letters of the parts as written, sorted

    def add(self, name: str, parts: tuple[str, ...]) -> None:
        self.keys.append("-".join(sorted(parts)))
        self.stemmed.append("-".join(parts))
        self.by_parts.append(_letters_key(parts))
        self.by_raw.append(_letters_key(tuple(p for p in name.split("-") if p)))


def _positions(column: list[str], value: str) -> list[int]:
    """Every position of `value` in `column`, in order (list.index runs in C)."""
    found, at = [], -1
    while True:
        try:
            at = column.index(value, at + 1)
        except ValueError:
            return found
        found.append(at)


class SimilarityIndex:
    """Existing skills' name keys and word postings, checked against one new skill at a time.

    The text measure counts each existing skill's words in common with the new one
    through the postings (word -> the skills holding it), so a check touches only
    the new skill's own words, never every existing set.
    """

    def __init__(self) -> None:
        self._names: list[str] = []
        self._sizes: list[int] = []
        self._postings: Mapping[str, Sequence[int]] = {}
        self._columns = NameColumns()

    @classmethod
    def of_columns(
        cls, names: list[str], columns: NameColumns, sizes: list[int], postings: Mapping[str, Sequence[int]]
    ) -> SimilarityIndex:
        """An index from what it holds: names, their name columns, word counts, and postings by position."""
        index = cls()
        index._names, index._columns, index._sizes, index._postings = names, columns, sizes, postings
        return index

    def __len__(self) -> int:
        return len(self._names)

    def add(self, name: str, description: str, body: str) -> None:
        self.add_words(name, skill_words(name, description, body))

    def add_words(self, name: str, word_set: frozenset[str], parts: tuple[str, ...] | None = None) -> None:
        """Add a skill by its word set; `parts` is `name_parts(name)` when the caller has it already."""
        at = len(self._names)
        self._names.append(name)
        self._sizes.append(len(word_set))
        postings = self._postings
        if not isinstance(postings, dict):
            postings = self._postings = {word: list(slots) for word, slots in postings.items()}
        for word in word_set:
            postings.setdefault(word, []).append(at)
        self._columns.add(name, name_parts(name) if parts is None else parts)

    def _name_match(self, name: str) -> Match | None:
        """The first skill whose name is this one in another order or spelled run together, or None."""
        parts, raw = _name_variants(name)
        columns = self._columns
        same = _positions(columns.keys, "-".join(sorted(parts)))
        if same:
            return Match(self._names[same[0]], 1.0, _same_name_reason(name, self._names[same[0]]))
        for mine in {parts, raw}:
            wanted = _letters_key(mine)
            for at in sorted({*_positions(columns.by_parts, wanted), *_positions(columns.by_raw, wanted)}):
                theirs = []
                if columns.by_parts[at] == wanted:
                    theirs.append(tuple(columns.stemmed[at].split("-")) if columns.stemmed[at] else ())
                if columns.by_raw[at] == wanted:
                    theirs.append(tuple(p for p in self._names[at].split("-") if p))
                if any(_run_together(mine, variant) for variant in theirs):
                    return Match(self._names[at], 1.0, _run_together_reason(name, self._names[at]))
        return None

    def check(self, name: str, description: str, body: str, threshold: float = THRESHOLD) -> Match | None:
        """The closest existing skill `name` nearly duplicates (the first in order on a tie), or None."""
        by_name = self._name_match(name)
        if by_name is not None:
            return by_name
        mine = skill_words(name, description, body)
        size = len(mine)
        if not size:
            return None
        common: Counter[int] = Counter()
        for word in mine:
            common.update(self._postings.get(word, ()))
        best, best_at = 0.0, -1
        for at, shared in common.items():
            score = shared / (size + self._sizes[at] - shared)
            if score > best or (score == best and at < best_at):
                best, best_at = score, at
        if best >= threshold:
            existing = self._names[best_at]
            return Match(existing, best, _words_reason(best, threshold))
        return None
