"""Where everything lives on disk, in one place.

Every path edgar_min reads or writes is built from a `Layout`, so the data
layout in the README and the code cannot drift apart.
"""

from __future__ import annotations

import os
from os.path import join

from edgar_min.records import dataclass

__all__ = ["Layout", "user_home"]


def user_home(environ: dict[str, str] | None = None) -> str:
    """The user scope: `$EDGAR_HOME`, else `~/.edgar`."""
    env = os.environ if environ is None else environ
    value = env.get("EDGAR_HOME")
    if value:
        return value
    return join(os.path.expanduser("~"), ".edgar")


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
    def cache(self) -> str:
        """Machine-owned derived data: safe to delete, rebuilt when missing or unreadable."""
        return join(self.edgar, "cache")

    @property
    def word_cache(self) -> str:
        """Each skill's word set and name key for the near-duplicate check, keyed by file stat."""
        return join(self.cache, "skill-words.txt")

    @property
    def routing_cache(self) -> str:
        """What routing derives from each skill (skills/catalog.py), keyed by every skill's stat."""
        return join(self.cache, "routing.json")

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
    def rejected(self) -> str:
        """Model replies the writer refused, kept (bounded, redacted) for a person to read."""
        return join(self.edgar, "rejected")

    @property
    def hook_problems(self) -> str:
        """Problems an agent hook met (it always exits 0, so they are written down here)."""
        return join(self.edgar, "hook-problems.jsonl")

    @property
    def suggestions(self) -> str:
        """What was suggested to each agent session: one JSONL file per session, merge-safe."""
        return join(self.edgar, "suggestions")

    @property
    def routing_examples(self) -> str:
        """The prompts that led to a skill, which routing learns from (skills/examples.py)."""
        return join(self.edgar, "routing-examples.jsonl")

    @property
    def machine_owned(self) -> tuple[str, ...]:
        """Every place edgar writes on its own: none may be a link, and `doctor` checks them."""
        return (
            self.proposals,
            self.code_proposals,
            self.learned,
            self.versions,
            self.experience,
            self.decisions,
            self.cache,
            self.ledger,
            self.rejections,
            self.hook_problems,
            self.suggestions,
            self.routing_examples,
            self.rejected,
        )

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
    def shared_project_skills(self) -> tuple[str, ...]:
        """Other agents' project skill folders, read as hand-authored skills."""
        return (join(self.root, ".agents", "skills"), join(self.root, ".claude", "skills"))
