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

from dataclasses import dataclass
from itertools import permutations

from edgar_min.errors import Refused
from edgar_min.regex import lazy

__all__ = [
    "THRESHOLD",
    "Match",
    "NearDuplicate",
    "SimilarityIndex",
    "name_key",
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
    lines = body.splitlines()
    start = None
    for i, line in enumerate(lines):
        heading = line.strip()
        if heading.startswith("## "):
            if start is not None:
                return "\n".join(lines[start:i])
            if heading[3:].strip().rstrip(":").casefold() == "procedure":
                start = i + 1
    if start is not None:
        return "\n".join(lines[start:])
    return body[:_BODY_CAP]


def skill_words(name: str, description: str, body: str) -> frozenset[str]:
    """The word set a skill is compared by: name, description and procedure."""
    return words(f"{name.replace('-', ' ')} {description} {procedure_of(body)}")


def name_key(name: str) -> tuple[str, ...]:
    """The name's stemmed parts, sorted: equal keys are the same name in another order."""
    return tuple(sorted(_stem(p) for p in name.split("-") if p))


def _joined(parts: tuple[str, ...]) -> str:
    return "".join(parts)


def name_variants(name: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The name's parts stemmed, and as written: the two spellings a name is compared by."""
    raw = tuple(p for p in name.split("-") if p)
    return tuple(_stem(p) for p in raw), raw


def letters_key(variant: tuple[str, ...]) -> str:
    """The letters of a name's parts, sorted: equal keys are candidates for a run-together spelling."""
    return "".join(sorted(_joined(variant)))


def run_together(mine: tuple[str, ...], theirs: tuple[str, ...]) -> bool:
    """Is one of the two a single word that is the other's parts run together in some order?"""
    short, long_ = (mine, theirs) if len(mine) <= len(theirs) else (theirs, mine)
    if len(short) != 1 or len(long_) > _MAX_PARTS_PERMUTED:
        return False
    return any(_joined(order) == short[0] for order in permutations(long_))


def same_name_reason(name: str, same: str) -> str:
    return "the same name" if same == name else f"the same name parts as {same} in another order"


def run_together_reason(name: str, other: str) -> str:
    return f"{name} and {other} are one name spelled two ways"


def words_reason(score: float, threshold: float) -> str:
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


class SimilarityIndex:
    """Existing skills' name keys and word sets, checked against one new skill at a time."""

    def __init__(self) -> None:
        self._names: list[str] = []
        self._sets: list[frozenset[str]] = []
        self._keys: dict[tuple[str, ...], str] = {}
        # letters of a name without hyphens, sorted -> names: candidates for run-together spellings
        self._letters: dict[str, list[tuple[str, tuple[str, ...]]]] = {}

    def __len__(self) -> int:
        return len(self._names)

    def add(self, name: str, description: str, body: str) -> None:
        self.add_words(name, skill_words(name, description, body))

    def add_words(self, name: str, word_set: frozenset[str]) -> None:
        self._names.append(name)
        self._sets.append(word_set)
        parts, raw = name_variants(name)
        self._keys.setdefault(tuple(sorted(parts)), name)
        for variant in {parts, raw}:
            self._letters.setdefault(letters_key(variant), []).append((name, variant))

    def _name_match(self, name: str) -> Match | None:
        parts, raw = name_variants(name)
        same = self._keys.get(tuple(sorted(parts)))
        if same is not None:
            return Match(same, 1.0, same_name_reason(name, same))
        for mine in {parts, raw}:
            for other, theirs in self._letters.get(letters_key(mine), ()):
                if run_together(mine, theirs):
                    return Match(other, 1.0, run_together_reason(name, other))
        return None

    def check(self, name: str, description: str, body: str, threshold: float = THRESHOLD) -> Match | None:
        """The closest existing skill `name` nearly duplicates, or None."""
        by_name = self._name_match(name)
        if by_name is not None:
            return by_name
        mine = skill_words(name, description, body)
        size = len(mine)
        if not size:
            return None
        best, best_at = 0.0, -1
        low = threshold * size
        high = size / threshold
        for at, other in enumerate(self._sets):
            n = len(other)
            # Jaccard >= t needs the smaller set to be at least t times the larger.
            if n < low or n > high:
                continue
            common = len(mine & other)
            if common:
                score = common / (size + n - common)
                if score > best:
                    best, best_at = score, at
        if best >= threshold:
            existing = self._names[best_at]
            return Match(existing, best, words_reason(best, threshold))
        return None


def index_of_skills(skills: object) -> SimilarityIndex:
    """A `SimilarityIndex` over discovered skills (unreadable files are left out: they load nowhere)."""
    from edgar_min.errors import EdgarError

    index = SimilarityIndex()
    for skill in skills:  # type: ignore[attr-defined]
        try:
            parsed = skill.frontmatter()
        except EdgarError:
            continue
        description = parsed.data.get("description")
        index.add(skill.name, description if isinstance(description, str) else "", parsed.body)
    return index
