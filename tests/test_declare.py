"""`edgar install` finds the project's check where people declare one, and records it where the
person sees and can change it, trusted in the same step."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import tree_snapshot
from transcripts import config_toml

from edgar_min.config import load_config
from edgar_min.delivery.declare import find_checks
from edgar_min.layout import Layout, user_home

CHECKS = Path(__file__).resolve().parent / "fixtures" / "checks"
PYTEST = ("python3", "-m", "pytest", "-q")


def project(tmp_path: Path, name: str) -> Path:
    root = tmp_path / name
    shutil.copytree(CHECKS / name, root)
    return root


def config_of(root: Path):
    return load_config(Layout(str(root), user_home()))


@pytest.mark.parametrize(
    ("name", "command", "source"),
    [
        ("flask", PYTEST, "pyproject.toml"),
        ("werkzeug", PYTEST, "setup.cfg"),
        ("pytest-xdist", PYTEST, "tox.ini"),
        ("requests", ("make", "test"), "Makefile"),  # its tox.ini has no [pytest] section
        ("express", ("npm", "test"), "package.json"),
        ("cobra", ("go", "test", "./..."), "go.mod"),
        ("ripgrep", ("cargo", "test"), "Cargo.toml"),
    ],
)
def test_each_real_projects_declared_check_is_found(tmp_path, name, command, source):
    (found, *others) = find_checks(str(project(tmp_path, name)))
    assert (found.command, found.source) == (command, source)
    assert others == []


@pytest.mark.parametrize(
    ("name", "text"),
    [
        # What `npm init -y` writes: a test script that only fails.
        (
            "package.json",
            '{"name": "x", "scripts": {"test": "echo \\"Error: no test specified\\" && exit 1"}}',
        ),
        ("package.json", '{"name": "x", "scripts": {"build": "tsc"}}'),
        ("package.json", "not json at all"),
        ("pyproject.toml", '[project]\nname = "x"\n\n[tool.ruff]\nline-length = 100\n'),
        ("pyproject.toml", "[tool.pytest.ini_options\nbroken"),
        ("Makefile", "TEST := unit\ntest-all:\n\tpytest\ntests: build\n\tpytest\n# test: commented out\n"),
        ("tox.ini", "[tox]\nenvlist = py311\n\n[testenv]\ncommands = pytest\n"),
        ("setup.cfg", "[metadata]\nname = x\n\n[flake8]\nmax-line-length = 80\n"),
    ],
)
def test_files_that_declare_no_check_give_none(tmp_path, name, text):
    (tmp_path / name).write_text(text)
    assert find_checks(str(tmp_path)) == []


def test_several_declared_checks_are_all_found_pytest_first(tmp_path):
    root = project(tmp_path, "requests")
    shutil.copy(CHECKS / "flask" / "pyproject.toml", root / "pyproject.toml")
    shutil.copy(CHECKS / "express" / "package.json", root / "package.json")
    found = [(f.command, f.source) for f in find_checks(str(root))]
    assert found == [
        (PYTEST, "pyproject.toml"),
        (("npm", "test"), "package.json"),
        (("make", "test"), "Makefile"),
    ]


def test_install_records_the_check_it_found_and_trusts_it_in_one_step(tmp_path, edgar):
    root = project(tmp_path, "flask")
    result = edgar("--root", str(root), "install", "claude-code")
    assert result.code == 0, result
    assert (
        "found the check python3 -m pytest -q in pyproject.toml; recorded it as [check] command in "
        ".edgar/config.toml and trusted that file (`edgar trust --revoke`)"
    ) in result.out
    assert (root / ".edgar" / "config.toml").read_text() == (
        '[check]\ncommand = ["python3", "-m", "pytest", "-q"]  # found in pyproject.toml by `edgar install`\n'
    )
    config = config_of(root)
    assert config.check.command == PYTEST
    assert config.untrusted == ()
    again = edgar("--root", str(root), "install", "claude-code")
    assert "declared check: python3 -m pytest -q (in .edgar/config.toml)" in again.out


def test_install_says_the_other_checks_it_found(tmp_path, edgar):
    root = project(tmp_path, "requests")
    shutil.copy(CHECKS / "express" / "package.json", root / "package.json")
    out = edgar("--root", str(root), "install", "claude-code").out
    assert "found the check npm test in package.json" in out
    assert "also found: make test (Makefile); to use one, edit [check] command in .edgar/config.toml" in out


def test_a_check_table_already_there_gets_the_command(tmp_path, edgar):
    root = project(tmp_path, "cobra")
    config_toml(root, "# tuned for CI\n[check]\ntimeout_s = 120\n\n[suggest]\nmax_skills = 3\n")
    doc = edgar("--root", str(root), "--json", "install", "claude-code").json()
    assert doc["check"]["state"] == "recorded"
    config = config_of(root)
    assert (config.check.command, config.check.timeout_s, config.suggest.max_skills) == (
        ("go", "test", "./..."),
        120,
        3,
    )


def test_a_project_config_with_keys_not_trusted_is_left_as_it_is(tmp_path, edgar):
    # Trusting the file for the check would trust what the repository put there too.
    root = project(tmp_path, "ripgrep")
    config_toml(root, '[model]\nprovider = "command"\ncommand = ["sh", "-c", "curl 203.0.113.9"]\n')
    before = (root / ".edgar" / "config.toml").read_bytes()
    out = edgar("--root", str(root), "install", "claude-code").out
    assert (
        "found the check cargo test in Cargo.toml, but .edgar/config.toml sets keys you have not trusted, "
        'so it was left as it is: add [check] command = ["cargo", "test"] to it, read it, '
        "then run `edgar trust`"
    ) in out
    assert (root / ".edgar" / "config.toml").read_bytes() == before
    assert config_of(root).untrusted == ("model.provider", "model.command")
    assert not (Path(user_home()) / "trusted.json").exists()


def test_a_committed_check_not_yet_trusted_is_named_not_replaced(tmp_path, edgar):
    root = project(tmp_path, "flask")
    config_toml(root, '[check]\ncommand = ["tox"]\n')
    out = edgar("--root", str(root), "install", "claude-code").out
    assert (
        ".edgar/config.toml declares the check tox, which runs once you trust the file: `edgar trust`" in out
    )
    assert (root / ".edgar" / "config.toml").read_text() == '[check]\ncommand = ["tox"]\n'


def test_no_check_found_says_learning_comes_only_from_corrections(tmp_path, edgar):
    result = edgar("--root", str(tmp_path), "install", "claude-code")
    assert result.code == 0
    assert (
        "no test command found (pytest, npm test, make test, cargo test, go test): edgar learns only from "
        "your corrections until you declare one as [check] command in .edgar/config.toml"
    ) in result.out
    assert not (tmp_path / ".edgar").exists()


def test_a_dry_run_records_nothing(tmp_path, edgar):
    root = project(tmp_path, "express")
    before = tree_snapshot(root)
    out = edgar("--root", str(root), "install", "claude-code", "--dry-run").out
    assert "found the check npm test in package.json; would record it as [check] command" in out
    assert tree_snapshot(root) == before
    assert not (Path(user_home()) / "trusted.json").exists()


def test_uninstall_leaves_the_recorded_check_alone(tmp_path, edgar):
    root = project(tmp_path, "flask")
    edgar("--root", str(root), "install", "claude-code")
    recorded = (root / ".edgar" / "config.toml").read_bytes()
    out = edgar("--root", str(root), "install", "claude-code", "--uninstall").out
    assert "check" not in out
    assert (root / ".edgar" / "config.toml").read_bytes() == recorded


@pytest.mark.parametrize("agent", ["codex", "gemini"])
def test_installing_for_codex_or_gemini_finds_the_check_too(tmp_path, edgar, agent):
    root = project(tmp_path, "werkzeug")
    doc = edgar("--root", str(root), "--json", "install", agent).json()
    assert doc["check"] == {
        "state": "recorded",
        "command": list(PYTEST),
        "source": "setup.cfg",
        "trusted": True,
        "also": [],
    }
    assert config_of(root).check.command == PYTEST
    assert doc["changed"] is True
