"""A memo of the near-duplicate index, keyed by file stat, so a write need not re-read every skill.

The near-duplicate rule is `similarity.SimilarityIndex`; this module only saves it
the reading. Reading and tokenising 10,000 SKILL.md files on every write costs
most of a second, so `cache/skill-words.txt` in the person's state folder
(`Layout.word_cache`, outside the project) keeps what the index holds of
each SKILL.md: its stemmed name parts, its word count, and its words as postings
(word -> the skills holding it). An entry is trusted only while the file's size,
mtime_ns, ctime_ns and inode are what discovery just saw. When every file is the
memoised one, the index is built from the memo and reads only the postings of the
new skill's own words; when anything changed, changed and new files are read again,
skills no longer discovered are left out, and the memo is written anew. It holds
nothing a SKILL.md does not: derived data, safe to delete.

The memo is only an accelerator. A missing, torn, garbage or foreign-version file
(another format, or another word normalisation) is ignored and rebuilt, never an
error; a failed write is ignored too. A file changed less than `SETTLE_NS` before
it was read is not memoised (a second change in the same timestamp tick would not
move its stat); it is read again next time.

The format is UTF-8 text, written atomically: a header (format, word normalisation),
the CRC-32 of the rest, the number of files, then one line per file (path, stat,
word count or `!` for a file that does not read as a skill, stemmed name parts),
then one line per word: the word and the positions, among the files that read,
of those holding it. Not marshal or pickle: another process or edgar version
reads the file, marshal's format belongs to one Python version, and pickle runs code.
"""

from __future__ import annotations

import os
import time
import zlib

from edgar_min.atomic import write_text
from edgar_min.errors import EdgarError, Refused
from edgar_min.learning.similarity import (
    THRESHOLD,
    Match,
    NameColumns,
    SimilarityIndex,
    name_parts,
    normalisation_key,
    skill_words,
)
from edgar_min.logfile import open_plain
from edgar_min.skills.frontmatter import parse_skill
from edgar_min.skills.skillfile import read_skill_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from edgar_min.layout import Layout
    from edgar_min.skills.discovery import Skill

__all__ = ["FORMAT", "SETTLE_NS", "near_duplicate"]

FORMAT = "edgar-min skill-words 3"
# Coarse file systems stamp times in steps of up to 2 s (FAT); ext4 in a clock tick.
SETTLE_NS = 2_000_000_000
_UNREADABLE = "!"  # the word count of a file that does not read as a skill


class _Corrupt(Exception):
    """The memo passed its checksum but holds something that cannot be right: rebuild it."""


class _Postings:
    """The memo's word lines, each split only when the check asks for that word."""

    __slots__ = ("_count", "_lines")

    def __init__(self, lines: dict[str, str], count: int) -> None:
        self._lines = lines
        self._count = count

    def get(self, word: str, default: tuple[int, ...] = ()) -> list[int] | tuple[int, ...]:
        line = self._lines.get(word)
        if line is None:
            return default
        try:
            slots = [int(s) for s in line.split(" ")]
        except ValueError:
            raise _Corrupt from None
        if any(not 0 <= s < self._count for s in slots):
            raise _Corrupt
        return slots

    def items(self) -> Iterator[tuple[str, list[int] | tuple[int, ...]]]:
        return ((word, self.get(word)) for word in self._lines)


# A memoised file: path, stat, word count (None: it does not read as a skill), stemmed name parts.
_File = tuple[str, str, int | None, tuple[str, ...]]


class _Memo:
    """A loaded memo: its files in discovery order, the name columns of those that read, the postings."""

    __slots__ = ("columns", "files", "postings")

    def __init__(self, files: list[_File], columns: NameColumns, postings: _Postings) -> None:
        self.files = files
        self.columns = columns
        self.postings = postings

    def words_by_file(self) -> dict[str, frozenset[str]]:
        """Each readable file's word set, from the postings (read only when something changed)."""
        readable = [path for path, _, size, _ in self.files if size is not None]
        sets: list[set[str]] = [set() for _ in readable]
        for word, slots in self.postings.items():
            for slot in slots:
                sets[slot].add(word)
        by_file = {}
        for (path, _, size, _), words in zip((f for f in self.files if f[2] is not None), sets, strict=True):
            if len(words) != size:
                raise _Corrupt
            by_file[path] = frozenset(words)
        return by_file


def _stat_key(st: os.stat_result) -> str:
    return f"{st.st_size}.{st.st_mtime_ns}.{st.st_ctime_ns}.{st.st_ino}"


def _header() -> str:
    return f"{FORMAT} {normalisation_key()}"


def _load(path: os.PathLike[str]) -> _Memo | None:
    """The memo at `path`, or None when it is missing, torn, garbage or of another version."""
    try:
        handle = open_plain(path)  # not a fifo or /dev/zero a checkout linked here
        if handle is None:
            return None
        with handle:
            data = handle.read()
    except OSError:
        return None
    head, _, rest = data.partition(b"\n")
    crc, _, rest = rest.partition(b"\n")
    if head != _header().encode():
        return None
    try:
        if zlib.crc32(rest) != int(crc, 16):
            return None
        lines = rest.decode("utf-8").split("\n")
        if lines.pop() != "":
            return None
        count = int(lines[0])
        files: list[_File] = []
        columns = NameColumns()
        for line in lines[1 : 1 + count]:
            file, key, size, *fields = line.split("\t")
            if size == _UNREADABLE:
                files.append((file, key, None, ()))
                continue
            stemmed, name_key, by_parts, by_raw = fields  # a line of another shape is a ValueError
            files.append((file, key, int(size), tuple(stemmed.split("-")) if stemmed else ()))
            columns.stemmed.append(stemmed)
            columns.keys.append(name_key)
            columns.by_parts.append(by_parts)
            columns.by_raw.append(by_raw)
        if len(files) != count:
            return None
        postings = dict(line.split("\t", 1) for line in lines[1 + count :])
    except (ValueError, IndexError):  # not hex or a number, not UTF-8, or a line of the wrong shape
        return None
    return _Memo(files, columns, _Postings(postings, len(columns.keys)))


# What is written of a file: path, stat, skill name, words (None: it does not read), stemmed name parts.
_Kept = tuple[str, str, str, frozenset[str] | None, tuple[str, ...]]


def _save(layout: Layout, files: list[_Kept]) -> None:
    """Write the memo for `files` atomically; a failure only costs speed."""
    postings: dict[str, list[int]] = {}
    lines = [str(len(files))]
    slot = 0
    for path, key, name, words, parts in files:
        if words is None:
            lines.append(f"{path}\t{key}\t{_UNREADABLE}")
            continue
        column = NameColumns()
        column.add(name, parts)
        fields = (column.stemmed[0], column.keys[0], column.by_parts[0], column.by_raw[0])
        lines.append("\t".join((path, key, str(len(words)), *fields)))
        for word in words:
            postings.setdefault(word, []).append(slot)
        slot += 1
    lines += (f"{word}\t{' '.join(map(str, slots))}" for word, slots in postings.items())
    body = "".join(line + "\n" for line in lines)
    try:
        crc = zlib.crc32(body.encode("utf-8"))
        write_text(layout.word_cache, f"{_header()}\n{crc:08x}\n{body}", root=layout.state)
    except (OSError, ValueError, Refused):
        pass  # only an accelerator: the next check reads the files again


def _read(skill: Skill) -> tuple[str | None, bool, frozenset[str] | None]:
    """Read one SKILL.md now: (its stat, may it be memoised, its words); None words: it does not read."""
    started = time.time_ns()
    try:
        # As every reader of a skill reaches it: a project's only inside the project, under the cap.
        data, st = read_skill_file(skill.path, inside=skill.inside)
    except EdgarError:
        return None, False, None  # not memoised: it may read next time
    # A file changed within SETTLE_NS of this read could change again without its stat moving.
    settled = max(st.st_mtime_ns, st.st_ctime_ns) < started - SETTLE_NS
    try:
        parsed = parse_skill(data.decode("utf-8"), str(skill.path))
    except (UnicodeDecodeError, EdgarError):
        return _stat_key(st), settled, None  # it loads nowhere, so it duplicates nothing
    description = parsed.data.get("description")
    words = skill_words(skill.name, description if isinstance(description, str) else "", parsed.body)
    return _stat_key(st), settled, words


def _storable(path: str) -> bool:
    if "\t" in path or "\n" in path or "\r" in path:
        return False
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:  # a file name that is not UTF-8 (surrogate escapes)
        return False
    return True


def _discovered(skills: Iterable[Skill]) -> list[tuple[Skill, str, str]]:
    """Each file once (a folder read through two scopes is one skill), with its path and stat."""
    seen: set[str] = set()
    found = []
    for skill in skills:
        path = skill.path
        if path in seen:
            continue
        seen.add(path)
        st = skill.stat
        if st is None:
            try:
                st = os.stat(skill.path)
            except OSError:
                continue  # gone: it loads nowhere
        found.append((skill, path, _stat_key(st)))
    return found


def _from_memo(found: list[tuple[Skill, str, str]], memo: _Memo) -> SimilarityIndex:
    """Every file is the memoised one, in order: the index is the memo's."""
    names, sizes = [], []
    for (skill, _, _), (_, _, size, _) in zip(found, memo.files, strict=True):
        if size is not None:
            names.append(skill.name)
            sizes.append(size)
    return SimilarityIndex.of_columns(names, memo.columns, sizes, memo.postings)


def _rebuilt(layout: Layout, found: list[tuple[Skill, str, str]], memo: _Memo | None) -> SimilarityIndex:
    """Something changed: keep what still matches the memo, read the rest, and write the memo anew."""
    known: dict[str, tuple[str, frozenset[str] | None, tuple[str, ...]]] = {}
    if memo is not None:
        words = memo.words_by_file()
        known = {path: (key, words.get(path), stemmed) for path, key, _, stemmed in memo.files}
    index = SimilarityIndex()
    keep: list[_Kept] = []
    for skill, path, key in found:
        entry = known.get(path)
        if entry is not None and entry[0] == key:
            _, word_set, parts = entry
            keep.append((path, key, skill.name, word_set, parts))
        else:
            read_key, settled, word_set = _read(skill)
            parts = name_parts(skill.name)
            if read_key is not None and settled and _storable(path):
                keep.append((path, read_key, skill.name, word_set, parts))
        if word_set is not None:
            index.add_words(skill.name, word_set, parts)
    changed = memo is None or [k[:2] for k in keep] != [f[:2] for f in memo.files]
    if changed and (keep or os.path.exists(layout.word_cache)):
        _save(layout, keep)
    return index


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

    The answer a `SimilarityIndex` of every file read now gives, with unchanged files
    taken from the memo, which is brought up to date afterwards when anything changed.
    """
    found = _discovered(skills)
    memo = _load(layout.word_cache)
    if memo is not None and [(p, k) for _, p, k in found] == [(p, k) for p, k, *_ in memo.files]:
        try:
            return _from_memo(found, memo).check(name, description, body, threshold)
        except _Corrupt:
            memo = None
    try:
        index = _rebuilt(layout, found, memo)
    except _Corrupt:
        index = _rebuilt(layout, found, None)
    return index.check(name, description, body, threshold)
