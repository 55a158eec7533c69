"""Handing skills to agents: the Claude Code hooks, what was suggested per session, and the installer."""
