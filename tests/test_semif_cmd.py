"""`edgar decide`, `edgar decisions export`, `edgar decisions relabel`, in-process."""

from __future__ import annotations

import json

from conftest import tree_snapshot


def decide_args(tmp_path, *options, state="book a meeting on friday", question="Which?"):
    args = ["--root", str(tmp_path), "--json", "decide", "--state", state, "--question", question]
    for option in options:
        args += ["--option", option]
    return args


def test_decide_json(edgar, tmp_path):
    r = edgar(*decide_args(tmp_path, "email=write an email", "calendar=schedule a meeting", "none"))
    assert r.code == 0, r
    doc = r.json()
    assert doc["selected"] == "calendar"
    assert doc["option_ids"] == ["email", "calendar", "none"]
    assert abs(sum(doc["probabilities"]) - 1) < 1e-9
    assert doc["engine"] == "lexical"
    assert len(list((tmp_path / ".edgar" / "decisions").glob("*.jsonl"))) == 1


def test_decide_text_marks_the_choice(edgar, tmp_path):
    r = edgar(
        "--root",
        str(tmp_path),
        "decide",
        "--state",
        "s mail",
        "--question",
        "q",
        "--option",
        "mail=send mail",
    )
    assert r.code == 0
    assert "* mail" in r.out
    assert "selected mail (engine lexical; uncalibrated)" in r.out


def test_seventeen_options_exit_2_and_write_nothing(edgar, tmp_path):
    before = tree_snapshot(tmp_path)
    r = edgar(*decide_args(tmp_path, *[f"o{i}" for i in range(17)]))
    assert r.code == 2
    assert "at most 16 options (letters A-P); 17 were given" in r.err
    assert r.json()["exit_code"] == 2
    assert "Traceback" not in r.err
    assert tree_snapshot(tmp_path) == before


def test_duplicate_and_empty_ids_exit_2(edgar, tmp_path):
    r = edgar(*decide_args(tmp_path, "a=x", "a=y"))
    assert (r.code, "option id 'a' is given twice" in r.err) == (2, True)
    r = edgar(*decide_args(tmp_path, "=no id"))
    assert r.code == 2
    assert "the option id before '=' may not be empty" in r.err
    r = edgar(*decide_args(tmp_path, "a", state=" "))
    assert r.code == 2
    assert "non-empty state" in r.err
    assert not (tmp_path / ".edgar").exists()


def test_decide_needs_an_option(edgar, tmp_path):
    r = edgar("--root", str(tmp_path), "decide", "--state", "s", "--question", "q")
    assert r.code == 2
    assert "--option" in r.err


def test_export_rows_chat_and_relabel(edgar, tmp_path):
    edgar(*decide_args(tmp_path, "email=write an email", "calendar=schedule a meeting"))
    rows = [json.loads(x) for x in edgar("--root", str(tmp_path), "decisions", "export").out.splitlines()]
    assert len(rows) == 1
    decision_id = rows[0]["id"]
    r = edgar(
        "--root",
        str(tmp_path),
        "decisions",
        "relabel",
        decision_id,
        "--outcome",
        "email",
        "--source",
        "human",
    )
    assert r.code == 0, r
    assert f"labelled {decision_id}: email (human)" in r.out
    out = tmp_path / "train.jsonl"
    r = edgar("--root", str(tmp_path), "decisions", "export", "--format", "chat", "--out", str(out))
    assert r.code == 0, r
    (example,) = [json.loads(x) for x in out.read_text().splitlines()]
    assert [m["role"] for m in example["messages"]] == ["system", "user", "assistant"]
    assert example["messages"][2]["content"] == "A"  # the human label (email) overrides the selection


def test_relabel_unknown_id_is_exit_1(edgar, tmp_path):
    r = edgar("--root", str(tmp_path), "decisions", "relabel", "d-missing", "--outcome", "x")
    assert r.code == 1
    assert "no decision with id 'd-missing'" in r.err


def test_relabel_bad_source_is_usage_error(edgar, tmp_path):
    r = edgar("--root", str(tmp_path), "decisions", "relabel", "d-1", "--outcome", "x", "--source", "robot")
    assert r.code == 2
    assert "invalid choice" in r.err
