"""The decision log: one JSONL training row per decision, appended, never rewritten.

Rows go to `.edgar/decisions/<YYYY-MM-DD>.<host>.jsonl` and labels to
`.edgar/decisions/labels/<YYYY-MM-DD>.<host>.jsonl`: one file per machine per
day, each written by single whole-line appends, so the logs of several
machines merge by copying the files into one folder (no two machines write
the same file). A relabel appends a label row; readers apply the latest label
for each decision id.
"""

from __future__ import annotations

import os

from edgar_min.charsets import ALNUM, dashed
from edgar_min.errors import BadInput, NotFound
from edgar_min.logfile import append_row, files_ending, read_rows, timestamp
from edgar_min.records import dataclass
from edgar_min.redact import redact
from edgar_min.semif.prompt import PROMPT_ORDERS, SYSTEM, prompt_hash, render
from edgar_min.semif.types import LETTERS, DecisionRequest, Option

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from edgar_min.layout import Layout
    from edgar_min.semif.types import DecisionResult

__all__ = ["LABEL_SOURCES", "DecisionLog", "LogRead", "chat_rows", "host_name"]

LABEL_SOURCES = ("self", "human")


_HOST_CHARS = frozenset(ALNUM + "_-")


def host_name() -> str:
    """This machine's name, reduced to characters that are safe in a file name."""
    try:
        raw = os.uname().nodename
    except AttributeError:  # not POSIX
        import platform

        raw = platform.node()
    return dashed(raw, _HOST_CHARS).strip("-")[:64] or "host"


@dataclass(frozen=True, slots=True)
class LogRead:
    """Every row of the log, labels applied, and the lines that could not be read."""

    rows: tuple[dict[str, Any], ...]
    problems: tuple[str, ...]


class DecisionLog:
    """Appends decision rows and labels under one folder, reached from `root` (default: the folder)."""

    def __init__(self, folder: str, host: str | None = None, root: str | None = None) -> None:
        self.folder = folder
        self.host = host or host_name()
        self.root = folder if root is None else root

    @classmethod
    def of(cls, layout: Layout) -> DecisionLog:
        return cls(layout.decisions, root=layout.root)

    def _file(self, sub: str = "") -> str:
        day = timestamp()[:10]
        base = os.path.join(self.folder, sub) if sub else self.folder
        return os.path.join(base, f"{day}.{self.host}.jsonl")

    def append(
        self, result: DecisionResult, *, phase: str, run_id: str | None, model: str, latency_s: float
    ) -> dict[str, Any]:
        """Write one row for `result`; return it."""
        request = result.request
        row = {
            "id": request.id,
            "time": timestamp(),
            "phase": phase,
            "run_id": run_id,
            "state": request.state,
            "question": request.question,
            "options": [{"id": o.id, "description": o.description} for o in request.options],
            "probabilities": [round(p, 6) for p in result.probabilities],
            "selected": result.selected,
            "engine": result.engine,
            "model": model,
            "latency_ms": round(latency_s * 1000, 3),
            "prompt_order": result.prompt_order,
            "prompt_hash": prompt_hash(request, result.prompt_order),
            "extra": {k: v for k, v in result.extra.items() if k != "scores"},
        }
        append_row(self._file(), row, root=self.root)
        return row

    def read(self) -> LogRead:
        """All rows, oldest file first, with the latest label of each decision applied."""
        rows: list[dict[str, Any]] = []
        problems: list[str] = []
        for path in files_ending(self.folder, ".jsonl"):
            rows += _read_file(path, problems, "id")
        labels: dict[str, dict[str, Any]] = {}
        label_dir = os.path.join(self.folder, "labels")
        for path in files_ending(label_dir, ".jsonl"):
            for label in _read_file(path, problems, "id"):
                current = labels.get(label["id"])
                if current is None or str(label.get("time", "")) >= str(current.get("time", "")):
                    labels[label["id"]] = label
        for row in rows:
            label = labels.get(row["id"])
            if label is not None:
                row["observed_outcome"] = label.get("observed_outcome")
                row["label_source"] = label.get("label_source")
        rows.sort(key=lambda r: str(r.get("time", "")))
        return LogRead(tuple(rows), tuple(problems))

    def relabel(self, decision_id: str, outcome: str, source: str = "human") -> dict[str, Any]:
        """Record what actually happened after decision `decision_id`; `source` is self or human.

        The outcome is redacted, as the decision's own texts were.
        """
        if source not in LABEL_SOURCES:
            msg = f"label source must be one of {', '.join(LABEL_SOURCES)}, not {source!r}"
            raise BadInput(msg)
        outcome = redact(outcome)
        if not outcome.strip() or "\n" in outcome:
            msg = "an observed outcome must be one non-empty line of text"
            raise BadInput(msg)
        if not any(r["id"] == decision_id for r in self.read().rows):
            msg = f"no decision with id {decision_id[:80]!r} in {self.folder}"
            raise NotFound(msg)
        label = {
            "id": decision_id,
            "time": timestamp(),
            "observed_outcome": outcome,
            "label_source": source,
        }
        append_row(self._file("labels"), label, root=self.root)
        return label


def _read_file(path: str, problems: list[str], key: str) -> list[dict[str, Any]]:
    found = []
    try:
        read = read_rows(path)
    except OSError as exc:
        problems.append(f"{path}: cannot be read ({exc.strerror})")
        return found
    if read.not_a_file:
        problems.append(f"{path}: not a plain file (skipped)")
    problems += [f"{path}:{number}: not a JSON row (skipped)" for number in read.bad]
    for row in read.rows:
        if not isinstance(row.get(key), str):
            problems.append(f"{path}: a row without an id (skipped)")
            continue
        found.append(row)
    return found


def chat_rows(rows: tuple[dict[str, Any], ...]) -> tuple[list[dict[str, Any]], list[str]]:
    """Rows as chat fine-tuning examples: system, the user prompt as an engine saw it, the letter.

    The target is the selected option, or the observed outcome when a relabel
    named one of the option ids (a corrected label).
    """
    examples = []
    problems = []
    for row in rows:
        try:
            options = tuple(Option(o["id"], o.get("description", "")) for o in row["options"])
            request = DecisionRequest(row["state"], row["question"], options, row["id"])
        except (KeyError, TypeError, BadInput) as exc:
            problems.append(f"decision {row.get('id')!r}: cannot be exported ({exc})")
            continue
        # Rows written before the order was recorded were all asked options first.
        order = row.get("prompt_order", "options_first")
        if order not in PROMPT_ORDERS:
            problems.append(f"decision {row['id']!r}: unknown prompt order {str(order)[:40]!r}")
            continue
        ids = request.option_ids
        target = row.get("observed_outcome") if row.get("observed_outcome") in ids else row.get("selected")
        if target not in ids:
            problems.append(f"decision {row['id']!r}: its selected option is not one of its options")
            continue
        examples.append(
            {
                "messages": [
                    {"role": "system", "content": SYSTEM},
                    {"role": "user", "content": render(request, order)},
                    {"role": "assistant", "content": LETTERS[ids.index(target)]},
                ]
            }
        )
    return examples, problems
