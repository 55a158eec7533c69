"""Code skills: the skill tree, the loader, the acceptance checker, the run-time walls, the run loop.

Skill bodies import their types from `edgar_min.agent.skills` (or, written for
the SemIf agent, from `semif_agent.skills`, which the loader aliases to it).
"""

__all__: list[str] = []
