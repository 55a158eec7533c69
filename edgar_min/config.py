"""Layered configuration: defaults, user file, project file, environment, flags.

Each section is a frozen dataclass; a key is a field. Adding a key means adding
a field (with `choices` metadata for a closed vocabulary, and `trust` metadata
for a key a project's own file may not set alone: see `needs_trust`). Every
layer is checked the same way: an unknown key or a wrong type is a
`ConfigError` naming the source, the key and what was expected. The `[agent]`
table is free-form: it is handed to code skills as `ctx.config`.
"""

from __future__ import annotations

import os
import stat

from edgar_min import jsoncodec, trust
from edgar_min.configcache import ParsedConfigs
from edgar_min.errors import ConfigError
from edgar_min.layout import Layout
from edgar_min.logfile import READ_FLAGS
from edgar_min.records import dataclass, field, fields

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any

__all__ = [
    "AGENT_DEFAULTS",
    "AUTO_SYNTHESIS",
    "INERT",
    "AdaptersConfig",
    "CheckConfig",
    "Config",
    "ControllerConfig",
    "EvidenceConfig",
    "ModelConfig",
    "SemifConfig",
    "SkillsConfig",
    "SuggestConfig",
    "load_config",
    "needs_trust",
    "read_toml",
    "trust_keys",
]

# What two of the modes mean, said where they are set: the gate acts on them, the CLI, the
# hooks and `doctor` warn with them.
AUTO_SYNTHESIS = (
    "edgar: warning: skills.synthesis is 'auto': skills from passing turns are written into "
    ".edgar/skills/learned/ with no review, so a mistake or an instruction injected into a task "
    "can become a standing instruction until someone removes it (set it to 'propose' to review first)"
)
INERT = "the controller is switched off (controller.enabled = false): learning is inert"


# Bounds for every number a config may hold: a timeout of `inf`, `1e308` or `nan` is a
# mistake to name, not a value to pass to a socket or a timer.
HOUR = 3600.0
DAY = 86400.0
INT_MAX = 2**31 - 1
FLOAT_MAX = 1e9
MAX_CONFIG_BYTES = 1_000_000
_INFINITY = float("inf")  # math.isfinite without loading the math extension on every run


# Trust. The person's own config, `EDGAR_*` variables and `--set` flags are the person's choice; a
# project's `.edgar/config.toml` arrives with a checkout. A key marked `"trust": True` could send
# data somewhere, run a program, widen what is written or change the gate's mode: set by a
# project's file, it takes effect only once the person trusts that exact file (`edgar trust`,
# trust.py). Every other key tunes how edgar does what the person already chose (thresholds,
# budgets, timeouts, which of the skills here are handed over), so a project may set it alone.
TRUST = {"trust": True}


@dataclass(frozen=True, slots=True)
class SkillsConfig:
    """When a turn is worth a skill, and how the skill is written."""

    # The gate's mode: `auto` writes skills from passing turns with no review.
    synthesis: str = field(default="propose", metadata={**TRUST, "choices": ("off", "propose", "auto")})
    # The thresholds say how often the person's own model is asked, never where: a project's own.
    min_tool_calls: int = field(default=5, metadata={"min": 1})
    # The store keeps markers for 64 sessions per shape: "at least 63 others" is the most it can tell.
    min_repeats: int = field(default=3, metadata={"min": 1, "max": 63})
    distill_after: int = field(default=3, metadata={"min": 1})
    # When not empty, the only tool names a turn record may carry.
    tools: tuple[str, ...] = ()
    # Skill lifecycle (learning/evidence.py): below this many decided turns with a skill and
    # without it, "too few turns to tell"; a learned skill not loaded for this many recorded
    # turns, or days of recorded use, is stale.
    min_evidence_turns: int = field(default=10, metadata={"min": 1})
    stale_turns: int = field(default=200, metadata={"min": 1})
    stale_days: int = field(default=30, metadata={"min": 1})


@dataclass(frozen=True, slots=True)
class ControllerConfig:
    """Whether learning runs at all."""

    enabled: bool = field(default=True, metadata=TRUST)  # the gate itself


@dataclass(frozen=True, slots=True)
class ModelConfig:
    """The text model that writes skill bodies."""

    # Where turns are sent, which program runs, which variable's key goes with them, and which
    # model the person's key pays for. The sampling settings and the timeout are a project's own.
    # `claude-code` runs the person's own agent headless (models/agent_cli.py): a program, so trusted.
    provider: str = field(
        default="offline",
        metadata={**TRUST, "choices": ("offline", "openai", "anthropic", "command", "claude-code")},
    )
    command: tuple[str, ...] = field(default=(), metadata=TRUST)
    name: str = field(default="", metadata=TRUST)
    base_url: str = field(default="", metadata=TRUST)
    api_key_env: str = field(default="", metadata=TRUST)
    temperature: float = field(default=0.2, metadata={"min": 0.0, "max": 2.0})
    max_tokens: int = field(default=1024, metadata={"min": 1, "max": 1_000_000})
    timeout_s: float = field(default=60.0, metadata={"min": 0.001, "max": HOUR})


@dataclass(frozen=True, slots=True)
class SemifConfig:
    """The engine that answers SemIf decisions."""

    # The prompt hook hands every typed prompt to the engine: where it goes is the person's choice.
    engine: str = field(
        default="lexical", metadata={**TRUST, "choices": ("lexical", "openai", "systemone", "anthropic")}
    )
    model: str = field(default="", metadata=TRUST)
    base_url: str = field(default="", metadata=TRUST)
    api_key_env: str = field(default="", metadata=TRUST)
    timeout_s: float = field(default=30.0, metadata={"min": 0.001, "max": HOUR})


@dataclass(frozen=True, slots=True)
class CheckConfig:
    """The project's declared check: a command whose exit code alone is the verdict."""

    command: tuple[str, ...] = field(default=(), metadata=TRUST)  # a program edgar runs
    timeout_s: float = field(default=600.0, metadata={"min": 0.001, "max": DAY})


@dataclass(frozen=True, slots=True)
class AdaptersConfig:
    """How agents' session logs become turns (`learn --from`, the hook)."""

    # "AgentTool=edgar_tool" entries laid over the built-in tool-name table, e.g. "Bash=shell"
    # (names in a turn record: a project's own).
    tool_map: tuple[str, ...] = ()
    # Whether the Stop hook runs the declared check itself, after it has answered, when the agent
    # did not run it after its last edit and a pass would make a trigger fire: a program edgar runs.
    hook_check: bool = field(default=True, metadata=TRUST)
    # The longest a Claude Code hook runs as a whole (reading the transcript and any model call), in seconds.
    hook_timeout_s: float = field(default=20.0, metadata={"min": 0.001, "max": HOUR})


@dataclass(frozen=True, slots=True)
class SuggestConfig:
    """Which skills `skills suggest` and the prompt hook hand to an agent (skills/suggest.py).

    Every key here only chooses among the skills already discovered, or (`learn_from_use`)
    writes where edgar writes by default: a project may set them all.
    """

    # At most this many skills that may apply, the ranking's best, handed over when the best beats
    # `none` with at least `min_probability`; the agent's own model judges them.
    max_skills: int = field(default=3, metadata={"min": 1, "max": 15})
    min_probability: float = field(default=0.3, metadata={"min": 0.0, "max": 1.0})
    # A pick this probable or more is handed over with its body, as one the prompt was taught for
    # is; 1 (the default) says only those: a router's probability is not calibrated.
    body_probability: float = field(default=1.0, metadata={"min": 0.0, "max": 1.0})
    # Characters of skill text handed to the agent per prompt; Claude Code cuts more than 10,000.
    budget_chars: int = field(default=8000, metadata={"min": 200, "max": 9500})
    # How many skills the lexical shortlist hands to the decision (with `none`: at most 16 options).
    shortlist: int = field(default=15, metadata={"min": 1, "max": 15})
    # The budget of the skills index the session-start hook prints.
    index_budget_chars: int = field(default=4000, metadata={"min": 200, "max": 9500})
    # Keep a person's prompt as a routing example of each skill the agent loaded itself for it.
    learn_from_use: bool = True


@dataclass(frozen=True, slots=True)
class EvidenceConfig:
    """The randomised holdout that tells whether a skill helps (learning/trial.py, docs/learning.md)."""

    # The chance that a session never sees a given learned skill the prompt hook would offer it;
    # 0 turns the holdout off. The default was chosen by bench/bench_holdout.py. Capped at one
    # half: a project may tune it, never withhold its skills from most sessions.
    holdout: float = field(default=0.1, metadata={"min": 0.0, "max": 0.5})
    # Whether the person's own skills (hand-authored) are held out too: the person's choice only.
    holdout_own: bool = field(default=False, metadata=TRUST)


SECTIONS: dict[str, type] = {
    "skills": SkillsConfig,
    "controller": ControllerConfig,
    "model": ModelConfig,
    "semif": SemifConfig,
    "check": CheckConfig,
    "adapters": AdaptersConfig,
    "suggest": SuggestConfig,
    "evidence": EvidenceConfig,
}

AGENT_DEFAULTS: dict[str, Any] = {"data": "data", "drafts": "data/drafts", "writable": ["drafts"]}
# In [agent], `writable` names the keys whose folders a code skill may write, `data` is the folder
# its files live in (`drafts` is below it by default), and each key `writable` names is such a
# folder: a project's file that moved any of them would widen what is written. The other keys
# (`time_limit_s`, `memory_mb`, a skill's own settings) are a project's own.
AGENT_TRUST = ("writable", "data")
# The `[agent]` keys edgar itself reads as numbers, checked like any other number key.
AGENT_NUMBERS: dict[str, dict[str, float]] = {
    "time_limit_s": {"min": 0.001, "max": HOUR},
    "memory_mb": {"min": 1, "max": 1 << 20},
}


@dataclass(frozen=True, slots=True)
class Config:
    """The merged configuration and where each layer came from."""

    skills: SkillsConfig = SkillsConfig()
    controller: ControllerConfig = ControllerConfig()
    model: ModelConfig = ModelConfig()
    semif: SemifConfig = SemifConfig()
    check: CheckConfig = CheckConfig()
    adapters: AdaptersConfig = AdaptersConfig()
    suggest: SuggestConfig = SuggestConfig()
    evidence: EvidenceConfig = EvidenceConfig()
    agent: dict[str, Any] = field(default_factory=lambda: dict(AGENT_DEFAULTS))
    # Human-readable names of the layers that were read, lowest first.
    sources: tuple[str, ...] = ("defaults",)
    # The keys of the project's config left out because the person has not trusted that file
    # (`trust.untrusted_sentence` says so); their values come from the other layers.
    untrusted: tuple[str, ...] = ()


_TYPE_NAMES = {
    "str": "a string",
    "int": "an integer",
    "float": "a number",
    "bool": "true or false",
    "tuple[str, ...]": "a list of strings",
}


def _coerce(source: str, dotted: str, ftype: str, metadata: Any, value: Any) -> Any:
    choices = metadata.get("choices")
    expected = _TYPE_NAMES[ftype]
    ok = False
    if ftype == "str":
        ok = isinstance(value, str)
    elif ftype == "int":
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif ftype == "float":
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        if ok:
            finite = _finite(value)
            if finite is None:
                msg = f"{source}: {dotted} must be a finite number, not {value!r}"
                raise ConfigError(msg)
            value = finite
    elif ftype == "bool":
        ok = isinstance(value, bool)
    elif ftype == "tuple[str, ...]":
        ok = isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value)
        value = tuple(value) if ok else value
    if not ok:
        msg = f"{source}: {dotted} must be {expected}, not {value!r}"
        raise ConfigError(msg)
    if choices is not None and value not in choices:
        msg = f"{source}: {dotted} must be one of {', '.join(choices)}, not {value!r}"
        raise ConfigError(msg)
    low, high = metadata.get("min"), metadata.get("max")
    # A key with no upper bound of its own still has the one every number has.
    implicit = high is None and ftype in {"int", "float"}
    if implicit:
        high = INT_MAX if ftype == "int" else FLOAT_MAX
    if (low is not None and value < low) or (high is not None and value > high):
        if low is None or (implicit and value > high):
            bounds = f"at most {_shown(high)}"
        elif high is None or implicit:
            bounds = f"at least {_shown(low)}"
        else:
            bounds = f"between {_shown(low)} and {_shown(high)}"
        msg = f"{source}: {dotted} must be {bounds}, not {value!r}"
        raise ConfigError(msg)
    return value


def _shown(bound: float) -> str:
    return str(bound) if isinstance(bound, int) else f"{bound:g}"


def _number(value: Any) -> Any:
    """A number given as text (an environment variable, a `--set` flag) as a float; anything else as is."""
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return value
    return value


def _finite(value: float) -> float | None:
    """`value` as a finite float, or None (inf, nan, or an int too large for a float)."""
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if -_INFINITY < number < _INFINITY else None  # nan compares false: None


_SPECS: dict[str, dict[str, tuple[str, Any]]] = {}


def _specs(section: str) -> dict[str, tuple[str, Any]]:
    """key -> (type, metadata) of one section, read from its dataclass once per process."""
    specs = _SPECS.get(section)
    if specs is None:
        specs = {f.name: (str(f.type), f.metadata) for f in fields(SECTIONS[section])}
        _SPECS[section] = specs
    return specs


def needs_trust(section: str, key: str, writable: Iterable[str]) -> bool:
    """Whether `section.key`, set by a project's config, takes effect only once the person trusts the file.

    `writable`: the `[agent]` keys the person's own layers let code skills write (their folders
    widen writes too). The one place this is decided.
    """
    if section == "agent":
        return key in AGENT_TRUST or key in writable
    spec = _specs(section).get(key) if section in SECTIONS else None
    return spec is not None and bool(spec[1].get("trust"))


def trust_keys() -> tuple[str, ...]:
    """Every key a project's config sets only once trusted, as `section.key` (for docs and tests).

    Of the `[agent]` folder keys, those the default `writable` names.
    """
    marked = [f"{s}.{k}" for s in SECTIONS for k in _specs(s) if needs_trust(s, k, ())]
    folders = [k for k in AGENT_DEFAULTS["writable"] if k not in AGENT_TRUST]
    return (*marked, *(f"agent.{k}" for k in (*AGENT_TRUST, *folders)))


def _needing_trust(table: dict[str, Any], writable: tuple[str, ...]) -> tuple[str, ...]:
    """The keys of a project's config (a parsed TOML document) that need the person's trust."""
    return tuple(
        f"{section}.{key}"
        for section, values in table.items()
        if isinstance(values, dict)
        for key in values
        if needs_trust(section, key, writable)
    )


def _writable(tables: Iterable[dict[str, Any] | None]) -> tuple[str, ...]:
    """The `[agent] writable` keys of the last of `tables` that sets it, else the default's."""
    value: Any = AGENT_DEFAULTS["writable"]
    for table in tables:
        agent = table.get("agent") if table else None
        if isinstance(agent, dict) and "writable" in agent:
            value = agent["writable"]
    if isinstance(value, str):  # as `agent/loop.writable_folders` reads it
        return (value,)
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()


class _Layers:
    """The keys every layer set so far, checked, merged into plain dicts (one per section).

    The section dataclasses are built once, at the end: reading a layer costs a few dict
    operations, not a `replace()` of every section it touches.
    """

    def __init__(self) -> None:
        self.values: dict[str, dict[str, Any]] = {}
        self.agent: dict[str, Any] = dict(AGENT_DEFAULTS)

    def apply(self, source: str, table: dict[str, Any], leave_out: tuple[str, ...] = ()) -> None:
        """Check the keys of one layer (a parsed TOML document) and lay them over the others.

        The keys in `leave_out` (`section.key`) are checked like the others, then not applied.
        """
        changes: dict[str, dict[str, Any]] = {}
        agent: dict[str, Any] = {}
        for section, values in table.items():
            if section == "agent":
                if not isinstance(values, dict):
                    msg = f"{source}: [agent] must be a table"
                    raise ConfigError(msg)
                agent.update(values)
                for key, bounds in AGENT_NUMBERS.items():
                    if key in values:
                        agent[key] = _coerce(source, f"agent.{key}", "float", bounds, _number(values[key]))
                for dotted in leave_out:
                    if dotted.startswith("agent."):
                        agent.pop(dotted[len("agent.") :], None)
                continue
            if section not in SECTIONS:
                known = ", ".join([*SECTIONS, "agent"])
                msg = f"{source}: unknown section [{section}] (known sections: {known})"
                raise ConfigError(msg)
            if not isinstance(values, dict):
                msg = f"{source}: [{section}] must be a table"
                raise ConfigError(msg)
            specs = _specs(section)
            updates = changes.setdefault(section, {})
            for key, value in values.items():
                spec = specs.get(key)
                if spec is None:
                    known = ", ".join(specs)
                    msg = f"{source}: unknown key {section}.{key} (known keys: {known})"
                    raise ConfigError(msg)
                checked = _coerce(source, f"{section}.{key}", spec[0], spec[1], value)
                if f"{section}.{key}" not in leave_out:
                    updates[key] = checked
        for section, updates in changes.items():
            self.values.setdefault(section, {}).update(updates)
        self.agent.update(agent)

    def config(self, sources: list[str], untrusted: tuple[str, ...]) -> Config:
        sections = {name: SECTIONS[name](**values) for name, values in self.values.items()}
        return Config(**sections, agent=self.agent, sources=tuple(sources), untrusted=untrusted)


def read_toml(path: str, cache: ParsedConfigs | None = None) -> tuple[bytes, dict[str, Any]] | None:
    """The bytes of a config file and the TOML document they hold; None when there is no file.

    With `cache`, a file whose bytes are those it last parsed is not parsed again (configcache.py).
    """
    try:
        fd = os.open(path, READ_FLAGS)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        msg = f"{path}: cannot be read ({exc.strerror})"
        raise ConfigError(msg) from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            # A checkout can link the config to /dev/zero or a fifo: reading would never end.
            msg = f"{path}: not a plain file, so it is not read as a config"
            raise ConfigError(msg)
        data = handle.read(MAX_CONFIG_BYTES + 1)
    if len(data) > MAX_CONFIG_BYTES:
        msg = f"{path}: larger than {MAX_CONFIG_BYTES:,} bytes; a config is a few lines"
        raise ConfigError(msg)
    document = cache.get(path, data) if cache is not None else None
    if document is None:
        document = _parse_toml(path, data)
        if cache is not None:
            cache.put(path, data, document)
    return data, document


def _parse_toml(path: str, data: bytes) -> dict[str, Any]:
    import tomllib  # only for a file not parsed before: it costs as much as the interpreter's start-up

    try:
        return tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        msg = f"{path}: not valid TOML: {exc}"
        raise ConfigError(msg) from None
    except RecursionError:
        msg = f"{path}: not valid TOML: its arrays or tables are nested too deeply to read"
        raise ConfigError(msg) from None


def _parse_text_value(source: str, dotted: str, ftype: str, raw: str) -> Any:
    """Read a value given as text (an environment variable or a `--set` flag)."""
    if ftype == "str":
        return raw
    if ftype == "bool":
        lowered = raw.strip().lower()
        if lowered in {"true", "1", "yes", "on"}:
            return True
        if lowered in {"false", "0", "no", "off"}:
            return False
    elif ftype in {"int", "float"}:
        try:
            return int(raw) if ftype == "int" else float(raw)
        except ValueError:
            pass
    elif ftype == "tuple[str, ...]":
        try:
            value = jsoncodec.loads(raw)
        except ValueError:
            value = None
        if isinstance(value, list):
            return value
    msg = f"{source}: {dotted} must be {_TYPE_NAMES[ftype]}"
    if ftype == "tuple[str, ...]":
        msg += ' written as a JSON array, e.g. ["a", "b"]'
    msg += f", not {raw!r}"
    raise ConfigError(msg)


def _text_layer(source: str, pairs: list[tuple[str, str, str]]) -> dict[str, Any]:
    """Turn (section, key, text) triples into a typed TOML-like table."""
    table: dict[str, dict[str, Any]] = {}
    for section, key, raw in pairs:
        if section == "agent":
            table.setdefault("agent", {})[key] = raw
            continue
        if section not in SECTIONS:
            known = ", ".join([*SECTIONS, "agent"])
            msg = f"{source}: unknown section {section!r} (known sections: {known})"
            raise ConfigError(msg)
        specs = _specs(section)
        spec = specs.get(key)
        if spec is None:
            known = ", ".join(specs)
            msg = f"{source}: unknown key {section}.{key} (known keys: {known})"
            raise ConfigError(msg)
        value = _parse_text_value(source, f"{section}.{key}", spec[0], raw)
        table.setdefault(section, {})[key] = value
    return table


def load_config(
    layout: Layout,
    environ: dict[str, str] | None = None,
    overrides: list[str] | tuple[str, ...] = (),
    *,
    trusts: Callable[[bytes], bool] | None = None,
) -> Config:
    """Merge defaults, `~/.edgar/config.toml`, `.edgar/config.toml`, `EDGAR_*` and `--set` flags.

    The project's file sets a key `needs_trust` names only when `trusts(its bytes)` (by default:
    when `edgar trust` recorded those bytes); otherwise the key is left out and named in
    `Config.untrusted`. `trusts` is asked only when the file sets such a key.
    """
    env = os.environ if environ is None else environ
    cache = ParsedConfigs(layout)
    user = read_toml(layout.user_config, cache)
    project = read_toml(layout.project_config, cache)
    cache.save()
    env_pairs = []
    for name in sorted(env):
        if not name.startswith("EDGAR_") or name == "EDGAR_HOME":
            continue
        section, _, key = name[len("EDGAR_") :].lower().partition("_")
        # Only names that address a known section are ours; others are left alone.
        if section in SECTIONS or section == "agent":
            if not key:
                msg = f"environment variable {name}: names no key (use EDGAR_<SECTION>_<KEY>)"
                raise ConfigError(msg)
            env_pairs.append((section, key, env[name]))
    env_table = _text_layer("environment variable", env_pairs) if env_pairs else None
    flag_pairs = []
    for item in overrides:
        dotted, sep, raw = item.partition("=")
        section, dot, key = dotted.strip().partition(".")
        if not sep or not dot or not key:
            msg = f"--set {item!r}: expected SECTION.KEY=VALUE, e.g. skills.synthesis=off"
            raise ConfigError(msg)
        flag_pairs.append((section, key, raw))
    flag_table = _text_layer("--set", flag_pairs) if flag_pairs else None
    untrusted: tuple[str, ...] = ()
    if project is not None:
        # Which folders are writable is the person's to say: their layers decide which keys count.
        wanted = _needing_trust(project[1], _writable((user and user[1], env_table, flag_table)))
        decide = trusts if trusts is not None else (lambda data: trust.trusted(layout, data))
        if wanted and not decide(project[0]):
            untrusted = wanted
    layers = _Layers()
    sources = ["defaults"]
    if user is not None:
        layers.apply(layout.user_config, user[1])
        sources.append(layout.user_config)
    if project is not None:
        layers.apply(layout.project_config, project[1], untrusted)
        sources.append(layout.project_config)
    if env_table is not None:
        names = ", ".join(f"EDGAR_{s.upper()}_{k.upper()}" for s, k, _ in env_pairs)
        layers.apply("environment", env_table)
        sources.append(f"environment ({names})")
    if flag_table is not None:
        layers.apply("--set", flag_table)
        sources.append("--set flags")
    return layers.config(sources, untrusted)
