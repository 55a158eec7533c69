"""The word memo: the same near-duplicate decisions as reading every file, and never a stale one."""

from __future__ import annotations

import random
import shutil
import zlib
from pathlib import Path

import pytest
from conftest import tree_snapshot
from skillfiles import write_skill
from test_similarity import DISTINCT, DUPLICATES, body

from edgar_min.errors import EdgarError
from edgar_min.layout import Layout
from edgar_min.learning import wordcache
from edgar_min.learning.similarity import NearDuplicate, SimilarityIndex
from edgar_min.learning.wordcache import near_duplicate
from edgar_min.learning.writer import Draft, Provenance, Target, write_learned
from edgar_min.skills.discovery import discover


@pytest.fixture
def layout(tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    return Layout(root, tmp_path / "home")


@pytest.fixture
def settled(monkeypatch):
    """Treat files as settled at once, so tests need not wait two seconds before a file is cached."""
    monkeypatch.setattr(wordcache, "SETTLE_NS", 0)


@pytest.fixture
def reads(monkeypatch):
    """Count the SKILL.md files the check reads (the real reader still does the reading)."""
    seen: list[str] = []
    real = wordcache._read

    def counting(skill):
        seen.append(skill.name)
        return real(skill)

    monkeypatch.setattr(wordcache, "_read", counting)
    return seen


def existing(layout):
    index = discover(layout)
    return [*index.skills.values(), *(loser for loser, _ in index.shadowed)]


def check(layout, new):
    return near_duplicate(layout, existing(layout), new[0], new[1], body(new[2]))


def reference(layout, new):
    """The decision without any memo: every file read and tokenised (unreadable ones load nowhere)."""
    index = SimilarityIndex()
    for skill in existing(layout):
        try:
            parsed = skill.frontmatter()
        except EdgarError:
            continue
        description = parsed.data.get("description")
        index.add(skill.name, description if isinstance(description, str) else "", parsed.body)
    return index.check(new[0], new[1], body(new[2]))


NEW_SKILLS = (
    [b for _, b in DUPLICATES]
    + [b for _, b in DISTINCT]
    + [
        ("bump-pin", "Something else entirely about cooking rice.", "1. Boil water."),
        ("pinbump", "Boil rice.", "1. Boil water."),
        ("lockfilerefresh", "Boil rice.", "1. Boil water."),
        ("cook-rice", "Boil rice for dinner.", "1. Boil water.\n2. Add rice."),
    ]
)


def fill(layout):
    for a, _ in DUPLICATES + DISTINCT:
        write_skill(layout.skills, a[0], a[1], body(a[2]))
    write_skill(layout.user_skills, "pin-bump", "Bump a version pin.", body("1. Change the pin."))
    write_skill(layout.learned, "refresh-lock-file", "Refresh the lock file.", body("1. Relock."))
    write_skill(layout.learned, "pin-bump-with-lockfile", "Shadowed by the person's.", body("1. Pin."))
    # A file that does not read as a skill loads nowhere, so it duplicates nothing.
    (Path(layout.skills) / "broken").mkdir()
    (Path(layout.skills) / "broken" / "SKILL.md").write_text("no frontmatter: pin bump lock file")


@pytest.mark.usefixtures("settled")
@pytest.mark.parametrize("new", NEW_SKILLS, ids=[n[0] for n in NEW_SKILLS])
def test_cold_and_warm_decide_as_reading_every_file_does(layout, reads, new):
    fill(layout)
    want = reference(layout, new)
    assert check(layout, new) == want  # cold: no cache file yet
    assert Path(layout.word_cache).is_file()
    reads.clear()
    assert check(layout, new) == want  # warm
    assert reads == []  # nothing unchanged was read again


def test_the_decisions_match_on_realistic_pairs(layout):
    """The pairs of test_similarity: every duplicate caught, every distinct pair passed, cache or not."""
    for a, _ in DUPLICATES:
        write_skill(layout.skills, a[0], a[1], body(a[2]))
    for _, b in DUPLICATES:
        match = check(layout, b)
        assert match is not None
        assert match.existing in {a[0] for a, _ in DUPLICATES}
        assert match == reference(layout, b)
    shutil.rmtree(layout.skills)
    for a, _ in DISTINCT[:1]:
        write_skill(layout.skills, a[0], a[1], body(a[2]))
    assert check(layout, DISTINCT[0][1]) is None


@pytest.mark.usefixtures("settled")
def test_many_skills_warm_and_cold_agree_and_a_tie_goes_to_the_first(layout):
    rng = random.Random(5)  # noqa: S311 - fixed test data, not a secret
    vocab = [f"word{i}" for i in range(300)]
    for i in range(300):
        procedure = "\n".join(f"{k}. " + " ".join(rng.choices(vocab, k=6)) + "." for k in range(1, 4))
        write_skill(
            layout.skills, f"task-{i}-{rng.choice(vocab)}", " ".join(rng.choices(vocab, k=8)), body(procedure)
        )
    # Two skills with the same words: the one discovered first must be named, as without a cache.
    for name in ("twin-alpha", "twin-beta"):
        write_skill(layout.skills, name, "Identical twin words here.", body("1. Mirror mirror."))
    news = [
        (f"new-{i}", " ".join(rng.choices(vocab, k=8)), "1. " + " ".join(rng.choices(vocab, k=10)) + ".")
        for i in range(40)
    ]
    news.append(("twin-gamma", "Identical twin words here.", "1. Mirror mirror."))
    wanted = [reference(layout, new) for new in news]
    assert any(w is not None for w in wanted)
    assert wanted[-1].existing == "twin-alpha"
    assert [check(layout, new) for new in news] == wanted
    assert [check(layout, new) for new in news] == wanted


@pytest.mark.usefixtures("settled")
def test_an_edited_skill_is_read_again(layout, reads):
    a, b = DUPLICATES[0]
    path = write_skill(layout.skills, a[0], "Boil rice for dinner.", body("1. Boil water.\n2. Add rice."))
    assert check(layout, b) is None
    path.write_text(f"---\nname: {a[0]}\ndescription: {a[1]}\n---\n\n{body(a[2])}")
    reads.clear()
    match = check(layout, b)
    assert match is not None
    assert match.existing == a[0]
    assert reads == [a[0]]


def test_an_edit_that_keeps_the_size_within_the_settle_time_is_seen(layout):
    """A file too new to trust its stat is not cached: a same-size edit right after is still read."""
    a, b = DUPLICATES[0]
    text = f"---\nname: {a[0]}\ndescription: {a[1]}\n---\n\n{body(a[2])}"
    path = write_skill(layout.skills, a[0], a[1], body(a[2]))
    assert check(layout, b) is not None
    assert not Path(layout.word_cache).exists()  # just written: not trusted to the cache yet
    # The same length, none of the words: mtime may not even move within one clock tick.
    path.write_text(
        text[: text.index("\n\n")] + "\n\n" + "".join("z" if c.isalpha() else c for c in body(a[2]))
    )
    assert len(path.read_text()) == len(text)
    assert check(layout, b) is None
    assert reference(layout, b) is None


@pytest.mark.usefixtures("settled")
def test_a_deleted_skill_no_longer_matches_and_leaves_the_cache(layout):
    a, b = DUPLICATES[1]
    write_skill(layout.skills, a[0], a[1], body(a[2]))
    write_skill(layout.skills, "cook-rice", "Boil rice for dinner.", body("1. Boil water."))
    assert check(layout, b).existing == a[0]
    assert a[0] in Path(layout.word_cache).read_text()
    shutil.rmtree(Path(layout.skills) / a[0])
    assert check(layout, b) is None
    assert a[0] not in Path(layout.word_cache).read_text()
    assert "cook-rice" in Path(layout.word_cache).read_text()


def _forged(text: str, change) -> str:
    """The memo with its lines changed by `change` and a checksum that matches again."""
    head, _, rest = text.split("\n", 2)
    lines = rest.split("\n")
    change(lines)  # the file count, one line per file, then one line per word
    rest = "\n".join(lines)
    return f"{head}\n{zlib.crc32(rest.encode()):08x}\n{rest}"


def _corruptions(text: str) -> list[tuple[str, str | bytes]]:
    head, crc, rest = text.split("\n", 2)

    def every_word_line(lines):
        count = int(lines[0])
        lines[1 + count : -1] = [line.split("\t")[0] + "\t99999 -3 x" for line in lines[1 + count : -1]]

    def a_short_file_line(lines):
        lines[1] = lines[1].rsplit("\t", 1)[0]

    return [
        ("torn", text[: len(text) // 2]),
        ("empty", ""),
        ("garbage", b"\xff\xfe\x00garbage\n\x00\n"),
        ("foreign version", text.replace("skill-words 3", "skill-words 99", 1)),
        ("other normalisation", f"{head[:-8]}00000000\n{crc}\n{rest}"),
        ("bit flip", text.replace("\t", " ", 1)),
        ("forged postings", _forged(text, every_word_line)),
        ("forged short file line", _forged(text, a_short_file_line)),
        ("forged word line without a tab", _forged(text, lambda lines: lines.insert(-1, "word"))),
        ("forged count", _forged(text, lambda lines: lines.__setitem__(0, "99999"))),
    ]


@pytest.mark.usefixtures("settled")
@pytest.mark.parametrize("kind", range(10))
def test_a_corrupt_cache_is_rebuilt_and_the_decision_is_still_right(layout, kind):
    fill(layout)
    _, b = DUPLICATES[2]
    want = reference(layout, b)
    assert want is not None
    check(layout, b)
    label, broken = _corruptions(Path(layout.word_cache).read_text())[kind]
    if isinstance(broken, bytes):
        Path(layout.word_cache).write_bytes(broken)
    else:
        Path(layout.word_cache).write_text(broken)
    assert check(layout, b) == want, label
    rebuilt = wordcache._load(layout.word_cache)
    assert rebuilt is not None, label
    assert len(rebuilt.files) == len({s.path for s in existing(layout)}), label  # every file memoised again
    assert check(layout, DISTINCT[0][1]) == reference(layout, DISTINCT[0][1])


def test_a_cache_that_cannot_be_written_is_no_error(layout):
    a, b = DUPLICATES[0]
    write_skill(layout.skills, a[0], a[1], body(a[2]))
    Path(layout.cache).parent.mkdir(parents=True, exist_ok=True)
    Path(layout.cache).write_text("a file where the folder should be")
    assert check(layout, b).existing == a[0]


@pytest.mark.usefixtures("settled")
def test_the_writer_writes_nothing_outside_edgar_and_only_the_cache_on_a_refusal(layout):
    fill(layout)
    outside = Path(layout.root).parent
    before = tree_snapshot(outside)
    a, b = DUPLICATES[3]
    with pytest.raises(NearDuplicate) as caught:
        write_learned(layout, Draft(b[0], b[1], body(b[2])), Provenance("s-1", ("long",)), Target("proposal"))
    assert caught.value.existing == a[0]
    after = tree_snapshot(outside)
    changed = {p for p in after.keys() | before.keys() if after.get(p) != before.get(p)}
    # The cache is in the person's state folder, outside the project: nothing in the tree changed.
    assert changed == {str(Path(layout.word_cache).relative_to(outside))}
    # The cache holds the words and name keys SKILL.md files hold, nothing else of theirs.
    cached = Path(layout.word_cache).read_text()
    assert "Add a schema migration" not in cached
    assert "migrat" in cached


def test_the_cache_is_kept_outside_the_project(layout, settled):
    a, b = DUPLICATES[0]
    write_skill(layout.skills, a[0], a[1], body(a[2]))
    check(layout, b)
    assert Path(layout.word_cache).is_file()
    assert not Path(layout.word_cache).is_relative_to(layout.root)
    assert not (Path(layout.root) / ".edgar" / "cache").exists()
