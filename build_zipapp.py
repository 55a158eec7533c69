#!/usr/bin/env python3
"""Build `dist/edgar.pyz`: one reproducible file that runs with `python3 edgar.pyz ...`.

Reproducible: entries sorted, timestamps fixed from `SOURCE_DATE_EPOCH`
(default: 2026-01-01), permissions fixed, so two builds are byte-identical.
Each `.py` ships with an `unchecked-hash` `.pyc` beside it in the legacy layout
(`pkg/mod.pyc`, not `__pycache__`): zipimport ignores `__pycache__` and
silently rejects timestamp-based pycs from a zip, and an unchecked-hash pyc
is used without looking at the source's mtime. Those are for the builder's
Python; on another one `__main__.py` has `edgar_min.bytecode` find or write a copy for it.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import py_compile
import sys
import tempfile
import time
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGE = "edgar_min"
SHEBANG = b"#!/usr/bin/env python3\n"
# The entry point. It imports edgar through edgar_min/bytecode.py's importer, which reads each
# module's bytecode once: the .pyc files here on the builder's Python, a copy compiled for the
# running one on any other (found, or written by the first run). The build puts that module's
# source at the top of the archive too, as `LOOKUP`: imported from there it needs nothing of
# edgar's imported from source (the package: about 1 ms a run on another Python).
# `--version` is answered before that, with the version the package had when it was built.
# `leave` ends the process without the interpreter's teardown when nothing needs it.
LOOKUP = "_edgar_bytecode"
IMPORTER = "_edgar_importer"  # edgar_min/importer.py, which LOOKUP hands the imports to
MAIN = """import gc
gc.set_threshold(50_000, 50, 100)  # see edgar_min/__main__.py
import sys
if sys.version_info < (3, 11):
    sys.exit("edgar needs Python 3.11 or newer")
if sys.argv[1:] == ["--version"]:
    print("edgar {version}")
    sys.exit(0)
if hasattr(__loader__, "archive"):
    # Not `import {lookup}`: zipimport would compile its source twice on another Python.
    lookup = sys.modules["{lookup}"] = type(sys)("{lookup}")
    lookup.__file__ = __loader__.archive + "/{lookup}.py"
    exec(__loader__.get_code("{lookup}"), lookup.__dict__)
    lookup.use_archive(__loader__.archive, {magic!r})
from edgar_min.cli import leave, main
leave(main())
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
    """`__version__` of the package, read from its source (the build imports nothing of it)."""
    for line in (package_dir / "__init__.py").read_text().splitlines():
        if line.startswith("__version__ = "):
            return line.split("=", 1)[1].strip().strip("\"'")
    msg = f"no __version__ in {package_dir / '__init__.py'}"
    raise SystemExit(msg)


def entries(package_dir: Path) -> list[tuple[str, bytes]]:
    """(archive name, bytes) for every file of the package plus `__main__.py`, sorted."""
    with tempfile.TemporaryDirectory() as tmp:
        main = Path(tmp) / "__main__.py"
        magic, version = importlib.util.MAGIC_NUMBER, _version(package_dir)
        main.write_text(MAIN.format(magic=magic, version=version, lookup=LOOKUP))
        found = [("__main__.py", main.read_bytes()), ("__main__.pyc", _pyc(main, "__main__.py"))]
        for name, module in ((LOOKUP, "bytecode.py"), (IMPORTER, "importer.py")):
            source = package_dir / module
            found += [(f"{name}.py", source.read_bytes()), (f"{name}.pyc", _pyc(source, f"{name}.py"))]
    for path in sorted(package_dir.rglob("*")):
        if "__pycache__" in path.parts or not path.is_file() or path.suffix in {".pyc", ".pyo"}:
            continue
        arcname = path.relative_to(package_dir.parent).as_posix()
        found.append((arcname, path.read_bytes()))
        if path.suffix == ".py":
            found.append((arcname[:-3] + ".pyc", _pyc(path, arcname)))
    return sorted(found)


def build(output: Path, package_dir: Path = HERE / PACKAGE) -> Path:
    """Write the zipapp to `output` atomically and return it."""
    stamp = _date_time()
    output.parent.mkdir(parents=True, exist_ok=True)
    tmp = output.with_name(output.name + ".tmp")
    with tmp.open("wb") as raw:
        raw.write(SHEBANG)
        with zipfile.ZipFile(raw, "w") as zf:
            for arcname, data in entries(package_dir):
                info = zipfile.ZipInfo(arcname, date_time=stamp)
                # Stored, not compressed: a run reads bytecode on every import, and on another
                # Python than the builder's the entry point, the package and its bytecode
                # cache's code from source, so no run imports zlib or inflates a module
                # (compressed, 7% of `learn` on the builder, 2 ms of every run on another).
                info.compress_type = zipfile.ZIP_STORED
                info.external_attr = (0o100644 & 0xFFFF) << 16
                info.create_system = 3  # unix, whatever machine builds it
                zf.writestr(info, data)
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
