"""The near-duplicate check against every existing skill, with each skill's words cached by file stat.

Reading and tokenising 10,000 SKILL.md files on every write costs most of a
second, so `.edgar/cache/skill-words.txt` keeps, for each SKILL.md, what the
check derives from it: its word set, its name's keys, and whether it reads
as a skill at all. An entry is trusted only while the file's size, mtime_ns,
ctime_ns and inode are what discovery just saw; a changed, new or moved
skill is read again, and a skill no longer discovered is left out. The
cache holds nothing a SKILL.md does not: it is derived data, safe to delete.

The cache is only an accelerator. A missing, torn, garbage or foreign-version
file (another format, or another word normalisation) is ignored and rebuilt,
never an error; a failed write is ignored too. A file changed less than
`SETTLE_NS` before it was read is not cached (a second change in the same
timestamp tick would not move its stat); it is read again next time.

The format is UTF-8 text, written atomically: a header (format, word
normalisation), the CRC-32 of the rest, a digest of every cached file's
path and stat in order, then one column per line (paths, stats, word
counts, name keys, stemmed name parts, two letter keys, tab-separated), then
the inverted index: a word, then the entries holding it. When nothing
changed, the digest matches and the check splits only the columns and the
index lines of the new skill's own words: it never builds 10,000 sets.
Measured at 10,000 skills, loading it takes about 19 ms; the same content
as JSON about 22-24 ms (json.loads is quicker, but every value must then be
checked to be a string, which lines give for free), and JSON with the index
as integer lists about 55 ms. Not marshal or pickle: another process or
edgar version reads the file, marshal's format belongs to one Python
version, and pickle runs code.
"""

from __future__ import annotations

import os
import time
import zlib
from collections import Counter
from typing import TYPE_CHECKING

from edgar_min.errors import EdgarError
from edgar_min.learning.similarity import (
    THRESHOLD,
    Match,
    letters_key,
    name_variants,
    normalisation_key,
    run_together,
    run_together_reason,
    same_name_reason,
    skill_words,
    words_reason,
)

if TYPE_CHECKING:
    from collections.abc import Iterable

    from edgar_min.layout import Layout
    from edgar_min.skills.discovery import Skill

__all__ = ["FORMAT", "SETTLE_NS", "near_duplicate"]

FORMAT = "edgar-min skill-words 1"
# Coarse file systems stamp times in steps of up to 2 s (FAT); ext4 in a clock tick.
SETTLE_NS = 2_000_000_000
_COLUMNS = 7  # paths, stats, word counts, name keys, stemmed parts, letters of parts, letters as written
_NOT_A_KEY = "\x00"  # the name columns of a file that does not read as a skill: no name has a NUL


class _Corrupt(Exception):
    """The cache file passed its checksum but holds something that cannot be right: rebuild it."""


class _Cache:
    """A loaded cache file: its columns split, its index lines by word and still unparsed."""

    __slots__ = ("columns", "digest", "postings")

    def __init__(self, digest: str, columns: list[list[str]], postings: dict[str, str]) -> None:
        self.digest = digest
        self.columns = columns
        self.postings = postings  # word -> "slot slot ..."


class _View:
    """The readable skills in the check's order, as columns; some counted through the index."""

    __slots__ = ("by_parts", "by_raw", "fresh", "keys", "names", "sizes", "slot_at", "stemmed")

    def __init__(self) -> None:
        self.names: list[str] = []
        self.keys: list[str] = []
        self.stemmed: list[str] = []
        self.by_parts: list[str] = []
        self.by_raw: list[str] = []
        self.sizes: list[str] = []
        self.fresh: list[tuple[int, frozenset[str]]] = []  # (at, words) of files read now
        self.slot_at: dict[int, int] | None = None  # cache slot -> at; None: slot == at


def _stat_key(st: os.stat_result) -> str:
    return f"{st.st_size}.{st.st_mtime_ns}.{st.st_ctime_ns}.{st.st_ino}"


def _digest(state: str) -> str:
    import hashlib

    return hashlib.blake2b(state.encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()


def _load(path: os.PathLike[str]) -> _Cache | None:
    """The cache at `path`, or None when it is missing, torn, garbage or of another version."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    head_end = data.find(b"\n")
    check_end = data.find(b"\n", head_end + 1)
    if head_end < 0 or check_end < 0:
        return None
    if data[:head_end] != f"{FORMAT} {normalisation_key()}".encode():
        return None
    try:
        if zlib.crc32(memoryview(data)[check_end + 1 :]) != int(data[head_end + 1 : check_end], 16):
            return None
        lines = data[check_end + 1 :].decode("utf-8").split("\n")
    except (ValueError, UnicodeDecodeError):
        return None
    if len(lines) < _COLUMNS + 2 or lines.pop() != "":
        return None
    columns = [line.split("\t") for line in lines[1 : 1 + _COLUMNS]]
    if columns[0] == [""]:
        columns = [[] for _ in columns]
    if any(len(column) != len(columns[0]) for column in columns):
        return None
    try:
        postings = dict(line.split("\t", 1) for line in lines[1 + _COLUMNS :])
    except ValueError:  # a line without a tab
        return None
    return _Cache(lines[0], columns, postings)


def _read(skill: Skill) -> tuple[str | None, bool, list[str] | None, frozenset[str] | None]:
    """Read one SKILL.md now: (its stat, may it be cached, its columns, its words); None: it does not read."""
    from edgar_min.skills.frontmatter import parse_skill

    started = time.time_ns()
    try:
        with open(skill.path, "rb") as handle:
            st = os.fstat(handle.fileno())
            data = handle.read()
    except OSError:
        return None, False, None, None  # not cached: it may read next time
    # A file changed within SETTLE_NS of this read could change again without its stat moving.
    cacheable = max(st.st_mtime_ns, st.st_ctime_ns) < started - SETTLE_NS
    try:
        parsed = parse_skill(data.decode("utf-8"), str(skill.path))
    except (UnicodeDecodeError, EdgarError):
        return _stat_key(st), cacheable, None, None  # it loads nowhere, so it duplicates nothing
    description = parsed.data.get("description")
    words = skill_words(skill.name, description if isinstance(description, str) else "", parsed.body)
    parts, raw = name_variants(skill.name)
    columns = [
        str(len(words)),
        "-".join(sorted(parts)),
        "-".join(parts),
        letters_key(parts),
        letters_key(raw),
    ]
    return _stat_key(st), cacheable, columns, words


def _storable(path: str) -> bool:
    if "\t" in path or "\n" in path or "\r" in path:
        return False
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:  # a file name that is not UTF-8 (surrogate escapes)
        return False
    return True


class _Plan:
    """What the check sees, and what the cache should hold afterwards."""

    __slots__ = ("keep", "view")

    def __init__(self) -> None:
        self.view = _View()
        # (path, stat, columns or None, words or None, old slot or -1): the entries to cache, in order
        self.keep: list[tuple[str, str, list[str] | None, frozenset[str] | None, int]] = []


def _unique(skills: Iterable[Skill]) -> tuple[list[Skill], list[str], list[str]]:
    """Each file once (a folder read through two scopes is one skill), with its path and stat."""
    seen: set[str] = set()
    kept, paths, keys = [], [], []
    for skill in skills:
        path = skill.file
        if path in seen:
            continue
        seen.add(path)
        st = skill.stat
        if st is None:
            try:
                st = skill.path.stat()
            except OSError:
                continue  # gone: it loads nowhere
        kept.append(skill)
        paths.append(path)
        keys.append(_stat_key(st))
    return kept, paths, keys


def _warm(cache: _Cache, names: list[str]) -> _View:
    """Every file is the cached one, in the cached order: the columns are the view."""
    view = _View()
    columns = cache.columns
    readable = [at for at, size in enumerate(columns[2]) if size != _NOT_A_KEY]
    if len(readable) == len(names):
        view.names = names
        view.sizes, view.keys, view.stemmed, view.by_parts, view.by_raw = columns[2:]
        return view
    view.slot_at = {}
    for slot in readable:
        view.slot_at[slot] = len(view.names)
        view.names.append(names[slot])
        for target, column in zip(
            (view.sizes, view.keys, view.stemmed, view.by_parts, view.by_raw), columns[2:], strict=True
        ):
            target.append(column[slot])
    return view


def _cold(skills: list[Skill], paths: list[str], keys: list[str], cache: _Cache | None) -> _Plan:
    """Some file changed: take what still matches from the cache, read the rest."""
    plan = _Plan()
    view = plan.view
    view.slot_at = {}
    by_path: dict[str, int] = {}
    if cache is not None:
        by_path = {path: slot for slot, path in enumerate(cache.columns[0])}
    for skill, path, key in zip(skills, paths, keys, strict=True):
        slot = by_path.get(path, -1)
        if slot >= 0 and cache is not None and cache.columns[1][slot] == key:
            columns: list[str] | None = [column[slot] for column in cache.columns[2:]]
            if columns[0] == _NOT_A_KEY:
                columns = None
            words = None
            cacheable = True
        else:
            slot = -1
            read_key, cacheable, columns, words = _read(skill)
            cacheable = cacheable and read_key is not None and _storable(path)
        if cacheable:
            plan.keep.append((path, read_key or key if slot < 0 else key, columns, words, slot))
        if columns is None:
            continue
        if words is None:
            view.slot_at[slot] = len(view.names)
        else:
            view.fresh.append((len(view.names), words))
        view.names.append(skill.name)
        for target, value in zip(
            (view.sizes, view.keys, view.stemmed, view.by_parts, view.by_raw), columns, strict=True
        ):
            target.append(value)
    return plan


def _name_match(name: str, view: _View) -> Match | None:
    """`SimilarityIndex`'s name rule over the view in order: the first skill that matches wins."""
    parts, raw = name_variants(name)
    try:
        at = view.keys.index("-".join(sorted(parts)))
    except ValueError:
        pass
    else:
        return Match(view.names[at], 1.0, same_name_reason(name, view.names[at]))
    for mine in {parts, raw}:
        wanted = letters_key(mine)
        hits = sorted(_positions(view.by_parts, wanted) | _positions(view.by_raw, wanted))
        for at in hits:
            theirs = []
            if view.by_parts[at] == wanted:
                theirs.append(tuple(view.stemmed[at].split("-")) if view.stemmed[at] else ())
            if view.by_raw[at] == wanted:
                theirs.append(tuple(p for p in view.names[at].split("-") if p))
            if any(run_together(mine, variant) for variant in theirs):
                return Match(view.names[at], 1.0, run_together_reason(name, view.names[at]))
    return None


def _positions(column: list[str], value: str) -> set[int]:
    found, at = set(), -1
    while True:
        try:
            at = column.index(value, at + 1)
        except ValueError:
            return found
        found.add(at)


def _text_match(mine: frozenset[str], view: _View, cache: _Cache | None, threshold: float) -> Match | None:
    """The skill sharing the most of its words, the first in order on a tie, when at the threshold or over."""
    size = len(mine)
    scores: list[tuple[float, int]] = []
    for at, words in view.fresh:
        common = len(mine & words)
        if common:
            scores.append((common / (size + len(words) - common), -at))
    if cache is not None and (view.slot_at is None or view.slot_at):
        counts: Counter[int] = Counter()
        try:
            for word in mine:
                line = cache.postings.get(word)
                if line:
                    counts.update(map(int, line.split(" ")))
            for slot, common in counts.items():
                if slot < 0:
                    raise _Corrupt
                at = slot if view.slot_at is None else view.slot_at.get(slot)
                if at is None:
                    continue  # a file that changed or went
                n = int(view.sizes[at])
                if common > n:
                    raise _Corrupt
                scores.append((common / (size + n - common), -at))
        except (ValueError, IndexError):
            raise _Corrupt from None
    if not scores:
        return None
    best, minus_at = max(scores)  # the highest score; on a tie, the earliest skill
    if best >= threshold:
        return Match(view.names[-minus_at], best, words_reason(best, threshold))
    return None


def _save(layout: Layout, plan: _Plan, cache: _Cache | None) -> None:
    """Write the cache for the entries that may be cached (atomically; a failure only costs speed)."""
    if cache is None and not plan.keep and not layout.word_cache.exists():
        return
    if cache is not None and [slot for *_, slot in plan.keep] == list(range(len(cache.columns[0]))):
        return  # the same files as cached (a file read now but too new to cache changes nothing)
    old_slots: dict[int, int] = {}
    columns: list[list[str]] = [[] for _ in range(_COLUMNS)]
    postings: dict[str, list[int]] = {}
    for new, (path, key, fields, words, slot) in enumerate(plan.keep):
        columns[0].append(path)
        columns[1].append(key)
        for column, value in zip(columns[2:], fields or [_NOT_A_KEY] * (_COLUMNS - 2), strict=True):
            column.append(value)
        if slot >= 0:
            old_slots[slot] = new
        elif words:
            for word in words:
                postings.setdefault(word, []).append(new)
    try:
        if cache is not None and old_slots:
            for word, line in cache.postings.items():
                kept = [old_slots[s] for s in map(int, line.split(" ")) if s in old_slots]
                if kept:
                    postings.setdefault(word, []).extend(kept)
    except ValueError:
        # A damaged index line the check did not need: the entries it covers cannot be kept.
        from edgar_min.atomic import remove_tree
        from edgar_min.errors import Refused

        try:
            remove_tree(layout.word_cache, root=layout.root)
        except (OSError, Refused):
            pass
        return
    state = "\n".join(f"{path}\t{key}" for path, key in zip(columns[0], columns[1], strict=True))
    lines = [_digest(state), *("\t".join(column) for column in columns)]
    lines += (f"{word}\t{' '.join(map(str, sorted(slots)))}" for word, slots in postings.items())
    body = "".join(line + "\n" for line in lines)
    from edgar_min.atomic import write_text
    from edgar_min.errors import Refused

    try:
        if not (layout.cache / ".gitignore").exists():
            # Derived data, and it may hold words of skills in the user's home scope: never commit it.
            write_text(layout.cache / ".gitignore", "*\n", root=layout.root)
        crc = zlib.crc32(body.encode("utf-8"))
        write_text(layout.word_cache, f"{FORMAT} {normalisation_key()}\n{crc:08x}\n{body}", root=layout.root)
    except (OSError, ValueError, Refused):
        pass  # only an accelerator: the next check reads the files again


def near_duplicate(
    layout: Layout,
    skills: Iterable[Skill],
    name: str,
    description: str,
    body: str,
    *,
    threshold: float = THRESHOLD,
) -> Match | None:
    """The existing skill (of `skills`, in order) a new skill nearly duplicates, or None.

    The answer `index_of_skills(skills).check(...)` gives, with unchanged files' words taken
    from the cache, which is brought up to date afterwards when anything changed.
    """
    new = (name, description, body)
    unique, paths, keys = _unique(skills)
    cache = _load(layout.word_cache)
    state = "\n".join(f"{path}\t{key}" for path, key in zip(paths, keys, strict=True))
    # A path holding a tab or a line break could make two different states read alike.
    plain = state.count("\t") == len(paths) and state.count("\n") == max(len(paths) - 1, 0)
    if cache is not None and plain and cache.digest == _digest(state):
        try:
            return _match(new, _warm(cache, [s.name for s in unique]), cache, threshold)
        except _Corrupt:
            cache = None
    try:
        plan = _cold(unique, paths, keys, cache)
        match = _match(new, plan.view, cache, threshold)
    except _Corrupt:
        cache = None
        plan = _cold(unique, paths, keys, None)
        match = _match(new, plan.view, None, threshold)
    _save(layout, plan, cache)
    return match


def _match(new: tuple[str, str, str], view: _View, cache: _Cache | None, threshold: float) -> Match | None:
    name, description, body = new
    found = _name_match(name, view)
    if found is None:
        mine = skill_words(name, description, body)
        found = _text_match(mine, view, cache, threshold) if mine else None
    return found
