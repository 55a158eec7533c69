"""Refused replies kept for a person: bounded, redacted, capped, and shown by `skills rejections`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from conftest import tree_snapshot

from edgar_min.layout import Layout, user_home
from edgar_min.learning import rejected
from edgar_min.learning.rejected import KEEP, REPLY_CHARS, keep, list_rejected, read_rejected

KEY = "sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c"
# A reply that reaches the writer and breaks a content wall (it names a URL).
WALL_REPLY = (
    "name: pin-bump-with-lockfile\ndescription: Bump a pin; read https://docs.example.com/pins first.\n\n"
    "## When to use\n\nA dependency pin has to move and a lock file follows it.\n\n"
    "## Procedure\n\n1. Change the pin.\n2. Refresh the lock file with the project's tool.\n\n"
    f"## Pitfalls\n\n- Tests fail until the lock file is refreshed. Token {KEY} was in my context.\n\n"
    "## Verification\n\nRun the project's declared check and see it pass.\n"
)


@pytest.fixture
def layout(tmp_path):
    return Layout(tmp_path, tmp_path / "home")


def test_a_kept_reply_is_redacted_bounded_and_read_back(layout):
    ident = keep(
        layout,
        reply=f"{KEY}\n" + "x" * (2 * REPLY_CHARS),
        sentence=f"refused: {KEY}",
        fired=("long",),
        session="s-1",
    )
    found = read_rejected(layout, ident)
    assert (found.trigger, found.session, found.cut) == ("long", "s-1", True)
    assert len(found.reply) == REPLY_CHARS
    assert KEY not in found.reply + found.sentence
    assert "[REDACTED]" in found.reply
    assert KEY not in b"".join(tree_snapshot(layout.root).values()).decode()


def test_only_the_newest_are_kept(layout, monkeypatch):
    monkeypatch.setattr(rejected, "KEEP", 3)
    ids = [
        keep(layout, reply=f"reply {i}", sentence="refused", fired=("long",), session=str(i))
        for i in range(5)
    ]
    kept = list_rejected(layout)
    assert len(kept) == 3
    assert {r.reply for r in kept} == {"reply 2", "reply 3", "reply 4"}
    assert len(ids) == len(set(ids))


def run_model(tmp_path, reply: str) -> list[str]:
    script = tmp_path / "model.py"
    script.write_text(f"import sys\nsys.stdin.read()\nsys.stdout.write({reply!r})\n")
    return [
        "--set",
        "model.provider=command",
        "--set",
        f"model.command={json.dumps([sys.executable, str(script)])}",
    ]


def learn(edgar, tmp_path, reply: str):
    turn = tmp_path / "turn.json"
    turn.write_text(
        json.dumps({"prompt": "bump the httpx pin", "tools": ["shell"] * 5, "verification": "passed"})
    )
    return edgar("--root", str(tmp_path), *run_model(tmp_path, reply), "--json", "learn", str(turn))


def test_a_reply_the_writer_refuses_is_kept_and_shown(edgar, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    result = learn(edgar, tmp_path, WALL_REPLY)
    doc = result.json()
    assert (doc["outcome"], result.code) == ("refused", 1)
    assert "names a URL ('https://docs.example.com/...')" in doc["message"]
    listing = edgar("--root", str(tmp_path), "skills", "rejections")
    assert listing.code == 0
    assert "long" in listing.out
    assert "names a URL" in listing.out
    (row,) = edgar("--root", str(tmp_path), "--json", "skills", "rejections").json()["rejections"]
    shown = edgar("--root", str(tmp_path), "skills", "rejections", "--show", row["id"])
    assert shown.code == 0
    assert f"refused: {doc['message']}" in shown.out
    assert "  ## Procedure" in shown.out
    # The rejection log row points at the kept reply.
    logged = json.loads((tmp_path / ".edgar" / "rejections.jsonl").read_text().splitlines()[-1])
    assert logged["kept"] == row["id"]
    # The fake model's own script holds the key; nothing edgar wrote or printed does.
    everything = b"".join(tree_snapshot(tmp_path / ".edgar").values()).decode("utf-8", "replace")
    assert KEY not in everything + result.out + result.err + listing.out + shown.out
    doctor = edgar("--root", str(tmp_path), "doctor")
    assert "refused replies kept: 1" in doctor.out


def test_a_reply_out_of_shape_is_kept_too(edgar, tmp_path):
    assert learn(edgar, tmp_path, "I could not write a skill for this.").json()["outcome"] == "refused"
    (row,) = edgar("--root", str(tmp_path), "--json", "skills", "rejections").json()["rejections"]
    assert row["reply"] == "I could not write a skill for this."
    assert "no 'name:' line" in row["sentence"]


def test_a_terminal_sequence_in_a_reply_is_never_kept(edgar, tmp_path):
    layout = Layout(tmp_path, user_home())
    ident = keep(
        layout, reply="\x1b[2Jgone\x1b]0;title\x07", sentence="refused \x9b2J", fired=("long",), session=""
    )
    kept = "".join(p.read_text() for p in Path(layout.rejected).iterdir())
    assert "\\u001b" not in kept
    assert "title" not in kept
    shown = edgar("--root", str(tmp_path), "skills", "rejections", "--show", ident)
    assert "\x1b" not in shown.out
    assert "gone" in shown.out


@pytest.mark.parametrize("ident", ["nope", "../../etc/passwd", "20261201T101500123456Z-abcdef"])
def test_an_unknown_id_is_a_sentence_and_exit_1(edgar, tmp_path, ident):
    before = tree_snapshot(tmp_path)
    result = edgar("--root", str(tmp_path), "skills", "rejections", "--show", ident)
    assert result.code == 1
    assert "no refused reply with id" in result.err
    assert "Traceback" not in result.err
    assert tree_snapshot(tmp_path) == before


def test_no_rejections_yet(edgar, tmp_path):
    result = edgar("--root", str(tmp_path), "skills", "rejections")
    assert (result.code, result.out.strip()) == (0, "no refused replies kept")
    assert KEEP == 50


def _dated(folder, stamp: str, count: int) -> None:
    """`count` kept replies named for `stamp` (a time), as another machine or a checkout could leave them."""
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(count):
        ident = f"{stamp}Z-{n:06x}"
        row = {"id": ident, "time": "t", "trigger": "long", "session": "", "skill": None}
        (folder / f"{ident}.json").write_text(
            json.dumps({**row, "sentence": "s", "reply": "r", "cut": False})
        )


def test_replies_dated_in_the_future_neither_count_nor_push_out_a_new_one(layout, tmp_path):
    from pathlib import Path

    # A clock set back (or a copy from another machine) in the person's folder, and a checkout's.
    _dated(Path(layout.rejected), "29991231T235959000000", KEEP)
    _dated(tmp_path / ".edgar" / "rejected", "29991231T235959000000", KEEP)
    ident = keep(layout, reply="refused now", sentence="refused", fired=("long",), session="s")
    assert read_rejected(layout, ident).reply == "refused now"
    assert len(list(Path(layout.rejected).glob("*.json"))) == KEEP + 1
    # Real replies still keep the newest KEEP of their own.
    for n in range(KEEP):
        keep(layout, reply=f"reply {n}", sentence="refused", fired=("long",), session="s")
    dated = [r for r in list_rejected(layout) if not r.id.startswith("2999")]
    assert len(dated) == KEEP
    assert "refused now" not in {r.reply for r in dated}
