"""JSON Lines logs: one row per line, torn or garbage lines counted, and one timestamp format."""

from __future__ import annotations

import json
from pathlib import Path

from edgar_min.logfile import append_row, read_rows, timestamp


def test_timestamp_is_utc_iso_and_compact():
    assert timestamp(0) == "1970-01-01T00:00:00Z"
    assert timestamp(1_790_000_000, compact=True) == "20260921T141320Z"


def test_rows_round_trip_and_bad_lines_are_counted_by_number(tmp_path):
    log = tmp_path / ".edgar" / "log.jsonl"
    append_row(log, {"a": 1, "text": "naïve"}, root=tmp_path)
    append_row(log, {"a": 2}, root=tmp_path)
    with log.open("ab") as handle:
        handle.write(b"not json\n" + b"[" * 100_000 + b"\n" + b"[1, 2]\n" + b'{"torn": ')
    read = read_rows(log)
    assert read.rows == [{"a": 1, "text": "naïve"}, {"a": 2}]
    assert read.bad == [3, 4, 5, 6]


def test_a_lone_surrogate_is_logged_escaped_not_crashed_on(tmp_path):
    log = tmp_path / "log.jsonl"
    append_row(log, {"id": "\ud800"}, root=tmp_path)
    assert log.read_bytes() == b'{"id":"\\ud800"}\n'
    assert json.loads(log.read_text()) == {"id": "\ud800"}


def test_a_missing_log_reads_as_empty(tmp_path):
    read = read_rows(tmp_path / "none.jsonl")
    assert (read.rows, read.bad) == ([], [])


def _within(seconds, work):
    """Run `work` in a thread; its result, or a failure if it has not finished (a read that never ends)."""
    import threading

    done = []
    thread = threading.Thread(target=lambda: done.append(work()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert done, "did not finish: it is reading something that never ends"
    return done[0]


def test_a_log_that_is_a_device_or_a_fifo_is_not_read(tmp_path):
    import os

    (tmp_path / "zero.jsonl").symlink_to("/dev/zero")
    os.mkfifo(tmp_path / "fifo.jsonl")
    for name in ("zero.jsonl", "fifo.jsonl"):
        read = _within(10, lambda name=name: read_rows(tmp_path / name))
        assert read.not_a_file
        assert read.rows == []


def test_commands_that_read_logs_finish_when_a_checkout_links_them_to_dev_zero(edgar, tmp_path):
    edgar_dir = tmp_path / ".edgar"
    (edgar_dir / "decisions").mkdir(parents=True)
    for log in ("ledger.jsonl", "rejections.jsonl", "decisions/2026-01-01.h.jsonl"):
        (edgar_dir / log).symlink_to("/dev/zero")
    doctor = _within(60, lambda: edgar("--root", str(tmp_path), "doctor"))
    assert "ledger.jsonl is a symbolic link (to /dev/zero)" in doctor.out
    log = _within(60, lambda: edgar("--root", str(tmp_path), "skills", "log"))
    assert log.code == 0
    export = _within(60, lambda: edgar("--root", str(tmp_path), "decisions", "export"))
    assert "not a plain file (skipped)" in export.err


def test_learning_finishes_when_the_word_cache_is_linked_to_dev_zero(edgar, tmp_path):
    import json

    from edgar_min.layout import Layout, user_home

    cache = Path(Layout(tmp_path, user_home()).word_cache)
    cache.parent.mkdir(parents=True)
    cache.symlink_to("/dev/zero")
    turn = tmp_path / "turn.json"
    turn.write_text(json.dumps({"prompt": "bump the pin", "tools": ["shell"] * 6, "verification": "passed"}))
    result = _within(60, lambda: edgar("--root", str(tmp_path), "learn", str(turn)))
    assert result.code == 0, result
    assert cache.is_symlink()
