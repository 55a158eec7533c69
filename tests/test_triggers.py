"""The four triggers, in order, with the seed's conditions."""

from __future__ import annotations

import pytest

from edgar_min.config import SkillsConfig
from edgar_min.learning.store import ExperienceStore
from edgar_min.learning.triggers import ORIGINS, TRIGGERS, as_text, from_text, needs_verdict, triggers
from edgar_min.learning.turn import parse_turn

CFG = SkillsConfig()


def turn(**kw):
    return parse_turn({"prompt": "x", **kw})


ERR = [{"tool": "shell", "kind": "nonzero_exit", "exit_code": 1, "program": "pytest"}]


@pytest.mark.parametrize(
    ("kw", "fired"),
    [
        ({"tools": ["shell"] * 5, "verification": "passed"}, ["long"]),
        ({"tools": ["shell"] * 4, "verification": "passed"}, []),
        ({"tools": ["shell"] * 9, "verification": "failed"}, []),
        ({"tools": ["shell"], "errors": ERR, "verification": "passed"}, ["recovered"]),
        ({"tools": ["shell"], "errors": ERR, "verification": "unverified"}, []),
        ({"corrections": ["no, like this"], "verification": "failed"}, ["correction"]),
        (
            {"tools": ["shell"] * 6, "errors": ERR, "corrections": ["no"], "verification": "passed"},
            ["long", "recovered", "correction"],
        ),
    ],
)
def test_each_trigger_fires_only_on_its_condition(kw, fired):
    assert triggers(turn(**kw), CFG, None) == tuple(fired)


def test_repeated_needs_distinct_earlier_sessions(tmp_path):
    store = ExperienceStore(tmp_path, host="h")
    t = turn(tools=["shell", "edit"], verification="passed")
    for session in ("s1", "s1", "s2"):
        store.record(t, session)
    assert triggers(t, CFG, store, session="s9") == ()
    store.record(t, "s3")
    assert triggers(t, CFG, store, session="s9") == ("repeated",)
    # The current session does not count as an earlier one.
    assert triggers(t, CFG, store, session="s3") == ()


def test_repeated_does_not_fire_when_a_skill_was_loaded_or_the_check_did_not_pass(tmp_path):
    store = ExperienceStore(tmp_path, host="h")
    t = turn(tools=["shell"], verification="passed")
    for session in ("a", "b", "c"):
        store.record(t, session)
    assert triggers(t, CFG, store, "z") == ("repeated",)
    assert triggers(turn(tools=["shell"], verification="passed", skills=["pin-bump"]), CFG, store, "z") == ()
    assert triggers(turn(tools=["shell"], verification="unverified"), CFG, store, "z") == ()


def test_a_chat_repeated_across_sessions_is_no_work_to_learn(tmp_path):
    store = ExperienceStore(tmp_path, host="h")
    chat = turn(verification="passed")
    for session in ("a", "b", "c", "d"):
        store.record(chat, session)
    assert triggers(chat, CFG, store, "z") == ()
    assert needs_verdict(turn(), CFG, store, "z") is False


@pytest.mark.parametrize(
    ("kw", "needed"),
    [
        ({}, False),  # no tool call: nothing a pass could make fire
        ({"corrections": ["no, use uv"]}, False),  # a correction fires without a check
        ({"tools": ["shell"] * 4}, False),  # short, nothing failed, never seen before
        ({"tools": ["shell"] * 5}, True),  # long, if it passes
        ({"tools": ["shell"], "errors": ERR}, True),  # recovered, if it passes
        ({"tools": ["shell"], "errors": ERR, "corrections": ["no"]}, True),
    ],
)
def test_a_verdict_is_needed_only_when_a_pass_would_fire_a_trigger(kw, needed):
    assert needs_verdict(turn(**kw), CFG, None) is needed


def test_a_shape_seen_in_other_sessions_needs_a_verdict(tmp_path):
    store = ExperienceStore(tmp_path, host="h")
    t = turn(tools=["shell", "edit"])
    assert needs_verdict(t, CFG, store, "z") is False
    for session in ("a", "b", "c"):
        store.record(t, session)
    assert needs_verdict(t, CFG, store, "z") is True
    assert needs_verdict(turn(tools=["shell", "edit"], skills=["pin-bump"]), CFG, store, "z") is False


def test_thresholds_come_from_config():
    cfg = SkillsConfig(min_tool_calls=2)
    assert triggers(turn(tools=["a", "b"], verification="passed"), cfg, None) == ("long",)


def test_the_vocabulary_is_the_words_of_its_type():
    # The type lives only for type checkers, so the tuples the code uses at run time must say its words.
    import ast
    import re
    from pathlib import Path

    from edgar_min.learning import triggers as module

    source = Path(module.__file__).read_text()
    declared = re.search(r"^    Trigger = Literal\[(.*?)\]$", source, re.MULTILINE | re.DOTALL).group(1)
    assert ast.literal_eval(f"({declared},)") == (*TRIGGERS, *ORIGINS)


def test_what_fired_becomes_text_only_where_it_is_written_and_is_read_back_as_the_same():
    fired = triggers(
        turn(tools=["shell"] * 6, errors=ERR, corrections=["no"], verification="passed"), CFG, None
    )
    assert fired == ("long", "recovered", "correction")
    assert as_text(fired) == "long,recovered,correction"
    assert from_text(as_text(fired)) == fired
    assert from_text(" distill , correction,  made-up ,") == ("distill", "correction")
