"""The pyz on a Python other than the builder's: the same answers, bytecode cached once, or none."""

from __future__ import annotations

import importlib.util
import io
import json
import os
import shutil
import struct
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import edgar_min
from edgar_min import bytecode, importer
from edgar_min.bytecode import cache_file

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "turn.json"


def other_pythons() -> list[str]:
    """Every Python 3.11+ on this machine whose bytecode differs from the one running the tests."""
    candidates = sorted(str(p) for p in Path.home().glob(".pyenv/versions/*/bin/python3"))
    candidates += [
        p for n in ("python3.11", "python3.12", "python3.13", "python3.14") if (p := shutil.which(n))
    ]
    probe = "import sys; print(sys.version_info >= (3, 11), sys.implementation.cache_tag)"
    found: dict[str, str] = {}
    for path in candidates:
        try:
            done = subprocess.run([path, "-I", "-c", probe], capture_output=True, text=True, timeout=30)
        except OSError:
            continue
        ok, _, tag = done.stdout.strip().partition(" ")
        if done.returncode == 0 and ok == "True" and tag != sys.implementation.cache_tag:
            found.setdefault(tag, path)
    return list(found.values())


OTHERS = other_pythons()
needs_other = pytest.mark.skipif(
    not OTHERS, reason="no Python 3.11+ other than the one running the tests is installed here"
)


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "project"
    for name in ("tidy-imports", "bump-pin"):
        skill = root / ".edgar" / "skills" / name / "SKILL.md"
        skill.parent.mkdir(parents=True)
        skill.write_text(f"---\nname: {name}\ndescription: Does {name}.\n---\nProse.\n")
    (root / "turn.json").write_text(EXAMPLE.read_text())
    return root


def run(python: str, pyz: Path, root: Path, *args: str, home: Path, cache: Path | None = None):
    # The user scope stays readable whatever HOME is: the cache is what these tests are about.
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "EDGAR_HOME": str(root.parent / "edgar-home")}
    if cache is not None:
        env["XDG_CACHE_HOME"] = str(cache)
    return subprocess.run(
        [python, "-I", str(pyz), *args], cwd=root, env=env, capture_output=True, text=True, timeout=120
    )


def answers(python: str, pyz: Path, root: Path, home: Path, cache: Path | None = None) -> list:
    """What a person sees from a few commands; each learn goes to a fresh copy of the project."""
    seen = []
    for args in (["--version"], ["--json", "skills", "list"], ["skills", "validate"], ["doctor"]):
        done = run(python, pyz, root, *args, home=home, cache=cache)
        assert "Traceback" not in done.stderr
        text = done.stdout.replace(str(root), "ROOT").replace(str(home), "HOME")
        seen.append((args, done.returncode, text))
    copy = root.parent / f"learn-{len(list(root.parent.iterdir()))}"
    shutil.copytree(root, copy)
    done = run(python, pyz, copy, "--json", "learn", "turn.json", "--session", "s-1", home=home, cache=cache)
    learned = json.loads(done.stdout)
    seen.append(("learn", done.returncode, learned["triggers"], learned["outcome"]))
    seen.append(
        (
            "proposal",
            (copy / ".edgar" / "proposals").exists() and sorted(os.listdir(copy / ".edgar" / "proposals")),
        )
    )
    return seen


def imported_from(python: str, pyz: Path, home: Path, cache: Path) -> str:
    """The file whose bytecode ran `edgar_min.cli` on `python`, or its source when none did."""
    script = (
        "import atexit, runpy, sys\n"
        f"sys.argv = [{str(pyz)!r}, '--help']\n"  # --version is answered before edgar is imported
        # Said at exit: the run ends the process itself (cli.leave), which waits for what atexit holds.
        "m = lambda: sys.modules['edgar_min.cli']\n"
        "atexit.register(lambda: print(getattr(m().__loader__, 'code', m().__file__)))\n"
        f"runpy.run_path({str(pyz)!r}, run_name='__main__')\n"
    )
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "XDG_CACHE_HOME": str(cache)}
    done = subprocess.run([python, "-I", "-c", script], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


@needs_other
@pytest.mark.parametrize("python", OTHERS)
def test_another_python_gives_the_same_answers_and_caches_its_bytecode_once(pyz, project, tmp_path, python):
    home = tmp_path / "home"
    home.mkdir()
    mine = answers(sys.executable, pyz, project, home, tmp_path / "builder-cache")
    assert not (tmp_path / "builder-cache").exists()  # the builder's own .pyc files serve it
    cache = tmp_path / "cache"
    theirs = answers(python, pyz, project, home, cache)
    assert theirs == mine
    written = list((cache / "edgar" / "bytecode").iterdir())
    assert len(written) == 1
    copy = written[0]
    assert copy.name.endswith(".zip")
    assert oct(copy.stat().st_mode & 0o777) == "0o600"
    assert imported_from(python, pyz, home, cache).startswith(str(copy))
    with zipfile.ZipFile(copy) as zf, zipfile.ZipFile(pyz) as original:
        with zipfile.ZipFile(io.BytesIO(original.read("edgar_min.zip"))) as packed:
            sources = ["_edgar_importer.py", *sorted(n for n in packed.namelist() if n.endswith(".py"))]
        # Bytecode only, after the listing the importer: sources are read from the archive itself.
        assert zf.namelist() == [".listing", *(n[:-3] + ".pyc" for n in sources)]
        magic = zf.read(sources[0][:-3] + ".pyc")[:4]
        assert magic != importlib.util.MAGIC_NUMBER  # the other Python's, not the builder's
        for name in sources:
            pyc = zf.read(name[:-3] + ".pyc")
            assert pyc[:4] == magic
            assert int.from_bytes(pyc[4:8], "little") == 0b01, name
    # A second run finds the copy and leaves it alone.
    before = copy.stat().st_mtime_ns
    assert run(python, pyz, project, "skills", "list", home=home, cache=cache).returncode == 0
    assert copy.stat().st_mtime_ns == before
    assert list((cache / "edgar" / "bytecode").iterdir()) == [copy]


@needs_other
def test_with_a_home_that_cannot_be_written_it_runs_from_sources_with_the_same_answers(
    pyz, project, tmp_path
):
    # A home below a plain file can never be written, not even by root (who ignores modes);
    # with no XDG_CACHE_HOME the cache would go under it.
    blocked = tmp_path / "blocked"
    blocked.write_text("")
    home = blocked / "home"
    mine = answers(sys.executable, pyz, project, home)
    theirs = answers(OTHERS[0], pyz, project, home)
    assert theirs == mine
    assert blocked.read_text() == ""


@needs_other
@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_cache_folder_is_left_alone(pyz, project, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o500)
    try:
        assert run(OTHERS[0], pyz, project, "skills", "list", home=home, cache=cache).returncode == 0
        assert list(cache.iterdir()) == []
    finally:
        cache.chmod(0o700)


@needs_other
def test_dont_write_bytecode_writes_no_bytecode(pyz, project, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    cache = tmp_path / "cache"
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "XDG_CACHE_HOME": str(cache)}
    done = subprocess.run(
        [OTHERS[0], "-I", "-B", str(pyz), "--root", str(project), "skills", "list"],
        env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert not cache.exists()


@needs_other
def test_a_damaged_or_foreign_copy_is_not_used_and_the_run_still_answers(pyz, project, tmp_path):
    python = OTHERS[0]
    home = tmp_path / "home"
    home.mkdir()
    cache = tmp_path / "cache"
    assert run(python, pyz, project, "skills", "list", home=home, cache=cache).returncode == 0
    (copy,) = (cache / "edgar" / "bytecode").iterdir()
    copy.write_bytes(b"not a zip at all")
    done = run(python, pyz, project, "skills", "list", home=home, cache=cache)
    assert done.returncode == 0, done.stderr
    assert "tidy-imports" in done.stdout
    copy.chmod(0o666)  # anyone could have put code there: not imported
    assert not imported_from(python, pyz, home, cache).startswith(str(copy))
    assert copy.read_bytes() == b"not a zip at all"  # and not rewritten on every run either


def test_the_cache_key_follows_the_archive_contents_and_the_xdg_rules(tmp_path):
    def archive(name: str, body: str) -> str:
        path = tmp_path / name
        with zipfile.ZipFile(path, "w") as zf:
            zf.writestr("edgar_min/__init__.py", body)
        return str(path)

    a, b, same = archive("a.pyz", "x = 1\n"), archive("b.pyz", "x = 2\n"), archive("c.pyz", "x = 1\n")
    env = {"XDG_CACHE_HOME": "/var/cache/me", "HOME": "/home/me"}
    where = cache_file(a, env)
    assert where is not None
    assert where.startswith("/var/cache/me/edgar/bytecode/")
    assert where.endswith(f"-{importlib.util.MAGIC_NUMBER.hex()}.zip")
    assert cache_file(b, env) != where
    assert cache_file(same, env) == where
    assert cache_file(a, {"XDG_CACHE_HOME": "relative/cache", "HOME": "/home/me"}).startswith(
        "/home/me/.cache/edgar/bytecode/"
    )
    assert cache_file(a, {}) is None
    assert cache_file(a, {"HOME": "relative"}) is None
    assert cache_file(str(tmp_path / "missing.pyz"), env) is None


@needs_other
def test_only_a_private_plain_file_of_this_users_in_private_folders_counts_as_a_copy(pyz, project, tmp_path):
    python = OTHERS[0]
    home = tmp_path / "home"
    home.mkdir()
    cache = tmp_path / "cache"
    path = genuine_copy(python, pyz, project, home, cache)

    def refused() -> str | None:
        done = run(python, pyz, project, "--json", "doctor", home=home, cache=cache)
        return json.loads(done.stdout)["bytecode"]["refused"]

    path.chmod(0o644)
    assert refused() is None
    for mode in (0o664, 0o646):
        path.chmod(mode)
        assert refused() == f"{path} can be written by other users"
    path.chmod(0o600)
    path.rename(tmp_path / "kept.zip")
    path.mkdir()
    assert refused() == f"{path} is not a plain file"
    path.rmdir()
    path.symlink_to(tmp_path / "kept.zip")
    assert refused() == f"{path} is a symbolic link"
    path.unlink()
    (tmp_path / "kept.zip").rename(path)
    path.parent.chmod(0o770)
    assert refused() == f"{path.parent} can be written by other users"
    path.parent.chmod(0o700)
    path.parents[1].chmod(0o757)
    assert refused() == f"{path.parents[1]} can be written by other users"
    path.parents[1].chmod(0o700)
    path.parent.rename(tmp_path / "elsewhere")
    path.parent.symlink_to(tmp_path / "elsewhere")
    assert refused() == f"{path.parent} is a symbolic link"
    path.parent.unlink()
    path.parent.write_text("")
    assert refused() == f"{path.parent} is not a folder"


@needs_other
def test_a_umask_that_lets_the_group_write_still_gives_a_copy_that_is_used(pyz, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    cache = tmp_path / "cache"
    script = (
        "import os, runpy, sys\n"
        "os.umask(0o002)\n"
        f"sys.argv = [{str(pyz)!r}, '--help']\n"  # --version is answered before edgar is imported
        "try:\n"
        f"    runpy.run_path({str(pyz)!r}, run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
    )
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "XDG_CACHE_HOME": str(cache)}
    done = subprocess.run([OTHERS[0], "-I", "-c", script], env=env, capture_output=True, text=True)
    assert done.stdout.startswith("usage: edgar"), done.stderr
    (copy,) = (cache / "edgar" / "bytecode").iterdir()
    assert oct(copy.stat().st_mode & 0o777) == "0o600"
    assert imported_from(OTHERS[0], pyz, home, cache).startswith(str(copy))


@needs_other
def test_a_module_whose_bytecode_is_missing_from_the_copy_comes_from_its_source(pyz, project, tmp_path):
    python = OTHERS[0]
    home = tmp_path / "home"
    home.mkdir()
    cache = tmp_path / "cache"
    first = run(python, pyz, project, "skills", "list", home=home, cache=cache)
    (copy,) = (cache / "edgar" / "bytecode").iterdir()
    with zipfile.ZipFile(copy) as zf:
        kept = {n: zf.read(n) for n in zf.namelist() if n != "edgar_min/skills/discovery.pyc"}
    with zipfile.ZipFile(copy, "w") as zf:  # the same file, mode 0600: still trusted
        for name, data in kept.items():
            zf.writestr(name, data)
    again = run(python, pyz, project, "skills", "list", home=home, cache=cache)
    assert (again.returncode, again.stdout) == (0, first.stdout)
    assert "tidy-imports" in again.stdout


@needs_other
def test_the_hooks_it_installs_run_the_archive_not_its_bytecode_copy(pyz, project, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    cache = tmp_path / "cache"
    for python in (sys.executable, OTHERS[0]):
        done = run(python, pyz, project, "install", "claude-code", "--dry-run", home=home, cache=cache)
        assert done.returncode == 0, done.stderr
        commands = [line for line in done.stdout.splitlines() if "hook:" in line]
        assert len(commands) == 3
        assert all(f"{pyz} --root" in line for line in commands), done.stdout
    assert (cache / "edgar" / "bytecode").exists()  # the other Python did run from its copy


@needs_other
def test_a_program_with_the_archive_on_sys_path_imports_the_package_on_any_python(pyz, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    code = (
        "import edgar_min, edgar_min.skills.names as n\n"
        "print(edgar_min.__version__, edgar_min.__file__, n.is_skill_name('tidy-imports'))\n"
    )
    for python in (sys.executable, OTHERS[0]):
        env = {"PATH": os.environ["PATH"], "HOME": str(home), "PYTHONPATH": str(pyz)}
        done = subprocess.run([python, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == [edgar_min.__version__, f"{pyz}/edgar_min/__init__.py", "True"]


# What another local user, or a repository, could plant where the copies are kept.


def other_pyc(python: str, source: str, name: str, claimed: bytes | None = None) -> bytes:
    """A `.pyc` of `source` for `python`, recording `claimed` as its source, or `source` itself."""
    script = (
        "import marshal, sys\n"
        "from importlib.util import MAGIC_NUMBER, source_hash\n"
        "source, name, claimed = sys.stdin.buffer.read().split(b'\\0')\n"
        "code = compile(source, name.decode(), 'exec', dont_inherit=True)\n"
        "digest = source_hash(claimed or source)\n"
        "sys.stdout.buffer.write(MAGIC_NUMBER + b'\\1\\0\\0\\0' + digest + marshal.dumps(code))\n"
    )
    stdin = b"\0".join([source.encode(), name.encode(), claimed or b""])
    return subprocess.run([python, "-I", "-c", script], input=stdin, capture_output=True, check=True).stdout


def with_entry(copy: Path, name: str, data: bytes, out: Path) -> None:
    """Write at `out` the copy `copy` with entry `name` replaced, every entry in its place."""
    with zipfile.ZipFile(copy) as zf:
        kept = [(n, data if n == name else zf.read(n)) for n in zf.namelist()]
    assert name in dict(kept)
    with zipfile.ZipFile(out, "w") as zf:
        for entry, body in kept:
            zf.writestr(entry, body)


def genuine_copy(python: str, pyz: Path, project: Path, home: Path, cache: Path) -> Path:
    assert run(python, pyz, project, "skills", "list", home=home, cache=cache).returncode == 0
    (copy,) = (cache / "edgar" / "bytecode").iterdir()
    return copy


def planted(python: str, marker: Path, entry: str, genuine: Path) -> bytes:
    """Code for `entry` that leaves `marker` when it runs, under the source hash the genuine entry records."""
    with zipfile.ZipFile(genuine) as zf:
        claimed_hash = zf.read(entry)[8:16]
    source = f"open({str(marker)!r}, 'w').write('ran')\ndef install(*args):\n    return False\n"
    pyc = other_pyc(python, source, entry[:-1])
    return pyc[:8] + claimed_hash + pyc[16:]  # a header as valid as the genuine one's


@needs_other
@pytest.mark.parametrize("link_at", ["copy", "edgar", "bytecode"])
def test_a_link_at_the_copy_or_a_folder_edgar_makes_is_never_followed(pyz, project, tmp_path, link_at):
    python = OTHERS[0]
    home = tmp_path / "home"
    home.mkdir()
    genuine = genuine_copy(python, pyz, project, home, tmp_path / "first")
    marker = tmp_path / "ran"
    # A file the person owns, mode 0644, as a cloned repository ships one: a copy whose importer
    # is someone else's, with a header that claims the real importer's source.
    shipped = project / "vendor" / "cache.zip"
    shipped.parent.mkdir()
    entry = "_edgar_importer.pyc"
    with_entry(genuine, entry, planted(python, marker, entry, genuine), shipped)
    shipped.chmod(0o644)
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    if link_at == "copy":
        folder = cache / "edgar" / "bytecode"
        folder.mkdir(parents=True, mode=0o700)
        (cache / "edgar").chmod(0o700)
        (folder / genuine.name).symlink_to(shipped)
    else:
        fake = project / "vendor" / "fake"
        (fake / "bytecode").mkdir(parents=True, mode=0o700)
        shutil.copy(shipped, fake / "bytecode" / genuine.name)
        (fake / "bytecode" / genuine.name).chmod(0o600)
        if link_at == "edgar":
            (cache / "edgar").symlink_to(fake)
        else:
            (cache / "edgar").mkdir(mode=0o700)
            (cache / "edgar" / "bytecode").symlink_to(fake / "bytecode")
    done = run(python, pyz, project, "skills", "list", home=home, cache=cache)
    assert not marker.exists()
    assert (done.returncode, "tidy-imports" in done.stdout, done.stderr) == (0, True, "")


@needs_other
def test_the_temp_file_is_made_new_and_a_link_there_writes_nothing_outside(pyz, project, tmp_path):
    python = OTHERS[0]
    home = tmp_path / "home"
    home.mkdir()
    name = genuine_copy(python, pyz, project, home, tmp_path / "first").name
    precious = tmp_path / "precious.txt"
    precious.write_bytes(b"the person's own file\n")
    cache = tmp_path / "cache"
    folder = cache / "edgar" / "bytecode"
    # Placed under the name the run's temporary file gets (its pid), just before the run.
    script = (
        "import os, runpy, sys\n"
        f"folder = {str(folder)!r}\n"
        "os.makedirs(folder, 0o700)\n"
        f"os.chmod({str(cache / 'edgar')!r}, 0o700)\n"
        f"os.chmod({str(cache)!r}, 0o700)\n"
        f"os.symlink({str(precious)!r}, os.path.join(folder, '.{name}.' + str(os.getpid()) + '.tmp'))\n"
        f"sys.argv = [{str(pyz)!r}, '--root', {str(project)!r}, 'skills', 'list']\n"
        f"runpy.run_path({str(pyz)!r}, run_name='__main__')\n"
    )
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "XDG_CACHE_HOME": str(cache)}
    done = subprocess.run([python, "-I", "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert precious.read_bytes() == b"the person's own file\n"
    assert (done.returncode, "tidy-imports" in done.stdout) == (0, True), done.stderr
    assert not (folder / name).exists()  # not this run: the next one writes it
    assert run(python, pyz, project, "skills", "list", home=home, cache=cache).returncode == 0
    assert oct((folder / name).stat().st_mode & 0o777) == "0o600"


@needs_other
@pytest.mark.parametrize("loose", ["cache/edgar", "cache/edgar/bytecode"])
def test_a_folder_others_may_write_is_not_used_and_nothing_is_written_there(pyz, project, tmp_path, loose):
    python = OTHERS[0]
    home = tmp_path / "home"
    home.mkdir()
    first = run(python, pyz, project, "skills", "list", home=home, cache=tmp_path / "first")
    cache = tmp_path / "cache"
    (cache / "edgar" / "bytecode").mkdir(parents=True)
    for folder in (cache, cache / "edgar", cache / "edgar" / "bytecode"):
        folder.chmod(0o700)
    (tmp_path / loose).chmod(0o777)
    for _ in range(2):
        done = run(python, pyz, project, "skills", "list", home=home, cache=cache)
        # The same answer, said as quietly: the refusal is for `doctor` to say, not every run.
        assert (done.returncode, done.stdout, done.stderr) == (0, first.stdout, "")
    assert list((cache / "edgar" / "bytecode").iterdir()) == []


@needs_other
@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a folder to another user")
def test_a_folder_of_another_users_is_not_used(pyz, project, tmp_path):
    python = OTHERS[0]
    home = tmp_path / "home"
    home.mkdir()
    genuine = genuine_copy(python, pyz, project, home, tmp_path / "cache")
    nobody = 65534
    os.chown(genuine.parent, nobody, nobody)
    assert not imported_from(python, pyz, home, tmp_path / "cache").startswith(str(genuine))
    os.chown(genuine.parent, 0, 0)
    os.chown(genuine, nobody, nobody)
    assert not imported_from(python, pyz, home, tmp_path / "cache").startswith(str(genuine))


@needs_other
def test_the_folders_it_makes_are_private_to_the_person(pyz, project, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    cache = tmp_path / "fresh" / "cache"
    (tmp_path / "fresh").mkdir()
    genuine = genuine_copy(OTHERS[0], pyz, project, home, cache)
    for made in (cache, cache / "edgar", cache / "edgar" / "bytecode"):
        assert oct(made.stat().st_mode & 0o777) == "0o700", made
    assert oct(genuine.stat().st_mode & 0o777) == "0o600"


@needs_other
@pytest.mark.parametrize("entry", ["_edgar_importer.pyc", "edgar_min/layout.pyc"])
def test_bytecode_planted_in_a_private_copy_is_not_run(pyz, project, tmp_path, entry):
    python = OTHERS[0]
    home = tmp_path / "home"
    home.mkdir()
    cache = tmp_path / "cache"
    genuine = genuine_copy(python, pyz, project, home, cache)
    first = run(python, pyz, project, "skills", "list", home=home, cache=cache)
    marker = tmp_path / "ran"
    # Valid for this Python, and recording the source it was compiled from: not the archive's.
    source = f"open({str(marker)!r}, 'w').write('ran')\ndef install(*args):\n    return False\n"
    rewritten = tmp_path / "rewritten.zip"
    with_entry(genuine, entry, other_pyc(python, source, entry[:-1]), rewritten)
    rewritten.replace(genuine)
    genuine.chmod(0o600)
    done = run(python, pyz, project, "skills", "list", home=home, cache=cache)
    assert not marker.exists()
    assert (done.returncode, done.stdout, done.stderr) == (0, first.stdout, "")


@needs_other
def test_a_copy_runs_only_what_the_archive_holds_now(pyz, project, tmp_path):
    # The copy's name comes from the archive's directory, which states sizes and CRC-32s but is
    # not a digest of the data: an archive edited in place, its directory kept, keeps the name.
    python = OTHERS[0]
    home = tmp_path / "home"
    home.mkdir()
    cache = tmp_path / "cache"
    edited = tmp_path / "edited.pyz"
    shutil.copy(pyz, edited)
    genuine_copy(python, edited, project, home, cache)
    named = cache_file(str(edited), {"XDG_CACHE_HOME": str(cache)})
    data = edited.read_bytes()
    was = f'__version__ = "{edgar_min.__version__}"'.encode()
    assert data.count(was) == 1
    now = was[:-2] + b'9"'
    edited.write_bytes(data.replace(was, now))
    assert cache_file(str(edited), {"XDG_CACHE_HOME": str(cache)}) == named
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(home),
        "XDG_CACHE_HOME": str(cache),
        "PYTHONPATH": str(edited),
    }
    code = "import edgar_min; print(edgar_min.__version__)"
    done = subprocess.run([python, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True)
    assert (done.returncode, done.stdout.strip()) == (0, now.decode().split('"')[1]), done.stderr


@needs_other
def test_doctor_says_why_a_copy_is_not_used_and_other_commands_do_not(pyz, project, tmp_path):
    python = OTHERS[0]
    home = tmp_path / "home"
    home.mkdir()
    cache = tmp_path / "cache"
    genuine = genuine_copy(python, pyz, project, home, cache)

    def bytecode() -> dict:
        return json.loads(run(python, pyz, project, "--json", "doctor", home=home, cache=cache).stdout)[
            "bytecode"
        ]

    assert bytecode() == {"archive": str(pyz), "copy": str(genuine), "refused": None}
    genuine.parent.chmod(0o777)
    said = f"- bytecode: {genuine.parent} can be written by other users, so edgar runs none of it"
    done = run(python, pyz, project, "doctor", home=home, cache=cache)
    assert done.returncode == 1
    assert [line for line in done.stdout.splitlines() if line.startswith(said)], done.stdout
    quiet = run(python, pyz, project, "skills", "list", home=home, cache=cache)
    assert (quiet.returncode, quiet.stderr) == (0, "")
    genuine.parent.chmod(0o700)
    # One module's bytecode compiled from another source than the archive's.
    layout = other_pyc(python, "X = 1\n", "edgar_min/layout.py")
    with_entry(genuine, "edgar_min/layout.pyc", layout, tmp_path / "rewritten.zip")
    (tmp_path / "rewritten.zip").replace(genuine)
    assert bytecode()["refused"] == f"{genuine} holds bytecode that is not of {pyz}'s sources"
    genuine.write_bytes(b"not a zip")
    assert bytecode()["refused"] == f"{genuine} is damaged, or is not bytecode of {pyz}"


def test_the_lookup_names_the_importer_as_the_importer_and_the_build_do():
    # The lookup runs before the package can be imported, so it keeps the name itself.
    spec = importlib.util.spec_from_file_location("build_zipapp", REPO / "build_zipapp.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    assert bytecode.IMPORTER == importer.IMPORTER == build.IMPORTER


@needs_other
@pytest.mark.skipif(not hasattr(os, "setxattr"), reason="no extended attributes here")
def test_a_folder_an_acl_lets_another_user_write_is_refused(pyz, project, tmp_path):
    python = OTHERS[0]
    home = tmp_path / "home"
    home.mkdir()
    cache = tmp_path / "cache"
    genuine = genuine_copy(python, pyz, project, home, cache)
    # user::rwx, user:65534:rwx, group::---, mask::rwx, other::---, as setfacl writes it.
    entry = lambda tag, perm, uid=0xFFFFFFFF: struct.pack("<HHI", tag, perm, uid)  # noqa: E731
    acl = (
        struct.pack("<I", 2)
        + entry(1, 7)
        + entry(2, 7, 65534)
        + entry(4, 0)
        + entry(0x10, 7)
        + entry(0x20, 0)
    )
    try:
        os.setxattr(genuine.parent, "system.posix_acl_access", acl)
    except OSError:
        pytest.skip("this file system keeps no POSIX ACLs")
    assert not imported_from(python, pyz, home, cache).startswith(str(genuine))
    done = run(python, pyz, project, "--json", "doctor", home=home, cache=cache)
    assert json.loads(done.stdout)["bytecode"]["refused"] == f"{genuine.parent} can be written by other users"


@needs_other
def test_the_copy_is_led_by_its_own_listing(pyz, project, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    copy = genuine_copy(OTHERS[0], pyz, project, home, tmp_path / "cache")
    walked = importer.entries(*importer.directory(str(copy)))
    assert next(iter(walked)) == importer.LISTING
    read = importer.listed(str(copy), 0, copy.stat().st_size)
    assert read == {k: v for k, v in walked.items() if k != importer.LISTING}
