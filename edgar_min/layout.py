"""Where everything lives on disk, in one place.

Every path edgar_min reads or writes is built from a `Layout`, so the data
layout in docs/formats.md and the code cannot drift apart.

Two places: the project's `.edgar/` holds the project's record (skills, proposals, the
ledger, the experience store, decisions, logs), which may be shared through git. What edgar
derives for one person (the routing cache, routing examples, what each session was handed,
refused replies) lives in a state folder of that person's own, `HOME/projects/ID/`, outside
the tree: a clone cannot ship any of it, so what a repository commits at the old places has
no effect.
"""

from __future__ import annotations

import os
from os.path import join

from edgar_min.digests import cache_key
from edgar_min.records import dataclass

__all__ = [
    "AGENT_LISTS",
    "Layout",
    "agent_user_skills",
    "listed_by",
    "person_home",
    "project_id",
    "user_home",
]

# What a state folder's name keeps of a project's path as it is; everything else becomes "-".
_KEPT = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._")
SLUG_CHARS = 48
_REAL: dict[str, str] = {}  # root -> its real path: one realpath a process
_STATES: dict[tuple[str, str], str] = {}  # (root, home) -> the state folder, asked for many times a run


def user_home(environ: dict[str, str] | None = None) -> str:
    """The user scope: `$EDGAR_HOME`, else `~/.edgar`."""
    env = os.environ if environ is None else environ
    value = env.get("EDGAR_HOME")
    if value:
        return value
    return join(os.path.expanduser("~"), ".edgar")


# The folders of a project where agents keep their own skills, in the order discovery reads them.
AGENT_FOLDERS = (".agents", ".claude", ".codex", ".gemini")


# The skill folders (discovery's scopes) each agent lists to its model by itself, and loads from
# on demand: Claude Code `.claude/skills` and its config folder's (Skill tool); Gemini CLI 0.61
# `.gemini/skills`, `.agents/skills` and both under the home (`activate_skill`); Codex 0.171
# `.agents/skills`, `~/.agents/skills` and `$CODEX_HOME/skills`, and `.codex/skills` (it reads
# the file its listing names).
AGENT_LISTS: dict[str, tuple[str, ...]] = {
    "claude-code": (".claude", "~/.claude"),
    "codex": (".agents", ".codex", "~/.agents", "~/.codex"),
    "gemini": (".agents", ".gemini", "~/.agents", "~/.gemini"),
}


def listed_by(agent: str | None, scope: str) -> bool:
    """Whether `agent` lists a skill of discovery's `scope` to its model by itself (no agent: none)."""
    return scope in AGENT_LISTS.get(agent or "", ())


def person_home() -> str:
    """The person's home folder, where each agent keeps its own (`~/.codex`, `~/.agents`, ...)."""
    return os.path.expanduser("~")


def agent_user_skills(environ: dict[str, str] | None = None) -> tuple[tuple[str, str], ...]:
    """(scope, folder) of every agent's own skills folder under the person's home, each agent's
    variable first: `~/.agents/skills` (Codex and Gemini CLI; Gemini CLI's under `GEMINI_CLI_HOME`),
    `$CLAUDE_CONFIG_DIR/skills`, `$CODEX_HOME/skills`, `~/.gemini/skills`."""
    env = os.environ if environ is None else environ
    home = person_home()
    gemini_home = env.get("GEMINI_CLI_HOME") or home
    folders = [
        ("~/.agents", join(home, ".agents", "skills")),
        ("~/.agents", join(gemini_home, ".agents", "skills")),
        ("~/.claude", join(env.get("CLAUDE_CONFIG_DIR") or join(home, ".claude"), "skills")),
        ("~/.codex", join(env.get("CODEX_HOME") or join(home, ".codex"), "skills")),
        ("~/.gemini", join(gemini_home, ".gemini", "skills")),
    ]
    seen: set[str] = set()
    return tuple((scope, f) for scope, f in folders if not (f in seen or seen.add(f)))


def project_id(real: str) -> str:
    """The name of the state folder of the project at the real path `real`: the end of that path,
    readable, and a key of it.

    The readable part lets a person find a project's folder; the key keeps two projects whose
    paths read alike (`/a/b-c`, `/a/b/c`) apart. It separates a person's own projects from each
    other, so a cheap key of the path serves (`digests.cache_key`; no hash module on every prompt).
    """
    words = "-".join(filter(None, "".join(c if c in _KEPT else "-" for c in real).split("-")))
    slug = words[-SLUG_CHARS:]
    if len(slug) < len(words) and "-" in slug:
        slug = slug.split("-", 1)[1]  # whole words: the end of the path, from a folder's name on
    # Not hidden, not `..`: a name a person sees in a listing.
    slug = slug.lstrip(".-") or "root"
    return f"{slug}-{cache_key(os.fsencode(real))[:16]}"


@dataclass(frozen=True, slots=True)
class Layout:
    """The project root and the user scope, and every folder under them.

    Paths are strings, joined with `os.path`: `pathlib` (with `fnmatch`, `re`, `urllib.parse`
    and `enum` behind it) costs a per-turn command more than all of its own work.
    """

    root: str
    home: str

    def __post_init__(self) -> None:
        # A caller may hand in any path-like (a test's `tmp_path`); every path built here is a str.
        object.__setattr__(self, "root", os.fspath(self.root))
        object.__setattr__(self, "home", os.fspath(self.home))

    def relative(self, path: str) -> str:
        """`path` below the root without the root's prefix (as `str.relative_to`), else whole."""
        text = os.fspath(path)
        if text == self.root:
            return "."
        prefix = self.root if self.root.endswith(os.sep) else self.root + os.sep
        return text.removeprefix(prefix)

    @property
    def edgar(self) -> str:
        return join(self.root, ".edgar")

    @property
    def real_root(self) -> str:
        """The root with every link resolved: what a project's skill must stay inside."""
        found = _REAL.get(self.root)
        if found is None:
            found = _REAL[self.root] = os.path.realpath(self.root)
        return found

    @property
    def state(self) -> str:
        """This person's derived data for this project, outside the tree: `HOME/projects/ID` (0700)."""
        key = (self.root, self.home)
        found = _STATES.get(key)
        if found is None:
            found = _STATES[key] = join(self.home, "projects", project_id(self.real_root))
        return found

    @property
    def project_config(self) -> str:
        return join(self.edgar, "config.toml")

    @property
    def user_config(self) -> str:
        return join(self.home, "config.toml")

    @property
    def skills(self) -> str:
        """Hand-authored project skills: a person owns these."""
        return join(self.edgar, "skills")

    @property
    def learned(self) -> str:
        """Machine-written skills, with provenance."""
        return join(self.skills, "learned")

    @property
    def history(self) -> str:
        return join(self.learned, ".history")

    @property
    def archive(self) -> str:
        return join(self.learned, ".archive")

    @property
    def versions(self) -> str:
        """Every version of a learned skill or proposal the ledger names, by sha256."""
        return join(self.edgar, "versions")

    @property
    def ledger(self) -> str:
        """The append-only change ledger: one JSON line per write, patch, accept, reject, archive, restore."""
        return join(self.edgar, "ledger.jsonl")

    @property
    def proposals(self) -> str:
        return join(self.edgar, "proposals")

    @property
    def code_proposals(self) -> str:
        return join(self.edgar, "code-proposals")

    @property
    def experience(self) -> str:
        return join(self.edgar, "experience")

    @property
    def decisions(self) -> str:
        return join(self.edgar, "decisions")

    @property
    def rejections(self) -> str:
        """Logged rejections: synthesis or distill calls that failed."""
        return join(self.edgar, "rejections.jsonl")

    @property
    def hook_problems(self) -> str:
        """Problems an agent hook met (it always exits 0, so they are written down here)."""
        return join(self.edgar, "hook-problems.jsonl")

    @property
    def cache(self) -> str:
        """Machine-owned derived data: safe to delete, rebuilt when missing or unreadable."""
        return join(self.state, "cache")

    @property
    def word_cache(self) -> str:
        """Each skill's word set and name key for the near-duplicate check, keyed by file stat."""
        return join(self.cache, "skill-words.txt")

    @property
    def routing_cache(self) -> str:
        """What routing derives from each skill (skills/catalog.py), keyed by every skill's stat."""
        return join(self.cache, "routing.json")

    @property
    def parsed_configs(self) -> str:
        """The config files as last parsed, keyed by their text (configcache.py)."""
        return join(self.cache, "configs.json")

    @property
    def routing_examples(self) -> str:
        """The prompts that led to a skill, which routing learns from (skills/examples.py)."""
        return join(self.state, "routing-examples.jsonl")

    @property
    def suggestions(self) -> str:
        """What was suggested to each agent session: one JSONL file per session, merge-safe."""
        return join(self.state, "suggestions")

    @property
    def rejected(self) -> str:
        """Model replies the writer refused, kept (bounded, redacted) for a person to read."""
        return join(self.state, "rejected")

    @property
    def machine_owned(self) -> tuple[str, ...]:
        """Every place in the project edgar writes on its own: none may be a link; `doctor` checks them."""
        return (
            self.proposals,
            self.code_proposals,
            self.learned,
            self.versions,
            self.experience,
            self.decisions,
            self.ledger,
            self.rejections,
            self.hook_problems,
        )

    @property
    def state_owned(self) -> tuple[str, ...]:
        """Every place in the state folder edgar writes; `doctor` checks them as it does the project's."""
        return (self.cache, self.routing_examples, self.suggestions, self.rejected)

    @property
    def former_state(self) -> tuple[str, ...]:
        """Where the project tree once held derived data: what is there now is a checkout's, and ignored."""
        return tuple(join(self.edgar, os.path.basename(p)) for p in self.state_owned)

    @property
    def registry(self) -> str:
        """The code-skill tree (manifest registry)."""
        return join(self.root, "data", "categories.json")

    @property
    def code_skills(self) -> str:
        """Code skill bodies: `email.compose` -> `data/skills/email/compose.py`."""
        return join(self.root, "data", "skills")

    @property
    def user_skills(self) -> str:
        return join(self.home, "skills")

    @property
    def trust_record(self) -> str:
        """The project configs the person trusts, by path and sha256 (`edgar trust`)."""
        return join(self.home, "trusted.json")

    @property
    def install_records(self) -> str:
        """What each agent settings file held before `install` (delivery/install.py), for uninstall."""
        return join(self.home, "installs")

    @property
    def agent_project_skills(self) -> tuple[tuple[str, str], ...]:
        """(scope, folder) of the agents' project skill folders, read as hand-authored skills
        (`.agents/skills` is Codex's and Gemini CLI's both)."""
        return tuple((agent, join(self.root, agent, "skills")) for agent in AGENT_FOLDERS)
