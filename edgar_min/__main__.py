"""`python3 -m edgar_min` and the zipapp entry point."""

import gc

# A command's start-up makes tens of thousands of objects that live as long as the process;
# the default thresholds collect (and walk) them over and over, a few percent of a per-turn
# command. Young collections start after 50,000 new objects instead of 700: a long-running
# command (the MCP server, an agent run) still collects, only less often.
gc.set_threshold(50_000, 50, 100)

from edgar_min.cli import leave, main  # noqa: E402 - after the collector is set

if __name__ == "__main__":
    leave(main())
