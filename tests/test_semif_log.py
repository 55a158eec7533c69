"""The decision log: rows, one file per host per day, merge by copying, relabel, chat export."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from edgar_min.config import load_config
from edgar_min.errors import BadInput, NotFound
from edgar_min.layout import Layout
from edgar_min.semif import decide
from edgar_min.semif.log import DecisionLog, chat_rows, host_name
from edgar_min.semif.prompt import SYSTEM

OPTIONS = [("email", "write an email"), ("calendar", "schedule a meeting"), ("none", "none of these")]


@pytest.fixture
def layout(tmp_path, _isolated_home):
    return Layout(tmp_path, _isolated_home)


def test_decide_appends_one_full_row(layout):
    config = load_config(layout)
    result = decide(
        layout, config, "set up a meeting friday", "Which category?", OPTIONS, phase="test", run_id="r-1"
    )
    files = list(Path(layout.decisions).glob("*.jsonl"))
    assert len(files) == 1
    assert files[0].name.endswith(f".{host_name()}.jsonl")
    rows = [json.loads(x) for x in files[0].read_text().splitlines()]
    assert len(rows) == 1
    row = rows[0]
    assert row["id"] == result.request.id
    assert row["phase"] == "test"
    assert row["run_id"] == "r-1"
    assert [o["id"] for o in row["options"]] == ["email", "calendar", "none"]
    assert row["selected"] == result.selected == "calendar"
    assert row["engine"] == "lexical"
    assert row["model"] == "bm25"
    assert row["prompt_hash"].startswith("sha256:")
    assert len(row["probabilities"]) == 3
    for key in ("time", "state", "question", "latency_ms"):
        assert key in row


def test_logs_from_two_machines_merge_by_copying_files(tmp_path):
    a, b = DecisionLog(tmp_path / "a", host="alpha"), DecisionLog(tmp_path / "b", host="beta")
    layout = Layout(tmp_path, tmp_path)
    config = load_config(layout)
    from edgar_min.semif import LoggedEngine, get_engine
    from edgar_min.semif.types import DecisionRequest

    for log in (a, b):
        LoggedEngine(get_engine(config.semif), log).call(DecisionRequest("s", "q", OPTIONS))
        log.relabel(log.read().rows[0]["id"], "email", "human")
    merged = tmp_path / "merged"
    for src in (a.folder, b.folder):
        shutil.copytree(src, merged, dirs_exist_ok=True)
    read = DecisionLog(merged, host="gamma").read()
    assert len(read.rows) == 2
    assert all(r["observed_outcome"] == "email" and r["label_source"] == "human" for r in read.rows)


def test_relabel_latest_label_wins_and_unknown_ids_are_refused(layout):
    config = load_config(layout)
    result = decide(layout, config, "draft an email", "Which?", OPTIONS)
    log = DecisionLog.of(layout)
    log.relabel(result.request.id, "wrong", "self")
    log.relabel(result.request.id, "calendar", "human")
    (row,) = log.read().rows
    assert (row["observed_outcome"], row["label_source"]) == ("calendar", "human")
    with pytest.raises(NotFound, match="no decision with id"):
        log.relabel("d-nope", "x")
    with pytest.raises(BadInput, match="label source must be one of self, human"):
        log.relabel(result.request.id, "x", "robot")


def test_chat_export_shows_the_prompt_and_the_letter(layout):
    config = load_config(layout)
    first = decide(layout, config, "draft an email to bob", "Which?", OPTIONS)
    second = decide(layout, config, "draft an email to bob", "Which?", OPTIONS)
    DecisionLog.of(layout).relabel(second.request.id, "calendar")  # a corrected label
    examples, problems = chat_rows(DecisionLog.of(layout).read().rows)
    assert problems == []
    by_letter = [e["messages"][2]["content"] for e in examples]
    assert first.selected == "email"
    assert sorted(by_letter) == ["A", "B"]
    messages = examples[0]["messages"]
    assert messages[0] == {"role": "system", "content": SYSTEM}
    assert "A. email: write an email" in messages[1]["content"]
    assert "Criterion: Which?" in messages[1]["content"]


def test_a_broken_line_is_skipped_with_a_problem(layout):
    config = load_config(layout)
    decide(layout, config, "s", "q", OPTIONS)
    path = next(Path(layout.decisions).glob("*.jsonl"))
    with path.open("a") as f:
        f.write('{"id": "d-trunc", "sta\n')
    read = DecisionLog.of(layout).read()
    assert len(read.rows) == 1
    assert len(read.problems) == 1
    assert "not a JSON row" in read.problems[0]


@given(st.text(alphabet="aZ09_-. \t\u00e9!", max_size=80))
@settings(max_examples=400, deadline=None)
def test_a_host_name_is_made_safe_as_its_pattern_says(raw):
    import os
    import re
    from unittest import mock

    from edgar_min.semif.log import host_name

    with mock.patch.object(os, "uname", return_value=mock.Mock(nodename=raw)):
        got = host_name()
    assert got == (re.sub(r"[^A-Za-z0-9_-]+", "-", raw).strip("-")[:64] or "host")


def test_a_label_a_person_typed_is_kept_redacted(layout):
    config = load_config(layout)
    result = decide(layout, config, "draft an email", "Which?", OPTIONS)
    label = DecisionLog.of(layout).relabel(result.request.id, "it worked with DB_PASS=Hunter2Horse \x1b[2J")
    assert label["observed_outcome"] == "it worked with DB_PASS=[REDACTED] "
    kept = "".join(p.read_text() for p in Path(layout.decisions).rglob("*.jsonl"))
    assert "Hunter2Horse" not in kept
    assert "\\u001b" not in kept
