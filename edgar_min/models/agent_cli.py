"""The agent the person already runs, as the model that writes skills: Claude Code's headless mode.

`claude -p` gets the brief as its whole system prompt and the outline on stdin, and nothing
else: no tools (`--tools ""`), one turn (`--max-turns 1`), no session kept, and where the
installed version offers them no customisation of the person's (`--safe-mode`: no CLAUDE.md,
hooks, skills or MCP servers) and a JSON schema the reply must hold to (`--json-schema`, which
Claude Code answers through its own `StructuredOutput` tool, the only one the request offers).
It runs in an empty temporary folder, so no project file is in reach, for at most
`model.timeout_s` seconds. Which options the version has is read from its `--help` once per
process; a version without `--tools` is refused rather than run with its tools.

The child's environment is the code-skill child's (`agent/child.ENVIRONMENT`: PATH, HOME, the
locale, a temp folder) and the variables the agent itself needs to reach the person's model:
its API key, base URL and provider switches, and the proxy and certificate settings. HOME is
the person's own, where the agent keeps its login. Nothing of the session that is running
(its project folder, its own markers) goes with it.
"""

from __future__ import annotations

import os

from edgar_min import jsoncodec
from edgar_min.agent.child import ENVIRONMENT
from edgar_min.errors import ModelError
from edgar_min.models import SchemaRefused
from edgar_min.models.command import run_bounded
from edgar_min.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from edgar_min.config import ModelConfig
    from edgar_min.models import ReplySchema

__all__ = ["AGENTS", "AgentCli", "AgentProvider", "child_environment"]

# Bytes read from the agent at most (its JSON result holds the reply and a few figures).
MAX_OUTPUT = 1_000_000
HELP_TIMEOUT_S = 15.0
# Variables any agent needs to reach a model through the person's network.
NETWORK = frozenset(
    {
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "NO_PROXY",
        "http_proxy",
        "https_proxy",
        "no_proxy",
        "NODE_EXTRA_CA_CERTS",
        "SSL_CERT_FILE",
        "SSL_CERT_DIR",
    }
)


@dataclass(frozen=True, slots=True)
class AgentCli:
    """One agent's headless mode: its program and the variables of its own it needs."""

    name: str  # the `[model] provider` value
    program: str  # looked up on PATH when `[model] command` is empty
    prefixes: tuple[str, ...]  # variables kept by prefix (keys, base URLs, cloud credentials)
    names: frozenset[str]  # variables kept by name


AGENTS: dict[str, AgentCli] = {
    "claude-code": AgentCli(
        "claude-code",
        "claude",
        ("ANTHROPIC_", "AWS_"),
        frozenset(
            {
                "CLAUDE_CONFIG_DIR",
                "CLAUDE_CODE_OAUTH_TOKEN",
                "CLAUDE_CODE_USE_BEDROCK",
                "CLAUDE_CODE_USE_VERTEX",
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC",
                "CLOUD_ML_REGION",
                "GOOGLE_APPLICATION_CREDENTIALS",
                "DISABLE_AUTOUPDATER",
                "DISABLE_TELEMETRY",
            }
        ),
    ),
}


def child_environment(agent: AgentCli, environ: Mapping[str, str]) -> dict[str, str]:
    """The agent's environment: the code-skill child's allow-list and the agent's own variables."""
    named = ENVIRONMENT | NETWORK | agent.names
    prefixes = ("LC_", *agent.prefixes)
    return {key: value for key, value in environ.items() if key in named or key.startswith(prefixes)}


_OPTIONS: dict[str, frozenset[str]] = {}  # program -> the options its --help lists


def _options(program: str, env: dict[str, str]) -> frozenset[str]:
    """The `--options` the program's `--help` names (none when it cannot say); once per process."""
    found = _OPTIONS.get(program)
    if found is None:
        import re
        import subprocess

        try:
            done = subprocess.run(
                [program, "--help"],
                env=env,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=HELP_TIMEOUT_S,
                check=False,
            )
            text = done.stdout[:MAX_OUTPUT].decode("utf-8", "replace")
        except (OSError, subprocess.SubprocessError):
            text = ""
        found = _OPTIONS[program] = frozenset(re.findall(r"(?<![\w-])--[a-z][a-z-]*", text))
    return found


class AgentProvider:
    """`[model] provider = "claude-code"`: a skill written by `claude -p`, with no tools, in one turn."""

    def __init__(self, config: ModelConfig, environ: Mapping[str, str] | None = None) -> None:
        self.agent = AGENTS[config.provider]
        self.name = self.agent.name
        self.command = list(config.command)  # the program, as the person recorded it (else from PATH)
        self.model = config.name
        self.timeout = config.timeout_s
        self._env = child_environment(self.agent, os.environ if environ is None else environ)
        self._schema = True

    def text_only(self) -> None:
        """Ask in text from now on (a version without `--json-schema`)."""
        self._schema = False

    def complete(self, system: str, prompt: str) -> str:
        return self._run(system, prompt, None)

    def complete_object(self, system: str, prompt: str, schema: ReplySchema) -> str:
        return self._run(system, prompt, schema)

    def _program(self) -> str:
        import shutil

        wanted = self.command[0] if self.command else self.agent.program
        program = shutil.which(wanted, path=self._env.get("PATH"))
        if not program:
            where = "" if os.sep in wanted else " on PATH"
            msg = f"{self.name} provider: the program {wanted!r} was not found{where} (or cannot be run)"
            raise ModelError(msg)
        return program

    def _argv(self, program: str, system: str, schema: ReplySchema | None) -> list[str]:
        """Claude Code's command line: print mode, one turn, no tools, the brief as the system prompt."""
        offered = _options(program, self._env)
        if "--tools" not in offered:
            msg = (
                f"{self.name} provider: {program!r} does not list --tools in its --help, so it cannot "
                "be run without its tools; update it"
            )
            raise ModelError(msg)
        argv = [*self.command[1:]] if self.command else []
        argv = [program, *argv, "-p", "--output-format", "json", "--max-turns", "1", "--tools", ""]
        argv += ["--system-prompt", system]
        for option in ("--safe-mode", "--no-session-persistence"):
            if option in offered:
                argv.append(option)
        if self.model:
            argv += ["--model", self.model]
        if schema is not None:
            if not self._schema or "--json-schema" not in offered:
                msg = f"{self.name} provider: this version takes no --json-schema"
                raise SchemaRefused(msg)
            argv += ["--json-schema", jsoncodec.dumps(schema.schema)]
        return argv

    def _run(self, system: str, prompt: str, schema: ReplySchema | None) -> str:
        import shutil
        import tempfile

        program = self._program()
        argv = self._argv(program, system, schema)
        # An empty folder: nothing of the project (its CLAUDE.md, its settings, its files) is in reach.
        folder = tempfile.mkdtemp(prefix="edgar-writer-")
        try:
            code, out = run_bounded(
                argv, prompt.encode(), cwd=folder, env=self._env, timeout=self.timeout, who=self.name
            )
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        return _reply(self.name, code, out, structured=schema is not None)


def _reply(who: str, code: int, out: bytes, *, structured: bool) -> str:
    """The reply in Claude Code's JSON result: the object held to the schema, else the text."""
    try:
        doc = jsoncodec.loads(out.decode("utf-8", "replace"))
    except ValueError:
        doc = None
    if not isinstance(doc, dict):
        said = f"exited with status {code}" if code else "printed no JSON result"
        msg = f"{who} provider: the agent {said}"
        raise ModelError(msg)
    if doc.get("is_error") or code != 0:
        errors = doc.get("errors") if isinstance(doc.get("errors"), list) else []
        why = "; ".join(str(e) for e in errors[:3]) or str(doc.get("result") or doc.get("subtype") or code)
        msg = f"{who} provider: the agent ended with an error ({' '.join(why.split())[:300]})"
        raise ModelError(msg)
    held = doc.get("structured_output")
    if structured and isinstance(held, dict):
        return jsoncodec.dumps(held)
    result = doc.get("result")
    if not isinstance(result, str) or not result.strip():
        msg = f"{who} provider: the agent's result holds no reply"
        raise ModelError(msg)
    return result.strip()
