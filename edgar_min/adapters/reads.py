"""Which skills a shell command reads: the rule every agent that reads a `SKILL.md` through its shell shares.

An agent lists each skill's name, description and `SKILL.md` path to the model, which opens
the file itself (Codex through `exec_command`, Gemini CLI through `run_shell_command` or a
skill it loads by name). A skill counts as read when a program that prints a file (`READERS`:
`cat`, `sed -n`, `head`, `tail`, `nl`, ...) is given the path of a discovered skill's
`SKILL.md` (`skill_of_path`), its output not sent into a file; past `cd`, `&&`, pipes and
`bash -lc`, relative to the command's working folder. A write or an edit (`sed -i`, `>` into
it) is not a read, nor is a search (`rg`, `grep`: a few matching lines are not the skill).
"""

from __future__ import annotations

import os

from edgar_min.adapters.common import SKILL_FILE, skill_of_path
from edgar_min.charsets import DIGITS, consists_of
from edgar_min.regex import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Container

__all__ = ["READERS", "SHELLS", "SkillReads"]

SHELLS = frozenset({"bash", "sh", "zsh", "dash", "fish", "pwsh", "powershell"})

# Reading a skill. Codex's own detector of a skill used without being named counts these
# programs (codex-rs `skills/invocation_utils.rs`); `nl`, `tac` and `batcat` print a file too.
READERS = frozenset(
    {"cat", "head", "tail", "sed", "nl", "less", "more", "bat", "batcat", "awk", "gawk", "tac"}
)
_OPERATOR_CHARS = ";&|()<>\n"
_SETUP_WORDS = frozenset({"sudo", "command", "nohup", "env", "time", "exec", "builtin"})
_HEREDOC = lazy(r"<<-?[ \t]*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1")
MAX_DEPTH = 3
MAX_EXPANDED = 64


def _without_heredocs(command: str) -> str:
    """The command with each here-document's text dropped: what it feeds a program is not a command."""
    out, pos = [], 0
    for m in _HEREDOC.finditer(command):
        if m.start() < pos:
            continue
        line_end = command.find("\n", m.end())
        if line_end == -1:
            break
        out.append(command[pos:line_end])
        end = line_end
        delimiter = m.group(2)
        while end != -1:
            nxt = command.find("\n", end + 1)
            line = command[end + 1 : nxt if nxt != -1 else len(command)]
            end = nxt
            if line.strip() == delimiter:
                break
        pos = end if end != -1 else len(command)
    out.append(command[pos:])
    return "".join(out)


def _shell_words(command: str) -> list[str]:
    """The words and operators of a shell command; line breaks are operators, as in the shell."""
    import shlex

    lexer = shlex.shlex(command, posix=True, punctuation_chars=_OPERATOR_CHARS)
    lexer.whitespace = " \t\r"
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        return list(lexer)
    except ValueError:  # an unclosed quote: the words as they stand
        return command.split()


def _braces(word: str) -> list[str]:
    """`a/{x,y}/SKILL.md` as the shell expands it: `a/x/SKILL.md`, `a/y/SKILL.md`."""
    start = word.find("{")
    end = word.find("}", start + 1)
    if start == -1 or end == -1 or "," not in word[start:end]:
        return [word]
    tails = _braces(word[end + 1 :])
    return [word[:start] + part + tail for part in word[start + 1 : end].split(",") for tail in tails][
        :MAX_EXPANDED
    ]


def _in_place(program: str, args: list[str]) -> bool:
    """`sed -i` (any option cluster with `i`, `--in-place`) or gawk's `-i inplace`: an edit, not a read."""
    for i, word in enumerate(args):
        if word == "--":
            return False
        if program == "sed" and (
            word.startswith("--in-place") or (word[:1] == "-" and word[1:2] != "-" and "i" in word)
        ):
            return True
        inplace = word == "-iinplace" or (word == "-i" and args[i + 1 : i + 2] == ["inplace"])
        if program != "sed" and inplace:
            return True
    return False


class SkillReads:
    """The discovered skills whose `SKILL.md` a call's commands read."""

    def __init__(self, names: Container[str]) -> None:
        self.names = names

    def skill(self, word: str, base: str | None) -> str | None:
        """The discovered skill whose `SKILL.md` the path `word` is, or None (`skill_of_path`)."""
        return skill_of_path(word, base, self.names)

    def command(self, command: str, base: str | None, depth: int = 0) -> list[str]:
        """The skills a shell command reads, in order."""
        if SKILL_FILE not in command:
            return []
        if "<<" in command:
            command = _without_heredocs(command)
        return self.words(_shell_words(command), base, depth)

    def words(self, words: list[str], base: str | None, depth: int = 0) -> list[str]:
        """The skills the shell words of a command line read: each simple command in turn."""
        found: list[str] = []
        args: list[str] = []
        inputs: list[str] = []
        into_file = False
        target = ""  # what the word after a redirection is: "in", "out" or "" (a descriptor, /dev/null)
        for word in [*words, ";"]:
            if word and all(c in _OPERATOR_CHARS for c in word):
                if ">" in word or "<" in word:
                    descriptor = args.pop() if args and consists_of(args[-1], DIGITS) else ""
                    if word.endswith("&"):  # `2>&1`: a descriptor follows, not a file
                        target = ""
                    elif "<" in word and ">" not in word:
                        target = "in"
                    else:
                        target = "out" if descriptor in ("", "1") else ""
                    continue
                base = self._segment(args, inputs, base, into_file=into_file, depth=depth, found=found)
                args, inputs, into_file, target = [], [], False, ""
                continue
            if target == "in":
                inputs.append(word)
            elif target == "out":
                into_file = into_file or word != "/dev/null"
            else:
                args.append(word)
            target = ""
        return found

    def _segment(
        self,
        args: list[str],
        inputs: list[str],
        base: str | None,
        *,
        into_file: bool,
        depth: int,
        found: list[str],
    ) -> str | None:
        """Add the skills one simple command reads to `found`; the working folder after it."""
        i = 0
        while i < len(args) and ("=" in args[i].split("/", 1)[0] or args[i] in _SETUP_WORDS):
            i += 1
        if i >= len(args):
            return base
        program, rest = args[i].rsplit("/", 1)[-1], args[i + 1 :]
        if program == "cd":
            target = [w for w in rest if not w.startswith("-")]
            if len(target) == 1 and not target[0].startswith("~"):
                return os.path.join(base, target[0]) if base else target[0]
            return base
        if program in SHELLS and depth < MAX_DEPTH:
            for j, word in enumerate(rest[:-1]):
                if word.startswith("-") and "c" in word[1:] and not word.startswith("--"):
                    found.extend(self.command(rest[j + 1], base, depth + 1))
                    break
            return base
        if program not in READERS or into_file or _in_place(program, rest):
            return base
        for word in [*rest, *inputs]:
            if word.endswith(SKILL_FILE):
                for path in _braces(word):
                    name = self.skill(path, base)
                    if name is not None:
                        found.append(name)
        return base

    def argv(self, command: list[str], base: str | None) -> list[str]:
        """The skills an argument vector (one program and its words, no operators) reads."""
        found: list[str] = []
        if any(SKILL_FILE in word for word in command):
            self._segment(command, [], base, into_file=False, depth=0, found=found)
        return found
