"""Properties over arbitrary input: forbidden text never lands, writes never leave their folders."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from skillfiles import BODY

from edgar_min.config import Config, SkillsConfig
from edgar_min.controller.gate import Gate
from edgar_min.errors import BadInput, Refused
from edgar_min.layout import Layout
from edgar_min.learning.turn import ERROR_KINDS, parse_turn
from edgar_min.learning.writer import Draft, Provenance, Target, write_learned

CANARY = "ZQXJ-CANARY"
text = st.text(min_size=1, max_size=80)
tool = st.from_regex(r"[a-z][a-z0-9_.-]{0,10}", fullmatch=True)


class Capture:
    name = "capture"

    def __init__(self):
        self.seen = []

    def complete(self, system, prompt):
        self.seen.append(system + prompt)
        from edgar_min.models.offline import write_from_outline

        return write_from_outline(prompt)


def all_text(root: Path) -> str:
    return "".join(p.read_text(errors="replace") for p in root.rglob("*") if p.is_file())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    prompt=text,
    corrections=st.lists(text, max_size=3),
    tools=st.lists(tool, max_size=7),
    program=st.text(max_size=100),
    forbidden_key=st.sampled_from(["output", "stdout", "stderr", "message", "args", "result", "content"]),
    forbidden_error_key=st.sampled_from(["message", "output", "stderr", "args"]),
    kind=st.sampled_from(ERROR_KINDS),
    verification=st.sampled_from(["passed", "failed", "unverified"]),
    mode=st.sampled_from(["propose", "auto"]),
)
def test_no_forbidden_text_reaches_a_file_or_the_model(
    prompt, corrections, tools, program, forbidden_key, forbidden_error_key, kind, verification, mode
):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        layout = Layout(root, root / "home")
        capture = Capture()
        gate = Gate(layout, Config(skills=SkillsConfig(synthesis=mode, min_tool_calls=1)), capture)
        error = {"tool": "shell", "kind": kind, "exit_code": 1, "program": program}
        record = {
            "prompt": prompt,
            "corrections": corrections,
            "tools": [*tools, "shell"],
            "errors": [error],
            "verification": verification,
        }
        # A record carrying a forbidden field anywhere is refused whole, and nothing is stored.
        for hostile in (
            {**record, forbidden_key: CANARY},
            {**record, "errors": [{**error, forbidden_error_key: CANARY}]},
        ):
            with pytest.raises(BadInput) as refused:
                parse_turn(json.loads(json.dumps(hostile)))
            assert CANARY not in refused.value.message
        assert not root.joinpath(".edgar").exists()
        # The clean record goes all the way through; the program name is stripped wherever it lands.
        try:
            turn = parse_turn(record)
        except BadInput:
            return  # e.g. a whitespace-only prompt
        gate.learn(turn, "s-1")
        written = all_text(root / ".edgar") if (root / ".edgar").exists() else ""
        for line in (written + "".join(capture.seen)).splitlines():
            for found in re.findall(r"\(([^()]*)\)\s*$", line):
                if "nonzero_exit" in line or any(k in line for k in ERROR_KINDS):
                    assert re.fullmatch(r"[A-Za-z0-9._-]*", found), line


@settings(max_examples=200, deadline=None)
@given(name=st.text(max_size=80), to=st.sampled_from(["proposal", "learned"]))
def test_no_name_writes_outside_learned_or_proposals(name, to):
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        root = base / "proj"
        root.mkdir()
        layout = Layout(root, base / "home")
        try:
            path = write_learned(
                layout, Draft(name, "A description.", BODY), Provenance("s", ("long",)), Target(to)
            )
        except Refused:
            path = None
        files = [p for p in base.rglob("*") if p.is_file()]
        allowed = (Path(layout.learned).resolve(), Path(layout.proposals).resolve())
        # The change ledger and the versions it names are edgar's own record of the write.
        kept = (Path(layout.versions).resolve(), Path(layout.ledger).resolve())
        for f in files:
            assert any(f.resolve().is_relative_to(a) for a in allowed + kept), f
        if path is not None:
            path = Path(path)
            assert path.resolve().parent.parent in allowed
            assert path.parent.name == name
