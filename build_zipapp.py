#!/usr/bin/env python3
"""Build `dist/edgar.pyz`: one reproducible file that runs with `python3 edgar.pyz ...`.

Reproducible: entries sorted, timestamps fixed from `SOURCE_DATE_EPOCH`
(default: 2026-01-01), permissions fixed, so two builds are byte-identical.
The package is packed in one stored entry, `edgar_min.zip`, led by its own listing (see
edgar_min/importer.py), and each `.py` ships with an `unchecked-hash` `.pyc` beside it in the
legacy layout (`pkg/mod.pyc`, not `__pycache__`), used without looking at the source: zipimport
(which runs the entry point) ignores `__pycache__` and rejects timestamp-based pycs from a zip.
Those are for the builder's Python; on another one `__main__.py` has `edgar_min.bytecode` find
or write a copy for it.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import os
import py_compile
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from edgar_min.bytecode_writer import with_listing
from edgar_min.importer import IMPORTER, PACKED

HERE = Path(__file__).resolve().parent
PACKAGE = "edgar_min"
SHEBANG = b"#!/usr/bin/env python3\n"
# The entry point. It hands edgar's imports to edgar_min/importer.py, which reads each module
# once from the packed package: the .pyc files there on the builder's Python, a copy compiled
# for the running one on any other (edgar_min/bytecode.py finds it, or the first run writes
# it), the sources where there is neither. The build puts both modules at the top of the
# archive (`LOOKUP`, `IMPORTER`), so that this needs nothing of edgar's first.
# `--version` is answered before that, with the version the package had when it was built.
# `leave` ends the process without the interpreter's teardown when nothing needs it.
LOOKUP = "_edgar_bytecode"
MAIN = """import gc
gc.set_threshold(50_000, 50, 100)  # see edgar_min/__main__.py
import sys
if sys.version_info < (3, 11):
    sys.exit("edgar needs Python 3.11 or newer")
if sys.argv[1:] == ["--version"]:
    print("edgar {version}")
    try:
        sys.stdout.flush()
    except (OSError, ValueError):  # a closed pipe: the normal exit says so, as Python does
        sys.exit(0)
    import os
    os._exit(0)  # nothing to tear down yet (edgar_min.cli.leave does this for every command)
if not hasattr(__loader__, "archive"):
    sys.stderr.write("edgar: run edgar.pyz itself (python3 edgar.pyz ...), not a folder unpacked from it\\n")
    sys.exit(2)
# The rest is in {lookup}: another Python compiles this file twice (zipimport's way), that once.
lookup = sys.modules["{lookup}"] = type(sys)("{lookup}")
lookup.__file__ = __loader__.archive + "/{lookup}.py"
exec(__loader__.get_code("{lookup}"), lookup.__dict__)
lookup.run(__loader__, {magic!r})
"""
# The package's name at the top of the archive, for a program that puts edgar.pyz on sys.path:
# it installs the importer, which then imports the packed package in its place.
STAND_IN = """\"\"\"edgar_min, for a program with edgar.pyz on sys.path: the package is packed inside.\"\"\"
import os
import sys

from {lookup} import use_archive

if not use_archive(os.path.dirname(__file__), {magic!r}, __loader__):
    raise ImportError("edgar.pyz cannot be read, or is damaged", name=__name__)
import edgar_min  # noqa: E402, F401, PLW0406 - the packed package, which takes this module's place
"""
DEFAULT_EPOCH = 1767225600  # 2026-01-01T00:00:00Z


def _date_time() -> tuple[int, int, int, int, int, int]:
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", DEFAULT_EPOCH))
    # Zip cannot store dates before 1980.
    epoch = max(epoch, 315532800)
    return time.gmtime(epoch)[:6]


def _pyc(source: Path, arcname: str) -> bytes:
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "out.pyc"
        py_compile.compile(
            str(source),
            cfile=str(target),
            dfile=arcname,  # a relative filename in tracebacks, not this machine's path
            doraise=True,
            invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
        )
        return target.read_bytes()


def _version(package_dir: Path) -> str:
    """`__version__` of the package being built, read from its source rather than imported."""
    for line in (package_dir / "__init__.py").read_text().splitlines():
        if line.startswith("__version__ = "):
            return line.split("=", 1)[1].strip().strip("\"'")
    msg = f"no __version__ in {package_dir / '__init__.py'}"
    raise SystemExit(msg)


def _generated(tmp: str, name: str, text: str) -> list[tuple[str, bytes]]:
    path = Path(tmp) / f"{name}.py"
    path.write_text(text)
    return [(f"{name}.py", path.read_bytes()), (f"{name}.pyc", _pyc(path, f"{name}.py"))]


def package_entries(package_dir: Path) -> list[tuple[str, bytes]]:
    """(name, bytes) for every file of the package, with a `.pyc` beside each `.py`, sorted."""
    found = []
    for path in sorted(package_dir.rglob("*")):
        if "__pycache__" in path.parts or not path.is_file() or path.suffix in {".pyc", ".pyo"}:
            continue
        arcname = path.relative_to(package_dir.parent).as_posix()
        found.append((arcname, path.read_bytes()))
        if path.suffix == ".py":
            found.append((arcname[:-3] + ".pyc", _pyc(path, arcname)))
    return sorted(found)


def entries(package_dir: Path) -> list[tuple[str, bytes]]:
    """(archive name, bytes): the entry point, the lookup, the importer, the packed package; sorted."""
    magic, version = importlib.util.MAGIC_NUMBER, _version(package_dir)
    with tempfile.TemporaryDirectory() as tmp:
        found = _generated(tmp, "__main__", MAIN.format(magic=magic, version=version, lookup=LOOKUP))
        found += _generated(tmp, PACKAGE, STAND_IN.format(magic=magic, lookup=LOOKUP))
    for name, module in ((LOOKUP, "bytecode.py"), (IMPORTER, "importer.py")):
        source = package_dir / module
        found += [(f"{name}.py", source.read_bytes()), (f"{name}.pyc", _pyc(source, f"{name}.py"))]
    found.append((PACKED, _packed(package_entries(package_dir))))
    return sorted(found)


def _packed(files: list[tuple[str, bytes]]) -> bytes:
    """The packed package: a zip of `files` led by its listing (`with_listing`)."""
    try:
        return with_listing(files, _zip)
    except ValueError as exc:
        msg = f"build_zipapp.py: {exc}"
        raise SystemExit(msg) from None


def _zip(files: list[tuple[str, bytes]], prefix: bytes = b"") -> bytes:
    """The bytes of a zip of `files`, each stored, with the build's fixed dates and modes."""
    stamp = _date_time()
    out = io.BytesIO()
    out.write(prefix)
    with zipfile.ZipFile(out, "w") as zf:
        for arcname, data in files:
            info = zipfile.ZipInfo(arcname, date_time=stamp)
            # Stored, not compressed: a run reads bytecode on every import, and on another
            # Python than the builder's the entry point and its bytecode lookup from source,
            # so no run imports zlib or inflates a module (compressed, 7% of `learn` on the
            # builder, 2 ms of every run on another). The importer reads stored entries only.
            info.compress_type = zipfile.ZIP_STORED
            info.external_attr = (0o100644 & 0xFFFF) << 16
            info.create_system = 3  # unix, whatever machine builds it
            zf.writestr(info, data)
    return out.getvalue()


def build(output: Path, package_dir: Path = HERE / PACKAGE) -> Path:
    """Write the zipapp to `output` atomically and return it."""
    output.parent.mkdir(parents=True, exist_ok=True)
    tmp = output.with_name(output.name + ".tmp")
    tmp.write_bytes(_zip(entries(package_dir), prefix=SHEBANG))
    tmp.chmod(0o755)
    tmp.replace(output)
    return output


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", default=str(HERE / "dist" / "edgar.pyz"))
    args = parser.parse_args(argv)
    if importlib.util.MAGIC_NUMBER is None or sys.version_info < (3, 11):
        print("build_zipapp.py needs Python 3.11 or newer", file=sys.stderr)
        return 2
    out = build(Path(args.output))
    print(f"wrote {out} ({out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
