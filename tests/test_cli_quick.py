"""The per-turn commands (and `skills list`, `doctor`) read without argparse: the same
reading as argparse, or none at all."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from edgar_min.cli.app import _UsageError, _VersionRequested, build_parser
from edgar_min.cli.quick import parse


def argparse_reading(argv: list[str]) -> dict | None:
    """What argparse makes of `argv` (as `cli/app.py` builds it), or None for a usage error."""
    from edgar_min.cli.app import _command_words

    words = _command_words(argv)
    parser = build_parser(*words)
    try:
        ns = parser.parse_args(argv)
    except (_UsageError, _VersionRequested, SystemExit):
        return None
    return vars(ns)


# The lines a harness runs on every turn: these must never need argparse.
EVERY_TURN = [
    ["--root", "/work/project", "hook", "stop"],
    ["--root", "/work/project", "hook", "user-prompt-submit"],
    ["--root", "/work/project", "hook", "session-start"],
    ["--root=/p", "--json", "hook", "stop"],
    ["learn", "--from", "claude-code", "--hook"],
    ["learn", "turn.json"],
    ["learn", "turn.json", "--session", "bench-1"],
    ["learn", "-", "--session=s1", "--check"],
    ["--json", "learn", "--from=codex", "rollout.jsonl", "--dry-run"],
    ["--set", "skills.synthesis=off", "--set", "model.provider=offline", "learn", "t.json"],
    ["skills", "list"],
    ["--json", "skills", "list", "--learned"],
    ["doctor"],
    ["--root", "/p", "doctor", "--network"],
    ["hook", "stop", "--root", "/work/project"],
    ["learn", "turn.json", "--json", "--root=/p"],
    ["--set", "skills.synthesis=off", "learn", "t.json", "--set", "model.provider=offline"],
    ["skills", "list", "--json"],
]


@pytest.mark.parametrize("argv", EVERY_TURN, ids=" ".join)
def test_a_per_turn_line_is_read_as_argparse_reads_it(argv):
    quick = parse(argv)
    assert quick is not None, "a per-turn command line fell back to argparse"
    assert vars(quick) == argparse_reading(argv)


# Lines only argparse may answer: its help, its sentences, its abbreviations.
LEFT_TO_ARGPARSE = [
    ["learn", "--help"],
    ["learn", "-h"],
    ["learn", "--sess", "x", "t.json"],  # an abbreviation argparse expands
    ["--ro", "/p", "hook", "stop"],
    ["hook", "nope"],  # not a choice: argparse's sentence
    ["hook"],  # the event is required
    ["learn", "a.json", "b.json"],  # one too many
    ["learn", "--from", "cursor", "t.json"],
    ["learn", "--session"],  # no value
    ["learn", "--session", "--check", "t.json"],
    ["learn", "--check=yes", "t.json"],
    ["learn", "--", "t.json"],
    ["skills", "show", "x"],  # not read here
    ["skills", "--help", "list"],
    ["skills"],
    ["doctor", "--net"],
    ["--json"],
    [],
]


@pytest.mark.parametrize("argv", LEFT_TO_ARGPARSE, ids=lambda a: " ".join(a) or "(nothing)")
def test_anything_else_is_left_to_argparse(argv):
    assert parse(argv) is None


WORDS = st.sampled_from(
    [
        "learn", "hook", "stop", "session-start", "user-prompt-submit", "t.json", "-", "",
        "--session", "--session=s", "--from", "claude-code", "codex", "--from=codex", "--hook",
        "--check", "--dry-run", "--json", "--root", "--root=/r", "/r", "--set", "a.b=1", "-h",
        "--sess", "--", "--check=1", "-1", "skills", "x=y", "list", "--learned", "doctor", "--network",
    ]
)  # fmt: skip


GLOBALS = st.sampled_from([["--json"], ["--root", "/r"], ["--root=/r"], ["--set", "a.b=1"], ["--set=a=b"]])


@st.composite
def lines(draw):
    """Global options, a per-turn command, then any words: most lines read, some not."""
    before = [word for group in draw(st.lists(GLOBALS, max_size=3)) for word in group]
    command = draw(st.sampled_from([["learn"], ["hook"], ["skills", "list"], ["doctor"]]))
    return [*before, *command, *draw(st.lists(WORDS, max_size=6))]


@settings(max_examples=500, deadline=None)
@given(st.one_of(lines(), st.lists(WORDS, max_size=7)))
def test_wherever_it_reads_a_line_argparse_reads_it_the_same(argv):
    quick = parse(argv)
    if quick is not None:
        assert vars(quick) == argparse_reading(argv)
