"""Every discovered skill as routing reads it, with the work cached by file stat for the prompt hook.

The prompt hook runs on every prompt, in a fresh process: parsing every
SKILL.md and stemming its words each time would cost more than the rest of
the hook. So `cache/routing.json` in the person's state folder (`Layout.routing_cache`,
outside the project: a clone cannot ship one) keeps, for the skills discovery just
found, what routing derives from them: name, description, When-to-use text,
the body's opening paragraph, weighted words (with those of the rest of the body's
prose, which the cache keeps only as words, and of the
messages that led to each skill, `skills/examples.py`), the words of the
name, and the warnings met reading them: a JSON header with the index, the
index's postings on one line of text (`RoutingIndex.postings_text`), then one
JSON line per skill. It is used only while a digest of
every skill's path, size, mtime_ns and inode, the examples file's, and the
word rule, are unchanged; anything else (a new, changed or removed skill, a torn or foreign
file) rebuilds it. A file changed less than `SETTLE_NS` ago is not trusted to
the cache (a second change in the same tick would not move its stat). The
cache holds nothing a SKILL.md does not: it is safe to delete.

Whatever the cache says, a skill's path, origin, scope and body come from discovery: the cache
names skills, and one discovery did not find is not in the catalog (the cache is rebuilt).
A body is read from the SKILL.md discovery found, as discovery reaches it (inside the
project, for a project's skill), a plain file under the size cap, or it is a sentence.
"""

from __future__ import annotations

import os
import stat
import time

from edgar_min import jsoncodec
from edgar_min.atomic import open_read, write_text
from edgar_min.digests import cache_key
from edgar_min.errors import BadInput, EdgarError, Refused
from edgar_min.records import dataclass
from edgar_min.regex import lazy
from edgar_min.skills.discovery import discover
from edgar_min.skills.examples import read_examples
from edgar_min.skills.frontmatter import read_skill
from edgar_min.skills.routing import NONE_ID, Card, RoutingIndex, rule_key
from edgar_min.skills.routing.cachefile import BODIES
from edgar_min.skills.sections import headings
from edgar_min.skills.skillfile import read_skill_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from edgar_min.layout import Layout
    from edgar_min.skills.discovery import Skill

__all__ = ["FORMAT", "LONG_BUILD", "Catalog", "Entry", "load_catalog"]

# 15: the taught messages' keys in the header; 14: after a 13 that also held them; 13: what use
# taught in postings, no background counts; 12: no path or origin (discovery's are used)
FORMAT = "edgar-min routing 15"
SETTLE_NS = 2_000_000_000
WHEN_CHARS = 1000
OPENING_CHARS = 600
# How much of the body's prose routing reads: past the first pages a long skill's words are its
# steps' details. 2,000 characters did about as well on the bench's real skills, the whole body worse.
BODY_CHARS = 4000


@dataclass(frozen=True, slots=True)
class Entry:
    """One skill routing can suggest: its card, and where discovery found it."""

    card: Card
    path: str
    origin: str
    body_line: int = 0  # 1-based line where the Markdown body starts, as the frontmatter reader found it
    inside: str | None = None  # the real folder the file must be in (`Skill.inside`)
    scope: str = "project"  # discovery's scope (`Skill.scope`): which agents list it themselves

    def body(self) -> str:
        """The skill's body, read now (from where the reader found it to start); `BadInput` if unreadable."""
        if self.body_line < 1:
            return read_skill(self.path, inside=self.inside).body
        raw, _ = read_skill_file(self.path, inside=self.inside)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            msg = f"{self.path}: cannot be read now ({exc})"
            raise BadInput(msg) from None
        lines = text.replace("\r\n", "\n").split("\n")
        return "\n".join(lines[self.body_line - 1 :])


class CachedEntries:
    """The entries read from the routing cache by name, each made when first asked for.

    A prompt needs the few it suggests, not the hundreds it ranks: each entry is one line of
    the cache, parsed when asked for (parsing them all was a tenth of the prompt hook with 200
    real skills), and found where the header says it is (splitting the file into its lines was
    as much again). Where each skill is comes from discovery, never from the cache. Reads like
    a dict of `Entry`.
    """

    __slots__ = ("_data", "_made", "_path", "_skills", "_spans")

    def __init__(
        self, data: bytes, spans: dict[str, tuple[int, int]], path: str, skills: dict[str, Skill]
    ) -> None:
        self._data = data  # the cache file
        # name -> where its JSON line is in it: [description, when, opening, body line]
        self._spans = spans
        self._path = path
        self._skills = skills  # what discovery found, by name
        self._made: dict[str, Entry] = {}

    def __getitem__(self, name: str) -> Entry:
        found = self._made.get(name)
        if found is None:
            start, end = self._spans[name]
            found = self._made[name] = self._entry(name, self._data[start:end])
        return found

    def _entry(self, name: str, line: bytes) -> Entry:
        skill = self._skills.get(name)
        try:
            description, when, opening, body_line = jsoncodec.loads(line)
            if skill is not None and all(isinstance(t, str) for t in (description, when, opening)):
                card = Card(name, description, when, opening)
                return Entry(card, skill.path, skill.origin, int(body_line), skill.inside, skill.scope)
        except (ValueError, TypeError, RecursionError):
            pass
        # Only a hand could have damaged it (it is written whole or not at all): rebuilt next time.
        try:
            os.unlink(self._path)
        except OSError:
            pass
        msg = f"{self._path}: the routing cache's line for {name} is damaged; it was removed and is rebuilt"
        raise BadInput(msg)

    def __contains__(self, name: object) -> bool:
        return name in self._spans

    def __iter__(self) -> Iterator[str]:
        return iter(self._spans)

    def __len__(self) -> int:
        return len(self._spans)

    def __eq__(self, other: object) -> bool:
        return dict(self.items()) == (
            dict(other.items()) if isinstance(other, (dict, CachedEntries)) else other
        )

    __hash__ = None  # type: ignore[assignment] - equal by value, like a dict

    def items(self) -> list[tuple[str, Entry]]:
        return [(name, self[name]) for name in self._spans]


@dataclass(slots=True)
class Catalog:
    """The routing index over every readable skill, the entries by name, and what was skipped."""

    index: RoutingIndex
    entries: dict[str, Entry] | CachedEntries
    warnings: list[str]


# Public skills title the section "When to use (this skill)", "When to apply" or "When this skill
# applies"; all say the same.
_WHEN_TO_USE = lazy(
    r"(?ims)^ {0,3}(#{2,3})[ \t]+(?:when to (?:use|apply)|when this skill applies)\b[^\n]*\n"
    r"(.*?)(?=^ {0,3}#{1,3}[ \t]|\Z)"
)


def _when_to_use(body: str) -> str:
    # A `## When to use` inside a code fence is an example (a template of a skill, say), not this
    # skill's section: only the `##` headings `headings` finds outside fences count.
    outside = {after - 1 for _, after in headings(body)}
    for found in _WHEN_TO_USE.finditer(body):
        if found.group(1) == "##" and body.count("\n", 0, found.start()) not in outside:
            continue
        return " ".join(found.group(2).split())[:WHEN_CHARS]
    return ""


def _prose(body: str, *, first_only: bool = False) -> str:
    """The body's prose: its lines that are not a heading, a table, HTML, a rule, a quote or what a
    code fence holds, joined, up to BODY_CHARS; with `first_only`, its first paragraph, up to
    OPENING_CHARS (the opening)."""
    limit = OPENING_CHARS if first_only else BODY_CHARS
    found: list[str] = []
    size = -1  # of the words so far, one space apart
    fenced = False
    for line in body.split("\n"):
        text = line.strip()
        if text.startswith(("```", "~~~")):
            fenced = not fenced
            if found and first_only:
                break
            continue
        if fenced:
            continue
        if not text or text.startswith(("#", "|", "<", "---", "***", ">")):
            if found and first_only:
                break
            continue
        text = " ".join(text.split())
        found.append(text)
        size += len(text) + 1
        if size >= limit:  # a long body's rest is not read
            break
    return " ".join(found)[:limit]


def _read(skill: Skill, warnings: list[str]) -> tuple[Card, int] | None:
    if skill.name == NONE_ID:
        warnings.append(
            f"{skill.path}: a skill named 'none' cannot be suggested (it is the decision's 'none')"
        )
        return None
    try:
        parsed = skill.frontmatter()
    except EdgarError as exc:
        warnings.append(f"skipped: {exc.message}")
        return None
    description = parsed.data.get("description")
    description = " ".join(description.split()) if isinstance(description, str) else ""
    body = parsed.body
    card = Card(skill.name, description, _when_to_use(body), _prose(body, first_only=True), _prose(body))
    return card, parsed.body_line


def _digest(
    skills: dict[str, Skill], examples: os.stat_result | None, problems: list[str] | tuple[str, ...] = ()
) -> tuple[str, bool]:
    """A key of every skill's path and stat, of the examples' stat and of what discovery could not
    read (a skill linked out of the project is in no stat), and whether all have settled."""
    limit = time.time_ns() - SETTLE_NS
    parts = [f"{FORMAT}\0{rule_key()}\n", *(f"problem\0{problem}\n" for problem in problems)]
    settled = True
    if examples is not None:
        parts.append(f"examples\0{examples.st_size}\0{examples.st_mtime_ns}\0{examples.st_ino}\n")
        settled = examples.st_mtime_ns < limit
    # A skill's path is its scope's folder, its name and SKILL.md: each skill by name and scope,
    # and the folders of the scopes that have skills once (200 whole paths were a tenth of
    # reading the cache). Another user scope with no skills in it keys the project alike.
    folders: dict[str, str] = {}
    for name, skill in skills.items():
        st = skill.stat
        if st is None:
            settled = False
            continue
        if skill.scope not in folders:
            folders[skill.scope] = os.path.dirname(os.path.dirname(skill.path))
        parts.append(f"{name}\0{skill.scope}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}\n")
        settled = settled and st.st_mtime_ns < limit
    parts.extend(f"{scope}\0{folder}\n" for scope, folder in folders.items())
    return cache_key("".join(parts).encode()), settled


def _skill_names(index: RoutingIndex) -> list[str]:
    """The skills of an index: all its cards but the `none` of the messages that needed none."""
    return [name for name in index.names if name != NONE_ID]


def _from_cache(layout: Layout, digest: str, skills: dict[str, Skill], warnings: list[str]) -> Catalog | None:
    try:
        # Not through a link, nor a fifo or /dev/zero: the folder is the person's, the file edgar's.
        fd = open_read(layout.routing_cache, root=layout.state)
        with open(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                warnings.append(f"{layout.routing_cache} is not a plain file; the routing cache was not read")
                return None
            raw = handle.read()
        # The header and the index on the first line, the index's postings as text on the second,
        # then one line per skill, of the sizes the header gives, read when asked for.
        head_end = raw.find(b"\n")
        postings_end = raw.find(b"\n", head_end + 1)
        if head_end < 0 or postings_end < 0:
            return None
        data = jsoncodec.loads(raw[:head_end])
        if data.get("format") != FORMAT or data.get("digest") != digest:
            return None
        # Each part of the postings line as text, not a copy of the bytes first: the words of the
        # skills' fields, and after `BODIES` those only their bodies have.
        cut = raw.find(BODIES.encode(), head_end + 1, postings_end)
        cut = postings_end if cut < 0 else cut
        postings = str(memoryview(raw)[head_end + 1 : cut], "ascii")
        bodies = str(memoryview(raw)[cut + len(BODIES) : postings_end], "ascii") if cut < postings_end else ""
        index = RoutingIndex.from_cached(data["index"], postings, bodies)
        if index is None:
            return None
        names = _skill_names(index)
        if not skills.keys() >= set(names):
            return None  # a skill discovery did not find: not this project's cache
        spans = _spans(names, data["sizes"], postings_end + 1, len(raw))
        if spans is None:
            return None
        entries = CachedEntries(raw, spans, layout.routing_cache, skills)
        kept = [str(w) for w in data["warnings"]]
    except Refused as exc:
        warnings.append(f"the routing cache was not read: {exc.message}")
        return None
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None  # missing, torn or foreign: rebuilt below
    return Catalog(index, entries, kept)


def _spans(names: list[str], sizes: object, start: int, end: int) -> dict[str, tuple[int, int]] | None:
    """Where each skill's line is, from `start` to `end`, each of the size the header gives
    (its line break included); None when the sizes do not fill that exactly."""
    if type(sizes) is not list or len(sizes) != len(names):
        return None
    spans = {}
    at = start
    for name, size in zip(names, sizes, strict=True):
        if type(size) is not int or size < 1:
            return None
        spans[name] = (at, at + size - 1)
        at += size
    return spans if at == end else None


def _save(layout: Layout, digest: str, catalog: Catalog) -> None:
    entries = catalog.entries
    rows = [
        [e.card.description, e.card.when, e.card.opening, e.body_line]
        for e in (entries[name] for name in _skill_names(catalog.index))
    ]
    try:
        # JSON writes a line break inside a string as an escape: each value stays on its line.
        lines = [jsoncodec.dumps(row, ensure_ascii=False, separators=(",", ":")) for row in rows]
        header = {
            "format": FORMAT,
            "digest": digest,
            "warnings": catalog.warnings,
            "index": catalog.index.cached(),
            "sizes": [len(line.encode("utf-8")) + 1 for line in lines],
        }
        head = jsoncodec.dumps(header, ensure_ascii=False, separators=(",", ":"))
        text = "\n".join([head, catalog.index.postings_text(), *lines]) + "\n"
        write_text(layout.routing_cache, text, root=layout.state)
    except (OSError, Refused):
        pass  # only an accelerator


def _examples_stat(layout: Layout) -> os.stat_result | None:
    """The examples file's stat, which the cache is keyed by (None when there is none).

    Here rather than in `skills/examples.py`, which a prompt answered from the cache does not import.
    """
    try:
        return os.stat(layout.routing_examples)
    except OSError:
        return None


def _examples(layout: Layout, warnings: list[str]) -> dict[str, list[str]]:
    """The messages that led to each skill; an unreadable examples file is a warning, not a failure."""
    try:
        return read_examples(layout)
    except (OSError, EdgarError) as exc:
        reason = exc.message if isinstance(exc, EdgarError) else str(exc)
        warnings.append(f"the routing examples were not read: {reason}")
        return {}


# Reading skills afresh takes about 2 to 9 ms each (5,184 public skills: 11 to 45 s); past this
# many, a person waiting at a command is told why before the wait.
LONG_BUILD = 500


def load_catalog(
    layout: Layout, *, use_cache: bool = True, before_long: Callable[[int], None] | None = None
) -> Catalog:
    """Every discovered skill routing can suggest (all scopes), read afresh or from the cache.

    `before_long(count)` is told before `count` skills, more than `LONG_BUILD`, are read afresh.
    """
    found = discover(layout)
    examples = _examples_stat(layout)
    digest, settled = _digest(found.skills, examples, found.problems)
    unread: list[str] = []  # why a cache there was not read
    if use_cache:
        cached = _from_cache(layout, digest, found.skills, unread)
        if cached is not None:
            return cached
    if before_long is not None and len(found.skills) > LONG_BUILD:
        before_long(len(found.skills))
    warnings = [*found.problems, *unread]
    asked = _examples(layout, warnings) if examples is not None else {}
    entries: dict[str, Entry] = {}
    cards: list[Card] = []
    for name, skill in found.skills.items():
        read = _read(skill, warnings)
        if read is not None:
            card, body_line = read
            cards.append(card)
            # The entry holds what the cache holds: the body's prose is in the index, as words.
            kept = Card(card.name, card.description, card.when, card.opening)
            entries[name] = Entry(kept, str(skill.path), skill.origin, body_line, skill.inside, skill.scope)
    index = RoutingIndex(cards, asked)
    catalog = Catalog(index, entries, warnings)
    if use_cache and settled:  # the person's own folder: a project need not have `.edgar` yet
        _save(layout, digest, catalog)
    return catalog
