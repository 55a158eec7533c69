"""edgar_min: a safe skill memory for agent harnesses, stdlib only.

Importing the package has no side effects and imports nothing else: the names
a vendoring harness needs (`Gate`, `Layout`, `load_config`, `parse_turn`,
`user_home`, `Outcome`) are resolved on first use. Everything else lives in the
subpackages named for what they do (learning, skills, controller, models,
semif, agent, cli).

Modules write `TYPE_CHECKING = False` rather than importing it from `typing`: the
name is all a type checker looks for, and `typing` costs about 2 ms on every run
of a per-turn command that never needs it.
"""

__all__ = ["Gate", "Layout", "Outcome", "__version__", "load_config", "parse_turn", "user_home"]

__version__ = "0.1.0"

# Name -> the module that defines it; imported only when the name is first asked for.
_VENDORED = {
    "Gate": "edgar_min.controller.gate",
    "Outcome": "edgar_min.controller.outcome",
    "Layout": "edgar_min.layout",
    "user_home": "edgar_min.layout",
    "load_config": "edgar_min.config",
    "parse_turn": "edgar_min.learning.turn",
}


def __getattr__(name: str) -> object:
    module = _VENDORED.get(name)
    if module is None:
        msg = f"module 'edgar_min' has no attribute {name!r}"
        raise AttributeError(msg)
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_VENDORED])
