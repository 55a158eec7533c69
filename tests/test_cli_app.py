"""The command table: only the parser of the command that runs is built, and nobody can tell."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from edgar_min.cli import COMMANDS, SKILLS_COMMANDS
from edgar_min.cli.app import build_parser, run

REPO = Path(__file__).resolve().parents[1]


def _subcommands(parser: argparse.ArgumentParser) -> argparse._SubParsersAction:
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))


def _listing(parser: argparse.ArgumentParser) -> list[tuple[str, str]]:
    return [(a.dest, a.help) for a in _subcommands(parser)._choices_actions]


def test_the_table_lists_what_the_modules_register_in_order_with_their_help():
    every = build_parser(every=True)
    assert _listing(every) == [(name, help_line) for name, help_line, _module in COMMANDS]
    skills = _subcommands(every).choices["skills"]
    assert _listing(skills) == [(name, help_line) for name, help_line, _module in SKILLS_COMMANDS]
    # What --help prints when nothing is built is what it printed with everything built.
    assert build_parser().format_help() == every.format_help()
    lazy_skills = _subcommands(build_parser("skills")).choices["skills"]
    assert lazy_skills.format_help() == skills.format_help()


@pytest.mark.parametrize(("command", "subcommand"), [(n, None) for n, _h, m in COMMANDS if m] + [
    ("skills", n) for n, _h, _m in SKILLS_COMMANDS
])  # fmt: skip
def test_every_row_builds_a_command_with_a_handler(command, subcommand):
    parser = build_parser(command, subcommand)
    chosen = _subcommands(parser).choices[command]
    if subcommand is not None:
        chosen = _subcommands(chosen).choices[subcommand]
    if chosen.get_default("handler") is None:  # a command of commands: `decisions export`
        assert all(p.get_default("handler") for p in _subcommands(chosen).choices.values())
    # Help for the one command is its own, in full.
    assert chosen.format_help().startswith(f"usage: edgar {command}")


def test_help_lists_every_command(capsys):
    assert run(["--help"]) == 0
    out = capsys.readouterr().out
    for name, help_line, _module in COMMANDS:
        assert name in out
        assert help_line.split()[0] in out
    assert run(["skills", "--help"]) == 0
    out = capsys.readouterr().out
    for name, _help, _module in SKILLS_COMMANDS:
        assert f"    {name}" in out


def test_an_unknown_command_is_argparse_own_error_naming_every_command(edgar, tmp_path):
    result = edgar("--root", str(tmp_path), "lern", "x.json")
    assert result.code == 2
    assert result.err.startswith("usage: edgar")
    assert "invalid choice: 'lern'" in result.err
    for name, _help, _module in COMMANDS:
        assert f"'{name}'" in result.err or f" {name}" in result.err
    result = edgar("--root", str(tmp_path), "skills", "lsit")
    assert result.code == 2
    assert result.err.startswith("usage: edgar skills")
    assert "'restore'" in result.err or " restore" in result.err


def test_unrecognized_arguments_are_still_refused(edgar, tmp_path):
    result = edgar("--root", str(tmp_path), "skills", "list", "--bogus")
    assert result.code == 2
    assert "unrecognized arguments: --bogus" in result.err


def test_an_abbreviated_option_that_hides_the_command_word_still_runs_the_right_command(edgar, tmp_path):
    skill = tmp_path / ".edgar" / "skills" / "mine" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: mine\ndescription: Mine.\n---\nProse.\n")
    # argparse reads `--ro` as `--root`, so the first bare word is its value, not the command.
    result = edgar("--ro", str(tmp_path), "skills", "list")
    assert result.code == 0, result
    assert result.out == edgar("--root", str(tmp_path), "skills", "list").out
    assert "mine" in result.out


PROBE = """
import sys
from edgar_min.cli import main
code = main(sys.argv[1:])
print(sorted(m for m in sys.modules if m.startswith("edgar_min.cli.")))
"""


@pytest.mark.parametrize(
    ("args", "modules"),
    [
        (["skills", "show", "nothing-here"], ["app", "skills_cmd"]),
        (["tree"], ["app", "agent_cmd"]),
        # The per-turn commands, `skills list` and `doctor` are read without argparse (cli/quick.py).
        (["skills", "list"], ["skills_cmd"]),
        (["doctor"], ["doctor_cmd"]),
        (["learn", "missing.json"], ["learn_cmd"]),
        (["hook", "stop"], ["hook_cmd"]),
    ],
)
def test_only_the_module_of_the_command_that_runs_is_imported(tmp_path, args, modules):
    done = subprocess.run(
        [sys.executable, "-c", PROBE, "--root", str(tmp_path), *args],
        cwd=REPO, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    loaded = done.stdout.strip().splitlines()[-1]
    expected = sorted(f"edgar_min.cli.{name}" for name in ["context", "quick", *modules])
    assert loaded == str(expected), done.stderr


def test_global_options_may_come_after_the_command_as_people_write_them(edgar, tmp_path):
    skill = tmp_path / ".edgar" / "skills" / "bump-pin"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: bump-pin\ndescription: Bump a dependency pin.\n---\n\nBody.\n"
    )
    before = edgar("--root", str(tmp_path), "--json", "skills", "suggest", "bump the pin")
    after = edgar("skills", "suggest", "bump the pin", "--json", "--root", str(tmp_path))
    assert after.code == 0, after.err
    assert json.loads(after.out)["candidates"] == json.loads(before.out)["candidates"]
    listed = edgar("skills", "list", "--root", str(tmp_path), "--json")
    assert [s["name"] for s in json.loads(listed.out)] == ["bump-pin"]


def test_set_given_before_and_after_the_command_both_count(edgar, tmp_path):
    from edgar_min.cli.app import _command_words, build_parser

    argv = ["--set", "skills.synthesis=off", "doctor", "--set", "skills.min_tool_calls=2"]
    ns = build_parser(*_command_words(argv)).parse_args(argv)
    assert ns.set == ["skills.synthesis=off", "skills.min_tool_calls=2"]
    shown = edgar("doctor", "--root", str(tmp_path), "--json", "--set", "skills.synthesis=off")
    assert json.loads(shown.out)["synthesis"]["mode"] == "off"


def test_every_help_ends_with_the_exit_codes_and_its_examples_parse(edgar, capsys):
    """A person reads `--help` for an example and what an exit code means; an example must run."""
    import shlex

    from edgar_min.cli import EXAMPLES
    from edgar_min.cli.app import _command_words, build_parser

    for command in ["", "learn", "skills suggest", "doctor", "skills list"]:
        result = edgar(*command.split(), "--help")
        shown = result.out + capsys.readouterr().out  # argparse prints help on sys.stdout
        assert result.code == 0
        assert "exit codes:" in shown
        assert "2  bad usage or unreadable input" in shown
        if command in EXAMPLES or not command:
            assert "examples:" in shown
    for command, lines in EXAMPLES.items():
        for line in lines:
            shown = line.partition("  #")[0].replace(" && ", " | ")
            (command_line,) = [part for part in shown.split(" | ") if part.strip().startswith("edgar ")]
            argv = shlex.split(command_line)[1:]
            ns = build_parser(*_command_words(argv)).parse_args(argv)  # a usage error raises
            assert hasattr(ns, "handler"), line
            if command != "edgar":
                assert " ".join([ns.command, getattr(ns, "skills_command", None) or ""]).strip() == command


def test_a_hooks_help_says_it_always_exits_0(edgar, capsys):
    result = edgar("hook", "--help")
    shown = result.out + capsys.readouterr().out
    assert "  0  always: a problem is printed and logged in .edgar/hook-problems.jsonl" in shown
    assert "2  bad usage" not in shown


def test_long_work_says_how_far_it_got_and_quick_work_says_nothing():
    import io

    from edgar_min.cli.context import Progress

    now = [0.0]
    quick, slow = io.StringIO(), io.StringIO()
    for stream, step in ((quick, 0.01), (slow, 0.4)):
        progress = Progress("reading session logs", stream)
        progress.clock = lambda: now[0]
        progress.next_at = now[0] + Progress.EVERY_S
        for done in range(1, 11):
            now[0] += step
            progress(done, 10)
    assert quick.getvalue() == ""
    lines = slow.getvalue().splitlines()
    assert lines[0] == "edgar: reading session logs: 3 of 10"
    assert lines[-1] == "edgar: reading session logs: 10 of 10"
    assert len(lines) <= 5  # at most once a second over four seconds, and the end
