"""`edgar decide`, `edgar decisions export`, `edgar decisions relabel`, in-process."""

from __future__ import annotations

import json

import pytest
from conftest import state_of, tree_snapshot


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


def many_args(tmp_path, *asked, state="charged twice for the invoice and the export times out", json=True):
    args = ["--root", str(tmp_path), *(["--json"] if json else []), "decide", "--state", state]
    for kind, value in asked:
        args += [f"--{kind}", value]
    return args


TRIAGE = (
    ("question", "Which team?"), ("option", "billing=payments and invoices"), ("option", "technical=bugs"),
    ("question", "What failed?"), ("option", "export=the export times out"), ("option", "login"),
    ("option", "none"),
)  # fmt: skip


def decision_rows(root):
    return [
        json.loads(x)
        for path in sorted((root / ".edgar" / "decisions").glob("*.jsonl"))
        for x in path.read_text().splitlines()
    ]


def test_several_questions_give_one_result_each_under_one_run_id(edgar, tmp_path):
    r = edgar(*many_args(tmp_path, *TRIAGE))
    assert r.code == 0, r
    doc = r.json()
    ids = [x["option_ids"] for x in doc["results"]]
    assert ids == [["billing", "technical"], ["export", "login", "none"]]
    assert [x["selected"] for x in doc["results"]] == ["billing", "export"]
    rows = decision_rows(tmp_path)
    assert [row["id"] for row in rows] == [x["id"] for x in doc["results"]]
    assert {row["run_id"] for row in rows} == {doc["run_id"]}


def test_several_questions_in_text_name_each_question(edgar, tmp_path):
    r = edgar(*many_args(tmp_path, *TRIAGE, json=False))
    assert r.code == 0, r
    assert r.out.splitlines()[0] == "question 1: Which team?"
    assert "question 2: What failed?" in r.out
    assert "* export" in r.out
    assert r.out.rstrip().endswith(f"2 decisions logged under run {decision_rows(tmp_path)[0]['run_id']}")


def test_one_question_keeps_its_options_wherever_they_stand(edgar, tmp_path):
    # As decide always took them: with a single --question, an --option before it is still its own.
    r = edgar(*many_args(tmp_path, ("option", "mail=send mail"), ("question", "q"), ("option", "none")))
    assert r.code == 0, r
    assert r.json()["option_ids"] == ["mail", "none"]
    assert "results" not in r.json()


@pytest.mark.parametrize(
    ("asked", "sentence"),
    [
        ((("option", "a"), ("question", "A?"), ("question", "B?"), ("option", "b")),
         "--option 'a' comes before any --question"),
        ((("question", "A?"), ("option", "a"), ("question", "B?"), *[("option", f"o{i}") for i in range(17)]),
         "question 2 ('B?'): a decision takes at most 16 options (letters A-P); 17 were given"),
        ((("question", "A?"), ("option", "a"), ("question", "B?"), ("option", "b"), ("option", "b")),
         "question 2 ('B?'): option id 'b' is given twice"),
        ((("question", "A?"), ("option", "a"), ("question", " "), ("option", "b")),
         "question 2: a decision needs a non-empty question"),
        ((("question", "A?"), ("option", "a"), ("question", "B?")),
         "question 2 ('B?') has no --option"),
        ((("question", "A?"),), "decide needs --question and at least one --option"),
    ],
)  # fmt: skip
def test_bad_questions_exit_2_name_the_question_and_write_nothing(edgar, tmp_path, asked, sentence):
    before = tree_snapshot(tmp_path)
    r = edgar(*many_args(tmp_path, *asked))
    assert r.code == 2, r
    assert sentence in r.json()["error"]
    assert "Traceback" not in r.err
    assert tree_snapshot(tmp_path) == before


def test_questions_from_a_jsonl_file(edgar, tmp_path):
    path = tmp_path / "questions.jsonl"
    path.write_text(
        '{"question": "Which team?", "options": ["billing=payments", "technical=bugs"], "id": "d-team"}\n'
        '{"question": "Refund?", "options": [{"id": "yes", "description": "refund asked"}, {"id": "no"}]}\n'
    )
    r = edgar(*many_args(tmp_path), "--questions", str(path))
    assert r.code == 0, r
    doc = r.json()
    assert next(x["id"] for x in doc["results"]) == "d-team"
    assert [x["option_ids"] for x in doc["results"]] == [["billing", "technical"], ["yes", "no"]]
    assert len(decision_rows(tmp_path)) == 2


def test_questions_from_stdin(edgar, tmp_path, monkeypatch):
    import io

    text = '{"question": "Refund?", "options": ["yes", "no"]}\n'
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    r = edgar(*many_args(tmp_path), "--questions", "-")
    assert r.code == 0, r
    assert len(r.json()["results"]) == 1


@pytest.mark.parametrize(
    ("content", "sentence"),
    [
        ('{"question": "A?", "options": ["a"]}\n{oops\n', "--questions {path} line 2: not a JSON object"),
        ('{"question": "A?", "options": ["a", "a"]}\n', "question 1 ('A?'): option id 'a' is given twice"),
        (None, "--questions {path}: no such file"),
        (b"\xff\xfe", "--questions {path}: not UTF-8 text"),
    ],
)
def test_a_bad_questions_file_exits_2_and_writes_nothing(edgar, tmp_path, content, sentence):
    path = tmp_path / "q.jsonl"
    if isinstance(content, str):
        path.write_text(content)
    elif content is not None:
        path.write_bytes(content)
    before = tree_snapshot(tmp_path)
    r = edgar(*many_args(tmp_path), "--questions", str(path))
    assert r.code == 2, r
    assert sentence.format(path=path) in r.json()["error"]
    assert tree_snapshot(tmp_path) == before


def test_questions_file_and_flags_together_are_refused(edgar, tmp_path):
    path = tmp_path / "q.jsonl"
    path.write_text('{"question": "A?", "options": ["a"]}\n')
    r = edgar(*many_args(tmp_path, ("question", "B?"), ("option", "b")), "--questions", str(path))
    assert r.code == 2
    assert "not both" in r.err


def test_a_persons_label_of_a_suggest_decision_teaches_routing(edgar, tmp_path):
    from suggestfiles import write_skills

    write_skills(tmp_path / ".claude" / "skills")
    said = "thanks, the merged pdf works perfectly"
    doc = edgar("--root", str(tmp_path), "--json", "skills", "suggest", said).json()
    assert doc["skills"][0]["name"] == "pdf"  # a thank-you handed a shortlist, pdf first
    # A label the engine gave itself teaches nothing.
    r = edgar(
        "--root",
        str(tmp_path),
        "decisions",
        "relabel",
        doc["decision_id"],
        "--outcome",
        "none",
        "--source",
        "self",
    )
    assert r.code == 0, r
    assert "routing learns" not in r.out
    assert not (state_of(tmp_path) / "routing-examples.jsonl").exists()
    r = edgar(
        "--root", str(tmp_path), "--json", "decisions", "relabel", doc["decision_id"], "--outcome", "none"
    )
    assert r.code == 0, r
    assert r.json()["taught"] == {"skill": "none", "text": said}
    again = edgar("--root", str(tmp_path), "--json", "skills", "suggest", said).json()
    assert again["skills"] == []
    # An outcome that is neither an option nor a skill teaches nothing.
    r = edgar(
        "--root",
        str(tmp_path),
        "--json",
        "decisions",
        "relabel",
        doc["decision_id"],
        "--outcome",
        "it worked",
    )
    assert r.code == 0, r
    assert "taught" not in r.json()
    listed = edgar("--root", str(tmp_path), "--json", "skills", "examples").json()
    assert listed["examples"] == [{"skill": "none", "discovered": True, "texts": [said]}]
