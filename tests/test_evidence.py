"""Evidence from the store: verdict counts, pass rate with vs without a skill, staleness, garbage lines."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

import pytest
from skillfiles import BODY, write_skill

from edgar_min.config import load_config
from edgar_min.layout import Layout
from edgar_min.learning.evidence import collect, lifecycle_findings, usefulness_order
from edgar_min.learning.store import ExperienceStore, scan
from edgar_min.learning.turn import parse_turn
from edgar_min.learning.writer import Draft, Provenance, Target, write_learned

DAY = 86_400.0
T0 = 1_790_000_000.0  # 2026-09-21


def stamp(when: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(when))


@pytest.fixture
def layout(tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    return Layout(root, tmp_path / "home")


def turn(verdict="passed", skills=(), tools=("shell", "edit")):
    return parse_turn({"prompt": "x", "tools": list(tools), "verification": verdict, "skills": list(skills)})


def record(store, n, verdict="passed", skills=(), tools=("shell", "edit"), start=T0, step=60.0, offered=()):
    for i in range(n):
        store.record(turn(verdict, skills, tools), f"s-{start + i}", now=start + i * step, offered=offered)
    return start + n * step


def learned(layout, name, created="2026-09-21T00:00:00Z"):
    """A learned skill whose words share nothing with another's (so no near-duplicate refusal)."""
    words = " ".join(hashlib.sha256(f"{name}{i}".encode()).hexdigest()[:8] for i in range(8))
    procedure = BODY.replace("1. Change the pin.", f"1. {words}.")
    how = Provenance("s-0", ("long",), created=created)
    return write_learned(layout, Draft(name, f"Handles {name}.", procedure), how, Target("learned"))


def test_counts_verdicts_and_says_plainly_when_there_are_too_few_turns(layout):
    store = ExperienceStore(layout.experience, host="box")
    t = record(store, 3, "passed", ["pin-bump"])
    t = record(store, 1, "failed", ["pin-bump"], start=t)
    t = record(store, 2, "unverified", ["pin-bump"], start=t, offered=("pin-bump",))
    record(store, 5, "passed", start=t, offered=("pin-bump", "other"))
    s = collect(layout, store=store).stats("pin-bump")
    assert (s.used, s.passed, s.failed, s.unverified) == (6, 3, 1, 2)
    assert s.offered == 7  # offered in 7 turns, used in 2 of them: offers and uses are apart
    # Five turns offered it and did not use it: they are turns "without" it.
    assert s.verdict == "too few turns to tell"
    assert s.with_rate == 0.75  # unverified turns say nothing either way
    assert s.without_rate == 1.0
    assert s.sentence(10).startswith("too few turns to tell: 4 decided turn(s) with it and 5 without it")


def test_a_skill_that_lowers_the_pass_rate_is_measured_as_hurting(layout):
    store = ExperienceStore(layout.experience, host="box")
    t = record(store, 10, "failed", ["bad-skill"])
    t = record(store, 5, "passed", ["bad-skill"], start=t)
    record(store, 20, "passed", start=t)
    s = collect(layout, store=store).stats("bad-skill")
    assert (s.with_turns, s.without_turns) == (15, 20)
    assert s.with_rate == pytest.approx(1 / 3)
    assert s.verdict == "hurts"
    assert "pass rate 33% with it vs 100% without it" in s.sentence(10)


def test_a_skill_that_raises_it_helps_and_a_small_difference_is_not_called_either_way(layout):
    store = ExperienceStore(layout.experience, host="box")
    t = record(store, 20, "passed", ["good"])
    t = record(store, 10, "failed", start=t)
    t = record(store, 10, "passed", start=t)
    # `meh` is loaded in another shape, where it makes a difference chance explains
    t = record(store, 9, "passed", ["meh"], tools=("edit",), start=t)
    t = record(store, 1, "failed", ["meh"], tools=("edit",), start=t)
    t = record(store, 8, "passed", tools=("edit",), start=t)
    record(store, 2, "failed", tools=("edit",), start=t)
    evidence = collect(layout, store=store)
    assert evidence.stats("good").verdict == "helps"
    assert evidence.stats("meh").verdict == "no clear difference"


def test_without_means_the_same_task_shapes_weighted_as_the_skill_was_loaded(layout):
    store = ExperienceStore(layout.experience, host="box")
    # The skill is loaded only for the hard shape, where it passes 60% against 20% without.
    t = record(store, 12, "passed", ["hard-help"], tools=("deploy",))
    t = record(store, 8, "failed", ["hard-help"], tools=("deploy",), start=t)
    t = record(store, 4, "passed", tools=("deploy",), start=t)
    t = record(store, 16, "failed", tools=("deploy",), start=t)
    # An easy shape it never loads for, passing always: it must not count as "without".
    record(store, 200, "passed", tools=("ls",), start=t)
    s = collect(layout, store=store).stats("hard-help")
    assert (s.with_rate, s.without_rate) == (0.6, 0.2)
    assert (s.with_turns, s.without_turns) == (20, 20)
    assert s.verdict == "helps"


def garbage_store(layout, torn_last=True):
    store = ExperienceStore(layout.experience, host="box")
    t = record(store, 15, "failed", ["bad"])
    (path,) = map(Path, store.files())
    with path.open("ab") as f:
        f.write(b"not a record at all\n")
        f.write(b"1\t2026-09-21T00:00:00Z\ts\tmain:x\tmaybe\t-\t-\n")  # a verdict outside the vocabulary
        f.write(b"\xff\xfe\x00binary\n")
        f.write(b"3\t2026-09-21T00:00:00Z\ts\tmain:x\tpassed\t-\t-\t-\n")  # another version
    t = record(store, 15, "passed", start=t)
    if torn_last:
        with path.open("ab") as f:
            f.write(b"1\t2026-09-21T00:00:00Z\ts\tmain:sh")
    return store


def test_garbage_and_torn_lines_are_skipped_and_counted(layout):
    store = garbage_store(layout)
    found = scan(store)
    assert (found.turns, found.torn) == (30, 5)
    s = collect(layout, store=store).stats("bad")
    assert (s.used, s.failed, s.verdict) == (15, 15, "hurts")


@pytest.mark.parametrize("block", [64, 100, 1 << 22])
def test_block_boundaries_change_nothing(layout, block):
    store = garbage_store(layout)
    whole, small = scan(store), scan(store, block=block)
    assert (small.turns, small.torn, small.combos, small.offers, small.last_used) == (
        whole.turns, whole.torn, whole.combos, whole.offers, whole.last_used,
    )  # fmt: skip


def test_last_used_and_turns_since(layout):
    store = ExperienceStore(layout.experience, host="box")
    t = record(store, 3, "passed", ["a-skill"])
    record(store, 7, "passed", start=t)
    found = scan(store)
    assert found.last_used["a-skill"] == stamp(T0 + 120)
    assert found.turns_after(stamp(T0 + 120)) == 7
    assert found.turns_after("2000-01-01T00:00:00Z") == 10


def test_history_lines_are_counted(layout):
    Path(layout.history).mkdir(parents=True)
    (Path(layout.history) / "pin-bump.md").write_text(
        "- the declared check failed\n- corrected: x\nnot a line\n"
    )
    assert collect(layout).stats("pin-bump").history_lines == 2
    assert collect(layout).stats("other").history_lines == 0


def test_stale_by_turns_by_days_and_never_while_the_project_is_idle(layout):
    config = load_config(layout, overrides=["skills.stale_turns=50", "skills.stale_days=7"])
    learned(layout, "used-skill")
    learned(layout, "unused-skill")
    learned(layout, "idle-skill", created="2026-10-30T00:00:00Z")
    write_skill(layout.skills, "mine", "A person's skill, never loaded.")
    store = ExperienceStore(layout.experience)
    t = record(store, 60, "passed")
    record(store, 1, "passed", ["used-skill"], start=t)
    evidence = collect(layout, config)
    assert (
        "never used since it was created 2026-09-21T00:00:00Z; 61 turns recorded since (stale after 50)"
        in evidence.stats("unused-skill").stale
    )
    assert evidence.stats("used-skill").stale == ""
    assert evidence.stats("idle-skill").stale == ""  # created after the newest turn: nothing since
    assert evidence.stats("mine").stale == ""  # a person's skill is never stale
    # By days: 20 turns spread over nine and a half days, the skill loaded only on the first.
    layout2 = Layout(Path(layout.root).parent / "p2", layout.home)
    Path(layout2.root).mkdir()
    learned(layout2, "old-skill")
    store2 = ExperienceStore(layout2.experience)
    t = record(store2, 1, "passed", ["old-skill"])
    record(store2, 20, "passed", start=t, step=DAY / 2)
    s = collect(layout2, config).stats("old-skill")
    assert f"last used {stamp(T0)}; 9 days of use since (stale after 7)" in s.stale


def test_prune_candidates_are_learned_skills_only(layout):
    learned(layout, "hurting-skill")
    write_skill(layout.skills, "persons-skill", "Also hurting.")
    store = ExperienceStore(layout.experience)
    t = record(store, 15, "failed", ["hurting-skill", "persons-skill"])
    record(store, 15, "passed", start=t)
    names = [n for n, _ in collect(layout).prune_candidates()]
    assert names == ["hurting-skill"]


def test_usefulness_order_puts_helping_first_and_hurting_last(layout):
    for name in ("helper", "hurter", "never-learned", "used-once"):
        learned(layout, name)
    write_skill(layout.skills, "never-hand", "A person's skill.")
    store = ExperienceStore(layout.experience)
    t = record(store, 20, "passed", ["helper"])
    t = record(store, 20, "failed", ["hurter"], start=t)
    t = record(store, 1, "passed", ["used-once"], start=t)
    t = record(store, 10, "passed", start=t)
    record(store, 10, "failed", start=t)
    assert usefulness_order(layout, store) == ["helper", "used-once", "never-hand", "never-learned", "hurter"]


def test_findings_name_hurting_and_stale_skills_and_torn_ledger_lines(layout):
    learned(layout, "hurter")
    config = load_config(layout)
    store = ExperienceStore(layout.experience)
    t = record(store, 15, "failed", ["hurter"])
    record(store, 15, "passed", start=t)
    with Path(layout.ledger).open("ab") as f:
        f.write(b'{"torn": ')
    found = lifecycle_findings(layout, config)
    assert any(f.startswith("skill hurter (learned) is measured as hurting: pass rate 0%") for f in found)
    assert any("ledger" in f and "1 torn or garbage line(s)" in f for f in found)
    assert lifecycle_findings(Layout(Path(layout.root) / "nothing", layout.home), config) == []


def test_an_empty_store_gives_empty_figures(layout):
    evidence = collect(layout)
    assert evidence.scan.turns == 0
    assert evidence.all_stats() == []
