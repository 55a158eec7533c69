"""`edgar skills stats | prune | log | restore`: sentences, exit codes, nothing written on refusal."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from conftest import tree_snapshot
from skillfiles import BODY, write_skill

from edgar_min.config import load_config
from edgar_min.controller.gate import Gate
from edgar_min.layout import Layout
from edgar_min.learning.ledger import read_ledger
from edgar_min.learning.store import ExperienceStore
from edgar_min.learning.turn import parse_turn
from edgar_min.learning.writer import Draft, Provenance, Target, write_learned

T0 = 1_790_000_000.0


@pytest.fixture
def layout(tmp_path):
    return Layout(tmp_path, tmp_path / "home")


def learned(layout, name, extra=""):
    words = " ".join(hashlib.sha256(f"{name}{i}".encode()).hexdigest()[:8] for i in range(8))
    body = BODY.replace("1. Change the pin.", f"1. {words}.{extra}")
    how = Provenance("s-0", ("long",), created="2026-09-21T00:00:00Z")
    target = Target("learned", patch=(Path(layout.learned) / name).exists())
    return Path(write_learned(layout, Draft(name, f"Handles {name}.", body), how, target))


def record(layout, n, verdict, skills=(), start=T0, offered=()):
    store = ExperienceStore(layout.experience, host="box")
    for i in range(n):
        turn = parse_turn(
            {"prompt": "x", "tools": ["shell"], "verification": verdict, "skills": list(skills)}
        )
        store.record(turn, f"s-{start}-{i}", now=start + i, offered=offered)
    return start + n


def test_stats_for_one_skill_in_words_and_json(edgar, layout):
    learned(layout, "pin-bump")
    t = record(layout, 15, "failed", ["pin-bump"], offered=("pin-bump",))
    t = record(layout, 15, "passed", start=t)
    record(layout, 20, "unverified", start=t, offered=("pin-bump",))  # offered, never used
    result = edgar("--root", str(layout.root), "skills", "stats", "pin-bump")
    assert result.code == 0
    assert "pin-bump (learned)" in result.out
    assert "offered in 35 turn(s)" in result.out
    assert "used in 15 turn(s): 0 passed, 15 failed, 0 unverified" in result.out
    assert "pass rate 0% with it vs 100% without it" in result.out
    assert "hurts" in result.out
    data = edgar("--root", str(layout.root), "--json", "skills", "stats", "pin-bump").json()
    assert data["verdict"] == "hurts"
    assert data["verdicts"] == {"passed": 0, "failed": 15, "unverified": 0}
    assert (data["offered"], data["used"]) == (35, 15)
    assert (data["pass_rate_with"], data["pass_rate_without"]) == (0.0, 1.0)
    assert data["min_turns"] == 10


def test_stats_for_all_skills_says_when_there_are_too_few_turns(edgar, layout):
    learned(layout, "pin-bump")
    write_skill(layout.skills, "mine", "A person's skill.")
    record(layout, 2, "passed", ["pin-bump"])
    result = edgar("--root", str(layout.root), "skills", "stats")
    assert result.code == 0
    assert "too few turns to tell" in result.out
    assert "mine" in result.out
    data = edgar("--root", str(layout.root), "--json", "skills", "stats").json()
    assert [s["name"] for s in data["skills"]] == ["mine", "pin-bump"]
    assert data["turns"] == 2


def test_stats_for_an_unknown_skill_is_exit_1(edgar, layout):
    result = edgar("--root", str(layout.root), "skills", "stats", "no-such-skill")
    assert result.code == 1
    assert "no skill named 'no-such-skill', and no recorded turn used or was offered one" in result.err
    assert "Traceback" not in result.err
    bad = edgar("--root", str(layout.root), "--json", "skills", "stats", "no-such-skill")
    assert bad.json()["exit_code"] == 1


def test_stats_over_a_store_with_garbage_lines_counts_the_good_ones_and_says_so(edgar, layout):
    learned(layout, "pin-bump")
    record(layout, 3, "passed", ["pin-bump"])
    (path,) = map(Path, ExperienceStore(layout.experience, host="box").files())
    with path.open("ab") as f:
        f.write(b"\x00\x01garbage\nmore garbage\t\t\n1\t2026")
    result = edgar("--root", str(layout.root), "--json", "skills", "stats")
    assert result.code == 0
    assert result.json()["torn_lines"] == 3
    assert result.json()["skills"][0]["used"] == 3
    assert "skipped 3 torn or garbage line(s)" in result.err


def test_prune_with_nothing_to_do_is_a_sentence_and_exit_0(edgar, layout):
    write_skill(layout.skills, "mine", "A person's skill.")
    before = tree_snapshot(layout.root)
    result = edgar("--root", str(layout.root), "skills", "prune")
    assert (result.code, result.out.strip()) == (
        0,
        "nothing to prune: no learned skill is stale or measured as hurting",
    )
    assert tree_snapshot(layout.root) == before


def test_prune_dry_run_then_prune_archives_hurting_learned_skills_never_a_persons(edgar, layout):
    learned(layout, "bad-learned")
    write_skill(layout.skills, "bad-mine", "A person's skill that also hurts.")
    t = record(layout, 15, "failed", ["bad-learned", "bad-mine"])
    record(layout, 15, "passed", start=t)
    before = tree_snapshot(layout.root)
    dry = edgar("--root", str(layout.root), "skills", "prune", "--dry-run")
    assert dry.code == 0
    assert dry.out.startswith("would archive bad-learned: measured as hurting")
    assert "bad-mine" not in dry.out
    assert tree_snapshot(layout.root) == before
    done = edgar("--root", str(layout.root), "--json", "skills", "prune")
    assert done.code == 0
    (pruned,) = done.json()["pruned"]
    assert pruned["name"] == "bad-learned"
    assert pruned["archived_to"].startswith(".edgar/skills/learned/.archive/")
    assert not (Path(layout.learned) / "bad-learned").exists()
    assert (Path(layout.skills) / "bad-mine" / "SKILL.md").is_file()
    assert read_ledger(layout).rows[-1].action == "archive"


def test_prune_archives_stale_learned_skills(edgar, layout):
    learned(layout, "never-used")
    record(layout, 12, "passed")
    result = edgar("--root", str(layout.root), "--set", "skills.stale_turns=10", "skills", "prune")
    assert result.code == 0
    assert "archived never-used: stale: never used since it was created" in result.out


def test_log_shows_rows_and_warns_about_torn_lines(edgar, layout):
    learned(layout, "pin-bump")
    learned(layout, "pin-bump", extra=" Better.")
    with Path(layout.ledger).open("ab") as f:
        f.write(b'{"torn')
    result = edgar("--root", str(layout.root), "skills", "log", "pin-bump")
    assert result.code == 0
    lines = result.out.splitlines()
    assert len(lines) == 2
    assert "  gate     write    pin-bump  learned   - -> " in lines[0]
    assert "patch" in lines[1]
    assert "skipped 1 torn or garbage line(s) in .edgar/ledger.jsonl" in result.err
    data = edgar("--root", str(layout.root), "--json", "skills", "log").json()
    assert [r["action"] for r in data["rows"]] == ["write", "patch"]


def test_log_for_an_unknown_name_is_exit_1_and_for_a_quiet_skill_exit_0(edgar, layout):
    write_skill(layout.skills, "mine")
    assert edgar("--root", str(layout.root), "skills", "log", "nothing").code == 1
    quiet = edgar("--root", str(layout.root), "skills", "log", "mine")
    assert (quiet.code, quiet.out.strip()) == (0, "no changes recorded for mine")


def test_restore_through_the_cli_and_refusals(edgar, layout):
    first = learned(layout, "pin-bump").read_text()
    learned(layout, "pin-bump", extra=" Worse.")
    before = tree_snapshot(layout.root)
    bad = edgar("--root", str(layout.root), "skills", "restore", "pin-bump", "--to", "deadbeef00")
    assert bad.code == 1
    assert "no version deadbeef00 of pin-bump in the ledger" in bad.err
    assert tree_snapshot(layout.root) == before
    unknown = edgar("--root", str(layout.root), "skills", "restore", "nothing-here")
    assert unknown.code == 1
    assert tree_snapshot(layout.root) == before
    done = edgar("--root", str(layout.root), "--json", "skills", "restore", "pin-bump")
    assert done.code == 0
    assert done.json()["version"] == hashlib.sha256(first.encode()).hexdigest()
    assert "Worse" not in (Path(layout.learned) / "pin-bump" / "SKILL.md").read_text()


def test_the_gate_turns_a_near_duplicate_into_a_patch_proposal_for_the_existing_skill(layout):
    write_skill(
        layout.skills, "pin-bump-with-lockfile", "Bump a dependency pin and refresh the lock file.", BODY
    )
    gate = Gate(layout, load_config(layout, overrides=["skills.synthesis=auto"]))
    draft = Draft("bump-pin-with-lockfile", "Bump a dependency pin and refresh the lock file.", BODY)
    outcome = gate.apply(draft, Provenance("s-1", ("long",)), verified=True)
    assert outcome.outcome == "proposed"
    assert outcome.message.startswith("proposed a patch to pin-bump-with-lockfile: .edgar/proposals/")
    assert "bump-pin-with-lockfile is a near-duplicate of it" in outcome.message
    assert (Path(layout.proposals) / "pin-bump-with-lockfile" / "SKILL.md").is_file()
    assert not (Path(layout.proposals) / "bump-pin-with-lockfile").exists()
    assert not Path(layout.learned).exists()
