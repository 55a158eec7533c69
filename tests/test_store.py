"""The experience store: shape, session, verdict and skills; never the prompt."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from edgar_min.errors import BadInput
from edgar_min.learning.store import ExperienceStore, check_session
from edgar_min.learning.turn import parse_turn

TURN = parse_turn(
    {
        "prompt": "PROMPT-CANARY bump the pin",
        "tools": ["shell", "edit"],
        "verification": "passed",
        "skills": ["a-b"],
    }
)


def test_a_record_holds_the_shape_session_verdict_and_skills_but_not_the_prompt(tmp_path):
    store = ExperienceStore(tmp_path, host="box")
    store.record(TURN, "s-1", ["long"], now=0, offered=("c-d", "a-b"))
    (path,) = map(Path, store.files())
    text = path.read_text()
    assert path.relative_to(tmp_path).as_posix() == "turns/box/1970-01.tsv"
    assert text == "2\t1970-01-01T00:00:00Z\ts-1\tmain:shell>edit\tpassed\ta-b\tc-d,a-b\tlong\n"
    assert "CANARY" not in text
    found = store.scan()
    assert (found.turns, found.torn, found.newest) == (1, 0, "1970-01-01T00:00:00Z")
    assert dict(found.combos) == {b"main:shell>edit\tpassed\ta-b": 1}
    assert dict(found.offers) == {b"c-d,a-b": 1}
    assert found.last_used == {"a-b": "1970-01-01T00:00:00Z"}


def test_lines_written_before_offers_were_kept_apart_are_still_read(tmp_path):
    store = ExperienceStore(tmp_path, host="box")
    (tmp_path / "turns" / "box").mkdir(parents=True)
    old = "1\t1970-01-01T00:00:00Z\ts-0\tmain:shell\tfailed\ta-b\t-\n"
    (tmp_path / "turns" / "box" / "1970-01.tsv").write_text(old * 2)
    store.record(TURN, "s-1", now=60)
    store.record(TURN, "s-2", now=120, offered=("a-b",))
    found = store.scan()
    assert (found.turns, found.torn) == (4, 0)
    assert dict(found.combos) == {b"main:shell\tfailed\ta-b": 2, b"main:shell>edit\tpassed\ta-b": 2}
    assert dict(found.offers) == {b"-": 1, b"a-b": 1}  # a line of version 1 offered nothing it knew of
    assert found.turns_after("1970-01-01T00:00:30Z") == 2  # the times stay in file order
    # Read again in blocks too small for a whole run of one version: the same counts.
    small = store.scan(block=40)
    assert (small.combos, small.offers) == (found.combos, found.offers)


def test_a_torn_last_line_is_skipped_and_counted(tmp_path):
    store = ExperienceStore(tmp_path, host="box")
    store.record(TURN, "s-1", now=0)
    store.record(TURN, "s-2", now=0)
    (path,) = map(Path, store.files())
    with path.open("ab") as handle:
        handle.write(b"2\t1970-01-01T00:00:00Z\ts-3\tmain:she")  # a crash mid-write
    found = store.scan()
    assert (found.turns, found.torn) == (2, 1)


def test_garbage_lines_are_skipped(tmp_path):
    store = ExperienceStore(tmp_path, host="box")
    store.record(TURN, "s-1", now=0)
    (path,) = map(Path, store.files())
    with path.open("ab") as handle:
        handle.write(b"not a record\n\xff\xfe\n")
    store.record(TURN, "s-2", now=0)
    found = store.scan()
    assert (found.turns, found.torn) == (2, 2)


def test_repeats_counts_distinct_sessions_and_stops_early(tmp_path):
    store = ExperienceStore(tmp_path, host="box")
    for i in range(50):
        store.record(TURN, f"s-{i % 10}")
    assert store.repeats(TURN.shape) == 10
    assert store.repeats(TURN.shape, exclude_session="s-3") == 9
    assert store.repeats(TURN.shape, enough=3) == 3
    assert store.repeats("main:other") == 0


def test_markers_stop_at_the_cap_but_the_count_stays_true_enough(tmp_path):
    from edgar_min.learning.store import MARKER_CAP

    store = ExperienceStore(tmp_path, host="box")
    for i in range(MARKER_CAP + 20):
        store.record(TURN, f"s-{i}")
    (shape_dir,) = (tmp_path / "shapes").iterdir()
    assert len(list(shape_dir.iterdir())) == MARKER_CAP
    assert store.repeats(TURN.shape, exclude_session="s-0") >= MARKER_CAP - 1
    assert store.repeats(TURN.shape, exclude_session="new", enough=3) == 3
    assert store.scan().turns == MARKER_CAP + 20


def test_hosts_write_separate_files_so_copies_merge(tmp_path):
    ExperienceStore(tmp_path, host="laptop").record(TURN, "a")
    ExperienceStore(tmp_path, host="desktop").record(TURN, "b")
    assert [Path(p).parent.name for p in ExperienceStore(tmp_path).files()] == ["desktop", "laptop"]
    assert ExperienceStore(tmp_path).repeats(TURN.shape) == 2


@pytest.mark.parametrize("bad", ["", "a b", "a\tb", "a\nb", "../x", "x" * 200, "-x", "é"])
def test_unusable_session_ids_are_refused(bad):
    with pytest.raises(BadInput, match="session id"):
        check_session(bad)


def _append_many(folder: str, worker: int, count: int) -> None:
    store = ExperienceStore(__import__("pathlib").Path(folder), host="shared")
    turn = parse_turn({"prompt": "x", "tools": ["shell"], "verification": "passed"})
    for i in range(count):
        store.record(turn, f"w{worker}-s{i % 7}", ["long"])


@pytest.mark.slow
def test_eight_processes_appending_at_once_lose_and_tear_nothing(tmp_path):
    count = 2000
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_append_many, args=(str(tmp_path), w, count)) for w in range(8)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    store = ExperienceStore(tmp_path)
    found = store.scan()
    assert (found.turns, found.torn) == (8 * count, 0)
    per_worker = {}
    # An append that saw another's line half written puts a newline first: an empty line at most.
    for path in map(Path, store.files()):
        for line in filter(None, path.read_bytes().split(b"\n")[:-1]):
            worker = line.split(b"\t")[2].split(b"-")[0].decode()
            per_worker[worker] = per_worker.get(worker, 0) + 1
    assert per_worker == {f"w{w}": count for w in range(8)}
    assert store.repeats("main:shell") == 8 * 7
    # Every line is whole: eight tab-separated fields and a newline.
    for path in map(Path, store.files()):
        for line in filter(None, path.read_bytes().split(b"\n")[:-1]):
            assert line.count(b"\t") == 7, line
    assert os.listdir(tmp_path / "turns") == ["shared"]


def test_marker_names_are_the_ones_earlier_versions_wrote(tmp_path):
    # Folder and file names carry a SHA-1 prefix; stores written before keep counting the same.
    import hashlib

    store = ExperienceStore(tmp_path, host="h")
    store.record(parse_turn({"prompt": "x", "tools": ["shell", "edit"], "verification": "passed"}), "s:1")
    shape = "main:shell>edit"
    expected_dir = f"main-shell-edit.{hashlib.sha1(shape.encode()).hexdigest()[:10]}"
    expected_file = f"s-1.{hashlib.sha1(b's:1').hexdigest()[:10]}"
    assert os.listdir(tmp_path / "shapes") == [expected_dir]
    assert os.listdir(tmp_path / "shapes" / expected_dir) == [expected_file]


@given(st.text(alphabet="aZ09._-:@ !\n\u00e9/", max_size=140))
@settings(max_examples=500, deadline=None)
def test_the_session_rule_and_file_names_say_what_their_patterns_say(text):
    """Both run on every turn as string operations; these patterns are what they promise."""
    import re

    from edgar_min.learning.sessions import is_session
    from edgar_min.learning.store import _slug

    assert is_session(text) == bool(re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}", text))
    readable = re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.")[:60] or "x"
    assert _slug(text).startswith(readable)
