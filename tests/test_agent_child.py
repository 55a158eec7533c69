"""`edgar run` end to end on bodies that hang, exit, interrupt or print: in a subprocess, as a user runs it.

Each of these once hung the process, ended it with the wrong code, or printed a
traceback; a subprocess with a timeout is how a person would see that.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import tree_snapshot

REPO = Path(__file__).resolve().parents[1]
HEAD = "from semif_agent.skills import ActionResult, DecisionRequest, Option, Prediction\n"
PREDICT = textwrap.dedent(
    """\
    def predict(ctx, request):
        d = DecisionRequest(state=request.text, question="Which?", options=[Option("go"), Option("none")])
        r = ctx.engine.call(d)
        return Prediction(text=r.selected, decisions=[(d, r)])
    """
)


def make_tree(root: Path, act_code: str, top: str = "", time_limit: float = 1.0) -> Path:
    (root / "data/skills/tool").mkdir(parents=True)
    registry = {
        "categories": [
            {
                "name": "tool",
                "description": "Run the tool on a widget.",
                "skills": [{"name": "tool.run", "description": "Run the tool on one widget."}],
            }
        ]
    }
    (root / "data/categories.json").write_text(json.dumps(registry))
    # Acceptance wants act to build an ActionResult: the last line does, when the code gets there.
    act_code = textwrap.dedent(act_code) + "return ActionResult(action_log='got to the end', new_state='y')\n"
    act = "def act(ctx, request, prediction):\n" + textwrap.indent(act_code, "    ")
    (root / "data/skills/tool/run.py").write_text(HEAD + textwrap.dedent(top) + "\n" + PREDICT + "\n" + act)
    (root / ".edgar").mkdir()
    (root / ".edgar/config.toml").write_text(f"[agent]\ntime_limit_s = {time_limit}\n")
    return root


def edgar_run(root: Path, *, json_out: bool = True) -> subprocess.CompletedProcess:
    args = [sys.executable, "-m", "edgar_min", "--root", str(root)]
    args += ["--json"] if json_out else []
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [*args, "run", "run the tool on the widget"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=root,
        check=False,
    )


def data_snapshot(root: Path) -> dict[str, bytes]:
    """Every file but those a run may write: the decision log and the drafts folder."""
    return {
        k: v
        for k, v in tree_snapshot(root).items()
        if not k.startswith((".edgar/decisions/", "data/drafts/"))
    }


@pytest.mark.parametrize(
    ("top", "act"),
    [
        ("while True:\n    pass\n", "return ActionResult(action_log='x', new_state='y')\n"),
        (
            "",
            """\
            while True:
                try:
                    while True:
                        pass
                except BaseException:
                    pass
            """,
        ),
    ],
    ids=["a loop at the top level", "a loop that catches BaseException"],
)
def test_a_body_that_never_ends_is_stopped_by_the_time_limit(tmp_path, top, act):
    root = make_tree(tmp_path, act, top=top, time_limit=0.5)
    before = data_snapshot(root)
    done = edgar_run(root)
    assert done.returncode == 1, done
    doc = json.loads(done.stdout)
    assert doc["action_log"] == (
        "tool.run: blown budget: the skill's own code ran longer than 0.5 s (engine time not counted)"
    )
    assert doc["new_state"] == "run the tool on the widget"
    assert "Traceback" not in done.stderr
    assert data_snapshot(root) == before


def test_a_thread_reached_through_os_sys_is_refused_before_anything_runs(tmp_path):
    outside = tmp_path / "outside.txt"
    root = make_tree(
        tmp_path / "project",
        f"""\
        import os
        def forever():
            while True:
                open({str(outside)!r}, "a").write("still here\\n")
        os.sys.modules["threading"].Thread(target=forever).start()
        return ActionResult(action_log="thread left running", new_state="y")
        """,
    )
    done = edgar_run(root)
    assert done.returncode == 1, done
    doc = json.loads(done.stdout)
    assert doc["action_log"].startswith("refused body: the body of tool.run fails acceptance:")
    assert "reaches for 'sys'" in doc["action_log"]
    assert not outside.exists()


def test_os_exit_in_act_is_exit_1_with_a_sentence(tmp_path):
    root = make_tree(tmp_path, "import os\nos._exit(0)\n")
    done = edgar_run(root)
    assert done.returncode == 1, done
    doc = json.loads(done.stdout)
    assert doc["acted"] is False
    assert doc["action_log"] == (
        "tool.run ended its process (exited with status 0) without returning an ActionResult"
    )


def test_keyboard_interrupt_from_a_body_is_its_failure_not_exit_130(tmp_path):
    root = make_tree(tmp_path, "raise KeyboardInterrupt('stop')\n")
    done = edgar_run(root, json_out=False)
    assert done.returncode == 1, done
    assert "action: tool.run raised KeyboardInterrupt: stop" in done.stdout
    assert "Traceback" not in done.stderr


def test_an_asyncio_body_prints_no_traceback(tmp_path):
    root = make_tree(
        tmp_path,
        """\
        import asyncio
        async def boom():
            raise ValueError("inside a task nobody awaited")
        async def main():
            asyncio.get_running_loop().create_task(boom())
            await asyncio.sleep(0)
        asyncio.run(main())
        return ActionResult(action_log="ran the loop", new_state="done")
        """,
    )
    done = edgar_run(root)
    assert done.returncode == 0, done
    assert json.loads(done.stdout)["action_log"] == "ran the loop"
    assert done.stderr == ""


def test_what_a_body_prints_does_not_break_the_json_on_stdout(tmp_path):
    root = make_tree(
        tmp_path,
        """\
        print("not json")
        import os
        os.write(1, b"raw bytes on the descriptor")
        return ActionResult(action_log="printed", new_state="done")
        """,
    )
    done = edgar_run(root)
    assert done.returncode == 0, done
    assert json.loads(done.stdout)["action_log"] == "printed"


def test_a_busy_body_dies_with_its_own_cpu_limit_when_edgar_itself_is_killed(tmp_path):
    root = make_tree(
        tmp_path,
        """\
        import os
        from pathlib import Path
        Path(ctx.config["drafts"]).mkdir(parents=True, exist_ok=True)
        Path(ctx.config["drafts"], "pid").write_text(str(os.getpid()))
        while True:
            pass
        """,
        time_limit=1,
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    parent = subprocess.Popen(
        [sys.executable, "-m", "edgar_min", "--root", str(root), "run", "run the tool on the widget"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=root,
    )  # fmt: skip
    pid_file = root / "data/drafts/pid"
    deadline = time.monotonic() + 300  # a loaded machine is slow, not wrong
    while not pid_file.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    pid = int(pid_file.read_text())
    parent.kill()  # edgar is gone: nobody left to stop the child but the kernel
    parent.wait()
    deadline = time.monotonic() + 300  # a loaded machine is slow, not wrong
    while time.monotonic() < deadline and _alive(pid):
        time.sleep(0.1)
    survived = _alive(pid)
    if survived:
        os.kill(pid, signal.SIGKILL)  # leave no busy process behind a failed test
    assert not survived


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (OSError, IndexError):
        return False
    return state not in {"Z", "X"}


def test_the_built_pyz_stops_a_hostile_body_and_runs_a_good_one(pyz, tmp_path):
    good = make_tree(
        tmp_path / "good",
        """\
        from pathlib import Path
        Path(ctx.config["drafts"]).mkdir(parents=True, exist_ok=True)
        Path(ctx.config["drafts"], "note.txt").write_text(request.text)
        return ActionResult(action_log="wrote note.txt", new_state="done")
        """,
    )
    bad = make_tree(
        tmp_path / "bad",
        "while True:\n    try:\n        pass\n    except BaseException:\n        pass\n",
        time_limit=0.5,
    )
    for root, code, log in (
        (good, 0, "wrote note.txt"),
        (
            bad,
            1,
            "tool.run: blown budget: the skill's own code ran longer than 0.5 s (engine time not counted)",
        ),
    ):
        argv = [sys.executable, "-I", "-S", str(pyz), "--root", str(root), "--json", "run"]
        done = subprocess.run(
            [*argv, "run the tool on the widget"],
            capture_output=True, text=True, timeout=60, cwd=tmp_path, check=False,
        )  # fmt: skip
        assert done.returncode == code, done
        assert json.loads(done.stdout)["action_log"] == log
        assert done.stderr == ""
    assert (good / "data/drafts/note.txt").read_text() == "run the tool on the widget"
