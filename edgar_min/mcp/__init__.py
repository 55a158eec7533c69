"""edgar as a Model Context Protocol server (stdio, JSON-RPC 2.0, stdlib only)."""
