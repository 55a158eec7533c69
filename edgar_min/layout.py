"""Where everything lives on disk, in one place.

Every path edgar_min reads or writes is built from a `Layout`, so the data
layout in the README and the code cannot drift apart.
"""

from __future__ import annotations

import os
from pathlib import Path

from edgar_min.records import dataclass

__all__ = ["Layout", "user_home"]


def user_home(environ: dict[str, str] | None = None) -> Path:
    """The user scope: `$EDGAR_HOME`, else `~/.edgar`."""
    env = os.environ if environ is None else environ
    value = env.get("EDGAR_HOME")
    if value:
        return Path(value)
    return Path.home() / ".edgar"


@dataclass(frozen=True, slots=True)
class Layout:
    """The project root and the user scope, and every folder under them."""

    root: Path
    home: Path

    @property
    def edgar(self) -> Path:
        return self.root / ".edgar"

    @property
    def project_config(self) -> Path:
        return self.edgar / "config.toml"

    @property
    def user_config(self) -> Path:
        return self.home / "config.toml"

    @property
    def skills(self) -> Path:
        """Hand-authored project skills: a person owns these."""
        return self.edgar / "skills"

    @property
    def learned(self) -> Path:
        """Machine-written skills, with provenance."""
        return self.skills / "learned"

    @property
    def history(self) -> Path:
        return self.learned / ".history"

    @property
    def archive(self) -> Path:
        return self.learned / ".archive"

    @property
    def versions(self) -> Path:
        """Every version of a learned skill or proposal the ledger names, by sha256."""
        return self.edgar / "versions"

    @property
    def ledger(self) -> Path:
        """The append-only change ledger: one JSON line per write, patch, accept, reject, archive, restore."""
        return self.edgar / "ledger.jsonl"

    @property
    def proposals(self) -> Path:
        return self.edgar / "proposals"

    @property
    def code_proposals(self) -> Path:
        return self.edgar / "code-proposals"

    @property
    def cache(self) -> Path:
        """Machine-owned derived data: safe to delete, rebuilt when missing or unreadable."""
        return self.edgar / "cache"

    @property
    def word_cache(self) -> Path:
        """Each skill's word set and name key for the near-duplicate check, keyed by file stat."""
        return self.cache / "skill-words.txt"

    @property
    def routing_cache(self) -> Path:
        """What routing derives from each skill (skills/catalog.py), keyed by every skill's stat."""
        return self.cache / "routing.json"

    @property
    def experience(self) -> Path:
        return self.edgar / "experience"

    @property
    def decisions(self) -> Path:
        return self.edgar / "decisions"

    @property
    def rejections(self) -> Path:
        """Logged rejections: synthesis or distill calls that failed."""
        return self.edgar / "rejections.jsonl"

    @property
    def rejected(self) -> Path:
        """Model replies the writer refused, kept (bounded, redacted) for a person to read."""
        return self.edgar / "rejected"

    @property
    def hook_problems(self) -> Path:
        """Problems an agent hook met (it always exits 0, so they are written down here)."""
        return self.edgar / "hook-problems.jsonl"

    @property
    def suggestions(self) -> Path:
        """What was suggested to each agent session: one JSONL file per session, merge-safe."""
        return self.edgar / "suggestions"

    @property
    def machine_owned(self) -> tuple[Path, ...]:
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
            self.rejected,
        )

    @property
    def registry(self) -> Path:
        """The code-skill tree (manifest registry)."""
        return self.root / "data" / "categories.json"

    @property
    def code_skills(self) -> Path:
        """Code skill bodies: `email.compose` -> `data/skills/email/compose.py`."""
        return self.root / "data" / "skills"

    @property
    def user_skills(self) -> Path:
        return self.home / "skills"

    @property
    def shared_project_skills(self) -> tuple[Path, ...]:
        """Other agents' project skill folders, read as hand-authored skills."""
        return (self.root / ".agents" / "skills", self.root / ".claude" / "skills")
