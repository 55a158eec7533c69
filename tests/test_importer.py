"""The archive's own importer: each module's bytecode read once, sources for tracebacks, else zipimport."""

from __future__ import annotations

import importlib.util
import io
import marshal
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from edgar_min.importer import (
    LISTING,
    PACKED,
    ArchiveImporter,
    _packed_span,
    directory,
    entries,
    install,
    listed,
    packed,
    read_entry,
)

REPO = Path(__file__).resolve().parents[1]


def pyc(source: str, name: str, magic: bytes = importlib.util.MAGIC_NUMBER) -> bytes:
    code = compile(source, name, "exec", dont_inherit=True)
    return (
        magic
        + (0b01).to_bytes(4, "little")
        + importlib.util.source_hash(source.encode())
        + marshal.dumps(code)
    )


def archive(path: Path, files: dict[str, bytes], prefix: bytes = b"#!/usr/bin/env python3\n") -> str:
    with path.open("wb") as raw:
        raw.write(prefix)
        with zipfile.ZipFile(raw, "w") as zf:
            for name, data in files.items():
                zf.writestr(name, data)
    return str(path)


def importer(path: str) -> ArchiveImporter:
    listing = directory(path)
    assert listing is not None
    found = entries(*listing)
    return ArchiveImporter(path, path, found, found)


@pytest.fixture
def small(tmp_path):
    source = "ANSWER = 42\n\ndef where():\n    return __file__\n"
    path = archive(
        tmp_path / "small.pyz",
        {
            "edgar_min/__init__.py": b"",
            "edgar_min/__init__.pyc": pyc("", "edgar_min/__init__.py"),
            "edgar_min/answer.py": source.encode(),
            "edgar_min/answer.pyc": pyc(source, "edgar_min/answer.py"),
            "edgar_min/old.py": b"X = 1\n",
            "edgar_min/old.pyc": pyc("X = 1\n", "edgar_min/old.py", magic=b"\x00\x00\r\n"),
            "other.py": b"",
            "other.pyc": pyc("", "other.py"),
        },
    )
    return path, source


def test_a_module_runs_from_its_bytecode_and_names_the_archive(small):
    path, source = small
    found = importer(path)
    spec = found.find_spec("edgar_min.answer")
    assert spec is not None
    assert not found.is_package("edgar_min.answer")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.ANSWER == 42
    assert module.where() == f"{path}/edgar_min/answer.py"
    assert found.get_source("edgar_min.answer") == source  # what a traceback shows
    package = found.find_spec("edgar_min")
    assert package.submodule_search_locations == [f"{path}/edgar_min"]
    assert found.archive == path  # what `edgar install` writes into a hook


def test_a_module_without_this_pythons_bytecode_is_compiled_from_its_source(small):
    path, _ = small
    found = importer(path)
    spec = found.find_spec("edgar_min.old")  # another Python's bytecode beside its source
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.X == 1
    assert found.find_spec("edgar_min.missing") is None
    assert found.find_spec("other") is None  # not edgar's
    with pytest.raises(ImportError, match=r"no module edgar_min\.missing in"):
        found.get_code("edgar_min.missing")


def test_an_entry_whose_bytes_are_not_where_the_directory_says_is_not_run(tmp_path, small):
    path, _ = small
    data = bytearray(Path(path).read_bytes())
    listing = directory(path)
    assert listing is not None
    found = entries(*listing)
    for name in ("edgar_min/answer.pyc", "edgar_min/answer.py"):
        at, _size = found[name]
        data[at : at + 4] = b"XXXX"  # its local header gone
        broken = tmp_path / "broken.pyz"
        broken.write_bytes(bytes(data))
        spec = importer(str(broken)).find_spec("edgar_min.answer")
        if name.endswith(".pyc"):  # the damaged bytecode is passed over for the source
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            assert module.ANSWER == 42
        else:
            assert spec is None


def test_install_refuses_an_archive_without_the_packed_package(tmp_path):
    before = list(sys.meta_path)
    path = archive(tmp_path / "empty.pyz", {"other.pyc": pyc("", "other.py")})
    assert packed(path) is None
    assert install(path) is False
    damaged = archive(tmp_path / "damaged.pyz", {PACKED: b"not a zip"})
    assert install(damaged) is False
    assert sys.meta_path == before


def test_directory_and_entries_agree_with_zipfile_on_the_built_archive(tmp_path):
    out = tmp_path / "edgar.pyz"
    build = [sys.executable, str(REPO / "build_zipapp.py"), "-o", str(out)]
    subprocess.run(build, check=True, capture_output=True)
    raw = out.read_bytes()
    outer = directory(str(out))
    assert outer is not None
    end = packed(str(out))
    assert end is not None
    with zipfile.ZipFile(out) as zf:
        assert sorted(entries(*outer)) == sorted(zf.namelist())
        inner = zipfile.ZipFile(io.BytesIO(zf.read(PACKED)))
    listing = directory(str(out), end)
    assert listing is not None
    found = entries(*listing)
    assert sorted(found) == sorted(inner.namelist())
    for info in inner.infolist():
        at, size = found[info.filename]
        assert size == info.file_size
        assert raw[at : at + 4] == b"PK\x03\x04"
    # Every module of the package runs from it, and its source is the package's own file.
    every = ArchiveImporter(str(out), str(out), found, found)
    for source in sorted((REPO / "edgar_min").rglob("*.py")):
        name = ".".join(source.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")
        assert every.find_spec(name) is not None, name
        assert every.get_source(name) == source.read_text(), name


def built_archive(tmp_path) -> Path:
    out = tmp_path / "edgar.pyz"
    subprocess.run(
        [sys.executable, str(REPO / "build_zipapp.py"), "-o", str(out)], check=True, capture_output=True
    )
    return out


def test_the_packed_zips_own_listing_is_its_directory(tmp_path):
    out = built_archive(tmp_path)
    start, end = _packed_span(str(out))
    walked = entries(*directory(str(out), end))
    assert next(iter(walked)) == LISTING  # its first entry
    assert listed(str(out), start, end) == {k: v for k, v in walked.items() if k != LISTING}


def test_a_packed_zip_rewritten_since_its_listing_is_read_by_its_directory(tmp_path):
    # A vendor drops a subpackage from the archive and keeps the listing: it no longer says
    # where anything is, so it is not used, and every module is still found.
    out = built_archive(tmp_path)
    with zipfile.ZipFile(out) as zf:
        packed_bytes = zf.read(PACKED)
        outer = [(info, zf.read(info.filename)) for info in zf.infolist()]
    for keep in (lambda n: not n.startswith("edgar_min/learning/"), lambda n: n != "edgar_min/cli/quick.pyc"):
        package = zipfile.ZipFile(io.BytesIO(packed_bytes))  # writing an entry moves its ZipInfo
        inner = io.BytesIO()
        with zipfile.ZipFile(inner, "w") as kept:
            for info in package.infolist():
                if keep(info.filename):
                    kept.writestr(info, package.read(info.filename))
        stripped = tmp_path / "stripped.pyz"
        with zipfile.ZipFile(stripped, "w") as dst:
            for info, data in outer:
                dst.writestr(info, inner.getvalue() if info.filename == PACKED else data)
        start, end = _packed_span(str(stripped))
        assert listed(str(stripped), start, end) is None
        code = "import sys; sys.path.insert(0, sys.argv[1]); import edgar_min.cli.quick, edgar_min.layout"
        subprocess.run(
            [sys.executable, "-I", "-S", "-c", code, str(stripped)], check=True, capture_output=True
        )


def test_an_entry_is_read_only_under_its_own_name(small):
    path, _ = small
    found = entries(*directory(path))
    fd = os.open(path, os.O_RDONLY)
    try:
        # Both of the same length: a listing that sent one to the other would run the wrong code.
        assert read_entry(fd, found["edgar_min/old.pyc"], "edgar_min/old.pyc") is not None
        assert read_entry(fd, found["edgar_min/old.pyc"], "edgar_min/odd.pyc") is None
    finally:
        os.close(fd)


def test_a_zip_with_a_comment_or_no_zip_at_all_gives_no_directory(tmp_path):
    path = tmp_path / "commented.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("a", b"a")
        zf.comment = b"hello"
    assert directory(str(path)) is None
    (tmp_path / "short").write_bytes(b"PK")
    assert directory(str(tmp_path / "short")) is None
    assert directory(str(tmp_path / "missing")) is None
    with pytest.raises(ValueError, match="not a zip central directory"):
        entries(b"\x00" * 60, 0)


def test_bytecode_in_a_copy_runs_only_for_the_source_the_archive_holds(tmp_path, small):
    # The copy another Python writes: its bytecode runs for a module whose source in the archive
    # it was compiled from, and any other (stale, swapped, planted) is the archive's source.
    path, _ = small
    found = entries(*directory(path))
    copy = archive(
        tmp_path / "copy.zip",
        {
            "edgar_min/__init__.pyc": pyc("", "edgar_min/__init__.py"),
            "edgar_min/answer.pyc": pyc("ANSWER = 7\n", "edgar_min/answer.py"),
            "edgar_min/old.pyc": pyc("X = 1\n", "edgar_min/old.py"),
            "edgar_min/gone.pyc": pyc("Y = 1\n", "edgar_min/gone.py"),  # the archive has no such module
        },
        prefix=b"",
    )
    fd = os.open(copy, os.O_RDONLY)
    compiled = entries(*directory(copy))
    found = ArchiveImporter(path, copy, compiled, found, fd)
    spec = found.find_spec("edgar_min.answer")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.ANSWER == 42
    assert not spec.cached.startswith(copy)  # not the copy's bytecode
    kept = found.find_spec("edgar_min.old")
    assert kept.cached == f"{copy}/edgar_min/old.pyc"
    module = importlib.util.module_from_spec(kept)
    kept.loader.exec_module(module)
    assert module.X == 1
    assert found.find_spec("edgar_min.gone") is None
