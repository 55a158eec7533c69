"""The zipapp: reproducible, legacy-layout unchecked pycs, runs from any folder."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import edgar_min

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1767225600"}
    paths = []
    for name in ("a.pyz", "b.pyz"):
        target = out / name
        cmd = [sys.executable, str(REPO / "build_zipapp.py"), "-o", str(target)]
        subprocess.run(cmd, check=True, env=env, capture_output=True)
        paths.append(target)
    return paths


def test_two_builds_are_byte_identical(built):
    a, b = built
    assert a.read_bytes() == b.read_bytes()


def test_shebang_compression_and_legacy_unchecked_pycs(built):
    data = built[0].read_bytes()
    assert data.startswith(b"#!/usr/bin/env python3\n")
    with zipfile.ZipFile(built[0]) as zf:
        names = zf.namelist()
        assert names == sorted(names)
        assert "__main__.py" in names
        assert not any("__pycache__" in n for n in names)
        for name in names:
            info = zf.getinfo(name)
            assert info.compress_type == zipfile.ZIP_STORED, name  # no run imports zlib to inflate it
            assert info.date_time == (2026, 1, 1, 0, 0, 0)
            if name.endswith(".py") and name != "__main__.py":
                pyc = zf.read(name[:-3] + ".pyc")
                assert pyc[:4] == importlib.util.MAGIC_NUMBER
                flags = int.from_bytes(pyc[4:8], "little")
                assert flags == 0b01, name  # hash-based, unchecked


def test_the_pyz_runs_from_another_folder(built, tmp_path):
    pyz = built[0]
    run = lambda *a: subprocess.run(  # noqa: E731
        [sys.executable, str(pyz), *a], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    # Answered by the entry point before edgar is imported: the version it was built from.
    assert run("--version").stdout == f"edgar {edgar_min.__version__}\n"
    listed = run("skills", "list")
    assert listed.returncode == 0
    assert "no skills found" in listed.stdout
    turn = tmp_path / "turn.json"
    turn.write_text((REPO / "examples" / "turn.json").read_text())
    learned = run("--json", "learn", "turn.json", "--session", "s-1")
    assert learned.returncode == 0, learned.stderr
    assert json.loads(learned.stdout)["outcome"] == "proposed"
    bad = tmp_path / "bad.json"
    bad.write_text('{"prompt": "x", "stdout": "SECRET-OUTPUT"}')
    refused = run("learn", "bad.json")
    assert refused.returncode == 2
    assert "Traceback" not in refused.stderr


def test_the_pyz_imports_from_the_zip_not_the_checkout(built, tmp_path):
    code = "import edgar_min, sys; print(edgar_min.__file__)"
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(built[0])},
                          cwd=tmp_path, capture_output=True, text=True, check=True)  # fmt: skip
    assert done.stdout.strip().startswith(str(built[0]))


def test_validate_works_with_the_learning_package_deleted(built, tmp_path):
    stripped = tmp_path / "stripped.pyz"
    with zipfile.ZipFile(built[0]) as src, zipfile.ZipFile(stripped, "w") as dst:
        for info in src.infolist():
            if not info.filename.startswith("edgar_min/learning/"):
                dst.writestr(info, src.read(info.filename))
    validate = [sys.executable, str(stripped), "--root", str(tmp_path / "proj"), "skills", "validate"]
    skill = tmp_path / "proj" / ".edgar" / "skills" / "mine" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: mine\ndescription: Mine.\n---\nProse.\n")
    done = subprocess.run(validate, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "ok .edgar/skills/mine/SKILL.md" in done.stdout
    skill.write_text("---\nname: other\ndescription: Mine.\n---\nProse.\n")
    done = subprocess.run(validate, capture_output=True, text=True)
    assert done.returncode == 1
    assert "does not match its folder" in done.stdout


def test_the_pyz_lists_real_skills_of_every_frontmatter_shape(built, tmp_path):
    import shutil

    fixtures = REPO / "tests" / "fixtures" / "skills"
    for folder in fixtures.iterdir():
        if folder.is_dir():
            shutil.copytree(folder, tmp_path / ".claude" / "skills" / folder.name)
    done = subprocess.run(
        [sys.executable, str(built[0]), "--json", "skills", "list"],
        cwd=tmp_path, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    listed = {e["name"]: e for e in json.loads(done.stdout)}
    assert set(listed) >= {"fal-api", "home-assistant", "chart-image", "chaos-lab", "ipinfo", "nano-pdf"}
    assert all(e["description"] and e["warning"] is None for e in listed.values())
