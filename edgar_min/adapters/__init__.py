"""From an agent's own session log to a `Turn`, computed by edgar and never copied.

Each adapter streams a log and builds the seven-key turn record of its last
turn; the record then goes through the same `parse_turn` and gate as any other.
Tool output, tool arguments (but the stripped program word) and assistant text
have no way in: the adapters read them only to compute a closed-vocabulary fact
(a kind, an exit code) or not at all.
"""
