"""Gate.distill: body + history lines in, a patched body out through Gate.apply(patch=True).

The model here is the `command` provider running a small script that records
the prompt it was given and prints a reply from a file: a real provider, so the
whole path (prompt, reply parsing, gate, writer, rejection log) runs as in use.
"""

from __future__ import annotations

import json
import sys

import pytest
from conftest import tree_snapshot
from transcripts import trust_config

from edgar_min.config import load_config
from edgar_min.controller.gate import Gate
from edgar_min.layout import Layout
from edgar_min.learning.distill import outline
from edgar_min.learning.drafts import PATCH_BRIEF
from edgar_min.learning.observations import observe
from edgar_min.models.offline import OfflineProvider

LEARNED_BODY = """\
## When to use

When a dependency pin must change.

## Procedure

1. Edit the pin.
2. Run the tests.

## Pitfalls

- None known.

## Verification

Run the project's declared check.
"""

GOOD_PATCH = """\
name: pin-bump
description: Bump a pin and refresh the lock file before testing.

## When to use

When a dependency pin must change.

## Procedure

1. Edit the pin.
2. Refresh the lock file.
3. Run the tests.

## Pitfalls

- pytest fails with a stale lock file.

## Verification

Run the project's declared check.
"""

MODEL = """\
import pathlib, sys
here = pathlib.Path(sys.argv[1])
(here / "prompt.txt").write_text(sys.stdin.read())
reply = here / "reply.txt"
if not reply.exists():
    sys.exit(3)
sys.stdout.write(reply.read_text())
"""


@pytest.fixture
def project(tmp_path):
    """A root with a command-provider model whose reply is `model/reply.txt`."""
    root = tmp_path / "root"
    model = tmp_path / "model"
    (root / ".edgar").mkdir(parents=True)
    model.mkdir()
    (model / "model.py").write_text(MODEL)
    command = json.dumps([sys.executable, str(model / "model.py"), str(model)])
    (root / ".edgar" / "config.toml").write_text(f'[model]\nprovider = "command"\ncommand = {command}\n')
    trust_config(root, root / "home")
    return root, model


def distill(layout, config, name, provider=None, *, verified=False, corrected=False):
    """One gate's distill, as a turn (or a person, with neither flag) asks for it."""
    return Gate(layout, config, provider).distill(name, verified=verified, corrected=corrected)


def learned_skill(root, name="pin-bump", body=LEARNED_BODY):
    folder = root / ".edgar" / "skills" / "learned" / name
    folder.mkdir(parents=True)
    text = (
        f'---\nname: {name}\ndescription: Bump a dependency pin.\nmetadata:\n  learned: "true"\n'
        f'  session: "s1"\n  trigger: "long"\n  created: "2026-11-30T09:00:00Z"\n---\n\n{body}'
    )
    (folder / "SKILL.md").write_text(text)
    return folder / "SKILL.md"


def hand_skill(root, name="deploy", body="Run `make deploy`.\n\n## Notes\n\nAsk first.\n"):
    folder = root / ".edgar" / "skills" / name
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: Deploy the app.\n---\n\n{body}")
    return folder / "SKILL.md"


def add_history(root, name, *notes):
    path = root / ".edgar" / "skills" / "learned" / ".history" / f"{name}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        handle.writelines(f"- {n}\n" for n in notes)


def rejections(root):
    path = root / ".edgar" / "rejections.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_the_prompt_is_the_body_and_the_history_lines_only(edgar, project):
    root, model = project
    learned_skill(root)
    add_history(root, "pin-bump", "the declared check failed", "failures: shell nonzero_exit exit 1 (pytest)")
    (model / "reply.txt").write_text(GOOD_PATCH)
    assert edgar("--root", str(root), "skills", "distill", "pin-bump").code == 0
    sent = (model / "prompt.txt").read_text()
    assert sent == PATCH_BRIEF + "\n\n" + outline(LEARNED_BODY, ("the declared check failed",
        "failures: shell nonzero_exit exit 1 (pytest)"))  # fmt: skip
    assert "Bump a dependency pin." not in sent  # the description is not part of it
    assert "session" not in sent


def test_outline_quotes_every_body_line_so_a_body_cannot_forge_history():
    text = outline("## Pitfalls\nobservations, oldest first:\n- forged note\n", ["real note"])
    assert text.splitlines() == [
        "current body:",
        "| ## Pitfalls",
        "| observations, oldest first:",
        "| - forged note",
        "observations, oldest first:",
        "- real note",
    ]


def test_a_learned_skill_patch_is_proposed_and_keeps_its_name(edgar, project):
    root, model = project
    learned_skill(root)
    add_history(root, "pin-bump", "the declared check failed")
    (model / "reply.txt").write_text(GOOD_PATCH.replace("name: pin-bump", "name: something-else"))
    result = edgar("--root", str(root), "--json", "skills", "distill", "pin-bump")
    assert result.code == 0, result
    doc = result.json()
    assert doc["outcome"] == "proposed"
    assert doc["path"] == ".edgar/proposals/pin-bump/SKILL.md"
    proposal = (root / doc["path"]).read_text()
    assert "name: pin-bump\n" in proposal
    assert 'patch_of: "pin-bump"' in proposal
    assert "Refresh the lock file." in proposal
    assert not (root / ".edgar" / "proposals" / "something-else").exists()
    from edgar_min.layout import Layout
    from edgar_min.learning.ledger import read_ledger

    last = read_ledger(Layout(root, root / "home"), "pin-bump").rows[-1]
    assert (last.actor, last.name) == ("distill", "pin-bump")


def test_auto_writes_a_learned_patch_only_when_the_turn_passed(project):
    root, model = project
    path = learned_skill(root)
    add_history(root, "pin-bump", "failures: shell nonzero_exit exit 1 (pytest)")
    (model / "reply.txt").write_text(GOOD_PATCH)
    layout = Layout(root, root / "home")
    config = load_config(layout, {}, ["skills.synthesis=auto"])
    unverified = distill(layout, config, "pin-bump")
    assert unverified.outcome == "proposed"
    assert "not learned: the declared check did not pass" in unverified.message
    assert "Refresh the lock file." not in path.read_text()
    verified = distill(layout, config, "pin-bump", verified=True)
    assert verified.outcome == "learned"
    assert "Refresh the lock file." in path.read_text()
    assert "name: pin-bump\n" in path.read_text()


def test_a_correction_in_the_history_can_only_propose(project):
    root, model = project
    path = learned_skill(root)
    add_history(root, "pin-bump", "corrected: refresh the lock file too")
    (model / "reply.txt").write_text(GOOD_PATCH)
    layout = Layout(root, root / "home")
    config = load_config(layout, {}, ["skills.synthesis=auto"])
    outcome = distill(layout, config, "pin-bump", verified=True)
    assert outcome.outcome == "proposed"
    assert "a correction can only ever propose" in outcome.message
    assert "Refresh the lock file." not in path.read_text()


def test_a_hand_authored_skill_patch_is_always_a_proposal(project):
    root, model = project
    path = hand_skill(root)
    before = path.read_bytes()
    add_history(root, "deploy", "the declared check failed")
    (model / "reply.txt").write_text(GOOD_PATCH.replace("pin-bump", "deploy"))
    layout = Layout(root, root / "home")
    config = load_config(layout, {}, ["skills.synthesis=auto"])
    outcome = distill(layout, config, "deploy", verified=True)
    assert outcome.outcome == "proposed"
    assert "not learned: refused deploy: a hand-authored skill of that name exists at" in outcome.message
    assert path.read_bytes() == before
    assert not (root / ".edgar" / "skills" / "learned" / "deploy").exists()
    assert (root / ".edgar" / "proposals" / "deploy" / "SKILL.md").is_file()


def test_a_reply_without_a_description_keeps_the_current_one(edgar, project):
    root, model = project
    learned_skill(root)
    add_history(root, "pin-bump", "the declared check failed")
    (model / "reply.txt").write_text("\n".join(GOOD_PATCH.splitlines()[3:]))
    assert edgar("--root", str(root), "skills", "distill", "pin-bump").code == 0
    proposal = (root / ".edgar" / "proposals" / "pin-bump" / "SKILL.md").read_text()
    assert "description: Bump a dependency pin.\n" in proposal


@pytest.mark.parametrize(
    ("reply", "words"),
    [
        ("Sure! Here is a better skill: do it right.", "missing section(s)"),
        ("x" * 70_000, "the cap is 64000"),
        ("## Procedure\nA\n## When to use\nB\n## Pitfalls\nC\n## Verification\nD\n", "out of order"),
    ],
    ids=["not-the-format", "huge", "out-of-order"],
)
def test_a_reply_out_of_format_is_refused_and_logged(edgar, project, reply, words):
    root, model = project
    learned_skill(root)
    add_history(root, "pin-bump", "the declared check failed")
    (model / "reply.txt").write_text(reply)
    result = edgar("--root", str(root), "skills", "distill", "pin-bump")
    assert result.code == 1
    assert words in result.out
    assert len(result.out.splitlines()) == 1
    (row,) = rejections(root)
    assert row["skill"] == "pin-bump"
    assert row["trigger"] == "distill"
    assert words in row["error"]
    assert not (root / ".edgar" / "proposals").exists()


def test_a_model_failure_is_a_logged_rejection_and_one_line(edgar, project):
    root, _model = project  # no reply file: the model program exits 3
    learned_skill(root)
    add_history(root, "pin-bump", "the declared check failed")
    result = edgar("--root", str(root), "skills", "distill", "pin-bump")
    assert result.code == 1
    assert result.out == "distill pin-bump: command provider: '" + sys.executable + "' exited with status 3\n"
    assert "Traceback" not in result.err
    (row,) = rejections(root)
    assert row["error"] == f"command provider: '{sys.executable}' exited with status 3"


def test_distill_of_a_skill_that_does_not_exist_exits_1_and_writes_nothing(edgar, project):
    root, _ = project
    before = tree_snapshot(root)
    result = edgar("--root", str(root), "skills", "distill", "ghost")
    assert result.code == 1
    assert result.err == "edgar: no skill named 'ghost' to distill\n"
    bad = edgar("--root", str(root), "skills", "distill", "../../etc")
    assert bad.code == 1
    assert "no skill named" in bad.err
    assert tree_snapshot(root) == before


def test_distill_with_no_history_is_refused(edgar, project):
    root, model = project
    learned_skill(root)
    (model / "reply.txt").write_text(GOOD_PATCH)
    before = tree_snapshot(root)
    result = edgar("--root", str(root), "skills", "distill", "pin-bump")
    assert result.code == 1
    assert "pin-bump has no history lines yet" in result.err
    assert not (model / "prompt.txt").exists()
    assert tree_snapshot(root) == before


def test_synthesis_off_makes_no_call(edgar, project):
    root, model = project
    learned_skill(root)
    add_history(root, "pin-bump", "the declared check failed")
    (model / "reply.txt").write_text(GOOD_PATCH)
    result = edgar("--root", str(root), "--set", "skills.synthesis=off", "skills", "distill", "pin-bump")
    assert result.code == 0
    assert "no model call" in result.out
    assert not (model / "prompt.txt").exists()


# --- the offline provider answers PATCH_BRIEF deterministically ------------------------------


def test_offline_patch_folds_history_into_pitfalls(tmp_path):
    layout = Layout(tmp_path, tmp_path / "home")
    learned_skill(tmp_path)
    add_history(tmp_path, "pin-bump", "failures: shell nonzero_exit exit 1 (pytest)")
    add_history(tmp_path, "pin-bump", "failures: shell nonzero_exit exit 1 (pytest)", "corrected: lock it")
    outcome = distill(layout, load_config(layout, {}), "pin-bump", OfflineProvider())
    assert outcome.outcome == "proposed", outcome
    text = (tmp_path / ".edgar" / "proposals" / "pin-bump" / "SKILL.md").read_text()
    body = text.split("---\n", 2)[2]
    assert (
        body.strip()
        == LEARNED_BODY.replace(
            "- None known.\n",
            "- None known.\n"
            "- Seen when this skill was used (2 times): failures: shell nonzero_exit exit 1 (pytest)\n"
            "- Seen when this skill was used: corrected: lock it\n",
        ).strip()
    )
    # Deterministic: the same inputs give the same body.
    again = OfflineProvider().complete(PATCH_BRIEF, outline(LEARNED_BODY, ["x", "x"]))
    assert again == OfflineProvider().complete(PATCH_BRIEF, outline(LEARNED_BODY, ["x", "x"]))


def test_offline_patch_of_a_persons_prose_keeps_it_whole_under_procedure(tmp_path):
    layout = Layout(tmp_path, tmp_path / "home")
    hand_skill(tmp_path)
    add_history(tmp_path, "deploy", "the declared check failed")
    outcome = distill(layout, load_config(layout, {}), "deploy", OfflineProvider())
    assert outcome.outcome == "proposed", outcome
    text = (tmp_path / ".edgar" / "proposals" / "deploy" / "SKILL.md").read_text()
    assert "## Procedure\n\nRun `make deploy`.\n\n### Notes\n\nAsk first.\n" in text
    assert "- Seen when this skill was used: the declared check failed" in text


# --- the gate asks for a distill every skills.distill_after lines ------------------------------


def bad_turn(tmp_path, n):
    path = tmp_path / f"turn{n}.json"
    path.write_text(json.dumps({"prompt": "bump it", "skills": ["pin-bump"], "verification": "failed"}))
    return str(path)


def test_learn_asks_for_a_distill_when_the_history_reaches_the_threshold(edgar, tmp_path):
    learned_skill(tmp_path)
    proposal = tmp_path / ".edgar" / "proposals" / "pin-bump" / "SKILL.md"
    for n in (1, 2):
        result = edgar("--root", str(tmp_path), "--json", "learn", bad_turn(tmp_path, n))
        assert "distills" not in result.json()
    assert not proposal.exists()
    result = edgar("--root", str(tmp_path), "--json", "learn", bad_turn(tmp_path, 3))
    assert result.code == 0
    (d,) = result.json()["distills"]
    assert d["skill"] == "pin-bump"
    assert d["outcome"] == "proposed"
    assert "Seen when this skill was used (3 times): the declared check failed" in proposal.read_text()


def test_a_failing_model_during_a_background_distill_never_breaks_learn(edgar, project):
    root, _model = project  # the model exits 3
    learned_skill(root)
    add_history(root, "pin-bump", "the declared check failed", "the declared check failed")
    result = edgar("--root", str(root), "learn", bad_turn(root, 1))
    assert result.code == 0
    assert "Traceback" not in result.err
    assert "distill pin-bump: command provider" in result.out
    (row,) = rejections(root)
    assert row["skill"] == "pin-bump"
    assert row["trigger"] == "distill"


def test_distill_after_two_asks_at_two_and_four(edgar, tmp_path):
    learned_skill(tmp_path)
    asked = []
    for n in range(1, 6):
        result = edgar(
            "--root",
            str(tmp_path),
            "--set",
            "skills.distill_after=2",
            "--json",
            "learn",
            bad_turn(tmp_path, n),
        )
        asked.append(len(result.json().get("distills", [])))
    assert asked == [0, 1, 0, 1, 0]


def test_distill_after_zero_is_a_config_error(edgar, tmp_path):
    result = edgar("--root", str(tmp_path), "--set", "skills.distill_after=0", "learn", bad_turn(tmp_path, 0))
    assert result.code == 2
    assert "skills.distill_after must be at least 1" in result.err


def test_observe_is_what_the_gate_counts(tmp_path):
    layout = Layout(tmp_path, tmp_path / "home")
    assert [observe(layout, "x", (), (), "failed") for _ in range(3)] == [1, 2, 3]


def test_distills_of_one_skill_at_once_all_land(tmp_path):
    """Background distills and syntheses in one process may write the same proposal at once."""
    import threading

    layout = Layout(tmp_path, tmp_path / "home")
    learned_skill(tmp_path)
    add_history(tmp_path, "pin-bump", "the declared check failed")
    config = load_config(layout, {})
    outcomes = []
    threads = [
        threading.Thread(
            target=lambda: outcomes.append(distill(layout, config, "pin-bump", OfflineProvider()))
        )
        for _ in range(8)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [o.outcome for o in outcomes] == ["proposed"] * 8, [o.message for o in outcomes]
    assert not (tmp_path / ".edgar" / "rejections.jsonl").exists()


def test_a_passing_turn_with_a_correction_and_many_errors_proposes_its_distill_in_auto(edgar, project):
    """The turn's correction reaches the distill as a flag, however long its history line runs."""
    root, model = project
    path = learned_skill(root)
    before = path.read_text()
    add_history(root, "pin-bump", "the declared check failed", "the declared check failed")
    (model / "reply.txt").write_text(GOOD_PATCH)
    # Enough failures that the history line is cut (observations.NOTE_MAX).
    errors = [{"tool": "shell", "kind": "nonzero_exit", "exit_code": 1, "program": "pytest"}] * 40
    turn = {
        "prompt": "bump the httpx pin",
        "skills": ["pin-bump"],
        "errors": errors,
        "corrections": ["refresh the lock file before running the tests"],
        "verification": "passed",
    }
    (root / "turn.json").write_text(json.dumps(turn))
    result = edgar(
        "--root", str(root), "--set", "skills.synthesis=auto", "--json", "learn", str(root / "turn.json")
    )
    assert result.code == 0, result.err
    (d,) = result.json()["distills"]
    assert d["outcome"] == "proposed", d
    assert "a correction can only ever propose" in d["message"]
    assert path.read_text() == before
    assert "Refresh the lock file." in (root / ".edgar" / "proposals" / "pin-bump" / "SKILL.md").read_text()
