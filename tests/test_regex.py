"""`lazy(...)`: a pattern that behaves like `re.compile(...)` and is compiled on first use."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from edgar_min.regex import lazy


def test_a_lazy_pattern_answers_like_the_compiled_one():
    pattern = lazy(r"(?P<word>[a-z]+)-(\d+)", re.IGNORECASE)
    compiled = re.compile(r"(?P<word>[a-z]+)-(\d+)", re.IGNORECASE)
    for text in ("Pin-12", "pin-", "x pin-3 y"):
        assert bool(pattern.fullmatch(text)) == bool(compiled.fullmatch(text))
        assert pattern.sub(r"\2", text) == compiled.sub(r"\2", text)
        assert pattern.findall(text) == compiled.findall(text)
    assert pattern.search("a-1").group("word") == "a"
    assert pattern.pattern == compiled.pattern
    assert pattern.flags == compiled.flags


def test_nothing_is_compiled_until_the_pattern_is_used():
    broken = lazy("(unclosed")  # re.compile would raise here
    with pytest.raises(re.error):
        broken.match("x")


def test_once_used_every_method_of_the_compiled_pattern_is_there():
    pattern = lazy(r"a(b)?")
    assert pattern.match("ab").group(1) == "b"
    compiled = re.compile(r"a(b)?")
    for name in ("scanner", "subn", "split", "groupindex", "groups"):
        assert hasattr(pattern, name) == hasattr(compiled, name)
    assert pattern.subn("x", "abab") == compiled.subn("x", "abab")
    assert repr(pattern) == "lazy('a(b)?')"


PACKAGE = Path(__file__).resolve().parent.parent / "edgar_min"


def test_a_module_that_imports_re_at_its_top_compiles_its_own_patterns():
    """`lazy` saves importing `re`: in a module that imports it anyway it is lines for nothing."""
    both = []
    for path in sorted(PACKAGE.rglob("*.py")):
        top = ast.parse(path.read_text()).body
        imports_re = any(isinstance(n, ast.Import) and any(a.name == "re" for a in n.names) for n in top)
        uses_lazy = any(isinstance(n, ast.ImportFrom) and n.module == "edgar_min.regex" for n in top)
        if imports_re and uses_lazy:
            both.append(str(path.relative_to(PACKAGE)))
    assert both == []


@pytest.mark.parametrize(
    "argv",
    [["learn", "turn.json", "--session", "s-1"], ["skills", "list"], ["doctor"]],
    ids=["learn, nothing fires", "skills list", "doctor"],
)
def test_a_command_that_uses_no_pattern_does_not_import_re(tmp_path, argv):
    """What the patterns' deferral is measured to save (edgar_min/regex.py) stays saved."""
    turn = {"prompt": "list the files", "tools": ["shell", "shell"], "verification": "passed"}
    (tmp_path / "turn.json").write_text(json.dumps(turn))
    skill = tmp_path / ".edgar" / "skills" / "list-files"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: list-files\ndescription: Lists the files of a folder when asked to.\n---\n\n# List\n"
    )
    code = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "from edgar_min.cli import main\n"
        "status = main(sys.argv[2:])\n"
        "print('re' in sys.modules, status, file=sys.stderr)\n"
    )
    run = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code, str(PACKAGE.parent), *argv],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    imported, status = run.stderr.split()[-2:]
    assert status in {"0", "1"}, run.stderr  # doctor says 1 when something needs attention
    assert imported == "False"
