"""The `edgar` command line: argparse, and errors mapped to exit codes in one place.

Exit codes: 0 done; 1 refused or invalid (a failed validation, a refused write,
an unknown skill); 2 bad usage or unreadable input. `main()` returns the code
and never lets a traceback reach the user.
"""

from __future__ import annotations

import sys

__all__ = ["main"]

# Command modules; each has `register(subparsers)`. Imported only after the
# `--version` fast path, and each keeps its heavy imports inside its handlers.
COMMAND_MODULES = (
    "edgar_min.cli.skills_cmd",
    "edgar_min.cli.learn_cmd",
    "edgar_min.cli.watch_cmd",
    "edgar_min.cli.doctor_cmd",
    "edgar_min.cli.index_cmd",
    "edgar_min.cli.mcp_cmd",
    "edgar_min.cli.semif_cmd",
    "edgar_min.cli.agent_cmd",
    "edgar_min.cli.lifecycle_cmd",
    "edgar_min.cli.rejections_cmd",
)


def main(argv: list[str] | None = None) -> int:
    """Run one command; return its exit status."""
    args = sys.argv[1:] if argv is None else list(argv)
    if args == ["--version"]:
        from edgar_min import __version__

        print(f"edgar {__version__}")
        return 0
    from edgar_min.cli.app import run

    return run(args)
