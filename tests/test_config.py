"""Layered config: defaults, user, project, environment, flags; every mistake named."""

from __future__ import annotations

from pathlib import Path

import pytest

from edgar_min.config import load_config
from edgar_min.errors import ConfigError
from edgar_min.layout import Layout


@pytest.fixture
def layout(tmp_path):
    home = tmp_path / "home"
    root = tmp_path / "proj"
    (root / ".edgar").mkdir(parents=True)
    home.mkdir()
    return Layout(root, home)


def test_defaults_need_no_file(layout):
    config = load_config(layout, environ={})
    assert config.skills.synthesis == "propose"
    assert (config.skills.min_tool_calls, config.skills.min_repeats, config.skills.distill_after) == (5, 3, 3)
    assert config.controller.enabled is True
    assert config.model.provider == "offline"
    assert config.semif.engine == "lexical"
    assert config.agent == {"data": "data", "drafts": "data/drafts", "writable": ["drafts"]}
    assert config.sources == ("defaults",)


def test_layers_apply_in_order(layout):
    Path(layout.user_config).write_text(
        '[skills]\nsynthesis = "off"\nmin_repeats = 7\n[model]\ntimeout_s = 5\n'
    )
    Path(layout.project_config).write_text(
        '[skills]\nsynthesis = "auto"\n[agent]\ncontacts = "data/c.json"\n'
    )
    env = {"EDGAR_SKILLS_MIN_REPEATS": "4", "EDGAR_HOME": "/ignored", "OTHER": "x"}
    config = load_config(layout, environ=env, overrides=["skills.synthesis=propose"])
    assert config.skills.synthesis == "propose"  # flag beats project
    assert config.skills.min_repeats == 4  # env beats user
    assert config.model.timeout_s == 5.0
    assert config.agent["contacts"] == "data/c.json"
    assert config.agent["drafts"] == "data/drafts"
    assert config.sources[0] == "defaults"
    assert config.sources[1:3] == (str(layout.user_config), str(layout.project_config))
    assert "EDGAR_SKILLS_MIN_REPEATS" in config.sources[3]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[skills]\nsynthesis = 'yes'\n", "skills.synthesis must be one of off, propose, auto"),
        ("[skills]\nmin_tool_calls = '5'\n", "skills.min_tool_calls must be an integer"),
        ("[skills]\nmin_tool_calls = true\n", "skills.min_tool_calls must be an integer"),
        ("[skills]\nbogus = 1\n", "unknown key skills.bogus"),
        ("[nope]\nx = 1\n", "unknown section [nope]"),
        ("[model]\ncommand = 'llm -m x'\n", "model.command must be a list of strings"),
        ("[controller]\nenabled = 'no'\n", "controller.enabled must be true or false"),
        ("skills = 3\n", "[skills] must be a table"),
        ("[skills]\nmin_repeats = 0\n", "skills.min_repeats must be between 1 and 63"),
        ("[skills]\nmin_repeats = 100\n", "skills.min_repeats must be between 1 and 63"),
        ("[model]\ntimeout_s = 0\n", "model.timeout_s must be between 0.001 and 3600"),
        ("[skills\n", "not valid TOML"),
    ],
)
def test_a_bad_project_file_names_the_file_the_key_and_what_was_expected(layout, text, words):
    Path(layout.project_config).write_text(text)
    with pytest.raises(ConfigError) as err:
        load_config(layout, environ={})
    assert words in err.value.message
    assert str(layout.project_config) in err.value.message
    assert err.value.exit_code == 2


@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({"EDGAR_SKILLS_MIN_REPEATS": "three"}, "skills.min_repeats must be an integer"),
        ({"EDGAR_SKILLS_NOPE": "1"}, "unknown key skills.nope"),
        ({"EDGAR_MODEL_COMMAND": "llm -m x"}, "JSON array"),
        ({"EDGAR_CONTROLLER_ENABLED": "maybe"}, "true or false"),
    ],
)
def test_bad_environment_variables_are_named(layout, env, words):
    with pytest.raises(ConfigError, match=words):
        load_config(layout, environ=env)


def test_environment_values_are_typed(layout):
    env = {"EDGAR_MODEL_COMMAND": '["llm", "-m", "x"]', "EDGAR_CONTROLLER_ENABLED": "false"}
    config = load_config(layout, environ=env)
    assert config.model.command == ("llm", "-m", "x")
    assert config.controller.enabled is False


@pytest.mark.parametrize("flag", ["skills.synthesis", "synthesis=off", "=off", "skills.=x"])
def test_a_malformed_set_flag_is_a_sentence(layout, flag):
    with pytest.raises(ConfigError, match=r"SECTION\.KEY=VALUE"):
        load_config(layout, environ={}, overrides=[flag])


def _number_keys():
    from edgar_min.config import AGENT_NUMBERS, SECTIONS
    from edgar_min.records import fields

    keys = [
        (section, f.name, str(f.type))
        for section, cls in SECTIONS.items()
        for f in fields(cls)
        if str(f.type) in {"int", "float"}
    ]
    return keys + [("agent", key, "float") for key in AGENT_NUMBERS]


@pytest.mark.parametrize(("section", "key", "kind"), _number_keys(), ids=str)
@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "1e308", "-1", "1e400", "99999999999999999999"])
def test_every_number_key_refuses_what_no_timer_or_counter_can_take(layout, section, key, kind, value):
    """In the file, in the environment and as a flag: a sentence naming the key, exit 2."""
    if kind == "int" and not value.lstrip("-").isdigit():
        value = value.replace("inf", "1e999")  # an int key given a float is a type error, also named
    Path(layout.project_config).write_text(f"[{section}]\n{key} = {value}\n")
    with pytest.raises(ConfigError) as err:
        load_config(layout, environ={})
    assert f"{section}.{key} must be" in err.value.message
    assert err.value.exit_code == 2
    Path(layout.project_config).unlink()
    with pytest.raises(ConfigError, match=rf"{section}\.{key} must be"):
        load_config(layout, environ={f"EDGAR_{section.upper()}_{key.upper()}": value})
    with pytest.raises(ConfigError, match=rf"{section}\.{key} must be"):
        load_config(layout, environ={}, overrides=[f"{section}.{key}={value}"])


def test_a_config_nested_too_deeply_is_a_sentence(edgar, layout):
    Path(layout.project_config).write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n")
    with pytest.raises(ConfigError, match="nested too deeply"):
        load_config(layout, environ={})
    result = edgar("--root", str(layout.root), "skills", "list")
    assert result.code == 2
    assert "nested too deeply" in result.err


@pytest.mark.parametrize("kind", ["dev-zero", "fifo"])
def test_a_config_that_is_not_a_plain_file_is_a_sentence_not_a_hang(layout, kind):
    import os
    import threading

    if kind == "fifo":
        os.mkfifo(layout.project_config)
    else:
        Path(layout.project_config).symlink_to("/dev/zero")
    caught = []

    def load():
        try:
            load_config(layout, environ={})
        except ConfigError as exc:
            caught.append(exc)

    thread = threading.Thread(target=load, daemon=True)
    thread.start()
    thread.join(10)
    assert caught, "load_config did not finish"
    assert "not a plain file" in caught[0].message


def test_a_config_larger_than_a_megabyte_is_refused(layout):
    Path(layout.project_config).write_text("# " + "x" * 1_000_001 + "\n")
    with pytest.raises(ConfigError, match="larger than 1,000,000 bytes"):
        load_config(layout, environ={})
