"""edgar_min: a safe skill memory for agent harnesses, stdlib only.

Importing the package has no side effects; the public pieces live in the
subpackages named for what they do (learning, skills, controller, models,
semif, agent, cli).
"""

__all__ = ["__version__"]

__version__ = "0.1.0"
