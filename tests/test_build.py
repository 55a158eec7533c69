"""The zipapp: reproducible, legacy-layout unchecked pycs, runs from any folder."""

from __future__ import annotations

import importlib.util
import io
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


def packed(pyz: Path) -> zipfile.ZipFile:
    with zipfile.ZipFile(pyz) as zf:
        return zipfile.ZipFile(io.BytesIO(zf.read("edgar_min.zip")))


def test_shebang_compression_and_legacy_unchecked_pycs(built):
    data = built[0].read_bytes()
    assert data.startswith(b"#!/usr/bin/env python3\n")
    with zipfile.ZipFile(built[0]) as zf:
        names = zf.namelist()
    # A handful of entries: zipimport reads every one of them on every run.
    assert names == sorted(names)
    assert names == [
        "__main__.py", "__main__.pyc", "_edgar_bytecode.py", "_edgar_bytecode.pyc",
        "_edgar_importer.py", "_edgar_importer.pyc", "edgar_min.py", "edgar_min.pyc", "edgar_min.zip",
    ]  # fmt: skip
    package = packed(built[0])
    inside = package.namelist()
    assert inside == sorted(inside)
    sources = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "edgar_min").rglob("*.py"))
    assert [n for n in inside if n.endswith(".py")] == sources
    assert not any("__pycache__" in n for n in inside)
    for archive, entries in ((zipfile.ZipFile(built[0]), names), (package, inside)):
        for name in entries:
            info = archive.getinfo(name)
            assert info.compress_type == zipfile.ZIP_STORED, name  # no run imports zlib to inflate it
            assert info.date_time == (2026, 1, 1, 0, 0, 0)
            if name.endswith(".py"):
                pyc = archive.read(name[:-3] + ".pyc")
                assert pyc[:4] == importlib.util.MAGIC_NUMBER
                flags = int.from_bytes(pyc[4:8], "little")
                assert flags == 0b01, name  # hash-based, unchecked


def test_a_damaged_archive_is_a_sentence_and_exit_2(built, tmp_path):
    damaged = tmp_path / "damaged.pyz"
    with zipfile.ZipFile(built[0]) as src, zipfile.ZipFile(damaged, "w") as dst:
        for info in src.infolist():
            dst.writestr(info, b"not a zip" if info.filename == "edgar_min.zip" else src.read(info.filename))
    done = subprocess.run([sys.executable, str(damaged), "skills", "list"], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr == f"edgar: {damaged} cannot be read, or is damaged; copy edgar.pyz again\n"
    unpacked = tmp_path / "unpacked"
    with zipfile.ZipFile(built[0]) as src:
        src.extractall(unpacked)
    done = subprocess.run([sys.executable, str(unpacked), "skills", "list"], capture_output=True, text=True)
    assert done.returncode == 2
    assert "run edgar.pyz itself" in done.stderr
    assert "Traceback" not in done.stderr


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
    inner = io.BytesIO()
    with packed(built[0]) as package, zipfile.ZipFile(inner, "w") as kept:
        for info in package.infolist():
            if not info.filename.startswith("edgar_min/learning/"):
                kept.writestr(info, package.read(info.filename))
    with zipfile.ZipFile(built[0]) as src, zipfile.ZipFile(stripped, "w") as dst:
        for info in src.infolist():
            data = inner.getvalue() if info.filename == "edgar_min.zip" else src.read(info.filename)
            dst.writestr(info, data)
    with packed(stripped) as package:
        assert "edgar_min/learning/__init__.py" not in package.namelist()
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
