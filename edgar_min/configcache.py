"""The config files as last parsed, so that reading an unchanged one imports no TOML parser.

Every hook is a fresh process that reads the person's `config.toml` and the project's, and
`import tomllib` alone costs a hook as much as a bare interpreter's whole start-up. So
`cache/configs.json` in the person's state folder for the project (`Layout.parsed_configs`,
outside the tree: a clone cannot ship one) keeps, for each config file read there, its text
and the document parsed from it. A document is taken from it only when the file's bytes are
exactly that text now: no stat and no clock decide, so a rewrite of the same size within the
same tick is read afresh. The bytes are read every time anyway: trust (trust.py) is decided on
them. A document JSON cannot carry as it is (a TOML date or time) is not kept, so that file is
parsed every time. A missing, damaged or foreign cache is ignored and written anew; it is safe
to delete.
"""

from __future__ import annotations

import os
import stat

from edgar_min import jsoncodec
from edgar_min.atomic import open_read, write_text
from edgar_min.errors import Refused

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from edgar_min.layout import Layout

__all__ = ["FORMAT", "ParsedConfigs"]

FORMAT = "edgar-min parsed configs 1"
# Two config files of at most 1 MB each (config.MAX_CONFIG_BYTES), their text and their document,
# with room for JSON's escapes: anything larger is not a cache edgar wrote.
MAX_CACHE_BYTES = 8_000_000
_INFINITY = float("inf")


class ParsedConfigs:
    """The cache of one project's state folder: read when first asked, written once by `save`."""

    def __init__(self, layout: Layout) -> None:
        self._layout = layout
        self._files: dict[str, Any] | None = None
        self._changed = False

    def get(self, path: str, data: bytes) -> dict[str, Any] | None:
        """The document parsed from the config at `path` when its bytes were `data`, else None."""
        entry = self._read().get(path)
        if type(entry) is not dict or type(entry.get("document")) is not dict:
            return None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return None  # never kept: the parser says what is wrong with it
        return entry["document"] if entry.get("text") == text else None

    def put(self, path: str, data: bytes, document: dict[str, Any]) -> None:
        """Keep `document`, parsed from the config at `path` whose bytes are `data`, for `save`."""
        files = self._read()
        try:
            plain = _plain(document)
        except RecursionError:
            plain = False
        if plain:
            files[path] = {"text": data.decode("utf-8"), "document": document}
        elif files.pop(path, None) is None:
            return
        self._changed = True

    def save(self) -> None:
        """Write what `put` changed; a cache that cannot be written is left as it is."""
        if not self._changed:
            return
        layout = self._layout
        try:
            text = jsoncodec.dumps({"format": FORMAT, "files": self._read()}, ensure_ascii=False)
            # Only its owner needs to read their configs, the project's included.
            write_text(layout.parsed_configs, text + "\n", root=layout.state, mode=0o600)
        except (OSError, ValueError, RecursionError, Refused):
            pass  # only an accelerator: the files are parsed again next time
        self._changed = False

    def _read(self) -> dict[str, Any]:
        if self._files is None:
            self._files = _load(self._layout)
        return self._files


def _load(layout: Layout) -> dict[str, Any]:
    """The cached files by path; {} for a missing, damaged or foreign cache, or one behind a link."""
    try:
        fd = open_read(layout.parsed_configs, root=layout.state)
        with open(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return {}
            raw = handle.read(MAX_CACHE_BYTES + 1)
        document = jsoncodec.loads(raw) if len(raw) <= MAX_CACHE_BYTES else None
    except (OSError, ValueError, RecursionError, Refused):
        return {}
    if type(document) is not dict or document.get("format") != FORMAT:
        return {}
    files = document.get("files")
    return files if type(files) is dict else {}


def _plain(value: object) -> bool:
    """Whether JSON gives `value` back as it is: no date or time, no infinite number."""
    kind = type(value)
    if kind is dict:
        return all(type(k) is str and _plain(v) for k, v in value.items())  # type: ignore[attr-defined]
    if kind is list:
        return all(_plain(v) for v in value)  # type: ignore[attr-defined]
    if kind is float:
        return -_INFINITY < value < _INFINITY  # type: ignore[operator] - nan compares false
    return kind in (str, int, bool)
