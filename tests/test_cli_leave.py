"""`cli.leave`: the process ends with the code, and nothing printed or still running is lost."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def run(script: str) -> subprocess.CompletedProcess[str]:
    code = f"import sys; sys.path.insert(0, {str(REPO)!r})\n" + textwrap.dedent(script)
    return subprocess.run(
        [sys.executable, "-I", "-S", "-c", code], capture_output=True, text=True, timeout=60
    )


def test_everything_printed_reaches_a_pipe_and_the_code_is_kept():
    done = run("""
        from edgar_min.cli import leave
        for i in range(20000):
            print(f"line {i}")
        print("to stderr", file=sys.stderr)
        leave(3)
    """)
    assert done.returncode == 3
    lines = done.stdout.splitlines()
    assert len(lines) == 20000
    assert lines[-1] == "line 19999"
    assert done.stderr == "to stderr\n"


def test_a_thread_still_running_is_waited_for(tmp_path):
    out = tmp_path / "late.txt"
    done = run(f"""
        import threading, time
        from edgar_min.cli import leave
        def late():
            time.sleep(0.3)
            open({str(out)!r}, "w").write("written")
        threading.Thread(target=late).start()
        leave(0)
    """)
    assert done.returncode == 0
    assert out.read_text() == "written"


def test_what_is_registered_to_run_at_exit_runs():
    done = run("""
        import atexit
        from edgar_min.cli import leave
        atexit.register(lambda: print("cleaned up"))
        leave(1)
    """)
    assert (done.returncode, done.stdout) == (1, "cleaned up\n")
