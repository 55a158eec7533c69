"""`skills teach` and `skills examples`: what a person tells routing, and what it learned."""

from __future__ import annotations

import json
import os
import time

import pytest
from conftest import state_of, tree_snapshot
from suggestfiles import write_skills
from transcripts import stdin_bytes

from edgar_min.skills.catalog import LONG_BUILD

CLIP = "turn this clip of the cat into a looping reaction for the team chat"
CLIP_AGAIN = "make a looping reaction of the dog for the team chat"
THANKS = "nice, the pdf merge worked perfectly, thank you so much"


@pytest.fixture
def project(tmp_path):
    write_skills(tmp_path / ".claude" / "skills")
    return tmp_path


def examples_file(project):
    return state_of(project) / "routing-examples.jsonl"


def test_teach_a_discovered_skill_then_a_new_phrasing_gets_it(project, edgar):
    before = edgar("--root", str(project), "--json", "skills", "suggest", CLIP_AGAIN)
    assert before.json()["skills"] == []
    taught = edgar("--root", str(project), "skills", "teach", "slack-gif-creator", *CLIP.split())
    assert taught.code == 0, taught
    assert taught.out == f"taught: {CLIP!r} calls for slack-gif-creator\n"
    after = edgar("--root", str(project), "--json", "skills", "suggest", CLIP_AGAIN)
    assert [s["name"] for s in after.json()["skills"]] == ["slack-gif-creator"]
    (row,) = [json.loads(line) for line in examples_file(project).read_text().splitlines()]
    assert (row["skill"], row["text"], row["source"]) == ("slack-gif-creator", CLIP, "person")


BUMP = "update the dependency version in the lock"


def test_what_a_person_teaches_takes_effect_for_that_text_and_for_its_words_in_other_order(project, edgar):
    folder = project / ".claude" / "skills" / "bump-httpx-pin"
    folder.mkdir()
    (folder / "SKILL.md").write_text(
        "---\nname: bump-httpx-pin\ndescription: Move the httpx pin in pyproject.toml to a new release "
        "and run the test suite against it.\n---\n\n# Bump httpx\n\nEdit the pin, then run the tests.\n"
    )
    assert edgar("--root", str(project), "--json", "skills", "suggest", BUMP).json()["skills"] == []
    assert edgar("--root", str(project), "skills", "teach", "bump-httpx-pin", BUMP).code == 0
    for text in (BUMP, "in the lock, update the dependency version"):
        skills = edgar("--root", str(project), "--json", "skills", "suggest", text).json()["skills"]
        # The taught words, in any order: first in the shortlist, as taught, its body handed over.
        assert (skills[0]["name"], skills[0]["taught"], skills[0]["named_only"]) == (
            "bump-httpx-pin",
            True,
            False,
        ), text
    # Other words for the same request still find it, named for the agent to judge: only the
    # words a message taught make edgar sure enough to hand over a body.
    other = "the lock file has an old version of that dependency, update it"
    skills = edgar("--root", str(project), "--json", "skills", "suggest", other).json()["skills"]
    assert (skills[0]["name"], skills[0]["taught"], skills[0]["named_only"]) == (
        "bump-httpx-pin",
        False,
        True,
    )


def test_teach_none_in_json_and_a_thank_you_gets_none_while_the_task_gets_its_skill(project, edgar):
    said = "thanks, the merged pdf works perfectly"
    assert edgar("--root", str(project), "skills", "suggest", said).out.split()[0] == "pdf"
    taught = edgar("--root", str(project), "--json", "skills", "teach", "none", THANKS)
    assert taught.code == 0, taught
    assert taught.json() == {"taught": True, "skill": "none", "text": THANKS}
    text = edgar("--root", str(project), "skills", "teach", "none", "ok, cheers")
    assert text.out == "taught: 'ok, cheers' needs no skill\n"
    assert edgar("--root", str(project), "skills", "suggest", said).out.startswith("none (probability ")
    doc = edgar(
        "--root", str(project), "--json", "skills", "suggest", "merge these three pdfs into one"
    ).json()
    assert [s["name"] for s in doc["skills"]] == ["pdf"]
    assert "none" not in [c["name"] for c in doc["candidates"]]


def test_teach_an_unknown_skill_is_refused_and_writes_nothing(project, edgar):
    before = tree_snapshot(project)
    result = edgar("--root", str(project), "skills", "teach", "gif-maker", CLIP)
    assert result.code == 1
    assert result.out == ""
    assert "no skill named 'gif-maker' was discovered" in result.err
    assert "Traceback" not in result.err
    doc = edgar("--root", str(project), "--json", "skills", "teach", "Not A Name", CLIP)
    assert doc.code == 1
    assert doc.json()["exit_code"] == 1
    assert tree_snapshot(project) == before


@pytest.mark.parametrize("text", ["", "   ", "\n"])
def test_teach_an_empty_text_is_bad_usage_and_writes_nothing(project, edgar, text):
    before = tree_snapshot(project)
    result = edgar("--root", str(project), "skills", "teach", "pdf", text)
    assert result.code == 2
    assert "skills teach needs the text of a message; it was empty" in result.err
    assert tree_snapshot(project) == before


def test_teach_with_no_text_at_all_is_an_argparse_error(project, edgar):
    result = edgar("--root", str(project), "skills", "teach", "pdf")
    assert result.code == 2
    assert "TEXT" in result.err
    assert not examples_file(project).exists()


def test_forget_a_text_in_force_then_one_that_is_not(project, edgar):
    edgar("--root", str(project), "skills", "teach", "slack-gif-creator", CLIP)
    gone = edgar("--root", str(project), "skills", "teach", "slack-gif-creator", CLIP, "--forget")
    assert gone.code == 0, gone
    assert gone.out == f"forgot: {CLIP!r} as an example of slack-gif-creator\n"
    after = edgar("--root", str(project), "--json", "skills", "suggest", CLIP_AGAIN)
    assert after.json()["skills"] == []
    size = examples_file(project).stat().st_size
    again = edgar("--root", str(project), "--json", "skills", "teach", "slack-gif-creator", CLIP, "--forget")
    assert again.code == 1
    assert "no example of slack-gif-creator has this text" in again.json()["error"]
    assert examples_file(project).stat().st_size == size  # nothing more written


def test_forget_in_json_says_what_was_forgotten(project, edgar):
    edgar("--root", str(project), "skills", "teach", "none", THANKS)
    gone = edgar("--root", str(project), "--json", "skills", "teach", "none", THANKS, "--forget")
    assert gone.code == 0, gone
    assert gone.json() == {"forgot": True, "skill": "none", "text": THANKS}


def test_examples_with_no_file_at_all(project, edgar):
    result = edgar("--root", str(project), "skills", "examples")
    assert result.code == 0, result
    assert result.out.startswith("no examples yet")
    assert edgar("--root", str(project), "--json", "skills", "examples").json() == {"examples": []}
    one = edgar("--root", str(project), "--json", "skills", "examples", "pdf").json()
    assert one == {"examples": [{"skill": "pdf", "discovered": True, "texts": []}]}
    assert not (project / ".edgar").exists()


def test_examples_lists_each_skill_and_one_skill_in_full(project, edgar):
    edgar("--root", str(project), "skills", "teach", "slack-gif-creator", CLIP)
    edgar("--root", str(project), "skills", "teach", "slack-gif-creator", CLIP_AGAIN)
    edgar("--root", str(project), "skills", "teach", "none", THANKS)
    # An example of a skill that was discovered when it was kept, and is no longer.
    with examples_file(project).open("a") as out:
        out.write(json.dumps({"time": "2026-12-01T09:00:00Z", "skill": "old-skill", "text": "x y"}) + "\n")
    listing = edgar("--root", str(project), "skills", "examples")
    assert listing.code == 0, listing
    assert listing.out.splitlines() == [
        "none: 1 example(s)",
        "old-skill: 1 example(s) (not discovered now: unused)",
        "slack-gif-creator: 2 example(s)",
    ]
    one = edgar("--root", str(project), "skills", "examples", "slack-gif-creator")
    assert one.out.splitlines() == ["slack-gif-creator: 2 example(s)", f"  {CLIP}", f"  {CLIP_AGAIN}"]
    doc = edgar("--root", str(project), "--json", "skills", "examples").json()
    assert doc["examples"] == [
        {"skill": "none", "discovered": True, "texts": [THANKS]},
        {"skill": "old-skill", "discovered": False, "texts": ["x y"]},
        {"skill": "slack-gif-creator", "discovered": True, "texts": [CLIP, CLIP_AGAIN]},
    ]


def test_examples_when_the_file_is_a_folder_is_a_sentence(project, edgar):
    examples_file(project).mkdir(parents=True)
    result = edgar("--root", str(project), "skills", "examples")
    assert result.code == 2
    assert "routing-examples.jsonl is a folder, not a file of examples" in result.err
    assert "Traceback" not in result.err
    # Suggesting goes on, with a warning.
    suggest = edgar("--root", str(project), "skills", "suggest", "merge these three pdfs into one")
    assert suggest.code == 0
    assert suggest.out.split()[0] == "pdf"
    assert "the routing examples were not read" in suggest.err


def test_teach_in_json_for_a_skill_and_the_none_card_stays_out_of_the_index(project, edgar):
    taught = edgar("--root", str(project), "--json", "skills", "teach", "slack-gif-creator", CLIP)
    assert taught.code == 0, taught
    assert taught.json() == {"taught": True, "skill": "slack-gif-creator", "text": CLIP}
    edgar("--root", str(project), "skills", "teach", "none", THANKS)
    index = edgar("--root", str(project), "--json", "skills", "index")
    assert index.code == 0, index
    listed = edgar("--root", str(project), "skills", "index").out
    assert "- none" not in listed
    assert "- slack-gif-creator:" in listed
    names = [entry["name"] for entry in index.json()["entries"]]
    assert "none" not in names
    assert len(names) == 9


def test_a_terminal_escape_in_a_taught_text_is_never_kept(project, edgar):
    pasted = "merge these pdfs \x1b]0;owned\x07 and \x1b[2J rotate page 2"
    edgar("--root", str(project), "skills", "teach", "pdf", pasted)
    shown = edgar("--root", str(project), "skills", "examples", "pdf").out
    assert "merge these pdfs and rotate page 2" in shown
    # The file holds what a terminal showed of it, and nothing it would have obeyed.
    doc = edgar("--root", str(project), "--json", "skills", "examples", "pdf").json()
    assert doc["examples"][0]["texts"] == ["merge these pdfs and rotate page 2"]
    kept = examples_file(project).read_text()
    assert "owned" not in kept
    assert "\\u001b" not in kept


@pytest.mark.model
def test_on_the_real_model_server_a_taught_skill_becomes_a_candidate_it_was_not(project, edgar, llama_server):
    model = ["--set", "semif.engine=openai", "--set", f"semif.base_url={llama_server.base_url}"]
    before = edgar("--root", str(project), "--json", *model, "skills", "suggest", CLIP_AGAIN)
    assert before.code == 0, before
    assert before.json()["candidates"] == []  # no skill shares a word with it: the model is not asked
    edgar("--root", str(project), "skills", "teach", "slack-gif-creator", CLIP)
    after = edgar("--root", str(project), "--json", *model, "skills", "suggest", CLIP_AGAIN)
    assert after.code == 0, after
    doc = after.json()
    assert doc["engine"] == "openai"
    assert doc["candidates"][0]["name"] == "slack-gif-creator"
    assert 0.0 <= doc["candidates"][0]["probability"] <= 1.0


def test_on_a_model_engine_a_message_like_a_taught_none_gets_none_without_asking_the_model(project, edgar):
    said = "thanks, the merged pdf works perfectly"
    # Nothing listens on port 9: a model call would fail the command.
    model = ["--set", "semif.engine=openai", "--set", "semif.base_url=http://127.0.0.1:9/v1"]
    asked = edgar("--root", str(project), "--json", *model, "skills", "suggest", said)
    assert asked.code != 0  # the message shares "pdf" with a skill: the model is asked, and is not there
    edgar("--root", str(project), "skills", "teach", "none", THANKS)
    after = edgar("--root", str(project), "--json", *model, "skills", "suggest", said)
    assert after.code == 0, after
    assert after.json()["skills"] == []
    assert after.json()["none_probability"] == 1.0


def test_examples_of_a_name_no_skill_could_have_is_a_sentence_and_exit_2(project, edgar):
    result = edgar("--root", str(project), "skills", "examples", "Bad Name")
    assert result.code == 2
    assert "may use only lower-case letters" in result.err
    assert "Traceback" not in result.err


def word(i):
    """A word of its own for each skill: 7 is `hhho`, 12 is `hhij`."""
    return "".join(chr(ord("h") + int(d)) for d in f"{i:04d}")


def many_skills(root, count):
    """`count` skills, written a minute ago: old enough for the routing cache to keep them."""
    skills = root / ".edgar" / "skills"
    for i in range(count):
        (skills / f"skill-{i:04d}").mkdir(parents=True)
        text = f"---\nname: skill-{i:04d}\ndescription: Keeps the {word(i)} ledger in order.\n---\n\n# W\n"
        (skills / f"skill-{i:04d}" / "SKILL.md").write_text(text)
    past = time.time() - 60
    for path in [skills, *skills.rglob("*")]:
        os.utime(path, (past, past))


def test_reading_many_skills_for_routing_is_said_before_the_wait_and_only_once(tmp_path, edgar):
    many_skills(tmp_path, LONG_BUILD + 1)
    first = edgar("--root", str(tmp_path), "--json", "skills", "suggest", "update the hhho ledger")
    assert first.code == 0, first
    assert f"edgar: reading {LONG_BUILD + 1:,} skills for routing" in first.err
    assert first.json()["candidates"][0]["name"] == "skill-0007"  # stdout is the document alone
    again = edgar("--root", str(tmp_path), "skills", "suggest", "update the hhho ledger")
    assert "reading" not in again.err  # from the cache


def test_the_prompt_hook_reading_many_skills_says_nothing_of_it(tmp_path, edgar, monkeypatch):
    many_skills(tmp_path, LONG_BUILD + 1)
    payload = {"session_id": "s-1", "prompt": "update the hhho ledger", "cwd": str(tmp_path)}
    stdin_bytes(monkeypatch, json.dumps(payload).encode())
    result = edgar("--root", str(tmp_path), "hook", "user-prompt-submit")
    assert result.code == 0, result
    assert (result.out, result.err) == ("", "")  # nothing picked: the agent reads nothing at all


def test_a_few_skills_read_afresh_say_nothing(tmp_path, edgar):
    many_skills(tmp_path, 3)
    result = edgar("--root", str(tmp_path), "skills", "suggest", "update the hhhj ledger")
    assert result.code == 0, result
    assert result.err == ""
