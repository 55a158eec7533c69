"""The parsed-config cache: an unchanged config is read without a TOML parser, a changed one afresh."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from edgar_min import trust
from edgar_min.config import load_config
from edgar_min.configcache import FORMAT
from edgar_min.errors import ConfigError
from edgar_min.layout import Layout

REPO = Path(__file__).resolve().parents[1]
CHECK = '[check]\ncommand = ["pytest", "-q"]\n'


@pytest.fixture
def layout(tmp_path):
    home = tmp_path / "home"
    root = tmp_path / "proj"
    (root / ".edgar").mkdir(parents=True)
    home.mkdir()
    return Layout(root, home)


def cached(layout: Layout) -> dict:
    return json.loads(Path(layout.parsed_configs).read_text())


def rewrite_keeping_stat(path: str, text: str) -> None:
    """Replace the file's bytes in place, same size, its mtime set back: as a same-tick rewrite looks."""
    before = os.stat(path)
    assert len(text.encode()) == before.st_size
    with open(path, "r+b") as handle:
        handle.write(text.encode())
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def test_both_configs_are_kept_parsed_in_the_persons_state_folder_only(layout):
    Path(layout.user_config).write_text('[skills]\nsynthesis = "off"\n')
    Path(layout.project_config).write_text("[skills]\nmin_repeats = 4\n")
    first = load_config(layout, environ={})
    document = cached(layout)
    assert document["format"] == FORMAT
    assert document["files"] == {
        layout.user_config: {
            "text": '[skills]\nsynthesis = "off"\n',
            "document": {"skills": {"synthesis": "off"}},
        },
        layout.project_config: {
            "text": "[skills]\nmin_repeats = 4\n",
            "document": {"skills": {"min_repeats": 4}},
        },
    }
    assert Path(layout.parsed_configs).is_relative_to(layout.home)
    assert stat.S_IMODE(os.stat(layout.parsed_configs).st_mode) == 0o600
    assert sorted(os.listdir(layout.edgar)) == ["config.toml"]  # nothing new in the project
    assert load_config(layout, environ={}) == first


def test_a_config_rewritten_with_the_same_size_in_the_same_tick_is_read_afresh(layout):
    Path(layout.project_config).write_text("[skills]\nmin_repeats = 4\n")
    assert load_config(layout, environ={}).skills.min_repeats == 4
    rewrite_keeping_stat(layout.project_config, "[skills]\nmin_repeats = 5\n")
    assert load_config(layout, environ={}).skills.min_repeats == 5
    assert cached(layout)["files"][layout.project_config]["document"] == {"skills": {"min_repeats": 5}}


def test_a_changed_config_that_became_invalid_is_a_sentence_not_the_cached_document(layout):
    Path(layout.project_config).write_text("[skills]\nmin_repeats = 4\n")
    load_config(layout, environ={})
    rewrite_keeping_stat(layout.project_config, "[skills]\nmin_repeats = [\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(layout, environ={})


def test_trust_is_withdrawn_when_a_cached_config_changes(layout):
    Path(layout.project_config).write_text(CHECK)
    trust.record(layout, CHECK.encode())
    assert load_config(layout, environ={}).check.command == ("pytest", "-q")
    assert load_config(layout, environ={}).check.command == ("pytest", "-q")  # from the cache
    rewrite_keeping_stat(layout.project_config, CHECK.replace("-q", "-x"))
    config = load_config(layout, environ={})
    assert config.untrusted == ("check.command",)
    assert config.check.command == ()


@pytest.mark.parametrize(
    "damage",
    [
        b"",
        b"{not json",
        b'{"format": "edgar-min parsed configs 1", "files": ',
        b'{"format": "something else", "files": {}}',
        b'{"format": "edgar-min parsed configs 1", "files": []}',
        b'{"format": "edgar-min parsed configs 1", "files": {"X": {"text": 1, "document": 2}}}',
        b"\xff\xfe",
        b"[" * 100_000,
    ],
    ids=["empty", "not-json", "torn", "foreign", "files-not-an-object", "bad-entry", "not-utf8", "deep"],
)
def test_a_damaged_or_foreign_cache_is_ignored_and_written_anew(layout, damage):
    Path(layout.project_config).write_text("[skills]\nmin_repeats = 4\n")
    load_config(layout, environ={})
    named = damage.replace(b'"X"', json.dumps(layout.project_config).encode())
    Path(layout.parsed_configs).write_bytes(named)
    assert load_config(layout, environ={}).skills.min_repeats == 4
    assert cached(layout)["files"][layout.project_config]["document"] == {"skills": {"min_repeats": 4}}


def test_a_cached_document_is_used_only_for_the_text_it_was_parsed_from(layout):
    Path(layout.project_config).write_text("[skills]\nmin_repeats = 4\n")
    load_config(layout, environ={})
    forged = {"text": "[skills]\nmin_repeats = 9\n", "document": {"skills": {"min_repeats": 9}}}
    Path(layout.parsed_configs).write_text(
        json.dumps({"format": FORMAT, "files": {layout.project_config: forged}})
    )
    assert load_config(layout, environ={}).skills.min_repeats == 4


def test_a_cache_behind_a_link_or_a_folder_in_its_place_is_not_read(layout, tmp_path):
    Path(layout.project_config).write_text("[skills]\nmin_repeats = 4\n")
    load_config(layout, environ={})
    elsewhere = tmp_path / "elsewhere.json"
    forged = {"text": "[skills]\nmin_repeats = 4\n", "document": {"skills": {"min_repeats": 9}}}
    elsewhere.write_text(json.dumps({"format": FORMAT, "files": {layout.project_config: forged}}))
    os.unlink(layout.parsed_configs)
    os.symlink(elsewhere, layout.parsed_configs)
    assert load_config(layout, environ={}).skills.min_repeats == 4
    os.unlink(layout.parsed_configs)
    os.mkdir(layout.parsed_configs)
    assert load_config(layout, environ={}).skills.min_repeats == 4


def test_a_document_json_cannot_carry_is_parsed_every_time_not_kept(layout):
    Path(layout.user_config).write_text("[skills]\nmin_repeats = 4\n")
    Path(layout.project_config).write_text("[agent]\nsince = 1979-05-27\nnumbers = [1.5, -0.0]\n")
    for _ in range(2):
        config = load_config(layout, environ={})
        assert str(config.agent["since"]) == "1979-05-27"
        assert config.agent["numbers"] == [1.5, -0.0]
    assert list(cached(layout)["files"]) == [layout.user_config]


def _load_in_a_fresh_process(layout: Layout) -> tuple[str, bool]:
    code = (
        "import sys\n"
        f"sys.path.insert(0, {str(REPO)!r})\n"
        "from edgar_min.config import load_config\n"
        "from edgar_min.layout import Layout\n"
        f"config = load_config(Layout({layout.root!r}, {layout.home!r}), environ={{}})\n"
        "print(config.check.command, 'tomllib' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    words, _, imported = done.stdout.strip().rpartition(" ")
    return words, imported == "True"


def test_an_unchanged_config_is_read_without_importing_tomllib(layout):
    Path(layout.user_config).write_text('[skills]\nsynthesis = "off"\n')
    Path(layout.project_config).write_text(CHECK)
    trust.record(layout, CHECK.encode())
    assert _load_in_a_fresh_process(layout) == ("('pytest', '-q')", True)
    assert _load_in_a_fresh_process(layout) == ("('pytest', '-q')", False)
    Path(layout.project_config).write_text(CHECK + "timeout_s = 60\n")
    assert _load_in_a_fresh_process(layout) == ("()", True)  # changed: parsed afresh, and no longer trusted
