"""Code skills: the tree, the loader, acceptance, the child a body runs in, the walls, the run loop.

Skill bodies import their types from `edgar_min.agent.skills` (or, written for
the SemIf agent, from `semif_agent.skills`, which the loader aliases to it).
"""

__all__: list[str] = []
